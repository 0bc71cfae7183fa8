/* What gate measures, as two tables: the valgrind tools it runs (tool_table) and the metrics it
 * reads from their output (metric_table). Adding a metric is one entry in metric_table plus the
 * function that reads it; the runs, the slopes, results.json, the terminal table and the Markdown
 * report all follow the table.
 *
 * Every metric is counted under the region rules (docs/design.md rule 3) at 1, N and 2N deliveries,
 * and has a per-message figure, (count(2N) - count(N)) / N, and a cold one, count(1). */
#ifndef GATE_METRICS_H
#define GATE_METRICS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "acceptance.h"
#include "cache_geometry.h"
#include "callgrind.h"
#include "dhat.h"
#include "scenario.h"


/* The default limit of the allocator's instructions per message and cold: wider than the
 * program's own, since glibc malloc's work for the same calls moves with the heap's history
 * (docs/metrics.md, "The allocator's limit", says what was measured). */
#define ALLOCATOR_LIMIT_PERCENT 10.0

/* The valgrind runs of a scenario, three of each (1, N, 2N deliveries). */
enum metric_tool {
	TOOL_CALLGRIND, /* instructions, per function */
	TOOL_DHAT,      /* heap blocks and bytes, per allocation site */
	TOOL_CACHE,     /* callgrind with the cache simulation: estimated cycles */
	TOOL_COUNT
};

enum tool_parser { TOOL_PARSE_CALLGRIND, TOOL_PARSE_DHAT };

struct tool_entry {
	const char *name;           /* in raw file names, progress lines and failures */
	const char *const *options; /* valgrind's options for it, NULL-terminated: --tool= first */
	enum tool_parser parser;    /* which reader its output file goes through */
	bool opt_in;                /* run only for scenarios that want one of its metrics (its
				     * cost is too high for every run: docs/metrics.md) */
	uint64_t start_microseconds; /* valgrind's start-up with it, for the order runs start in */
};

extern const struct tool_entry tool_table[TOOL_COUNT];

/* One run's parsed output, as the readers get it. */
struct tool_output {
	const struct cg_profile *callgrind; /* TOOL_PARSE_CALLGRIND */
	const struct dhat_profile *dhat;    /* TOOL_PARSE_DHAT */
	const char *region;                 /* the measured region's function */
};

enum metric_id {
	METRIC_INSTRUCTIONS, /* the program's own, the allocator's left out */
	METRIC_ALLOCATIONS,
	METRIC_BYTES,
	METRIC_PEAK_BYTES,
	METRIC_ALLOCATOR_INSTRUCTIONS, /* the allocator's (malloc, free, ... and below) */
	METRIC_CYCLES,
	METRIC_SYSCALLS, /* system calls made in the region */
#if defined(GATE_TEST_METRIC) || defined(GATE_TEST_OPT_IN_METRIC) || defined(GATE_TEST_FLOOR_METRIC)
	METRIC_TEST, /* the throw-away metric of a test build, one of each shape (tests/metrics) */
#endif
	METRIC_COUNT
};

/* How a metric decides the verdict. */
enum metric_gating {
	METRIC_LIMIT,        /* per message and cold against the baseline, above the limit fails
			      * (for a metric gated on request, only where the scenario asks) */
	METRIC_FLOORS,       /* against the floors the scenario declares next to its code */
	METRIC_RISE,         /* a figure with a floor declared against the floor; one without
			      * against the baseline, where any rise fails (limit 0) */
	METRIC_REPORTED,     /* shown and stored, never gated */
};

/* Which declaration of a scenario sets the limit of a metric compared at a limit. */
enum metric_limit_setting {
	METRIC_LIMIT_FIXED,     /* none: the table's limit_percent always */
	METRIC_LIMIT_SCENARIO,  /* the scenario's limit_percent, when declared */
	METRIC_LIMIT_ALLOCATOR, /* the scenario's allocator_limit_percent, when declared */
};

struct metric {
	const char *key;    /* in results.json (code[].metrics.KEY) and accepted.json */
	const char *title;  /* for people: "estimated cycles" */
	const char *unit;   /* of one count: "instructions", "blocks", "bytes", "cycles" */
	const char *column; /* the terminal table's heading for its figure */
	enum metric_tool tool;
	/* Reads the metric's count from one run's output; returns -1 and sets *why when the output
	 * does not hold it. */
	int (*read)(const struct tool_output *output, uint64_t *count, const char **why);
	enum metric_gating gating;
	double limit_percent;  /* METRIC_LIMIT* and METRIC_RISE: the default limit, in percent */
	enum metric_limit_setting limit_setting; /* what a scenario declares to set it */
	bool per_allocation;   /* compared for as many heap allocations as the head makes: the
				* baseline's figure scaled by the change in allocations (per
				* message, or cold), which the floors judge */
	bool must_grow;        /* every message costs some: count(2N) <= count(N) is implausible */
	bool shows_cold;       /* the table shows the cold figure (a peak), not the per-message one */
	bool opt_in;           /* METRIC_LIMIT: gated only for a scenario that asks by the key (its
				* "gate_metrics"), reported for the others; a scenario that stops
				* asking is accepted as "gate_KEY", value 0 */
	bool floors;           /* METRIC_FLOORS, METRIC_RISE: a scenario may declare the floors
				* "steady_KEY" (per message) and "cold_KEY" (the 1-delivery run),
				* accepted higher as "steady_KEY_floor" and "cold_KEY_floor" */
	bool linearity;        /* a slope from 1 to N far from that from N to 2N fails the scenario */
	bool growth;           /* a slope from N to 2N further above the one from 1 to N than the
				* baseline's is a regression (docs/design.md, gating rules) */
	const char *limit_note; /* METRIC_LIMIT*: said after a breach of the limit, or NULL */
	bool required;          /* in every results.json since schema 3: a document without its
				 * counts is refused (the others may be absent from older ones) */
};
/* What baselines/accepted.json may name of a metric, all following from its table row: a figure
 * compared at a limit, "KEY" (per message) and "cold_KEY"; a floor raised, "steady_KEY_floor"
 * and "cold_KEY_floor"; a metric gated on request no longer asked for, "gate_KEY". Each is an
 * acceptance kind (METRIC_ACCEPTANCE) and each breach a bit of the verdict's
 * (verdict_metric_breach). */
enum metric_kind {
	METRIC_KIND_FIGURE,      /* "KEY" */
	METRIC_KIND_COLD,        /* "cold_KEY" */
	METRIC_KIND_STEADY_FLOOR, /* "steady_KEY_floor" */
	METRIC_KIND_COLD_FLOOR,  /* "cold_KEY_floor" */
	METRIC_KIND_GATE,        /* "gate_KEY" */
	METRIC_KINDS
};

extern const struct metric metric_table[METRIC_COUNT];

/* The metric of that results.json key, or NULL. */
const struct metric *metric_find(const char *key);

/* The name of one figure of a metric: "KEY" per message, "cold_KEY" cold, as the verdict rows of
 * results.json, baselines/accepted.json and gate history name it. */
void metric_figure_key(char *key, size_t size, enum metric_id metric, bool cold);

/* The metric such a name is a figure of, with *cold set; NULL for no metric of the table. */
const struct metric *metric_figure_find(const char *key, bool *cold);

/* Does `info` ask for `tool`'s runs: every tool that is not opt-in, and an opt-in one when the
 * scenario gates one of its metrics (asks for it, or declares a floor on it) or `every_metric`
 * (gate --all-metrics). */
bool metric_tool_wanted(enum metric_tool tool, const struct scenario_info *info,
			bool every_metric);

/* Why a document must hold the metric's counts for a scenario with `info`: "every document has
 * it", the opt-in that gates it, or the floor declared on it; NULL when they may be absent (an
 * older document, or a metric not asked for). A gated metric without counts must never pass
 * unchecked. */
const char *metric_required_by(enum metric_id metric, const struct scenario_info *info,
			       char *why, size_t why_size);

/* The acceptance kind (acceptance.h) of a metric's figure ("KEY" per message, "cold_KEY" cold), of
 * its floor and of its opt-in: constants for initializers; metric_acceptance checks the metric is
 * gated at a limit. */
#define METRIC_KIND(metric, kind) (ACCEPT_FIGURES + METRIC_KINDS * (unsigned)(metric) + (unsigned)(kind))
#define METRIC_ACCEPTANCE(metric, cold) \
	METRIC_KIND(metric, (cold) ? METRIC_KIND_COLD : METRIC_KIND_FIGURE)
#define METRIC_FLOOR_ACCEPTANCE(metric, cold) \
	METRIC_KIND(metric, (cold) ? METRIC_KIND_COLD_FLOOR : METRIC_KIND_STEADY_FLOOR)

/* The metric and kind of an acceptance kind at or above ACCEPT_FIGURES. */
enum metric_id metric_of_kind(unsigned kind, enum metric_kind *which);

/* METRIC_ACCEPTANCE for a metric gated at a limit; -1 for any other. */
int metric_acceptance(enum metric_id metric, bool cold);

/* The name of a metric's kind ("steady_bytes_floor"), "" where the metric has no such kind. */
void metric_kind_name(char *name, size_t size, enum metric_id metric, enum metric_kind kind);

/* The floor "steady_KEY" or "cold_KEY" the scenario declares on the metric, or 0 when none. */
double metric_floor(const struct scenario_info *info, enum metric_id metric, bool cold);

/* The floor's key: "steady_KEY" or "cold_KEY". */
void metric_floor_key(char *key, size_t size, enum metric_id metric, bool cold);

/* The metric that takes the floor `key` ("steady_bytes"), or NULL. */
const struct metric *metric_of_floor(const char *key);

/* Does the scenario gate the metric: not opt-in, or asked for by its key. */
bool metric_opted_in(enum metric_id metric, const struct scenario_info *info);

/* Every floor the scenario declares holds a metric that takes floors, and every metric it asks to
 * gate is one gated on request; else an error naming the scenario, the key and what it may be
 * (a scenario built for another gate's metrics is refused, never measured without them). */
int metric_check_declarations(const struct scenario_info *info, struct gate_error *err);

/* The figures an acceptance may name, from the table: for acceptance_read. */
const struct acceptance_figures *metric_acceptance_figures(void);

/* Does the metric decide this scenario's verdict against the baseline at a limit. */
bool metric_limit_gated(enum metric_id metric, const struct scenario_info *info);

/* Is the metric ever compared with the baseline at a limit: METRIC_LIMIT (opt-in or not) and
 * METRIC_RISE (whose limit is 0). Its figures then have acceptances and breach bits. */
bool metric_compares(enum metric_id metric);

/* The limit, in percent, that a scenario declaring `info` holds the metric to (the table's
 * default where it declares none). */
double metric_limit_percent(enum metric_id metric, const struct scenario_info *info);

#endif
