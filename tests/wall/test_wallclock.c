/* Unit tests of the wall-clock arithmetic (best, median, worst; the overhead from the best rounds;
 * the verdict rule) and of the `scenarios` section: its schema 3 layout, and a results file that
 * keeps what the other command wrote. */
#define _GNU_SOURCE
#include "check.h"
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

static void summary_should_take_the_fastest_round_as_best_and_the_slowest_as_worst(void)
{
	const double rates[] = { 900, 1000, 800 };
	struct wall_summary summary;

	wall_summarize(&summary, rates, 3);
	CHECK(summary.best == 1000);
	CHECK(summary.median == 900);
	CHECK(summary.worst == 800);
}

static void summary_should_average_the_two_middle_rounds_of_an_even_count(void)
{
	const double rates[] = { 400, 100, 300, 200 };
	struct wall_summary summary;

	wall_summarize(&summary, rates, 4);
	CHECK(summary.median == 250);
	CHECK(summary.best == 400);
	CHECK(summary.worst == 100);
}

static void slowdown_should_be_the_extra_time_per_message_in_percent(void)
{
	/* 1000 msg/s is 1 ms a message; 800 msg/s is 1.25 ms: 25 % more time. */
	CHECK(near(wall_slowdown_percent(1000, 800), 25.0));
	CHECK(near(wall_slowdown_percent(1000, 1250), -20.0));
	CHECK(wall_slowdown_percent(1000, 1000) == 0.0);
	CHECK(wall_slowdown_percent(1000, 0) == 0.0);
}

static void overhead_should_come_from_the_best_rounds(void)
{
	const double raw[] = { 1000, 990, 980 }, framework[] = { 900, 500, 880 };
	struct wall_comparison comparison;

	wall_compare(&comparison, raw, framework, 3);
	CHECK(near(comparison.overhead_percent, (1000.0 / 900.0 - 1) * 100));
	CHECK(near(comparison.median_overhead_percent, (990.0 / 880.0 - 1) * 100));
	/* The harness's own spread, 900 to 500, is the larger: 80 %. */
	CHECK(near(comparison.spread_percent, 80.0));
}

static void difference_inside_the_spread_should_be_indistinguishable(void)
{
	const double raw[] = { 1000, 950, 900 }, framework[] = { 980, 960, 940 };
	struct wall_comparison comparison;

	/* Overhead 2.04 %, raw spread 11.1 %. */
	wall_compare(&comparison, raw, framework, 3);
	CHECK(comparison.indistinguishable);
	CHECK_STR(wall_verdict_name(comparison.indistinguishable), "indistinguishable");
}

static void difference_beyond_the_spread_should_be_measured(void)
{
	const double raw[] = { 1000, 999, 998 }, framework[] = { 900, 899, 898 };
	struct wall_comparison comparison;

	wall_compare(&comparison, raw, framework, 3);
	CHECK(!comparison.indistinguishable);
	CHECK_STR(wall_verdict_name(comparison.indistinguishable), "measured");
}

static void difference_equal_to_the_spread_should_be_measured(void)
{
	/* Overhead 25 % exactly, spread 25 % exactly: not smaller, so measured. */
	const double raw[] = { 1000, 1000, 800 }, framework[] = { 800, 800, 800 };
	struct wall_comparison comparison;

	wall_compare(&comparison, raw, framework, 3);
	CHECK(near(comparison.overhead_percent, 25.0));
	CHECK(near(comparison.spread_percent, 25.0));
	CHECK(!comparison.indistinguishable);
}

static void harness_faster_than_raw_beyond_the_spread_should_be_measured_negative(void)
{
	const double raw[] = { 1000, 1000 }, framework[] = { 1200, 1200 };
	struct wall_comparison comparison;

	wall_compare(&comparison, raw, framework, 2);
	CHECK(comparison.overhead_percent < 0);
	CHECK(!comparison.indistinguishable);
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

static double number_at(const cJSON *object, const char *key)
{
	const cJSON *item = cJSON_GetObjectItemCaseSensitive(object, key);

	return cJSON_IsNumber(item) ? item->valuedouble : NAN;
}

static void pair_entry_should_have_the_schema_3_keys(void)
{
	struct wall_pair pair = sample_pair();
	cJSON *entry = results_scenario_entry(&pair);
	const cJSON *raw = cJSON_GetObjectItemCaseSensitive(entry, "raw");
	const cJSON *framework = cJSON_GetObjectItemCaseSensitive(entry, "framework");
	const cJSON *loops = cJSON_GetObjectItemCaseSensitive(entry, "loops");

	CHECK(entry != NULL);
	CHECK_STR(cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(entry, "name")), "consume_json");
	CHECK_STR(cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(entry, "unit")), "msg/s");
	CHECK(number_at(entry, "messages") == 5000);
	CHECK(number_at(entry, "pairs") == 4);
	CHECK(number_at(raw, "best") == 1010 && number_at(raw, "median") == 995 &&
	      number_at(raw, "worst") == 980);
	CHECK(number_at(framework, "best") == 960 && number_at(framework, "worst") == 900);
	CHECK(number_at(entry, "overhead_percent") == 5.21); /* 1010 / 960 - 1, two decimals */
	CHECK_STR(cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(entry, "verdict")),
		  "indistinguishable");
	CHECK_STR(cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(entry, "raw_scenario")),
		  "decode_only");
	CHECK(cJSON_GetArraySize(loops) == 2);
	/* Loop 2 holds rounds 3 and 4: raw 980 and 1010. */
	CHECK(number_at(cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(loops, 1), "raw"),
			"best") == 1010);
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
	CHECK_STR(cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(document, "environment")), "new");
	CHECK(results_document_put(document, "extra", cJSON_CreateTrue(), "absent") == 0);
	CHECK_STR(keys_of(document), "schema environment scenarios code costgate extra");
	CHECK(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(document, "code")) == 1);
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

static void keep_should_copy_the_scenarios_section_of_the_existing_file(void)
{
	char *path = write_temporary("{\"schema\":3,\"scenarios\":[{\"name\":\"kept\"}],\"code\":[]}");
	cJSON *document = cJSON_Parse("{\"schema\":3,\"environment\":{},\"code\":[2],\"costgate\":{}}");

	CHECK(results_keep_scenarios(document, path) == 0);
	CHECK_STR(keys_of(document), "schema environment scenarios code costgate");
	CHECK_STR(cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(
			  cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(document, "scenarios"), 0),
			  "name")), "kept");
	cJSON_Delete(document);
	unlink(path);
	free(path);
}

static void keep_should_not_replace_a_section_the_document_has(void)
{
	char *path = write_temporary("{\"scenarios\":[{\"name\":\"old\"}]}");
	cJSON *document = cJSON_Parse("{\"scenarios\":[{\"name\":\"new\"}],\"code\":[]}");

	CHECK(results_keep_scenarios(document, path) == 0);
	CHECK_STR(cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(
			  cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(document, "scenarios"), 0),
			  "name")), "new");
	cJSON_Delete(document);
	unlink(path);
	free(path);
}

static void keep_should_pass_over_a_missing_or_broken_file(void)
{
	char *path = write_temporary("{ not json");
	cJSON *document = cJSON_Parse("{\"code\":[]}");

	CHECK(results_keep_scenarios(document, path) == 0);
	CHECK(results_keep_scenarios(document, "/nonexistent/results.json") == 0);
	CHECK_STR(keys_of(document), "code");
	cJSON_Delete(document);
	unlink(path);
	free(path);
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
	setvbuf(stdout, NULL, _IONBF, 0);
	RUN(summary_should_take_the_fastest_round_as_best_and_the_slowest_as_worst);
	RUN(summary_should_average_the_two_middle_rounds_of_an_even_count);
	RUN(slowdown_should_be_the_extra_time_per_message_in_percent);
	RUN(overhead_should_come_from_the_best_rounds);
	RUN(difference_inside_the_spread_should_be_indistinguishable);
	RUN(difference_beyond_the_spread_should_be_measured);
	RUN(difference_equal_to_the_spread_should_be_measured);
	RUN(harness_faster_than_raw_beyond_the_spread_should_be_measured_negative);
	RUN(pair_entry_should_have_the_schema_3_keys);
	RUN(put_should_replace_in_place_or_insert_before_the_named_key);
	RUN(keep_should_copy_the_scenarios_section_of_the_existing_file);
	RUN(keep_should_not_replace_a_section_the_document_has);
	RUN(keep_should_pass_over_a_missing_or_broken_file);
	RUN(read_should_name_a_file_that_is_not_a_json_object);
	return CHECK_EXIT();
}
