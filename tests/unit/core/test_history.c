/* Unit tests of the history document: the dates --since takes, the JSON that gate history writes
 * and gate report reads back (strictly: a point outside the versions or out of order is refused,
 * the percentages are recomputed). Its charts are tests/unit/render/test_chart.c; the walk over git
 * is tested end to end in tests/report/test_history.sh. */
#define _GNU_SOURCE
#include "check.h"
#include "history.h"
#include "history_sample.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


/* The document with `from` replaced by `to` once, read; returns the error message. */
static void check_refused(const char *from, const char *to, const char *problem)
{
	struct history history = HISTORY_INIT;
	struct gate_error err = GATE_ERROR_INIT;
	const char *at = strstr(history_sample, from);
	char *text = NULL;

	CHECK(at != NULL);
	if (at == NULL)
		return;
	CHECK(asprintf(&text, "%.*s%s%s", (int)(at - history_sample), history_sample, to, at + strlen(from)) > 0);
	CHECK(history_sample_read(&history, text, &err) == -1);
	CHECK_CONTAINS(err.message, problem);
	CHECK(history.versions == NULL && history.series == NULL);
	free(text);
}

static void history_should_accept_only_real_days_for_since(void)
{
	const char *const days[] = { "2024-02-29", "2023-12-31", NULL };
	const char *const not_days[] = { "2023-02-29", "2024-13-01", "2024-04-31", "2024-1-01",
					 "2024-01-01x", "1969-12-31", "yesterday", "", NULL };

	CHECK_ACCEPTS(history_valid_date, days, not_days);
}

static void history_should_recompute_changes_and_drift_when_read(void)
{
	struct history history = HISTORY_INIT;
	struct gate_error err = GATE_ERROR_INIT;
	const struct history_series *series;

	CHECK(history_sample_read(&history, history_sample, &err) == 0);
	CHECK_STR(err.message, "");
	CHECK_U64(history.version_count, 3);
	CHECK_U64(history.series_count, 1);
	if (history.series_count != 1)
		return;
	series = &history.series[0];
	CHECK(series->figure.metric == METRIC_INSTRUCTIONS && !series->figure.cold);
	CHECK(strcmp(series->key, "instructions") == 0 && strcmp(series->label, "instructions per message") == 0);
	CHECK(!series->points[0].has_change);
	CHECK(series->points[1].has_change && series->points[1].change_percent == 10.0);
	CHECK(series->points[2].has_change && fabs(series->points[2].change_percent - 10.0) < 1e-12);
	CHECK(fabs(series->drift_percent - 21.0) < 1e-12);
	CHECK_STR(series->points[1].accepted, "a reason");
	CHECK_STR(history.versions[1].fingerprint_change, "compiler: GNU 12 -> GNU 13");
	CHECK(history.versions[0].fingerprint_change == NULL);
	history_release(&history);
}

/* Every metric of the table has a series per message and a cold one, named from the table. */
static void history_should_name_every_metric_of_the_table(void)
{
	static const char from[] = "\"metric\":\"instructions\"";
	const char *at = strstr(history_sample, from);
	struct gate_error err = GATE_ERROR_INIT;
	size_t metric;
	int cold;

	for (metric = 0; metric < METRIC_COUNT; metric++)
		for (cold = 0; cold < 2; cold++) {
			struct history history = HISTORY_INIT;
			struct history_series named = { 0 };
			char *text = NULL, *written = NULL;
			cJSON *again;

			CHECK(history_series_name(&named, (struct history_figure){ (enum metric_id)metric,
										    cold != 0 }) == 0);
			CHECK(strlen(named.key) == strlen(metric_table[metric].key) + (cold ? 5 : 0));
			CHECK(asprintf(&text, "%.*s\"metric\":\"%s%s\"%s", (int)(at - history_sample), history_sample,
				       cold ? "cold_" : "", metric_table[metric].key, at + strlen(from)) > 0);
			CHECK(history_sample_read(&history, text, &err) == 0);
			CHECK_STR(err.message, "");
			if (history.series_count == 1) {
				CHECK(history.series[0].figure.metric == metric &&
				      history.series[0].figure.cold == (cold != 0));
				CHECK_STR(history.series[0].key, named.key);
				CHECK_STR(history.series[0].label, named.label);
				again = history_to_json(&history);
				written = cJSON_PrintUnformatted(again);
				CHECK_CONTAINS(written, named.key);
				cJSON_free(written);
				cJSON_Delete(again);
			}
			history_release(&history);
			free(text);
		}
	{
		struct history_series named = { 0 };

		CHECK(history_series_name(&named, (struct history_figure){ METRIC_CYCLES, true }) == 0);
		CHECK_STR(named.key, "cold_cycles");
		CHECK_STR(named.label, "cold-start estimated cycles");
		CHECK(history_series_name(&named, (struct history_figure){ METRIC_ALLOCATIONS, false }) == 0);
		CHECK_STR(named.key, "allocations");
		CHECK_STR(named.label, "heap allocations per message");
		CHECK(history_series_name(&named, (struct history_figure){ METRIC_PEAK_BYTES, false }) == 0);
		CHECK_STR(named.key, "peak_bytes");
		CHECK_STR(named.label, "peak live heap of the process, growth per message");
	}
}

static void history_should_write_what_it_reads(void)
{
	struct history history = HISTORY_INIT, again = HISTORY_INIT;
	struct gate_error err = GATE_ERROR_INIT;
	cJSON *first, *second;
	char *first_text, *second_text;

	CHECK(history_sample_read(&history, history_sample, &err) == 0);
	first = history_to_json(&history);
	CHECK(history_from_json(&again, first, "written", &err) == 0);
	second = history_to_json(&again);
	first_text = cJSON_PrintUnformatted(first);
	second_text = cJSON_PrintUnformatted(second);
	CHECK_STR(first_text, second_text);
	CHECK_CONTAINS(first_text, "\"drift_percent\":21");
	cJSON_free(first_text);
	cJSON_free(second_text);
	cJSON_Delete(first);
	cJSON_Delete(second);
	history_release(&history);
	history_release(&again);
}

static void history_should_refuse_documents_it_did_not_write(void)
{
	check_refused("\"costgate_history\":\"1\"", "\"costgate_history\":\"2\"", "not a history document");
	check_refused("{\"version\":2,", "{\"version\":3,", "series[0].points[2] has no version index");
	check_refused("{\"version\":2,", "{\"version\":1,", "series[0].points[2] is not after the point");
	check_refused("{\"version\":2,", "{\"version\":2.5,",
		      "series[0].points[2].version is not a non-negative integer");
	check_refused("\"value\":1210", "\"value\":-1", "value is not a non-negative number");
	check_refused("\"metric\":\"instructions\"", "\"metric\":\"speed\"", "unknown metric");
	check_refused("\"metric\":\"instructions\"", "\"metric\":\"cold_speed\"", "unknown metric");
	check_refused("\"metric\":\"instructions\"", "\"metric\":\"cold_\"", "unknown metric");
	check_refused("\"metric\":\"instructions\"", "\"metric\":\"cold_cold_cycles\"", "unknown metric");
	check_refused("\"subject\":\"Check\",", "", "versions[2].subject is missing");
	check_refused("\"accepted\":\"a reason\"", "\"accepted\":3", "accepted is not a string");
	check_refused("\"versions\":[", "\"versions\":7,\"x\":[", "'fixture.json': versions is not an array");
}

int main(void)
{
	return RUN_CASES(history_should_accept_only_real_days_for_since,
			 history_should_recompute_changes_and_drift_when_read,
			 history_should_name_every_metric_of_the_table,
			 history_should_write_what_it_reads,
			 history_should_refuse_documents_it_did_not_write);
}
