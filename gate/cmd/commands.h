/* gate's command table: the word after `gate`, what --help says of it, and the command. `gate`
 * alone is `gate check`. main.c dispatches through it; --help, the manual page and the bash
 * completion are drawn from it. */
#ifndef GATE_COMMANDS_H
#define GATE_COMMANDS_H

#include <stddef.h>
#include <stdio.h>

#include "command.h"

struct subcommand {
	const char *name;
	const char *about;
	const struct command *command;
};

/* gate check (cmd_check.c) as a command: gate's options, gate's --help. */
extern const struct command check_command;

extern const struct subcommand commands[];
extern const size_t command_count;

/* The command named `word`, or NULL. */
const struct command *commands_find(const char *word);

/* A first word that is no command but near one ("gate tiem"), or NULL. */
const char *commands_nearest(const char *word);

/* gate --help: gate check's options, then the commands, then the exit codes. */
void commands_usage(FILE *out);

/* The build's step `gate --generate man|bash FILE`: gate(1) or the bash completion, from the
 * option tables. Returns the exit code (2 when it cannot write FILE). */
int commands_generate(const char *format, const char *path);

#endif
