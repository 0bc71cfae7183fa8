/* Accepted regressions: baselines/accepted.json, a reviewable file in the repository that names
 * the scenario, the metric, the accepted value and the reason. Nothing else can make a change
 * that crosses a limit pass. */
#ifndef GATE_ACCEPTANCE_H
#define GATE_ACCEPTANCE_H

#include <stdbool.h>
#include <stddef.h>

#include "error.h"

/* What an entry accepts ("metric" in the file): one of the settings every scenario has, compared
 * with the baseline's (loosening one is a breach unless accepted), or one named by the metrics:
 * ACCEPT_FIGURES + the name's index among those the reader is given (struct acceptance_figures;
 * gate's come from its metric table, core/metrics.h: a figure compared at a limit, a metric's
 * optional floor, a metric gated on request). */
enum acceptance_setting {
	ACCEPT_GATED,             /* "gated": value 0, the scenario may stop being gated */
	ACCEPT_LIMIT_PERCENT,     /* "limit_percent": the instruction limit may go up to value */
	ACCEPT_STEADY_FLOOR,      /* "steady_allocations_floor": the floor may go up to value */
	ACCEPT_COLD_FLOOR,        /* "cold_allocations_floor": the floor may go up to value */
	ACCEPT_PROCESS_INSTRUCTIONS, /* "process_instructions": the whole process, per message */
	ACCEPT_LINEARITY_PERCENT, /* "linearity_percent": the linearity limit may go up to value */
	ACCEPT_ALLOCATOR_LIMIT_PERCENT, /* "allocator_limit_percent": the allocator's limit may go
					 * up to value */
	ACCEPT_GROWTH,            /* "growth": the cost per message may grow with the messages
				   * handled up to value percent (slope N..2N over slope 1..N) */
	ACCEPT_FIGURES            /* the first figure's kind */
};

/* What an entry's value may be. */
enum acceptance_value {
	ACCEPT_VALUE_ABOVE, /* a positive number: the figure or setting may go up to it */
	ACCEPT_VALUE_FLOOR, /* the same, or 0: the scenario may stop declaring the floor */
	ACCEPT_VALUE_ZERO,  /* 0 only: the scenario may stop being gated (on it) */
};

/* The names an acceptance may give beside the settings: names[i] is kind ACCEPT_FIGURES + i
 * ("instructions", "cold_instructions", "steady_bytes_floor", "gate_cycles", ...), NULL where that
 * index names nothing acceptable; values[i] says what its value may be. */
struct acceptance_figures {
	const char *const *names;
	const enum acceptance_value *values;
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

/* What the value of an entry of that kind may be. */
enum acceptance_value acceptance_value_of(const struct acceptance_figures *figures, unsigned metric);

/* The kind of that name ("gated", "cold_cycles"), or -1. */
int acceptance_metric_find(const struct acceptance_figures *figures, const char *name);

void acceptance_release(struct acceptance *acceptance); /* NULL-safe */

#endif
