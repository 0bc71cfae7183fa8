/* Records: one table of members read and written the same way (json_record.h). */
#define _GNU_SOURCE
#include "json_record.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_read.h"

int json_reader_bad(const struct json_reader *reader, const char *path, const char *problem)
{
	return gate_error_set(reader->err, "cannot read %s '%s': %s %s", reader->what, reader->source,
			      path, problem);
}

static void *at(void *record, size_t offset)
{
	return (char *)record + offset;
}

static const void *at_const(const void *record, size_t offset)
{
	return (const char *)record + offset;
}

static int read_value(const struct json_reader *reader, const struct json_field *field,
		      const cJSON *item, const char *path, void *record)
{
	void *value = at(record, field->offset);
	uint64_t count;

	switch (field->type) {
	case JSON_TEXT:
	case JSON_TEXT_FIXED:
	case JSON_TEXT_VIEW:
		if (!cJSON_IsString(item))
			return json_reader_bad(reader, path, "is not a string");
		if (field->type == JSON_TEXT_VIEW) {
			*(const char **)value = item->valuestring;
			return 0;
		}
		if (field->type == JSON_TEXT_FIXED) {
			snprintf(value, field->size, "%s", item->valuestring);
			return 0;
		}
		free(*(char **)value);
		*(char **)value = strdup(item->valuestring);
		return *(char **)value != NULL ? 0 : gate_error_oom(reader->err);
	case JSON_COUNT:
	case JSON_INDEX:
		if (!json_read_count(item, &count))
			return json_reader_bad(reader, path, "is not a non-negative integer below 2^53");
		if (field->type == JSON_COUNT)
			*(uint64_t *)value = count;
		else
			*(size_t *)value = (size_t)count;
		return 0;
	case JSON_NUMBER:
	case JSON_NONNEG:
		if (!json_read_number(item, field->type == JSON_NONNEG, value))
			return json_reader_bad(reader, path, field->type == JSON_NONNEG
								 ? "is not a non-negative number"
								 : "is not a number");
		return 0;
	case JSON_BOOL:
		if (!cJSON_IsBool(item))
			return json_reader_bad(reader, path, "is not a boolean");
		*(bool *)value = cJSON_IsTrue(item);
		return 0;
	case JSON_OBJECT:
		return json_record_read(reader, field->element, item, path, value);
	case JSON_ARRAY:
		if (json_record_read_array(reader, field->element, item, path, field->size,
					   (void **)value, (size_t *)at(record, field->count_offset)) != 0)
			return -1;
		if ((field->flags & JSON_NONEMPTY) != 0 && *(size_t *)at(record, field->count_offset) == 0)
			return json_reader_bad(reader, path, "is empty");
		return 0;
	case JSON_CUSTOM:
		return field->read(reader, item, path, record);
	}
	return json_reader_bad(reader, path, "has a type this gate does not know");
}

int json_record_read(const struct json_reader *reader, const struct json_record *record,
		     const cJSON *object, const char *path, void *into)
{
	size_t i;

	if (!cJSON_IsObject(object))
		return json_reader_bad(reader, path, object == NULL ? "is missing" : "is not an object");
	for (i = 0; i < record->count; i++) {
		const struct json_field *field = &record->fields[i];
		const cJSON *item = cJSON_GetObjectItemCaseSensitive(object, field->key);
		bool required = field->need == JSON_REQUIRED ||
				(field->need == JSON_STRICT && !reader->lenient);
		char where[256];

		snprintf(where, sizeof(where), "%s%s%s", path, path[0] != '\0' ? "." : "", field->key);
		if (item == NULL && required)
			return json_reader_bad(reader, where, "is missing");
		if (field->present != 0)
			*(bool *)at(into, field->present - 1) = item != NULL;
		if ((field->flags & JSON_NULLABLE) != 0 && cJSON_IsNull(item))
			continue;
		if ((item == NULL && field->type != JSON_CUSTOM) ||
		    (field->type == JSON_CUSTOM && field->read == NULL))
			continue;
		if (read_value(reader, field, item, where, into) != 0)
			return -1;
	}
	return record->finish != NULL ? record->finish(reader, object, path, into) : 0;
}

static bool is_empty(const struct json_field *field, const void *value)
{
	switch (field->type) {
	case JSON_TEXT:
	case JSON_TEXT_VIEW:
		return *(char *const *)value == NULL;
	case JSON_TEXT_FIXED:
		return *(const char *)value == '\0';
	case JSON_COUNT:
		return *(const uint64_t *)value == 0;
	case JSON_INDEX:
		return *(const size_t *)value == 0;
	case JSON_NUMBER:
	case JSON_NONNEG:
		return *(const double *)value == 0;
	case JSON_BOOL:
		return !*(const bool *)value;
	case JSON_OBJECT:
	case JSON_ARRAY:
	case JSON_CUSTOM:
		break;
	}
	return false;
}

static cJSON *write_value(const struct json_field *field, const void *record)
{
	const void *value = at_const(record, field->offset);

	switch (field->type) {
	case JSON_TEXT:
	case JSON_TEXT_VIEW:
		return *(char *const *)value != NULL ? cJSON_CreateString(*(char *const *)value)
						     : cJSON_CreateNull();
	case JSON_TEXT_FIXED:
		return cJSON_CreateString(value);
	case JSON_COUNT:
		return cJSON_CreateNumber((double)*(const uint64_t *)value);
	case JSON_INDEX:
		return cJSON_CreateNumber((double)*(const size_t *)value);
	case JSON_NUMBER:
	case JSON_NONNEG:
		return cJSON_CreateNumber(*(const double *)value);
	case JSON_BOOL:
		return cJSON_CreateBool(*(const bool *)value);
	case JSON_OBJECT:
		return json_record_object(field->element, value);
	case JSON_ARRAY:
		return json_record_array(field->element, *(void *const *)value, field->size,
					 *(const size_t *)at_const(record, field->count_offset));
	case JSON_CUSTOM:
		return field->write(record);
	}
	return NULL;
}

int json_record_write(const struct json_record *record, const void *from, cJSON *object)
{
	size_t i;

	for (i = 0; i < record->count; i++) {
		const struct json_field *field = &record->fields[i];
		cJSON *item;

		if (((field->flags & JSON_OMIT_EMPTY) != 0 &&
		     is_empty(field, at_const(from, field->offset))) ||
		    (field->type == JSON_CUSTOM && field->write == NULL))
			continue;
		item = write_value(field, from);
		if (item != NULL && field->type == JSON_CUSTOM && (field->flags & JSON_OMIT_EMPTY) != 0 &&
		    (cJSON_IsArray(item) || cJSON_IsObject(item)) && item->child == NULL) {
			cJSON_Delete(item);
			continue;
		}
		if (item == NULL || !cJSON_AddItemToObject(object, field->key, item)) {
			cJSON_Delete(item);
			return -1;
		}
	}
	return 0;
}

cJSON *json_record_object(const struct json_record *record, const void *from)
{
	cJSON *object = cJSON_CreateObject();

	if (object != NULL && json_record_write(record, from, object) != 0) {
		cJSON_Delete(object);
		return NULL;
	}
	return object;
}

cJSON *json_record_array(const struct json_record *record, const void *items, size_t size,
			 size_t count)
{
	cJSON *array = cJSON_CreateArray();
	size_t i;

	for (i = 0; array != NULL && i < count; i++)
		if (!cJSON_AddItemToArray(array, json_record_object(record, at_const(items, i * size)))) {
			cJSON_Delete(array);
			return NULL;
		}
	return array;
}

int json_record_read_array(const struct json_reader *reader, const struct json_record *record,
			   const cJSON *array, const char *path, size_t size, void **items,
			   size_t *count)
{
	const cJSON *item;
	char where[256];

	*count = 0;
	if (!cJSON_IsArray(array))
		return json_reader_bad(reader, path, array == NULL ? "is missing" : "is not an array");
	*items = calloc((size_t)cJSON_GetArraySize(array) + 1, size);
	if (*items == NULL)
		return gate_error_oom(reader->err);
	cJSON_ArrayForEach(item, array) {
		snprintf(where, sizeof(where), "%s[%zu]", path, *count);
		++*count;
		if (json_record_read(reader, record, item, where, at(*items, (*count - 1) * size)) != 0)
			return -1;
	}
	return 0;
}

const char *json_type_name(enum json_type type)
{
	static const char *const names[] = {
		[JSON_TEXT] = "string", [JSON_TEXT_FIXED] = "string", [JSON_TEXT_VIEW] = "string",
		[JSON_OBJECT] = "object", [JSON_COUNT] = "count",
		[JSON_INDEX] = "count", [JSON_NUMBER] = "number", [JSON_NONNEG] = "number >= 0",
		[JSON_BOOL] = "boolean", [JSON_ARRAY] = "array", [JSON_CUSTOM] = "object",
	};

	return (size_t)type < sizeof(names) / sizeof(names[0]) ? names[type] : "?";
}

const char *json_need_name(enum json_need need)
{
	return need == JSON_REQUIRED ? "required" : need == JSON_STRICT ? "required by gate" : "optional";
}
