/* Running the native variants. A drain's time is read inside the scenario process (drain_ns),
 * so starting the process, the fill and the teardown never reach the figure. */
#define _GNU_SOURCE
#include "native_runs.h"

#include <errno.h>
#include <inttypes.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <time.h>

#include "runner.h"

#define PROBE_START 1000
#define PROBES_MAX 16

char *const *native_runs_environment(void)
{
	static char *environment[] = { "PATH=/usr/bin:/bin", "LC_ALL=C", "LANG=C", NULL };

	return environment;
}

/* BUILD_DIR/scenarios/native/manifest.txt (owned), or NULL when out of memory. */
static char *manifest_path(const char *build_dir)
{
	char *path = NULL;

	return asprintf(&path, "%s/scenarios/native/manifest.txt", build_dir) < 0 ? NULL : path;
}

bool native_runs_present(const char *build_dir)
{
	char *path = manifest_path(build_dir);
	bool present = path != NULL && access(path, F_OK) == 0;

	free(path);
	return present;
}

int native_runs_read_manifest(struct manifest *manifest, const char *build_dir,
			      struct gate_error *err)
{
	char *path = manifest_path(build_dir);
	int status;

	if (path == NULL)
		return gate_error_oom(err);
	if (access(path, F_OK) != 0) {
		free(path);
		return gate_error_set(err, "no native scenarios: the build has none (costgate built "
				      "with gperftools makes them with CMake, or with pkg-config's "
				      "costgate-native and gate manifest --native; docs/wall-clock.md)");
	}
	status = manifest_read(manifest, path, err);
	free(path);
	return status;
}

static struct native_runs_tally tally;

struct native_runs_tally native_runs_tally(void)
{
	return tally;
}

int native_runs_drain(const char *path, uint64_t count, double timeout_seconds,
		      uint64_t *nanoseconds, struct gate_error *err)
{
	struct timespec started, ended;
	char count_text[32], *output = NULL, *end = NULL, *directory = strdup(path);
	char *argv[] = { (char *)path, "--time", count_text, NULL };
	int status;

	if (directory == NULL)
		return gate_error_oom(err);
	snprintf(count_text, sizeof(count_text), "%" PRIu64, count);
	clock_gettime(CLOCK_MONOTONIC, &started);
	status = runner_capture(argv, dirname(directory), native_runs_environment(), timeout_seconds,
				&output, err);
	clock_gettime(CLOCK_MONOTONIC, &ended);
	if (status == 0) {
		errno = 0;
		*nanoseconds = strncmp(output, "drain_ns ", 9) == 0 && output[9] >= '0' && output[9] <= '9'
				       ? strtoull(output + 9, &end, 10) : 0;
		if (end == NULL || errno != 0 || (*end != '\n' && *end != '\0') || *nanoseconds == 0)
			status = gate_error_set(err, "'%s --time' printed '%.40s', not 'drain_ns N'",
						path, output);
	}
	if (status == 0) {
		tally.runs++;
		tally.drain_seconds += (double)*nanoseconds / 1e9;
		tally.run_seconds += (double)(ended.tv_sec - started.tv_sec) +
				     (double)(ended.tv_nsec - started.tv_nsec) / 1e9;
	}
	free(output);
	free(directory);
	return status;
}

int native_runs_calibrate(const char *path, double seconds, uint64_t count_max,
			  double timeout_seconds, double *rate, struct gate_error *err)
{
	double target = seconds * 1e9, factor, grown;
	uint64_t count = PROBE_START < count_max ? PROBE_START : count_max, nanoseconds = 0;
	unsigned probes;

	for (probes = 0; probes < PROBES_MAX; probes++) {
		if (native_runs_drain(path, count, timeout_seconds, &nanoseconds, err) != 0)
			return -1;
		if ((double)nanoseconds >= target / 4 || count >= count_max)
			break;
		factor = target / 2 / (double)nanoseconds;
		factor = factor < 2 ? 2 : factor > 100 ? 100 : factor;
		grown = (double)count * factor;
		count = grown < (double)count_max ? (uint64_t)grown : count_max;
	}
	*rate = (double)count / ((double)nanoseconds / 1e9);
	return 0;
}
