/* gate history. Reads every version of the branch's baseline from git (history.c) and prints,
 * per scenario and metric, the commits that changed a figure and the drift they add up to; with
 * --json the same as a document `gate report --history` draws, with --svg the charts as files. */
#define _GNU_SOURCE
#include "cmd_history.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "baseline.h"
#include "chart.h"
#include "command.h"
#include "exit_codes.h"
#include "history.h"
#include "optlayer.h"
#include "results.h"
#include "session.h"
#include "verdict.h"

struct history_options {
	struct command_shared shared;
	const char *ref;
	const char *since;
	char **scenarios;   /* globs (point into argv); owned array */
	size_t scenario_count;
	const char *json_path;
	const char *svg_dir;
};

static const struct history_options history_defaults = { .ref = NULL };

#define OWN(context) ((struct history_options *)(context)->own)

static int apply_since(const struct opt_context *c, const char *value, struct gate_error *err)
{
	OWN(c)->since = value;
	return history_valid_date(value) ? 0
					 : gate_error_set(err, "--since '%s' is not a date (YYYY-MM-DD)",
							  value);
}

static const struct opt opt_history_baseline = {
	"baseline", 0, "BRANCH",
	"the branch (default: the repository's default branch,\n"
	"origin's HEAD, else main or master): refs/remotes/origin/BRANCH\n"
	"when that exists, else refs/heads/BRANCH; never a tag", OPT_TEXT_FIELD(struct history_options, ref) };
static const struct opt opt_ref = {
	"ref", 0, "BRANCH", "the older name of --baseline", OPT_TEXT_FIELD(struct history_options, ref) };
static const struct opt opt_history_scenario = {
	"scenario", 's', "GLOB", "only scenarios matching GLOB; may repeat", OPT_LIST_FIELD(struct history_options, scenarios, scenario_count) };
static const struct opt opt_since = {
	"since", 0, "DATE", "only commits on or after DATE (YYYY-MM-DD)", OPT_CALLS(apply_since) };
static const struct opt opt_history_json = {
	"json", 0, "FILE", "also write the history as JSON (for gate report --history)", OPT_TEXT_FIELD(struct history_options, json_path) };
static const struct opt opt_svg = {
	"svg", 0, "DIR", "also write each per-message chart as DIR/SCENARIO.METRIC.svg", OPT_TEXT_FIELD(struct history_options, svg_dir) };

static const struct opt *const history_opts[] = {
	&opt_history_baseline, &opt_ref, &opt_history_scenario, &opt_since, &opt_history_json, &opt_svg, &opt_help, NULL,
};

static const struct command_spec history_spec = {
	"gate history",
	"usage: gate history [options]",
	"Prints the history of the branch's committed baseline (baselines/BRANCH.json on the\n"
	"first-parent line of BRANCH, read from git): per scenario and metric, every commit that\n"
	"changed a figure, the change in percent, and the drift from the oldest figure shown\n"
	"to the newest. Versions measured with another toolchain and accepted regressions are\n"
	"marked; a version that does not read is reported and skipped.\n",
	history_opts,
	"Exit codes: 0 printed, 2 usage error or no scenario matches, 4 no history (no such\n"
	"branch, no commit changed the baseline, or no version of it reads).\n",
	0,
	NULL,
	NULL,
	NULL,
};

/* Untrusted text (subjects, reasons) on a terminal: no control characters. */
static void print_clean(FILE *out, const char *text)
{
	for (; *text != '\0'; text++)
		fputc((unsigned char)*text < 0x20 || *text == 0x7f ? '?' : *text, out);
}

/* "  [LABEL: TEXT]" after a line, when there is a TEXT. */
static void print_note(FILE *out, const char *label, const char *text)
{
	if (text == NULL)
		return;
	fprintf(out, "  [%s: ", label);
	print_clean(out, text);
	fputc(']', out);
}

/* One figure of a series: its commit, the figure, the change from the one before, the subject
 * and what else changed there. */
static void print_point(FILE *out, const struct history *history,
			const struct history_point *point, bool first)
{
	const struct history_version *version = &history->versions[point->version];
	char value[64], change[64] = "";

	chart_format_value(value, sizeof(value), point->value);
	if (point->has_change)
		chart_format_percent(change, sizeof(change), point->change_percent);
	fprintf(out, "  %s  %-9s %14s %10s  ", version->commit.date, version->commit.short_hash,
		value, change);
	print_clean(out, version->commit.subject);
	if (!first)
		print_note(out, "toolchain", version->fingerprint_change);
	print_note(out, "accepted", point->accepted);
	fputc('\n', out);
}

static void print_series(FILE *out, const struct history *history,
			 const struct history_series *series)
{
	const struct history_point *first = &series->points[0];
	const struct history_point *last = &series->points[series->point_count - 1];
	char value[64], change[64];
	size_t i;

	fprintf(out, "\n%s: %s\n", series->scenario, series->label);
	for (i = 0; i < series->point_count; i++)
		print_point(out, history, &series->points[i], i == 0);
	chart_format_percent(change, sizeof(change), series->drift_percent);
	chart_format_value(value, sizeof(value), first->value);
	fprintf(out, "  drift %s: %s (%s) -> ", change, value,
		history->versions[first->version].commit.short_hash);
	chart_format_value(value, sizeof(value), last->value);
	fprintf(out, "%s (%s), %zu change%s\n", value, history->versions[last->version].commit.short_hash,
		series->point_count - 1, series->point_count == 2 ? "" : "s");
}

static void print_history(FILE *out, const struct history *history)
{
	size_t i, changes = 0;

	for (i = 1; i < history->version_count; i++)
		changes += history->versions[i].fingerprint_change != NULL;
	fprintf(out, "%s on %s (%.12s): %zu version%s from %s to %s", history->path, history->ref,
		history->tip, history->version_count, history->version_count == 1 ? "" : "s",
		history->versions[0].commit.date,
		history->versions[history->version_count - 1].commit.date);
	if (changes > 0)
		fprintf(out, ", %zu toolchain change%s", changes, changes == 1 ? "" : "s");
	if (history->skipped_count > 0)
		fprintf(out, ", %zu skipped", history->skipped_count);
	fputc('\n', out);
	for (i = 0; i < history->series_count; i++)
		print_series(out, history, &history->series[i]);
}

static void warn_skipped(const struct history *history)
{
	size_t i;

	for (i = 0; i < history->skipped_count; i++) {
		const struct history_skip *skip = &history->skipped[i];

		fprintf(stderr, "gate: warning: skipped %s at %s (%s, \"", history->path,
			skip->commit.short_hash, skip->commit.date);
		print_clean(stderr, skip->commit.subject);
		fputs("\"): ", stderr);
		print_clean(stderr, skip->problem);
		fputc('\n', stderr);
	}
}

/* A file name from a scenario name: anything but letters, digits, '-', '_' and '.' becomes '_'. */
static void file_safe(char *name)
{
	for (; *name != '\0'; name++)
		if (!((*name >= 'a' && *name <= 'z') || (*name >= 'A' && *name <= 'Z') ||
		      (*name >= '0' && *name <= '9') || *name == '-' || *name == '_' || *name == '.'))
			*name = '_';
}

/* One chart as a file of its own: DIRECTORY/SCENARIO.METRIC.svg. */
static int write_chart(const struct history *history, const struct history_series *series,
		       const char *directory, struct gate_error *err)
{
	struct command_output chart;
	char *path = NULL, *name = strdup(series->scenario);
	int status = -1;

	if (name != NULL) {
		file_safe(name);
		if (asprintf(&path, "%s/%s.%s.svg", directory, name, series->key) < 0)
			path = NULL;
	}
	if (path == NULL)
		gate_error_oom(err);
	else if (command_output_open(&chart, err) == 0) {
		chart_history(chart.stream, history, series, true);
		status = command_output_close(&chart, path, 0, err);
	}
	free(path);
	free(name);
	return status;
}

static int write_charts(const struct history *history, const char *directory, struct gate_error *err)
{
	size_t i;

	if (session_make_directories(directory, err) != 0)
		return -1;
	for (i = 0; i < history->series_count; i++)
		if (!history->series[i].figure.cold &&
		    write_chart(history, &history->series[i], directory, err) != 0)
			return -1;
	return 0;
}

static int write_outputs(const struct history *history, const struct history_options *options,
			 struct gate_error *err)
{
	cJSON *document;
	int status;

	if (options->svg_dir != NULL && write_charts(history, options->svg_dir, err) != 0)
		return -1;
	if (options->json_path == NULL)
		return 0;
	document = history_to_json(history);
	if (document == NULL)
		return gate_error_oom(err);
	status = results_write_file(document, options->json_path, err);
	cJSON_Delete(document);
	return status;
}

static int run(void *own, struct gate_error *err)
{
	const struct history_options *options = own;
	struct history history = HISTORY_INIT;
	char *root = baseline_repository_root(), *branch = NULL;
	int code = GATE_EXIT_USAGE;
	enum history_status status;

	if (root == NULL) {
		gate_error_set(err, "no history: the current directory is not in a git repository");
		return GATE_EXIT_NO_BASELINE;
	}
	if (options->ref == NULL) {
		branch = baseline_default_branch(root);
		if (branch == NULL) {
			gate_error_set(err, "no history: this repository has no default branch to read "
				       "(no refs/remotes/origin/HEAD, main or master): name one with "
				       "--baseline BRANCH");
			free(root);
			return GATE_EXIT_NO_BASELINE;
		}
	}
	status = history_walk(&history, &(struct history_request){
				      .root = root, .ref = options->ref != NULL ? options->ref : branch,
				      .since = options->since,
				      .patterns = options->scenarios,
				      .pattern_count = options->scenario_count }, err);
	warn_skipped(&history);
	if (status != HISTORY_FOUND) {
		code = status == HISTORY_NONE ? GATE_EXIT_NO_BASELINE : GATE_EXIT_USAGE;
		goto out;
	}
	print_history(stdout, &history);
	if (fflush(stdout) != 0)
		gate_error_set(err, "cannot write the history to stdout");
	else if (write_outputs(&history, options, err) == 0)
		code = 0;
out:
	history_release(&history);
	free(root);
	free(branch);
	return code;
}

const struct command history_command = {
	.spec = &history_spec, .size = sizeof(struct history_options),
	.defaults = &history_defaults, .run = run,
};
