/* The second opinion: each measured scenario run once more, natively, in conditions that differ
 * in everything gate controls in a measured run (docs/design.md rule 11): its native variant
 * (the same sources with tcmalloc's hooks, build/scenarios/native), address randomisation on, an
 * environment without the dispatch and malloc pins or LD_BIND_NOW, no argument at all (the
 * phases and N come on stdin) and a backlog of a few messages instead of a full queue. A program
 * that behaves differently when it is measured then shows: the heap blocks it allocates at 1, N
 * and 2N must equal DHAT's exactly (scenarios/alloc_counter.h counts what DHAT counts), and where
 * the CPU's counters can be read, its instructions per message may not pass what callgrind
 * counted by more than CROSSCHECK_INSTRUCTION_TOLERANCE. A scenario that does not agree has
 * failed to measure ("behaves differently when measured"), naming the figure. */
#ifndef GATE_CROSSCHECK_H
#define GATE_CROSSCHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "manifest.h"
#include "measure.h"
#include "slope.h"

/* How far the native run's instructions per message may stand above callgrind's region (the
 * program's and the allocator's), as a fraction: natively the CPU's own memcpy and tcmalloc's
 * malloc run, which take fewer instructions than the pinned baseline variants and glibc's, so an
 * honest program stays below; a program that skips work when measured does not. */
#define CROSSCHECK_INSTRUCTION_TOLERANCE 0.25

/* Messages that may wait at once in the native run: a few, against the measured runs' whole
 * phase (rounded up to a multiple of a batch scenario's batch). */
#define CROSSCHECK_BACKLOG 3

struct crosscheck_options {
	const struct manifest *native; /* the native variants (build/scenarios/native/manifest.txt),
					* or NULL when the build has none */
	bool required;                 /* --cross-check: a scenario without one fails to measure */
	const char *raw_dir;           /* where each run's request and output are kept */
	unsigned jobs;                 /* runs at once */
	double timeout_seconds;        /* per run; 0: none */
	int verbosity;                 /* 0 quiet, 1 progress, 2 each command */
	struct say say;                /* where the commands go (cmd/ prints them on stderr) */
};

/* What one second opinion run printed ("allocations C1 C2 C3" and "instructions I1 I2 I3" or
 * "instructions unavailable: WHY") into the measurement's native figures. -1 with err when it is
 * not that; `why_unavailable` (may be NULL) gets the reason the counters could not be read. */
int crosscheck_parse(const char *output, struct measurement *measurement,
		     char *why_unavailable, size_t why_size, struct gate_error *err);

/* Runs the second opinion of every measurement not failed, all at once up to options->jobs, and
 * compares (crosscheck_compare). `unavailable` (may be NULL) gets why the CPU's counters could not
 * be read, once, or stays "" when they could or nothing ran. Returns how many agreed. */
size_t crosscheck_scenarios(struct measurement *measurements, size_t count,
			    const struct crosscheck_options *options, char *unavailable,
			    size_t unavailable_size);

/* Compares a measurement's native figures with its measured ones; one that differs marks it
 * failed, naming the figure. A measurement without native figures is left as it is. Also what
 * `gate merge` decides again from a results document. */
void crosscheck_compare(struct measurement *measurement);

#endif
