/* The wall-clock comparison of a scenario with its raw loop (`gate time`): rounds in messages per
 * second, their summary per loop and per pair, the verdict rule of the reference methodology,
 * and the `scenarios` section of results.json, in the layout of the reference page's schema 3,
 * that holds them. Informational: nothing here is ever gated. */
#ifndef GATE_WALLCLOCK_H
#define GATE_WALLCLOCK_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "error.h"

#define WALLCLOCK_UNIT "msg/s"
#define WALLCLOCK_SECTION "scenarios"

/* Rounds of one side, in messages per second. Noise only ever slows a round down, so the best
 * round is the closest to the undisturbed cost and the worst says how loud the machine was. */
struct wall_summary {
	double best;   /* the fastest round */
	double median; /* the middle round (the mean of the two middle ones for an even count) */
	double worst;  /* the slowest round */
};

/* The harness side against the raw side over the same rounds. */
struct wall_comparison {
	struct wall_summary raw;
	struct wall_summary framework;
	double overhead_percent;        /* from the best rounds: the time per message the harness
					 * adds, in percent of the raw loop's */
	double median_overhead_percent; /* the same from the median rounds */
	double spread_percent;          /* the larger of the two sides' best-to-worst spreads, in the
					 * same terms */
	bool indistinguishable;         /* |overhead_percent| < spread_percent */
};

/* One measured pair, as `gate time` ran it. */
struct wall_pair {
	char *name;             /* the harness scenario; owned */
	char *raw_name;         /* its raw counterpart; owned */
	char *title;            /* the harness scenario's title; owned, may be NULL */
	uint64_t messages;      /* messages in every round, on both sides */
	unsigned loops;         /* loops of interleaved rounds */
	unsigned rounds;        /* rounds of each side in a loop */
	double round_seconds;   /* how long a round was meant to last */
	double *raw_rates;      /* loops * rounds rates in the order they ran; owned */
	double *framework_rates;
};

#define WALL_PAIR_INIT { 0 }

/* How much slower `rate` is than `reference`, in percent of the time a message takes at
 * `reference`: (reference / rate - 1) * 100. The one place a wall-clock percentage is computed;
 * the page's axis uses it too. */
double wall_slowdown_percent(double reference, double rate);

/* Summarises `count` (at least 1) rates. */
void wall_summarize(struct wall_summary *summary, const double *rates, size_t count);

/* Compares the rounds of both sides (`count` each) by the verdict rule. */
void wall_compare(struct wall_comparison *comparison, const double *raw, const double *framework,
		  size_t count);

/* "indistinguishable" or "measured". */
const char *wall_verdict_name(bool indistinguishable);

void wall_pair_release(struct wall_pair *pair); /* NULL-safe */

#endif
