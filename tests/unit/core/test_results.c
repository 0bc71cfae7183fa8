/* Unit tests of results documents: a document written from hand-made measurements reads back to
 * the same figures, exactly; the written file replaces the old one whole; and every malformed
 * document in tests/fixtures/results is refused with the file and the problem named. */
#define _GNU_SOURCE
#define FIXTURES "results"
#include "check.h"
#include "fixture.h"
#include "json_at.h"
#include "json_write.h"
#include "results.h"
#include "scratch.h"

#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char *copy(const char *text)
{
	char *copied = strdup(text);

	if (copied == NULL)
		abort();
	return copied;
}

static void fill_environment(struct environment *environment)
{
	*environment = (struct environment)ENVIRONMENT_INIT;
	environment->cpu = copy("Test CPU @ 1.00GHz");
	environment->architecture = copy("x86_64");
	environment->cores = copy("2 logical");
	environment->memory = copy("4.0 GiB");
	environment->os = copy("Linux 6.1.0 (Debian GNU/Linux 12 (bookworm))");
	environment->compiler = copy("GNU 12.2.0");
	environment->flags = copy("-O2 -g");
	environment->valgrind = copy("3.19.0");
	environment->glibc = copy("2.36");
	environment->cjson = copy("1.7.15");
	environment->dispatch_pin = copy(GATE_DISPATCH_PIN);
	environment->schema = GATE_SCHEMA_VERSION;
}

static void fill_slopes(struct measurement *measurement)
{
	struct gate_error err = GATE_ERROR_INIT;

	measurement->has[METRIC_INSTRUCTIONS] = true;
	measurement->has[METRIC_ALLOCATIONS] = true;
	measurement->has[METRIC_BYTES] = true;
	CHECK(measurement_compute(measurement, &err) == 0);
	CHECK_STR(err.message, "");
}

/* consume_json: counts above 2^32, two functions (one negative, one a third), two sites. */
static void fill_consume_json(struct measurement *measurement)
{
	static const uint64_t instructions[SLOPE_RUNS] = { 3000000001ULL, 4000000000000ULL,
							   8000003000000ULL };
	static const uint64_t allocations[SLOPE_RUNS] = { 19, 19019, 38019 };
	static const uint64_t bytes[SLOPE_RUNS] = { 1234, 1001234, 2001234 };
	static const uint64_t peak[SLOPE_RUNS] = { 4000, 500000, 1000000 };
	static const uint64_t cycles[SLOPE_RUNS] = { 4000000003ULL, 5000000000003ULL, 10000004000003ULL };
	size_t run;

	memset(measurement, 0, sizeof(*measurement));
	measurement->info.name = copy("consume_json");
	measurement->info.path = copy("/build/scenarios/consume_json");
	measurement->info.title = copy("consume, 512 B JSON decoded into a small struct, settle each");
	measurement->info.region = copy("costgate_measured_region");
	measurement->info.gated = true;
	measurement->info.steady_floor = 19;
	measurement->info.cold_floor = 19;
	measurement->messages = 1000;
	memcpy(measurement->counts[METRIC_INSTRUCTIONS], instructions, sizeof(instructions));
	memcpy(measurement->counts[METRIC_ALLOCATIONS], allocations, sizeof(allocations));
	memcpy(measurement->counts[METRIC_BYTES], bytes, sizeof(bytes));
	memcpy(measurement->counts[METRIC_PEAK_BYTES], peak, sizeof(peak));
	memcpy(measurement->counts[METRIC_CYCLES], cycles, sizeof(cycles));
	measurement->has[METRIC_PEAK_BYTES] = true;
	measurement->has[METRIC_CYCLES] = true;
	scenario_set_gate_metric(&measurement->info, "cycles", true, NULL);
	scenario_set_floor(&measurement->info, "steady_bytes", 1000.5, NULL);
	scenario_set_floor(&measurement->info, "cold_peak_bytes", 4096, NULL);
	fill_slopes(measurement);
	measurement->functions = calloc(2, sizeof(*measurement->functions));
	measurement->sites = calloc(2, sizeof(*measurement->sites));
	if (measurement->functions == NULL || measurement->sites == NULL)
		abort();
	measurement->function_count = 2;
	measurement->functions[0] = (struct function_cost){
		.name = copy("json_decode"), .exclusive = 9000.5, .inclusive = 12000.25,
		.cold_exclusive = 5000000000ULL, .with_library = 9400.5, .project = true,
		.with_library_early = 9400.5 };
	measurement->functions[1] = (struct function_cost){
		.name = copy("settle"), .exclusive = -1.0 / 3.0, .inclusive = 0.1,
		.with_library = -1.0 / 3.0, .with_library_early = -1.0 / 3.0 };
	measurement->site_count = 2;
	measurement->sites[0] = (struct site_cost){ copy("malloc_body (body.c:7)"),
						    copy("malloc_body (body.c:7) < handle (h.c:3)"),
						    18, 2048.5, 18, 4294967296ULL };
	measurement->sites[1] = (struct site_cost){ copy("strdup (strdup.c:42)"),
						    copy("strdup (strdup.c:42) < copy_name (real.c:25)"),
						    1, 7, 1, 7 };
	for (run = 0; run < SLOPE_RUNS; run++) {
		char name[64];

		snprintf(name, sizeof(name), "consume_json.callgrind.%zu", run);
		measurement->raw_files[TOOL_CALLGRIND][run] = copy(name);
		snprintf(name, sizeof(name), "consume_json.dhat.%zu.json", run);
		measurement->raw_files[TOOL_DHAT][run] = copy(name);
	}
}

/* batch: ungated, its own limit, a fraction of an instruction and half an allocation per message,
 * a cold floor above 2^31. */
static void fill_batch(struct measurement *measurement)
{
	static const uint64_t instructions[SLOPE_RUNS] = { 100, 1100, 2101 };
	static const uint64_t allocations[SLOPE_RUNS] = { 0, 500, 1000 };

	memset(measurement, 0, sizeof(*measurement));
	measurement->info.name = copy("batch");
	measurement->info.title = copy("batch of 16");
	measurement->info.region = copy("costgate_measured_region");
	measurement->info.gated = false;
	measurement->info.steady_floor = 0.5;
	measurement->info.cold_floor = 3000000000ULL;
	measurement->info.limit_percent = 5;
	measurement->messages = 1000;
	memcpy(measurement->counts[METRIC_INSTRUCTIONS], instructions, sizeof(instructions));
	memcpy(measurement->counts[METRIC_ALLOCATIONS], allocations, sizeof(allocations));
	fill_slopes(measurement);
}

static void fill_broken(struct measurement *measurement)
{
	memset(measurement, 0, sizeof(*measurement));
	measurement->info.name = copy("broken");
	measurement->messages = 1000;
	measurement->failed = true;
	snprintf(measurement->failure, sizeof(measurement->failure),
		 "callgrind at N: '/build/scenarios/broken' exited with 1");
}

/* The names in `directory` (not . or ..), sorted and joined with spaces. */
static void list_directory(const char *directory, char *names, size_t names_size)
{
	struct dirent **entries = NULL;
	int count = scandir(directory, &entries, NULL, alphasort), i;
	size_t used = 0;

	names[0] = '\0';
	for (i = 0; i < count; i++) {
		if (strcmp(entries[i]->d_name, ".") != 0 && strcmp(entries[i]->d_name, "..") != 0 &&
		    used < names_size)
			used += (size_t)snprintf(names + used, names_size - used, "%s%s",
						 used ? " " : "", entries[i]->d_name);
		free(entries[i]);
	}
	free(entries);
}

static void release_all(struct measurement *measurements, size_t count)
{
	size_t i;

	for (i = 0; i < count; i++)
		measurement_release(&measurements[i]);
}

static void check_same_measurement(const struct measurement *read, const struct measurement *written)
{
	size_t i;

	CHECK_STR(read->info.name, written->info.name);
	CHECK_STR(read->info.title, written->info.title);
	CHECK(read->info.gated == written->info.gated);
	CHECK(read->info.steady_floor == written->info.steady_floor);
	CHECK_U64(read->info.cold_floor, written->info.cold_floor);
	CHECK(read->info.limit_percent == written->info.limit_percent);
	CHECK_U64(read->messages, written->messages);
	CHECK_U64(read->info.gate_metric_count, written->info.gate_metric_count);
	for (i = 0; i < written->info.gate_metric_count; i++)
		CHECK(scenario_gates_metric(&read->info, written->info.gate_metrics[i]));
	CHECK_U64(read->info.floor_count, written->info.floor_count);
	for (i = 0; i < written->info.floor_count; i++)
		CHECK(scenario_floor(&read->info, written->info.floors[i].key) ==
		      written->info.floors[i].value);
	/* Every metric: whether the document has it, its counts and its figures. */
	for (i = 0; i < METRIC_COUNT; i++) {
		size_t run;

		CHECK(read->has[i] == written->has[i]);
		for (run = 0; run < SLOPE_RUNS; run++)
			CHECK_U64(read->counts[i][run], written->counts[i][run]);
		CHECK(read->slopes[i].per_message == written->slopes[i].per_message);
		CHECK_U64(read->slopes[i].cold, written->slopes[i].cold);
	}
	CHECK(read->slopes[METRIC_INSTRUCTIONS].per_message == written->slopes[METRIC_INSTRUCTIONS].per_message);
	CHECK_U64(read->slopes[METRIC_INSTRUCTIONS].cold, written->slopes[METRIC_INSTRUCTIONS].cold);
	CHECK(read->slopes[METRIC_ALLOCATIONS].per_message == written->slopes[METRIC_ALLOCATIONS].per_message);
	CHECK_U64(read->slopes[METRIC_ALLOCATIONS].cold, written->slopes[METRIC_ALLOCATIONS].cold);
	CHECK(read->slopes[METRIC_BYTES].per_message == written->slopes[METRIC_BYTES].per_message);
	CHECK_U64(read->slopes[METRIC_BYTES].cold, written->slopes[METRIC_BYTES].cold);
	CHECK_U64(read->function_count, written->function_count);
	for (i = 0; i < read->function_count && i < written->function_count; i++) {
		CHECK_STR(read->functions[i].name, written->functions[i].name);
		CHECK(read->functions[i].exclusive == written->functions[i].exclusive);
		CHECK(read->functions[i].inclusive == written->functions[i].inclusive);
		CHECK_U64(read->functions[i].cold_exclusive, written->functions[i].cold_exclusive);
		CHECK(read->functions[i].with_library == written->functions[i].with_library);
		CHECK(read->functions[i].project == written->functions[i].project);
	}
	CHECK_U64(read->site_count, written->site_count);
	for (i = 0; i < read->site_count && i < written->site_count; i++) {
		CHECK_STR(read->sites[i].location, written->sites[i].location);
		CHECK_STR(read->sites[i].stack, written->sites[i].stack);
		CHECK(read->sites[i].blocks == written->sites[i].blocks);
		CHECK(read->sites[i].bytes == written->sites[i].bytes);
		CHECK_U64(read->sites[i].cold_blocks, written->sites[i].cold_blocks);
		CHECK_U64(read->sites[i].cold_bytes, written->sites[i].cold_bytes);
	}
}

/* The document of `measurements` in fill_environment's environment, with `verdict` (taken) when
 * not NULL. */
static cJSON *document_of(const struct measurement *measurements, size_t count, cJSON *verdict)
{
	struct environment environment;
	cJSON *document;

	fill_environment(&environment);
	document = results_document(measurements, count, &environment, verdict);
	CHECK(document != NULL);
	environment_release(&environment);
	return document;
}

/* Writes `document` to a file of a scratch directory and reads the file into `results`. */
static void write_and_read(const cJSON *document, struct results *results)
{
	struct gate_error err = GATE_ERROR_INIT;
	char *directory = scratch_make("results"), path[600];

	snprintf(path, sizeof(path), "%s/results.json", directory);
	CHECK(results_write_file(document, path, &err) == 0);
	CHECK_STR(err.message, "");
	CHECK(results_read_file(results, path, &err) == 0);
	CHECK_STR(err.message, "");
	scratch_remove(directory);
}

static void results_should_read_back_every_figure_it_wrote_exactly(void)
{
	struct measurement measurements[3];
	struct environment environment;
	struct results results = RESULTS_INIT;
	cJSON *document;

	fill_batch(&measurements[0]);
	fill_broken(&measurements[1]);
	fill_consume_json(&measurements[2]);
	measurements[2].build = strdup("-std=gnu11 -O2 -g | link: | libraries: libc6 2.36-9+deb12u9");
	document = document_of(measurements, 3, NULL);
	write_and_read(document, &results);
	CHECK_U64(results.messages, 1000);
	CHECK_U64(results.count, 2); /* the failed one has no code entry */
	if (results.count == 2) {
		check_same_measurement(&results.measurements[0], &measurements[0]);
		check_same_measurement(&results.measurements[1], &measurements[2]);
		CHECK(results.measurements[0].build == NULL); /* not recorded: absent, not invented */
		CHECK_STR(results.measurements[1].build, measurements[2].build);
	}
	CHECK(results_find(&results, "broken") == NULL);
	CHECK_U64(results.failure_count, 1);
	if (results.failure_count == 1) {
		CHECK_STR(results.failures[0].info.name, "broken");
		CHECK(results.failures[0].failed);
		CHECK_STR(results.failures[0].failure, measurements[1].failure);
	}
	if (results.count == 2)
		CHECK_STR(results.measurements[1].raw_files[TOOL_DHAT][2], "consume_json.dhat.2.json");
	CHECK(results.fingerprint.schema == GATE_SCHEMA_VERSION);
	fill_environment(&environment);
	CHECK(environment_fingerprint_equal(&results.fingerprint, &environment, NULL, 0) == 1);
	CHECK_STR(results.fingerprint.valgrind, "3.19.0");
	CHECK_STR(results.fingerprint.dispatch_pin, GATE_DISPATCH_PIN);
	results_release(&results);
	CHECK(results.measurements == NULL && results.count == 0);
	cJSON_Delete(document);
	environment_release(&environment);
	release_all(measurements, 3);
}

static void results_should_keep_the_reference_schema_keys_and_list_failures(void)
{
	struct measurement measurements[3];
	cJSON *document;

	fill_batch(&measurements[0]);
	fill_broken(&measurements[1]);
	fill_consume_json(&measurements[2]);
	document = document_of(measurements, 3, NULL);
	CHECK(json_number_at(document, "schema") == 3);
	CHECK(cJSON_IsObject(json_at(document, "environment")));
	CHECK(cJSON_GetArraySize(json_at(document, "code")) == 2);
	CHECK_STR(json_string_at(document, "code[1].name"), "consume_json");
	CHECK(json_number_at(document, "code[1].messages") == 1000);
	CHECK(json_number_at(document, "code[1].framework.instructions") == 4000003000.0);
	CHECK(json_number_at(document, "code[1].framework.allocations") == 19.0);
	CHECK(json_number_at(document, "code[1].cold.instructions") == 3000000001.0);
	CHECK(json_number_at(document, "code[1].cold.allocations") == 19.0);
	CHECK(cJSON_IsTrue(json_at(document, "code[1].gated")));
	CHECK(cJSON_GetArraySize(json_at(document, "costgate.failures")) == 1);
	CHECK_STR(json_string_at(document, "costgate.failures[0].name"), "broken");
	CHECK_CONTAINS(json_string_at(document, "costgate.failures[0].failure"), "exited with 1");
	cJSON_Delete(document);
	release_all(measurements, 3);
}

/* results.h promises the code section in name order, whatever order the measurements come in. */
static void results_should_write_the_code_entries_in_name_order(void)
{
	struct measurement measurements[2];
	cJSON *document;

	fill_consume_json(&measurements[0]);
	fill_batch(&measurements[1]);
	document = document_of(measurements, 2, NULL);
	CHECK(cJSON_GetArraySize(json_at(document, "code")) == 2);
	CHECK_STR(json_string_at(document, "code[0].name"), "batch");
	CHECK_STR(json_string_at(document, "code[1].name"), "consume_json");
	cJSON_Delete(document);
	release_all(measurements, 2);
}

/* A run's document (one with a verdict) says where each scenario comes from and how long its
 * valgrind runs took, failed ones too, and reads them back; a baseline (no verdict) has neither,
 * since the seconds change from run to run. */
static void results_should_keep_each_runs_source_and_seconds_out_of_baselines(void)
{
	struct measurement measurements[2];
	struct results results = RESULTS_INIT;
	struct gate_error err = GATE_ERROR_INIT;
	cJSON *document;
	char *text;

	fill_consume_json(&measurements[0]);
	fill_broken(&measurements[1]);
	measurements[0].source = strdup("scenarios/consume_json.c");
	measurements[0].valgrind_seconds = 12.25;
	measurements[1].valgrind_seconds = 0.5;
	document = document_of(measurements, 2, NULL);
	CHECK(json_at(document, "costgate.runs") == NULL);
	cJSON_Delete(document);
	document = document_of(measurements, 2, cJSON_CreateObject());
	text = cJSON_PrintUnformatted(document);
	CHECK(results_parse(&results, text, strlen(text), "run.json", &err) == 0);
	CHECK_STR(err.message, "");
	CHECK(results.count == 1 && results.failure_count == 1);
	if (results.count == 1 && results.failure_count == 1) {
		CHECK_STR(results.measurements[0].source, "scenarios/consume_json.c");
		CHECK(results.measurements[0].valgrind_seconds == 12.25);
		CHECK(results.failures[0].source == NULL && results.failures[0].valgrind_seconds == 0.5);
	}
	results_release(&results);
	free(text);
	cJSON_Delete(document);
	release_all(measurements, 2);
}

/* costgate.runs names scenarios of the document, each with its seconds as a number. */
static void results_should_refuse_a_run_of_no_scenario(void)
{
	static const char *const runs[][2] = {
		{ "{\"absent\": {\"valgrind_seconds\": 1}}", "costgate.runs.absent names no scenario" },
		{ "{\"reply\": {\"valgrind_seconds\": \"1\"}}",
		  "costgate.runs.reply.valgrind_seconds is not a non-negative number" },
		{ "{\"reply\": {\"source\": 1, \"valgrind_seconds\": 1}}",
		  "costgate.runs.reply.source is not a string" },
	};
	char *text = NULL, *edited = NULL, *at;
	size_t length = 0, i;
	FILE *file = fopen(fixture("valid.json"), "rb");

	CHECK(file != NULL && getdelim(&text, &length, '\0', file) > 0);
	if (file != NULL)
		fclose(file);
	at = text != NULL ? strstr(text, "\"failures\": []") : NULL;
	CHECK(at != NULL);
	for (i = 0; at != NULL && i < sizeof(runs) / sizeof(runs[0]); i++) {
		struct results results = RESULTS_INIT;
		struct gate_error err = GATE_ERROR_INIT;

		CHECK(asprintf(&edited, "%.*s\"runs\": %s, %s", (int)(at - text), text, runs[i][0], at) > 0);
		CHECK(results_parse(&results, edited, strlen(edited), "run.json", &err) == -1);
		CHECK_CONTAINS(err.message, runs[i][1]);
		results_release(&results);
		free(edited);
	}
	free(text);
}

static void results_should_read_back_the_shard_it_was_marked_with(void)
{
	struct measurement measurement;
	struct results results = RESULTS_INIT;
	const char *const selected[] = { "batch", "consume_json", "reply" };
	cJSON *document;

	fill_batch(&measurement);
	document = document_of(&measurement, 1, NULL);
	CHECK(results_add_shard(document, 2, 3, selected, 3, true) == 0);
	write_and_read(document, &results);
	CHECK(results.shard_index == 2);
	CHECK(results.shard_count == 3);
	CHECK(results.filtered);
	CHECK_U64(results.selected_count, 3);
	if (results.selected_count == 3) {
		CHECK_STR(results.selected[0], "batch");
		CHECK_STR(results.selected[2], "reply");
	}
	results_release(&results);
	cJSON_Delete(document);
	measurement_release(&measurement);
}

static void results_should_read_a_committed_document(void)
{
	struct results results = RESULTS_INIT;
	struct gate_error err = GATE_ERROR_INIT;
	const struct measurement *consume, *reply;

	CHECK(results_read_file(&results, fixture("valid.json"), &err) == 0);
	CHECK_STR(err.message, "");
	CHECK_U64(results.count, 2);
	CHECK_U64(results.messages, 1000);
	CHECK_STR(results.fingerprint.compiler, "GNU 12.2.0");
	CHECK_STR(results.fingerprint.architecture, "x86_64"); /* from the environment block */
	CHECK_U64(results.failure_count, 0);
	CHECK_U64(results.shard_count, 0);
	if (results.count == 2) {
		CHECK_STR(results.measurements[0].info.name, "consume_json"); /* sorted */
		CHECK_STR(results.measurements[1].info.name, "reply");
	}
	consume = results_find(&results, "consume_json");
	reply = results_find(&results, "reply");
	CHECK(consume != NULL && reply != NULL);
	CHECK(results_find(&results, "batch") == NULL);
	CHECK(results_find(&results, "zzz") == NULL);
	if (consume != NULL && reply != NULL) {
		CHECK(consume->slopes[METRIC_INSTRUCTIONS].per_message == 17312.0);
		CHECK_U64(consume->slopes[METRIC_INSTRUCTIONS].cold, 23632);
		CHECK_U64(consume->function_count, 1);
		CHECK_U64(consume->site_count, 1);
		CHECK(reply->info.limit_percent == 5.0);
		CHECK(!reply->info.gated);
		CHECK(reply->slopes[METRIC_ALLOCATIONS].per_message == 2.0);
		CHECK_U64(reply->function_count, 0);
	}
	results_release(&results);
}

static const struct refused_fixture refused_fixtures[] = {
	{ "results_should_refuse_a_truncated_file", "truncated.json", "not JSON (at byte 1294)" },
	{ "results_should_refuse_a_scenario_name_that_is_not_a_name", "name-forged.json",
	  "code[0].name is not a scenario name ([a-z0-9_]{1,64})" },
	{ "results_should_refuse_a_file_that_is_not_json", "not-json.txt", "not JSON (at byte 0)" },
	{ "results_should_refuse_a_missing_file", "absent.json", "No such file or directory" },
	/* Regression: anything after the document (here a merge conflict marker) was once ignored. */
	{ "results_should_refuse_text_after_the_document", "trailing-text.json",
	  "text after the JSON value (at byte 1852)" },
	{ "results_should_refuse_a_top_level_schema_other_than_3", "schema-2.json",
	  "schema is not 3" },
	{ "results_should_refuse_another_gate_schema", "gate-schema-2.json",
	  "costgate.schema is not 1 (this gate reads schema 1 only)" },
	{ "results_should_refuse_a_missing_gate_schema", "gate-schema-missing.json",
	  "costgate.schema is not 1 (this gate reads schema 1 only)" },
	{ "results_should_refuse_a_document_without_a_fingerprint", "no-fingerprint.json",
	  "costgate.fingerprint not a JSON object" },
	{ "results_should_refuse_a_negative_count", "count-negative.json",
	  "code[1].counts.instructions[0] is not a non-negative integer below 2^53" },
	{ "results_should_refuse_a_count_that_is_a_string", "count-string.json",
	  "code[1].counts.instructions[1] is not a non-negative integer below 2^53" },
	{ "results_should_refuse_a_count_beyond_two_to_the_53", "count-huge.json",
	  "code[1].counts.instructions[2] is not a non-negative integer below 2^53" },
	{ "results_should_refuse_a_fractional_count", "count-fractional.json",
	  "code[1].counts.instructions[1] is not a non-negative integer below 2^53" },
	{ "results_should_refuse_a_figure_that_disagrees_with_its_counts", "framework-disagrees.json",
	  "code[1].framework.instructions is 17000 but its counts give 17312" },
	{ "results_should_refuse_a_scenario_listed_twice", "duplicate.json",
	  "scenario 'consume_json' appears twice" },
	{ "results_should_refuse_a_key_given_twice_in_one_object", "duplicate-key.json",
	  "the key 'gated' appears twice in one object" },
	{ "results_should_refuse_code_that_is_not_an_array", "code-not-array.json",
	  "code is missing or not an array" },
	{ "results_should_refuse_counts_that_do_not_grow", "counts-not-growing.json",
	  "code[1].counts instructions are implausible: count(2N) 17318804 is not above count(N) "
	  "17318804 (N = 1000)" },
};

/* Reads the row's fixture, which is refused with a message that names the file, and nothing
 * read is left. */
static void check_refused_fixture(const struct refused_fixture *row)
{
	struct results results = RESULTS_INIT;
	struct gate_error err = GATE_ERROR_INIT;

	CHECK(results_read_file(&results, fixture(row->fixture), &err) == -1);
	CHECK_ABOUT_FIXTURE(err.message, "cannot read results", row->fixture, row->problem);
	CHECK(results.measurements == NULL);
	CHECK_U64(results.count, 0);
	CHECK(results.fingerprint.valgrind == NULL);
	results_release(&results);
}

static void results_should_refuse_every_malformed_fixture(void)
{
	RUN_ROWS(check_refused_fixture, refused_fixtures);
}

/* consume_json's document, gating cycles and a peak floor or not, with the counts and figures
 * of each metric in `keys` (NULL-terminated) taken out, read back; returns what reading did.
 * `legacy`: it asks for cycles as earlier 0.3.0 documents did, "gate_cycles": true. */
static int read_without(bool gated, bool legacy, const char *const *keys, struct results *results,
			struct gate_error *err)
{
	struct measurement measurement;
	struct environment environment;
	cJSON *document, *entry;
	char *text;
	int status;

	fill_consume_json(&measurement);
	scenario_set_gate_metric(&measurement.info, "cycles", gated, NULL);
	if (!gated)
		scenario_set_floor(&measurement.info, "cold_peak_bytes", 0, NULL);
	fill_environment(&environment);
	document = results_document(&measurement, 1, &environment, NULL);
	entry = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(document, "code"), 0);
	if (legacy) {
		cJSON_DeleteItemFromObjectCaseSensitive(entry, "gate_metrics");
		cJSON_AddBoolToObject(entry, "gate_cycles", true);
	}
	for (; *keys != NULL; keys++) {
		cJSON_DeleteItemFromObjectCaseSensitive(cJSON_GetObjectItemCaseSensitive(entry, "counts"),
							*keys);
		cJSON_DeleteItemFromObjectCaseSensitive(cJSON_GetObjectItemCaseSensitive(entry, "metrics"),
							*keys);
	}
	text = json_print(document, true, NULL);
	status = results_parse(results, text, strlen(text), "without.json", err);
	free(text);
	cJSON_Delete(document);
	environment_release(&environment);
	release_all(&measurement, 1);
	return status;
}

static void check_without(const char *key, const char *problem, bool legacy)
{
	const char *keys[] = { key, NULL };
	struct results results = RESULTS_INIT;
	struct gate_error err = GATE_ERROR_INIT;

	CHECK(read_without(true, legacy, keys, &results, &err) == -1);
	CHECK_CONTAINS(err.message, "cannot read results 'without.json': ");
	CHECK_CONTAINS(err.message, problem);
	results_release(&results);
}

/* A metric the scenario's settings gate must have its counts: a document that leaves them out
 * must not pass the gate unchecked. One nothing gates may be absent (an older document). */
static void results_should_refuse_a_gated_metric_without_its_counts(void)
{
	check_without("cycles", "code[0].counts.cycles is missing (the scenario gates cycles)", false);
	check_without("cycles", "code[0].counts.cycles is missing (the scenario gates cycles)", true);
	check_without("peak_bytes", "code[0].counts.peak_bytes is missing (the scenario declares the "
				    "floor 'cold_peak_bytes')", false);
	check_without("bytes", "code[0].counts.bytes is missing (every document has it)", false);
	check_without("instructions", "code[0].counts.instructions is missing", false);
}

/* An earlier 0.3.0 document's "gate_cycles": true reads as asking for cycles. */
static void results_should_read_gate_cycles_as_asking_for_cycles(void)
{
	const char *keys[] = { NULL };
	struct results results = RESULTS_INIT;
	struct gate_error err = GATE_ERROR_INIT;

	CHECK(read_without(true, true, keys, &results, &err) == 0);
	CHECK_STR(err.message, "");
	CHECK(results.count == 1 && scenario_gates_metric(&results.measurements[0].info, "cycles"));
	results_release(&results);
}

static void results_should_read_a_document_without_a_metric_nothing_gates(void)
{
	const char *keys[] = { "cycles", "peak_bytes", NULL };
	struct results results = RESULTS_INIT;
	struct gate_error err = GATE_ERROR_INIT;

	CHECK(read_without(false, false, keys, &results, &err) == 0);
	CHECK_STR(err.message, "");
	CHECK(results.count == 1 && !results.measurements[0].has[METRIC_CYCLES] &&
	      !results.measurements[0].has[METRIC_PEAK_BYTES] && results.measurements[0].has[METRIC_BYTES]);
	results_release(&results);
}

/* Counts up to 2^53 - 1 and figures that need 17 digits are written so that they read back as
 * they were: cJSON's own printer writes 2^53 - 1 as 9.00719925474099e+15 (a fuzzing find). */
static void results_should_write_counts_and_figures_that_read_back_exactly(void)
{
	struct measurement measurement;
	struct results results = RESULTS_INIT;
	cJSON *document;

	fill_consume_json(&measurement);
	measurement.messages = 7;
	measurement.counts[METRIC_BYTES][0] = 0;
	measurement.counts[METRIC_BYTES][1] = 1;
	measurement.counts[METRIC_BYTES][2] = 9007199254740991ULL;
	measurement.counts[METRIC_INSTRUCTIONS][2] = measurement.counts[METRIC_INSTRUCTIONS][1] + 1000000003ULL;
	fill_slopes(&measurement);
	document = document_of(&measurement, 1, NULL);
	write_and_read(document, &results);
	if (results.count == 1) {
		CHECK(memcmp(results.measurements[0].counts, measurement.counts,
			     sizeof(measurement.counts)) == 0);
		CHECK(results.measurements[0].slopes[METRIC_BYTES].per_message ==
		      measurement.slopes[METRIC_BYTES].per_message);
		CHECK(results.measurements[0].slopes[METRIC_INSTRUCTIONS].per_message ==
		      1000000003.0 / 7.0);
	}
	results_release(&results);
	cJSON_Delete(document);
	release_all(&measurement, 1);
}

static void results_should_name_the_source_it_was_given(void)
{
	struct results results = RESULTS_INIT;
	struct gate_error err = GATE_ERROR_INIT;
	static const char text[] = "[3]";

	CHECK(results_parse(&results, text, sizeof(text) - 1, "main:baselines/main.json", &err) == -1);
	CHECK_STR(err.message, "cannot read results 'main:baselines/main.json': the document is not "
			       "a JSON object");
	results_release(&results);
}

static void results_write_should_leave_no_temporary_file_behind(void)
{
	struct measurement measurement;
	struct gate_error err = GATE_ERROR_INIT;
	struct results results = RESULTS_INIT;
	char *directory = scratch_make("results"), path[600], names[600];
	cJSON *first, *second;

	fill_batch(&measurement);
	first = document_of(&measurement, 1, NULL);
	second = document_of(NULL, 0, NULL);
	snprintf(path, sizeof(path), "%s/results.json", directory);
	CHECK(results_write_file(first, path, &err) == 0);
	list_directory(directory, names, sizeof(names));
	CHECK_STR(names, "results.json");
	/* A second write replaces the first whole. */
	CHECK(results_write_file(second, path, &err) == 0);
	list_directory(directory, names, sizeof(names));
	CHECK_STR(names, "results.json");
	CHECK(results_read_file(&results, path, &err) == 0);
	CHECK_U64(results.count, 0);
	results_release(&results);
	cJSON_Delete(first);
	cJSON_Delete(second);
	measurement_release(&measurement);
	scratch_remove(directory);
}

/* A write into a scratch directory that fails: to `file` there, after making the directory
 * `taken` there, or the directory itself read-only; the message and what the directory holds. */
struct refused_write {
	const char *name;
	const char *file;
	const char *taken;
	bool read_only;
	const char *problem; /* the message: "cannot write 'PATH': PROBLEM" */
	const char *left;    /* the names in the directory after, in order */
};

static const struct refused_write refused_writes[] = {
	{ "results_write_should_fail_cleanly_in_a_missing_directory", "absent/results.json", NULL,
	  false, "No such file or directory", "" },
	/* A directory where the file should go: the rename fails. */
	{ "results_write_should_remove_its_temporary_file_when_the_rename_fails", "taken", "taken",
	  false, "Is a directory", "taken" },
	{ "results_write_should_fail_cleanly_in_a_directory_it_cannot_write", "results.json", NULL,
	  true, "Permission denied", "" },
};

static void check_refused_write(const struct refused_write *row)
{
	struct gate_error err = GATE_ERROR_INIT;
	char *directory, path[600], names[600], expected[700];
	cJSON *document;

	if (row->read_only && geteuid() == 0) {
		check_skip(row->name, "root writes anywhere");
		return;
	}
	directory = scratch_make("results");
	document = document_of(NULL, 0, NULL);
	snprintf(path, sizeof(path), "%s/%s", directory, row->file);
	if (row->taken != NULL) {
		snprintf(names, sizeof(names), "%s/%s", directory, row->taken);
		CHECK(mkdir(names, 0755) == 0);
	}
	if (row->read_only)
		CHECK(chmod(directory, 0555) == 0);
	CHECK(results_write_file(document, path, &err) == -1);
	snprintf(expected, sizeof(expected), "cannot write '%s': %s", path, row->problem);
	CHECK_STR(err.message, expected);
	list_directory(directory, names, sizeof(names));
	CHECK_STR(names, row->left);
	CHECK(chmod(directory, 0755) == 0);
	cJSON_Delete(document);
	scratch_remove(directory);
}

static void results_write_should_fail_cleanly(void)
{
	RUN_ROWS(check_refused_write, refused_writes);
}

int main(void)
{
	return RUN_CASES(results_should_read_back_every_figure_it_wrote_exactly,
			 results_should_keep_the_reference_schema_keys_and_list_failures,
			 results_should_write_the_code_entries_in_name_order,
			 results_should_keep_each_runs_source_and_seconds_out_of_baselines,
			 results_should_refuse_a_run_of_no_scenario,
			 results_should_read_back_the_shard_it_was_marked_with,
			 results_should_read_a_committed_document,
			 results_should_refuse_every_malformed_fixture,
			 results_should_refuse_a_gated_metric_without_its_counts,
			 results_should_read_gate_cycles_as_asking_for_cycles,
			 results_should_read_a_document_without_a_metric_nothing_gates,
			 results_should_write_counts_and_figures_that_read_back_exactly,
			 results_should_name_the_source_it_was_given,
			 results_write_should_leave_no_temporary_file_behind,
			 results_write_should_fail_cleanly);
}
