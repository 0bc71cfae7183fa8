/* Unit tests of gate's command line: the defaults, every value and combination that must be
 * refused (with the option named), and that one parse leaves nothing behind for the next. */
#define _GNU_SOURCE
#include "check.h"
#include "options.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ARGC(argv) ((int)(sizeof(argv) / sizeof((argv)[0])) - 1)

/* The options of argv, which must parse. */
static struct gate_options parsed(int argc, char **argv)
{
	struct gate_options options;
	struct gate_error err = GATE_ERROR_INIT;

	CHECK(options_parse(&options, argc, argv, &err) == 0);
	CHECK_STR(err.message, "");
	return options;
}

/* A command line that is refused: its arguments after "gate", and what the message holds. */
struct refused {
	const char *name;
	const char *arguments[6];
	const char *needle, *value; /* value: a second part of the message, or NULL */
};

static const struct refused refusals[] = {
	{ "options_should_refuse_zero_messages", { "--messages", "0" }, "--messages", "'0'" },
	{ "options_should_refuse_one_message", { "--messages", "1" }, "--messages", "'1'" },
	{ "options_should_refuse_a_negative_message_count", { "--messages", "-5" }, "--messages",
	  "'-5'" },
	/* strtoull reads this as 2^64 - 18446744073709551614 = 2 jobs: the sign must be refused first. */
	{ "options_should_refuse_a_negative_job_count_that_wraps_around", { "--jobs",
	  "-18446744073709551614" }, "--jobs", "'-18446744073709551614'" },
	{ "options_should_refuse_a_message_count_with_a_plus", { "--messages", "+5" }, "--messages",
	  "'+5'" },
	{ "options_should_refuse_a_message_count_with_a_space", { "--messages", " 5" }, "--messages",
	  "' 5'" },
	{ "options_should_refuse_a_message_count_that_is_a_word", { "--messages", "abc" },
	  "--messages", "'abc'" },
	{ "options_should_refuse_a_message_count_with_a_suffix", { "--messages", "10k" },
	  "--messages", "'10k'" },
	{ "options_should_refuse_an_empty_message_count", { "--messages=" }, "--messages", NULL },
	{ "options_should_refuse_a_message_count_beyond_uint64", { "--messages",
	  "99999999999999999999" }, "--messages", "'99999999999999999999'" },
	{ "options_should_refuse_a_message_count_beyond_the_range", { "-n", "50000001" },
	  "--messages", "'50000001'" },
	{ "options_should_refuse_zero_jobs", { "--jobs", "0" }, "--jobs", "'0'" },
	{ "options_should_refuse_a_zero_timeout", { "--timeout", "0" }, "--timeout", "'0'" },
	{ "options_should_refuse_a_fractional_timeout", { "--timeout", "1.5" }, "--timeout",
	  "'1.5'" },
	{ "options_should_refuse_an_unknown_long_option", { "--bogus" }, "unknown option",
	  "'--bogus'" },
	{ "options_should_refuse_an_unknown_short_option", { "-x" }, "unknown option", "'-x'" },
	{ "options_should_refuse_an_option_without_its_value", { "--messages" }, "needs a value",
	  "'--messages'" },
	{ "options_should_refuse_an_extra_argument", { "--messages", "100", "consume_json" },
	  "unexpected argument", "'consume_json'" },
	{ "options_should_refuse_a_baseline_ref_and_file_together", { "--baseline", "main",
	  "--baseline-file", "b.json" }, "--baseline", "--baseline-file" },
	{ "options_should_refuse_an_empty_baseline_ref", { "--baseline=" }, "--baseline", NULL },
	{ "options_should_refuse_a_baseline_name_out_of_the_branches", { "--save-baseline",
	  "../main" }, "--save-baseline", "'../main'" },
	{ "options_should_refuse_a_baseline_name_with_a_parent_inside", { "--save-baseline",
	  "a/../b" }, "--save-baseline", "'a/../b'" },
	{ "options_should_refuse_a_hidden_baseline_name", { "--save-baseline", ".hidden" },
	  "--save-baseline", "'.hidden'" },
	{ "options_should_refuse_an_empty_baseline_name", { "--save-baseline=" }, "--save-baseline",
	  NULL },
	{ "options_should_refuse_a_qualified_baseline_name_to_save", { "--save-baseline",
	  "refs/heads/main" }, "--save-baseline", "'refs/heads/main'" },
	{ "options_should_refuse_a_revision_for_a_baseline", { "--baseline", "main~1" }, "--baseline",
	  "'main~1'" },
	{ "options_should_refuse_a_tag_for_a_baseline", { "--baseline", "refs/tags/v1" }, "--baseline",
	  "a tag is never a baseline" },
	{ "options_should_refuse_exact_without_a_baseline", { "--exact" }, "--exact", NULL },
	{ "options_should_refuse_a_base_commit_without_a_baseline_name", { "--base-commit",
	  "0123456789abcdef0123456789abcdef01234567" }, "--base-commit needs --baseline NAME", NULL },
};

/* Parses "gate" and the row's arguments (a copy: getopt may reorder them), which fails with a
 * message that holds the row's needle and value. */
static void check_refused(const struct refused *row)
{
	char *argv[8] = { "gate" };
	struct gate_options options;
	struct gate_error err = GATE_ERROR_INIT;
	int argc = 1;

	while (argc < 7 && row->arguments[argc - 1] != NULL) {
		argv[argc] = (char *)row->arguments[argc - 1];
		argc++;
	}
	CHECK(options_parse(&options, argc, argv, &err) == -1);
	CHECK_CONTAINS(err.message, row->needle);
	if (row->value != NULL)
		CHECK_CONTAINS(err.message, row->value);
	options_release(&options);
}

static void options_should_refuse_what_it_cannot_take_naming_the_option(void)
{
	RUN_ROWS(check_refused, refusals);
}

static void options_should_default_to_1000_messages_and_the_build_directory(void)
{
	char *argv[] = { "gate", NULL };
	struct gate_options options = parsed(ARGC(argv), argv);

	CHECK_U64(options.messages, 1000);
	CHECK_STR(options.build_dir, "build");
	CHECK_STR(options.json_path, "build/gate/results.json");
	CHECK_STR(options.raw_dir, "build/gate/raw");
	CHECK(options.timeout_seconds == 600);
	CHECK(options.jobs >= 1);
	CHECK_U64(options.scenario_count, 0);
	CHECK(options.baseline_ref == NULL);
	CHECK(options.baseline_file == NULL);
	CHECK(!options.baseline_optional);
	CHECK(options.save_baseline == NULL);
	CHECK(options.accepted_path == NULL);
	CHECK(options.verbosity == 1);
	CHECK(!options.help);
	CHECK(!options.version);
	options_release(&options);
	CHECK(options.json_path == NULL && options.raw_dir == NULL && options.scenarios == NULL);
}

static void options_should_read_every_option(void)
{
	char *argv[] = { "gate", "--messages", "2000", "-s", "consume_*", "--scenario", "reply",
			 "-j", "3", "--timeout", "30", "--build-dir", "out", "--baseline", "main",
			 "--baseline-optional", "--accepted", "acc.json", "-v", NULL };
	struct gate_options options = parsed(ARGC(argv), argv);

	CHECK_U64(options.messages, 2000);
	CHECK_U64(options.scenario_count, 2);
	if (options.scenario_count == 2) {
		CHECK_STR(options.scenarios[0], "consume_*");
		CHECK_STR(options.scenarios[1], "reply");
	}
	CHECK(options.jobs == 3);
	CHECK(options.timeout_seconds == 30);
	CHECK_STR(options.build_dir, "out");
	CHECK_STR(options.json_path, "out/gate/results.json");
	CHECK_STR(options.raw_dir, "out/gate/raw");
	CHECK_STR(options.baseline_ref, "main");
	CHECK(options.baseline_optional);
	CHECK_STR(options.accepted_path, "acc.json");
	CHECK(options.verbosity == 2);
	options_release(&options);
}

static void options_should_take_the_json_and_raw_paths_given(void)
{
	char *argv[] = { "gate", "--json=r.json", "--raw-dir", "raw", "-n", "2", "-q",
			 "--baseline-file", "b.json", "--save-baseline", "nightly", NULL };
	struct gate_options options = parsed(ARGC(argv), argv);

	CHECK_STR(options.json_path, "r.json");
	CHECK_STR(options.raw_dir, "raw");
	CHECK_U64(options.messages, 2);
	CHECK(options.verbosity == 0);
	CHECK_STR(options.baseline_file, "b.json");
	CHECK_STR(options.save_baseline, "nightly");
	options_release(&options);
}

static void options_should_read_help_and_version(void)
{
	char *argv[] = { "gate", "-h", "--version", NULL };
	struct gate_options options = parsed(ARGC(argv), argv);

	CHECK(options.help);
	CHECK(options.version);
	options_release(&options);
}

/* Named as typed or by its long name: either says which option. */
static void options_should_refuse_a_short_option_without_its_value(void)
{
	char *short_option[] = { "gate", "-j", NULL };
	struct gate_options options;
	struct gate_error err = GATE_ERROR_INIT;

	CHECK(options_parse(&options, ARGC(short_option), short_option, &err) == -1);
	CHECK_CONTAINS(err.message, "needs a value");
	CHECK(strstr(err.message, "'-j'") != NULL || strstr(err.message, "'--jobs'") != NULL);
	options_release(&options);
}

static void options_should_take_any_branch_name(void)
{
	char *save[] = { "gate", "--save-baseline", "release/2.x", NULL };
	char *read[] = { "gate", "--baseline=master", NULL };
	char *qualified[] = { "gate", "--baseline", "refs/remotes/upstream/trunk", NULL };
	struct gate_options options = parsed(ARGC(save), save);

	CHECK_STR(options.save_baseline, "release/2.x");
	options_release(&options);
	options = parsed(ARGC(read), read);
	CHECK_STR(options.baseline_ref, "master");
	options_release(&options);
	options = parsed(ARGC(qualified), qualified);
	CHECK_STR(options.baseline_ref, "refs/remotes/upstream/trunk");
	options_release(&options);
}

static void options_should_read_a_shard(void)
{
	char *argv[] = { "gate", "--shard", "2/3", NULL };
	struct gate_options options = parsed(ARGC(argv), argv);

	CHECK(options.shard_index == 2);
	CHECK(options.shard_count == 3);
	options_release(&options);
	options = parsed(1, argv);
	CHECK(options.shard_index == 0 && options.shard_count == 0);
	options_release(&options);
}

static void options_should_refuse_a_shard_that_is_not_k_of_m(void)
{
	static const char *const bad[] = { "0/3", "4/3", "1/65", "1/2x", "a/b", "3", "-1/2", "" };
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct refused row = { "a shard", { "--shard", bad[i] }, "--shard", NULL };
		char quoted[32];

		snprintf(quoted, sizeof(quoted), "'%s'", bad[i]);
		row.value = quoted;
		check_refused(&row);
	}
}

/* argv[optind - 1] names the option only when it ends its argument: for "-xv" getopt has not
 * moved optind yet, and argv[optind - 1] is argv[0] ("unknown option 'gate'"). */
static void options_should_name_an_unknown_option_at_the_start_of_a_group(void)
{
	static const struct refused group = { "a group", { "-xv" }, "unknown option", "-x" };

	check_refused(&group);
}

static void options_should_take_exact_with_a_baseline(void)
{
	char *with_baseline[] = { "gate", "--exact", "--baseline", "main", NULL };
	struct gate_options options = parsed(ARGC(with_baseline), with_baseline);

	CHECK(options.exact);
	options_release(&options);
}

static void options_should_parse_afresh_after_an_earlier_parse(void)
{
	char *first[] = { "gate", "-n", "5", "-v", "--json", "x.json", NULL };
	char *second[] = { "gate", NULL };
	struct gate_options options = parsed(ARGC(first), first);

	options_release(&options);
	options = parsed(ARGC(second), second);
	CHECK_U64(options.messages, 1000);
	CHECK(options.verbosity == 1);
	CHECK_STR(options.json_path, "build/gate/results.json");
	options_release(&options);
}

/* Regression: optind = 1 does not reset glibc's getopt inside a group of short options (only
 * optind = 0 does). After "-xv" failed at 'x', a next parse went on with the 'v' left over from
 * the old argv and turned verbose on. */
static void options_should_parse_afresh_after_an_error_inside_a_group_of_short_options(void)
{
	char *first[] = { "gate", "-xv", NULL };
	char *second[] = { "gate", "-n", "7", NULL };
	struct gate_options options;
	struct gate_error err = GATE_ERROR_INIT;

	CHECK(options_parse(&options, ARGC(first), first, &err) == -1);
	options_release(&options);
	options = parsed(ARGC(second), second);
	CHECK_U64(options.messages, 7);
	CHECK(options.verbosity == 1);
	options_release(&options);
}

static void options_should_take_a_base_commit_with_a_baseline_name(void)
{
	char *with[] = { "gate", "--baseline", "main", "--base-commit",
			 "0123456789abcdef0123456789abcdef01234567", NULL };
	struct gate_options options = parsed(ARGC(with), with);

	CHECK_STR(options.base_commit, "0123456789abcdef0123456789abcdef01234567");
	options_release(&options);
}

static void options_usage_should_list_the_options_and_exit_codes(void)
{
	struct printed printed;
	char *text;

	options_usage(print_to(&printed), NULL);
	text = printed_text(&printed);
	CHECK_CONTAINS(text, "usage: gate");
	CHECK_CONTAINS(text, "--messages N");
	CHECK_CONTAINS(text, "--baseline NAME");
	CHECK_CONTAINS(text, "--base-commit SHA");
	CHECK_CONTAINS(text, "--save-baseline NAME");
	CHECK_CONTAINS(text, "  4  no comparable baseline");
	free(text);
}

int main(void)
{
	return RUN_CASES(options_should_default_to_1000_messages_and_the_build_directory,
			 options_should_read_every_option,
			 options_should_take_the_json_and_raw_paths_given,
			 options_should_read_help_and_version,
			 options_should_refuse_what_it_cannot_take_naming_the_option,
			 options_should_refuse_a_short_option_without_its_value,
			 options_should_take_any_branch_name,
			 options_should_read_a_shard,
			 options_should_refuse_a_shard_that_is_not_k_of_m,
			 options_should_take_exact_with_a_baseline,
			 options_should_parse_afresh_after_an_earlier_parse,
			 options_should_take_a_base_commit_with_a_baseline_name,
			 options_usage_should_list_the_options_and_exit_codes,
			 /* Last: both leave getopt inside "-xv", which upsets any parse after while
			  * the bug stands. */
			 options_should_parse_afresh_after_an_error_inside_a_group_of_short_options,
			 options_should_name_an_unknown_option_at_the_start_of_a_group);
}
