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


/* The `code` entry of one measured scenario (failed ones have none). */
cJSON *results_code_entry(const struct measurement *measurement);

/* The whole document: schema 3, environment, code (measured scenarios in name order) and the
 * `costgate` block (schema, fingerprint, messages, failures, and `verdict`, the verdict's own
 * JSON (verdict_to_json), when given: the document takes it, and deletes it on failure). */
cJSON *results_document(const struct measurement *measurements, size_t count,
			const struct environment *environment, cJSON *verdict);

/* Writes `document` to `path` through a temporary file in the same directory and a rename, so
 * an interrupted write leaves the previous file whole. */
int results_write_file(const cJSON *document, const char *path, struct gate_error *err);

/* The same with the temporary file in `directory` (on the same file system; when it is not, the
 * file is written beside `path` after all). For files in the repository, such as a baseline: a
 * write killed half way then leaves its temporary file in the build directory, not in a place
 * where `git add` would take it. */
int results_write_file_via(const cJSON *document, const char *path, const char *directory,
			   struct gate_error *err);

/* Marks a document as shard `index` of `count`, listing every scenario selected before the
 * split (`filtered`: the selection was narrowed with --scenario), so a merge can tell a missing
 * or overlapping shard. */
int results_add_shard(cJSON *document, unsigned index, unsigned count, const char *const *selected,
		      size_t selected_count, bool filtered);

/* A document read back: measurements with their figures and detail, and the fingerprint. */
struct results {
	struct measurement *measurements; /* measured scenarios, sorted by name; owned */
	size_t count;
	struct measurement *failures;     /* scenarios that failed to measure (name, failure); owned */
	size_t failure_count;
	uint64_t messages;                /* N the document was measured with */
	struct environment fingerprint;   /* the fingerprint, and the machine facts of the
					   * environment block when the document has one */
	unsigned shard_index;             /* 0 when the document is not a shard */
	unsigned shard_count;
	char **selected;                  /* a shard's list of the selected scenarios; owned */
	size_t selected_count;
	bool filtered;                    /* the shard's selection was narrowed with --scenario */
};

#define RESULTS_INIT { 0 }

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
