/* What gate's subcommands share: one way from a command line to an exit code (command_main), the
 * results document they read, an output drawn in memory and written whole, and a native scenario
 * found by name. */
#ifndef GATE_COMMAND_H
#define GATE_COMMAND_H

#include <cjson/cJSON.h>
#include <stdio.h>

#include "error.h"
#include "manifest.h"
#include "optlayer.h"
#include "results.h"
#include "say.h"

/* The shared options, first in a subcommand's own options unless its `start` says where they go:
 * --build-dir, --timeout, --verbose and --quiet land here (in a command that lists them), after
 * command_main has set their defaults: build, 600 s, 1. */
struct command_shared {
	const char *build_dir;
	double timeout_seconds;
	int verbosity; /* 0 quiet, 1 default, 2 verbose */
};

/* A subcommand: its options (optlayer.h) and the steps command_main takes with them. `options`
 * is the command's own options struct, `size` bytes that command_main allocates. */
struct command {
	const struct command_spec *spec;
	size_t size;
	const void *defaults; /* the options before parsing (`size` bytes); NULL: zero */
	/* The defaults, and where the shared options land (--help is command_main's own). NULL: the
	 * options begin with struct command_shared. */
	void (*start)(void *options, struct common_targets *common);
	/* Unless --help: the arguments after the options (an array that stays command_main's, alive
	 * until after `release`), and what depends on more than one option. 0, or -1 with err (exit
	 * 2). NULL: nothing to do. */
	int (*finish)(void *options, char **operands, size_t operand_count, struct gate_error *err);
	/* The work: 0, or the exit code with err saying why (an err left empty: the command has
	 * said why itself). */
	int (*run)(void *options, struct gate_error *err);
	/* What the options own besides their OPT_COPY and OPT_LIST fields (opt_release); NULL:
	 * nothing. */
	void (*release)(void *options);
	/* --help's text; NULL: opt_usage of the spec. */
	void (*usage)(FILE *out);
	/* The paragraph after the synopsis, drawn from a table (owned by the caller; NULL when out
	 * of memory), for --help and gate(1); NULL: the spec's own. */
	char *(*about)(void);
};

/* The command's spec with its about drawn (command.about) into *about, to free after. */
struct command_spec command_spec_of(const struct command *command, char **about);

/* What the layers below say as they go (say.h), printed on stderr a line at a time. */
void command_say(void *context, const char *text);
#define COMMAND_SAY ((struct say){ command_say, NULL })

/* Parses argv (argv[0] the command's name), then prints --help or runs the command; a failure
 * is printed as "gate: error: MESSAGE". Returns the exit code: 2 for a usage error. */
int command_main(const struct command *command, int argc, char **argv);

/* A results document and its verdict (costgate.verdict, every value checked): what gate report
 * and gate export draw from. */
struct command_results {
	cJSON *document;
	struct results_verdict verdict;
};

/* Reads the results at `path`: 0, or -1 with err naming it (results->document NULL). */
int command_results_read(struct command_results *results, const char *path,
			 struct gate_error *err);

void command_results_release(struct command_results *results);

/* An output drawn into `stream` in memory, written only when whole: a page, a chart, an export,
 * a manifest. */
struct command_output {
	FILE *stream;
	char *text;
	size_t length;
};

/* Opens output->stream: 0, or -1 with err (out of memory). */
int command_output_open(struct command_output *output, struct gate_error *err);

/* Closes the stream and, when `status` (what drawing it returned) is 0, writes what it holds to
 * `path` whole (fs_write_atomic: a temporary file renamed into place), or to stdout when path is
 * NULL; frees it either way. Returns status, else 0 written, or -1 with err. */
int command_output_close(struct command_output *output, const char *path, int status,
			 struct gate_error *err);

/* The entry of `manifest` named `name`, or NULL (a manifest is sorted by name). */
const struct manifest_entry *command_find_scenario(const struct manifest *manifest,
						   const char *name);

#endif
