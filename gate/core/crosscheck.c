/* The native allocation count against DHAT's. Deliberate: the three counts are compared, not only
 * the slope and the cold figure, so a constant offset that cancels in the slope still shows. */
#define _GNU_SOURCE
#include "crosscheck.h"

#include <errno.h>
#include <inttypes.h>
#include <libgen.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runner.h"

int crosscheck_parse(const char *output, uint64_t *blocks, struct gate_error *err)
{
	static const char prefix[] = "allocations ";
	const char *digits = output;
	char *end = NULL;
	unsigned long long value;

	if (strncmp(digits, prefix, sizeof(prefix) - 1) != 0)
		return gate_error_set(err, "printed no 'allocations' line");
	digits += sizeof(prefix) - 1;
	errno = 0;
	value = strtoull(digits, &end, 10);
	if (digits[0] < '0' || digits[0] > '9' || errno != 0 || end == digits ||
	    (*end != '\n' && *end != '\0') || (*end == '\n' && end[1] != '\0'))
		return gate_error_set(err, "printed '%.60s', not 'allocations BLOCKS'", output);
	*blocks = value;
	return 0;
}

static const struct manifest_entry *find_native(const struct manifest *native, const char *name)
{
	size_t i;

	for (i = 0; native != NULL && i < native->entry_count; i++)
		if (strcmp(native->entries[i].name, name) == 0)
			return &native->entries[i];
	return NULL;
}

static void fail(struct measurement *measurement, const char *format, ...)
	__attribute__((format(printf, 2, 3)));

static void fail(struct measurement *measurement, const char *format, ...)
{
	va_list args;

	measurement->failed = true;
	va_start(args, format);
	vsnprintf(measurement->failure, sizeof(measurement->failure), format, args);
	va_end(args);
}

/* One run of the counter. Returns 0, or -1 with err saying what went wrong with the run. */
static int count_once(const char *path, uint64_t count, const struct crosscheck_options *options,
		      uint64_t *blocks, struct gate_error *err)
{
	char count_text[32], *directory = strdup(path), *output = NULL;
	char *argv[] = { (char *)path, "--count-allocations", count_text, NULL };
	int status;

	if (directory == NULL)
		return gate_error_set(err, "out of memory");
	snprintf(count_text, sizeof(count_text), "%" PRIu64, count);
	if (options->verbosity > 1)
		fprintf(stderr, "gate: run: cd '%s' && %s --count-allocations %s\n", dirname(directory),
			path, count_text);
	status = runner_capture(argv, dirname(directory), measure_environment(),
				options->timeout_seconds, &output, err);
	if (status == 0)
		status = crosscheck_parse(output, blocks, err);
	free(output);
	free(directory);
	return status;
}

static bool same_counts(const uint64_t left[SLOPE_RUNS], const uint64_t right[SLOPE_RUNS])
{
	return left[SLOPE_ONE] == right[SLOPE_ONE] && left[SLOPE_N] == right[SLOPE_N] &&
	       left[SLOPE_TWICE_N] == right[SLOPE_TWICE_N];
}

static void check_one(struct measurement *measurement, const struct crosscheck_options *options)
{
	const struct manifest_entry *native = find_native(options->native, measurement->info.name);
	uint64_t counts[SLOPE_RUNS], runs[SLOPE_RUNS];
	struct gate_error err = GATE_ERROR_INIT;
	struct slope slope;
	size_t which;

	runs[SLOPE_ONE] = 1;
	runs[SLOPE_N] = measurement->messages;
	runs[SLOPE_TWICE_N] = 2 * measurement->messages;
	if (native == NULL) {
		fail(measurement, "cross-check: the build has no native variant of '%s' (built only "
		     "with gperftools)", measurement->info.name);
		return;
	}
	for (which = 0; which < SLOPE_RUNS; which++) {
		if (count_once(native->path, runs[which], options, &counts[which], &err) != 0) {
			fail(measurement, "cross-check: the native count at %" PRIu64 " deliveries: %s",
			     runs[which], err.message);
			return;
		}
	}
	if (slope_compute(&slope, counts, measurement->messages, false, &err) != 0) {
		fail(measurement, "cross-check: the native counts: %s", err.message);
		return;
	}
	if (same_counts(counts, measurement->counts[METRIC_ALLOCATIONS]))
		return;
	fail(measurement, "cross-check: tcmalloc's hooks count %.3f allocations per message and "
	     "%" PRIu64 " cold (%" PRIu64 " / %" PRIu64 " / %" PRIu64 " at 1 / N / 2N), DHAT %.3f "
	     "and %" PRIu64 " (%" PRIu64 " / %" PRIu64 " / %" PRIu64 ")", slope.per_message,
	     slope.cold, counts[SLOPE_ONE], counts[SLOPE_N], counts[SLOPE_TWICE_N],
	     measurement->slopes[METRIC_ALLOCATIONS].per_message, measurement->slopes[METRIC_ALLOCATIONS].cold,
	     measurement->counts[METRIC_ALLOCATIONS][SLOPE_ONE], measurement->counts[METRIC_ALLOCATIONS][SLOPE_N],
	     measurement->counts[METRIC_ALLOCATIONS][SLOPE_TWICE_N]);
}

size_t crosscheck_scenarios(struct measurement *measurements, size_t count,
			    const struct crosscheck_options *options)
{
	size_t i, agreed = 0;

	for (i = 0; i < count; i++) {
		if (measurements[i].failed)
			continue;
		check_one(&measurements[i], options);
		agreed += !measurements[i].failed;
	}
	return agreed;
}
