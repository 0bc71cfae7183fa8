/* gate report. The page is written to a temporary file beside its destination and renamed into
 * place, so an interrupted run never leaves half a page where a whole one was. */
#define _GNU_SOURCE
#include "cmd_report.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "exit_codes.h"
#include "fs.h"
#include "history.h"
#include "optlayer.h"
#include "page.h"
#include "session.h"
#include "verdict.h"
#include "wallclock.h"

struct report_options {
	const char *input;  /* the results document */
	char *output;       /* the page; owned */
	const char *history; /* gate history --json's document, or NULL */
	int verbosity;
	bool help;
};

/* RESULTS with its .json suffix replaced by .html (or .html appended). */
static char *default_output(const char *input)
{
	size_t length = strlen(input);
	char *output = NULL;

	if (length > 5 && strcmp(input + length - 5, ".json") == 0) {
		if (asprintf(&output, "%.*s.html", (int)(length - 5), input) < 0)
			output = NULL;
	} else if (asprintf(&output, "%s.html", input) < 0) {
		output = NULL;
	}
	return output;
}

#define OWN(context) ((struct report_options *)(context)->own)

static const struct opt opt_page_output = {
	"output", 'o', "FILE", "the page (default: RESULTS with .html for .json)", OPT_COPY_FIELD(struct report_options, output) };
static const struct opt opt_history_file = {
	"history", 0, "FILE", "add the history charts of FILE (gate history --json)",
	OPT_TEXT_FIELD(struct report_options, history) };

static const struct opt *const report_opts[] = { &opt_page_output, &opt_history_file, &opt_quiet,
						 &opt_help, NULL };

static const struct opt_note report_notes[] = {
	{ &opt_quiet, "do not say where the page went" },
	{ NULL, NULL },
};

const struct command_spec report_spec = {
	"gate report",
	"usage: gate report [options] [RESULTS]",
	"Writes the results page of RESULTS (default build/gate/results.json): one HTML file\n"
	"with nothing to fetch that opens with the verdict, then every scenario (failed ones\n"
	"first) with its state, baseline and change, the wall-clock pairs (gate time) and the\n"
	"machine, each chart with a table of its numbers.\n",
	report_opts,
	"Exit codes: 0 written, 2 usage error, unreadable or malformed results, or the page\n"
	"cannot be written.\n",
	1,
	NULL,
	NULL,
	report_notes,
};

static int parse_options(struct report_options *options, int argc, char **argv,
			 struct gate_error *err)
{
	struct common_targets common;
	struct opt_context context = { options, &common };
	char **operands = NULL;
	size_t operand_count = 0;
	int status = -1;

	*options = (struct report_options){ .input = "build/gate/results.json", .verbosity = 1 };
	common = (struct common_targets){ .verbosity = &options->verbosity, .help = &options->help };
	if (opt_parse(&report_spec, &context, argc, argv, &operands, &operand_count, err) != 0)
		goto out;
	if (operand_count == 1)
		options->input = operands[0];
	if (options->output == NULL && (options->output = default_output(options->input)) == NULL) {
		gate_error_set(err, "out of memory");
		goto out;
	}
	status = 0;
out:
	free(operands);
	return status;
}

/* The document is read into the results module's view and its verdict (every value checked: a
 * malformed one writes nothing), the page drawn from them in memory and written whole (fs.h). */
static int write_page(const cJSON *document, const struct history *history,
		      const struct report_options *options, struct gate_error *err)
{
	struct results_view view;
	struct results_verdict verdict;
	char *text = NULL;
	size_t length = 0;
	FILE *out = NULL;
	int status = -1;

	if (results_view_read(&view, document, options->input, err) != 0)
		return -1;
	if (results_verdict_read(&verdict, document, options->input, err) != 0)
		goto out;
	out = open_memstream(&text, &length);
	if (out == NULL) {
		gate_error_set(err, "out of memory");
		goto out;
	}
	page_write(out, &view, &verdict, history, options->input);
	status = fclose(out) != 0 ? gate_error_set(err, "out of memory") : 0;
	if (status == 0)
		status = fs_write_atomic(options->output, text, length, NULL, err);
out:
	free(text);
	results_verdict_release(&verdict);
	results_view_release(&view);
	return status;
}

static int read_history(struct history *history, const char *path, struct gate_error *err)
{
	cJSON *document = NULL;
	int status;

	if (results_document_read(path, false, &document, err) != 0)
		return -1;
	status = history_from_json(history, document, path, err);
	cJSON_Delete(document);
	return status;
}

int cmd_report(int argc, char **argv)
{
	struct report_options options;
	struct gate_error err = GATE_ERROR_INIT;
	struct history history = HISTORY_INIT;
	cJSON *document = NULL;
	int code = GATE_EXIT_USAGE;

	if (parse_options(&options, argc, argv, &err) != 0)
		goto out;
	if (options.help) {
		opt_usage(stdout, &report_spec);
		code = 0;
		goto out;
	}
	if (options.history != NULL && read_history(&history, options.history, &err) != 0)
		goto out;
	if (results_document_read(options.input, false, &document, &err) != 0 ||
	    write_page(document, options.history != NULL ? &history : NULL, &options, &err) != 0)
		goto out;
	if (options.verbosity > 0)
		fprintf(stderr, "gate: report: wrote %s\n", options.output);
	code = 0;
out:
	if (code != 0)
		session_fail(code, &err);
	cJSON_Delete(document);
	history_release(&history);
	free(options.output);
	return code;
}
