/* results.json and baselines: one document format for both. Its `code` section keeps the layout
 * of the reference page's schema 3 (name, messages, framework, cold, gated) so a page that reads
 * that schema can chart it; everything gate adds sits beside those keys or under `costgate`. A
 * baseline is a results document committed on the target branch, read back into measurements. */
#ifndef GATE_RESULTS_H
#define GATE_RESULTS_H

#include <cjson/cJSON.h>
#include <stddef.h>

#include "environment.h"
#include "error.h"
#include "measure.h"

struct verdict;


/* The `code` entry of one measured scenario (failed ones have none). */
cJSON *results_code_entry(const struct measurement *measurement);

/* The whole document: schema 3, environment, code (measured scenarios in name order) and the
 * `costgate` block (schema, fingerprint, messages, failures, and the verdict when given). */
cJSON *results_document(const struct measurement *measurements, size_t count,
			const struct environment *environment, const struct verdict *verdict);

/* Writes `document` to `path` through a temporary file in the same directory and a rename, so
 * an interrupted write leaves the previous file whole. */
int results_write_file(const cJSON *document, const char *path, struct gate_error *err);

/* A document read back: measurements with their figures and detail, and the fingerprint. */
struct results {
	struct measurement *measurements; /* sorted by name; owned */
	size_t count;
	uint64_t messages;                /* N the document was measured with */
	struct environment fingerprint;   /* only the fingerprint fields are set */
};

#define RESULTS_INIT { NULL, 0, 0, ENVIRONMENT_INIT }

/* Parses a document from `text` (`source` names it in errors: a path, or "main:baselines/...").
 * Every value is checked: type, sign, range (counts are integers below 2^53), that the figures
 * agree with the counts they come from, and that no scenario appears twice. */
int results_parse(struct results *results, const char *text, size_t length, const char *source,
		  struct gate_error *err);

/* Reads and parses a file. */
int results_read_file(struct results *results, const char *path, struct gate_error *err);

/* Finds a scenario by name; NULL when absent. */
const struct measurement *results_find(const struct results *results, const char *name);

void results_release(struct results *results); /* NULL-safe */

#endif
