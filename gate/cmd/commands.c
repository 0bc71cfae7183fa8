/* gate's command table (commands.h). */
#define _GNU_SOURCE
#include "commands.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "cmd_check.h"
#include "cmd_export.h"
#include "cmd_files.h"
#include "cmd_history.h"
#include "cmd_manifest.h"
#include "cmd_merge.h"
#include "cmd_profile.h"
#include "cmd_report.h"
#include "cmd_time.h"
#include "exit_codes.h"
#include "optdoc.h"
#include "options.h"
#include "suggest.h"

#ifndef GATE_VERSION
#define GATE_VERSION "unknown"
#endif

const struct command check_command = {
	.spec = &gate_spec, .size = sizeof(struct gate_options), .start = check_start,
	.finish = check_finish, .run = check_run, .release = check_release, .usage = commands_usage,
};

const struct subcommand commands[] = {
	{ "check", "measure every scenario and decide (what gate alone does)", &check_command },
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

const size_t command_count = sizeof(commands) / sizeof(commands[0]);

const struct command *commands_find(const char *word)
{
	size_t i;

	for (i = 0; i < command_count; i++)
		if (strcmp(word, commands[i].name) == 0)
			return commands[i].command;
	return NULL;
}

const char *commands_nearest(const char *word)
{
	const char *names[sizeof(commands) / sizeof(commands[0])];
	size_t i;

	for (i = 0; i < command_count; i++)
		names[i] = commands[i].name;
	return word[0] == '-' ? NULL : suggest_nearest(word, names, command_count);
}

void commands_usage(FILE *out)
{
	char *text = NULL;
	size_t size = 0, i;
	FILE *lines = open_memstream(&text, &size);

	if (lines != NULL) {
		fputs("Subcommands (each has --help):\n", lines);
		for (i = 0; i < command_count; i++)
			fprintf(lines, "  gate %-9s %s\n", commands[i].name, commands[i].about);
		fclose(lines);
	}
	options_usage(out, text);
	free(text);
}

int commands_generate(const char *format, const char *path)
{
	struct optdoc_command documented[sizeof(commands) / sizeof(commands[0])];
	struct command_spec specs[sizeof(commands) / sizeof(commands[0])];
	char *abouts[sizeof(commands) / sizeof(commands[0])];
	FILE *out;
	size_t i;
	int saved, status = GATE_EXIT_USAGE;

	if (strcmp(format, "man") != 0 && strcmp(format, "bash") != 0) {
		fprintf(stderr, "gate: error: --generate writes 'man' or 'bash', not '%s'\n", format);
		return GATE_EXIT_USAGE;
	}
	/* gate check is documented as gate itself (optdoc_man), whose spec it shares. */
	for (i = 0; i < command_count; i++) {
		bool gate_itself = commands[i].command->spec == &gate_spec;

		abouts[i] = NULL;
		if (!gate_itself)
			specs[i] = command_spec_of(commands[i].command, &abouts[i]);
		documented[i] = (struct optdoc_command){ commands[i].name, commands[i].about,
							 gate_itself ? &gate_spec : &specs[i] };
	}
	out = fopen(path, "w");
	if (out != NULL) {
		if (format[0] == 'm')
			optdoc_man(out, GATE_VERSION, &gate_spec, documented, command_count);
		else
			optdoc_bash(out, &gate_spec, documented, command_count);
		if (fclose(out) == 0)
			status = 0;
	}
	if (status != 0) {
		saved = errno;
		fprintf(stderr, "gate: error: cannot write '%s': %s\n", path, strerror(saved));
	}
	for (i = 0; i < command_count; i++)
		free(abouts[i]);
	return status;
}
