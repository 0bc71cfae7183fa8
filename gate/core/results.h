/* results.json and baselines: one document format for both. Its `code` section keeps the layout
 * of the reference page's schema 3 (name, messages, framework, cold, gated) so a page that reads
 * that schema can chart it; everything gate adds sits beside those keys or under `costgate`. A
 * baseline is a results document committed on the target branch, read back into measurements. */
#ifndef GATE_RESULTS_H
#define GATE_RESULTS_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stddef.h>

#include "environment.h"
#include "error.h"
#include "measure.h"
#include "wallclock.h"


/* The schema every document gate writes declares: the reference page's. */
#define RESULTS_SCHEMA 3

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

/* Reads a parsed document: strictly (as results_parse), or with `lenient` as the page does, the
 * code section only and as much of each entry as schema 3 requires, so another tool's schema 3
 * document reads too: its figures are taken as stated (measurement.stated) when it has no
 * counts. */
int results_from_json(struct results *results, const cJSON *root, const char *source, bool lenient,
		      struct gate_error *err);

/* Reads and parses a file. */
int results_read_file(struct results *results, const char *path, struct gate_error *err);

/* Finds a scenario by name; NULL when absent. */
const struct measurement *results_find(const struct results *results, const char *name);

void results_release(struct results *results); /* NULL-safe */

/* A document as the page draws it (results_view.c): every section, checked value by value. The
 * strings of the pairs and facts point into the document, which must outlive the view; the code
 * section is the lenient reader's own copy. */
struct results_wall_summary {
	double best, median, worst; /* msg/s */
};

struct results_wall_loop {
	struct results_wall_summary raw, framework;
	double overhead;            /* percent, from the best rounds */
	bool indistinguishable;
};

/* One pair of the `scenarios` section (gate time): a scenario against its raw loop. */
struct results_wall_pair {
	const char *name, *title, *raw_name, *unit, *method;
	double messages;            /* 0 when the document does not say */
	struct results_wall_summary raw, framework;
	double overhead, median_overhead, spread;
	bool indistinguishable;
	struct results_wall_loop *loops; /* at least one (the pair itself when it has no loops);
					  * owned */
	size_t loop_count;
};

struct results_fact {
	const char *key, *value;    /* a member of the environment block */
};

struct results_view {
	struct results_wall_pair *pairs; /* owned, as the arrays below */
	size_t pair_count;
	struct results code;             /* the code section, read leniently (results_from_json) */
	struct results_fact *facts;
	size_t fact_count;
	bool has_environment;
};

/* Reads `document` (schema 3: `scenarios` and/or `code`, `environment` optional; `source` names
 * it in errors). Returns 0, or -1 with err naming the first value that is missing or of the
 * wrong type by its path ("cannot read results 'F': scenarios[0].raw.best is missing"); the view
 * is released either way on failure. */
int results_view_read(struct results_view *view, const cJSON *document, const char *source,
		      struct gate_error *err);

void results_view_release(struct results_view *view); /* NULL-safe */

/* The verdict gate wrote into costgate.verdict (results_view.c), as the exports read it. */
struct results_figures {
	double head, baseline, change_percent;
	bool has_baseline; /* baseline and change_percent are there */
	double limit_percent; /* the limit the figure was held to, when has_limit (a document
			       * before it had its row's limit_percent only) */
	bool has_limit;
};

struct results_verdict_row {
	const char *name, *state;
	const char *failure;           /* why a failed scenario failed, or NULL */
	double limit_percent;
	bool has_limit;
	const char **breaches;         /* owned array of the document's strings */
	size_t breach_count;
	const char **accepted_reasons; /* likewise, one per acceptance used */
	size_t accepted_count;
	/* Per metric gated at a limit, per message [0] and cold [1]: the row's "KEY" and
	 * "cold_KEY" figures, when it has them. */
	struct results_figures figures[METRIC_COUNT][2];
	bool has_figures[METRIC_COUNT][2];
	struct flame_frame *baseline_frames; /* a regressed row's: the baseline's call tree; owned */
	size_t baseline_frame_count;
};

struct results_verdict {
	struct results_verdict_row *rows; /* owned */
	size_t row_count;
	const char *summary;              /* "pass: 6 scenarios within their limits", or NULL */
	double exit_code;                 /* the run's exit code, when has_exit_code */
	bool has_exit_code;
};

/* Reads costgate.verdict when the document has one (none: no rows, not an error); errors name
 * the value by its path ("costgate.verdict.rows[2].state is not a string"). */
int results_verdict_read(struct results_verdict *verdict, const cJSON *document, const char *source,
			 struct gate_error *err);

/* The row of scenario `name`, or NULL. */
const struct results_verdict_row *results_verdict_find(const struct results_verdict *verdict,
						       const char *name);

void results_verdict_release(struct results_verdict *verdict); /* NULL-safe */

/* The whole document, to change one section of it (results_document.c). */

/* Reads a results document. A file that does not exist gives an empty object when `missing_ok`;
 * a file that is not one JSON object is an error naming it. */
int results_document_read(const char *path, bool missing_ok, cJSON **document,
			  struct gate_error *err);

/* Puts `item` (owned from here on, also on failure) under `key` in `document`, replacing what
 * was there, or else before `before` when the document has that key, or else at the end. */
int results_document_put(cJSON *document, const char *key, cJSON *item, const char *before);

/* The `scenarios` entry of a pair: name, unit, messages, pairs, raw, framework, overhead_percent,
 * verdict (schema 3), then what costgate adds: title, raw_scenario, median_overhead_percent,
 * spread_percent, round_seconds, loops (each with its own comparison) and rounds. NULL when out
 * of memory. */
cJSON *results_scenario_entry(const struct wall_pair *pair);

/* gate time's write: the file at `path` with its `scenarios` section (each entry with `method`)
 * and `environment` replaced and everything else kept; schema 3 when the file is new. */
int results_store_scenarios(const char *path, const struct wall_pair *pairs, size_t count,
			    const char *method, const struct environment *environment,
			    struct gate_error *err);

/* For gate's own write of results.json: when `document` has no `scenarios` section and the file
 * at `path` holds one (written by gate time), copies it over, so a run of gate keeps what gate
 * time measured. A missing or unreadable file is not an error: there is nothing to keep. */
int results_keep_scenarios(cJSON *document, const char *path);

#endif
