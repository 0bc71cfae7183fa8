/* Measuring scenarios: every scenario once under callgrind and once under DHAT, at 2N deliveries
 * with snapshots at 1, N and 2N, all runs in one pool, then the slopes, the per-function and
 * per-site detail, and plausibility. */
#ifndef GATE_MEASURE_H
#define GATE_MEASURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "debugview.h"
#include "error.h"
#include "manifest.h"
#include "measurement.h"
#include "say.h"
#include "metrics.h"

/* DHAT keeps this many frames: deep enough that the region frame of a deep handler's
 * allocation is never cut off (docs/design.md rule 3). */
#define MEASURE_NUM_CALLERS 128

/* Deadlines when --timeout is not given, from a run's start, moved at each snapshot the harness
 * reports (docs/design.md rule 10): MEASURE_BUDGET_FLOOR to the first (start and one delivery,
 * about a second under valgrind), so one that hangs is found in a minute; the ceiling
 * (timeout_seconds) to the one at N; then MEASURE_BUDGET_FACTOR times what the phase from 1 to N
 * took, within the floor and the ceiling. */
#define MEASURE_BUDGET_FLOOR 60.0
#define MEASURE_BUDGET_FACTOR 4.0

struct measure_options {
	uint64_t messages;        /* N, at least 2 */
	unsigned jobs;            /* valgrind runs at once */
	double timeout_seconds;   /* per run; 0: none; the ceiling when scaled_timeouts */
	bool scaled_timeouts;     /* deadlines follow from the runs before (MEASURE_BUDGET_*) */
	const char *raw_dir;      /* where the callgrind and DHAT files and run logs go (exists) */
	const char *valgrind;     /* path of the valgrind executable */
	bool no_randomize;        /* address randomization off in the runs */
	bool verify;              /* run everything twice; any count that differs is a failure */
	/* Figures of an earlier measurement (the baseline, else the last results at --json), sorted
	 * by name, for the order the runs start in; NULL: none. Never read for a verdict. */
	const uint64_t *messages_each; /* N of each manifest entry (--vary-n), or NULL: `messages`
					* for every scenario */
	const struct measurement *estimates;
	size_t estimate_count;
	struct debugview *debug_view; /* what the runs see of /usr/lib/debug (debugview.h), grown
				       * with the scenarios measured; NULL: the system's directory */
	bool every_metric;        /* run opt-in tools for every scenario (--all-metrics) */
	/* By manifest entry, the first project unit compiled without optimisation
	 * (provenance.unoptimised): a scenario with one that does not declare it intended is
	 * refused before its runs, with `unoptimised_fix` (what to change in the host's build).
	 * NULL: no check (the base's worktree, built as the head was). */
	char *const *unoptimised;
	const char *unoptimised_fix;
	int verbosity;            /* 0 quiet, 1 progress, 2 progress and commands */
	struct say say;           /* where that progress goes (cmd/ prints it on stderr) */
};

/* The sealed environment every measured run gets (NULL-terminated, static storage). */
char *const *measure_environment(void);

/* Measures every manifest entry into `measurements` (manifest->entry_count of them, in manifest
 * order). A scenario's failure is recorded in its measurement and the others go on; returns -1
 * only when gate itself cannot go on (out of memory, cannot run children at all). */
/* Asks the package database about every scenario's libraries at once (packages.h), so that the
 * environment block and the fingerprints that follow find them cached. */
void measure_prefetch_packages(const struct manifest *manifest);

int measure_scenarios(struct measurement *measurements, const struct manifest *manifest,
		      const struct measure_options *options, struct gate_error *err);

#endif
