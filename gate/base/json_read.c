/* The strict JSON reading every untrusted document goes through. */
#include "json_read.h"

#include <math.h>

#include "json_keys.h"

static bool only_space(const char *text, size_t length)
{
	size_t i;

	for (i = 0; i < length; i++)
		if (text[i] != ' ' && text[i] != '\t' && text[i] != '\r' && text[i] != '\n')
			return false;
	return true;
}

cJSON *json_read_document(const char *text, size_t length, struct gate_error *err)
{
	const char *end = NULL, *duplicate;
	cJSON *root = cJSON_ParseWithLengthOpts(text, length, &end, 0);
	int failed = 0;

	if (root == NULL) {
		const char *at = cJSON_GetErrorPtr();

		gate_error_set(err, "not JSON (at byte %td)",
			       at != NULL && at >= text && at <= text + length ? at - text
									: (ptrdiff_t)length);
		return NULL;
	}
	if (end != NULL && !only_space(end, (size_t)(text + length - end))) {
		while (only_space(end, 1))
			end++;
		gate_error_set(err, "text after the JSON value (at byte %td)", end - text);
		cJSON_Delete(root);
		return NULL;
	}
	duplicate = json_keys_find_duplicate(root, &failed);
	if (failed != 0 || duplicate != NULL) {
		if (failed != 0)
			gate_error_oom(err);
		else
			gate_error_set(err, "the key '%s' appears twice in one object", duplicate);
		cJSON_Delete(root);
		return NULL;
	}
	return root;
}

bool json_read_count(const cJSON *item, uint64_t *value)
{
	double number;

	if (!cJSON_IsNumber(item))
		return false;
	number = item->valuedouble;
	/* Written so that NaN fails too. */
	if (!(number >= 0.0 && number <= JSON_EXACT_MAX) || number != floor(number))
		return false;
	*value = (uint64_t)number;
	return true;
}

bool json_read_number(const cJSON *item, bool non_negative, double *value)
{
	double number;

	if (!cJSON_IsNumber(item))
		return false;
	number = item->valuedouble;
	if (!isfinite(number) || fabs(number) > JSON_EXACT_MAX || (non_negative && number < 0))
		return false;
	*value = number;
	return true;
}
