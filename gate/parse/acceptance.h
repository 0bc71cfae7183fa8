/* Accepted regressions: baselines/accepted.json, a reviewable file in the repository that names
 * the scenario, the metric, the accepted value and the reason. Nothing else can make a change
 * that crosses a limit pass. */
#ifndef GATE_ACCEPTANCE_H
#define GATE_ACCEPTANCE_H

#include <stdbool.h>
#include <stddef.h>

#include "error.h"

enum acceptance_metric {
	ACCEPT_INSTRUCTIONS,      /* "instructions": instructions per message */
	ACCEPT_COLD_INSTRUCTIONS, /* "cold_instructions": instructions of the cold start */
	/* Settings the scenario declares, compared with the baseline's: loosening one is a breach
	 * unless accepted. */
	ACCEPT_GATED,             /* "gated": value 0, the scenario may stop being gated */
	ACCEPT_LIMIT_PERCENT,     /* "limit_percent": the instruction limit may go up to value */
	ACCEPT_STEADY_FLOOR,      /* "steady_allocations_floor": the floor may go up to value */
	ACCEPT_COLD_FLOOR,        /* "cold_allocations_floor": the floor may go up to value */
	ACCEPT_PROCESS_INSTRUCTIONS, /* "process_instructions": the whole process, per message */
	ACCEPT_CYCLES,            /* "cycles": estimated cycles per message (gated scenarios) */
	ACCEPT_COLD_CYCLES,       /* "cold_cycles": estimated cycles of the cold start */
	ACCEPT_GATE_CYCLES,       /* "gate_cycles": value 0, cycles may stop being gated */
	/* The optional floors (scenario.h), by enum scenario_floor: "steady_bytes_floor",
	 * "cold_bytes_floor", "steady_peak_bytes_floor", "cold_peak_bytes_floor". */
	ACCEPT_STEADY_BYTES_FLOOR,
	ACCEPT_COLD_BYTES_FLOOR,
	ACCEPT_STEADY_PEAK_BYTES_FLOOR,
	ACCEPT_COLD_PEAK_BYTES_FLOOR,
	ACCEPT_METRICS
};

struct acceptance_entry {
	char *scenario;                /* owned */
	enum acceptance_metric metric;
	double value;                  /* head may go up to this (inclusive); 0 for "gated" */
	char *reason;                  /* why, for every report; owned */
};

struct acceptance {
	struct acceptance_entry *entries; /* in file order; owned */
	size_t count;
	char *path;                       /* where they were read from; owned */
};

#define ACCEPTANCE_INIT { NULL, 0, NULL }

/* Reads the file. A file that does not exist is no entries. Malformed: an error naming the file
 * and the problem (entry index and key); a scenario and metric accepted twice is an error. */
int acceptance_read(struct acceptance *acceptance, const char *path, struct gate_error *err);

/* The same from text already read (`path` names it in errors, e.g. "accepted.json at 1a2b3c4"). */
int acceptance_parse(struct acceptance *acceptance, const char *text, size_t length,
		     const char *path, struct gate_error *err);

/* The entry for scenario and metric, or NULL. */
const struct acceptance_entry *acceptance_find(const struct acceptance *acceptance,
					       const char *scenario, enum acceptance_metric metric);

const char *acceptance_metric_name(enum acceptance_metric metric);

/* An optional floor's acceptance ("steady_bytes_floor", ...): value V lets the floor go up to V,
 * and value 0 lets the scenario stop declaring it. */
bool acceptance_removes_floor(enum acceptance_metric metric);

/* The acceptance metric of that name ("cold_cycles"), or -1. */
int acceptance_metric_find(const char *name);

void acceptance_release(struct acceptance *acceptance); /* NULL-safe */

#endif
