/* The scenario harness: a scenario is the service a user writes, driven over the in-process
 * queue. The harness owns main(): it parses the command line, fills the queue outside the
 * measured region and drains it inside, then checks the counts.
 *
 * Contract with gate (docs/design.md rule 3): everything counted runs inside one function,
 * COSTGATE_REGION_NAME, entered for the service start and then for each drain (one, or one a
 * phase with --snapshots and --phases, rule 10: callgrind dumps a part each time it is left). It
 * is never inlined, cloned or tail-called, and nothing else in a scenario may carry that name.
 *
 * Included as <costgate/harness.h>. Every name it declares starts with costgate_ or COSTGATE_,
 * so that none can clash with the library a scenario measures. */
#ifndef COSTGATE_HARNESS_H
#define COSTGATE_HARNESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "queue.h"

#define COSTGATE_REGION_NAME "costgate_measured_region"

/* Largest body a scenario's generator may write. */
#define COSTGATE_BODY_MAX 4096

/* What the harness hands a scenario's callbacks. */
struct costgate_service {
	void *state;                     /* the scenario's own state: set by start, freed by stop */
	struct costgate_queue *requests; /* the queue the service consumes (a handler may requeue) */
	struct costgate_queue *replies;  /* where a handler publishes replies; drained after each
					  * delivery */
};

/* A floor declared by its key, for any metric that takes floors (docs/metrics.md): "steady_KEY"
 * holds the metric per message, "cold_KEY" in the whole 1-delivery run. */
struct costgate_floor {
	const char *key;
	double value;
};

/* A scenario, declared next to its code as
 *     const struct costgate_scenario costgate_scenario = { ... };
 * (the variable's name is the harness's: each scenario executable defines exactly one). */
struct costgate_scenario {
	const char *name;  /* executable and row name: [a-z0-9_]+ */
	const char *title; /* one line for people */
	bool gated;        /* does a regression fail the gate */

	/* Allocation floors, measured with DHAT under the region frame, held on every run. */
	double steady_allocations; /* heap blocks per message in the steady state */
	uint64_t cold_allocations; /* heap blocks of the whole 1-delivery run (start + 1 delivery) */
	/* Optional floors, held likewise when declared (0: none): heap bytes allocated per message
	 * and by the 1-delivery run; the growth of the process's peak live heap per message and
	 * that peak in the 1-delivery run (docs/metrics.md). */
	double steady_bytes;
	uint64_t cold_bytes;
	double steady_peak_bytes;
	uint64_t cold_peak_bytes;

	bool gate_cycles;          /* gate estimated cycles (a cache simulation, run for this scenario
				    * only) at the instruction limit, besides the instructions */
	double limit_percent;      /* own instruction limit in percent; 0 means the gate's default */
	double linearity_percent;  /* own linearity limit in percent: how far the slope from 1 to N
				    * may differ from the one from N to 2N before the measurement
				    * fails; 0 means the gate's default, 5 */

	size_t batch_size; /* 0 or 1: one delivery at a time; else deliveries assembled into batches
			    * of this many on the consumer, settled once per batch */
	bool raw;          /* no queue at all: the drain is a hand-written loop over the bodies,
			    * the baseline that shows what the harness adds */

	/* Writes the message body into `buffer` (COSTGATE_BODY_MAX bytes) and returns its length.
	 * Called once per message while filling, outside the region; must write the same bytes on
	 * every call (the harness checks: bodies that change make the slope wrong). */
	size_t (*body)(unsigned char *buffer, size_t capacity);

	/* Starts the service (inside the region): sets service->state. Returns 0, or -1 on failure.
	 * May be NULL. */
	int (*start)(struct costgate_service *service);

	/* Handles one message body (inside the region). Returns 0, or -1 on failure. */
	int (*handle)(struct costgate_service *service, const unsigned char *body, size_t length);

	/* Handles one reply the handler published (inside the region); NULL when the scenario
	 * publishes no replies. Every request must produce exactly one reply. */
	int (*handle_reply)(struct costgate_service *service, const unsigned char *body, size_t length);

	/* Tears the service down (outside the region); frees service->state. May be NULL. */
	void (*stop)(struct costgate_service *service);

	/* The name of the raw scenario (.raw, the same body and handler) this one is timed against
	 * by `gate time`, or NULL. Set it with COSTGATE_RAW_COUNTERPART, never directly. */
	const char *raw_counterpart;

	/* Fields added later come last, so that a C89 initializer without designators, written for
	 * the fields above, keeps its meaning (and leaves these 0). */

	/* Optional floors on system calls (counted by callgrind in the region; 0: none): per
	 * message, and in the whole 1-delivery run. Where a scenario declares none, any rise over
	 * the baseline fails (docs/metrics.md). */
	double steady_syscalls;
	uint64_t cold_syscalls;
	double allocator_limit_percent; /* own limit in percent for glibc malloc's instructions
					 * (allocator/msg); 0 means the gate's default, 10 */
	bool unoptimised; /* the project's code is measured compiled without optimisation, on
			   * purpose: gate refuses a build whose project code was compiled at -O0
			   * otherwise (its DWARF says so) */
	/* The metrics gated on request that this scenario gates, by key, separated by spaces:
	 * "cycles" is .gate_cycles = true. gate refuses a key that is not such a metric of its. */
	const char *gate_metrics;
	/* Floors by key, for any metric that takes floors, ended by one whose key is NULL:
	 *     static const struct costgate_floor floors[] = { { "cold_peak_bytes", 4096 }, { 0 } };
	 * (the named fields above are the same floors: declare each once). gate refuses a key that
	 * is no floor of its metrics. */
	const struct costgate_floor *floors;
};

/* Declares the raw counterpart inside a scenario's initializer:
 *     COSTGATE_RAW_COUNTERPART("decode_only")
 * The name exists only in the native build. Deliberate: a string literal in the measured
 * executable moves the literals linked after it, and strcmp's instruction count depends on their
 * alignment (batch once moved by 98 instructions a message, all of them in __strcmp_sse2,
 * from a name it never reads in the region). */
#ifdef COSTGATE_NATIVE
#define COSTGATE_RAW_COUNTERPART(name) .raw_counterpart = (name),
#else
#define COSTGATE_RAW_COUNTERPART(name)
#endif

/* Every scenario executable links exactly one of these. */
extern const struct costgate_scenario costgate_scenario;

/* Keeps `value` alive for the optimizer: a compiler barrier that makes the value "used". */
#define COSTGATE_KEEP(value) __asm__ volatile("" : : "g"(value) : "memory")

/* Runs a scenario as its executable's main does: `--describe`, or COUNT deliveries. The native
 * build of the harness (COSTGATE_NATIVE, build/scenarios/native/<name>, see native.h) also takes
 * `--time COUNT`, `--count-allocations COUNT` and `--profile FILE COUNT`.
 * Returns the process exit code: 0 done, 1 an internal check failed, 2 usage error. */
int costgate_harness_main(const struct costgate_scenario *scenario, int argc, char **argv);

#endif
