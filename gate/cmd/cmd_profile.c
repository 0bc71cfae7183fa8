/* gate profile. The profiler starts when the drain enters the measured region and stops when it
 * leaves (scenarios/native.c), so the profile holds the drain and nothing of the fill; the drain
 * is sized to last --seconds, since a sampling profiler needs time to say anything. */
#define _GNU_SOURCE
#include "cmd_profile.h"

#include <errno.h>
#include <inttypes.h>
#include <libgen.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "argv_list.h"
#include "command.h"
#include "exit_codes.h"
#include "manifest.h"
#include "native_runs.h"
#include "optlayer.h"
#include "runner.h"
#include "session.h"
#include "suggest.h"
#include "verdict.h"

#define SECONDS_MAX_MS 600000
#define FREQUENCY_MAX 4000
#define TOP_MAX 1000

struct profile_options {
	struct command_shared shared;
	const char *scenario;
	char *output;          /* the profile file; owned */
	double seconds;        /* how long the drain should last, when messages is 0 */
	uint64_t messages;     /* drain exactly this many; 0: calibrate to seconds */
	unsigned frequency;    /* samples per second */
	unsigned top;          /* functions printed */
};

static const struct profile_options profile_defaults = { .seconds = 2, .frequency = 1000,
							.top = 20 };

static int finish(void *own, char **operands, size_t operand_count, struct gate_error *err)
{
	struct profile_options *options = own;

	if (operand_count == 0)
		return gate_error_set(err, "gate profile needs a SCENARIO (see gate profile "
				      "--help)");
	options->scenario = operands[0];
	if (options->output == NULL &&
	    asprintf(&options->output, "%s/gate/profile/%s.prof", options->shared.build_dir,
		     options->scenario) < 0) {
		options->output = NULL;
		return gate_error_oom(err);
	}
	return 0;
}

static const struct opt opt_seconds = {
	"seconds", 0, "S", "size the drain to last about S seconds (default 2)",
	OPT_SECONDS_FIELD(struct profile_options, seconds, 10, SECONDS_MAX_MS) };
static const struct opt opt_profile_messages = {
	"messages", 'n', "N", "drain exactly N messages instead", OPT_UNSIGNED_FIELD(struct profile_options, messages, 1, NATIVE_RUNS_COUNT_MAX) };
static const struct opt opt_frequency = {
	"frequency", 0, "HZ",
	"samples per second asked for (default 1000; the kernel's\n"
	"timer may give fewer)", OPT_UNSIGNED_FIELD(struct profile_options, frequency, 1, FREQUENCY_MAX) };
static const struct opt opt_top = { "top", 0, "K", "functions printed (default 20)", OPT_UNSIGNED_FIELD(struct profile_options, top, 1, TOP_MAX) };
static const struct opt opt_output = {
	"output", 'o', "FILE", "the profile (default DIR/gate/profile/SCENARIO.prof)", OPT_COPY_FIELD(struct profile_options, output) };

static const struct opt *const profile_opts[] = {
	&opt_seconds, &opt_profile_messages, &opt_frequency, &opt_top, &opt_output, &opt_build_dir,
	&opt_timeout, &opt_quiet, &opt_help, NULL,
};

static const struct opt_note profile_notes[] = {
	{ &opt_build_dir, "the build (default build)" },
	{ &opt_timeout, "kill a run after this long (default 600)" },
	{ NULL, NULL },
};

static const struct command_spec profile_spec = {
	"gate profile",
	"usage: gate profile SCENARIO [options]",
	"A CPU profile of SCENARIO's drain with gperftools' profiler, on its native variant\n"
	"(build/scenarios/native): written to a file, its top functions printed with\n"
	"google-pprof --text. Informational.\n",
	profile_opts,
	"Open the profile further with: google-pprof --web|--list=FUNCTION EXECUTABLE FILE\n"
	"Exit codes: 0 profiled, 2 usage error or unknown scenario, 3 the run or google-pprof\n"
	"failed.\n",
	1,
	NULL,
	NULL,
	profile_notes,
};

/* The profile's path made absolute (the run's working directory is the executable's), with its
 * directory created. */
static char *absolute_output(const char *output, struct gate_error *err)
{
	char *copy = strdup(output), *directory = NULL, *absolute = NULL, *base;

	if (copy == NULL) {
		gate_error_oom(err);
		return NULL;
	}
	if (session_make_directories(dirname(copy), err) == 0) {
		directory = realpath(copy, NULL);
		if (directory == NULL) {
			int saved = errno;

			gate_error_set(err, "cannot use '%s': %s", copy, strerror(saved));
		}
	}
	strcpy(copy, output);
	base = basename(copy);
	if (directory != NULL && asprintf(&absolute, "%s/%s", directory, base) < 0) {
		absolute = NULL;
		gate_error_oom(err);
	}
	free(directory);
	free(copy);
	return absolute;
}

/* Runs `PATH --profile OUTPUT COUNT` with the sampling frequency in the environment. */
static int record(const struct profile_options *options, const char *path, const char *output,
		  uint64_t count, struct gate_error *err)
{
	char count_text[32], *directory = strdup(path), *printed = NULL;
	char *argv[] = { (char *)path, "--profile", (char *)output, count_text, NULL };
	struct argv_list environment = ARGV_LIST_INIT;
	int status;

	argv_list_add_all(&environment, (const char *const *)native_runs_environment());
	argv_list_addf(&environment, "CPUPROFILE_FREQUENCY=%u", options->frequency);
	if (directory == NULL || argv_list_vector(&environment) == NULL) {
		free(directory);
		argv_list_release(&environment);
		return gate_error_oom(err);
	}
	snprintf(count_text, sizeof(count_text), "%" PRIu64, count);
	status = runner_capture(argv, dirname(directory), argv_list_vector(&environment),
				options->shared.timeout_seconds, &printed, err);
	argv_list_release(&environment);
	free(printed);
	free(directory);
	return status;
}

/* "unknown scenario 'consume_jsn': did you mean 'consume_json'?" when a native scenario is near. */
static int unknown_scenario(const struct manifest *native, const char *name, struct gate_error *err)
{
	const char *names[256];
	const char *nearest;
	size_t count = 0, i;

	for (i = 0; i < native->entry_count && count < sizeof(names) / sizeof(names[0]); i++)
		names[count++] = native->entries[i].name;
	nearest = suggest_nearest(name, names, count);
	if (nearest != NULL)
		return gate_error_set(err, "unknown scenario '%s': did you mean '%s'?", name, nearest);
	return gate_error_set(err, "unknown scenario '%s'", name);
}

/* google-pprof --text, cut after the `top` busiest functions. */
static int print_top(const struct profile_options *options, const char *path, const char *output,
		     struct gate_error *err)
{
	char *pprof = runner_find_program("google-pprof", getenv("PATH"));
	char *argv[] = { pprof, "--text", (char *)path, (char *)output, NULL };
	char *text = NULL, *line, *next;
	unsigned printed = 0;

	if (pprof == NULL)
		return gate_error_set(err, "google-pprof not found on PATH (Debian: google-perftools)");
	if (runner_capture(argv, "/", native_runs_environment(), options->shared.timeout_seconds,
			   &text, err) != 0) {
		free(pprof);
		return -1;
	}
	for (line = text; line != NULL && *line != '\0'; line = next) {
		bool total = strncmp(line, "Total:", 6) == 0;

		next = strchr(line, '\n');
		if (next != NULL)
			*next++ = '\0';
		if (!total && printed == options->top)
			break;
		printf("%s\n", line);
		printed += !total;
	}
	free(text);
	free(pprof);
	return 0;
}

static int run(void *own, struct gate_error *err)
{
	const struct profile_options *options = own;
	struct manifest native = MANIFEST_INIT;
	const struct manifest_entry *entry = NULL;
	char *output = NULL;
	uint64_t count = options->messages;
	double rate;
	int code = GATE_EXIT_USAGE;

	if (native_runs_read_manifest(&native, options->shared.build_dir, err) != 0)
		goto out;
	entry = command_find_scenario(&native, options->scenario);
	if (entry == NULL) {
		unknown_scenario(&native, options->scenario, err);
		goto out;
	}
	if ((output = absolute_output(options->output, err)) == NULL)
		goto out;
	code = GATE_EXIT_MEASUREMENT;
	if (count == 0) {
		if (native_runs_calibrate(entry->path, options->seconds, NATIVE_RUNS_COUNT_MAX,
					  options->shared.timeout_seconds, &rate, err) != 0)
			goto out;
		count = (uint64_t)ceil(rate * options->seconds);
		count = count < 1 ? 1 : count > NATIVE_RUNS_COUNT_MAX ? NATIVE_RUNS_COUNT_MAX : count;
	}
	if (options->shared.verbosity > 0)
		fprintf(stderr, "gate: profile: %s draining %" PRIu64 " messages at %u samples a second\n",
			entry->name, count, options->frequency);
	if (record(options, entry->path, output, count, err) != 0 ||
	    print_top(options, entry->path, output, err) != 0)
		goto out;
	fflush(stdout);
	if (options->shared.verbosity > 0)
		fprintf(stderr, "gate: profile: wrote %s (google-pprof --text %s %s)\n", output,
			entry->path, output);
	code = 0;
out:
	free(output);
	manifest_release(&native);
	return code;
}

const struct command profile_command = {
	.spec = &profile_spec, .size = sizeof(struct profile_options),
	.defaults = &profile_defaults, .finish = finish, .run = run,
};
