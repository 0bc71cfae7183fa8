/* gate's option layer: every option written once, as its long name, short letter, argument, help
 * text and handler; each subcommand a list of the options it takes; the parser and the --help
 * text made from that list. The options every subcommand shares (--build-dir, --timeout, --jobs,
 * --verbose, --quiet, --help) are written here, once, and write through `struct common_targets`
 * into whichever command's own fields stand for them. */
#ifndef GATE_OPTLAYER_H
#define GATE_OPTLAYER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "error.h"

/* Where the shared options land in a command's own options; NULL: the command has no such
 * field (and does not list the option). */
struct common_targets {
	const char **build_dir;
	double *timeout_seconds;
	bool *timeout_given;
	unsigned *jobs;
	int *verbosity; /* -v: 2, -q: 0 */
	bool *help;
	bool *version;
};

struct opt_context {
	void *own;                             /* the command's own options struct */
	const struct common_targets *common;
};

/* What an option does with its value. Most options only store it in a field of the command's
 * own options struct, and say so by type (the OPT_* field macros below); the rest call `apply`. */
enum opt_kind {
	OPT_CALL,     /* apply(context, value, err) */
	OPT_FLAG,     /* bool field = true */
	OPT_TEXT,     /* const char * field = the value (argv's own string) */
	OPT_COPY,     /* char * field = a copy of the value (owned; a repeat replaces it) */
	OPT_UNSIGNED, /* unsigned or uint64_t field = the value, a whole number from low to high */
	OPT_LIST,     /* char ** field grows by the value, its size_t count at `count` */
	OPT_LEVEL,    /* int field = low (takes no value) */
	OPT_SECONDS   /* double field = the value, a decimal number of seconds from low to high
		       * milliseconds */
};

struct opt {
	const char *name;     /* long name, without the dashes */
	char letter;          /* short name, or 0 */
	const char *argument; /* what the value is called in --help ("N"), NULL for a flag */
	const char *help;     /* --help's text for it; "\n" continues it on the next line */
	int (*apply)(const struct opt_context *context, const char *value, struct gate_error *err);
	enum opt_kind kind;   /* OPT_CALL (0) unless an OPT_* field macro says otherwise */
	size_t field;         /* the field's offset in the command's own options */
	size_t size;          /* the field's size (OPT_UNSIGNED: 4 or 8 bytes) */
	size_t count;         /* OPT_LIST: the offset of its size_t count */
	uint64_t low, high;   /* OPT_UNSIGNED, OPT_SECONDS (ms): the range; OPT_LEVEL: the level */
	bool shared;          /* the field is the one a member of struct common_targets points to
			       * (`field` that member's offset), not one of the command's own */
};

/* 0, when the field `member` of `type` has the type `want`; a compile error otherwise, so a typed
 * option can only write the kind of field it is declared for (through the field's address, so an
 * array does not pass for a pointer). */
#define OPT_IS(type, member, want) (0 * sizeof(_Generic(&((type *)0)->member, want *: 1)))
#define OPT_AT(type, member) (offsetof(type, member)), sizeof(((type *)0)->member)

/* The tail of a struct opt initializer after the help text: a handler that does more than store
 * the value (checks it against something else, sets two fields)... */
#define OPT_CALLS(function) function, OPT_CALL, 0, 0, 0, 0, 0, false
/* ...or the field it writes, by type. */
#define OPT_FLAG_FIELD(type, member) \
	NULL, OPT_FLAG, OPT_AT(type, member) + OPT_IS(type, member, bool), 0, 0, 0, false
#define OPT_TEXT_FIELD(type, member) \
	NULL, OPT_TEXT, OPT_AT(type, member) + OPT_IS(type, member, const char *), 0, 0, 0, false
#define OPT_COPY_FIELD(type, member) \
	NULL, OPT_COPY, OPT_AT(type, member) + OPT_IS(type, member, char *), 0, 0, 0, false
/* An unsigned field of 4 or 8 bytes; a `high` the field cannot hold is a compile error. */
#define OPT_UNSIGNED_FIELD(type, member, low, high)                                            \
	NULL, OPT_UNSIGNED,                                                                    \
		OPT_AT(type, member) + 0 * sizeof(_Generic(&((type *)0)->member, unsigned *: 1, \
							      uint64_t *: 1)) +                \
			0 * sizeof(char[(uint64_t)(high) <= (sizeof(((type *)0)->member) == 4    \
								     ? UINT32_MAX                \
								     : UINT64_MAX) ? 1 : -1]), \
		0, (low), (high), false
/* A double field of seconds, from low_ms to high_ms milliseconds ("0.25" for 250). */
#define OPT_SECONDS_FIELD(type, member, low_ms, high_ms)                                      \
	NULL, OPT_SECONDS, OPT_AT(type, member) + OPT_IS(type, member, double), 0, (low_ms),   \
		(high_ms), false
#define OPT_LIST_FIELD(type, member, count_member)                                             \
	NULL, OPT_LIST, OPT_AT(type, member) + OPT_IS(type, member, char **),                  \
		offsetof(type, count_member) + OPT_IS(type, count_member, size_t), 0, 0, false
/* ...or, for an option every command may list, the field a member of struct common_targets points
 * to: kind OPT_FLAG, OPT_TEXT, OPT_UNSIGNED (from low to high) or OPT_LEVEL (the level low), and
 * the type that field has. */
#define OPT_SHARED_FIELD(kind, member, want, low, high)                                        \
	NULL, kind,                                                                            \
		offsetof(struct common_targets, member) +                                      \
			OPT_IS(struct common_targets, member, want *),                         \
		sizeof(want), 0, (low), (high), true

/* The options every command may list. */
extern const struct opt opt_build_dir, opt_timeout, opt_jobs, opt_verbose, opt_quiet, opt_help,
	opt_version;

/* A command's own wording for a shared option's help (its default, say): the option itself, its
 * name and handler, stays the shared one. */
struct opt_note {
	const struct opt *opt;
	const char *help;
};

#define OPT_ANY_OPERANDS ((size_t)-1)

struct command_spec {
	const char *name;          /* "gate", "gate time": errors say "see NAME --help" */
	const char *synopsis;      /* --help's first line, "usage: gate time [options]" */
	const char *about;         /* the paragraph after it, or NULL */
	const struct opt *const *opts; /* in --help's order, NULL-terminated */
	const char *epilogue;      /* after the options (exit codes), or NULL */
	size_t operands;           /* how many arguments it takes after the options: 0, 1, ... or
				    * OPT_ANY_OPERANDS */
	/* Options parsed but refused here, with why ("'%s' measures; ..."): NULL-terminated, or
	 * NULL. */
	const struct opt *const *refused;
	const char *refused_reason; /* why, after the option as it was typed */
	const struct opt_note *notes; /* NULL-terminated, or NULL */
};

/* Parses argv (argv[0] the command's name) with the spec's options; the arguments after them
 * go to *operands (pointing into argv; an owned array, NULL when none), as many as the spec
 * takes; one more is an error. Errors name the option as it was typed:
 * "unknown option '--x' (see gate time --help)", "option '--messages' needs a value". */
int opt_parse(const struct command_spec *spec, const struct opt_context *context, int argc,
	      char **argv, char ***operands, size_t *operand_count, struct gate_error *err);

/* The --help text, made from the spec: synopsis, about, one entry per option, epilogue. */
void opt_usage(FILE *out, const struct command_spec *spec);

/* A whole number from low to high, checked whole ("10k", "-1" and overflow are errors naming the
 * option). */
int opt_parse_unsigned(const char *text, uint64_t low, uint64_t high, const char *option,
		       uint64_t *value, struct gate_error *err);

/* Appends to a growing array of argv strings (--scenario patterns, input files). */
int opt_append(char ***array, size_t *count, char *item, struct gate_error *err);

/* Frees what the spec's options made the command's own options `own` own: each OPT_COPY field
 * and each OPT_LIST array (not the argv strings in it), left NULL and empty. */
void opt_release(const struct command_spec *spec, void *own);

#endif
