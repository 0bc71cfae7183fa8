/* gate profile. The profiler starts when the drain enters the measured region and stops when it
 * leaves (scenarios/native.c), so the profile holds the drain and nothing of the fill; the drain
 * is sized to last --seconds, since a sampling profiler needs time to say anything. */
#define _GNU_SOURCE
#include "cmd_profile.h"

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <libgen.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exit_codes.h"
#include "manifest.h"
#include "native_runs.h"
#include "options.h"
#include "runner.h"
#include "session.h"
#include "verdict.h"

#define SECONDS_MAX 600.0
#define FREQUENCY_MAX 4000
#define TOP_MAX 1000
#define TIMEOUT_MAX 86400

struct profile_options {
	const char *scenario;
	const char *build_dir;
	char *output;          /* the profile file; owned */
	double seconds;        /* how long the drain should last, when messages is 0 */
	uint64_t messages;     /* drain exactly this many; 0: calibrate to seconds */
	unsigned frequency;    /* samples per second */
	unsigned top;          /* functions printed */
	double timeout_seconds;
	int verbosity;
	bool help;
};

static void usage(FILE *out)
{
	fputs("usage: gate profile SCENARIO [options]\n"
	      "A CPU profile of SCENARIO's drain with gperftools' profiler, on its native variant\n"
	      "(build/scenarios/native): written to a file, its top functions printed with\n"
	      "google-pprof --text. Informational.\n"
	      "\n"
	      "      --seconds S         size the drain to last about S seconds (default 2)\n"
	      "  -n, --messages N        drain exactly N messages instead\n"
	      "      --frequency HZ      samples per second asked for (default 1000; the kernel's\n"
	      "                          timer may give fewer)\n"
	      "      --top K             functions printed (default 20)\n"
	      "  -o, --output FILE       the profile (default DIR/gate/profile/SCENARIO.prof)\n"
	      "      --build-dir DIR     the build (default build)\n"
	      "      --timeout SECONDS   kill a run after this long (default 600)\n"
	      "  -q, --quiet             no progress on stderr\n"
	      "  -h, --help              this text\n"
	      "\n"
	      "Open the profile further with: google-pprof --web|--list=FUNCTION EXECUTABLE FILE\n"
	      "Exit codes: 0 profiled, 2 usage error or unknown scenario, 3 the run or google-pprof\n"
	      "failed.\n",
	      out);
}

static int apply(struct profile_options *options, int option, char *argument, struct gate_error *err)
{
	uint64_t value = 0;
	char *end = NULL;

	switch (option) {
	case 'S':
		errno = 0;
		if ((argument[0] >= '0' && argument[0] <= '9') || argument[0] == '.')
			options->seconds = strtod(argument, &end);
		if (end == NULL || errno != 0 || *end != '\0' || !(options->seconds >= 0.01) ||
		    options->seconds > SECONDS_MAX)
			return gate_error_set(err, "--seconds must be a number from 0.01 to %.0f, not '%s'",
					      SECONDS_MAX, argument);
		return 0;
	case 'n':
		if (options_parse_unsigned(argument, 1, NATIVE_RUNS_COUNT_MAX, "--messages", &value, err) != 0)
			return -1;
		options->messages = value;
		return 0;
	case 'f':
		if (options_parse_unsigned(argument, 1, FREQUENCY_MAX, "--frequency", &value, err) != 0)
			return -1;
		options->frequency = (unsigned)value;
		return 0;
	case 'k':
		if (options_parse_unsigned(argument, 1, TOP_MAX, "--top", &value, err) != 0)
			return -1;
		options->top = (unsigned)value;
		return 0;
	case 't':
		if (options_parse_unsigned(argument, 1, TIMEOUT_MAX, "--timeout", &value, err) != 0)
			return -1;
		options->timeout_seconds = (double)value;
		return 0;
	case 'o':
		free(options->output);
		return (options->output = strdup(argument)) ? 0 : gate_error_set(err, "out of memory");
	case 'b':
		options->build_dir = argument;
		return 0;
	case 'q':
		options->verbosity = 0;
		return 0;
	case 'h':
		options->help = true;
		return 0;
	default:
		return gate_error_set(err, "unknown option (see gate profile --help)");
	}
}

static int parse_options(struct profile_options *options, int argc, char **argv,
			 struct gate_error *err)
{
	static const struct option long_options[] = {
		{ "seconds", required_argument, NULL, 'S' },
		{ "messages", required_argument, NULL, 'n' },
		{ "frequency", required_argument, NULL, 'f' },
		{ "top", required_argument, NULL, 'k' },
		{ "output", required_argument, NULL, 'o' },
		{ "build-dir", required_argument, NULL, 'b' },
		{ "timeout", required_argument, NULL, 't' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int option;

	*options = (struct profile_options){ .build_dir = "build", .seconds = 2, .frequency = 1000,
					     .top = 20, .timeout_seconds = 600, .verbosity = 1 };
	opterr = 0;
	optind = 0;
	while ((option = getopt_long(argc, argv, ":n:o:qh", long_options, NULL)) != -1) {
		if (options_getopt_error(option, argv, "gate profile", err) != 0)
			return -1;
		if (apply(options, option, optarg, err) != 0)
			return -1;
	}
	if (options->help)
		return 0;
	if (optind >= argc)
		return gate_error_set(err, "gate profile needs a SCENARIO (see gate profile --help)");
	options->scenario = argv[optind++];
	if (optind < argc)
		return gate_error_set(err, "unexpected argument '%s' (see gate profile --help)", argv[optind]);
	if (options->output == NULL &&
	    asprintf(&options->output, "%s/gate/profile/%s.prof", options->build_dir,
		     options->scenario) < 0) {
		options->output = NULL;
		return gate_error_set(err, "out of memory");
	}
	return 0;
}

/* The profile's path made absolute (the run's working directory is the executable's), with its
 * directory created. */
static char *absolute_output(const char *output, struct gate_error *err)
{
	char *copy = strdup(output), *directory = NULL, *absolute = NULL, *base;

	if (copy == NULL) {
		gate_error_set(err, "out of memory");
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
		gate_error_set(err, "out of memory");
	}
	free(directory);
	free(copy);
	return absolute;
}

/* Runs `PATH --profile OUTPUT COUNT` with the sampling frequency in the environment. */
static int record(const struct profile_options *options, const char *path, const char *output,
		  uint64_t count, struct gate_error *err)
{
	char count_text[32], frequency[64], *directory = strdup(path), *printed = NULL;
	char *argv[] = { (char *)path, "--profile", (char *)output, count_text, NULL };
	char *const *base = native_runs_environment();
	char *environment[8];
	size_t i;
	int status;

	if (directory == NULL)
		return gate_error_set(err, "out of memory");
	for (i = 0; base[i] != NULL && i < 6; i++)
		environment[i] = base[i];
	snprintf(frequency, sizeof(frequency), "CPUPROFILE_FREQUENCY=%u", options->frequency);
	environment[i++] = frequency;
	environment[i] = NULL;
	snprintf(count_text, sizeof(count_text), "%" PRIu64, count);
	status = runner_capture(argv, dirname(directory), environment, options->timeout_seconds,
				&printed, err);
	free(printed);
	free(directory);
	return status;
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
	if (runner_capture(argv, "/", native_runs_environment(), options->timeout_seconds, &text,
			   err) != 0) {
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

static int run(const struct profile_options *options)
{
	struct manifest native = MANIFEST_INIT;
	struct gate_error err = GATE_ERROR_INIT;
	const struct manifest_entry *entry = NULL;
	char *output = NULL;
	uint64_t count = options->messages;
	double rate;
	int code = GATE_EXIT_USAGE;
	size_t i;

	if (native_runs_read_manifest(&native, options->build_dir, &err) != 0)
		goto out;
	for (i = 0; i < native.entry_count && entry == NULL; i++)
		if (strcmp(native.entries[i].name, options->scenario) == 0)
			entry = &native.entries[i];
	if (entry == NULL) {
		gate_error_set(&err, "unknown scenario '%s'", options->scenario);
		goto out;
	}
	if ((output = absolute_output(options->output, &err)) == NULL)
		goto out;
	code = GATE_EXIT_MEASUREMENT;
	if (count == 0) {
		if (native_runs_calibrate(entry->path, options->seconds, NATIVE_RUNS_COUNT_MAX,
					  options->timeout_seconds, &rate, &err) != 0)
			goto out;
		count = (uint64_t)ceil(rate * options->seconds);
		count = count < 1 ? 1 : count > NATIVE_RUNS_COUNT_MAX ? NATIVE_RUNS_COUNT_MAX : count;
	}
	if (options->verbosity > 0)
		fprintf(stderr, "gate: profile: %s draining %" PRIu64 " messages at %u samples a second\n",
			entry->name, count, options->frequency);
	if (record(options, entry->path, output, count, &err) != 0 ||
	    print_top(options, entry->path, output, &err) != 0)
		goto out;
	fflush(stdout);
	if (options->verbosity > 0)
		fprintf(stderr, "gate: profile: wrote %s (google-pprof --text %s %s)\n", output,
			entry->path, output);
	code = 0;
out:
	if (code != 0)
		session_fail(code, &err);
	free(output);
	manifest_release(&native);
	return code;
}

int cmd_profile(int argc, char **argv)
{
	struct profile_options options;
	struct gate_error err = GATE_ERROR_INIT;
	int code;

	if (parse_options(&options, argc, argv, &err) != 0)
		code = session_fail(GATE_EXIT_USAGE, &err);
	else if (options.help)
		code = (usage(stdout), 0);
	else
		code = run(&options);
	free(options.output);
	return code;
}
