/* Parsing gate's command line with getopt_long. Every number is checked whole (strtoull with an
 * end pointer and errno) and against its range, so "10k" or "-1" is an error, never a default. */
#define _GNU_SOURCE
#include "options.h"

#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Upper bounds that keep a run sane: 2N deliveries must fit the harness's COUNT limit. */
/* DHAT holds every block the queue has filled: at 2N = 200,000 deliveries consume_json_kilobyte
 * peaked at 669 MiB, which two runs at once on a 2-core runner can afford (a million took 1.8 GB). */
#define MESSAGES_MAX 100000ULL
#define JOBS_MAX 256
#define TIMEOUT_MAX 86400

enum long_only {
	OPT_JSON = 256,
	OPT_RAW_DIR,
	OPT_BUILD_DIR,
	OPT_TIMEOUT,
	OPT_BASELINE,
	OPT_BASELINE_FILE,
	OPT_BASE_COMMIT,
	OPT_BASELINE_OPTIONAL,
	OPT_SAVE_BASELINE,
	OPT_ACCEPTED,
	OPT_MARKDOWN,
	OPT_EXPLAIN,
	OPT_SHARD,
	OPT_EXACT,
	OPT_VERIFY,
	OPT_CROSS_CHECK,
	OPT_CHECK_RAW,
	OPT_FULL_DEBUG_INFO,
	OPT_ALL_METRICS,
};

static const struct option long_options[] = {
	{ "messages", required_argument, NULL, 'n' },
	{ "scenario", required_argument, NULL, 's' },
	{ "jobs", required_argument, NULL, 'j' },
	{ "json", required_argument, NULL, OPT_JSON },
	{ "raw-dir", required_argument, NULL, OPT_RAW_DIR },
	{ "build-dir", required_argument, NULL, OPT_BUILD_DIR },
	{ "timeout", required_argument, NULL, OPT_TIMEOUT },
	{ "baseline", required_argument, NULL, OPT_BASELINE },
	{ "baseline-file", required_argument, NULL, OPT_BASELINE_FILE },
	{ "base-commit", required_argument, NULL, OPT_BASE_COMMIT },
	{ "baseline-optional", no_argument, NULL, OPT_BASELINE_OPTIONAL },
	{ "save-baseline", required_argument, NULL, OPT_SAVE_BASELINE },
	{ "accepted", required_argument, NULL, OPT_ACCEPTED },
	{ "markdown", required_argument, NULL, OPT_MARKDOWN },
	{ "explain", no_argument, NULL, OPT_EXPLAIN },
	{ "shard", required_argument, NULL, OPT_SHARD },
	{ "exact", no_argument, NULL, OPT_EXACT },
	{ "verify", no_argument, NULL, OPT_VERIFY },
	{ "cross-check", no_argument, NULL, OPT_CROSS_CHECK },
	{ "check-raw", required_argument, NULL, OPT_CHECK_RAW },
	{ "full-debug-info", no_argument, NULL, OPT_FULL_DEBUG_INFO },
	{ "all-metrics", no_argument, NULL, OPT_ALL_METRICS },
	{ "verbose", no_argument, NULL, 'v' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 },
};

void options_usage(FILE *out)
{
	fputs("usage: gate [options]\n"
	      "Measures every scenario the build produced under callgrind (instructions) and DHAT\n"
	      "(heap allocations, bytes, peak live heap) at 1, N and 2N deliveries, and gates the\n"
	      "cost of one message; estimated cycles (a cache simulation) for the scenarios that\n"
	      "set .gate_cycles.\n"
	      "\n"
	      "  -n, --messages N        N deliveries (default 1000, at most 100000); per message =\n"
	      "                          (count(2N) - count(N)) / N\n"
	      "  -s, --scenario NAME     measure only NAME (a name or a glob); may repeat\n"
	      "  -j, --jobs JOBS         valgrind runs at once (default: the number of CPUs)\n"
	      "      --timeout SECONDS   kill every run after this long (default: scaled: 60 s for\n"
	      "                          the 1-delivery runs, up to 600 s for the N runs, 4 x what\n"
	      "                          those predict for the 2N runs, within 60 and 600 s)\n"
	      "      --verify            measure every run twice; a count that differs is a\n"
	      "                          measurement failure (exit 3)\n"
	      "      --cross-check       count allocations again without valgrind (tcmalloc's hooks\n"
	      "                          in the native scenarios); a figure that differs from\n"
	      "                          DHAT's is a measurement failure (exit 3)\n"
	      "      --full-debug-info   let valgrind read the system's debug files whole (line\n"
	      "                          numbers in system libraries; slower start-up, the same\n"
	      "                          counts), not their symbol tables only\n"
	      "      --all-metrics       measure estimated cycles for every scenario too (reported\n"
	      "                          where not gated; a third run per count)\n"
	      "      --build-dir DIR     the build to measure (default build)\n"
	      "      --json FILE         write results here (default DIR/gate/results.json)\n"
	      "      --raw-dir DIR       keep callgrind and DHAT files here (default DIR/gate/raw)\n"
	      "      --baseline NAME     compare with baselines/NAME.json as committed on branch NAME:\n"
	      "                          refs/remotes/origin/NAME, else refs/heads/NAME (never a tag),\n"
	      "                          never the working tree's copy\n"
	      "      --base-commit SHA   read that baseline from this commit (a full hash) instead\n"
	      "                          of the branch: what CI passes for a pull request\n"
	      "      --baseline-file F   compare with the baseline in file F\n"
	      "      --baseline-optional when no baseline can be had, say so and check floors only\n"
	      "      --save-baseline NAME  measure and write baselines/NAME.json\n"
	      "      --accepted FILE     accepted regressions (default baselines/accepted.json)\n"
	      "      --markdown FILE     write the report as Markdown (also appended to\n"
	      "                          $GITHUB_STEP_SUMMARY when that is set)\n"
	      "      --explain           say why for every scenario, not only those over a limit\n"
	      "      --exact             fail (exit 1) unless the baseline holds exactly the counts\n"
	      "                          measured here: is the committed baseline up to date?\n"
	      "      --shard K/M         measure only shard K of M (a stable split by name); combine\n"
	      "                          the shards' results with: gate merge [options] FILE...\n"
	      "  -v, --verbose           print each valgrind command\n"
	      "  -q, --quiet             no progress on stderr\n"
	      "  -h, --help              this text\n"
	      "  -V, --version           gate's version\n"
	      "\n"
	      "Also: gate time (wall clock against the raw loops), gate profile SCENARIO (a CPU\n"
	      "profile), gate report [FILE] (the results page), gate merge FILE... (shards, or one\n"
	      "run decided again; with --check-raw DIR its counts are read again from the raw\n"
	      "files), gate history (every figure over the branch's commits), gate export --format\n"
	      "bmf|junit|csv; each has --help.\n"
	      "\n"
	      "Exit codes:\n"
	      "  0  every gated scenario is within its limits\n"
	      "  1  a regression: an instruction limit or an allocation floor was exceeded\n"
	      "  2  usage, configuration or input error (bad flag, malformed baseline or config)\n"
	      "  3  measurement failure: a scenario crashed or exited non-zero, valgrind missing or\n"
	      "     failed, output unparsable or implausible\n"
	      "  4  no comparable baseline could be had\n",
	      out);
}

int options_parse_unsigned(const char *text, uint64_t low, uint64_t high, const char *option,
			   uint64_t *value, struct gate_error *err)
{
	char *end = NULL;
	unsigned long long parsed;

	errno = 0;
	if (text[0] < '0' || text[0] > '9' ||
	    ((parsed = strtoull(text, &end, 10)), errno != 0) || *end != '\0' || parsed < low ||
	    parsed > high)
		return gate_error_set(err, "%s must be an integer from %llu to %llu, not '%s'", option,
				      (unsigned long long)low, (unsigned long long)high, text);
	*value = parsed;
	return 0;
}

/* NAME for baselines/NAME.json: no path separators, no leading dot. */
static int check_baseline_name(const char *name, const char *option, struct gate_error *err)
{
	if (name[0] == '\0' || name[0] == '.' || strchr(name, '/') != NULL)
		return gate_error_set(err, "%s needs a plain name (it becomes baselines/NAME.json), "
				      "not '%s'", option, name);
	return 0;
}

/* K/M with 1 <= K <= M <= 64. */
static int parse_shard(struct gate_options *options, const char *text, struct gate_error *err)
{
	unsigned index = 0, count = 0;
	int used = 0;

	if (strspn(text, "0123456789/") != strlen(text) ||
	    sscanf(text, "%3u/%3u%n", &index, &count, &used) != 2 || text[used] != '\0' ||
	    text[0] < '0' || text[0] > '9' || index < 1 || count < 1 || index > count || count > 64)
		return gate_error_set(err, "--shard must be K/M with 1 <= K <= M <= 64, not '%s'", text);
	options->shard_index = index;
	options->shard_count = count;
	return 0;
}

int options_add_pattern(char ***patterns, size_t *count, char *pattern, struct gate_error *err)
{
	char **grown = realloc(*patterns, (*count + 1) * sizeof(*grown));

	if (grown == NULL)
		return gate_error_set(err, "out of memory");
	*patterns = grown;
	grown[(*count)++] = pattern;
	return 0;
}

static int apply(struct gate_options *options, int option, char *argument, struct gate_error *err)
{
	uint64_t value;

	switch (option) {
	case 'n':
		return options_parse_unsigned(argument, 2, MESSAGES_MAX, "--messages", &options->messages, err);
	case 's':
		return options_add_pattern(&options->scenarios, &options->scenario_count, argument, err);
	case 'j':
		if (options_parse_unsigned(argument, 1, JOBS_MAX, "--jobs", &value, err) != 0)
			return -1;
		options->jobs = (unsigned)value;
		return 0;
	case OPT_TIMEOUT:
		if (options_parse_unsigned(argument, 1, TIMEOUT_MAX, "--timeout", &value, err) != 0)
			return -1;
		options->timeout_seconds = (double)value;
		options->timeout_given = true;
		return 0;
	case OPT_JSON:
		free(options->json_path);
		return (options->json_path = strdup(argument)) ? 0 : gate_error_set(err, "out of memory");
	case OPT_RAW_DIR:
		free(options->raw_dir);
		return (options->raw_dir = strdup(argument)) ? 0 : gate_error_set(err, "out of memory");
	case OPT_BUILD_DIR:
		options->build_dir = argument;
		return 0;
	case OPT_BASELINE:
		options->baseline_ref = argument;
		return argument[0] ? 0 : gate_error_set(err, "--baseline needs a branch name");
	case OPT_BASELINE_FILE:
		options->baseline_file = argument;
		return 0;
	case OPT_BASE_COMMIT:
		options->base_commit = argument;
		return 0;
	case OPT_BASELINE_OPTIONAL:
		options->baseline_optional = true;
		return 0;
	case OPT_SAVE_BASELINE:
		options->save_baseline = argument;
		return check_baseline_name(argument, "--save-baseline", err);
	case OPT_ACCEPTED:
		options->accepted_path = argument;
		return 0;
	case OPT_MARKDOWN:
		options->markdown_path = argument;
		return 0;
	case OPT_EXPLAIN:
		options->explain = true;
		return 0;
	case OPT_SHARD:
		return parse_shard(options, argument, err);
	case OPT_EXACT:
		options->exact = true;
		return 0;
	case OPT_VERIFY:
		options->verify = true;
		return 0;
	case OPT_CROSS_CHECK:
		options->cross_check = true;
		return 0;
	case OPT_FULL_DEBUG_INFO:
		options->full_debug_info = true;
		return 0;
	case OPT_ALL_METRICS:
		options->all_metrics = true;
		return 0;
	case OPT_CHECK_RAW:
		options->check_raw = argument;
		return 0;
	case 'v':
		options->verbosity = 2;
		return 0;
	case 'q':
		options->verbosity = 0;
		return 0;
	case 'h':
		options->help = true;
		return 0;
	case 'V':
		options->version = true;
		return 0;
	default:
		return gate_error_set(err, "unknown option (see gate --help)");
	}
}

static int fill_defaults(struct gate_options *options, struct gate_error *err)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);

	if (options->jobs == 0)
		options->jobs = cpus > 0 ? (unsigned)cpus : 1;
	options->json_default = options->json_path == NULL;
	if (options->json_path == NULL &&
	    asprintf(&options->json_path, "%s/gate/results.json", options->build_dir) < 0)
		options->json_path = NULL;
	if (options->raw_dir == NULL &&
	    asprintf(&options->raw_dir, "%s/gate/raw", options->build_dir) < 0)
		options->raw_dir = NULL;
	if (options->json_path == NULL || options->raw_dir == NULL)
		return gate_error_set(err, "out of memory");
	if (options->baseline_ref != NULL && options->baseline_file != NULL)
		return gate_error_set(err, "--baseline and --baseline-file cannot be used together");
	if (options->base_commit != NULL && options->baseline_ref == NULL)
		return gate_error_set(err, "--base-commit needs --baseline NAME (the file baselines/NAME.json)");
	if (options->exact && options->baseline_ref == NULL && options->baseline_file == NULL)
		return gate_error_set(err, "--exact needs a baseline (--baseline REF or --baseline-file F)");
	return 0;
}

static int add_input(struct gate_options *options, char *path, struct gate_error *err)
{
	char **grown = realloc(options->inputs, (options->input_count + 1) * sizeof(*grown));

	if (grown == NULL)
		return gate_error_set(err, "out of memory");
	options->inputs = grown;
	grown[options->input_count++] = path;
	return 0;
}

/* "--messages" for 'n' or OPT_*: how errors name an option whatever way it was spelt. */
static const char *option_name(int option)
{
	static char text[40];
	size_t i;

	for (i = 0; long_options[i].name != NULL; i++) {
		if (long_options[i].val == option) {
			snprintf(text, sizeof(text), "--%s", long_options[i].name);
			return text;
		}
	}
	snprintf(text, sizeof(text), "-%c", option);
	return text;
}

/* The option as it was typed, for the one getopt_long just returned: "--messages" for
 * "--messages=5" or "--messages 5", "-n" for "-n 5" or "-n5". */
static const char *typed_option(int option, char **argv)
{
	static char text[64];
	const char *word = argv[optind - 1];

	if (optarg != NULL && optarg == argv[optind - 1] && optind >= 2)
		word = argv[optind - 2];
	if (strncmp(word, "--", 2) == 0) {
		snprintf(text, sizeof(text), "%.*s", (int)strcspn(word, "="), word);
		return text;
	}
	if (option < 256) {
		snprintf(text, sizeof(text), "-%c", option);
		return text;
	}
	return option_name(option);
}

int options_getopt_error(int option, char **argv, const char *command, struct gate_error *err)
{
	if (option == '?' && optopt != 0)
		return gate_error_set(err, "unknown option '-%c' (see %s --help)", optopt, command);
	if (option == '?')
		return gate_error_set(err, "unknown option '%s' (see %s --help)", argv[optind - 1],
				      command);
	if (option == ':')
		return gate_error_set(err, "option '%s' needs a value", typed_option(optopt, argv));
	return 0;
}

/* Options that only make sense while measuring, refused by `gate merge`. */
static bool measures(int option)
{
	return option == 'n' || option == 's' || option == 'j' || option == OPT_TIMEOUT ||
	       option == OPT_SAVE_BASELINE || option == OPT_SHARD || option == OPT_VERIFY ||
	       option == OPT_CROSS_CHECK;
}

static int parse(struct gate_options *options, int argc, char **argv, bool merge,
		 struct gate_error *err)
{
	int option;

	*options = (struct gate_options){
		.messages = 1000,
		.timeout_seconds = 600,
		.build_dir = "build",
		.verbosity = 1,
	};
	opterr = 0;
	optind = 0; /* 0, not 1: glibc then also forgets a half-read group of short options */
	while ((option = getopt_long(argc, argv, ":n:s:j:vqhV", long_options, NULL)) != -1) {
		if (options_getopt_error(option, argv, "gate", err) != 0)
			return -1;
		if (merge && measures(option))
			return gate_error_set(err, "'%s' measures; gate merge only combines results",
					      typed_option(option, argv));
		if (!merge && option == OPT_CHECK_RAW)
			return gate_error_set(err, "--check-raw is an option of gate merge");
		if (apply(options, option, optarg, err) != 0)
			return -1;
	}
	for (; merge && optind < argc; optind++)
		if (add_input(options, argv[optind], err) != 0)
			return -1;
	if (optind < argc)
		return gate_error_set(err, "unexpected argument '%s' (see gate --help)", argv[optind]);
	if (merge && options->input_count == 0 && !options->help)
		return gate_error_set(err, "gate merge needs the shard result files to combine");
	return fill_defaults(options, err);
}

int options_parse(struct gate_options *options, int argc, char **argv, struct gate_error *err)
{
	return parse(options, argc, argv, false, err);
}

int options_parse_merge(struct gate_options *options, int argc, char **argv, struct gate_error *err)
{
	return parse(options, argc, argv, true, err);
}

void options_release(struct gate_options *options)
{
	free(options->inputs);
	options->inputs = NULL;
	free(options->scenarios);
	free(options->json_path);
	free(options->raw_dir);
	options->scenarios = NULL;
	options->json_path = NULL;
	options->raw_dir = NULL;
}
