/* Unit tests of the exports on the committed results fixture: the format names, BMF read back
 * with cJSON, one CSV row per scenario and measure with untrusted names quoted and defused, JUnit
 * escaping and counts, and a verdict block that does not read. Each format is also checked by a
 * parser of its own in tests/export/test_export.sh. */
#define _GNU_SOURCE
#include "check.h"
#include "export.h"

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

static char *export(const struct loaded *loaded, enum export_format format, struct gate_error *err)
{
	char *text = NULL;
	size_t length = 0;
	struct results_verdict verdict;
	FILE *out;
	int status;

	if (results_verdict_read(&verdict, loaded->document, "fixture", err) != 0)
		return NULL;
	out = open_memstream(&text, &length);
	status = export_write(out, format, &loaded->results, &verdict, err);
	fclose(out);
	results_verdict_release(&verdict);
	if (status != 0) {
		free(text);
		return NULL;
	}
	return text;
}

static void export_should_know_its_three_formats(void)
{
	enum export_format format = EXPORT_CSV;

	CHECK(export_format_parse("bmf", &format) == 0 && format == EXPORT_BMF);
	CHECK(export_format_parse("junit", &format) == 0 && format == EXPORT_JUNIT);
	CHECK(export_format_parse("csv", &format) == 0 && format == EXPORT_CSV);
	CHECK(export_format_parse("CSV", &format) == -1);
	CHECK(export_format_parse("", &format) == -1);
	char name[64];

	export_measure_name(name, sizeof(name), METRIC_INSTRUCTIONS);
	CHECK_STR(name, "instructions");
	export_measure_name(name, sizeof(name), METRIC_COUNT + METRIC_ALLOCATIONS);
	CHECK_STR(name, "cold-allocations");
	export_measure_name(name, sizeof(name), METRIC_COUNT + METRIC_CYCLES);
	CHECK_STR(name, "cold-cycles");
	export_measure_name(name, sizeof(name), METRIC_PEAK_BYTES);
	CHECK_STR(name, "peak-bytes");
	export_measure_name(name, sizeof(name), METRIC_COUNT + METRIC_PEAK_BYTES);
	CHECK_STR(name, "cold-peak-bytes");
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
	struct loaded loaded = { RESULTS_INIT, NULL, NULL };
	struct gate_error err = GATE_ERROR_INIT;
	char *text;
	cJSON *bmf;
	const cJSON *reply;

	if (load(&loaded, NULL, NULL) != 0)
		return;
	text = export(&loaded, EXPORT_BMF, &err);
	bmf = cJSON_Parse(text);
	CHECK(cJSON_GetArraySize(bmf) == 2);
	reply = cJSON_GetObjectItemCaseSensitive(bmf, "reply");
	CHECK(cJSON_GetArraySize(reply) == 6); /* instructions, allocations, bytes; and cold */
	CHECK(cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(reply, "instructions"),
					       "value")->valuedouble == 20000);
	CHECK(cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(reply, "cold-allocations"),
					       "value")->valuedouble == 7);
	cJSON_Delete(bmf);
	free(text);
	unload(&loaded);
}

static void csv_should_quote_names_and_defuse_formulas(void)
{
	struct loaded loaded = { RESULTS_INIT, NULL, NULL };
	struct gate_error err = GATE_ERROR_INIT;
	char *text;

	if (load(&loaded, NULL, NULL) != 0)
		return;
	rename_scenario(&loaded, "reply", "=1+1, \"x\"");
	text = export(&loaded, EXPORT_CSV, &err);
	CHECK(text != NULL &&
	      strncmp(text, "scenario,measure,value,unit,baseline,change_percent,limit_percent,floor\r\n",
		      73) == 0);
	CHECK_U64(check_count(text, "\r\n"), 13); /* a header, 2 scenarios x 6 measures, no verdict */
	CHECK_CONTAINS(text, "\"'=1+1, \"\"x\"\"\",instructions,20000,instructions,,,,\r\n");
	CHECK_CONTAINS(text, "consume_json,cold-instructions,23632,instructions,,,,\r\n");
	free(text);
	unload(&loaded);
}

/* One fact a row: the state once per scenario, a measure with the baseline and the change the
 * verdict gives it (two decimals of a percent), the floor the scenario declares on it, and a
 * scenario that failed to measure as its state alone. */
static void csv_should_give_one_fact_a_row_with_the_floor(void)
{
	struct loaded loaded = { RESULTS_INIT, NULL, NULL };
	struct gate_error err = GATE_ERROR_INIT;
	char *text;

	if (load(&loaded, "\"failures\": []",
		 "\"failures\": [{\"name\": \"segfaults\", \"failure\": \"killed\"}], \"verdict\": "
		 "{\"exit_code\": 3, \"rows\": [{\"name\": \"reply\", \"state\": \"regressed\", "
		 "\"limit_percent\": 5, \"instructions\": {\"head\": 20000, \"baseline\": 18000, "
		 "\"change_percent\": 11.111111111111111}}]}") != 0)
		return;
	text = export(&loaded, EXPORT_CSV, &err);
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
	unload(&loaded);
}

/* JUnit's time is the scenario's valgrind seconds and its file the source that declares it, from
 * costgate.runs; a document without them says time 0 and no file. */
static void junit_should_carry_the_source_file_and_the_valgrind_seconds(void)
{
	struct loaded loaded = { RESULTS_INIT, NULL, NULL };
	struct gate_error err = GATE_ERROR_INIT;
	char *text;

	if (load(&loaded, "\"failures\": []",
		 "\"failures\": [], \"runs\": {\"reply\": {\"source\": \"scenarios/reply.c\", "
		 "\"valgrind_seconds\": 12.25}, \"consume_json\": {\"valgrind_seconds\": 0.5}}") != 0)
		return;
	text = export(&loaded, EXPORT_JUNIT, &err);
	CHECK_CONTAINS(text, "<testcase classname=\"costgate\" name=\"reply\" "
			     "file=\"scenarios/reply.c\" time=\"12.250\"/>");
	CHECK_CONTAINS(text, "<testcase classname=\"costgate\" name=\"consume_json\" time=\"0.500\"/>");
	CHECK_CONTAINS(text, "skipped=\"0\" time=\"12.750\">");
	free(text);
	unload(&loaded);
	if (load(&loaded, NULL, NULL) != 0)
		return;
	text = export(&loaded, EXPORT_JUNIT, &err);
	CHECK_CONTAINS(text, "name=\"reply\" time=\"0.000\"/>");
	free(text);
	unload(&loaded);
}

static void junit_should_escape_names_and_count_its_cases(void)
{
	struct loaded loaded = { RESULTS_INIT, NULL, NULL };
	struct gate_error err = GATE_ERROR_INIT;
	char *text;

	if (load(&loaded, NULL, NULL) != 0)
		return;
	rename_scenario(&loaded, "reply", "a<b & \"c\"");
	text = export(&loaded, EXPORT_JUNIT, &err);
	CHECK_CONTAINS(text, "<testcase classname=\"costgate\" name=\"a&lt;b &amp; &quot;c&quot;\"");
	CHECK_CONTAINS(text, "<testsuite name=\"costgate\" tests=\"2\" failures=\"0\" errors=\"0\"");
	CHECK_U64(check_count(text, "<failure"), 0); /* no verdict in the document: nothing failed */
	free(text);
	unload(&loaded);
}

static void export_should_refuse_a_verdict_it_cannot_read(void)
{
	struct loaded loaded = { RESULTS_INIT, NULL, NULL };
	struct gate_error err = GATE_ERROR_INIT;

	if (load(&loaded, "\"failures\": []", "\"failures\": [], \"verdict\": {\"rows\": [{\"name\": 1}]}") != 0)
		return;
	CHECK(export(&loaded, EXPORT_JUNIT, &err) == NULL);
	CHECK_STR(err.message, "cannot read results 'fixture': costgate.verdict.rows[0].name is not a "
			       "string");
	unload(&loaded);
}

int main(void)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	RUN(export_should_know_its_three_formats);
	RUN(bmf_should_hold_every_measure_of_every_scenario);
	RUN(export_should_name_every_measure_of_the_table_as_a_bencher_slug);
	RUN(csv_should_quote_names_and_defuse_formulas);
	RUN(csv_should_give_one_fact_a_row_with_the_floor);
	RUN(junit_should_carry_the_source_file_and_the_valgrind_seconds);
	RUN(junit_should_escape_names_and_count_its_cases);
	RUN(export_should_refuse_a_verdict_it_cannot_read);
	return CHECK_EXIT();
}
