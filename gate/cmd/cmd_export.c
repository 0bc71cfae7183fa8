/* gate export. The results document is read with the strict reader a baseline gets, so an
 * export never carries figures gate itself would refuse; the output is written whole or not at
 * all (a temporary file and a rename). */
#define _GNU_SOURCE
#include "cmd_export.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exit_codes.h"
#include "export.h"
#include "options.h"
#include "results.h"
#include "session.h"
#include "textfile.h"
#include "verdict.h"
#include "wallclock.h"

struct export_options {
	const char *input;   /* the results document */
	const char *output;  /* NULL: stdout */
	const char *format_name;
	enum export_format format;
	bool help;
};

static void usage(FILE *out)
{
	fputs("usage: gate export --format FORMAT [options] [RESULTS]\n"
	      "Writes the figures of RESULTS (default build/gate/results.json) for another tool:\n"
	      "  bmf    Bencher Metric Format JSON: scenario -> measure -> {\"value\": ...}, measures\n"
	      "         instructions, allocations (per message), cold-instructions, cold-allocations\n"
	      "         (for: bencher run --adapter json)\n"
	      "  junit  JUnit XML: one test case per scenario, failed with its breach\n"
	      "  csv    one row per scenario and measure: scenario, metric, value, baseline,\n"
	      "         change_percent, state\n"
	      "\n"
	      "  -f, --format FORMAT     bmf, junit or csv (required)\n"
	      "  -o, --output FILE       write FILE instead of stdout\n"
	      "  -h, --help              this text\n"
	      "\n"
	      "Exit codes: 0 written, 2 usage error, unreadable or malformed results, or the output\n"
	      "cannot be written.\n",
	      out);
}

static int parse_options(struct export_options *options, int argc, char **argv,
			 struct gate_error *err)
{
	static const struct option long_options[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int option;

	*options = (struct export_options){ .input = "build/gate/results.json" };
	opterr = 0;
	optind = 0;
	while ((option = getopt_long(argc, argv, ":f:o:h", long_options, NULL)) != -1) {
		if (options_getopt_error(option, argv, "gate export", err) != 0)
			return -1;
		options->format_name = option == 'f' ? optarg : options->format_name;
		options->output = option == 'o' ? optarg : options->output;
		options->help = options->help || option == 'h';
	}
	if (optind < argc)
		options->input = argv[optind++];
	if (optind < argc)
		return gate_error_set(err, "unexpected argument '%s' (see gate export --help)", argv[optind]);
	if (options->help)
		return 0;
	if (options->format_name == NULL)
		return gate_error_set(err, "--format is required: bmf, junit or csv (see gate export --help)");
	if (export_format_parse(options->format_name, &options->format) != 0)
		return gate_error_set(err, "--format '%s' is not bmf, junit or csv", options->format_name);
	return 0;
}

static int write_export(const struct export_options *options, const struct results *results,
			const cJSON *document, struct gate_error *err)
{
	char *text = NULL;
	size_t length = 0;
	FILE *out = open_memstream(&text, &length);
	int status;

	if (out == NULL)
		return gate_error_set(err, "out of memory");
	status = export_write(out, options->format, results, document, options->input, err);
	if (fclose(out) != 0 && status == 0)
		status = gate_error_set(err, "out of memory");
	if (status == 0 && options->output != NULL)
		status = textfile_write(options->output, text, length, err);
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
		usage(stdout);
		code = 0;
		goto out;
	}
	if (results_read_file(&results, options.input, &err) != 0 ||
	    wall_document_read(options.input, false, &document, &err) != 0 ||
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
