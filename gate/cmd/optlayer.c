/* The option layer: getopt_long's tables and the --help text, both made from a command's list. */
#define _GNU_SOURCE
#include "optlayer.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "suggest.h"

#define HELP_COLUMN 26 /* where an option's help text starts in --help */
#define TIMEOUT_MAX 86400
#define JOBS_MAX 256
#define LONG_ONLY 256  /* getopt_long's value of the option at index i: LONG_ONLY + i */

int opt_parse_unsigned(const char *text, uint64_t low, uint64_t high, const char *option,
		       uint64_t *value, struct gate_error *err)
{
	char *end = NULL;
	unsigned long long parsed;

	errno = 0;
	if (text[0] < '0' || text[0] > '9' ||
	    ((parsed = strtoull(text, &end, 10)), errno != 0) || *end != '\0' || parsed < low ||
	    parsed > high)
		return gate_error_set(err, "%s must be an integer from %llu to %llu, not '%s'", option,
				      (unsigned long long)low, (unsigned long long)high, text);
	*value = parsed;
	return 0;
}

/* A decimal number of seconds from low_ms to high_ms milliseconds ("0.5"; "1e-1" too, but no
 * sign, "inf" or "nan"). */
static int parse_seconds(const char *text, uint64_t low_ms, uint64_t high_ms, const char *option,
			 double *seconds, struct gate_error *err)
{
	double low = (double)low_ms / 1000, high = (double)high_ms / 1000, parsed = 0;
	char *end = NULL;

	errno = 0;
	if ((text[0] >= '0' && text[0] <= '9') || text[0] == '.')
		parsed = strtod(text, &end);
	if (end == NULL || errno != 0 || *end != '\0' || !(parsed >= low) || parsed > high)
		return gate_error_set(err, "%s must be a number of seconds from %g to %g, not '%s'",
				      option, low, high, text);
	*seconds = parsed;
	return 0;
}

int opt_append(char ***array, size_t *count, char *item, struct gate_error *err)
{
	char **grown = realloc(*array, (*count + 1) * sizeof(*grown));

	if (grown == NULL)
		return gate_error_oom(err);
	*array = grown;
	grown[(*count)++] = item;
	return 0;
}

/* Where an option's value goes: a field of the command's own options, or the one a member of
 * struct common_targets points to. */
static void *opt_field(const struct opt *opt, const struct opt_context *context)
{
	if (opt->shared)
		return *(void **)(void *)((char *)(void *)context->common + opt->field);
	return (char *)context->own + opt->field;
}

/* Stores or hands on an option's value, as its kind says (optlayer.h). */
static int opt_apply(const struct opt *opt, const struct opt_context *context, const char *value,
		     struct gate_error *err)
{
	void *field = opt_field(opt, context);
	char name[64];
	uint64_t number;

	switch (opt->kind) {
	case OPT_FLAG:
		*(bool *)field = true;
		return 0;
	case OPT_TEXT:
		*(const char **)field = value;
		return 0;
	case OPT_COPY:
		free(*(char **)field);
		*(char **)field = strdup(value);
		return *(char **)field != NULL ? 0 : gate_error_oom(err);
	case OPT_UNSIGNED:
		snprintf(name, sizeof(name), "--%s", opt->name);
		if (opt_parse_unsigned(value, opt->low, opt->high, name, &number, err) != 0)
			return -1;
		if (opt->size == sizeof(uint64_t))
			*(uint64_t *)field = number;
		else
			*(unsigned *)field = (unsigned)number;
		return 0;
	case OPT_LIST:
		return opt_append((char ***)field,
				  (size_t *)(void *)((char *)context->own + opt->count), (char *)value,
				  err);
	case OPT_LEVEL:
		*(int *)field = (int)opt->low;
		return 0;
	case OPT_SECONDS:
		snprintf(name, sizeof(name), "--%s", opt->name);
		return parse_seconds(value, opt->low, opt->high, name, (double *)field, err);
	case OPT_CALL:
	default:
		return opt->apply(context, value, err);
	}
}

void opt_release(const struct command_spec *spec, void *own)
{
	size_t i;

	for (i = 0; spec->opts[i] != NULL; i++) {
		const struct opt *opt = spec->opts[i];
		char **field = (char **)(void *)((char *)own + opt->field);

		if (opt->shared || (opt->kind != OPT_COPY && opt->kind != OPT_LIST))
			continue;
		if (opt->kind == OPT_COPY) {
			free(*field);
			*field = NULL;
		} else {
			free(*(char ***)(void *)field);
			*(char ***)(void *)field = NULL;
			*(size_t *)(void *)((char *)own + opt->count) = 0;
		}
	}
}

static int apply_timeout(const struct opt_context *context, const char *value,
			 struct gate_error *err)
{
	uint64_t seconds;

	if (opt_parse_unsigned(value, 1, TIMEOUT_MAX, "--timeout", &seconds, err) != 0)
		return -1;
	*context->common->timeout_seconds = (double)seconds;
	if (context->common->timeout_given != NULL)
		*context->common->timeout_given = true;
	return 0;
}

const struct opt opt_build_dir = { "build-dir", 0, "DIR", "the build to use (default build)",
				   OPT_SHARED_FIELD(OPT_TEXT, build_dir, const char *, 0, 0) };
const struct opt opt_timeout = { "timeout", 0, "SECONDS", "kill every run after this long",
				 OPT_CALLS(apply_timeout) };
const struct opt opt_jobs = { "jobs", 'j', "JOBS",
			      "valgrind runs at once (default: the number of CPUs)",
			      OPT_SHARED_FIELD(OPT_UNSIGNED, jobs, unsigned, 1, JOBS_MAX) };
const struct opt opt_verbose = { "verbose", 'v', NULL, "print each command it runs",
				 OPT_SHARED_FIELD(OPT_LEVEL, verbosity, int, 2, 0) };
const struct opt opt_quiet = { "quiet", 'q', NULL, "no progress on stderr",
			       OPT_SHARED_FIELD(OPT_LEVEL, verbosity, int, 0, 0) };
const struct opt opt_help = { "help", 'h', NULL, "this text",
			      OPT_SHARED_FIELD(OPT_FLAG, help, bool, 0, 0) };
const struct opt opt_version = { "version", 'V', NULL, "gate's version",
				 OPT_SHARED_FIELD(OPT_FLAG, version, bool, 0, 0) };

static size_t count_opts(const struct opt *const *opts)
{
	size_t count = 0;

	while (opts != NULL && opts[count] != NULL)
		count++;
	return count;
}

/* The command's options, then the refused ones: one list for getopt_long. */
struct opt_table {
	const struct opt **all;
	size_t own_count;
	size_t count;
	struct option *longs;
	char *shorts;
};

static void table_release(struct opt_table *table)
{
	free(table->all);
	free(table->longs);
	free(table->shorts);
}

static int table_build(struct opt_table *table, const struct command_spec *spec)
{
	size_t own = count_opts(spec->opts), refused = count_opts(spec->refused), i, used = 0;

	memset(table, 0, sizeof(*table));
	table->own_count = own;
	table->count = own + refused;
	table->all = calloc(table->count + 1, sizeof(*table->all));
	table->longs = calloc(table->count + 1, sizeof(*table->longs));
	table->shorts = calloc(2 + 2 * table->count + 1, 1);
	if (table->all == NULL || table->longs == NULL || table->shorts == NULL)
		return -1;
	table->shorts[used++] = ':';
	for (i = 0; i < table->count; i++) {
		const struct opt *opt = i < own ? spec->opts[i] : spec->refused[i - own];

		table->all[i] = opt;
		table->longs[i] = (struct option){ opt->name,
						   opt->argument ? required_argument : no_argument,
						   NULL, opt->letter ? opt->letter : LONG_ONLY + (int)i };
		if (opt->letter) {
			table->shorts[used++] = opt->letter;
			if (opt->argument)
				table->shorts[used++] = ':';
		}
	}
	return 0;
}

/* The option getopt_long returned, as a table index; -1 for none. */
static long table_index(const struct opt_table *table, int value)
{
	size_t i;

	if (value >= LONG_ONLY)
		return value - LONG_ONLY < (int)table->count ? value - LONG_ONLY : -1;
	for (i = 0; i < table->count; i++)
		if (table->all[i]->letter == value)
			return (long)i;
	return -1;
}

/* The option as it was typed, for the one getopt_long just returned: "--messages" for
 * "--messages=5" or "--messages 5", "-n" for "-n 5" or "-n5". */
static const char *typed_option(const struct opt_table *table, int value, char **argv)
{
	static char text[64];
	const char *word = argv[optind - 1];
	long index;

	if (optarg != NULL && optarg == argv[optind - 1] && optind >= 2)
		word = argv[optind - 2];
	if (strncmp(word, "--", 2) == 0) {
		snprintf(text, sizeof(text), "%.*s", (int)strcspn(word, "="), word);
		return text;
	}
	if (value > 0 && value < LONG_ONLY) {
		snprintf(text, sizeof(text), "-%c", value);
		return text;
	}
	index = table_index(table, value);
	snprintf(text, sizeof(text), "--%s", index >= 0 ? table->all[index]->name : "?");
	return text;
}

/* An unknown long option, with the command's own option nearest to it when one is:
 * "unknown option '--mesages': did you mean '--messages'? (see gate --help)". */
static int unknown_long_option(const struct opt_table *table, const struct command_spec *spec,
			       const char *typed, struct gate_error *err)
{
	const char *names[128];
	char word[130];
	const char *nearest = NULL;
	size_t i, count = 0;

	if (strncmp(typed, "--", 2) == 0) {
		snprintf(word, sizeof(word), "%.*s", (int)strcspn(typed + 2, "="), typed + 2);
		for (i = 0; i < table->own_count && count < sizeof(names) / sizeof(names[0]); i++)
			names[count++] = table->all[i]->name;
		nearest = suggest_nearest(word, names, count);
	}
	if (nearest != NULL)
		return gate_error_set(err, "unknown option '%s': did you mean '--%s'? (see %s --help)",
				      typed, nearest, spec->name);
	return gate_error_set(err, "unknown option '%s' (see %s --help)", typed, spec->name);
}

int opt_parse(const struct command_spec *spec, const struct opt_context *context, int argc,
	      char **argv, char ***operands, size_t *operand_count, struct gate_error *err)
{
	struct opt_table table;
	size_t none = 0;
	int value, status = -1;

	if (operand_count == NULL)
		operand_count = &none;

	if (table_build(&table, spec) != 0) {
		table_release(&table);
		return gate_error_oom(err);
	}
	opterr = 0;
	optind = 0; /* 0, not 1: glibc then also forgets a half-read group of short options */
	while ((value = getopt_long(argc, argv, table.shorts, table.longs, NULL)) != -1) {
		long index = table_index(&table, value);

		if (value == '?' && optopt != 0 && optopt < LONG_ONLY) {
			gate_error_set(err, "unknown option '-%c' (see %s --help)", optopt, spec->name);
			goto out;
		}
		if (value == '?') {
			unknown_long_option(&table, spec, argv[optind - 1], err);
			goto out;
		}
		if (value == ':') {
			gate_error_set(err, "option '%s' needs a value",
				       typed_option(&table, optopt, argv));
			goto out;
		}
		if (index < 0) {
			gate_error_set(err, "unknown option (see %s --help)", spec->name);
			goto out;
		}
		if ((size_t)index >= table.own_count) {
			gate_error_set(err, "'%s' %s", typed_option(&table, value, argv),
				       spec->refused_reason);
			goto out;
		}
		if (opt_apply(table.all[index], context, optarg, err) != 0)
			goto out;
	}
	for (; optind < argc; optind++) {
		if (*operand_count >= spec->operands) {
			gate_error_set(err, "unexpected argument '%s' (see %s --help)", argv[optind],
				       spec->name);
			goto out;
		}
		if (opt_append(operands, operand_count, argv[optind], err) != 0)
			goto out;
	}
	status = 0;
out:
	table_release(&table);
	return status;
}

void opt_usage(FILE *out, const struct command_spec *spec)
{
	size_t i;

	fprintf(out, "%s\n", spec->synopsis);
	if (spec->about != NULL)
		fprintf(out, "%s", spec->about);
	fputc('\n', out);
	for (i = 0; spec->opts[i] != NULL; i++) {
		const struct opt *opt = spec->opts[i];
		const char *help = opt->help;
		char left[80];
		int length;
		size_t note;

		for (note = 0; spec->notes != NULL && spec->notes[note].opt != NULL; note++)
			if (spec->notes[note].opt == opt)
				help = spec->notes[note].help;
		length = snprintf(left, sizeof(left), "  %c%c%c --%s%s%s", opt->letter ? '-' : ' ',
				  opt->letter ? opt->letter : ' ', opt->letter ? ',' : ' ', opt->name,
				  opt->argument ? " " : "", opt->argument ? opt->argument : "");
		fputs(left, out);
		fprintf(out, "%*s", length < HELP_COLUMN ? HELP_COLUMN - length : 2, "");
		while (*help != '\0') {
			size_t line = strcspn(help, "\n");

			fprintf(out, "%.*s\n", (int)line, help);
			help += line;
			if (*help == '\n') {
				help++;
				fprintf(out, "%*s", HELP_COLUMN, "");
			}
		}
	}
	if (spec->epilogue != NULL)
		fprintf(out, "\n%s", spec->epilogue);
}
