/* Unit tests of "did you mean": the edit distance (a swap of neighbours is one edit) and which
 * known word, if any, is near enough to a mistyped one to be suggested. */
#include "check.h"
#include "suggest.h"

#include <stdint.h>
#include <string.h>

static const char *const commands[] = { "time", "profile", "report", "merge", "history", "export" };
static const char *const options[] = { "messages", "scenario", "baseline", "baseline-file",
				       "base-commit", "save-baseline", "json", "jobs" };
static const char *const scenarios[] = { "batch", "consume_json", "consume_json_kilobyte",
					 "consume_raw", "decode_only", "reply" };

#define COUNT(array) (sizeof(array) / sizeof(array[0]))

static void distance_should_count_insertions_deletions_replacements_and_swaps(void)
{
	CHECK_U64(suggest_distance("", ""), 0);
	CHECK_U64(suggest_distance("time", "time"), 0);
	CHECK_U64(suggest_distance("mesages", "messages"), 1);
	CHECK_U64(suggest_distance("messagess", "messages"), 1);
	CHECK_U64(suggest_distance("masages", "messages"), 2);
	CHECK_U64(suggest_distance("tiem", "time"), 1);
	CHECK_U64(suggest_distance("", "abc"), 3);
	CHECK_U64(suggest_distance("kitten", "sitting"), 3);
}

static void distance_should_refuse_words_longer_than_it_reads(void)
{
	char long_word[200];

	memset(long_word, 'a', sizeof(long_word) - 1);
	long_word[sizeof(long_word) - 1] = '\0';
	CHECK(suggest_distance(long_word, "a") == SIZE_MAX);
}

static void nearest_should_suggest_the_word_meant(void)
{
	CHECK_STR(suggest_nearest("tiem", commands, COUNT(commands)), "time");
	CHECK_STR(suggest_nearest("mrege", commands, COUNT(commands)), "merge");
	CHECK_STR(suggest_nearest("mesages", options, COUNT(options)), "messages");
	CHECK_STR(suggest_nearest("scenarios", options, COUNT(options)), "scenario");
	CHECK_STR(suggest_nearest("consume_jsn", scenarios, COUNT(scenarios)), "consume_json");
	CHECK_STR(suggest_nearest("baseline-fiel", options, COUNT(options)), "baseline-file");
}

static void nearest_should_suggest_nothing_far_or_too_short(void)
{
	CHECK(suggest_nearest("x", commands, COUNT(commands)) == NULL);
	CHECK(suggest_nearest("tm", commands, COUNT(commands)) == NULL);
	CHECK(suggest_nearest("compile", commands, COUNT(commands)) == NULL);
	CHECK(suggest_nearest("verbosely", options, COUNT(options)) == NULL);
	CHECK(suggest_nearest("time", commands, 0) == NULL);
}

static void nearest_should_skip_the_word_itself_and_null_candidates(void)
{
	const char *const with_null[] = { NULL, "time", "tame" };

	CHECK(suggest_nearest("time", commands, COUNT(commands)) == NULL);
	CHECK_STR(suggest_nearest("tiem", with_null, COUNT(with_null)), "time");
}

int main(void)
{
	RUN(distance_should_count_insertions_deletions_replacements_and_swaps);
	RUN(distance_should_refuse_words_longer_than_it_reads);
	RUN(nearest_should_suggest_the_word_meant);
	RUN(nearest_should_suggest_nothing_far_or_too_short);
	RUN(nearest_should_skip_the_word_itself_and_null_candidates);
	return CHECK_EXIT();
}
