/* Records (json_record.h): a table of members writes an object and reads it back to the same
 * struct; each type refuses a value of another type by its path; the needs hold for the strict
 * and the lenient reader; null and empty members follow their flags; and arrays of records read
 * and write alike. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "json_record.h"
#include "json_write.h"

struct sample {
	char *name;
	char label[8];
	uint64_t count;
	size_t index;
	double number, size;
	bool flag, has_flag;
	char *note;             /* nullable */
	char *extra;            /* written only when set */
};

static const struct json_field sample_fields[] = {
	{ .key = "name", JSON_TEXT_MEMBER(struct sample, name), .need = JSON_REQUIRED, .since = "0.1.0" },
	{ .key = "label", JSON_TEXT_FIXED, offsetof(struct sample, label), sizeof(((struct sample *)0)->label),
	  .need = JSON_OPTIONAL, .since = "0.1.0" },
	{ .key = "count", JSON_COUNT_MEMBER(struct sample, count), .need = JSON_STRICT, .since = "0.1.0" },
	{ .key = "index", JSON_INDEX_MEMBER(struct sample, index), .need = JSON_OPTIONAL, .since = "0.1.0" },
	{ .key = "number", JSON_NUMBER_MEMBER(struct sample, number), .need = JSON_OPTIONAL, .since = "0.1.0" },
	{ .key = "size", JSON_NONNEG_MEMBER(struct sample, size), .need = JSON_OPTIONAL, .since = "0.2.0" },
	{ .key = "flag", JSON_BOOL_MEMBER(struct sample, flag), .need = JSON_OPTIONAL, .since = "0.2.0",
	  .present = JSON_PRESENT(struct sample, has_flag) },
	{ .key = "note", JSON_TEXT_MEMBER(struct sample, note), .need = JSON_REQUIRED, .since = "0.2.0",
	  .flags = JSON_NULLABLE },
	{ .key = "extra", JSON_TEXT_MEMBER(struct sample, extra), .need = JSON_OPTIONAL, .since = "0.3.0",
	  .flags = JSON_OMIT_EMPTY },
};

static const struct json_record sample_record = JSON_RECORD("sample", sample_fields, NULL);

static void release(struct sample *sample)
{
	free(sample->name);
	free(sample->note);
	free(sample->extra);
	*sample = (struct sample){ 0 };
}

/* Reads `text` (one object) at path "s"; returns the status, err holding the message. */
static int read_sample(const char *text, bool lenient, struct sample *sample, struct gate_error *err)
{
	const struct json_reader reader = { "sample", "test.json", lenient, err };
	cJSON *object = cJSON_Parse(text);
	int status;

	*err = (struct gate_error)GATE_ERROR_INIT;
	*sample = (struct sample){ 0 };
	status = json_record_read(&reader, &sample_record, object, "s", sample);
	cJSON_Delete(object);
	return status;
}

static void record_should_write_and_read_back_every_member(void)
{
	struct sample written = { strdup("a"), "lbl", 9007199254740991ULL, 7, -1.0 / 3.0, 2.5, true,
				  false, NULL, strdup("x") }, read;
	struct gate_error err;
	cJSON *object = json_record_object(&sample_record, &written);
	char *text = json_print(object, false, NULL);

	CHECK_STR(text, "{\"name\":\"a\",\"label\":\"lbl\",\"count\":9007199254740991,\"index\":7,"
			"\"number\":-0.33333333333333331,\"size\":2.5,\"flag\":true,\"note\":null,"
			"\"extra\":\"x\"}");
	CHECK(read_sample(text, false, &read, &err) == 0);
	CHECK_STR(err.message, "");
	CHECK_STR(read.name, "a");
	CHECK_STR(read.label, "lbl");
	CHECK_U64(read.count, 9007199254740991ULL);
	CHECK_U64(read.index, 7);
	CHECK(read.number == -1.0 / 3.0 && read.size == 2.5 && read.flag && read.has_flag);
	CHECK(read.note == NULL);
	CHECK_STR(read.extra, "x");
	release(&read);
	free(written.extra);
	written.extra = NULL;
	free(text);
	cJSON_Delete(object);
	object = json_record_object(&sample_record, &written);
	CHECK(cJSON_GetObjectItemCaseSensitive(object, "extra") == NULL); /* empty: not written */
	cJSON_Delete(object);
	release(&written);
}

static void check_refused(const char *text, bool lenient, const char *problem)
{
	struct sample sample;
	struct gate_error err;

	CHECK(read_sample(text, lenient, &sample, &err) == -1);
	CHECK_CONTAINS(err.message, "cannot read sample 'test.json': ");
	CHECK_CONTAINS(err.message, problem);
	release(&sample);
}

static void record_should_refuse_each_wrong_value_by_its_path(void)
{
	check_refused("{\"count\":1,\"note\":null}", false, "s.name is missing");
	check_refused("{\"name\":3,\"count\":1,\"note\":null}", false, "s.name is not a string");
	check_refused("{\"name\":\"a\",\"count\":-1,\"note\":null}", false,
		      "s.count is not a non-negative integer below 2^53");
	check_refused("{\"name\":\"a\",\"count\":1.5,\"note\":null}", false, "s.count is not a");
	check_refused("{\"name\":\"a\",\"count\":9007199254740992,\"note\":null}", false, "s.count is not a");
	check_refused("{\"name\":\"a\",\"count\":1,\"index\":\"7\",\"note\":null}", false, "s.index is not a");
	check_refused("{\"name\":\"a\",\"count\":1,\"number\":\"x\",\"note\":null}", false,
		      "s.number is not a number");
	check_refused("{\"name\":\"a\",\"count\":1,\"size\":-2,\"note\":null}", false,
		      "s.size is not a non-negative number");
	check_refused("{\"name\":\"a\",\"count\":1,\"flag\":1,\"note\":null}", false, "s.flag is not a boolean");
	check_refused("{\"name\":\"a\",\"count\":1}", false, "s.note is missing");
	check_refused("{\"name\":\"a\",\"count\":1,\"note\":false}", false, "s.note is not a string");
	check_refused("[]", false, "s is not an object");
}

/* JSON_STRICT: the strict reader refuses its absence, the lenient one does not; an optional
 * member's absence leaves the struct as it was, and says so through `present`. */
static void record_should_need_members_as_declared(void)
{
	struct sample sample;
	struct gate_error err;

	check_refused("{\"name\":\"a\",\"note\":null}", false, "s.count is missing");
	CHECK(read_sample("{\"name\":\"a\",\"note\":null}", true, &sample, &err) == 0);
	CHECK_U64(sample.count, 0);
	CHECK(!sample.has_flag);
	release(&sample);
	check_refused("{\"note\":null}", true, "s.name is missing");
	CHECK(read_sample("{\"name\":\"a\",\"count\":1,\"note\":\"n\",\"label\":\"longer than 8\","
			  "\"other\":[1]}", false, &sample, &err) == 0);
	CHECK_STR(sample.note, "n");
	CHECK_STR(sample.label, "longer "); /* cut to its size */
	release(&sample);
}

static void record_should_read_and_write_arrays_of_records(void)
{
	const struct json_reader reader = { "sample", "test.json", false, NULL };
	struct gate_error err = GATE_ERROR_INIT;
	const struct json_reader failing = { "sample", "test.json", false, &err };
	struct sample items[2] = { { .name = "one", .count = 1 }, { .name = "two", .count = 2 } };
	struct sample *read = NULL;
	size_t count = 0, i;
	cJSON *array = json_record_array(&sample_record, items, sizeof(items[0]), 2);

	CHECK(cJSON_GetArraySize(array) == 2);
	CHECK(json_record_read_array(&reader, &sample_record, array, "list", sizeof(*read),
				     (void **)&read, &count) == 0);
	CHECK_U64(count, 2);
	if (count == 2) {
		CHECK_STR(read[1].name, "two");
		CHECK_U64(read[1].count, 2);
	}
	for (i = 0; i < count; i++)
		release(&read[i]);
	free(read);
	cJSON_DeleteItemFromObjectCaseSensitive(cJSON_GetArrayItem(array, 1), "name");
	CHECK(json_record_read_array(&failing, &sample_record, array, "list", sizeof(*read),
				     (void **)&read, &count) == -1);
	CHECK_CONTAINS(err.message, "list[1].name is missing");
	CHECK_U64(count, 2); /* begun, so released */
	for (i = 0; i < count; i++)
		release(&read[i]);
	free(read);
	cJSON_Delete(array);
}

/* A string that stays in the document, and a member struct read through its own record. */
struct point {
	double x, y;
};

struct labelled {
	const char *label;
	struct point at;
};

static const struct json_field point_fields[] = {
	{ .key = "x", JSON_NUMBER_MEMBER(struct point, x), .need = JSON_REQUIRED, .since = "0.1.0" },
	{ .key = "y", JSON_NUMBER_MEMBER(struct point, y), .need = JSON_REQUIRED, .since = "0.1.0" },
};

static const struct json_record point_record = JSON_RECORD("point", point_fields, NULL);

static const struct json_field labelled_fields[] = {
	{ .key = "label", JSON_VIEW_MEMBER(struct labelled, label), .need = JSON_REQUIRED,
	  .since = "0.1.0" },
	{ .key = "at", JSON_OBJECT_MEMBER(struct labelled, at, &point_record), .need = JSON_REQUIRED,
	  .since = "0.1.0" },
};

static const struct json_record labelled_record = JSON_RECORD("labelled", labelled_fields, NULL);

static void record_should_point_into_the_document_and_read_member_structs(void)
{
	struct gate_error err = GATE_ERROR_INIT;
	const struct json_reader reader = { "labelled", "test.json", false, &err };
	cJSON *object = cJSON_Parse("{\"label\":\"here\",\"at\":{\"x\":1.5,\"y\":-2}}");
	struct labelled read = { 0 };
	cJSON *written;
	char *text;

	CHECK(json_record_read(&reader, &labelled_record, object, "l", &read) == 0);
	CHECK(read.label == cJSON_GetObjectItemCaseSensitive(object, "label")->valuestring);
	CHECK(read.at.x == 1.5 && read.at.y == -2);
	written = json_record_object(&labelled_record, &read);
	text = json_print(written, false, NULL);
	CHECK_STR(text, "{\"label\":\"here\",\"at\":{\"x\":1.5,\"y\":-2}}");
	free(text);
	cJSON_Delete(written);
	cJSON_DeleteItemFromObjectCaseSensitive(cJSON_GetObjectItemCaseSensitive(object, "at"), "y");
	CHECK(json_record_read(&reader, &labelled_record, object, "l", &read) == -1);
	CHECK_CONTAINS(err.message, "cannot read labelled 'test.json': l.at.y is missing");
	cJSON_Delete(object);
}

int main(void)
{
	RUN(record_should_write_and_read_back_every_member);
	RUN(record_should_refuse_each_wrong_value_by_its_path);
	RUN(record_should_need_members_as_declared);
	RUN(record_should_read_and_write_arrays_of_records);
	RUN(record_should_point_into_the_document_and_read_member_structs);
	return CHECK_EXIT();
}
