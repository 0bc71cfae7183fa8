/* Runs of the native scenario variants (build/scenarios/native, see scenarios/native.h): the
 * manifest that lists them, the wall time of one drain, and the calibration that sizes a drain
 * to a wanted duration. Used by gate time and gate profile. */
#ifndef GATE_NATIVE_RUNS_H
#define GATE_NATIVE_RUNS_H

#include <stdbool.h>
#include <stdint.h>

#include "error.h"
#include "manifest.h"

/* The largest COUNT a scenario takes (the harness's limit). */
#define NATIVE_RUNS_COUNT_MAX 100000000ULL

/* The environment of a native run: sealed like the measured runs' (PATH, LC_ALL, LANG), but
 * without the dispatch pin, since a deployed service runs the CPU's own memcpy. Static storage. */
char *const *native_runs_environment(void);

/* Whether BUILD_DIR has native scenarios (BUILD_DIR/scenarios/native/manifest.txt exists). */
bool native_runs_present(const char *build_dir);

/* Reads BUILD_DIR/scenarios/native/manifest.txt; an error says how to get it. */
int native_runs_read_manifest(struct manifest *manifest, const char *build_dir,
			      struct gate_error *err);

/* Runs `PATH --time COUNT` (from the executable's directory) and reads the drain's wall time. */
int native_runs_drain(const char *path, uint64_t count, double timeout_seconds,
		      uint64_t *nanoseconds, struct gate_error *err);

/* What the drains of this process's native_runs_drain calls added up to: the timed drains, and
 * the whole runs they were part of (start, fill, drain, teardown, exit). */
struct native_runs_tally {
	uint64_t runs;
	double drain_seconds;
	double run_seconds;
};

struct native_runs_tally native_runs_tally(void);

/* Drains growing counts (from 1000, at most `count_max`) until one lasts a quarter of `seconds`
 * or more; the last drain's rate in messages per second. */
int native_runs_calibrate(const char *path, double seconds, uint64_t count_max,
			  double timeout_seconds, double *rate, struct gate_error *err);

#endif
