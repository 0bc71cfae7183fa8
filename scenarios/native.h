/* Native runs of a scenario, without valgrind: the same harness and scenario sources compiled
 * with COSTGATE_NATIVE and linked with gperftools (tcmalloc and its CPU profiler), put at
 * build/scenarios/native/<name>. The gated executables never contain any of this, so nothing
 * here can move an instruction count.
 *
 *   NAME --time COUNT                 prints "drain_ns NANOSECONDS": the drain's wall time
 *   NAME --count-allocations COUNT    prints "allocations BLOCKS": heap blocks under the region,
 *                                     counted the way DHAT counts them (alloc_counter.h)
 *   NAME --profile FILE COUNT         writes a gperftools CPU profile of the drain to FILE
 *   NAME                              the second opinion: reads "phases K1,K2,K3 COUNT backlog
 *                                     B" on stdin (no argument marks the run), drains in those
 *                                     phases with at most B messages waiting (0: a phase at
 *                                     once), and prints "allocations C1 C2 C3" (the blocks at
 *                                     each phase's end, as DHAT counts them) and "instructions
 *                                     I1 I2 I3" (user-space instructions in the region, from the
 *                                     CPU's counter) or "instructions unavailable: WHY" */
#ifndef COSTGATE_NATIVE_H
#define COSTGATE_NATIVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Parses a native mode from argv. Returns 1 when argv is one (*count set, the mode remembered),
 * 0 when it is not (the ordinary COUNT and --describe apply), -1 on a usage error with the
 * problem written into `problem`. */
int costgate_native_parse(int argc, char **argv, uint64_t count_max, uint64_t *count, char *problem,
		 size_t problem_size);

/* The second opinion's request, read from `input` when argv holds no argument: the phases'
 * counts into snapshots (at most `max`, *used set), the count and the backlog. Returns 1 when
 * argv holds no argument (the request read), 0 when it holds one, -1 on a bad request with the
 * problem in `problem`. */
int costgate_native_request(int argc, FILE *input, uint64_t count_max, uint64_t *snapshots,
			    size_t max, size_t *used, uint64_t *count, uint64_t *backlog,
			    char *problem, size_t problem_size);

/* After each phase of the second opinion: its counts so far. */
void costgate_native_phase_end(void);

/* Called on entry to and exit from the measured region (`drain`: the second entry). They do
 * only what the mode needs: read the clock, switch the allocation counter, start or stop the
 * profiler. */
void costgate_native_region_enter(bool drain);
void costgate_native_region_leave(bool drain);

/* After a run that passed its checks: prints the mode's result on stdout. Returns the exit code
 * (1 when the result cannot be trusted, e.g. the profiler did not start). */
int costgate_native_report(const char *name);

/* true in --time: the fill skips what only the measured runs need (a fresh body from the
 * generator for every message, checked against the first) and the process ends without freeing
 * the queue, so that a round's time goes to the drain it times. */
bool costgate_native_timing(void);

/* The native modes' lines for the usage text. */
void costgate_native_usage(FILE *out, const char *name);

#endif
