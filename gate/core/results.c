/* Writing and reading results documents (results.json and baselines). Every JSON read and written
 * goes through cJSON; every value read is checked for type, sign and range, because a baseline
 * that parses into nonsense would let a regression pass. */
#define _GNU_SOURCE
#include "results.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <libgen.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fs.h"
#include "json_read.h"
#include "json_write.h"
#include "results_reader.h"
#include "text.h"

#define run_keys(tool) (tool_table[tool].name)

static cJSON *counts_array(const uint64_t counts[SLOPE_RUNS])
{
	double values[SLOPE_RUNS];
	size_t i;

	for (i = 0; i < SLOPE_RUNS; i++)
		values[i] = (double)counts[i];
	return cJSON_CreateDoubleArray(values, SLOPE_RUNS);
}

static cJSON *pair(const char *first_key, double first, const char *second_key, double second)
{
	cJSON *object = cJSON_CreateObject();

	if (cJSON_AddNumberToObject(object, first_key, first) == NULL ||
	    cJSON_AddNumberToObject(object, second_key, second) == NULL) {
		cJSON_Delete(object);
		return NULL;
	}
	return object;
}

static cJSON *functions_array(const struct measurement *measurement)
{
	cJSON *array = cJSON_CreateArray();
	size_t i;

	for (i = 0; array != NULL && i < measurement->function_count; i++) {
		const struct function_cost *cost = &measurement->functions[i];
		cJSON *item = cJSON_CreateObject();

		cJSON_AddItemToArray(array, item);
		if (cJSON_AddStringToObject(item, "name", cost->name) == NULL ||
		    cJSON_AddNumberToObject(item, "exclusive", cost->exclusive) == NULL ||
		    cJSON_AddNumberToObject(item, "inclusive", cost->inclusive) == NULL ||
		    cJSON_AddNumberToObject(item, "cold_exclusive", (double)cost->cold_exclusive) == NULL ||
		    cJSON_AddNumberToObject(item, "with_library", cost->with_library) == NULL ||
		    cJSON_AddBoolToObject(item, "project", cost->project) == NULL) {
			cJSON_Delete(array);
			return NULL;
		}
	}
	return array;
}

static cJSON *sites_array(const struct measurement *measurement)
{
	cJSON *array = cJSON_CreateArray();
	size_t i;

	for (i = 0; array != NULL && i < measurement->site_count; i++) {
		const struct site_cost *cost = &measurement->sites[i];
		cJSON *item = cJSON_CreateObject();

		cJSON_AddItemToArray(array, item);
		if (cJSON_AddStringToObject(item, "location", cost->location) == NULL ||
		    cJSON_AddStringToObject(item, "stack", cost->stack) == NULL ||
		    cJSON_AddNumberToObject(item, "blocks", cost->blocks) == NULL ||
		    cJSON_AddNumberToObject(item, "bytes", cost->bytes) == NULL ||
		    cJSON_AddNumberToObject(item, "cold_blocks", (double)cost->cold_blocks) == NULL ||
		    cJSON_AddNumberToObject(item, "cold_bytes", (double)cost->cold_bytes) == NULL) {
			cJSON_Delete(array);
			return NULL;
		}
	}
	return array;
}

static cJSON *raw_object(const struct measurement *measurement)
{
	cJSON *object = cJSON_CreateObject();
	size_t tool;

	for (tool = 0; object != NULL && tool < TOOL_COUNT; tool++) {
		const char *names[SLOPE_RUNS];

		/* An opt-in tool that did not run has no files and no key. */
		if (tool_table[tool].opt_in && measurement->raw_files[tool][0] == NULL)
			continue;
		size_t which;

		for (which = 0; which < SLOPE_RUNS; which++)
			names[which] = measurement->raw_files[tool][which] ? measurement->raw_files[tool][which] : "";
		if (!cJSON_AddItemToObject(object, run_keys(tool), cJSON_CreateStringArray(names, SLOPE_RUNS))) {
			cJSON_Delete(object);
			return NULL;
		}
	}
	return object;
}

/* Adds `item` to `object` under `key`; a NULL item (out of memory) makes the result 0. */
static int add(cJSON *object, const char *key, cJSON *item)
{
	return item != NULL && cJSON_AddItemToObject(object, key, item);
}

static int add_counts(cJSON *entry, const struct measurement *measurement)
{
	cJSON *counts = cJSON_AddObjectToObject(entry, "counts");
	size_t metric;

	for (metric = 0; counts != NULL && metric < METRIC_COUNT; metric++)
		if (measurement->has[metric] &&
		    !add(counts, metric_table[metric].key, counts_array(measurement->counts[metric])))
			return 0;
	return counts != NULL;
}

/* Every metric's figures, by its key: unit, per message and cold (metrics.h). */
static int add_metrics(cJSON *entry, const struct measurement *measurement)
{
	cJSON *metrics = cJSON_AddObjectToObject(entry, "metrics");
	size_t metric;

	for (metric = 0; metrics != NULL && metric < METRIC_COUNT; metric++) {
		cJSON *figures;

		if (!measurement->has[metric])
			continue;
		figures = pair("per_message", measurement->slopes[metric].per_message, "cold",
			       (double)measurement->slopes[metric].cold);
		if (figures == NULL || cJSON_AddStringToObject(figures, "unit",
							       metric_table[metric].unit) == NULL ||
		    !cJSON_AddItemToObject(metrics, metric_table[metric].key, figures)) {
			cJSON_Delete(figures);
			return 0;
		}
	}
	return metrics != NULL;
}

/* The optional floors the scenario declares, next to the allocation floors. */
static int add_optional_floors(cJSON *entry, const struct measurement *measurement)
{
	cJSON *floors = cJSON_GetObjectItemCaseSensitive(entry, "floors");
	size_t i;

	for (i = 0; floors != NULL && i < SCENARIO_FLOORS; i++)
		if (measurement->info.floors[i] != 0 &&
		    cJSON_AddNumberToObject(floors, scenario_floor_keys[i],
					    measurement->info.floors[i]) == NULL)
			return 0;
	return floors != NULL && (!measurement->info.gate_cycles ||
				  cJSON_AddBoolToObject(entry, "gate_cycles", true) != NULL);
}

static int add_linearity(cJSON *entry, const struct measurement *measurement)
{
	cJSON *linearity = cJSON_AddObjectToObject(entry, "linearity");

	return linearity != NULL &&
	       cJSON_AddNumberToObject(linearity, "instructions_percent",
				       measurement->slopes[METRIC_INSTRUCTIONS].linearity_percent) != NULL &&
	       cJSON_AddNumberToObject(linearity, "allocations_percent",
				       measurement->slopes[METRIC_ALLOCATIONS].linearity_percent) != NULL &&
	       cJSON_AddBoolToObject(linearity, "nonlinear",
				     measurement->slopes[METRIC_INSTRUCTIONS].nonlinear ||
					     measurement->slopes[METRIC_ALLOCATIONS].nonlinear) != NULL;
}

cJSON *results_code_entry(const struct measurement *measurement)
{
	cJSON *entry = cJSON_CreateObject();
	int ok = entry != NULL &&
		 cJSON_AddStringToObject(entry, "name", measurement->info.name) != NULL &&
		 cJSON_AddNumberToObject(entry, "messages", (double)measurement->messages) != NULL &&
		 add(entry, "framework", pair("instructions", measurement->slopes[METRIC_INSTRUCTIONS].per_message,
					      "allocations", measurement->slopes[METRIC_ALLOCATIONS].per_message)) &&
		 add(entry, "cold", pair("instructions", (double)measurement->slopes[METRIC_INSTRUCTIONS].cold,
					 "allocations", (double)measurement->slopes[METRIC_ALLOCATIONS].cold)) &&
		 cJSON_AddBoolToObject(entry, "gated", measurement->info.gated) != NULL &&
		 cJSON_AddStringToObject(entry, "title", measurement->info.title) != NULL &&
		 add(entry, "bytes", pair("per_message", measurement->slopes[METRIC_BYTES].per_message, "cold",
					  (double)measurement->slopes[METRIC_BYTES].cold)) &&
		 add(entry, "floors", pair("steady_allocations", measurement->info.steady_floor,
					   "cold_allocations", (double)measurement->info.cold_floor));

	if (ok && measurement->info.limit_percent > 0)
		ok = cJSON_AddNumberToObject(entry, "limit_percent", measurement->info.limit_percent) != NULL;
	if (ok && measurement->build != NULL)
		ok = cJSON_AddStringToObject(entry, "build", measurement->build) != NULL;
	ok = ok && add_optional_floors(entry, measurement) && add_counts(entry, measurement) &&
	     add_metrics(entry, measurement) && add_linearity(entry, measurement) &&
	     add(entry, "functions", functions_array(measurement)) &&
	     add(entry, "sites", sites_array(measurement)) && add(entry, "raw", raw_object(measurement));
	if (!ok) {
		cJSON_Delete(entry);
		return NULL;
	}
	return entry;
}

static cJSON *failures_array(const struct measurement *measurements, size_t count)
{
	cJSON *array = cJSON_CreateArray();
	size_t i;

	for (i = 0; array != NULL && i < count; i++) {
		cJSON *item;

		if (!measurements[i].failed)
			continue;
		item = cJSON_CreateObject();
		cJSON_AddItemToArray(array, item);
		if (cJSON_AddStringToObject(item, "name", measurements[i].info.name) == NULL ||
		    cJSON_AddStringToObject(item, "failure", measurements[i].failure) == NULL) {
			cJSON_Delete(array);
			return NULL;
		}
	}
	return array;
}

/* The whole process's counts at 1, N and 2N by scenario. Apart from the code section: unlike the
 * region's, they can differ by a few instructions between two runs of one program (start-up and
 * exit depend a little on the environment), so they are compared with a limit, never to the
 * digit. */
static cJSON *process_object(const struct measurement *measurements, size_t count)
{
	cJSON *object = cJSON_CreateObject();
	size_t i;

	for (i = 0; object != NULL && i < count; i++) {
		if (measurements[i].failed || !measurements[i].has_process)
			continue;
		if (!add(object, measurements[i].info.name,
			 counts_array(measurements[i].process_instructions))) {
			cJSON_Delete(object);
			return NULL;
		}
	}
	return object;
}

/* What one run of each scenario was, for the exports: the file that declares it and the wall
 * time of its valgrind runs. Only in a run's document, never in a baseline: the seconds change
 * from run to run and a committed file would change with them. */
static cJSON *runs_object(const struct measurement *measurements, size_t count)
{
	cJSON *object = cJSON_CreateObject();
	size_t i;

	for (i = 0; object != NULL && i < count; i++) {
		cJSON *run = cJSON_AddObjectToObject(object, measurements[i].info.name);

		if (run == NULL ||
		    (measurements[i].source != NULL &&
		     cJSON_AddStringToObject(run, "source", measurements[i].source) == NULL) ||
		    cJSON_AddNumberToObject(run, "valgrind_seconds",
					    measurements[i].valgrind_seconds) == NULL) {
			cJSON_Delete(object);
			return NULL;
		}
	}
	return object;
}

static cJSON *gate_block(const struct measurement *measurements, size_t count,
			 const struct environment *environment, cJSON *verdict)
{
	cJSON *block = cJSON_CreateObject();
	uint64_t messages = count > 0 ? measurements[0].messages : 0;
	int ok = block != NULL &&
		 cJSON_AddNumberToObject(block, "schema", GATE_SCHEMA_VERSION) != NULL &&
		 add(block, "fingerprint", environment_fingerprint_to_json(environment)) &&
		 cJSON_AddNumberToObject(block, "messages", (double)messages) != NULL &&
		 add(block, "failures", failures_array(measurements, count)) &&
		 add(block, "process_instructions", process_object(measurements, count));

	if (ok && verdict != NULL) {
		ok = add(block, "runs", runs_object(measurements, count)) &&
		     add(block, "verdict", verdict);
		verdict = NULL;
	}
	cJSON_Delete(verdict);
	if (!ok) {
		cJSON_Delete(block);
		return NULL;
	}
	return block;
}

static int compare_by_name(const void *left, const void *right)
{
	return strcmp((*(const struct measurement *const *)left)->info.name,
		      (*(const struct measurement *const *)right)->info.name);
}

cJSON *results_document(const struct measurement *measurements, size_t count,
			const struct environment *environment, cJSON *verdict)
{
	const struct measurement **sorted = calloc(count + 1, sizeof(*sorted));
	cJSON *document = cJSON_CreateObject();
	cJSON *code;
	size_t i;
	int ok = sorted != NULL && document != NULL &&
		 cJSON_AddNumberToObject(document, "schema", RESULTS_SCHEMA) != NULL &&
		 add(document, "environment", environment_to_json(environment)) &&
		 (code = cJSON_AddArrayToObject(document, "code")) != NULL;

	for (i = 0; sorted != NULL && i < count; i++)
		sorted[i] = &measurements[i];
	if (ok && count > 1)
		qsort(sorted, count, sizeof(*sorted), compare_by_name);
	for (i = 0; ok && i < count; i++)
		if (!sorted[i]->failed)
			ok = cJSON_AddItemToArray(code, results_code_entry(sorted[i]));
	free(sorted);
	if (ok)
		ok = add(document, "costgate", gate_block(measurements, count, environment, verdict));
	else
		cJSON_Delete(verdict);
	if (!ok) {
		cJSON_Delete(document);
		return NULL;
	}
	return document;
}

/* Writes the document through a temporary file in `directory` (NULL: beside `path`), one newline
 * at its end. Returns as fs_write_atomic. */
static int write_through(const cJSON *document, const char *path, const char *directory,
			 struct gate_error *err)
{
	size_t length = 0;
	char *text = json_print(document, true, &length);
	int status;

	if (text == NULL)
		return gate_error_set(err, "cannot write '%s': out of memory", path);
	text[length] = '\n'; /* the text ends without a newline; the NUL is not written */
	status = fs_write_atomic(path, text, length + 1, directory, err);
	free(text);
	return status;
}

int results_write_file(const cJSON *document, const char *path, struct gate_error *err)
{
	return write_through(document, path, NULL, err) == 0 ? 0 : -1;
}

int results_write_file_via(const cJSON *document, const char *path, const char *directory,
			   struct gate_error *err)
{
	int status = write_through(document, path, directory, err);

	return status == 1 ? results_write_file(document, path, err) : status;
}

int results_add_shard(cJSON *document, unsigned index, unsigned count, const char *const *selected,
		      size_t selected_count, bool filtered)
{
	cJSON *block = cJSON_GetObjectItemCaseSensitive(document, "costgate");
	cJSON *shard = cJSON_AddObjectToObject(block, "shard");
	cJSON *names;

	if (shard == NULL || cJSON_AddNumberToObject(shard, "index", index) == NULL ||
	    cJSON_AddNumberToObject(shard, "count", count) == NULL ||
	    cJSON_AddBoolToObject(shard, "filtered", filtered) == NULL)
		return -1;
	names = cJSON_CreateStringArray(selected, (int)selected_count);
	return names != NULL && cJSON_AddItemToObject(shard, "selected", names) ? 0 : -1;
}

/* Reading. Each reader names what it read by its path in the document ("code[2].messages"). */
int results_reader_bad(const struct results_reader *reader, const char *path, const char *problem)
{
	return gate_error_set(reader->err, "cannot read results '%s': %s %s", reader->source, path,
			      problem);
}

static int read_count(const struct results_reader *reader, const cJSON *item, const char *path,
		      uint64_t *value)
{
	if (item == NULL)
		return results_reader_bad(reader, path, "is missing");
	if (!json_read_count(item, value))
		return results_reader_bad(reader, path, "is not a non-negative integer below 2^53");
	return 0;
}

/* Any finite number within +-2^53 (per message figures of functions may be negative). */
static int read_number(const struct results_reader *reader, const cJSON *item, const char *path,
		       bool non_negative, double *value)
{
	if (item == NULL)
		return results_reader_bad(reader, path, "is missing");
	if (!json_read_number(item, non_negative, value))
		return results_reader_bad(reader, path, non_negative ? "is not a non-negative number"
						      : "is not a number");
	return 0;
}

static int read_string(const struct results_reader *reader, const cJSON *item, const char *path,
		       char **value)
{
	if (item == NULL)
		return results_reader_bad(reader, path, "is missing");
	if (!cJSON_IsString(item))
		return results_reader_bad(reader, path, "is not a string");
	*value = strdup(item->valuestring);
	return *value == NULL ? gate_error_set(reader->err, "out of memory") : 0;
}

static const cJSON *member(const cJSON *object, const char *key)
{
	return cJSON_GetObjectItemCaseSensitive(object, key);
}

static int read_counts(const struct results_reader *reader, const cJSON *counts, const char *prefix,
		       const char *key, uint64_t values[SLOPE_RUNS])
{
	const cJSON *array = member(counts, key);
	char path[160];
	size_t i;

	snprintf(path, sizeof(path), "%s.counts.%s", prefix, key);
	if (!cJSON_IsArray(array) || cJSON_GetArraySize(array) != SLOPE_RUNS)
		return results_reader_bad(reader, path, "is not an array of 3 counts (at 1, N and 2N)");
	for (i = 0; i < SLOPE_RUNS; i++) {
		char item_path[180];

		snprintf(item_path, sizeof(item_path), "%s[%zu]", path, i);
		if (read_count(reader, cJSON_GetArrayItem(array, (int)i), item_path, &values[i]) != 0)
			return -1;
	}
	return 0;
}

/* The stated figure must be what the counts give: a hand edit of one without the other is a
 * corrupt baseline, not a new limit. */
static int check_figure(const struct results_reader *reader, const cJSON *object, const char *prefix,
			const char *key, double expected)
{
	char path[160];
	double stated;

	snprintf(path, sizeof(path), "%s.%s", prefix, key);
	if (read_number(reader, member(object, key), path, true, &stated) != 0)
		return -1;
	/* cJSON writes a number so that it reads back to the same double: demand equality. */
	if (stated != expected) {
		char problem[160];

		snprintf(problem, sizeof(problem), "is %.17g but its counts give %.17g", stated, expected);
		return results_reader_bad(reader, path, problem);
	}
	return 0;
}

/* The metrics object, when there is one, must say what the counts give, metric by metric, and
 * name no metric without counts. */
static int read_metric_figures(const struct results_reader *reader, const cJSON *entry, const char *prefix,
			       struct measurement *measurement)
{
	const cJSON *metrics = member(entry, "metrics"), *item;
	char path[160];

	if (metrics == NULL)
		return 0;
	snprintf(path, sizeof(path), "%s.metrics", prefix);
	if (!cJSON_IsObject(metrics))
		return results_reader_bad(reader, path, "is not an object");
	cJSON_ArrayForEach(item, metrics) {
		const struct metric *metric = metric_find(item->string);
		size_t id;

		snprintf(path, sizeof(path), "%s.metrics.%s", prefix, item->string);
		if (metric == NULL)
			continue; /* a metric of a later gate: kept out, never compared */
		id = (size_t)(metric - metric_table);
		if (!measurement->has[id])
			return results_reader_bad(reader, path, "has no counts (counts.KEY)");
		if (!cJSON_IsObject(item))
			return results_reader_bad(reader, path, "is not an object");
		if (check_figure(reader, item, path, "per_message",
				 measurement->slopes[id].per_message) != 0 ||
		    check_figure(reader, item, path, "cold", (double)measurement->slopes[id].cold) != 0)
			return -1;
	}
	return 0;
}

static int read_slopes(const struct results_reader *reader, const cJSON *entry, const char *prefix,
		       struct measurement *measurement)
{
	const cJSON *counts = member(entry, "counts");
	struct gate_error slope_error = GATE_ERROR_INIT;
	char path[160];
	size_t metric;

	snprintf(path, sizeof(path), "%s.counts", prefix);
	if (!cJSON_IsObject(counts))
		return results_reader_bad(reader, path, "is not an object");
	/* Instructions, allocations and bytes are in every document, and so is a metric the
	 * scenario's settings gate; a metric gate measured later, or an opt-in one that did not run,
	 * may be absent: the verdict then says the baseline lacks it. */
	for (metric = 0; metric < METRIC_COUNT; metric++) {
		const char *key = metric_table[metric].key, *required;
		char why[96], problem[128];

		if (member(counts, key) == NULL) {
			required = metric_required_by(metric, &measurement->info, why, sizeof(why));
			if (required == NULL)
				continue;
			snprintf(path, sizeof(path), "%s.counts.%s", prefix, key);
			snprintf(problem, sizeof(problem), "is missing (%s)", required);
			return results_reader_bad(reader, path, problem);
		}
		if (read_counts(reader, counts, prefix, key, measurement->counts[metric]) != 0)
			return -1;
		measurement->has[metric] = true;
	}
	if (measurement_compute(measurement, &slope_error) != 0)
		return results_reader_bad(reader, path, slope_error.message);
	if (read_metric_figures(reader, entry, prefix, measurement) != 0)
		return -1;

	snprintf(path, sizeof(path), "%s.framework", prefix);
	if (!cJSON_IsObject(member(entry, "framework")))
		return results_reader_bad(reader, path, "is not an object");
	if (check_figure(reader, member(entry, "framework"), path, "instructions",
			 measurement->slopes[METRIC_INSTRUCTIONS].per_message) != 0 ||
	    check_figure(reader, member(entry, "framework"), path, "allocations",
			 measurement->slopes[METRIC_ALLOCATIONS].per_message) != 0)
		return -1;
	snprintf(path, sizeof(path), "%s.cold", prefix);
	if (!cJSON_IsObject(member(entry, "cold")))
		return results_reader_bad(reader, path, "is not an object");
	return check_figure(reader, member(entry, "cold"), path, "instructions",
			    (double)measurement->slopes[METRIC_INSTRUCTIONS].cold) != 0 ||
			       check_figure(reader, member(entry, "cold"), path, "allocations",
					    (double)measurement->slopes[METRIC_ALLOCATIONS].cold) != 0
		       ? -1
		       : 0;
}

static int read_functions(const struct results_reader *reader, const cJSON *array, const char *prefix,
			  struct measurement *measurement)
{
	size_t count = (size_t)cJSON_GetArraySize(array), i = 0;
	const cJSON *item;
	char path[200];

	measurement->functions = calloc(count + 1, sizeof(*measurement->functions));
	if (measurement->functions == NULL)
		return gate_error_set(reader->err, "out of memory");
	cJSON_ArrayForEach(item, array) {
		struct function_cost *cost = &measurement->functions[i];

		snprintf(path, sizeof(path), "%s.functions[%zu]", prefix, i++);
		if (!cJSON_IsObject(item))
			return results_reader_bad(reader, path, "is not an object");
		measurement->function_count++;
		if (read_string(reader, member(item, "name"), path, &cost->name) != 0 ||
		    read_number(reader, member(item, "exclusive"), path, false, &cost->exclusive) != 0 ||
		    read_number(reader, member(item, "inclusive"), path, false, &cost->inclusive) != 0 ||
		    read_count(reader, member(item, "cold_exclusive"), path, &cost->cold_exclusive) != 0)
			return -1;
		/* Absent before the project's functions were told apart: a system library's, then. */
		cost->with_library = cost->exclusive;
		if (member(item, "with_library") != NULL &&
		    read_number(reader, member(item, "with_library"), path, false,
				&cost->with_library) != 0)
			return -1;
		if (member(item, "project") != NULL && !cJSON_IsBool(member(item, "project")))
			return results_reader_bad(reader, path, "has a 'project' that is not a boolean");
		cost->project = cJSON_IsTrue(member(item, "project"));
	}
	return 0;
}

static int read_sites(const struct results_reader *reader, const cJSON *array, const char *prefix,
		      struct measurement *measurement)
{
	size_t count = (size_t)cJSON_GetArraySize(array), i = 0;
	const cJSON *item;
	char path[200];

	measurement->sites = calloc(count + 1, sizeof(*measurement->sites));
	if (measurement->sites == NULL)
		return gate_error_set(reader->err, "out of memory");
	cJSON_ArrayForEach(item, array) {
		struct site_cost *cost = &measurement->sites[i];

		snprintf(path, sizeof(path), "%s.sites[%zu]", prefix, i++);
		if (!cJSON_IsObject(item))
			return results_reader_bad(reader, path, "is not an object");
		measurement->site_count++;
		if (read_string(reader, member(item, "location"), path, &cost->location) != 0 ||
		    read_string(reader, member(item, "stack"), path, &cost->stack) != 0 ||
		    read_number(reader, member(item, "blocks"), path, false, &cost->blocks) != 0 ||
		    read_number(reader, member(item, "bytes"), path, false, &cost->bytes) != 0 ||
		    read_count(reader, member(item, "cold_blocks"), path, &cost->cold_blocks) != 0 ||
		    read_count(reader, member(item, "cold_bytes"), path, &cost->cold_bytes) != 0)
			return -1;
	}
	return 0;
}

/* The raw file names, kept so a document written again from what was read is the same. */
static int read_raw(const struct results_reader *reader, const cJSON *raw, const char *prefix,
		    struct measurement *measurement)
{
	size_t tool, which;
	char path[160];

	if (raw == NULL)
		return 0;
	for (tool = 0; tool < TOOL_COUNT; tool++) {
		const cJSON *names = member(raw, run_keys(tool));

		if (names == NULL && tool_table[tool].opt_in)
			continue;
		snprintf(path, sizeof(path), "%s.raw.%s", prefix, run_keys(tool));
		if (!cJSON_IsArray(names) || cJSON_GetArraySize(names) != SLOPE_RUNS)
			return results_reader_bad(reader, path, "is not an array of 3 file names");
		for (which = 0; which < SLOPE_RUNS; which++)
			if (read_string(reader, cJSON_GetArrayItem(names, (int)which), path,
					&measurement->raw_files[tool][which]) != 0)
				return -1;
	}
	return 0;
}

static int read_detail(const struct results_reader *reader, const cJSON *entry, const char *prefix,
		       struct measurement *measurement)
{
	const cJSON *functions = member(entry, "functions"), *sites = member(entry, "sites");
	char path[160];

	snprintf(path, sizeof(path), "%s.functions", prefix);
	if (functions != NULL && !cJSON_IsArray(functions))
		return results_reader_bad(reader, path, "is not an array");
	snprintf(path, sizeof(path), "%s.sites", prefix);
	if (sites != NULL && !cJSON_IsArray(sites))
		return results_reader_bad(reader, path, "is not an array");
	if (functions != NULL && read_functions(reader, functions, prefix, measurement) != 0)
		return -1;
	if (sites != NULL && read_sites(reader, sites, prefix, measurement) != 0)
		return -1;
	return read_raw(reader, member(entry, "raw"), prefix, measurement);
}

static int read_info(const struct results_reader *reader, const cJSON *entry, const char *prefix,
		     struct measurement *measurement)
{
	const cJSON *floors = member(entry, "floors"), *gated = member(entry, "gated");
	char path[160];
	size_t i;

	snprintf(path, sizeof(path), "%s.name", prefix);
	if (read_string(reader, member(entry, "name"), path, &measurement->info.name) != 0)
		return -1;
	if (!text_is_name(measurement->info.name))
		return results_reader_bad(reader, path, "is not a scenario name ([a-z0-9_]{1,64})");
	snprintf(path, sizeof(path), "%s.title", prefix);
	if (read_string(reader, member(entry, "title"), path, &measurement->info.title) != 0)
		return -1;
	snprintf(path, sizeof(path), "%s.build", prefix);
	if (member(entry, "build") != NULL &&
	    read_string(reader, member(entry, "build"), path, &measurement->build) != 0)
		return -1;
	snprintf(path, sizeof(path), "%s.gated", prefix);
	if (!cJSON_IsBool(gated))
		return results_reader_bad(reader, path, "is not a boolean");
	measurement->info.gated = cJSON_IsTrue(gated);
	snprintf(path, sizeof(path), "%s.messages", prefix);
	if (read_count(reader, member(entry, "messages"), path, &measurement->messages) != 0)
		return -1;
	if (measurement->messages < 2)
		return results_reader_bad(reader, path, "is below 2");
	snprintf(path, sizeof(path), "%s.floors", prefix);
	if (!cJSON_IsObject(floors))
		return results_reader_bad(reader, path, "is not an object");
	if (read_number(reader, member(floors, "steady_allocations"), path, true,
			&measurement->info.steady_floor) != 0 ||
	    read_count(reader, member(floors, "cold_allocations"), path, &measurement->info.cold_floor) != 0)
		return -1;
	for (i = 0; i < SCENARIO_FLOORS; i++)
		if (member(floors, scenario_floor_keys[i]) != NULL &&
		    read_number(reader, member(floors, scenario_floor_keys[i]), path, true,
				&measurement->info.floors[i]) != 0)
			return -1;
	snprintf(path, sizeof(path), "%s.gate_cycles", prefix);
	if (member(entry, "gate_cycles") != NULL) {
		if (!cJSON_IsBool(member(entry, "gate_cycles")))
			return results_reader_bad(reader, path, "is not a boolean");
		measurement->info.gate_cycles = cJSON_IsTrue(member(entry, "gate_cycles"));
	}
	snprintf(path, sizeof(path), "%s.limit_percent", prefix);
	if (member(entry, "limit_percent") != NULL &&
	    read_number(reader, member(entry, "limit_percent"), path, true,
			&measurement->info.limit_percent) != 0)
		return -1;
	return 0;
}

static int compare_measurements(const void *left, const void *right)
{
	return strcmp(((const struct measurement *)left)->info.name,
		      ((const struct measurement *)right)->info.name);
}

static int read_code(const struct results_reader *reader, const cJSON *code, struct results *results)
{
	size_t count = (size_t)cJSON_GetArraySize(code), i;
	const cJSON *entry;

	results->measurements = calloc(count + 1, sizeof(*results->measurements));
	if (results->measurements == NULL)
		return gate_error_set(reader->err, "out of memory");
	cJSON_ArrayForEach(entry, code) {
		struct measurement *measurement = &results->measurements[results->count];
		char prefix[64];

		snprintf(prefix, sizeof(prefix), "code[%zu]", results->count);
		if (!cJSON_IsObject(entry))
			return results_reader_bad(reader, prefix, "is not an object");
		results->count++;
		if (read_info(reader, entry, prefix, measurement) != 0 ||
		    read_slopes(reader, entry, prefix, measurement) != 0 ||
		    read_detail(reader, entry, prefix, measurement) != 0)
			return -1;
	}
	qsort(results->measurements, results->count, sizeof(*results->measurements),
	      compare_measurements);
	for (i = 1; i < results->count; i++)
		if (strcmp(results->measurements[i - 1].info.name, results->measurements[i].info.name) == 0)
			return gate_error_set(reader->err, "cannot read results '%s': scenario '%s' "
					      "appears twice", reader->source,
					      results->measurements[i].info.name);
	return 0;
}

static int read_failures(const struct results_reader *reader, const cJSON *array, struct results *results)
{
	const cJSON *item;
	char path[64];

	if (array == NULL)
		return 0;
	if (!cJSON_IsArray(array))
		return results_reader_bad(reader, "costgate.failures", "is not an array");
	results->failures = calloc((size_t)cJSON_GetArraySize(array) + 1, sizeof(*results->failures));
	if (results->failures == NULL)
		return gate_error_set(reader->err, "out of memory");
	cJSON_ArrayForEach(item, array) {
		struct measurement *failure = &results->failures[results->failure_count];
		char *text = NULL;

		snprintf(path, sizeof(path), "costgate.failures[%zu]", results->failure_count++);
		failure->failed = true;
		if (read_string(reader, member(item, "name"), path, &failure->info.name) != 0 ||
		    read_string(reader, member(item, "failure"), path, &text) != 0)
			return -1;
		if (!text_is_name(failure->info.name)) {
			free(text);
			return results_reader_bad(reader, path, "names no scenario ([a-z0-9_]{1,64})");
		}
		snprintf(failure->failure, sizeof(failure->failure), "%s", text);
		free(text);
	}
	return 0;
}

static int read_shard(const struct results_reader *reader, const cJSON *shard, struct results *results)
{
	const cJSON *selected = member(shard, "selected"), *item;
	uint64_t index = 0, count = 0;

	if (shard == NULL)
		return 0;
	if (read_count(reader, member(shard, "index"), "costgate.shard.index", &index) != 0 ||
	    read_count(reader, member(shard, "count"), "costgate.shard.count", &count) != 0)
		return -1;
	if (count < 1 || count > 64 || index < 1 || index > count)
		return results_reader_bad(reader, "costgate.shard", "is not K/M with 1 <= K <= M <= 64");
	if (!cJSON_IsBool(member(shard, "filtered")))
		return results_reader_bad(reader, "costgate.shard.filtered", "is not a boolean");
	if (!cJSON_IsArray(selected))
		return results_reader_bad(reader, "costgate.shard.selected", "is not an array");
	results->shard_index = (unsigned)index;
	results->shard_count = (unsigned)count;
	results->filtered = cJSON_IsTrue(member(shard, "filtered"));
	results->selected = calloc((size_t)cJSON_GetArraySize(selected) + 1, sizeof(char *));
	if (results->selected == NULL)
		return gate_error_set(reader->err, "out of memory");
	cJSON_ArrayForEach(item, selected)
		if (read_string(reader, item, "costgate.shard.selected[]",
				&results->selected[results->selected_count++]) != 0)
			return -1;
	return 0;
}

/* The machine facts, for a merged report; absent or odd ones are "unknown". */
static int read_environment_block(const cJSON *block, struct environment *environment)
{
	struct {
		const char *key;
		char **field;
	} facts[] = {
		{ "cpu", &environment->cpu },       { "architecture", &environment->architecture },
		{ "cores", &environment->cores },   { "memory", &environment->memory },
		{ "os", &environment->os },
	};
	const cJSON *debug_info = member(block, "debug_info");
	size_t i;

	for (i = 0; i < sizeof(facts) / sizeof(facts[0]); i++) {
		const cJSON *item = member(block, facts[i].key);

		*facts[i].field = strdup(cJSON_IsString(item) ? item->valuestring : "unknown");
		if (*facts[i].field == NULL)
			return -1;
	}
	/* Said only by a gate that knows (debugview.h); absent in older documents. */
	if (cJSON_IsString(debug_info) &&
	    (environment->debug_info = strdup(debug_info->valuestring)) == NULL)
		return -1;
	return 0;
}

static int read_gate_block(const struct results_reader *reader, const cJSON *block, struct results *results)
{
	const cJSON *schema = member(block, "schema");
	struct gate_error fingerprint_error = GATE_ERROR_INIT;

	if (!cJSON_IsObject(block))
		return results_reader_bad(reader, "costgate", "is missing or not an object");
	if (!cJSON_IsNumber(schema) || schema->valuedouble != GATE_SCHEMA_VERSION) {
		char problem[96];

		snprintf(problem, sizeof(problem), "is not %d (this gate reads schema %d only)",
			 GATE_SCHEMA_VERSION, GATE_SCHEMA_VERSION);
		return results_reader_bad(reader, "costgate.schema", problem);
	}
	if (read_count(reader, member(block, "messages"), "costgate.messages", &results->messages) != 0)
		return -1;
	if (environment_fingerprint_from_json(&results->fingerprint, member(block, "fingerprint"),
					      &fingerprint_error) != 0)
		return results_reader_bad(reader, "costgate.fingerprint",
			   strncmp(fingerprint_error.message, "fingerprint: ", 13) == 0
				   ? fingerprint_error.message + 13
				   : fingerprint_error.message);
	if (read_failures(reader, member(block, "failures"), results) != 0)
		return -1;
	return read_shard(reader, member(block, "shard"), results);
}

/* costgate.process_instructions: optional (documents from before gate counted the whole process
 * have none); each entry names a measured scenario. */
static int read_process(const struct results_reader *reader, const cJSON *object, struct results *results)
{
	const cJSON *item;
	char path[160];

	if (object == NULL)
		return 0;
	if (!cJSON_IsObject(object))
		return results_reader_bad(reader, "costgate.process_instructions", "is not an object");
	cJSON_ArrayForEach(item, object) {
		struct measurement *measurement = NULL;
		struct gate_error slope_error = GATE_ERROR_INIT;
		size_t i;

		for (i = 0; i < results->count && measurement == NULL; i++)
			if (strcmp(results->measurements[i].info.name, item->string) == 0)
				measurement = &results->measurements[i];
		snprintf(path, sizeof(path), "costgate.process_instructions.%.64s", item->string);
		if (measurement == NULL)
			return results_reader_bad(reader, path, "names no measured scenario");
		if (!cJSON_IsArray(item) || cJSON_GetArraySize(item) != SLOPE_RUNS)
			return results_reader_bad(reader, path, "is not an array of 3 counts (at 1, N and 2N)");
		for (i = 0; i < SLOPE_RUNS; i++)
			if (read_count(reader, cJSON_GetArrayItem(item, (int)i), path,
				       &measurement->process_instructions[i]) != 0)
				return -1;
		if (slope_compute(&measurement->process_slope, measurement->process_instructions,
				  measurement->messages, true, &slope_error) != 0)
			return results_reader_bad(reader, path, slope_error.message);
		measurement->has_process = true;
	}
	return 0;
}

/* The measurement or failure of that name, or NULL. */
static struct measurement *find_any(struct results *results, const char *name)
{
	size_t i;

	for (i = 0; i < results->count; i++)
		if (strcmp(results->measurements[i].info.name, name) == 0)
			return &results->measurements[i];
	for (i = 0; i < results->failure_count; i++)
		if (strcmp(results->failures[i].info.name, name) == 0)
			return &results->failures[i];
	return NULL;
}

/* costgate.runs: optional (a baseline has none); each entry names a scenario of the document. */
static int read_runs(const struct results_reader *reader, const cJSON *object, struct results *results)
{
	const cJSON *item;
	char path[160];

	if (object == NULL)
		return 0;
	if (!cJSON_IsObject(object))
		return results_reader_bad(reader, "costgate.runs", "is not an object");
	cJSON_ArrayForEach(item, object) {
		struct measurement *measurement = find_any(results, item->string);
		const cJSON *source = member(item, "source");
		char seconds_path[200], source_path[200];

		snprintf(path, sizeof(path), "costgate.runs.%.64s", item->string);
		snprintf(seconds_path, sizeof(seconds_path), "%s.valgrind_seconds", path);
		snprintf(source_path, sizeof(source_path), "%s.source", path);
		if (measurement == NULL)
			return results_reader_bad(reader, path, "names no scenario of the document");
		if (!cJSON_IsObject(item))
			return results_reader_bad(reader, path, "is not an object");
		if (read_number(reader, member(item, "valgrind_seconds"), seconds_path, true,
				&measurement->valgrind_seconds) != 0 ||
		    (source != NULL && read_string(reader, source, source_path, &measurement->source) != 0))
			return -1;
	}
	return 0;
}

int results_parse(struct results *results, const char *text, size_t length, const char *source,
		  struct gate_error *err)
{
	struct results_reader reader = { .source = source, .err = err };
	cJSON *root = json_read_document(text, length, err);
	const cJSON *schema;
	int status = -1;

	*results = (struct results)RESULTS_INIT;
	if (root == NULL) {
		gate_error_prefix(err, "cannot read results '%s'", source);
		goto out;
	}
	schema = member(root, "schema");
	if (!cJSON_IsObject(root)) {
		results_reader_bad(&reader, "the document", "is not a JSON object");
		goto out;
	}
	if (!cJSON_IsNumber(schema) || schema->valuedouble != RESULTS_SCHEMA) {
		results_reader_bad(&reader, "schema", "is not 3");
		goto out;
	}
	if (read_gate_block(&reader, member(root, "costgate"), results) != 0)
		goto out;
	if (read_environment_block(member(root, "environment"), &results->fingerprint) != 0) {
		gate_error_set(err, "out of memory");
		goto out;
	}
	if (!cJSON_IsArray(member(root, "code"))) {
		results_reader_bad(&reader, "code", "is missing or not an array");
		goto out;
	}
	status = read_code(&reader, member(root, "code"), results);
	if (status == 0)
		status = read_process(&reader, member(member(root, "costgate"), "process_instructions"),
				      results);
	if (status == 0)
		status = read_runs(&reader, member(member(root, "costgate"), "runs"), results);
out:
	cJSON_Delete(root);
	if (status != 0)
		results_release(results);
	return status;
}

int results_read_file(struct results *results, const char *path, struct gate_error *err)
{
	char *text = NULL;
	size_t length = 0;
	int status;

	*results = (struct results)RESULTS_INIT;
	if (fs_read_file(path, FS_READ_LIMIT, &text, &length) != 0)
		return gate_error_set(err, "cannot read results '%s': %s", path, strerror(errno));
	status = results_parse(results, text, length, path, err);
	free(text);
	return status;
}

const struct measurement *results_find(const struct results *results, const char *name)
{
	size_t low = 0, high = results->count;

	while (low < high) {
		size_t middle = low + (high - low) / 2;
		int order = strcmp(results->measurements[middle].info.name, name);

		if (order == 0)
			return &results->measurements[middle];
		if (order < 0)
			low = middle + 1;
		else
			high = middle;
	}
	return NULL;
}

void results_release(struct results *results)
{
	size_t i;

	if (results == NULL)
		return;
	for (i = 0; i < results->count; i++)
		measurement_release(&results->measurements[i]);
	free(results->measurements);
	for (i = 0; i < results->failure_count; i++)
		measurement_release(&results->failures[i]);
	free(results->failures);
	for (i = 0; i < results->selected_count; i++)
		free(results->selected[i]);
	free(results->selected);
	environment_release(&results->fingerprint);
	*results = (struct results)RESULTS_INIT;
}
