/* gate's own options and those of `gate merge`, each written once (optlayer.h): its name, letter,
 * argument, help and handler. Every number is checked whole (strtoull with an end pointer and
 * errno) and against its range, so "10k" or "-1" is an error, never a default. */
#define _GNU_SOURCE
#include "options.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "baseline.h"
#include "optlayer.h"

/* Upper bounds that keep a run sane: 2N deliveries must fit the harness's COUNT limit. */
/* DHAT holds every block the queue has filled: at 2N = 200,000 deliveries consume_json_kilobyte
 * peaked at 669 MiB, which two runs at once on a 2-core runner can afford (a million took 1.8 GB). */


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


#define OWN(context) ((struct gate_options *)(context)->own)

static int apply_messages(const struct opt_context *c, const char *value, struct gate_error *err)
{
	OWN(c)->messages_given = true;
	return opt_parse_unsigned(value, 2, OPTIONS_MESSAGES_MAX, "--messages", &OWN(c)->messages, err);
}

static int apply_baseline(const struct opt_context *c, const char *value, struct gate_error *err)
{
	OWN(c)->baseline_ref = value;
	return baseline_check_branch_name(value, "--baseline", true, err);
}

static int apply_save_baseline(const struct opt_context *c, const char *value,
			       struct gate_error *err)
{
	OWN(c)->save_baseline = value;
	return baseline_check_branch_name(value, "--save-baseline", false, err);
}

static int apply_shard(const struct opt_context *c, const char *value, struct gate_error *err)
{
	return parse_shard(OWN(c), value, err);
}


static const struct opt opt_messages = {
	"messages", 'n', "N",
	"N deliveries (default: the baseline's N, else 1000; at most\n"
	"100000); per message = (count(2N) - count(N)) / N", OPT_CALLS(apply_messages) };
static const struct opt opt_vary_n = {
	"vary-n", 0, NULL,
	"measure each scenario at its own N, drawn from --messages + 1\n"
	"to 2 x --messages (at most 100000) with the head commit as\n"
	"the seed: a program cannot know N in advance", OPT_FLAG_FIELD(struct gate_options, vary_n) };
static const struct opt opt_scenario = {
	"scenario", 's', "NAME", "measure only NAME (a name or a glob); may repeat", OPT_LIST_FIELD(struct gate_options, scenarios, scenario_count) };
static const struct opt opt_verify = {
	"verify", 0, NULL,
	"measure every run twice; a count that differs is a\n"
	"measurement failure (exit 3)", OPT_FLAG_FIELD(struct gate_options, verify) };
static const struct opt opt_cross_check = {
	"cross-check", 0, NULL,
	"require the second opinion (on wherever the build has\n"
	"native scenarios): each scenario run natively, unlike a\n"
	"measured run; figures that differ are a measurement\n"
	"failure (exit 3), and so is a build without native scenarios",
	OPT_FLAG_FIELD(struct gate_options, cross_check) };
static const struct opt opt_full_debug_info = {
	"full-debug-info", 0, NULL,
	"let valgrind read the system's debug files whole (line\n"
	"numbers in system libraries; slower start-up, the same\n"
	"counts), not their symbol tables only", OPT_FLAG_FIELD(struct gate_options, full_debug_info) };
static const struct opt opt_all_metrics = {
	"all-metrics", 0, NULL,
	"measure estimated cycles for every scenario too (reported\n"
	"where not gated; a third run per count)", OPT_FLAG_FIELD(struct gate_options, all_metrics) };
static const struct opt opt_json = {
	"json", 0, "FILE", "write results here (default DIR/gate/results.json)", OPT_COPY_FIELD(struct gate_options, json_path) };
static const struct opt opt_raw_dir = {
	"raw-dir", 0, "DIR", "keep callgrind and DHAT files here (default DIR/gate/raw)",
	OPT_COPY_FIELD(struct gate_options, raw_dir) };
static const struct opt opt_baseline = {
	"baseline", 0, "NAME",
	"compare with baselines/NAME.json as committed on branch NAME\n"
	"(main, master, release/2.x): refs/remotes/origin/NAME, else\n"
	"the one other remote's, else refs/heads/NAME (never a tag),\n"
	"never the working tree's copy", OPT_CALLS(apply_baseline) };
static const struct opt opt_base_commit = {
	"base-commit", 0, "SHA",
	"read that baseline from this commit (a full hash) instead\n"
	"of the branch: what CI passes for a pull request", OPT_TEXT_FIELD(struct gate_options, base_commit) };
static const struct opt opt_baseline_file = {
	"baseline-file", 0, "F", "compare with the baseline in file F", OPT_TEXT_FIELD(struct gate_options, baseline_file) };
static const struct opt opt_baseline_optional = {
	"baseline-optional", 0, NULL, "when no baseline can be had, say so and check floors only",
	OPT_FLAG_FIELD(struct gate_options, baseline_optional) };
static const struct opt opt_save_baseline = {
	"save-baseline", 0, "NAME",
	"measure and write baselines/NAME.json, the baseline of\n"
	"branch NAME (commit it there)", OPT_CALLS(apply_save_baseline) };
static const struct opt opt_accepted = {
	"accepted", 0, "FILE", "accepted regressions (default baselines/accepted.json)",
	OPT_TEXT_FIELD(struct gate_options, accepted_path) };
static const struct opt opt_markdown = {
	"markdown", 0, "FILE",
	"write the report as Markdown (also appended to\n"
	"$GITHUB_STEP_SUMMARY when that is set)", OPT_TEXT_FIELD(struct gate_options, markdown_path) };
static const struct opt opt_explain = {
	"explain", 0, NULL, "say why for every scenario, not only those over a limit", OPT_FLAG_FIELD(struct gate_options, explain) };
static const struct opt opt_no_wall_check = {
	"no-wall-check", 0, NULL,
	"do not time the native drains of head and baseline beside an\n"
	"instruction regression (informational; never gated)", OPT_FLAG_FIELD(struct gate_options, no_wall_check) };
static const struct opt opt_exact = {
	"exact", 0, NULL,
	"fail (exit 1) unless the baseline holds exactly the counts\n"
	"measured here: is the committed baseline up to date?", OPT_FLAG_FIELD(struct gate_options, exact) };
static const struct opt opt_shard = {
	"shard", 0, "K/M",
	"measure only shard K of M (a stable split by name); combine\n"
	"the shards' results with: gate merge [options] FILE...", OPT_CALLS(apply_shard) };
static const struct opt opt_check_raw = {
	"check-raw", 0, "DIR",
	"read every count again from the raw files in DIR; one that\n"
	"differs from the results is a measurement failure (exit 3)", OPT_TEXT_FIELD(struct gate_options, check_raw) };

static const struct opt opt_check_build = {
	"check-build", 0, "DIR",
	"hash the scenario programs of the build in DIR (made from\n"
	"the same sources at the same path) and compare them with\n"
	"the programs the results measured: one that differs is a\n"
	"measurement failure (exit 3)", OPT_TEXT_FIELD(struct gate_options, check_build) };

/* How gate itself describes the shared options it takes. */
static const struct opt_note gate_notes[] = {
	{ &opt_timeout, "kill every run after this long (default: scaled: 60 s for\n"
			"the 1-delivery runs, up to 600 s for the N runs, 4 x what\n"
			"those predict for the 2N runs, within 60 and 600 s)" },
	{ &opt_build_dir, "the build to measure (default build)" },
	{ &opt_verbose, "print each valgrind command" },
	{ NULL, NULL },
};

static const struct opt *const gate_opts[] = {
	&opt_messages, &opt_vary_n, &opt_scenario, &opt_jobs, &opt_timeout, &opt_verify,
	&opt_cross_check, &opt_full_debug_info, &opt_all_metrics, &opt_build_dir, &opt_json,
	&opt_raw_dir, &opt_baseline, &opt_base_commit, &opt_baseline_file, &opt_baseline_optional,
	&opt_save_baseline, &opt_accepted, &opt_markdown, &opt_explain, &opt_no_wall_check,
	&opt_exact, &opt_shard, &opt_verbose, &opt_quiet, &opt_help, &opt_version, NULL,
};

/* gate merge: the reporting and baseline options; the measuring ones are refused by name. */
static const struct opt *const merge_opts[] = {
	&opt_build_dir, &opt_json, &opt_raw_dir, &opt_baseline, &opt_base_commit,
	&opt_baseline_file, &opt_baseline_optional, &opt_accepted, &opt_markdown, &opt_explain,
	&opt_exact, &opt_check_raw, &opt_check_build, &opt_verbose, &opt_quiet, &opt_help,
	&opt_version, NULL,
};

static const struct opt *const merge_refused[] = {
	&opt_messages, &opt_vary_n, &opt_scenario, &opt_jobs, &opt_timeout, &opt_save_baseline,
	&opt_shard, &opt_verify, &opt_cross_check, &opt_all_metrics, &opt_full_debug_info, NULL,
};

static const char gate_about[] =
	"Measures every scenario the build produced under callgrind (instructions) and DHAT\n"
	"(heap allocations and bytes) at 1, N and 2N deliveries, and gates the cost of one\n"
	"message; estimated cycles (a cache simulation) for the scenarios that set\n"
	".gate_cycles.\n";

static const char gate_exit_codes[] =
	"Exit codes:\n"
	"  0  every gated scenario is within its limits\n"
	"  1  a regression: an instruction limit or an allocation floor was exceeded\n"
	"  2  usage, configuration or input error (bad flag, malformed baseline or config)\n"
	"  3  measurement failure: a scenario crashed or exited non-zero, valgrind missing or\n"
	"     failed, output unparsable or implausible\n"
	"  4  no comparable baseline could be had\n";

const struct command_spec gate_spec = {
	"gate", "usage: gate [check] [options]", gate_about, gate_opts, gate_exit_codes, 0, NULL, NULL,
	gate_notes,
};

const struct command_spec merge_spec = {
	"gate merge",
	"usage: gate merge [options] FILE...",
	"Combines the results.json files of gate --shard K/M runs (every shard once) into the\n"
	"verdict, exit code and reports of a single run; one results.json of a whole run is\n"
	"decided again.\n",
	merge_opts,
	"Exit codes as for gate (gate --help).\n",
	OPT_ANY_OPERANDS,
	merge_refused,
	"measures; gate merge only combines results",
	gate_notes,
};

int options_finish(struct gate_options *options, struct gate_error *err)
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
		return gate_error_oom(err);
	if (options->baseline_ref != NULL && options->baseline_file != NULL)
		return gate_error_set(err, "--baseline and --baseline-file cannot be used together");
	if (options->base_commit != NULL && options->baseline_ref == NULL)
		return gate_error_set(err, "--base-commit needs --baseline NAME (the file baselines/NAME.json)");
	if (options->exact && options->baseline_ref == NULL && options->baseline_file == NULL)
		return gate_error_set(err, "--exact needs a baseline (--baseline REF or --baseline-file F)");
	return 0;
}


void options_start(struct gate_options *options, struct common_targets *common)
{
	*options = (struct gate_options){
		.messages = OPTIONS_MESSAGES_DEFAULT,
		.timeout_seconds = 600,
		.build_dir = "build",
		.verbosity = 1,
	};
	*common = (struct common_targets){ &options->build_dir, &options->timeout_seconds,
					   &options->timeout_given, &options->jobs,
					   &options->verbosity, &options->help, &options->version };
}

int options_parse(struct gate_options *options, int argc, char **argv, struct gate_error *err)
{
	struct common_targets common;
	struct opt_context context = { options, &common };

	options_start(options, &common);
	if (opt_parse(&gate_spec, &context, argc, argv, &options->inputs, &options->input_count,
		      err) != 0)
		return -1;
	return options_finish(options, err);
}

int options_finish_merge(struct gate_options *options, char *const *files, size_t count,
			 struct gate_error *err)
{
	size_t i;

	if (count == 0)
		return gate_error_set(err, "gate merge needs the shard result files to combine");
	for (i = 0; i < count; i++)
		if (opt_append(&options->inputs, &options->input_count, files[i], err) != 0)
			return -1;
	return options_finish(options, err);
}

void options_usage(FILE *out, const char *subcommands)
{
	struct command_spec spec = gate_spec;
	char *epilogue = NULL;

	if (subcommands != NULL &&
	    asprintf(&epilogue, "%s\n%s", subcommands, gate_exit_codes) >= 0)
		spec.epilogue = epilogue;
	opt_usage(out, &spec);
	free(epilogue);
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
