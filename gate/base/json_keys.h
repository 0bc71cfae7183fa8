/* Duplicate object keys in a parsed JSON document. cJSON keeps every member and its lookups
 * return the first, so a document with "instructions" twice would be read first-wins, silently:
 * every document gate reads is checked with this and refused instead. */
#ifndef GATE_JSON_KEYS_H
#define GATE_JSON_KEYS_H

#include <cjson/cJSON.h>

/* The first key (in document order of the objects) that some object holds twice, or NULL when
 * none does or out of memory prevented the check (then -1 in *failed, else 0). The name points
 * into the document. */
const char *json_keys_find_duplicate(const cJSON *root, int *failed);

#endif
