/* gate files: one run's files per scenario, each path with what it holds, the per-message
 * profile first (the file KCachegrind and callgrind_annotate open for one message's cost). */
#define _GNU_SOURCE
#include "cmd_files.h"

#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exit_codes.h"
#include "optlayer.h"
#include "rawfiles.h"
#include "results.h"

struct files_options {
	struct command_shared shared;
	const char *input;   /* the results document */
	char *raw_dir;       /* owned: --raw-dir, or the raw directory beside the results */
	char **scenarios;    /* --scenario NAME, as many as given */
	size_t scenario_count;
};

static const struct files_options files_defaults = { .input = "build/gate/results.json" };

static int finish(void *own, char **operands, size_t operand_count, struct gate_error *err)
{
	struct files_options *options = own;
	char *copy;

	if (operand_count == 1)
		options->input = operands[0];
	if (options->raw_dir != NULL)
		return 0;
	/* gate's own default: build/gate/results.json beside build/gate/raw. */
	copy = strdup(options->input);
	if (copy == NULL || asprintf(&options->raw_dir, "%s/raw", dirname(copy)) < 0) {
		options->raw_dir = NULL;
		free(copy);
		return gate_error_oom(err);
	}
	free(copy);
	return 0;
}

static const struct opt opt_files_raw_dir = {
	"raw-dir", 0, "DIR", "the raw directory of the run (default: raw beside RESULTS)",
	OPT_COPY_FIELD(struct files_options, raw_dir) };
static const struct opt opt_files_scenario = {
	"scenario", 's', "NAME", "only NAME's files; may repeat",
	OPT_LIST_FIELD(struct files_options, scenarios, scenario_count) };

static const struct opt *const files_opts[] = { &opt_files_raw_dir, &opt_files_scenario,
						&opt_help, NULL };

static const struct command_spec files_spec = {
	"gate files",
	"usage: gate files [options] [RESULTS]",
	"Prints where each scenario's files of the run that wrote RESULTS (default\n"
	"build/gate/results.json) are, one a line under the scenario's name: the path, then\n"
	"what it holds. The first is the per-message profile, callgrind's part from N to 2N\n"
	"deliveries, which callgrind_annotate, KCachegrind and QCachegrind open: its total\n"
	"divided by N is the instructions and the allocator's instructions per message gate\n"
	"prints. Then the other parts, DHAT's files (DHAT's viewer opens them), the logs and,\n"
	"for a regressed scenario, its flame graph.\n",
	files_opts,
	"Exit codes: 0 listed, 2 usage error, unreadable or malformed results, an unreadable\n"
	"raw directory, or a scenario the results do not hold.\n",
	1,
	NULL,
	NULL,
	NULL,
};

static bool wanted(const struct files_options *options, const char *name)
{
	size_t i;

	for (i = 0; i < options->scenario_count; i++)
		if (strcmp(options->scenarios[i], name) == 0)
			return true;
	return options->scenario_count == 0;
}

/* One scenario's block: its name, then its files, paths padded to one column. */
static int print_scenario(const struct files_options *options,
			  const struct measurement *measurement, struct gate_error *err)
{
	struct rawfiles files;
	size_t i, widest = 0;

	if (rawfiles_list(&files, options->raw_dir, measurement, err) != 0)
		return -1;
	printf("%s\n", measurement->info.name);
	for (i = 0; i < files.count; i++)
		if (strlen(files.files[i].name) > widest)
			widest = strlen(files.files[i].name);
	for (i = 0; i < files.count; i++)
		printf("  %s/%-*s  %s\n", options->raw_dir, (int)widest, files.files[i].name,
		       files.files[i].what);
	if (files.count == 0)
		printf("  no files in %s (another run's results? --raw-dir names its directory)\n",
		       options->raw_dir);
	rawfiles_release(&files);
	return 0;
}

static int run(void *own, struct gate_error *err)
{
	const struct files_options *options = own;
	struct results results = RESULTS_INIT;
	int code = GATE_EXIT_USAGE;
	size_t i, j;

	if (results_read_file(&results, options->input, err) != 0)
		goto out;
	for (i = 0; i < options->scenario_count; i++) {
		for (j = 0; j < results.count; j++)
			if (strcmp(results.measurements[j].info.name, options->scenarios[i]) == 0)
				break;
		if (j == results.count) {
			gate_error_set(err, "'%s' holds no scenario '%s'", options->input,
				       options->scenarios[i]);
			goto out;
		}
	}
	for (i = 0; i < results.count; i++)
		if (wanted(options, results.measurements[i].info.name) &&
		    print_scenario(options, &results.measurements[i], err) != 0)
			goto out;
	code = 0;
out:
	results_release(&results);
	return code;
}

const struct command files_command = {
	.spec = &files_spec, .size = sizeof(struct files_options), .defaults = &files_defaults,
	.finish = finish, .run = run,
};
