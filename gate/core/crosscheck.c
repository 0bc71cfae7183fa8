/* The second opinion against the measured figures. Deliberate: the three allocation counts are
 * compared, not only the slope and the cold figure, so a constant offset that cancels in the
 * slope still shows; instructions only one way, since natively they differ for good reasons
 * (crosscheck.h). */
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

#include "argv_list.h"
#include "fs.h"
#include "native_runs.h"
#include "runner.h"

/* Reads "KEY C1 C2 C3" at *cursor into counts and moves past its line. */
static int read_counts(const char **cursor, const char *key, uint64_t counts[SLOPE_RUNS])
{
	const char *at = *cursor;
	size_t which;

	if (strncmp(at, key, strlen(key)) != 0)
		return -1;
	at += strlen(key);
	for (which = 0; which < SLOPE_RUNS; which++) {
		char *end = NULL;

		if (at[0] != ' ' || at[1] < '0' || at[1] > '9')
			return -1;
		errno = 0;
		counts[which] = strtoull(at + 1, &end, 10);
		if (errno != 0)
			return -1;
		at = end;
	}
	if (*at != '\n')
		return -1;
	*cursor = at + 1;
	return 0;
}

int crosscheck_parse(const char *output, struct measurement *measurement,
		     char *why_unavailable, size_t why_size, struct gate_error *err)
{
	static const char unavailable[] = "instructions unavailable: ";
	const char *cursor = output;

	if (read_counts(&cursor, "allocations", measurement->native_allocations) != 0)
		return gate_error_set(err, "printed '%.60s', not 'allocations C1 C2 C3'", output);
	measurement->has_native = true;
	if (strncmp(cursor, unavailable, sizeof(unavailable) - 1) == 0) {
		const char *why = cursor + sizeof(unavailable) - 1;

		if (why_unavailable != NULL)
			snprintf(why_unavailable, why_size, "%.*s", (int)strcspn(why, "\n"), why);
		return 0;
	}
	if (read_counts(&cursor, "instructions", measurement->native_instructions) != 0 ||
	    *cursor != '\0')
		return gate_error_set(err, "printed '%.60s' after its allocations, not "
				      "'instructions I1 I2 I3'", cursor);
	measurement->has_native_instructions = true;
	return 0;
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

static bool same_counts(const uint64_t left[SLOPE_RUNS], const uint64_t right[SLOPE_RUNS])
{
	return left[SLOPE_ONE] == right[SLOPE_ONE] && left[SLOPE_N] == right[SLOPE_N] &&
	       left[SLOPE_TWICE_N] == right[SLOPE_TWICE_N];
}

/* "natively (address randomisation on, ...)": how the native run differed. */
static void native_conditions(const struct measurement *measurement, char *text, size_t size)
{
	snprintf(text, size, "natively (address randomisation on, no pins, N on stdin, at most "
		 "%" PRIu64 " messages waiting)", measurement->native_backlog);
}

static void compare_allocations(struct measurement *measurement)
{
	const uint64_t *native = measurement->native_allocations;
	const uint64_t *measured = measurement->counts[METRIC_ALLOCATIONS];
	struct gate_error err = GATE_ERROR_INIT;
	struct slope slope;
	char conditions[160];

	if (same_counts(native, measured))
		return;
	native_conditions(measurement, conditions, sizeof(conditions));
	if (slope_compute(&slope, native, measurement->messages, false, &err) != 0) {
		fail(measurement, "behaves differently when measured: heap blocks %" PRIu64 " / %" PRIu64
		     " / %" PRIu64 " at 1 / N / 2N %s (%s), against %" PRIu64 " / %" PRIu64 " / %" PRIu64
		     " measured", native[SLOPE_ONE], native[SLOPE_N], native[SLOPE_TWICE_N],
		     conditions, err.message, measured[SLOPE_ONE], measured[SLOPE_N],
		     measured[SLOPE_TWICE_N]);
		return;
	}
	fail(measurement, "behaves differently when measured: %.3f heap blocks per message and "
	     "%" PRIu64 " cold %s, against %.3f and %" PRIu64 " measured (%" PRIu64 " / %" PRIu64
	     " / %" PRIu64 " at 1 / N / 2N, against %" PRIu64 " / %" PRIu64 " / %" PRIu64 ")",
	     slope.per_message, slope.cold, conditions,
	     measurement->slopes[METRIC_ALLOCATIONS].per_message,
	     measurement->slopes[METRIC_ALLOCATIONS].cold, native[SLOPE_ONE], native[SLOPE_N],
	     native[SLOPE_TWICE_N], measured[SLOPE_ONE], measured[SLOPE_N], measured[SLOPE_TWICE_N]);
}

/* The region's whole instructions per message as callgrind counted them: the program's and the
 * allocator's, which together are what the CPU's counter sees natively. */
static double measured_region(const struct measurement *measurement)
{
	double region = measurement->slopes[METRIC_INSTRUCTIONS].per_message;

	if (measurement->has[METRIC_ALLOCATOR_INSTRUCTIONS])
		region += measurement->slopes[METRIC_ALLOCATOR_INSTRUCTIONS].per_message;
	return region;
}

static void compare_instructions(struct measurement *measurement)
{
	const uint64_t *native = measurement->native_instructions;
	double per_message, measured = measured_region(measurement);
	char conditions[160];

	if (native[SLOPE_TWICE_N] < native[SLOPE_N])
		per_message = 0;
	else
		per_message = slope_per_message(native[SLOPE_N], native[SLOPE_TWICE_N],
						measurement->messages);
	if (per_message <= measured * (1.0 + CROSSCHECK_INSTRUCTION_TOLERANCE))
		return;
	native_conditions(measurement, conditions, sizeof(conditions));
	fail(measurement, "behaves differently when measured: %.3f instructions per message %s, "
	     "against %.3f measured (the program's and the allocator's): %+.1f %%, above the %g %% "
	     "the CPU's own string functions and tcmalloc allow", per_message, conditions, measured,
	     slope_change_percent(per_message, measured), CROSSCHECK_INSTRUCTION_TOLERANCE * 100);
}

void crosscheck_compare(struct measurement *measurement)
{
	if (measurement->failed || !measurement->has_native || !measurement->has[METRIC_ALLOCATIONS])
		return;
	compare_allocations(measurement);
	if (!measurement->failed && measurement->has_native_instructions &&
	    measurement->has[METRIC_INSTRUCTIONS])
		compare_instructions(measurement);
}

static const struct manifest_entry *find_native(const struct manifest *native, const char *name)
{
	size_t i;

	for (i = 0; native != NULL && i < native->entry_count; i++)
		if (strcmp(native->entries[i].name, name) == 0)
			return &native->entries[i];
	return NULL;
}

/* One scenario's run: its command, the files of its request, output and log. */
struct opinion {
	struct measurement *measurement;
	struct argv_list argv;
	char *directory, *request, *output, *log;
};

static void opinion_release(struct opinion *opinion)
{
	argv_list_release(&opinion->argv);
	free(opinion->directory);
	free(opinion->request);
	free(opinion->output);
	free(opinion->log);
}

/* Plans the run of `measurement`'s native variant `path`: writes its request. */
static int plan(struct opinion *opinion, struct measurement *measurement, const char *path,
		const struct crosscheck_options *options, struct runner_job *job,
		struct gate_error *err)
{
	const char *name = measurement->info.name;
	uint64_t messages = measurement->messages;
	char request[160];

	opinion->measurement = measurement;
	measurement->native_backlog = CROSSCHECK_BACKLOG;
	argv_list_add(&opinion->argv, path);
	opinion->directory = strdup(path);
	if (argv_list_vector(&opinion->argv) == NULL || opinion->directory == NULL ||
	    asprintf(&opinion->request, "%s/native.%s.request", options->raw_dir, name) < 0 ||
	    asprintf(&opinion->output, "%s/native.%s.out", options->raw_dir, name) < 0 ||
	    asprintf(&opinion->log, "%s/native.%s.log", options->raw_dir, name) < 0)
		return gate_error_oom(err);
	snprintf(request, sizeof(request), "phases 1,%" PRIu64 ",%" PRIu64 " %" PRIu64 " backlog %d\n",
		 messages, 2 * messages, 2 * messages, CROSSCHECK_BACKLOG);
	if (fs_write_atomic(opinion->request, request, strlen(request), NULL, err) != 0)
		return -1;
	*job = (struct runner_job){ .argv = argv_list_vector(&opinion->argv),
				    .directory = dirname(opinion->directory),
				    .input_path = opinion->request, .output_path = opinion->output,
				    .log_path = opinion->log };
	if (options->verbosity > 1)
		say_line(&options->say, "gate: native run: cd '%s' && env -i PATH=/usr/bin:/bin "
			 "LC_ALL=C LANG=C %s <%s", job->directory, path, opinion->request);
	return 0;
}

/* Reads what a finished run printed, and compares. */
static void conclude(struct opinion *opinion, const struct runner_job *job,
		     const struct crosscheck_options *options, char *unavailable,
		     size_t unavailable_size)
{
	struct measurement *measurement = opinion->measurement;
	struct gate_error err = GATE_ERROR_INIT;
	char how[200], why[200] = "", *text = NULL;
	size_t length = 0;

	if (!runner_job_succeeded(job)) {
		runner_describe_end(job, options->timeout_seconds, how, sizeof(how));
		fail(measurement, "the second opinion (its native run) %s (log: %s)", how,
		     opinion->log);
		return;
	}
	if (fs_read_file(opinion->output, 4096, &text, &length) != 0) {
		fail(measurement, "the second opinion: cannot read '%s': %s", opinion->output,
		     strerror(errno));
		return;
	}
	if (crosscheck_parse(text, measurement, why, sizeof(why), &err) != 0)
		fail(measurement, "the second opinion (its native run) %s (file %s)", err.message,
		     opinion->output);
	else
		crosscheck_compare(measurement);
	if (why[0] != '\0' && unavailable != NULL && unavailable[0] == '\0')
		snprintf(unavailable, unavailable_size, "%s", why);
	free(text);
}

size_t crosscheck_scenarios(struct measurement *measurements, size_t count,
			    const struct crosscheck_options *options, char *unavailable,
			    size_t unavailable_size)
{
	struct opinion *opinions = calloc(count + 1, sizeof(*opinions));
	struct runner_job *jobs = calloc(count + 1, sizeof(*jobs));
	struct runner_options run = { .parallel = options->jobs > 0 ? options->jobs : 1,
				      .timeout_seconds = options->timeout_seconds,
				      .environment = native_runs_environment() };
	struct gate_error err = GATE_ERROR_INIT;
	size_t planned = 0, agreed = 0, i;

	if (unavailable != NULL && unavailable_size > 0)
		unavailable[0] = '\0';
	if (opinions == NULL || jobs == NULL) {
		for (i = 0; i < count; i++)
			if (!measurements[i].failed)
				fail(&measurements[i], "the second opinion: out of memory");
		goto out;
	}
	for (i = 0; i < count; i++) {
		struct measurement *measurement = &measurements[i];
		const struct manifest_entry *native = find_native(options->native,
								  measurement->info.name);

		if (measurement->failed)
			continue;
		if (native == NULL) {
			if (options->required)
				fail(measurement, "cross-check: the build has no native variant of '%s' "
				     "(built only with gperftools)", measurement->info.name);
			continue;
		}
		if (plan(&opinions[planned], measurement, native->path, options, &jobs[planned],
			 &err) != 0) {
			fail(measurement, "the second opinion: %s", err.message);
			opinion_release(&opinions[planned]);
			continue;
		}
		planned++;
	}
	if (planned > 0 && runner_run(jobs, planned, &run, &err) != 0) {
		for (i = 0; i < planned; i++)
			fail(opinions[i].measurement, "the second opinion: %s", err.message);
		goto out;
	}
	for (i = 0; i < planned; i++) {
		conclude(&opinions[i], &jobs[i], options, unavailable, unavailable_size);
		agreed += !opinions[i].measurement->failed;
	}
out:
	for (i = 0; opinions != NULL && i < planned; i++)
		opinion_release(&opinions[i]);
	free(opinions);
	free(jobs);
	return agreed;
}
