/* The option layer: one definition per option drives the parser and the --help text. */
#define _GNU_SOURCE
#include <stdlib.h>

#include "check.h"
#include "optlayer.h"

struct toy {
	const char *name;
	const char *text;
	char *copy;
	char **items;
	size_t item_count;
	unsigned small;
	uint64_t count;
	double seconds;
	bool flag;
	const char *build_dir;
	double timeout;
	bool timeout_given;
	unsigned jobs;
	int verbosity;
	bool help;
};

#define TOY(context) ((struct toy *)(context)->own)

static int apply_name(const struct opt_context *c, const char *value, struct gate_error *err)
{
	(void)err;
	TOY(c)->name = value;
	return 0;
}

static const struct opt opt_name = { "name", 'N', "NAME", "a name", OPT_CALLS(apply_name) };
static const struct opt opt_count = { "count", 0, "C", "a count from 1 to 10,\nchecked whole",
				      OPT_UNSIGNED_FIELD(struct toy, count, 1, 10) };
static const struct opt opt_flag = { "a-rather-long-flag-name", 0, NULL, "a flag",
				     OPT_FLAG_FIELD(struct toy, flag) };

static const struct opt *const toy_opts[] = { &opt_name, &opt_count, &opt_flag, &opt_build_dir,
					      &opt_timeout, &opt_jobs, &opt_verbose, &opt_help, NULL };
static const struct opt *const toy_refused[] = { &opt_quiet, NULL };
static const struct opt_note toy_notes[] = { { &opt_build_dir, "the toy's build" }, { NULL, NULL } };

static const struct command_spec toy_spec = {
	"gate toy", "usage: gate toy [options] FILE...", "Plays.\n", toy_opts, "Exit codes: none.\n",
	OPT_ANY_OPERANDS, toy_refused, "is refused here", toy_notes,
};

static int parse(struct toy *toy, char **argv, char ***operands, size_t *operand_count,
		 struct gate_error *err)
{
	static struct common_targets common;
	struct opt_context context = { toy, &common };
	int argc = 0;

	while (argv[argc] != NULL)
		argc++;
	*toy = (struct toy){ .build_dir = "build", .verbosity = 1 };
	common = (struct common_targets){ &toy->build_dir, &toy->timeout, &toy->timeout_given,
					  &toy->jobs, &toy->verbosity, &toy->help, NULL };
	*err = (struct gate_error)GATE_ERROR_INIT;
	return opt_parse(&toy_spec, &context, argc, argv, operands, operand_count, err);
}

static void opt_parse_should_apply_own_and_shared_options_in_every_spelling(void)
{
	char *argv[] = { "toy", "-N", "x", "--count=7", "--a-rather-long-flag-name", "--build-dir",
			 "b", "--timeout", "30", "-j2", "-v", "one", "two", NULL };
	struct gate_error err;
	struct toy toy;
	char **operands = NULL;
	size_t operand_count = 0;

	CHECK(parse(&toy, argv, &operands, &operand_count, &err) == 0);
	CHECK_STR(err.message, "");
	CHECK_STR(toy.name, "x");
	CHECK_U64(toy.count, 7);
	CHECK(toy.flag);
	CHECK_STR(toy.build_dir, "b");
	CHECK(toy.timeout == 30 && toy.timeout_given);
	CHECK_U64(toy.jobs, 2);
	CHECK(toy.verbosity == 2);
	CHECK_U64(operand_count, 2);
	if (operand_count == 2) {
		CHECK_STR(operands[0], "one");
		CHECK_STR(operands[1], "two");
	}
	free(operands);
}

static void check_error(char **argv, const char *expected)
{
	struct gate_error err;
	struct toy toy;
	char **operands = NULL;
	size_t operand_count = 0;

	CHECK(parse(&toy, argv, &operands, &operand_count, &err) == -1);
	CHECK_STR(err.message, expected);
	free(operands);
}

static void opt_parse_should_name_the_option_as_it_was_typed(void)
{
	char *unknown_long[] = { "toy", "--nope", NULL };
	char *unknown_short[] = { "toy", "-x", NULL };
	char *missing_long[] = { "toy", "--count", NULL };
	char *missing_short[] = { "toy", "-N", NULL };
	char *bad_value[] = { "toy", "--count", "11", NULL };
	char *refused[] = { "toy", "--quiet", NULL };
	char *refused_short[] = { "toy", "-q", NULL };
	char *bad_jobs[] = { "toy", "--jobs", "0", NULL };

	check_error(unknown_long, "unknown option '--nope' (see gate toy --help)");
	check_error(unknown_short, "unknown option '-x' (see gate toy --help)");
	check_error(missing_long, "option '--count' needs a value");
	check_error(missing_short, "option '-N' needs a value");
	check_error(bad_value, "--count must be an integer from 1 to 10, not '11'");
	check_error(refused, "'--quiet' is refused here");
	check_error(refused_short, "'-q' is refused here");
	check_error(bad_jobs, "--jobs must be an integer from 1 to 256, not '0'");
}

static void opt_parse_should_refuse_operands_when_the_command_takes_none(void)
{
	static const struct command_spec bare = { "gate bare", "usage: gate bare", NULL, toy_opts,
						  NULL, 0, NULL, NULL, NULL };
	static struct common_targets common;
	char *argv[] = { "bare", "stray", NULL };
	struct gate_error err = GATE_ERROR_INIT;
	struct toy toy = { 0 };
	struct opt_context context = { &toy, &common };

	CHECK(opt_parse(&bare, &context, 2, argv, NULL, NULL, &err) == -1);
	CHECK_STR(err.message, "unexpected argument 'stray' (see gate bare --help)");
}

/* Each kind of typed option writes its own kind of field: the value itself, an owned copy that a
 * repeat replaces, a list in order, a 4-byte unsigned within its range. */
static void typed_options_should_store_each_kind_in_its_field(void)
{
	static const struct opt opt_text = { "text", 't', "T", "text", OPT_TEXT_FIELD(struct toy, text) };
	static const struct opt opt_copy = { "copy", 0, "C", "copied", OPT_COPY_FIELD(struct toy, copy) };
	static const struct opt opt_item = { "item", 'i', "I", "items",
					     OPT_LIST_FIELD(struct toy, items, item_count) };
	static const struct opt opt_small = { "small", 0, "S", "0 to 5",
					      OPT_UNSIGNED_FIELD(struct toy, small, 0, 5) };
	static const struct opt *const typed[] = { &opt_text, &opt_copy, &opt_item, &opt_small,
						   &opt_count, &opt_flag, NULL };
	static const struct command_spec spec = { "gate typed", "usage: gate typed", NULL, typed,
						  NULL, 0, NULL, NULL, NULL };
	static struct common_targets common;
	char *argv[] = { "typed", "--text", "tee", "--copy", "first", "-i", "a", "--copy=second",
			 "--item", "b", "--small", "5", "--count", "10", "--a-rather-long-flag-name",
			 NULL };
	char *too_big[] = { "typed", "--small", "6", NULL };
	struct gate_error err = GATE_ERROR_INIT;
	struct toy toy = { 0 };
	struct opt_context context = { &toy, &common };

	toy.count = 99;
	CHECK(opt_parse(&spec, &context, 15, argv, NULL, NULL, &err) == 0);
	CHECK_STR(err.message, "");
	CHECK(toy.text == argv[2]);
	CHECK_STR(toy.copy, "second");
	CHECK(toy.copy != argv[7] + 7);
	CHECK_U64(toy.item_count, 2);
	if (toy.item_count == 2) {
		CHECK_STR(toy.items[0], "a");
		CHECK_STR(toy.items[1], "b");
	}
	CHECK_U64(toy.small, 5);
	CHECK_U64(toy.count, 10);
	CHECK(toy.flag);
	CHECK(toy.name == NULL);
	CHECK(opt_parse(&spec, &context, 3, too_big, NULL, NULL, &err) == -1);
	CHECK_STR(err.message, "--small must be an integer from 0 to 5, not '6'");
	CHECK_U64(toy.small, 5);
	free(toy.copy);
	free(toy.items);
}

/* Seconds are a decimal number within a range given in milliseconds; what the options own (the
 * copies and the lists) is freed by the spec, and nothing else. */
static void seconds_should_be_checked_and_owned_fields_released(void)
{
	static const struct opt opt_copy = { "copy", 0, "C", "copied",
					     OPT_COPY_FIELD(struct toy, copy) };
	static const struct opt opt_item = { "item", 'i', "I", "items",
					     OPT_LIST_FIELD(struct toy, items, item_count) };
	static const struct opt opt_seconds = {
		"seconds", 0, "S", "0.01 to 600 s",
		OPT_SECONDS_FIELD(struct toy, seconds, 10, 600000) };
	static const struct opt *const typed[] = { &opt_copy, &opt_item, &opt_seconds, &opt_name,
						   NULL };
	static const struct command_spec spec = { "gate typed", "usage: gate typed", NULL, typed,
						  NULL, 0, NULL, NULL, NULL };
	static struct common_targets common;
	char *argv[] = { "typed", "--copy", "c", "-i", "a", "--seconds", "0.25", "-N", "n", NULL };
	char *too_short[] = { "typed", "--seconds", "0.001", NULL };
	char *signed_value[] = { "typed", "--seconds=-1", NULL };
	char *not_a_number[] = { "typed", "--seconds", "1s", NULL };
	struct gate_error err = GATE_ERROR_INIT;
	struct toy toy = { 0 };
	struct opt_context context = { &toy, &common };

	CHECK(opt_parse(&spec, &context, 9, argv, NULL, NULL, &err) == 0);
	CHECK(toy.seconds == 0.25);
	CHECK(opt_parse(&spec, &context, 3, too_short, NULL, NULL, &err) == -1);
	CHECK_STR(err.message,
		  "--seconds must be a number of seconds from 0.01 to 600, not '0.001'");
	CHECK(opt_parse(&spec, &context, 2, signed_value, NULL, NULL, &err) == -1);
	CHECK_STR(err.message, "--seconds must be a number of seconds from 0.01 to 600, not '-1'");
	CHECK(opt_parse(&spec, &context, 3, not_a_number, NULL, NULL, &err) == -1);
	CHECK_STR(err.message, "--seconds must be a number of seconds from 0.01 to 600, not '1s'");
	CHECK(toy.seconds == 0.25);
	CHECK_STR(toy.copy, "c");
	CHECK_U64(toy.item_count, 1);
	opt_release(&spec, &toy);
	CHECK(toy.copy == NULL);
	CHECK(toy.items == NULL);
	CHECK_U64(toy.item_count, 0);
	CHECK(toy.name == argv[8]);
}

static void opt_usage_should_be_made_from_the_options(void)
{
	struct printed printed;
	char *text;

	opt_usage(print_to(&printed), &toy_spec);
	text = printed_text(&printed);
	CHECK_STR(text, "usage: gate toy [options] FILE...\n"
			"Plays.\n"
			"\n"
			"  -N, --name NAME         a name\n"
			"      --count C           a count from 1 to 10,\n"
			"                          checked whole\n"
			"      --a-rather-long-flag-name  a flag\n"
			"      --build-dir DIR     the toy's build\n"
			"      --timeout SECONDS   kill every run after this long\n"
			"  -j, --jobs JOBS         valgrind runs at once (default: the number of CPUs)\n"
			"  -v, --verbose           print each command it runs\n"
			"  -h, --help              this text\n"
			"\n"
			"Exit codes: none.\n");
	free(text);
}

int main(void)
{
	return RUN_CASES(opt_parse_should_apply_own_and_shared_options_in_every_spelling,
			 opt_parse_should_name_the_option_as_it_was_typed,
			 opt_parse_should_refuse_operands_when_the_command_takes_none,
			 typed_options_should_store_each_kind_in_its_field,
			 opt_usage_should_be_made_from_the_options,
			 seconds_should_be_checked_and_owned_fields_released);
}
