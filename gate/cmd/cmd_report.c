/* gate report. The page is written to a temporary file beside its destination and renamed into
 * place, so an interrupted run never leaves half a page where a whole one was. */
#define _GNU_SOURCE
#include "cmd_report.h"

#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "exit_codes.h"
#include "history.h"
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

static void usage(FILE *out)
{
	fputs("usage: gate report [options] [RESULTS]\n"
	      "Writes the results page of RESULTS (default build/gate/results.json): one HTML file\n"
	      "with nothing to fetch, charting the wall-clock pairs (gate time), the cost of the\n"
	      "code (gate) and the machine, each chart with a table of its numbers.\n"
	      "\n"
	      "  -o, --output FILE       the page (default: RESULTS with .html for .json)\n"
	      "      --history FILE      add the history charts of FILE (gate history --json)\n"
	      "  -q, --quiet             do not say where the page went\n"
	      "  -h, --help              this text\n"
	      "\n"
	      "Exit codes: 0 written, 2 usage error, unreadable or malformed results, or the page\n"
	      "cannot be written.\n",
	      out);
}

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

static int parse_options(struct report_options *options, int argc, char **argv,
			 struct gate_error *err)
{
	static const struct option long_options[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "history", required_argument, NULL, 'H' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int option;

	*options = (struct report_options){ .input = "build/gate/results.json", .verbosity = 1 };
	opterr = 0;
	optind = 0;
	while ((option = getopt_long(argc, argv, ":o:qh", long_options, NULL)) != -1) {
		if (option == '?')
			return gate_error_set(err, "unknown option '%s' (see gate report --help)",
					      argv[optind - 1]);
		if (option == ':')
			return gate_error_set(err, "option '%s' needs a value", argv[optind - 1]);
		if (option == 'o') {
			free(options->output);
			if ((options->output = strdup(optarg)) == NULL)
				return gate_error_set(err, "out of memory");
		}
		options->history = option == 'H' ? optarg : options->history;
		options->verbosity = option == 'q' ? 0 : options->verbosity;
		options->help = options->help || option == 'h';
	}
	if (optind < argc)
		options->input = argv[optind++];
	if (optind < argc)
		return gate_error_set(err, "unexpected argument '%s' (see gate report --help)", argv[optind]);
	if (options->output == NULL && (options->output = default_output(options->input)) == NULL)
		return gate_error_set(err, "out of memory");
	return 0;
}

static int write_page(const cJSON *document, const struct history *history,
		      const struct report_options *options, struct gate_error *err)
{
	char *temporary = NULL;
	FILE *out = NULL;
	int fd = -1, status = -1, saved;

	if (asprintf(&temporary, "%s.tmp.XXXXXX", options->output) < 0)
		return gate_error_set(err, "out of memory");
	if ((fd = mkstemp(temporary)) < 0 || (out = fdopen(fd, "w")) == NULL) {
		saved = errno;
		gate_error_set(err, "cannot write '%s': %s", options->output, strerror(saved));
		goto out;
	}
	fd = -1;
	if (page_write_with_history(out, document, history, options->input, err) != 0)
		goto out;
	if (fflush(out) != 0 || ferror(out) || fchmod(fileno(out), 0644) != 0) {
		saved = errno ? errno : EIO;
		gate_error_set(err, "cannot write '%s': %s", options->output, strerror(saved));
		goto out;
	}
	status = fclose(out);
	out = NULL;
	if (status != 0 || rename(temporary, options->output) != 0) {
		saved = errno;
		status = gate_error_set(err, "cannot write '%s': %s", options->output, strerror(saved));
	}
out:
	if (out != NULL)
		fclose(out);
	if (fd >= 0)
		close(fd);
	if (status != 0)
		unlink(temporary);
	free(temporary);
	return status;
}

static int read_history(struct history *history, const char *path, struct gate_error *err)
{
	cJSON *document = NULL;
	int status;

	if (wall_document_read(path, false, &document, err) != 0)
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
		usage(stdout);
		code = 0;
		goto out;
	}
	if (options.history != NULL && read_history(&history, options.history, &err) != 0)
		goto out;
	if (wall_document_read(options.input, false, &document, &err) != 0 ||
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
