/* Duplicate keys: each object's member names sorted and compared neighbour to neighbour, so an
 * object of a million members costs a sort, not a million squared comparisons. Recursion goes
 * as deep as cJSON's own parser allowed (CJSON_NESTING_LIMIT). */
#include "json_keys.h"

#include <stdlib.h>
#include <string.h>

static int compare_names(const void *left, const void *right)
{
	return strcmp(*(const char *const *)left, *(const char *const *)right);
}

/* Only the member names of one object (not its children). */
static const char *duplicate_in(const cJSON *object, int *failed)
{
	const char **names;
	const cJSON *member;
	const char *found = NULL;
	size_t count = 0, i;

	for (member = object->child; member != NULL; member = member->next)
		count++;
	if (count < 2)
		return NULL;
	names = malloc(count * sizeof(*names));
	if (names == NULL) {
		*failed = -1;
		return NULL;
	}
	count = 0;
	for (member = object->child; member != NULL; member = member->next)
		names[count++] = member->string != NULL ? member->string : "";
	qsort(names, count, sizeof(*names), compare_names);
	for (i = 1; i < count && found == NULL; i++)
		if (strcmp(names[i - 1], names[i]) == 0)
			found = names[i];
	free(names);
	return found;
}

const char *json_keys_find_duplicate(const cJSON *root, int *failed)
{
	const cJSON *member;
	const char *found = NULL;

	*failed = 0;
	if (root == NULL)
		return NULL;
	if (cJSON_IsObject(root))
		found = duplicate_in(root, failed);
	for (member = root->child; member != NULL && found == NULL && *failed == 0;
	     member = member->next)
		found = json_keys_find_duplicate(member, failed);
	return found;
}
