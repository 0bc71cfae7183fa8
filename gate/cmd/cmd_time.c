/* gate time. Deliberate: a round is timed inside the scenario process, around the drain only, so
 * the start, the fill and the process itself stay out of the figure; one process per round (a
 * few when its bodies would not fit in memory); the sides alternate round by round, so a drift
 * of the machine falls on both instead of on whichever ran last. */
#define _GNU_SOURCE
#include "cmd_time.h"

#include <fnmatch.h>
#include <inttypes.h>
#include <libgen.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "array.h"
#include "command.h"
#include "environment.h"
#include "exit_codes.h"
#include "json_read.h"
#include "manifest.h"
#include "native_runs.h"
#include "optlayer.h"
#include "results.h"
#include "runner.h"
#include "session.h"
#include "verdict.h"
#include "wallclock.h"

#define ROUND_SECONDS_MAX_MS 600000
#define LOOPS_MAX 20
#define ROUNDS_MAX 50
#define PROCESS_BYTES_MAX (256ULL << 20)    /* bodies one process holds, with the queue's slots */
#define SLOT_BYTES 96                       /* a queue slot and the allocator's share, per body */

/* What the pairs' figures stand on, stored with them. */
#define METHOD "native build (the scenarios' flags, tcmalloc), glibc's own CPU dispatch, " \
	       "single-threaded, CLOCK_MONOTONIC around the drain; a discarded calibration round first"

struct time_options {
	struct command_shared shared;
	char *json_path;    /* owned */
	char **scenarios;   /* harness-side names or globs (point into argv); owned array */
	size_t scenario_count;
	double round_seconds;
	unsigned loops;
	unsigned rounds;
};

static const struct time_options time_defaults = { .round_seconds = 1, .loops = 3, .rounds = 3 };

/* A native executable and what its --describe says. */
struct side {
	char *name;        /* owned, as all strings here */
	char *path;
	char *directory;
	char *title;
	char *counterpart; /* raw_counterpart, or NULL */
	bool raw;
	uint64_t body_bytes;
};

struct timing {
	const struct time_options *options;
	struct manifest native;
	struct side *sides;
	size_t side_count;
	struct wall_pair *pairs;
	size_t pair_count;
	struct environment environment;
};

static int finish(void *own, char **operands, size_t operand_count, struct gate_error *err)
{
	struct time_options *options = own;

	(void)operands;
	(void)operand_count;
	if (options->json_path == NULL &&
	    asprintf(&options->json_path, "%s/gate/results.json", options->shared.build_dir) < 0) {
		options->json_path = NULL;
		return gate_error_oom(err);
	}
	return 0;
}

static const struct opt opt_time_scenario = {
	"scenario", 's', "NAME", "time only NAME (the harness side; a name or a glob); may repeat",
	OPT_LIST_FIELD(struct time_options, scenarios, scenario_count) };
static const struct opt opt_round_seconds = {
	"round-seconds", 0, "S", "how long a round lasts (default 1)",
	OPT_SECONDS_FIELD(struct time_options, round_seconds, 1, ROUND_SECONDS_MAX_MS) };
static const struct opt opt_loops = { "loops", 0, "L", "loops per pair (default 3)", OPT_UNSIGNED_FIELD(struct time_options, loops, 1, LOOPS_MAX) };
static const struct opt opt_rounds = {
	"rounds", 0, "R", "rounds of each side in a loop (default 3)", OPT_UNSIGNED_FIELD(struct time_options, rounds, 1, ROUNDS_MAX) };
static const struct opt opt_time_json = {
	"json", 0, "FILE", "results file to update (default DIR/gate/results.json)", OPT_COPY_FIELD(struct time_options, json_path) };

static const struct opt *const time_opts[] = {
	&opt_time_scenario, &opt_round_seconds, &opt_loops, &opt_rounds, &opt_build_dir,
	&opt_time_json, &opt_timeout, &opt_verbose, &opt_quiet, &opt_help, NULL,
};

static const struct opt_note time_notes[] = {
	{ &opt_build_dir, "the build to time (default build)" },
	{ &opt_timeout, "kill a run after this long (default 600)" },
	{ &opt_verbose, "print every round" },
	{ NULL, NULL },
};

static const struct command_spec time_spec = {
	"gate time",
	"usage: gate time [options]",
	"Times every scenario that declares a raw counterpart against that raw loop, natively\n"
	"(build/scenarios/native, no valgrind): after a discarded calibration round, LOOPS\n"
	"loops of ROUNDS interleaved rounds (raw, harness, raw, harness, ...), each round\n"
	"lasting about SECONDS. Writes the `scenarios` section of results.json and keeps the\n"
	"rest of the file. Informational: never gated.\n",
	time_opts,
	"Exit codes: 0 timed, 2 usage error or nothing to time, 3 a run failed.\n",
	0,
	NULL,
	NULL,
	time_notes,
};

static char *owned_string(const cJSON *object, const char *key)
{
	const cJSON *item = cJSON_GetObjectItemCaseSensitive(object, key);

	return cJSON_IsString(item) ? strdup(item->valuestring) : NULL;
}

/* Reads `PATH --describe` into a side. */
static int describe(struct side *side, const struct manifest_entry *entry, double timeout,
		    struct gate_error *err)
{
	char *argv[] = { entry->path, "--describe", NULL }, *output = NULL;
	const cJSON *bytes, *raw;
	cJSON *root = NULL;
	int status = -1;

	side->name = strdup(entry->name);
	side->path = strdup(entry->path);
	side->directory = strdup(entry->path);
	if (side->name == NULL || side->path == NULL || side->directory == NULL) {
		gate_error_oom(err);
		goto out;
	}
	dirname(side->directory);
	if (runner_capture(argv, side->directory, native_runs_environment(), timeout, &output, err) != 0)
		goto out;
	root = json_read_document(output, strlen(output), err);
	if (root == NULL) {
		gate_error_prefix(err, "'%s --describe'", entry->path);
		goto out;
	}
	bytes = cJSON_GetObjectItemCaseSensitive(root, "body_bytes");
	raw = cJSON_GetObjectItemCaseSensitive(root, "raw");
	if (!cJSON_IsNumber(bytes) || bytes->valuedouble < 1 || bytes->valuedouble > 1e9 ||
	    !cJSON_IsBool(raw)) {
		gate_error_set(err, "'%s --describe' printed no body_bytes or raw", entry->path);
		goto out;
	}
	side->body_bytes = (uint64_t)bytes->valuedouble;
	side->raw = cJSON_IsTrue(raw);
	side->title = owned_string(root, "title");
	side->counterpart = owned_string(root, "raw_counterpart");
	status = 0;
out:
	cJSON_Delete(root);
	free(output);
	return status;
}

/* The side of the native scenario `name` (sides[i] is native.entries[i]), or NULL. */
static const struct side *find_side(const struct timing *timing, const char *name)
{
	const struct manifest_entry *entry = command_find_scenario(&timing->native, name);

	return entry != NULL ? &timing->sides[entry - timing->native.entries] : NULL;
}

static bool selected(const struct time_options *options, const char *name)
{
	size_t i;

	for (i = 0; i < options->scenario_count; i++)
		if (fnmatch(options->scenarios[i], name, 0) == 0)
			return true;
	return options->scenario_count == 0;
}

/* Reads the native manifest and every description, and makes the list of pairs. */
static int find_pairs(struct timing *timing, struct gate_error *err)
{
	const struct time_options *options = timing->options;
	size_t i;

	if (native_runs_read_manifest(&timing->native, options->shared.build_dir, err) != 0)
		return -1;
	timing->sides = calloc(timing->native.entry_count + 1, sizeof(*timing->sides));
	timing->pairs = calloc(timing->native.entry_count + 1, sizeof(*timing->pairs));
	if (timing->sides == NULL || timing->pairs == NULL)
		return gate_error_oom(err);
	for (i = 0; i < timing->native.entry_count; i++, timing->side_count++)
		if (describe(&timing->sides[i], &timing->native.entries[i],
			     options->shared.timeout_seconds, err) != 0)
			return -1;
	for (i = 0; i < timing->side_count; i++) {
		const struct side *side = &timing->sides[i], *raw;
		struct wall_pair *pair = &timing->pairs[timing->pair_count];

		if (side->counterpart == NULL || !selected(options, side->name))
			continue;
		raw = find_side(timing, side->counterpart);
		if (raw == NULL || !raw->raw || raw->body_bytes != side->body_bytes)
			return gate_error_set(err, "scenario '%s' declares the raw counterpart '%s', which %s",
					      side->name, side->counterpart,
					      raw == NULL ? "the build does not have"
					      : !raw->raw ? "is not a raw loop" : "has another body size");
		pair->name = strdup(side->name);
		pair->raw_name = strdup(raw->name);
		pair->title = side->title ? strdup(side->title) : NULL;
		if (pair->name == NULL || pair->raw_name == NULL)
			return gate_error_oom(err);
		timing->pair_count++;
	}
	if (timing->pair_count == 0)
		return gate_error_set(err, "nothing to time: %s", options->scenario_count > 0
				      ? "no selected scenario declares a raw counterpart"
				      : "no scenario declares a raw counterpart");
	return 0;
}

/* One round of `processes` runs of `chunk` messages each: its rate in messages per second. */
static int round_rate(const struct timing *timing, const struct side *side, uint64_t chunk,
		      uint64_t processes, double *rate, struct gate_error *err)
{
	uint64_t total = 0, nanoseconds, i;

	for (i = 0; i < processes; i++) {
		if (native_runs_drain(side->path, chunk, timing->options->shared.timeout_seconds,
				      &nanoseconds, err) != 0)
			return -1;
		total += nanoseconds;
	}
	*rate = (double)(chunk * processes) / ((double)total / 1e9);
	if (timing->options->shared.verbosity > 1)
		fprintf(stderr, "gate: time: %s: %.0f msg/s\n", side->name, *rate);
	return 0;
}

/* Sizes a pair's rounds from both sides' probes (the faster side still lasts a round), runs the
 * discarded calibration round, then the loops. */
static int time_pair(const struct timing *timing, struct wall_pair *pair, struct gate_error *err)
{
	const struct time_options *options = timing->options;
	const struct side *raw = find_side(timing, pair->raw_name);
	const struct side *harness = find_side(timing, pair->name);
	uint64_t chunk_max = PROCESS_BYTES_MAX / (harness->body_bytes + SLOT_BYTES), wanted, processes,
		 chunk;
	size_t count = (size_t)options->loops * options->rounds, i;
	double raw_rate, harness_rate, discarded;

	if (chunk_max > NATIVE_RUNS_COUNT_MAX)
		chunk_max = NATIVE_RUNS_COUNT_MAX;
	if (native_runs_calibrate(raw->path, options->round_seconds, chunk_max,
				  options->shared.timeout_seconds, &raw_rate, err) != 0 ||
	    native_runs_calibrate(harness->path, options->round_seconds, chunk_max,
				  options->shared.timeout_seconds, &harness_rate, err) != 0)
		return gate_error_prefix(err, "timing '%s'", pair->name);
	wanted = (uint64_t)ceil(options->round_seconds * (raw_rate > harness_rate ? raw_rate : harness_rate));
	wanted = wanted < 1 ? 1 : wanted;
	processes = (wanted + chunk_max - 1) / chunk_max;
	chunk = (wanted + processes - 1) / processes;
	pair->messages = chunk * processes;
	pair->loops = options->loops;
	pair->rounds = options->rounds;
	pair->round_seconds = options->round_seconds;
	pair->raw_rates = calloc(count, sizeof(double));
	pair->framework_rates = calloc(count, sizeof(double));
	if (pair->raw_rates == NULL || pair->framework_rates == NULL)
		return gate_error_oom(err);
	if (options->shared.verbosity > 0)
		fprintf(stderr, "gate: time: %s against %s: %" PRIu64 " messages a round (%" PRIu64
			" process%s), %u loop%s of %u rounds\n", pair->name, pair->raw_name,
			pair->messages, processes, processes == 1 ? "" : "es", pair->loops,
			pair->loops == 1 ? "" : "s", pair->rounds);
	if (round_rate(timing, raw, chunk, processes, &discarded, err) != 0 ||
	    round_rate(timing, harness, chunk, processes, &discarded, err) != 0)
		return gate_error_prefix(err, "timing '%s'", pair->name);
	for (i = 0; i < count; i++)
		if (round_rate(timing, raw, chunk, processes, &pair->raw_rates[i], err) != 0 ||
		    round_rate(timing, harness, chunk, processes, &pair->framework_rates[i], err) != 0)
			return gate_error_prefix(err, "timing '%s'", pair->name);
	return 0;
}

static void print_table(const struct timing *timing)
{
	size_t i;

	printf("%-22s %-14s %10s  %-22s %-22s %9s %9s %8s  %s\n", "scenario", "raw loop", "messages",
	       "raw best (median)", "harness best (median)", "overhead", "median", "spread",
	       "verdict");
	for (i = 0; i < timing->pair_count; i++) {
		const struct wall_pair *pair = &timing->pairs[i];
		struct wall_comparison c;
		char raw[40], harness[40];

		wall_compare(&c, pair->raw_rates, pair->framework_rates,
			     (size_t)pair->loops * pair->rounds);
		snprintf(raw, sizeof(raw), "%.0f (%.0f)", c.raw.best, c.raw.median);
		snprintf(harness, sizeof(harness), "%.0f (%.0f)", c.framework.best, c.framework.median);
		printf("%-22s %-14s %10" PRIu64 "  %-22s %-22s %+7.2f %% %+7.2f %% %6.2f %%  %s\n",
		       pair->name, pair->raw_name, pair->messages, raw, harness, c.overhead_percent,
		       c.median_overhead_percent, c.spread_percent,
		       wall_verdict_name(c.indistinguishable));
	}
	printf("msg/s; overhead: the time a message takes in the harness over the raw loop's, from "
	       "the best rounds; informational, never gated\n");
}

/* Replaces `scenarios` and `environment` in the results file, keeping everything else. */
static int store(const struct timing *timing, struct gate_error *err)
{
	const char *path = timing->options->json_path;
	char *directory = strdup(path);
	int status;

	if (directory == NULL)
		return gate_error_oom(err);
	status = session_make_directories(dirname(directory), err);
	free(directory);
	if (status != 0)
		return -1;
	return results_store_scenarios(path, timing->pairs, timing->pair_count, METHOD,
				       &timing->environment, err);
}

static void side_release(struct side *side)
{
	free(side->name);
	free(side->path);
	free(side->directory);
	free(side->title);
	free(side->counterpart);
}

/* Both arrays are released over every slot (they are zeroed when made): a side or a pair whose
 * making failed half-way holds strings without being counted. */
static void timing_release(struct timing *timing)
{
	ARRAY_RELEASE(timing->sides, timing->native.entry_count, side_release);
	ARRAY_RELEASE(timing->pairs, timing->native.entry_count, wall_pair_release);
	manifest_release(&timing->native);
	environment_release(&timing->environment);
}

/* The steps: pairs, environment, rounds, table, results file. */
static int run(void *own, struct gate_error *err)
{
	const struct time_options *options = own;
	struct timing timing = { .options = options };
	char *valgrind = runner_find_program("valgrind", getenv("PATH"));
	int code = GATE_EXIT_USAGE;
	struct timespec started, ended;
	struct native_runs_tally tally;
	double seconds;
	size_t i;

	clock_gettime(CLOCK_MONOTONIC, &started);
	if (find_pairs(&timing, err) != 0)
		goto out;
	code = GATE_EXIT_MEASUREMENT;
	if (environment_collect(&timing.environment, valgrind ? valgrind : "valgrind",
				timing.native.compiler, timing.native.flags, err) != 0)
		goto out;
	for (i = 0; i < timing.pair_count; i++)
		if (time_pair(&timing, &timing.pairs[i], err) != 0)
			goto out;
	print_table(&timing);
	fflush(stdout);
	/* Where gate time's own time went: the timed drains against everything else (the
	 * calibration, each process's start, fill, teardown and exit, gate's own work). */
	clock_gettime(CLOCK_MONOTONIC, &ended);
	tally = native_runs_tally();
	seconds = (double)(ended.tv_sec - started.tv_sec) +
		  (double)(ended.tv_nsec - started.tv_nsec) / 1e9;
	if (options->shared.verbosity > 0 && seconds > 0)
		fprintf(stderr, "gate: time: %" PRIu64 " runs in %.1f s; the timed drains took %.1f s "
			"(%.0f %%), the rest of the runs %.1f s (start, fill, teardown, exit), gate "
			"itself %.1f s\n", tally.runs, seconds, tally.drain_seconds,
			100.0 * tally.drain_seconds / seconds, tally.run_seconds - tally.drain_seconds,
			seconds - tally.run_seconds);
	code = GATE_EXIT_USAGE;
	if (store(&timing, err) != 0)
		goto out;
	if (options->shared.verbosity > 0)
		fprintf(stderr, "gate: time: wrote the scenarios section of %s\n", options->json_path);
	code = 0;
out:
	free(valgrind);
	timing_release(&timing);
	return code;
}

const struct command time_command = {
	.spec = &time_spec, .size = sizeof(struct time_options), .defaults = &time_defaults,
	.finish = finish, .run = run,
};
