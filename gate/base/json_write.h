/* Writing JSON: cJSON's own layout, with every number written so that it reads back to the same
 * double. cJSON 1.7.15 keeps 15 significant digits whenever the result is within a relative
 * epsilon of the value, so 0.1 + 0.2 comes out as 0.3 and 2^53 - 1 as 9.00719925474099e+15: a
 * count or a per-message figure gate wrote would not read back as the one it measured. */
#ifndef GATE_JSON_WRITE_H
#define GATE_JSON_WRITE_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stddef.h>

/* A number as gate writes it, in JSON and in CSV: 15 significant digits when they read back to
 * the same double (cJSON's choice), else 17; "null" for one that is not finite (JSON has none). */
void json_number_text(char *text, size_t size, double value);

/* The text of `item`, laid out as cJSON_Print (formatted) or cJSON_PrintUnformatted lays it out,
 * byte for byte where cJSON's numbers are exact; a number cJSON would round is written with 17
 * digits (json_number_text). NULL when out of memory; the caller frees it with free(). *length,
 * when not NULL, is its length. */
char *json_print(const cJSON *item, bool formatted, size_t *length);

#endif
