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
#include "metrics.h"
#include "scenario.h"
#include "seal.h"
#include "slope.h"

/* DHAT keeps this many frames: deep enough that the region frame of a deep handler's
 * allocation is never cut off (docs/design.md rule 3). */
#define MEASURE_NUM_CALLERS 128

/* Deadlines when --timeout is not given, from a run's start, moved at each snapshot the harness
 * reports (docs/design.md rule 9): MEASURE_BUDGET_FLOOR to the first (start and one delivery,
 * about a second under valgrind), so one that hangs is found in a minute; the ceiling
 * (timeout_seconds) to the one at N; then MEASURE_BUDGET_FACTOR times what the phase from 1 to N
 * took, within the floor and the ceiling. */
#define MEASURE_BUDGET_FLOOR 60.0
#define MEASURE_BUDGET_FACTOR 4.0

/* What one function costs a message in the steady state (its slope), and in the cold run. */
struct function_cost {
	char *name;              /* owned */
	double exclusive;        /* exclusive instructions per message */
	double inclusive;        /* inclusive instructions per message */
	uint64_t cold_exclusive; /* exclusive instructions of the 1-delivery run */
	double with_library;     /* own instructions plus those of the system-library functions it
				  * calls directly, per message (ownership.h) */
	bool project;            /* a project function or code inlined into one, not a system
				  * library's */
};

/* What one allocation site costs a message, and in the cold run. */
struct site_cost {
	char *location;       /* "function (file:line)"; owned */
	char *stack;          /* frames from the site up to the region, " < "-joined; owned */
	double blocks;        /* blocks per message */
	double bytes;         /* bytes per message */
	uint64_t cold_blocks; /* blocks of the 1-delivery run */
	uint64_t cold_bytes;
};

struct measurement {
	struct scenario_info info; /* name and path always; the rest once --describe was read */
	char *build;               /* how it was built: the manifest's flags line, then the system
				    * packages of the libraries it loads ("... | libraries: libc6
				    * 2.36-9+deb12u9"); owned, NULL in documents that predate it */
	char *source;              /* the file that declares the scenario (its DWARF), relative to
				    * the repository when inside it; owned, NULL when unknown */
	uint64_t messages;         /* N */
	bool failed;               /* a measurement failure: `failure` says which run and why */
	char failure[1024];

	/* Every metric's region counts at 1, N and 2N, and its per-message and cold figures
	 * (metrics_compute), indexed by enum metric_id. `has` is false for a metric this
	 * measurement has no counts of: an opt-in tool that did not run, or a document written
	 * before gate measured it. */
	uint64_t counts[METRIC_COUNT][SLOPE_RUNS];
	struct slope slopes[METRIC_COUNT];
	bool has[METRIC_COUNT];
	/* The whole process, every thread, start to exit (DHAT's instruction count): work done
	 * outside the region per message (at fill time, on another thread, at exit) shows here. */
	uint64_t process_instructions[SLOPE_RUNS];
	struct slope process_slope;
	bool has_process;          /* false for a document written before gate measured it */

	struct function_cost *functions; /* nonzero ones, by exclusive per message, descending */
	size_t function_count;
	struct site_cost *sites;         /* nonzero ones, by blocks per message, descending */
	size_t site_count;

	char *raw_files[TOOL_COUNT][SLOPE_RUNS]; /* output file names inside the raw directory */
	struct seal seal;            /* the executable and its project libraries, hashed when the
				      * build was read and checked around every run (seal.h) */
	bool sealed_read_only;       /* the runs saw those files' directories read-only */
	double valgrind_seconds;     /* wall time of this scenario's valgrind runs, summed */
	double valgrind_cpu_seconds; /* their CPU time, summed */
};

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
	int verbosity;            /* 0 quiet, 1 progress, 2 progress and commands */
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

void measurement_release(struct measurement *measurement); /* NULL-safe */

#endif
