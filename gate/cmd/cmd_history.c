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
#include "exit_codes.h"
#include "fs.h"
#include "history.h"
#include "optlayer.h"
#include "results.h"
#include "session.h"
#include "verdict.h"

struct history_options {
	const char *ref;
	const char *since;
	char **scenarios;   /* globs (point into argv); owned array */
	size_t scenario_count;
	const char *json_path;
	const char *svg_dir;
	bool help;
};

#define OWN(context) ((struct history_options *)(context)->own)

static int apply_since(const struct opt_context *c, const char *value, struct gate_error *err)
{
	OWN(c)->since = value;
	return history_valid_date(value) ? 0
					 : gate_error_set(err, "--since '%s' is not a date (YYYY-MM-DD)",
							  value);
}

static const struct opt opt_ref = {
	"ref", 0, "BRANCH",
	"the branch (default main): refs/remotes/origin/BRANCH when\n"
	"that exists, else refs/heads/BRANCH; never a tag", OPT_TEXT_FIELD(struct history_options, ref) };
static const struct opt opt_history_scenario = {
	"scenario", 's', "GLOB", "only scenarios matching GLOB; may repeat", OPT_LIST_FIELD(struct history_options, scenarios, scenario_count) };
static const struct opt opt_since = {
	"since", 0, "DATE", "only commits on or after DATE (YYYY-MM-DD)", OPT_CALLS(apply_since) };
static const struct opt opt_history_json = {
	"json", 0, "FILE", "also write the history as JSON (for gate report --history)", OPT_TEXT_FIELD(struct history_options, json_path) };
static const struct opt opt_svg = {
	"svg", 0, "DIR", "also write each per-message chart as DIR/SCENARIO.METRIC.svg", OPT_TEXT_FIELD(struct history_options, svg_dir) };

static const struct opt *const history_opts[] = {
	&opt_ref, &opt_history_scenario, &opt_since, &opt_history_json, &opt_svg, &opt_help, NULL,
};

const struct command_spec history_spec = {
	"gate history",
	"usage: gate history [options]",
	"Prints the history of the branch's committed baseline (baselines/REF.json on the\n"
	"first-parent line of REF, read from git): per scenario and metric, every commit that\n"
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

static int parse_options(struct history_options *options, int argc, char **argv,
			 struct gate_error *err)
{
	struct common_targets common = { .help = &options->help };
	struct opt_context context = { options, &common };

	*options = (struct history_options){ .ref = "main" };
	return opt_parse(&history_spec, &context, argc, argv, NULL, NULL, err);
}

/* Untrusted text (subjects, reasons) on a terminal: no control characters. */
static void print_clean(FILE *out, const char *text)
{
	for (; *text != '\0'; text++)
		fputc((unsigned char)*text < 0x20 || *text == 0x7f ? '?' : *text, out);
}

static void print_series(FILE *out, const struct history *history,
			 const struct history_series *series)
{
	const struct history_point *first = &series->points[0];
	const struct history_point *last = &series->points[series->point_count - 1];
	char value[64], change[64];
	size_t i;

	fprintf(out, "\n%s: %s\n", series->scenario, series->label);
	for (i = 0; i < series->point_count; i++) {
		const struct history_point *point = &series->points[i];
		const struct history_version *version = &history->versions[point->version];

		chart_format_value(value, sizeof(value), point->value);
		change[0] = '\0';
		if (point->has_change)
			chart_format_percent(change, sizeof(change), point->change_percent);
		fprintf(out, "  %s  %-9s %14s %10s  ", version->commit.date, version->commit.short_hash,
			value, change);
		print_clean(out, version->commit.subject);
		if (version->fingerprint_change != NULL && i > 0) {
			fputs("  [toolchain: ", out);
			print_clean(out, version->fingerprint_change);
			fputc(']', out);
		}
		if (point->accepted != NULL) {
			fputs("  [accepted: ", out);
			print_clean(out, point->accepted);
			fputc(']', out);
		}
		fputc('\n', out);
	}
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
	char *path = NULL, *text = NULL, *name = strdup(series->scenario);
	size_t length = 0;
	FILE *out = NULL;
	int status = -1;

	if (name == NULL || (out = open_memstream(&text, &length)) == NULL) {
		gate_error_set(err, "out of memory");
		goto out;
	}
	chart_history(out, history, series, true);
	if (fclose(out) != 0) {
		gate_error_set(err, "out of memory");
		goto out;
	}
	file_safe(name);
	if (asprintf(&path, "%s/%s.%s.svg", directory, name, series->key) < 0) {
		path = NULL;
		gate_error_set(err, "out of memory");
		goto out;
	}
	status = fs_write_atomic(path, text, length, NULL, err);
out:
	free(path);
	free(text);
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
		return gate_error_set(err, "out of memory");
	status = results_write_file(document, options->json_path, err);
	cJSON_Delete(document);
	return status;
}

int cmd_history(int argc, char **argv)
{
	struct history_options options;
	struct history history = HISTORY_INIT;
	struct gate_error err = GATE_ERROR_INIT;
	char *root = NULL;
	int code = GATE_EXIT_USAGE;
	enum history_status status;

	if (parse_options(&options, argc, argv, &err) != 0)
		goto out;
	if (options.help) {
		opt_usage(stdout, &history_spec);
		code = 0;
		goto out;
	}
	root = baseline_repository_root();
	if (root == NULL) {
		gate_error_set(&err, "no history: the current directory is not in a git repository");
		code = GATE_EXIT_NO_BASELINE;
		goto out;
	}
	status = history_walk(&history, &(struct history_request){ .root = root, .ref = options.ref,
				      .since = options.since, .patterns = options.scenarios,
				      .pattern_count = options.scenario_count }, &err);
	warn_skipped(&history);
	if (status != HISTORY_FOUND) {
		code = status == HISTORY_NONE ? GATE_EXIT_NO_BASELINE : GATE_EXIT_USAGE;
		goto out;
	}
	print_history(stdout, &history);
	if (fflush(stdout) != 0) {
		gate_error_set(&err, "cannot write the history to stdout");
		goto out;
	}
	code = write_outputs(&history, &options, &err) == 0 ? 0 : GATE_EXIT_USAGE;
out:
	if (code != 0)
		session_fail(code, &err);
	history_release(&history);
	free(options.scenarios);
	free(root);
	return code;
}
