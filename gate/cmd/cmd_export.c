/* gate export. The results document is read with the strict reader a baseline gets, so an
 * export never carries figures gate itself would refuse; the output is written whole or not at
 * all (a temporary file and a rename). */
#define _GNU_SOURCE
#include "cmd_export.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exit_codes.h"
#include "fs.h"
#include "export.h"
#include "optlayer.h"
#include "results.h"
#include "session.h"
#include "verdict.h"
#include "wallclock.h"

struct export_options {
	const char *input;   /* the results document */
	const char *output;  /* NULL: stdout */
	const char *format_name;
	enum export_format format;
	bool help;
};

#define OWN(context) ((struct export_options *)(context)->own)

static const struct opt opt_format = {
	"format", 'f', "FORMAT", "bmf, junit or csv (required)", OPT_TEXT_FIELD(struct export_options, format_name) };
static const struct opt opt_export_output = {
	"output", 'o', "FILE", "write FILE instead of stdout", OPT_TEXT_FIELD(struct export_options, output) };

static const struct opt *const export_opts[] = { &opt_format, &opt_export_output, &opt_help,
						 NULL };

const struct command_spec export_spec = {
	"gate export",
	"usage: gate export --format FORMAT [options] [RESULTS]",
	"Writes the figures of RESULTS (default build/gate/results.json) for another tool:\n"
	"  bmf    Bencher Metric Format JSON: scenario -> measure -> {\"value\": ...}, measures\n"
	"         per message for every metric it has (instructions, allocations, bytes,\n"
	"         peak-bytes, ...), then cold-instructions, cold-allocations, ... (for: bencher\n"
	"         run --adapter json)\n"
	"  junit  JUnit XML: one test case per scenario, failed with its breach, with its\n"
	"         source file and the seconds of its valgrind runs\n"
	"  csv    one fact a row: scenario, measure, value, unit, baseline, change_percent,\n"
	"         limit_percent, floor; each scenario's state is a row of its own (measure\n"
	"         \"state\")\n",
	export_opts,
	"Exit codes: 0 written, 2 usage error, unreadable or malformed results, or the output\n"
	"cannot be written.\n",
	1,
	NULL,
	NULL,
	NULL,
};

static int parse_options(struct export_options *options, int argc, char **argv,
			 struct gate_error *err)
{
	struct common_targets common = { .help = &options->help };
	struct opt_context context = { options, &common };
	char **operands = NULL;
	size_t operand_count = 0;
	int status = -1;

	*options = (struct export_options){ .input = "build/gate/results.json" };
	if (opt_parse(&export_spec, &context, argc, argv, &operands, &operand_count, err) != 0)
		goto out;
	if (operand_count == 1)
		options->input = operands[0];
	status = 0;
	if (options->help)
		goto out;
	if (options->format_name == NULL)
		status = gate_error_set(err, "--format is required: bmf, junit or csv (see gate export "
				       "--help)");
	else if (export_format_parse(options->format_name, &options->format) != 0)
		status = gate_error_set(err, "--format '%s' is not bmf, junit or csv",
					options->format_name);
out:
	free(operands);
	return status;
}

static int write_export(const struct export_options *options, const struct results *results,
			const cJSON *document, struct gate_error *err)
{
	struct results_verdict verdict;
	char *text = NULL;
	size_t length = 0;
	FILE *out;
	int status;

	if (results_verdict_read(&verdict, document, options->input, err) != 0)
		return -1;
	out = open_memstream(&text, &length);
	if (out == NULL) {
		results_verdict_release(&verdict);
		return gate_error_set(err, "out of memory");
	}
	status = export_write(out, options->format, results, &verdict, err);
	results_verdict_release(&verdict);
	if (fclose(out) != 0 && status == 0)
		status = gate_error_set(err, "out of memory");
	if (status == 0 && options->output != NULL)
		status = fs_write_atomic(options->output, text, length, NULL, err);
	else if (status == 0 && (fwrite(text, 1, length, stdout) != length || fflush(stdout) != 0))
		status = gate_error_set(err, "cannot write the export to stdout");
	free(text);
	return status;
}

int cmd_export(int argc, char **argv)
{
	struct export_options options;
	struct gate_error err = GATE_ERROR_INIT;
	struct results results = RESULTS_INIT;
	cJSON *document = NULL;
	int code = GATE_EXIT_USAGE;

	if (parse_options(&options, argc, argv, &err) != 0)
		goto out;
	if (options.help) {
		opt_usage(stdout, &export_spec);
		code = 0;
		goto out;
	}
	if (results_read_file(&results, options.input, &err) != 0 ||
	    results_document_read(options.input, false, &document, &err) != 0 ||
	    write_export(&options, &results, document, &err) != 0)
		goto out;
	code = 0;
out:
	if (code != 0)
		session_fail(code, &err);
	cJSON_Delete(document);
	results_release(&results);
	return code;
}
