/* The verdict: every scenario's head figures against its declared floors and, when there is
 * one, the baseline; one state per row and one exit code for the run (docs/design.md, gating
 * rules). */
#ifndef GATE_VERDICT_H
#define GATE_VERDICT_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stddef.h>

#include "acceptance.h"
#include "attribution.h"
#include "error.h"
#include "exit_codes.h"
#include "measure.h"
#include "results.h"

/* The default instruction limit, for the steady state and the cold start alike. */
#define VERDICT_DEFAULT_LIMIT_PERCENT 2.0


enum verdict_state {
	VERDICT_OK,
	VERDICT_IMPROVED,
	VERDICT_REGRESSED,
	VERDICT_ACCEPTED,
	VERDICT_NEW,
	VERDICT_MISSING,
	VERDICT_FAILED,
};

/* What went over (or under) its limit, one bit each of a uint64_t mask: these first, then seven
 * bits of each metric of the table (BREACH_METRIC_BIT). */
enum verdict_breach {
	/* Settings looser than the baseline's (the scenario's own code declares them). */
	BREACH_UNGATED = 1 << 0,           /* gated in the baseline, not gated now */
	BREACH_LIMIT_RAISED = 1 << 1,      /* an instruction limit above the baseline's */
	BREACH_PROCESS_INSTRUCTIONS = 1 << 2, /* the whole process's instructions per message above
					       * the limit: work outside the region */
	BREACH_LINEARITY_RAISED = 1 << 3,  /* a linearity limit above the baseline's (a setting) */
	BREACH_ALLOCATOR_LIMIT_RAISED = 1 << 4, /* an allocator limit above the baseline's (a
						 * setting) */
	BREACH_GROWTH = 1 << 5,            /* the cost per message grows with the messages handled
					    * more than the baseline's does */
};
#define BREACH_METRICS_FIRST 6

/* The bits of each metric: a figure compared with the baseline above its limit, per message (cold
 * false) or cold; a floor declared on it exceeded; that floor raised above the baseline's (a
 * setting); a metric gated on request in the baseline and not asked for now (a setting). */
#define BREACH_METRIC_BITS 7
#define BREACH_METRIC_BIT(metric, offset) \
	((uint64_t)1 << (BREACH_METRICS_FIRST + BREACH_METRIC_BITS * (unsigned)(metric) + (offset)))
#define BREACH_LIMIT(metric, cold) BREACH_METRIC_BIT(metric, (cold) ? 1 : 0)
#define BREACH_FLOOR_OVER(metric, cold) BREACH_METRIC_BIT(metric, (cold) ? 3 : 2)
#define BREACH_FLOOR_RAISED(metric, cold) BREACH_METRIC_BIT(metric, (cold) ? 5 : 4)
#define BREACH_METRIC_UNGATED(metric) BREACH_METRIC_BIT(metric, 6)
_Static_assert(BREACH_METRICS_FIRST + BREACH_METRIC_BITS * METRIC_COUNT <= 64,
	       "a breach mask holds every metric's bits: more metrics need a wider mask");

/* The allocation floors every scenario declares, as the allocations' floor bits. */
#define BREACH_STEADY_FLOOR BREACH_FLOOR_OVER(METRIC_ALLOCATIONS, false)
#define BREACH_COLD_FLOOR BREACH_FLOOR_OVER(METRIC_ALLOCATIONS, true)
#define BREACH_STEADY_FLOOR_RAISED BREACH_FLOOR_RAISED(METRIC_ALLOCATIONS, false)
#define BREACH_COLD_FLOOR_RAISED BREACH_FLOOR_RAISED(METRIC_ALLOCATIONS, true)

/* Of every metric, the bits at `pattern` (of its seven). */
#define BREACH_EVERY_METRIC(pattern)                                                          \
	(((((uint64_t)1 << (BREACH_METRIC_BITS * METRIC_COUNT)) - 1) /                         \
	  (((uint64_t)1 << BREACH_METRIC_BITS) - 1) * (pattern)) << BREACH_METRICS_FIRST)

/* The settings: every floor raised (bits 4 and 5) and every metric ungated (bit 6). */
#define BREACH_SETTINGS                                                                       \
	((uint64_t)(BREACH_UNGATED | BREACH_LIMIT_RAISED | BREACH_LINEARITY_RAISED |            \
		    BREACH_ALLOCATOR_LIMIT_RAISED) |                                               \
	 BREACH_EVERY_METRIC(0x70u))

/* How much further the slope from N to 2N may stand above the one from 1 to N than the
 * baseline's, in percentage points, before the cost per message counts as growing with the
 * messages handled (docs/metrics.md, "Growth with the count"). */
#define VERDICT_GROWTH_MARGIN_PERCENT 0.5

/* Every acceptance kind a row can use: the settings, then each metric's (enum metric_kind). */
#define VERDICT_ACCEPT_KINDS (ACCEPT_FIGURES + METRIC_KINDS * METRIC_COUNT)

/* The two figures of a metric compared at a limit. */
enum verdict_figure { VERDICT_PER_MESSAGE, VERDICT_COLD, VERDICT_FIGURES };

/* The wall clock of a scenario whose instructions regressed: its native drain at head and in the
 * baseline's build, timed in interleaved rounds (cmd/wall_check.c). Informational only. */
struct verdict_wall {
	bool timed;               /* false: `why_not` says why there are no times */
	char why_not[256];
	uint64_t messages;        /* messages in each drain, on both sides */
	unsigned rounds;          /* drains of each side */
	double head_seconds;      /* the median drain at head */
	double baseline_seconds;  /* the median drain of the baseline's build */
	double change_percent;    /* head against baseline: (head / baseline - 1) * 100 */
	double head_fastest, head_slowest;         /* the spread of each side's rounds */
	double baseline_fastest, baseline_slowest;
};

struct verdict_row {
	const char *name;                    /* the scenario (points into head or baseline) */
	const struct measurement *head;      /* NULL when missing */
	const struct measurement *baseline;  /* NULL without a baseline, or for a new scenario */
	enum verdict_state state;
	double limit_percent;                /* the instruction limit applied: the baseline's when a
					      * higher one is not accepted */
	double allocator_limit_percent;      /* the allocator's limit applied, likewise */
	double baseline_allocator_limit_percent; /* the baseline's, when there is one */
	double linearity_percent;            /* the linearity limit declared (or the default), and */
	double baseline_linearity_percent;   /* the baseline's: a setting, compared like the limit */
	bool limit_declared;                 /* limit_percent is a scenario's declaration (the head's,
					      * or the baseline's in force), not the default: it then
					      * applies to every metric gated at a limit */
	double baseline_limit_percent;       /* the baseline's, when there is one */
	double steady_floor;                 /* the floors applied, likewise */
	uint64_t cold_floor;
	bool gated;                          /* does a regression fail: the baseline's gating unless
					      * not gating is accepted */
	double changes[METRIC_COUNT][VERDICT_FIGURES]; /* percent against the baseline, per message
							* and cold, of each metric in limit_compared */
	double compared_with[METRIC_COUNT][VERDICT_FIGURES]; /* the baseline's figure as compared:
							      * for a per_allocation metric, scaled
							      * to the head's allocations */
	unsigned unscaled;                   /* 1 << (2 * metric + cold) for each figure of a
					      * per_allocation metric not compared: the baseline
					      * allocated nothing there, the head does (the floors
					      * judge that) */
	unsigned limit_compared;             /* 1 << metric for each metric compared with the
					      * baseline at the limit (both have it, and it is gated) */
	unsigned opted_in;                   /* 1 << metric for each metric gated on request that
					      * decides the row: the head's asking, or the
					      * baseline's unless dropping it is accepted */
	double floors[METRIC_COUNT][VERDICT_FIGURES]; /* the optional floors applied (0: none),
							* the head's or the baseline's likewise */
	unsigned lacking;                    /* 1 << metric for each metric the head has and the
					      * baseline lacks (a baseline from an earlier gate) */
	double process_change;               /* percent, the whole process per message, when both
					      * head and baseline have it */
	double outside_change;               /* percent of the baseline's whole process figure: the
					      * change the region's own change does not explain */
	double process_head, process_baseline; /* the whole process per message on each side: the
						* drains' slope plus the exit's instructions per
						* message handled (measurement.h) */
	double exit_excess;                  /* the head's exit instructions above what the
					      * baseline's allow at the head's N, per message
					      * handled (0 when within) */
	double growth_head;                  /* instructions: how far the slope from N to 2N
					      * stands above the one from 1 to N, in percent
					      * (verdict_growth_percent), at head */
	double growth_baseline;              /* and in the baseline */
	bool growth_compared;                /* both sides have the slopes */
	uint64_t breaches;                   /* breach bits, before acceptances */
	uint64_t unaccepted;                 /* the breaches no acceptance covers */
	uint64_t tightened;                  /* BREACH_SETTINGS bits of settings stricter than the
					      * baseline's (a note) */
	uint64_t improvements;               /* the breach bits of the metrics compared at the limit
					      * that are below the baseline by more than the limit */
	const struct acceptance_entry *accepted[VERDICT_ACCEPT_KINDS]; /* per acceptance kind, the
									* entry that let its breach
									* pass, or NULL */
	bool steady_floor_high;              /* the steady floor is above what was measured */
	bool cold_floor_high;                /* the cold floor is above what was measured */
	struct attribution *attribution;     /* why, once verdict_explain chose this row; owned */
	char state_text[400];                /* the state as reports show it (verdict_row_state_text) */
	struct verdict_wall *wall;           /* the wall clock beside a regression; owned, NULL */
};

struct verdict {
	struct verdict_row *rows; /* sorted by name; owned */
	size_t row_count;
	bool compared;            /* a baseline was there to compare with */
	bool messages_differ;     /* head and baseline were measured with different N */
	uint64_t messages_first;  /* the N the head was measured at first, when it was measured
				   * again at the baseline's N (not linear enough to compare); else 0 */
	uint64_t baseline_messages;
	const char *baseline_source; /* what the baseline was read from, for the reports */
	bool remeasured;          /* the baseline was measured here, in a worktree of the ref */
	const char *refresh_command; /* what refreshes the baseline in this repository, for the
				      * reports; NULL: gate's own command */
	const struct acceptance *acceptance; /* the acceptance entries in force, or NULL */
	bool *acceptance_used;    /* per acceptance entry: it decided a row; owned */
	enum gate_exit exit_code;
};

#define VERDICT_INIT { 0 }

/* Decides every row. `baseline` may be NULL (floors only); `acceptance` may be NULL. When
 * `missing_counts` is false, scenarios in the baseline but not measured are left out (a partial
 * run: --scenario or --shard) rather than reported missing. */
int verdict_decide(struct verdict *verdict, const struct measurement *head, size_t head_count,
		   const struct results *baseline, const struct acceptance *acceptance,
		   bool missing_counts, struct gate_error *err);

/* Attributes the rows that need saying why: every row with a breach, or every measured row when
 * `every_row` (--explain). Returns -1 only when out of memory. */
int verdict_explain(struct verdict *verdict, bool every_row, struct gate_error *err);

/* "ok", "improved", "regressed", "accepted", "new", "missing", "failed". */
const char *verdict_state_name(enum verdict_state state);

/* The state as the reports show it, naming what broke: "regressed: instructions, allocations",
 * "regressed: cold instructions (not gated)" for a regression that does not fail. */
const char *verdict_row_state_text(const struct verdict_row *row);

/* The breach bit an acceptance kind covers. */
uint64_t verdict_metric_breach(unsigned metric);

/* For a metric gated at a limit: the acceptance kind that accepts a rise of its figure
 * ("cycles", "cold_cycles": metric_acceptance), or -1 when the metric is not gated at a limit. */
int verdict_limit_acceptance(enum metric_id metric, enum verdict_figure figure);

/* The limit, in percent, that applies to a metric compared at a limit: the scenario's declared
 * limit in force that sets it (metric_table's limit_setting), or the metric's default. */
double verdict_limit(const struct verdict_row *row, enum metric_id metric);

/* How far a slope from N to 2N stands above the one from 1 to N, in percent of the former; 0
 * when it does not (a warm-up makes the first messages dearer, never growth). */
double verdict_growth_percent(const struct slope *slope);

/* Does the row gate the metric at the limit: METRIC_LIMIT always, and for a metric gated on request
 * when the asking in force asks for it. */
bool verdict_limit_gated(const struct verdict_row *row, enum metric_id metric);

/* The verdict as JSON for results.json: exit code, one line of summary, and per row the state,
 * the baseline figures, the changes, the breaches and the acceptances used. */
cJSON *verdict_to_json(const struct verdict *verdict);

/* The figures a breach mask is about, ", "-joined into `text`: "instructions", "cold
 * allocations", "settings", ...; each named once. */
void verdict_breach_words(uint64_t breaches, char *text, size_t size);

/* Does the row's instruction figure per message break the limit (accepted or not): the rows the
 * wall clock is taken for. */
bool verdict_row_instructions_up(const struct verdict_row *row);

/* For a timed wall clock: "time down" when every head round beat every baseline round, "time up"
 * when every one was slower, else "time unchanged (the rounds overlap)" (noise only ever slows a
 * round down, so rounds that overlap cannot tell the two apart). */
const char *verdict_wall_conclusion(const struct verdict_wall *wall);

/* One line: "pass: 6 scenarios within their limits", "fail: 1 regressed (consume_json)", ... */
void verdict_summary(const struct verdict *verdict, char *text, size_t text_size);

void verdict_release(struct verdict *verdict); /* NULL-safe */

#endif
