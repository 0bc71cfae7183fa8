/* Reading JSON that gate did not write (results, baselines, DHAT's profiles, acceptances,
 * declarations): one document and nothing after it, no key twice in one object, and numbers
 * taken only when a double holds them exactly. */
#ifndef GATE_JSON_READ_H
#define GATE_JSON_READ_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "error.h"

/* 2^53 - 1: the largest integer a JSON number read as a double holds exactly, with every integer
 * below it; a count above it may have been rounded on the way. */
#define JSON_EXACT_MAX 9007199254740991.0

/* Parses `length` bytes as one JSON value followed by nothing but white space, with no key twice
 * in one object. Returns the root, or NULL with err saying what is wrong, without saying where
 * the text came from (the caller prefixes that): "not JSON (at byte 12)", "text after the JSON
 * value (at byte 84)", "the key 'tbk' appears twice in one object", "out of memory". */
cJSON *json_read_document(const char *text, size_t length, struct gate_error *err);

/* A count: a non-negative integer no larger than JSON_EXACT_MAX. */
bool json_read_count(const cJSON *item, uint64_t *value);

/* A finite number within +-JSON_EXACT_MAX (and >= 0 when non_negative). */
bool json_read_number(const cJSON *item, bool non_negative, double *value);

#endif
