/* What a scenario declares about itself (`SCENARIO --describe`): its region, floors and limits. */
#ifndef GATE_SCENARIO_H
#define GATE_SCENARIO_H

#include <stdbool.h>
#include <stdint.h>

#include "error.h"

/* The optional floors a scenario may declare next to its code (in --describe's "floors"), beside
 * the allocation floors every scenario declares. 0: not declared. */
enum scenario_floor {
	FLOOR_STEADY_BYTES,      /* "steady_bytes": heap bytes allocated per message */
	FLOOR_COLD_BYTES,        /* "cold_bytes": heap bytes allocated by the 1-delivery run */
	FLOOR_STEADY_PEAK_BYTES, /* "steady_peak_bytes": growth of the process's peak live heap
				  * per message */
	FLOOR_COLD_PEAK_BYTES,   /* "cold_peak_bytes": the process's peak live heap in the
				  * 1-delivery run */
	FLOOR_STEADY_SYSCALLS,   /* "steady_syscalls": system calls per message */
	FLOOR_COLD_SYSCALLS,     /* "cold_syscalls": system calls of the 1-delivery run */
	SCENARIO_FLOORS
};

/* The floors' keys in --describe, results.json and accepted.json, by enum scenario_floor. */
extern const char *const scenario_floor_keys[SCENARIO_FLOORS];

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
	double floors[SCENARIO_FLOORS]; /* the optional floors; 0 when not declared */
	bool gate_cycles;      /* estimated cycles are gated at the limit, like instructions */
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

#endif
