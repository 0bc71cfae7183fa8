/* gate: parse the options, then run the named steps of a session: prepare, load the baseline,
 * measure, decide, report. The subcommands (`gate time`, `gate merge`, ...) are a table of their
 * own, one cmd_*.c each. */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd_export.h"
#include "cmd_files.h"
#include "cmd_history.h"
#include "cmd_manifest.h"
#include "cmd_merge.h"
#include "cmd_profile.h"
#include "cmd_report.h"
#include "cmd_time.h"
#include "debugview.h"
#include "exit_codes.h"
#include "optdoc.h"
#include "options.h"
#include "runner.h"
#include "session.h"
#include "suggest.h"
#include "worktree.h"

#ifndef GATE_VERSION
#define GATE_VERSION "unknown"
#endif

static int run(const struct gate_options *options, const char *program)
{
	struct session session = { .options = options, .program = program };
	struct measure_options measure_options;
	int code = session_check_outputs(options);

	if (code == 0)
		code = session_prepare(&session);
	if (code == 0)
		code = session_run(&session, &measure_options, true);
	session_release(&session);
	return code;
}

/* Ctrl-C or a CI cancel: no valgrind run and no temporary worktree outlives gate. */
static void on_termination(int signal_number)
{
	runner_kill_all();
	worktree_abandon();
	debugview_abandon();
	signal(signal_number, SIG_DFL);
	raise(signal_number);
}

static void handle_termination(void)
{
	static const int signals[] = { SIGINT, SIGTERM, SIGHUP };
	struct sigaction action;
	size_t i;

	memset(&action, 0, sizeof(action));
	action.sa_handler = on_termination;
	sigemptyset(&action.sa_mask);
	for (i = 0; i < sizeof(signals) / sizeof(signals[0]); i++)
		sigaction(signals[i], &action, NULL);
}

/* gate's subcommands: the word after gate, what --help says of it, and the command (its options
 * for the manual page and the completion too). */
struct subcommand {
	const char *name;
	const char *about;
	const struct command *command;
};

static const struct subcommand commands[] = {
	{ "time", "wall clock against the raw loops", &time_command },
	{ "profile", "a CPU profile of one scenario (gate profile SCENARIO)", &profile_command },
	{ "report", "the results page (gate report [FILE])", &report_command },
	{ "merge", "shards, or one run decided again (gate merge FILE...)", &merge_command },
	{ "history", "every figure over the branch's commits", &history_command },
	{ "export", "one run for other tools (--format bmf|junit|csv)", &export_command },
	{ "manifest", "list scenarios built without CMake (gate manifest --output-dir DIR EXE...)",
	  &manifest_command },
	{ "files", "where each scenario's raw files are, one message's profile first",
	  &files_command },
};

#define COMMAND_COUNT (sizeof(commands) / sizeof(commands[0]))

/* The subcommands for gate --help, from the table. */
static void print_usage(void)
{
	char *text = NULL;
	size_t size = 0, i;
	FILE *lines = open_memstream(&text, &size);

	if (lines != NULL) {
		fputs("Subcommands (each has --help):\n", lines);
		for (i = 0; i < COMMAND_COUNT; i++)
			fprintf(lines, "  gate %-9s %s\n", commands[i].name, commands[i].about);
		fclose(lines);
	}
	options_usage(stdout, text);
	free(text);
}

/* The build's step `gate --generate man|bash FILE`: gate(1) or the bash completion, from the
 * option tables. Not an option of gate's: nothing a user types. */
static int generate(const char *format, const char *path)
{
	struct optdoc_command documented[COMMAND_COUNT];
	FILE *out;
	size_t i;
	int saved;

	if (strcmp(format, "man") != 0 && strcmp(format, "bash") != 0) {
		fprintf(stderr, "gate: error: --generate writes 'man' or 'bash', not '%s'\n", format);
		return GATE_EXIT_USAGE;
	}
	for (i = 0; i < COMMAND_COUNT; i++)
		documented[i] = (struct optdoc_command){ commands[i].name, commands[i].about,
							 commands[i].command->spec };
	out = fopen(path, "w");
	if (out != NULL) {
		if (format[0] == 'm')
			optdoc_man(out, GATE_VERSION, &gate_spec, documented, COMMAND_COUNT);
		else
			optdoc_bash(out, &gate_spec, documented, COMMAND_COUNT);
		if (fclose(out) == 0)
			return 0;
	}
	saved = errno;
	fprintf(stderr, "gate: error: cannot write '%s': %s\n", path, strerror(saved));
	return GATE_EXIT_USAGE;
}

/* A first word that is no subcommand but near one: "gate tiem". NULL when it is not near any (it
 * is then an unexpected argument, as any word where gate takes none). */
static const char *nearest_command(const char *word)
{
	const char *names[COMMAND_COUNT];
	size_t i;

	for (i = 0; i < COMMAND_COUNT; i++)
		names[i] = commands[i].name;
	return word[0] == '-' ? NULL : suggest_nearest(word, names, COMMAND_COUNT);
}

int main(int argc, char **argv)
{
	struct gate_options options;
	struct gate_error err = GATE_ERROR_INIT;
	size_t i;
	int code;

	handle_termination();
	for (i = 0; argc > 1 && i < COMMAND_COUNT; i++)
		if (strcmp(argv[1], commands[i].name) == 0)
			return command_main(commands[i].command, argc - 1, argv + 1);
	if (argc == 4 && strcmp(argv[1], "--generate") == 0)
		return generate(argv[2], argv[3]);
	if (argc > 1 && nearest_command(argv[1]) != NULL) {
		fprintf(stderr, "gate: error: unknown command '%s': did you mean '%s'? (see gate "
			"--help)\n", argv[1], nearest_command(argv[1]));
		return GATE_EXIT_USAGE;
	}
	if (options_parse(&options, argc, argv, &err) != 0) {
		options_release(&options);
		return session_fail(GATE_EXIT_USAGE, &err);
	}
	if (options.help || options.version) {
		if (options.help)
			print_usage();
		else
			printf("gate %s\n", GATE_VERSION);
		options_release(&options);
		return 0;
	}
	code = run(&options, argv[0]);
	options_release(&options);
	return code;
}
