/* A JSON item by its path, for the tests that look into documents: members by name and array
 * items by index, "code[1].framework.instructions" as messages write it. */
#ifndef COSTGATE_TEST_JSON_AT_H
#define COSTGATE_TEST_JSON_AT_H

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

/* The item at `path` below `root` (the root itself for ""); NULL when a step is missing. */
static inline cJSON *json_at(const cJSON *root, const char *path)
{
	const cJSON *item = root;
	char key[128];

	while (item != NULL && *path != '\0') {
		if (*path == '[') {
			char *end;
			long index = strtol(path + 1, &end, 10);

			item = *end == ']' ? cJSON_GetArrayItem(item, (int)index) : NULL;
			path = *end == ']' ? end + 1 : end;
		} else {
			size_t length = strcspn(path, ".[");

			if (length >= sizeof(key))
				return NULL;
			memcpy(key, path, length);
			key[length] = '\0';
			item = cJSON_GetObjectItemCaseSensitive(item, key);
			path += length;
		}
		if (*path == '.')
			path++;
	}
	return (cJSON *)item;
}

/* The string at `path`, NULL when there is none. */
static inline const char *json_string_at(const cJSON *root, const char *path)
{
	return cJSON_GetStringValue(json_at(root, path));
}

/* The number at `path`, NaN when there is none. */
static inline double json_number_at(const cJSON *root, const char *path)
{
	return cJSON_GetNumberValue(json_at(root, path));
}

#endif
