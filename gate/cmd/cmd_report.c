/* gate report. The page is written to a temporary file beside its destination and renamed into
 * place, so an interrupted run never leaves half a page where a whole one was. */
#define _GNU_SOURCE
#include "cmd_report.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "command.h"
#include "exit_codes.h"
#include "history.h"
#include "optlayer.h"
#include "page.h"
#include "verdict.h"
#include "wallclock.h"

struct report_options {
	struct command_shared shared;
	const char *input;   /* the results document */
	char *output;        /* the page; owned */
	const char *history; /* gate history --json's document, or NULL */
};

static const struct report_options report_defaults = { .input = "build/gate/results.json" };

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

static int finish(void *own, char **operands, size_t operand_count, struct gate_error *err)
{
	struct report_options *options = own;

	if (operand_count == 1)
		options->input = operands[0];
	if (options->output == NULL && (options->output = default_output(options->input)) == NULL)
		return gate_error_oom(err);
	return 0;
}

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

static const struct command_spec report_spec = {
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

/* The results (every value checked: malformed ones write nothing) and the history as the
 * results module's views, the page drawn from them in memory and written whole. */
static int run(void *own, struct gate_error *err)
{
	const struct report_options *options = own;
	struct history history = HISTORY_INIT;
	struct command_results results = { NULL, { 0 } };
	struct results_view view = { 0 };
	struct command_output page;
	int code = GATE_EXIT_USAGE;

	if ((options->history != NULL && read_history(&history, options->history, err) != 0) ||
	    command_results_read(&results, options->input, err) != 0 ||
	    results_view_read(&view, results.document, options->input, err) != 0 ||
	    command_output_open(&page, err) != 0)
		goto out;
	page_write(page.stream, &view, &results.verdict, options->history != NULL ? &history : NULL,
		   options->input);
	if (command_output_close(&page, options->output, 0, err) != 0)
		goto out;
	if (options->shared.verbosity > 0)
		fprintf(stderr, "gate: report: wrote %s\n", options->output);
	code = 0;
out:
	results_view_release(&view);
	command_results_release(&results);
	history_release(&history);
	return code;
}

const struct command report_command = {
	.spec = &report_spec, .size = sizeof(struct report_options), .defaults = &report_defaults,
	.finish = finish, .run = run,
};
