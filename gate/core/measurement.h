/* One scenario's measurement: its counts at 1, N and 2N for every metric, the figures computed
 * from them, and the functions and allocation sites behind them. Made by measuring
 * (measure.h) or read back from a results document (results.h). */
#ifndef GATE_MEASUREMENT_H
#define GATE_MEASUREMENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "flame.h"
#include "metrics.h"
#include "scenario.h"
#include "seal.h"
#include "slope.h"

/* The fill functions a measurement keeps (measurement.fill_functions): enough that a function
 * among the dearest of one side is rarely past the cut of the other, where it would read as new
 * or gone. */
#define MEASUREMENT_FILL_ROWS 30

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
	bool harness;            /* costgate's harness compiled into the program (ownership.h):
				  * on the project's side, never named as one of its functions */
	double with_library_early; /* with_library from 1 to N: where it is below with_library, the
				    * function's cost grows with the messages handled */
	double syscalls;         /* system calls per message, its own and its direct system-library
				  * callees' (ownership.h) */
	uint64_t cold_syscalls;  /* likewise in the 1-delivery run */
};

/* What one source line of the project costs a message: its own instructions and those of the
 * system-library functions it calls, the allocator apart, as a function's with_library counts
 * them (ownership.h); from callgrind's line costs of the N and 2N counts. */
struct line_cost {
	char *file;          /* relative to the repository's top (measurement_place_lines); owned */
	uint64_t line;
	char *function;      /* the function callgrind counts it under, recursion level dropped;
			      * owned */
	char *text;          /* the line's source, blanks at either end dropped, cut at
			      * MEASUREMENT_LINE_TEXT bytes; owned, "" when unreadable */
	double instructions; /* per message */
};

/* At most this many lines a scenario, the dearest per message (a results document's size stays
 * bounded whatever the library), and this much of each line's text. */
#define MEASUREMENT_LINES_MAX 400
#define MEASUREMENT_LINE_TEXT 160

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
	char *telltales;           /* code that can tell a measured run apart (telltales.h), for
				    * the reviewer; owned, NULL when none */
	uint64_t messages;         /* N */
	bool failed;               /* a measurement failure: `failure` says which run and why */
	bool refused;              /* failed because its build is refused (its project code was
				    * compiled without optimisation and it does not say so): a
				    * configuration error, not a measurement failure */
	char failure[1024];

	/* Every metric's region counts at 1, N and 2N, and its per-message and cold figures
	 * (measurement_compute), indexed by enum metric_id. `has` is false for a metric this
	 * measurement has no counts of: an opt-in tool that did not run, or a document written
	 * before gate measured it. */
	uint64_t counts[METRIC_COUNT][SLOPE_RUNS];
	struct slope slopes[METRIC_COUNT];
	bool has[METRIC_COUNT];
	/* Read leniently from a document without counts (another tool's schema 3, for the page):
	 * the figures as the document states them, per metric. */
	bool stated[METRIC_COUNT];
	bool has_gated;            /* the document said whether it is gated (a lenient read may
				    * find no `gated`) */
	/* The whole process, every thread (DHAT's instruction count): work done outside the region
	 * per message (at fill time, on another thread, at exit) shows here. Its counts at 1, N
	 * and 2N are the snapshots', each phase's drain and fill, whose slope is linear and compares
	 * across two N; what the program does from the last snapshot to its exit (the teardown,
	 * destructors, atexit) is process_exit, counted apart since it is one sum over the whole
	 * run: docs/design.md, gating rules. */
	uint64_t process_instructions[SLOPE_RUNS];
	uint64_t process_exit;
	bool process_counted;      /* while measuring: callgrind's parts gave the process figures
				    * (measure.c, read_parts) */
	struct slope process_slope;
	bool has_process;          /* false for a document written before gate measured it */

	/* The second opinion (crosscheck.h): the native variant's counts at the same phases, in a
	 * run that differs in everything gate controls. */
	uint64_t native_allocations[SLOPE_RUNS]; /* heap blocks at 1, N and 2N */
	uint64_t native_instructions[SLOPE_RUNS]; /* the CPU's user-space instructions in the region */
	uint64_t native_backlog;     /* at most this many messages waited at once */
	bool has_native;             /* native_allocations and native_backlog hold its counts */
	bool has_native_instructions; /* native_instructions too (the CPU's counter could be read) */

	struct function_cost *functions; /* nonzero ones, by exclusive per message, descending */
	size_t function_count;
	struct site_cost *sites;         /* nonzero ones, by blocks per message, descending */
	size_t site_count;
	struct line_cost *lines;         /* the project's nonzero ones, by file then line */
	size_t line_count;
	struct flame_frame *frames;      /* one message's call tree from the region (flame.h) */
	size_t frame_count;
	/* The fill before the last drain, outside the region (the scenario's body generator making
	 * N messages, and the harness's queueing of them), per message: the whole part, and the
	 * project's functions in it by own + system-library callees, the harness's apart, the
	 * dearest MEASUREMENT_FILL_ROWS. What a breach outside the region names. */
	double fill_per_message;
	bool has_fill;                   /* fill_per_message was measured (or read) */
	struct function_cost *fill_functions;
	size_t fill_function_count;

	char *raw_files[TOOL_COUNT][SLOPE_RUNS]; /* output file names inside the raw directory */
	struct seal seal;            /* the executable and its project libraries, hashed when the
				      * build was read and checked around every run (seal.h) */
	bool sealed_read_only;       /* the runs saw those files' directories read-only */
	double valgrind_seconds;     /* wall time of this scenario's valgrind runs, summed */
	double valgrind_cpu_seconds; /* their CPU time, summed */
};

/* The per-message and cold figures of every metric the measurement has counts for, one
 * function for all (slope.h); -1 with err naming the metric when one is implausible. */
int measurement_compute(struct measurement *measurement, struct gate_error *err);

/* The whole process per message: the drains' slope plus the exit's instructions per message
 * handled (2N of them in the run whose exit it is). */
double measurement_process_per_message(const struct measurement *measurement);

/* Places the lines measured (absolute file names, as callgrind gives them) in the repository at
 * `root`: each file named relative to it and the line's text read from it; a line outside it
 * (another install's harness, a path gate cannot name without one of this machine) is dropped,
 * every line when `root` is NULL. Keeps the MEASUREMENT_LINES_MAX dearest. Returns -1 only when
 * out of memory. */
int measurement_place_lines(struct measurement *measurement, const char *root);

/* The figure the table shows for a metric: its per-message figure, or its cold one. */
double measurement_shown(const struct measurement *measurement, enum metric_id metric);

void measurement_release(struct measurement *measurement); /* NULL-safe */

#endif
