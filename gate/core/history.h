/* The history of a baseline: every version of baselines/REF.json on the first-parent line of a
 * branch, read with the same strict reader as --baseline, turned into one series per scenario
 * and figure (each metric the versions hold, per message and cold) with the commits that changed
 * it. No server: the history is git's. */
#ifndef GATE_HISTORY_H
#define GATE_HISTORY_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stddef.h>

#include "error.h"
#include "metrics.h"

/* The figure a series follows: one metric of the table (metrics.h), per message or cold. */
struct history_figure {
	enum metric_id metric;
	bool cold;                /* its cold figure, count(1); else its per-message one */
};

/* Longest names a figure gets: "cold_" and a metric key; "cold-start " and a metric title. */
#define HISTORY_KEY_SIZE 48
#define HISTORY_LABEL_SIZE 96

/* A commit on the walked line. */
struct history_commit {
	char *hash;               /* full hash; owned, as every string here */
	char *short_hash;         /* abbreviated, at least 7 hex digits */
	char *date;               /* committer date, YYYY-MM-DD */
	char *subject;            /* the first line of the message, as committed (untrusted) */
};

/* A commit whose baseline was read. */
struct history_version {
	struct history_commit commit;
	char *fingerprint_change; /* what differs from the version before ("compiler: GNU 12.2.0 ->
				   * GNU 13.2.0"), or NULL: a step here is the toolchain's */
};

/* A commit whose baseline could not be read: reported and left out. */
struct history_skip {
	struct history_commit commit;
	char *problem;            /* the reader's message */
};

/* One figure at a commit that changed it. */
struct history_point {
	size_t version;           /* index into history.versions */
	double value;
	bool has_change;          /* false for the first point of a series */
	double change_percent;    /* from the point before */
	char *accepted;           /* the reason baselines/accepted.json at that commit gives for
				   * accepting this rise, or NULL */
};

struct history_series {
	char *scenario;
	struct history_figure figure;
	char key[HISTORY_KEY_SIZE];     /* "instructions", "cold_instructions": the JSON's "metric",
					 * the chart's file name */
	char label[HISTORY_LABEL_SIZE]; /* "instructions per message", "cold-start instructions" */
	struct history_point *points; /* oldest first; at least one */
	size_t point_count;
	double drift_percent;     /* from the first point to the last: the steps added up */
};

struct history {
	char *ref;                /* the fully qualified ref walked, e.g. "refs/heads/main" */
	char *tip;                /* the commit it named */
	char *path;               /* "baselines/main.json" */
	struct history_version *versions; /* oldest first */
	size_t version_count;
	struct history_skip *skipped;     /* oldest first */
	size_t skipped_count;
	struct history_series *series;    /* by scenario name, the per-message figures first, then
					   * by metric in the table's order */
	size_t series_count;
};

#define HISTORY_INIT { 0 }

/* What to walk. */
struct history_request {
	const char *root;         /* the repository's top directory */
	const char *ref;          /* a branch name, e.g. "main" (never a tag) */
	const char *since;        /* YYYY-MM-DD: commits on or after that day only, or NULL */
	char *const *patterns;    /* scenario globs; none means every scenario */
	size_t pattern_count;
};

/* The status of a walk: a history, none to be had (exit 4), or a bad request (exit 2). */
enum history_status { HISTORY_FOUND = 0, HISTORY_NONE = 1, HISTORY_BAD_REQUEST = -1 };

/* Resolves `ref` as refs/remotes/origin/REF when that exists, else refs/heads/REF (never a tag
 * or an abbreviation), and reads every version of baselines/REF.json on its first-parent line.
 * A version that does not parse goes to `skipped` with the reader's message; the others are
 * the history. HISTORY_NONE when the ref does not exist or no version could be read;
 * HISTORY_BAD_REQUEST when the ref or the date is malformed or no scenario matches. */
enum history_status history_walk(struct history *history, const struct history_request *request,
				 struct gate_error *err);

/* Whether `text` is a date gate accepts for --since (YYYY-MM-DD, a real day). */
bool history_valid_date(const char *text);

/* Names the series' figure: its key and label from the metric table. -1 when the label does not
 * fit. */
int history_series_name(struct history_series *series, struct history_figure figure);

/* The history as a JSON document (gate history --json) and read back strictly (gate report
 * --history): every value checked, the series' percentages recomputed from their figures.
 * `source` names the document in errors. */
cJSON *history_to_json(const struct history *history);
int history_from_json(struct history *history, const cJSON *document, const char *source,
		      struct gate_error *err);

void history_release(struct history *history); /* NULL-safe */

#endif
