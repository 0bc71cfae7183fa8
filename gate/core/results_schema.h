/* The results document's schema: every object gate writes into results.json and a baseline, as
 * tables of members (json_record.h) that the writer and the one reader share. docs/results-schema.md
 * lists them; test_results_schema checks that the list and the tables agree. */
#ifndef GATE_RESULTS_SCHEMA_H
#define GATE_RESULTS_SCHEMA_H

#include <stdint.h>

#include "json_record.h"
#include "slope.h"

/* One `code` entry (struct measurement): schema 3's name, messages, framework, cold and gated,
 * then gate's members. Read strictly (every figure checked against the counts it comes from), or
 * leniently for the page: a schema 3 document of another tool has framework and cold and no
 * counts, and its figures are then taken as they are. */
extern const struct json_record results_code_record;

/* code[].functions[] (struct function_cost) and code[].sites[] (struct site_cost). */
extern const struct json_record results_function_record;
extern const struct json_record results_site_record;
extern const struct json_record results_line_record;
/* code[].frames[] (struct flame_frame), and costgate.verdict.rows[].baseline_frames[]. */
extern const struct json_record results_frame_record;

/* costgate.failures[] (struct measurement: name and failure) and the values of costgate.runs
 * (struct measurement: source and valgrind_seconds). */
extern const struct json_record results_failure_record;
extern const struct json_record results_run_record;

/* Counts at 1, N and 2N as a JSON array, and back: exactly 3 integers below 2^53. */
cJSON *results_counts_array(const uint64_t counts[SLOPE_RUNS]);
int results_counts_read(const struct json_reader *reader, const cJSON *array, const char *path,
			uint64_t counts[SLOPE_RUNS]);

/* Every record of the document with the path its objects stand at ("code[]"), for the docs. */
struct results_schema_place {
	const char *path;
	const struct json_record *record;
};

extern const struct results_schema_place results_schema_places[];
extern const size_t results_schema_place_count;

#endif
