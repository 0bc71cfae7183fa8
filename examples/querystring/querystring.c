/* querystring: split at '&' and '=', then percent-decode. Plain C89, no locale: a hex digit
 * is decided by hand, never by isxdigit(). */
#include "querystring.h"

#include <stdlib.h>
#include <string.h>

struct qs_query {
	int count;
	const char *keys[QS_PARAMS_MAX];
	const char *values[QS_PARAMS_MAX];
	char text[1]; /* the decoded keys and values, back to back; allocated longer */
};

/* The value of a hex digit, or -1. */
static int hex_value(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

int qs_split(const char *query, size_t length, struct qs_param *params, size_t capacity)
{
	size_t start = 0;
	size_t count = 0;

	while (start < length) {
		const char *pair = query + start;
		const char *end = memchr(pair, '&', length - start);
		size_t pair_length = end != NULL ? (size_t)(end - pair) : length - start;
		const char *equals = memchr(pair, '=', pair_length);

		if (pair_length > 0) {
			if (count == capacity)
				return -1;
			params[count].key = pair;
			params[count].key_length = equals != NULL ? (size_t)(equals - pair) : pair_length;
			params[count].value = equals != NULL ? equals + 1 : pair + pair_length;
			params[count].value_length =
				equals != NULL ? pair_length - params[count].key_length - 1 : 0;
			count++;
		}
		start += pair_length + 1;
	}
	return (int)count;
}

long qs_decode(char *target, const char *source, size_t length)
{
	size_t in = 0;
	size_t out = 0;

	while (in < length) {
		int c = (unsigned char)source[in];

		if (c == '+') {
			target[out++] = ' ';
			in++;
		} else if (c == '%') {
			int high, low;

			if (length - in < 3)
				return -1;
			high = hex_value((unsigned char)source[in + 1]);
			low = hex_value((unsigned char)source[in + 2]);
			if (high < 0 || low < 0)
				return -1;
			target[out++] = (char)(high * 16 + low);
			in += 3;
		} else {
			target[out++] = (char)c;
			in++;
		}
	}
	target[out] = '\0';
	return (long)out;
}

struct qs_query *qs_query_parse(const char *query, size_t length)
{
	struct qs_param params[QS_PARAMS_MAX];
	struct qs_query *parsed;
	char *text;
	int count, i;

	count = qs_split(query, length, params, QS_PARAMS_MAX);
	if (count < 0)
		return NULL;
	/* Decoded text is never longer than the encoded: the query's length plus a NUL for each
	 * key and each value is always enough. */
	parsed = malloc(sizeof(*parsed) + length + 2 * (size_t)count);
	if (parsed == NULL)
		return NULL;
	parsed->count = count;
	text = parsed->text;
	for (i = 0; i < count; i++) {
		long key_length = qs_decode(text, params[i].key, params[i].key_length);
		long value_length;

		if (key_length < 0)
			goto malformed;
		parsed->keys[i] = text;
		text += key_length + 1;
		value_length = qs_decode(text, params[i].value, params[i].value_length);
		if (value_length < 0)
			goto malformed;
		parsed->values[i] = text;
		text += value_length + 1;
	}
	return parsed;

malformed:
	free(parsed);
	return NULL;
}

/* Compared byte by byte rather than with strcmp(): the keys live in a heap block, and an
 * optimised strcmp's cost depends on where the block lands (a page boundary near the string
 * takes a slower path), which would make the same lookup cost differently from run to run. */
static int same_text(const char *a, const char *b)
{
	while (*a != '\0' && *a == *b) {
		a++;
		b++;
	}
	return *a == *b;
}

const char *qs_query_get(const struct qs_query *query, const char *key)
{
	int i;

	for (i = 0; i < query->count; i++) {
		if (same_text(query->keys[i], key))
			return query->values[i];
	}
	return NULL;
}

void qs_query_free(struct qs_query *query)
{
	free(query);
}
