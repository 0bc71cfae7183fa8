/* gate export. The results document is read with the strict reader a baseline gets, so an
 * export never carries figures gate itself would refuse; the output is written whole or not at
 * all (a temporary file and a rename). */
#define _GNU_SOURCE
#include "cmd_export.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "command.h"
#include "exit_codes.h"
#include "export.h"
#include "optlayer.h"
#include "results.h"
#include "verdict.h"
#include "wallclock.h"

struct export_options {
	struct command_shared shared;
	const char *input;   /* the results document */
	const char *output;  /* NULL: stdout */
	const char *format_name;
	const struct export_format *format;
};

static const struct export_options export_defaults = { .input = "build/gate/results.json" };

static int finish(void *own, char **operands, size_t operand_count, struct gate_error *err)
{
	struct export_options *options = own;

	char names[200];

	export_format_names(names, sizeof(names));
	if (operand_count == 1)
		options->input = operands[0];
	if (options->format_name == NULL)
		return gate_error_set(err, "--format is required: %s (see gate export --help)",
				      names);
	options->format = export_format_find(options->format_name);
	if (options->format == NULL)
		return gate_error_set(err, "--format '%s' is not %s", options->format_name, names);
	return 0;
}

static const struct opt opt_format = {
	"format", 'f', "FORMAT", "bmf, junit or csv (required)", OPT_TEXT_FIELD(struct export_options, format_name) };
static const struct opt opt_export_output = {
	"output", 'o', "FILE", "write FILE instead of stdout", OPT_TEXT_FIELD(struct export_options, output) };

static const struct opt *const export_opts[] = { &opt_format, &opt_export_output, &opt_help,
						 NULL };

static const struct command_spec export_spec = {
	"gate export",
	"usage: gate export --format FORMAT [options] [RESULTS]",
	"Writes the figures of RESULTS (default build/gate/results.json) for another tool\n"
	"in one of the formats below.\n",
	export_opts,
	"Exit codes: 0 written, 2 usage error, unreadable or malformed results, or the output\n"
	"cannot be written.\n",
	1,
	NULL,
	NULL,
	NULL,
};

/* The results twice, as gate reads a baseline and as a document with its verdict, the export
 * drawn from them in memory and written whole. */
static int run(void *own, struct gate_error *err)
{
	const struct export_options *options = own;
	struct results results = RESULTS_INIT;
	struct command_results document = { NULL, { 0 } };
	struct command_output output;
	int code = GATE_EXIT_USAGE, status;

	if (results_read_file(&results, options->input, err) != 0 ||
	    command_results_read(&document, options->input, err) != 0 ||
	    command_output_open(&output, err) != 0)
		goto out;
	status = options->format->write(output.stream, &results, &document.verdict, err);
	if (command_output_close(&output, options->output, status, err) == 0)
		code = 0;
out:
	command_results_release(&document);
	results_release(&results);
	return code;
}

/* The paragraph of --help and gate(1): the spec's, then each format of the table (export.h) with
 * what it writes. */
static char *about(void)
{
	char *text = NULL;
	size_t size = 0, i;
	FILE *out = open_memstream(&text, &size);

	if (out == NULL)
		return NULL;
	fputs(export_spec.about, out);
	for (i = 0; i < export_format_count; i++) {
		const char *line = export_formats[i].about;

		fprintf(out, "  %-6s ", export_formats[i].name);
		while (*line != '\0') {
			size_t length = strcspn(line, "\n");

			fprintf(out, "%s%.*s\n", line == export_formats[i].about ? "" : "         ",
				(int)length, line);
			line += length + (line[length] == '\n');
		}
	}
	if (fclose(out) != 0) {
		free(text);
		return NULL;
	}
	return text;
}

const struct command export_command = {
	.spec = &export_spec, .size = sizeof(struct export_options), .defaults = &export_defaults,
	.finish = finish, .run = run, .about = about,
};
