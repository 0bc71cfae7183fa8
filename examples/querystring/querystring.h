/* querystring: splits and decodes the query string of a URL ("a=1&b=two+words&c=%2F").
 * Two ways to read one: qs_split and qs_decode work in the caller's memory and never allocate;
 * qs_query_parse decodes everything into one heap block the caller frees. */
#ifndef QUERYSTRING_H
#define QUERYSTRING_H

#include <stddef.h>

/* One key=value pair of a query, as slices of the query itself (still encoded). */
struct qs_param {
	const char *key;     /* not NUL-terminated */
	size_t key_length;
	const char *value;   /* empty when the pair has no '=' */
	size_t value_length;
};

/* Splits `query` (without the '?') at '&' into at most `capacity` pairs; empty pairs are
 * skipped. Returns the number of pairs, or -1 when there are more than `capacity`. */
int qs_split(const char *query, size_t length, struct qs_param *params, size_t capacity);

/* Decodes `length` bytes of `source` into `target` ('+' is a space, %XX a byte) and
 * NUL-terminates it; `target` holds at least length + 1 bytes. Returns the decoded length,
 * or -1 on a malformed escape. */
long qs_decode(char *target, const char *source, size_t length);

/* A decoded query: every key and value NUL-terminated, in one block. */
struct qs_query;

/* Decodes every pair of `query` into one heap block (one malloc). Returns it, or NULL when
 * the query is malformed, has more than QS_PARAMS_MAX pairs, or memory runs out. */
struct qs_query *qs_query_parse(const char *query, size_t length);

/* The decoded value of the first pair whose decoded key is `key`, or NULL. */
const char *qs_query_get(const struct qs_query *query, const char *key);

/* Frees what qs_query_parse returned; NULL is fine. */
void qs_query_free(struct qs_query *query);

/* Most pairs qs_query_parse accepts. */
#define QS_PARAMS_MAX 32

#endif
