/* Unit tests of the wall-clock arithmetic (best, median, worst; the overhead from the best rounds;
 * the verdict rule) and of the `scenarios` section: its schema 3 layout, and a results file that
 * keeps what the other command wrote. */
#define _GNU_SOURCE
#include "check.h"
#include "json_at.h"
#include "results.h"
#include "wallclock.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static bool near(double value, double expected)
{
	return fabs(value - expected) < 1e-9;
}

/* Rounds' rates, and the summary of them. */
struct summary_case {
	const char *name;
	double rates[4];
	size_t count;
	double best, median, worst;
};

static const struct summary_case summary_cases[] = {
	{ "summary_should_take_the_fastest_round_as_best_and_the_slowest_as_worst",
	  { 900, 1000, 800 }, 3, 1000, 900, 800 },
	{ "summary_should_average_the_two_middle_rounds_of_an_even_count", { 400, 100, 300, 200 }, 4,
	  400, 250, 100 },
};

static void check_summary(const struct summary_case *row)
{
	struct wall_summary summary;

	wall_summarize(&summary, row->rates, row->count);
	CHECK(summary.best == row->best);
	CHECK(summary.median == row->median);
	CHECK(summary.worst == row->worst);
}

static void summary_should_give_the_best_median_and_worst_rounds(void)
{
	RUN_ROWS(check_summary, summary_cases);
}

static void slowdown_should_be_the_extra_time_per_message_in_percent(void)
{
	/* 1000 msg/s is 1 ms a message; 800 msg/s is 1.25 ms: 25 % more time. */
	CHECK(near(wall_slowdown_percent(1000, 800), 25.0));
	CHECK(near(wall_slowdown_percent(1000, 1250), -20.0));
	CHECK(wall_slowdown_percent(1000, 1000) == 0.0);
	CHECK(wall_slowdown_percent(1000, 0) == 0.0);
}

/* The rounds of a raw loop and a harness loop, and their comparison: the overhead of the best
 * rounds and of the medians, the larger of the two spreads (best over worst), and the verdict. */
struct comparison_case {
	const char *name;
	double raw[3], framework[3];
	size_t rounds;
	double overhead, median_overhead, spread;
	bool indistinguishable;
};

static const struct comparison_case comparison_cases[] = {
	/* The harness's own spread, 900 to 500, is the larger: 80 %. */
	{ "overhead_should_come_from_the_best_rounds", { 1000, 990, 980 }, { 900, 500, 880 }, 3,
	  (1000.0 / 900 - 1) * 100, (990.0 / 880 - 1) * 100, 80.0, true },
	/* Overhead 2.04 %, raw spread 11.1 %. */
	{ "difference_inside_the_spread_should_be_indistinguishable", { 1000, 950, 900 },
	  { 980, 960, 940 }, 3, (1000.0 / 980 - 1) * 100, (950.0 / 960 - 1) * 100,
	  (1000.0 / 900 - 1) * 100, true },
	{ "difference_beyond_the_spread_should_be_measured", { 1000, 999, 998 }, { 900, 899, 898 }, 3,
	  (1000.0 / 900 - 1) * 100, (999.0 / 899 - 1) * 100, (900.0 / 898 - 1) * 100, false },
	/* Overhead 25 % exactly, spread 25 % exactly: not smaller, so measured. */
	{ "difference_equal_to_the_spread_should_be_measured", { 1000, 1000, 800 }, { 800, 800, 800 },
	  3, 25.0, 25.0, 25.0, false },
	{ "harness_faster_than_raw_beyond_the_spread_should_be_measured_negative", { 1000, 1000 },
	  { 1200, 1200 }, 2, (1000.0 / 1200 - 1) * 100, (1000.0 / 1200 - 1) * 100, 0.0, false },
};

static void check_comparison(const struct comparison_case *row)
{
	struct wall_comparison comparison;

	wall_compare(&comparison, row->raw, row->framework, row->rounds);
	CHECK(near(comparison.overhead_percent, row->overhead));
	CHECK(near(comparison.median_overhead_percent, row->median_overhead));
	CHECK(near(comparison.spread_percent, row->spread));
	CHECK(comparison.indistinguishable == row->indistinguishable);
	CHECK_STR(wall_verdict_name(comparison.indistinguishable),
		  row->indistinguishable ? "indistinguishable" : "measured");
}

static void comparison_should_hold_the_overhead_to_the_spread(void)
{
	RUN_ROWS(check_comparison, comparison_cases);
}

static struct wall_pair sample_pair(void)
{
	static double raw[] = { 1000, 990, 980, 1010 }, framework[] = { 950, 940, 900, 960 };
	struct wall_pair pair = { .name = "consume_json", .raw_name = "decode_only",
				  .title = "consume, decode", .messages = 5000, .loops = 2,
				  .rounds = 2, .round_seconds = 0.5, .raw_rates = raw,
				  .framework_rates = framework };

	return pair;
}

static void pair_entry_should_have_the_schema_3_keys(void)
{
	struct wall_pair pair = sample_pair();
	cJSON *entry = results_scenario_entry(&pair);

	CHECK(entry != NULL);
	CHECK_STR(json_string_at(entry, "name"), "consume_json");
	CHECK_STR(json_string_at(entry, "unit"), "msg/s");
	CHECK(json_number_at(entry, "messages") == 5000);
	CHECK(json_number_at(entry, "pairs") == 4);
	CHECK(json_number_at(entry, "raw.best") == 1010 && json_number_at(entry, "raw.median") == 995 &&
	      json_number_at(entry, "raw.worst") == 980);
	CHECK(json_number_at(entry, "framework.best") == 960 &&
	      json_number_at(entry, "framework.worst") == 900);
	CHECK(json_number_at(entry, "overhead_percent") == 5.21); /* 1010 / 960 - 1, two decimals */
	CHECK_STR(json_string_at(entry, "verdict"), "indistinguishable");
	CHECK_STR(json_string_at(entry, "raw_scenario"), "decode_only");
	CHECK(cJSON_GetArraySize(json_at(entry, "loops")) == 2);
	/* Loop 2 holds rounds 3 and 4: raw 980 and 1010. */
	CHECK(json_number_at(entry, "loops[1].raw.best") == 1010);
	cJSON_Delete(entry);
}

static char *keys_of(const cJSON *document)
{
	static char text[256];
	const cJSON *item;
	size_t used = 0;

	text[0] = '\0';
	cJSON_ArrayForEach(item, document)
		used += (size_t)snprintf(text + used, sizeof(text) - used, "%s%s", used ? " " : "",
					 item->string);
	return text;
}

static void put_should_replace_in_place_or_insert_before_the_named_key(void)
{
	cJSON *document = cJSON_Parse("{\"schema\":3,\"environment\":{},\"code\":[1],\"costgate\":{}}");

	CHECK(results_document_put(document, "scenarios", cJSON_CreateArray(), "code") == 0);
	CHECK_STR(keys_of(document), "schema environment scenarios code costgate");
	CHECK(results_document_put(document, "environment", cJSON_CreateString("new"), "code") == 0);
	CHECK_STR(keys_of(document), "schema environment scenarios code costgate");
	CHECK_STR(json_string_at(document, "environment"), "new");
	CHECK(results_document_put(document, "extra", cJSON_CreateTrue(), "absent") == 0);
	CHECK_STR(keys_of(document), "schema environment scenarios code costgate extra");
	CHECK(cJSON_GetArraySize(json_at(document, "code")) == 1);
	cJSON_Delete(document);
}

static char *write_temporary(const char *text)
{
	char *path = strdup("/tmp/test_wallclock.XXXXXX");
	int fd = mkstemp(path);

	CHECK(fd >= 0 && write(fd, text, strlen(text)) == (ssize_t)strlen(text));
	close(fd);
	return path;
}

/* A results file (its text; none when NULL), a document written beside it, and what the
 * document holds once it kept the file's scenarios section: its keys, and its first scenario's
 * name (none when NULL). */
struct keep_case {
	const char *name;
	const char *file, *document, *keys, *scenario;
};

static const struct keep_case keep_cases[] = {
	{ "keep_should_copy_the_scenarios_section_of_the_existing_file",
	  "{\"schema\":3,\"scenarios\":[{\"name\":\"kept\"}],\"code\":[]}",
	  "{\"schema\":3,\"environment\":{},\"code\":[2],\"costgate\":{}}",
	  "schema environment scenarios code costgate", "kept" },
	{ "keep_should_not_replace_a_section_the_document_has", "{\"scenarios\":[{\"name\":\"old\"}]}",
	  "{\"scenarios\":[{\"name\":\"new\"}],\"code\":[]}", "scenarios code", "new" },
	{ "keep_should_pass_over_a_broken_file", "{ not json", "{\"code\":[]}", "code", NULL },
	{ "keep_should_pass_over_a_missing_file", NULL, "{\"code\":[]}", "code", NULL },
};

static void check_keep(const struct keep_case *row)
{
	char *path = row->file != NULL ? write_temporary(row->file) : strdup("/nonexistent/results.json");
	cJSON *document = cJSON_Parse(row->document);

	CHECK(results_keep_scenarios(document, path) == 0);
	CHECK_STR(keys_of(document), row->keys);
	if (row->scenario != NULL)
		CHECK_STR(json_string_at(document, "scenarios[0].name"), row->scenario);
	cJSON_Delete(document);
	if (row->file != NULL)
		unlink(path);
	free(path);
}

static void keep_should_keep_the_scenarios_section_another_command_wrote(void)
{
	RUN_ROWS(check_keep, keep_cases);
}

static void read_should_name_a_file_that_is_not_a_json_object(void)
{
	char *path = write_temporary("[1, 2]");
	struct gate_error err = GATE_ERROR_INIT;
	cJSON *document = NULL;

	CHECK(results_document_read(path, true, &document, &err) != 0);
	CHECK_CONTAINS(err.message, "not a JSON object");
	CHECK_CONTAINS(err.message, path);
	CHECK(document == NULL);
	CHECK(results_document_read("/nonexistent/results.json", true, &document, &err) == 0);
	CHECK(cJSON_IsObject(document) && document->child == NULL);
	cJSON_Delete(document);
	CHECK(results_document_read("/nonexistent/results.json", false, &document, &err) != 0);
	CHECK_CONTAINS(err.message, "No such file");
	unlink(path);
	free(path);
}

int main(void)
{
	return RUN_CASES(summary_should_give_the_best_median_and_worst_rounds,
			 slowdown_should_be_the_extra_time_per_message_in_percent,
			 comparison_should_hold_the_overhead_to_the_spread,
			 pair_entry_should_have_the_schema_3_keys,
			 put_should_replace_in_place_or_insert_before_the_named_key,
			 keep_should_keep_the_scenarios_section_another_command_wrote,
			 read_should_name_a_file_that_is_not_a_json_object);
}
