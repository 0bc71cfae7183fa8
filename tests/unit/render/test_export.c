/* Unit tests of the exports on the committed results fixture: the format names, BMF read back
 * with cJSON, one CSV row per scenario and measure with untrusted names quoted and defused, JUnit
 * escaping and counts, and a verdict block that does not read. Each format is also checked by a
 * parser of its own in tests/export/test_export.sh. */
#define _GNU_SOURCE
#include "check.h"
#include "export.h"
#include "json_at.h"

#include <stdio.h>
#include <stdlib.h>

struct loaded {
	struct results results;
	cJSON *document;
	char *text;
};

/* Reads tests/fixtures/results/valid.json, with `from` replaced by `to` (once) when given. */
static int load(struct loaded *loaded, const char *from, const char *to)
{
	struct gate_error err = GATE_ERROR_INIT;
	char path[512], *text = NULL, *at;
	size_t length = 0;
	FILE *file;

	snprintf(path, sizeof(path), "%s/results/valid.json", FIXTURE_DIR);
	file = fopen(path, "rb");
	CHECK(file != NULL);
	if (file == NULL)
		return -1;
	CHECK(getdelim(&text, &length, '\0', file) > 0);
	fclose(file);
	if (from != NULL && (at = strstr(text, from)) != NULL) {
		char *edited = NULL;

		CHECK(asprintf(&edited, "%.*s%s%s", (int)(at - text), text, to, at + strlen(from)) > 0);
		free(text);
		text = edited;
	}
	loaded->text = text;
	loaded->document = cJSON_Parse(text);
	CHECK(results_parse(&loaded->results, text, strlen(text), "fixture", &err) == 0);
	CHECK_STR(err.message, "");
	return loaded->document != NULL ? 0 : -1;
}

/* The reader refuses names outside [a-z0-9_]{1,64}; the exports escape them all the same (defence
 * in depth), so the tests give a read scenario another name in memory. */
static void rename_scenario(struct loaded *loaded, const char *from, const char *to)
{
	size_t i;

	for (i = 0; i < loaded->results.count; i++) {
		struct measurement *measurement = &loaded->results.measurements[i];

		if (strcmp(measurement->info.name, from) == 0) {
			free(measurement->info.name);
			measurement->info.name = strdup(to);
			return;
		}
	}
	CHECK(!"no scenario of that name in the fixture");
}

static void unload(struct loaded *loaded)
{
	results_release(&loaded->results);
	cJSON_Delete(loaded->document);
	free(loaded->text);
}

static char *export(const struct loaded *loaded, const char *format, struct gate_error *err)
{
	struct results_verdict verdict;
	struct printed printed;
	char *text;
	int status;

	if (results_verdict_read(&verdict, loaded->document, "fixture", err) != 0)
		return NULL;
	status = export_format_find(format)->write(print_to(&printed), &loaded->results, &verdict,
						   err);
	text = printed_text(&printed);
	results_verdict_release(&verdict);
	if (status != 0) {
		free(text);
		return NULL;
	}
	return text;
}

/* The export in `format` of valid.json, with `from` replaced by `to` in its text when given, and
 * reply renamed `reply_name` in memory when given (owned; NULL when it failed). */
static char *exported(const char *format, const char *from, const char *to,
		      const char *reply_name)
{
	struct loaded loaded = { RESULTS_INIT, NULL, NULL };
	struct gate_error err = GATE_ERROR_INIT;
	char *text = NULL;

	if (load(&loaded, from, to) == 0) {
		if (reply_name != NULL)
			rename_scenario(&loaded, "reply", reply_name);
		text = export(&loaded, format, &err);
		CHECK_STR(err.message, "");
	}
	unload(&loaded);
	return text;
}

static void export_should_know_its_three_formats(void)
{
	static const struct {
		size_t measure;
		const char *name;
	} measures[] = {
		{ METRIC_INSTRUCTIONS, "instructions" },
		{ METRIC_COUNT + METRIC_ALLOCATIONS, "cold-allocations" },
		{ METRIC_COUNT + METRIC_CYCLES, "cold-cycles" },
		{ METRIC_PEAK_BYTES, "peak-bytes" },
		{ METRIC_COUNT + METRIC_PEAK_BYTES, "cold-peak-bytes" },
	};
	char name[64], names[64];
	size_t i;

	CHECK(export_format_find("bmf") == &export_formats[0]);
	CHECK(export_format_find("junit") == &export_formats[1]);
	CHECK(export_format_find("csv") == &export_formats[2]);
	CHECK(export_format_find("CSV") == NULL);
	CHECK(export_format_find("") == NULL);
	CHECK_U64(export_format_count, 3);
	export_format_names(names, sizeof(names));
	CHECK_STR(names, "bmf, junit or csv");
	for (i = 0; i < sizeof(measures) / sizeof(measures[0]); i++) {
		export_measure_name(name, sizeof(name), measures[i].measure);
		CHECK_STR(name, measures[i].name);
	}
}

/* Every measure of every metric the table has is a Bencher slug, [a-z][a-z0-9-]*, and no two are
 * the same: a metric added to the table exports under a valid name without a line here. */
static void export_should_name_every_measure_of_the_table_as_a_bencher_slug(void)
{
	char name[64], other[64];
	size_t measure, before;

	for (measure = 0; measure < EXPORT_MEASURES; measure++) {
		export_measure_name(name, sizeof(name), measure);
		CHECK(name[0] >= 'a' && name[0] <= 'z');
		CHECK(strspn(name, "abcdefghijklmnopqrstuvwxyz0123456789-") == strlen(name));
		for (before = 0; before < measure; before++) {
			export_measure_name(other, sizeof(other), before);
			CHECK(strcmp(name, other) != 0);
		}
	}
}

static void bmf_should_hold_every_measure_of_every_scenario(void)
{
	char *text = exported("bmf", NULL, NULL, NULL);
	cJSON *bmf = text != NULL ? cJSON_Parse(text) : NULL;

	CHECK(cJSON_GetArraySize(bmf) == 2);
	CHECK(cJSON_GetArraySize(json_at(bmf, "reply")) == 6); /* instructions, allocations, bytes; and cold */
	CHECK(json_number_at(bmf, "reply.instructions.value") == 20000);
	CHECK(json_number_at(bmf, "reply.cold-allocations.value") == 7);
	cJSON_Delete(bmf);
	free(text);
}

static void csv_should_quote_names_and_defuse_formulas(void)
{
	char *text = exported("csv", NULL, NULL, "=1+1, \"x\"");

	CHECK(text != NULL &&
	      strncmp(text, "scenario,measure,value,unit,baseline,change_percent,limit_percent,floor\r\n",
		      73) == 0);
	CHECK_U64(check_count(text, "\r\n"), 13); /* a header, 2 scenarios x 6 measures, no verdict */
	CHECK_CONTAINS(text, "\"'=1+1, \"\"x\"\"\",instructions,20000,instructions,,,,\r\n");
	CHECK_CONTAINS(text, "consume_json,cold-instructions,23632,instructions,,,,\r\n");
	free(text);
}

/* One fact a row: the state once per scenario, a measure with the baseline and the change the
 * verdict gives it (two decimals of a percent), the floor the scenario declares on it, and a
 * scenario that failed to measure as its state alone. */
static void csv_should_give_one_fact_a_row_with_the_floor(void)
{
	char *text = exported("csv", "\"failures\": []",
			      "\"failures\": [{\"name\": \"segfaults\", \"failure\": \"killed\"}], "
			      "\"verdict\": {\"exit_code\": 3, \"rows\": [{\"name\": \"reply\", "
			      "\"state\": \"regressed\", \"limit_percent\": 5, \"instructions\": "
			      "{\"head\": 20000, \"baseline\": 18000, "
			      "\"change_percent\": 11.111111111111111}}]}", NULL);

	CHECK_U64(check_count(text, "\r\n"), 15); /* a header, 12 measures, 2 states */
	CHECK_U64(check_count(text, "regressed"), 1);
	CHECK_CONTAINS(text, "\r\nreply,state,regressed,,,,,\r\nreply,instructions,20000,");
	CHECK_CONTAINS(text, "reply,instructions,20000,instructions,18000,11.11,5,\r\n");
	CHECK_CONTAINS(text, "reply,allocations,2,blocks,,,,2\r\n");
	CHECK_CONTAINS(text, "reply,cold-allocations,7,blocks,,,,7\r\n");
	CHECK_CONTAINS(text, "reply,bytes,64,bytes,,,,\r\n");
	CHECK(text != NULL && strlen(text) > 31 &&
	      strcmp(text + strlen(text) - 31, "\r\nsegfaults,state,failed,,,,,\r\n") == 0); /* last */
	free(text);
}

/* JUnit's time is the scenario's valgrind seconds and its file the source that declares it, from
 * costgate.runs; a document without them says time 0 and no file. */
static void junit_should_carry_the_source_file_and_the_valgrind_seconds(void)
{
	char *text = exported("junit", "\"failures\": []",
			      "\"failures\": [], \"runs\": {\"reply\": {\"source\": \"scenarios/reply.c\", "
			      "\"valgrind_seconds\": 12.25}, \"consume_json\": {\"valgrind_seconds\": 0.5}}",
			      NULL);

	CHECK_CONTAINS(text, "<testcase classname=\"costgate\" name=\"reply\" "
			     "file=\"scenarios/reply.c\" time=\"12.250\"/>");
	CHECK_CONTAINS(text, "<testcase classname=\"costgate\" name=\"consume_json\" time=\"0.500\"/>");
	CHECK_CONTAINS(text, "skipped=\"0\" time=\"12.750\">");
	free(text);
	text = exported("junit", NULL, NULL, NULL);
	CHECK_CONTAINS(text, "name=\"reply\" time=\"0.000\"/>");
	free(text);
}

static void junit_should_escape_names_and_count_its_cases(void)
{
	char *text = exported("junit", NULL, NULL, "a<b & \"c\"");

	CHECK_CONTAINS(text, "<testcase classname=\"costgate\" name=\"a&lt;b &amp; &quot;c&quot;\"");
	CHECK_CONTAINS(text, "<testsuite name=\"costgate\" tests=\"2\" failures=\"0\" errors=\"0\"");
	CHECK_U64(check_count(text, "<failure"), 0); /* no verdict in the document: nothing failed */
	free(text);
}

static void export_should_refuse_a_verdict_it_cannot_read(void)
{
	struct loaded loaded = { RESULTS_INIT, NULL, NULL };
	struct gate_error err = GATE_ERROR_INIT;

	if (load(&loaded, "\"failures\": []", "\"failures\": [], \"verdict\": {\"rows\": [{\"name\": 1}]}") == 0) {
		CHECK(export(&loaded, "junit", &err) == NULL);
		CHECK_STR(err.message, "cannot read results 'fixture': costgate.verdict.rows[0].name is "
				       "not a string");
	}
	unload(&loaded);
}

int main(void)
{
	return RUN_CASES(export_should_know_its_three_formats,
			 bmf_should_hold_every_measure_of_every_scenario,
			 export_should_name_every_measure_of_the_table_as_a_bencher_slug,
			 csv_should_quote_names_and_defuse_formulas,
			 csv_should_give_one_fact_a_row_with_the_floor,
			 junit_should_carry_the_source_file_and_the_valgrind_seconds,
			 junit_should_escape_names_and_count_its_cases,
			 export_should_refuse_a_verdict_it_cannot_read);
}
