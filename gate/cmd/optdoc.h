/* gate(1) and gate's bash completion, written from the same option tables the parser and --help
 * use (optlayer.h), so neither can name an option gate does not take or miss one it does. The
 * build writes both files (gate --generate man|bash FILE) and installs them. */
#ifndef GATE_OPTDOC_H
#define GATE_OPTDOC_H

#include <stddef.h>
#include <stdio.h>

#include "optlayer.h"

/* A subcommand: the word after gate, its one-line description, and its options. */
struct optdoc_command {
	const char *name;
	const char *about;
	const struct command_spec *spec;
};

/* The manual page in roff (man(7)): gate's own options, then each subcommand's, the exit codes
 * from gate's epilogue. `version` goes into the title line. */
void optdoc_man(FILE *out, const char *version, const struct command_spec *gate,
		const struct optdoc_command *commands, size_t count);

/* A bash completion script defining _gate: subcommands after gate, each command's options after
 * a dash, files after an option whose value is a FILE, directories after a DIR. */
void optdoc_bash(FILE *out, const struct command_spec *gate, const struct optdoc_command *commands,
		 size_t count);

#endif
