/* Accepted regressions: baselines/accepted.json, a reviewable file in the repository that names
 * the scenario, the metric, the accepted value and the reason. Nothing else can make a change
 * that crosses a limit pass. */
#ifndef GATE_ACCEPTANCE_H
#define GATE_ACCEPTANCE_H

#include <stdbool.h>
#include <stddef.h>

#include "error.h"

/* What an entry accepts ("metric" in the file): one of the settings a scenario declares, compared
 * with the baseline's (loosening one is a breach unless accepted), or a figure of a metric gated
 * at a limit: ACCEPT_FIGURES + the figure's index among the names the reader is given
 * (struct acceptance_figures; gate's come from its metric table, core/metrics.h). */
enum acceptance_setting {
	ACCEPT_GATED,             /* "gated": value 0, the scenario may stop being gated */
	ACCEPT_LIMIT_PERCENT,     /* "limit_percent": the instruction limit may go up to value */
	ACCEPT_STEADY_FLOOR,      /* "steady_allocations_floor": the floor may go up to value */
	ACCEPT_COLD_FLOOR,        /* "cold_allocations_floor": the floor may go up to value */
	ACCEPT_PROCESS_INSTRUCTIONS, /* "process_instructions": the whole process, per message */
	ACCEPT_GATE_CYCLES,       /* "gate_cycles": value 0, cycles may stop being gated */
	/* The optional floors (scenario.h), by enum scenario_floor: "steady_bytes_floor",
	 * "cold_bytes_floor", "steady_peak_bytes_floor", "cold_peak_bytes_floor",
	 * "steady_syscalls_floor", "cold_syscalls_floor". */
	ACCEPT_STEADY_BYTES_FLOOR,
	ACCEPT_COLD_BYTES_FLOOR,
	ACCEPT_STEADY_PEAK_BYTES_FLOOR,
	ACCEPT_COLD_PEAK_BYTES_FLOOR,
	ACCEPT_STEADY_SYSCALLS_FLOOR,
	ACCEPT_COLD_SYSCALLS_FLOOR,
	ACCEPT_LINEARITY_PERCENT, /* "linearity_percent": the linearity limit may go up to value */
	ACCEPT_ALLOCATOR_LIMIT_PERCENT, /* "allocator_limit_percent": the allocator's limit may go
					 * up to value */
	ACCEPT_GROWTH,            /* "growth": the cost per message may grow with the messages
				   * handled up to value percent (slope N..2N over slope 1..N) */
	ACCEPT_FIGURES            /* the first figure's kind */
};

/* The figures an acceptance may name: names[i] is kind ACCEPT_FIGURES + i ("instructions",
 * "cold_instructions", ...), NULL where that index names nothing acceptable. */
struct acceptance_figures {
	const char *const *names;
	size_t count;
};

struct acceptance_entry {
	char *scenario;                /* owned */
	unsigned metric;               /* a kind: enum acceptance_setting, or ACCEPT_FIGURES + i */
	double value;                  /* head may go up to this (inclusive); 0 for "gated" */
	char *reason;                  /* why, for every report; owned */
};

struct acceptance {
	struct acceptance_entry *entries; /* in file order; owned */
	size_t count;
	char *path;                       /* where they were read from; owned */
	const struct acceptance_figures *figures; /* the names the figures were read with */
};

#define ACCEPTANCE_INIT { NULL, 0, NULL, NULL }

/* Reads the file; its entries may name a setting or one of `figures` (kept, not copied: static
 * storage). A file that does not exist is no entries. Malformed: an error naming the file and
 * the problem (entry index and key); a scenario and metric accepted twice is an error. */
int acceptance_read(struct acceptance *acceptance, const char *path,
		    const struct acceptance_figures *figures, struct gate_error *err);

/* The same from text already read (`path` names it in errors, e.g. "accepted.json at 1a2b3c4"). */
int acceptance_parse(struct acceptance *acceptance, const char *text, size_t length,
		     const char *path, const struct acceptance_figures *figures,
		     struct gate_error *err);

/* The entry for scenario and metric, or NULL. */
const struct acceptance_entry *acceptance_find(const struct acceptance *acceptance,
					       const char *scenario, unsigned metric);

/* The name of a kind: a setting's, or one of the figures'; "" for a kind with none. */
const char *acceptance_metric_name(const struct acceptance_figures *figures, unsigned metric);

/* An optional floor's acceptance ("steady_bytes_floor", ...): value V lets the floor go up to V,
 * and value 0 lets the scenario stop declaring it. */
bool acceptance_removes_floor(unsigned metric);

/* The kind of that name ("gated", "cold_cycles"), or -1. */
int acceptance_metric_find(const struct acceptance_figures *figures, const char *name);

void acceptance_release(struct acceptance *acceptance); /* NULL-safe */

#endif
