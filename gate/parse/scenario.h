/* What a scenario declares about itself (`SCENARIO --describe`): its region, floors and limits. */
#ifndef GATE_SCENARIO_H
#define GATE_SCENARIO_H

#include <stdbool.h>
#include <stdint.h>

#include "error.h"

/* How many optional floors, and metrics gated on request, a scenario may declare; the longest key
 * of either, with its NUL. */
#define SCENARIO_DECLARED_MAX 16
#define SCENARIO_KEY_SIZE 64

/* An optional floor as the scenario declares it (in --describe's "floors", beside the allocation
 * floors every scenario declares): "steady_KEY" holds metric KEY per message, "cold_KEY" in the
 * 1-delivery run (core/metrics.h says which metrics take floors). */
struct scenario_floor {
	char key[SCENARIO_KEY_SIZE];
	double value; /* > 0: a floor of 0 is no floor */
};

struct scenario_info {
	char *name;            /* as the manifest lists it; owned */
	char *path;            /* the executable; owned */
	char *title;           /* one line; owned */
	char *region;          /* exact name of the measured-region function; owned */
	bool gated;            /* does a regression fail the gate */
	double steady_floor;   /* declared allocations per message */
	uint64_t cold_floor;   /* declared allocations of the 1-delivery run */
	double limit_percent;  /* declared instruction limit; 0 when the scenario declares none */
	double linearity_percent; /* declared linearity limit; 0: SLOPE_LINEARITY_LIMIT_PERCENT */
	double allocator_limit_percent; /* declared limit of the allocator's instructions; 0: the
					 * metric's default (metric_table) */
	struct scenario_floor floors[SCENARIO_DECLARED_MAX]; /* the optional floors declared */
	size_t floor_count;
	char gate_metrics[SCENARIO_DECLARED_MAX][SCENARIO_KEY_SIZE]; /* the keys of the metrics
					 * gated on request that it gates ("cycles") */
	size_t gate_metric_count;
	bool unoptimised;      /* its project code is measured compiled without optimisation, on
				* purpose (provenance.h) */
	bool phases;           /* the harness takes --phases: callgrind's snapshots are its own
				* dumps as each drain leaves the region, not forked children */
};

#define SCENARIO_INFO_INIT { 0 }

/* Parses what `SCENARIO --describe` printed: JSON whose name must equal `name`. Errors name the
 * scenario and the problem, e.g. "scenario 'x': --describe printed no JSON object". */
int scenario_info_parse(struct scenario_info *info, const char *name, const char *text,
			struct gate_error *err);

/* scenario_info_parse on what a --describe run printed into `output_path` (the runner bounds its
 * size), for the scenario whose executable is `path`. */
int scenario_info_from_output(struct scenario_info *info, const char *name, const char *path,
			      const char *output_path, struct gate_error *err);

void scenario_info_release(struct scenario_info *info); /* NULL-safe */

/* The optional floor declared as `key` ("steady_bytes"), or 0 when none is. */
double scenario_floor(const struct scenario_info *info, const char *key);

/* Declares the floor `key` at `value`, or no such floor when `value` is 0 ("scenario 'x'
 * declares more than 16 floors ..." past SCENARIO_DECLARED_MAX). */
int scenario_set_floor(struct scenario_info *info, const char *key, double value,
		       struct gate_error *err);

/* Does the scenario gate the metric `key` that is gated on request. */
bool scenario_gates_metric(const struct scenario_info *info, const char *key);

/* Gates the metric `key` on request (`gated`), or stops gating it. */
int scenario_set_gate_metric(struct scenario_info *info, const char *key, bool gated,
			     struct gate_error *err);

#endif
