/* Unit tests of gate's command line: the defaults, every value and combination that must be
 * refused (with the option named), and that one parse leaves nothing behind for the next. */
#define _GNU_SOURCE
#include "check.h"
#include "options.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ARGC(argv) ((int)(sizeof(argv) / sizeof((argv)[0])) - 1)

/* Parses argv (NULL-terminated) expecting an error whose message contains each of `needles`. */
static void check_refused(char **argv, int argc, const char *needle, const char *value)
{
	struct gate_options options;
	struct gate_error err = GATE_ERROR_INIT;

	CHECK(options_parse(&options, argc, argv, &err) == -1);
	CHECK_CONTAINS(err.message, needle);
	if (value != NULL)
		CHECK_CONTAINS(err.message, value);
	options_release(&options);
}

static void options_should_default_to_1000_messages_and_the_build_directory(void)
{
	char *argv[] = { "gate", NULL };
	struct gate_options options;
	struct gate_error err = GATE_ERROR_INIT;

	CHECK(options_parse(&options, ARGC(argv), argv, &err) == 0);
	CHECK_STR(err.message, "");
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
	struct gate_options options;
	struct gate_error err = GATE_ERROR_INIT;

	CHECK(options_parse(&options, ARGC(argv), argv, &err) == 0);
	CHECK_STR(err.message, "");
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
	struct gate_options options;
	struct gate_error err = GATE_ERROR_INIT;

	CHECK(options_parse(&options, ARGC(argv), argv, &err) == 0);
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
	struct gate_options options;
	struct gate_error err = GATE_ERROR_INIT;

	CHECK(options_parse(&options, ARGC(argv), argv, &err) == 0);
	CHECK(options.help);
	CHECK(options.version);
	options_release(&options);
}

static void options_should_refuse_messages_below_two(void)
{
	char *zero[] = { "gate", "--messages", "0", NULL };
	char *one[] = { "gate", "--messages", "1", NULL };

	check_refused(zero, ARGC(zero), "--messages", "'0'");
	check_refused(one, ARGC(one), "--messages", "'1'");
}

static void options_should_refuse_a_negative_message_count(void)
{
	char *argv[] = { "gate", "--messages", "-5", NULL };
	/* strtoull reads this as 2^64 - 18446744073709551614 = 2 jobs: the sign must be refused first. */
	char *wrapped[] = { "gate", "--jobs", "-18446744073709551614", NULL };

	check_refused(argv, ARGC(argv), "--messages", "'-5'");
	check_refused(wrapped, ARGC(wrapped), "--jobs", "'-18446744073709551614'");
}

static void options_should_refuse_a_message_count_that_is_not_a_number(void)
{
	char *word[] = { "gate", "--messages", "abc", NULL };
	char *suffixed[] = { "gate", "--messages", "10k", NULL };
	char *empty[] = { "gate", "--messages=", NULL };
	char *plus[] = { "gate", "--messages", "+5", NULL };
	char *space[] = { "gate", "--messages", " 5", NULL };

	check_refused(plus, ARGC(plus), "--messages", "'+5'");
	check_refused(space, ARGC(space), "--messages", "' 5'");
	check_refused(word, ARGC(word), "--messages", "'abc'");
	check_refused(suffixed, ARGC(suffixed), "--messages", "'10k'");
	check_refused(empty, ARGC(empty), "--messages", NULL);
}

static void options_should_refuse_a_message_count_beyond_the_range(void)
{
	char *overflow[] = { "gate", "--messages", "99999999999999999999", NULL };
	char *large[] = { "gate", "-n", "50000001", NULL };

	check_refused(overflow, ARGC(overflow), "--messages", "'99999999999999999999'");
	check_refused(large, ARGC(large), "--messages", "'50000001'");
}

static void options_should_refuse_zero_jobs(void)
{
	char *argv[] = { "gate", "--jobs", "0", NULL };

	check_refused(argv, ARGC(argv), "--jobs", "'0'");
}

static void options_should_refuse_a_zero_timeout(void)
{
	char *argv[] = { "gate", "--timeout", "0", NULL };
	char *fraction[] = { "gate", "--timeout", "1.5", NULL };

	check_refused(argv, ARGC(argv), "--timeout", "'0'");
	check_refused(fraction, ARGC(fraction), "--timeout", "'1.5'");
}

static void options_should_refuse_an_unknown_option(void)
{
	char *long_option[] = { "gate", "--bogus", NULL };
	char *short_option[] = { "gate", "-x", NULL };

	check_refused(long_option, ARGC(long_option), "unknown option", "'--bogus'");
	check_refused(short_option, ARGC(short_option), "unknown option", "'-x'");
}

/* argv[optind - 1] names the option only when it ends its argument: for "-xv" getopt has not
 * moved optind yet, and argv[optind - 1] is argv[0] ("unknown option 'gate'"). */
static void options_should_name_an_unknown_option_at_the_start_of_a_group(void)
{
	char *argv[] = { "gate", "-xv", NULL };

	check_refused(argv, ARGC(argv), "unknown option", "-x");
}

static void options_should_refuse_an_option_without_its_value(void)
{
	char *long_option[] = { "gate", "--messages", NULL };
	char *short_option[] = { "gate", "-j", NULL };

	struct gate_options options;
	struct gate_error err = GATE_ERROR_INIT;

	check_refused(long_option, ARGC(long_option), "needs a value", "'--messages'");
	/* Named as typed or by its long name: either says which option. */
	CHECK(options_parse(&options, ARGC(short_option), short_option, &err) == -1);
	CHECK_CONTAINS(err.message, "needs a value");
	CHECK(strstr(err.message, "'-j'") != NULL || strstr(err.message, "'--jobs'") != NULL);
	options_release(&options);
}

static void options_should_refuse_an_extra_argument(void)
{
	char *argv[] = { "gate", "--messages", "100", "consume_json", NULL };

	check_refused(argv, ARGC(argv), "unexpected argument", "'consume_json'");
}

static void options_should_refuse_a_baseline_ref_and_file_together(void)
{
	char *argv[] = { "gate", "--baseline", "main", "--baseline-file", "b.json", NULL };

	check_refused(argv, ARGC(argv), "--baseline", "--baseline-file");
}

static void options_should_refuse_an_empty_baseline_ref(void)
{
	char *argv[] = { "gate", "--baseline=", NULL };

	check_refused(argv, ARGC(argv), "--baseline", NULL);
}

static void options_should_refuse_a_baseline_name_that_is_not_a_branch(void)
{
	char *slash[] = { "gate", "--save-baseline", "../main", NULL };
	char *inner[] = { "gate", "--save-baseline", "a/../b", NULL };
	char *dot[] = { "gate", "--save-baseline", ".hidden", NULL };
	char *empty[] = { "gate", "--save-baseline=", NULL };
	char *qualified[] = { "gate", "--save-baseline", "refs/heads/main", NULL };
	char *revision[] = { "gate", "--baseline", "main~1", NULL };
	char *tag[] = { "gate", "--baseline", "refs/tags/v1", NULL };

	check_refused(slash, ARGC(slash), "--save-baseline", "'../main'");
	check_refused(inner, ARGC(inner), "--save-baseline", "'a/../b'");
	check_refused(dot, ARGC(dot), "--save-baseline", "'.hidden'");
	check_refused(empty, ARGC(empty), "--save-baseline", NULL);
	check_refused(qualified, ARGC(qualified), "--save-baseline", "'refs/heads/main'");
	check_refused(revision, ARGC(revision), "--baseline", "'main~1'");
	check_refused(tag, ARGC(tag), "--baseline", "a tag is never a baseline");
}

static void options_should_take_any_branch_name(void)
{
	char *save[] = { "gate", "--save-baseline", "release/2.x", NULL };
	char *read[] = { "gate", "--baseline=master", NULL };
	char *qualified[] = { "gate", "--baseline", "refs/remotes/upstream/trunk", NULL };
	struct gate_options options;
	struct gate_error err = GATE_ERROR_INIT;

	CHECK(options_parse(&options, ARGC(save), save, &err) == 0);
	CHECK_STR(options.save_baseline, "release/2.x");
	options_release(&options);
	CHECK(options_parse(&options, ARGC(read), read, &err) == 0);
	CHECK_STR(options.baseline_ref, "master");
	options_release(&options);
	CHECK(options_parse(&options, ARGC(qualified), qualified, &err) == 0);
	CHECK_STR(options.baseline_ref, "refs/remotes/upstream/trunk");
	options_release(&options);
}

static void options_should_read_a_shard(void)
{
	char *argv[] = { "gate", "--shard", "2/3", NULL };
	struct gate_options options;
	struct gate_error err = GATE_ERROR_INIT;

	CHECK(options_parse(&options, ARGC(argv), argv, &err) == 0);
	CHECK(options.shard_index == 2);
	CHECK(options.shard_count == 3);
	options_release(&options);
	CHECK(options_parse(&options, 1, argv, &err) == 0);
	CHECK(options.shard_index == 0 && options.shard_count == 0);
	options_release(&options);
}

static void options_should_refuse_a_shard_that_is_not_k_of_m(void)
{
	static const char *const bad[] = { "0/3", "4/3", "1/65", "1/2x", "a/b", "3", "-1/2", "" };
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char quoted[32];
		char *argv[] = { "gate", "--shard", (char *)bad[i], NULL };

		snprintf(quoted, sizeof(quoted), "'%s'", bad[i]);
		check_refused(argv, ARGC(argv), "--shard", quoted);
	}
}

static void options_should_refuse_exact_without_a_baseline(void)
{
	char *argv[] = { "gate", "--exact", NULL };
	char *with_baseline[] = { "gate", "--exact", "--baseline", "main", NULL };
	struct gate_options options;
	struct gate_error err = GATE_ERROR_INIT;

	check_refused(argv, ARGC(argv), "--exact", NULL);
	CHECK(options_parse(&options, ARGC(with_baseline), with_baseline, &err) == 0);
	CHECK(options.exact);
	options_release(&options);
}

static void options_should_parse_afresh_after_an_earlier_parse(void)
{
	char *first[] = { "gate", "-n", "5", "-v", "--json", "x.json", NULL };
	char *second[] = { "gate", NULL };
	struct gate_options options;
	struct gate_error err = GATE_ERROR_INIT;

	CHECK(options_parse(&options, ARGC(first), first, &err) == 0);
	options_release(&options);
	CHECK(options_parse(&options, ARGC(second), second, &err) == 0);
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
	err = (struct gate_error)GATE_ERROR_INIT;
	CHECK(options_parse(&options, ARGC(second), second, &err) == 0);
	CHECK_STR(err.message, "");
	CHECK_U64(options.messages, 7);
	CHECK(options.verbosity == 1);
	options_release(&options);
}

static void options_should_take_a_base_commit_only_with_a_baseline_name(void)
{
	char *with[] = { "gate", "--baseline", "main", "--base-commit",
			 "0123456789abcdef0123456789abcdef01234567", NULL };
	char *without[] = { "gate", "--base-commit", "0123456789abcdef0123456789abcdef01234567", NULL };
	struct gate_options options;
	struct gate_error err = GATE_ERROR_INIT;

	CHECK(options_parse(&options, 5, with, &err) == 0);
	CHECK_STR(options.base_commit, "0123456789abcdef0123456789abcdef01234567");
	options_release(&options);
	CHECK(options_parse(&options, 3, without, &err) == -1);
	CHECK_CONTAINS(err.message, "--base-commit needs --baseline NAME");
	options_release(&options);
}

static void options_usage_should_list_the_options_and_exit_codes(void)
{
	char *text = NULL;
	size_t size = 0;
	FILE *out = open_memstream(&text, &size);

	if (out == NULL)
		return;
	options_usage(out, NULL);
	fclose(out);
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
	setvbuf(stdout, NULL, _IONBF, 0); /* keep the case lines if a sanitizer aborts */
	RUN(options_should_default_to_1000_messages_and_the_build_directory);
	RUN(options_should_read_every_option);
	RUN(options_should_take_the_json_and_raw_paths_given);
	RUN(options_should_read_help_and_version);
	RUN(options_should_refuse_messages_below_two);
	RUN(options_should_refuse_a_negative_message_count);
	RUN(options_should_refuse_a_message_count_that_is_not_a_number);
	RUN(options_should_refuse_a_message_count_beyond_the_range);
	RUN(options_should_refuse_zero_jobs);
	RUN(options_should_refuse_a_zero_timeout);
	RUN(options_should_refuse_an_unknown_option);
	RUN(options_should_refuse_an_option_without_its_value);
	RUN(options_should_refuse_an_extra_argument);
	RUN(options_should_refuse_a_baseline_ref_and_file_together);
	RUN(options_should_refuse_an_empty_baseline_ref);
	RUN(options_should_refuse_a_baseline_name_that_is_not_a_branch);
	RUN(options_should_take_any_branch_name);
	RUN(options_should_read_a_shard);
	RUN(options_should_refuse_a_shard_that_is_not_k_of_m);
	RUN(options_should_refuse_exact_without_a_baseline);
	RUN(options_should_parse_afresh_after_an_earlier_parse);
	RUN(options_should_take_a_base_commit_only_with_a_baseline_name);
	RUN(options_usage_should_list_the_options_and_exit_codes);
	/* Last: both leave getopt inside "-xv", which upsets any parse after while the bug stands. */
	RUN(options_should_parse_afresh_after_an_error_inside_a_group_of_short_options);
	RUN(options_should_name_an_unknown_option_at_the_start_of_a_group);
	return CHECK_EXIT();
}
