/* The results document's records (results_schema.h). Each table lists its members in the order
 * gate writes them; the custom members are the nested objects whose keys come from the metric
 * and tool tables. */
#define _GNU_SOURCE
#include "results_schema.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_read.h"
#include "measurement.h"
#include "text.h"

/* Shared pieces. */

cJSON *results_counts_array(const uint64_t counts[SLOPE_RUNS])
{
	double values[SLOPE_RUNS];
	size_t i;

	for (i = 0; i < SLOPE_RUNS; i++)
		values[i] = (double)counts[i];
	return cJSON_CreateDoubleArray(values, SLOPE_RUNS);
}

int results_counts_read(const struct json_reader *reader, const cJSON *array, const char *path,
			uint64_t values[SLOPE_RUNS])
{
	char where[300];
	size_t i;

	if (!cJSON_IsArray(array) || cJSON_GetArraySize(array) != SLOPE_RUNS)
		return json_reader_bad(reader, path, "is not an array of 3 counts (at 1, N and 2N)");
	for (i = 0; i < SLOPE_RUNS; i++) {
		snprintf(where, sizeof(where), "%s[%zu]", path, i);
		if (!json_read_count(cJSON_GetArrayItem(array, (int)i), &values[i]))
			return json_reader_bad(reader, where, "is not a non-negative integer below 2^53");
	}
	return 0;
}

/* A figure stated next to the counts it comes from must be what they give: a hand edit of one
 * without the other is a corrupt baseline, not a new limit. cJSON writes a number so that it
 * reads back to the same double, so equality is demanded. */
static int check_figure(const struct json_reader *reader, const cJSON *object, const char *path,
			const char *key, double expected)
{
	const cJSON *item = cJSON_GetObjectItemCaseSensitive(object, key);
	char where[300], problem[160];
	double stated;

	snprintf(where, sizeof(where), "%s.%s", path, key);
	if (item == NULL)
		return json_reader_bad(reader, where, "is missing");
	if (!json_read_number(item, true, &stated))
		return json_reader_bad(reader, where, "is not a non-negative number");
	if (stated == expected)
		return 0;
	snprintf(problem, sizeof(problem), "is %.17g but its counts give %.17g", stated, expected);
	return json_reader_bad(reader, where, problem);
}

/* Schema 3's two figures, instructions and allocations: per message (`framework`) or of the
 * 1-delivery run (`cold`). */
static const char *const pair_keys[] = { "instructions", "allocations" };
static const enum metric_id pair_metrics[] = { METRIC_INSTRUCTIONS, METRIC_ALLOCATIONS };

static double figure_of(const struct measurement *measurement, enum metric_id metric, bool cold)
{
	return cold ? (double)measurement->slopes[metric].cold : measurement->slopes[metric].per_message;
}

static cJSON *pair_object(const struct measurement *measurement, bool cold)
{
	cJSON *object = cJSON_CreateObject();
	size_t i;

	for (i = 0; object != NULL && i < 2; i++)
		if (cJSON_AddNumberToObject(object, pair_keys[i],
					    figure_of(measurement, pair_metrics[i], cold)) == NULL) {
			cJSON_Delete(object);
			return NULL;
		}
	return object;
}

/* Sets a figure read without counts (a lenient read of another tool's document). */
static int state_figure(const struct json_reader *reader, const cJSON *object, const char *path,
			const char *key, struct measurement *measurement, enum metric_id metric,
			bool cold)
{
	const cJSON *item = cJSON_GetObjectItemCaseSensitive(object, key);
	char where[300];
	double value;

	snprintf(where, sizeof(where), "%s.%s", path, key);
	if (item == NULL)
		return json_reader_bad(reader, where, "is missing");
	if (!json_read_number(item, true, &value))
		return json_reader_bad(reader, where, "is not a non-negative number");
	if (cold && !json_read_count(item, &measurement->slopes[metric].cold))
		return json_reader_bad(reader, where, "is not a non-negative integer below 2^53");
	if (!cold)
		measurement->slopes[metric].per_message = value;
	measurement->stated[metric] = true;
	return 0;
}

/* Before the counts are read the pair's figures are taken as stated; once counts are read
 * (results_code_record's finish) they are checked against them instead. */
static int read_pair(const struct json_reader *reader, const cJSON *item, const char *path,
		     struct measurement *measurement, bool cold)
{
	size_t i;

	if (!cJSON_IsObject(item))
		return json_reader_bad(reader, path, "is not an object");
	for (i = 0; i < 2; i++)
		if (state_figure(reader, item, path, pair_keys[i], measurement, pair_metrics[i],
				 cold) != 0)
			return -1;
	return 0;
}

static int check_pair(const struct json_reader *reader, const cJSON *entry, const char *path,
		      const struct measurement *measurement, bool cold)
{
	const char *key = cold ? "cold" : "framework";
	const cJSON *object = cJSON_GetObjectItemCaseSensitive(entry, key);
	char where[300];
	size_t i;

	snprintf(where, sizeof(where), "%s.%s", path, key);
	for (i = 0; i < 2; i++)
		if (check_figure(reader, object, where, pair_keys[i],
				 figure_of(measurement, pair_metrics[i], cold)) != 0)
			return -1;
	return 0;
}

/* framework and cold: schema 3's figures. */

static int read_framework(const struct json_reader *reader, const cJSON *item, const char *path,
			  void *record)
{
	return read_pair(reader, item, path, record, false);
}

static cJSON *write_framework(const void *record)
{
	return pair_object(record, false);
}

static int read_cold(const struct json_reader *reader, const cJSON *item, const char *path,
		     void *record)
{
	return read_pair(reader, item, path, record, true);
}

static cJSON *write_cold(const void *record)
{
	return pair_object(record, true);
}

/* A metric's per-message and cold figures: {"per_message": ..., "cold": ...}. */
static cJSON *slope_object(const struct measurement *measurement, size_t metric)
{
	cJSON *object = cJSON_CreateObject();

	if (cJSON_AddNumberToObject(object, "per_message", measurement->slopes[metric].per_message) == NULL ||
	    cJSON_AddNumberToObject(object, "cold", (double)measurement->slopes[metric].cold) == NULL) {
		cJSON_Delete(object);
		return NULL;
	}
	return object;
}

/* bytes: per message and cold, derived from counts.bytes and not read back. */
static cJSON *write_bytes(const void *record)
{
	return slope_object(record, METRIC_BYTES);
}

/* floors: the declared allocation floors, then the optional floors the scenario declares. */
static int read_floors(const struct json_reader *reader, const cJSON *item, const char *path,
		       void *record)
{
	struct scenario_info *info = &((struct measurement *)record)->info;
	const cJSON *value;
	char where[300];

	if (item == NULL)
		return 0;
	if (!cJSON_IsObject(item))
		return json_reader_bad(reader, path, "is not an object");
	snprintf(where, sizeof(where), "%s.steady_allocations", path);
	value = cJSON_GetObjectItemCaseSensitive(item, "steady_allocations");
	if (value == NULL || !json_read_number(value, true, &info->steady_floor))
		return json_reader_bad(reader, where, value == NULL ? "is missing"
								    : "is not a non-negative number");
	snprintf(where, sizeof(where), "%s.cold_allocations", path);
	value = cJSON_GetObjectItemCaseSensitive(item, "cold_allocations");
	if (value == NULL || !json_read_count(value, &info->cold_floor))
		return json_reader_bad(reader, where, value == NULL
							      ? "is missing"
							      : "is not a non-negative integer below 2^53");
	cJSON_ArrayForEach(value, item) {
		double floor;

		if (strcmp(value->string, "steady_allocations") == 0 ||
		    strcmp(value->string, "cold_allocations") == 0)
			continue;
		snprintf(where, sizeof(where), "%s.%s", path, value->string);
		if (metric_of_floor(value->string) == NULL)
			continue; /* a later gate's metric, like any key this one does not know */
		if (!json_read_number(value, true, &floor))
			return json_reader_bad(reader, where, "is not a non-negative number");
		if (scenario_set_floor(info, value->string, floor, reader->err) != 0)
			return -1;
	}
	return 0;
}

static int read_gate_metrics(const struct json_reader *reader, const cJSON *item, const char *path,
			     void *record)
{
	struct scenario_info *info = &((struct measurement *)record)->info;
	const cJSON *key;
	char where[300];
	size_t i = 0;

	if (item == NULL)
		return 0;
	if (!cJSON_IsArray(item))
		return json_reader_bad(reader, path, "is not an array");
	cJSON_ArrayForEach(key, item) {
		const struct metric *entry = cJSON_IsString(key) ? metric_find(key->valuestring) : NULL;

		snprintf(where, sizeof(where), "%s[%zu]", path, i++);
		if (!cJSON_IsString(key) || !text_is_name(key->valuestring))
			return json_reader_bad(reader, where, "is not a metric's key");
		if (entry == NULL || !entry->opt_in)
			continue; /* a later gate's metric, like any key this one does not know */
		if (scenario_set_gate_metric(info, entry->key, true, reader->err) != 0)
			return -1;
	}
	return 0;
}

/* gate_cycles, as earlier 0.3.0 documents asked for cycles: read before the counts, whose
 * reader checks that the metrics a scenario gates are there. */
static int read_gate_cycles(const struct json_reader *reader, const cJSON *item, const char *path,
			    void *record)
{
	if (item == NULL)
		return 0;
	if (!cJSON_IsBool(item))
		return json_reader_bad(reader, path, "is not a boolean");
	return scenario_set_gate_metric(&((struct measurement *)record)->info, "cycles",
					cJSON_IsTrue(item), reader->err);
}

static cJSON *write_gate_metrics(const void *record)
{
	const struct scenario_info *info = &((const struct measurement *)record)->info;
	cJSON *array = cJSON_CreateArray();
	size_t i;

	for (i = 0; array != NULL && i < info->gate_metric_count; i++)
		if (!cJSON_AddItemToArray(array, cJSON_CreateString(info->gate_metrics[i]))) {
			cJSON_Delete(array);
			return NULL;
		}
	return array;
}

static cJSON *write_floors(const void *record)
{
	const struct scenario_info *info = &((const struct measurement *)record)->info;
	cJSON *object = cJSON_CreateObject();
	size_t i;
	int ok = cJSON_AddNumberToObject(object, "steady_allocations", info->steady_floor) != NULL &&
		 cJSON_AddNumberToObject(object, "cold_allocations", (double)info->cold_floor) != NULL;

	for (i = 0; ok && i < info->floor_count; i++)
		ok = cJSON_AddNumberToObject(object, info->floors[i].key, info->floors[i].value) != NULL;
	if (!ok) {
		cJSON_Delete(object);
		return NULL;
	}
	return object;
}

/* counts: every metric's region counts at 1, N and 2N, by the metric table's key. Instructions,
 * allocations and bytes are in every document, and so is a metric the scenario's settings gate;
 * a metric gate measured later, or an opt-in one that did not run, may be absent: the verdict
 * then says the baseline lacks it. The figures are computed here, once all are read. */
static int read_metric_counts(const struct json_reader *reader, const cJSON *item,
			      const char *path, void *record)
{
	struct measurement *measurement = record;
	struct gate_error slope_error = GATE_ERROR_INIT;
	size_t metric;

	/* Without N the counts give no figure: a lenient read takes the stated ones instead. */
	if (item == NULL || (reader->lenient && measurement->messages < 2))
		return 0;
	if (!cJSON_IsObject(item))
		return json_reader_bad(reader, path, "is not an object");
	for (metric = 0; metric < METRIC_COUNT; metric++) {
		const char *key = metric_table[metric].key, *required;
		const cJSON *counts = cJSON_GetObjectItemCaseSensitive(item, key);
		char where[300], why[96], problem[128];

		snprintf(where, sizeof(where), "%s.%s", path, key);
		if (counts == NULL) {
			required = metric_required_by(metric, &measurement->info, why, sizeof(why));
			if (required == NULL)
				continue;
			snprintf(problem, sizeof(problem), "is missing (%s)", required);
			return json_reader_bad(reader, where, problem);
		}
		if (results_counts_read(reader, counts, where, measurement->counts[metric]) != 0)
			return -1;
		measurement->has[metric] = true;
	}
	if (measurement_compute(measurement, &slope_error) != 0)
		return json_reader_bad(reader, path, slope_error.message);
	return 0;
}

/* An object with one member per metric the measurement has counts of, by the table's key. */
static cJSON *per_metric(const struct measurement *measurement,
			 cJSON *(*value)(const struct measurement *measurement, size_t metric))
{
	cJSON *object = cJSON_CreateObject();
	size_t metric;

	for (metric = 0; object != NULL && metric < METRIC_COUNT; metric++) {
		cJSON *item;

		if (!measurement->has[metric])
			continue;
		item = value(measurement, metric);
		if (item == NULL || !cJSON_AddItemToObject(object, metric_table[metric].key, item)) {
			cJSON_Delete(item);
			cJSON_Delete(object);
			return NULL;
		}
	}
	return object;
}

static cJSON *counts_of(const struct measurement *measurement, size_t metric)
{
	return results_counts_array(measurement->counts[metric]);
}

static cJSON *write_metric_counts(const void *record)
{
	return per_metric(record, counts_of);
}

/* metrics: per metric its unit, per message and cold figures. With counts they must say what
 * the counts give; without (a lenient read) they are taken as stated. A key of a later gate's
 * metric is kept out, never compared. */
static int read_metrics(const struct json_reader *reader, const cJSON *item, const char *path,
			void *record)
{
	struct measurement *measurement = record;
	const cJSON *figures;

	if (item == NULL)
		return 0;
	if (!cJSON_IsObject(item))
		return json_reader_bad(reader, path, "is not an object");
	cJSON_ArrayForEach(figures, item) {
		const struct metric *metric = metric_find(figures->string);
		char where[300], quoted[300];
		size_t id;

		snprintf(where, sizeof(where), "%s.%s", path,
			 text_quote(quoted, sizeof(quoted), figures->string));
		if (metric == NULL)
			continue;
		id = (size_t)(metric - metric_table);
		if (!cJSON_IsObject(figures))
			return json_reader_bad(reader, where, "is not an object");
		if (measurement->has[id]) {
			if (check_figure(reader, figures, where, "per_message",
					 measurement->slopes[id].per_message) != 0 ||
			    check_figure(reader, figures, where, "cold",
					 (double)measurement->slopes[id].cold) != 0)
				return -1;
		} else if (!reader->lenient) {
			return json_reader_bad(reader, where, "has no counts (counts.KEY)");
		} else if (state_figure(reader, figures, where, "per_message", measurement,
					(enum metric_id)id, false) != 0 ||
			   state_figure(reader, figures, where, "cold", measurement,
					(enum metric_id)id, true) != 0) {
			return -1;
		}
	}
	return 0;
}

static cJSON *figures_of(const struct measurement *measurement, size_t metric)
{
	cJSON *figures = slope_object(measurement, metric);

	if (figures != NULL && cJSON_AddStringToObject(figures, "unit", metric_table[metric].unit) == NULL) {
		cJSON_Delete(figures);
		return NULL;
	}
	return figures;
}

static cJSON *write_metrics(const void *record)
{
	return per_metric(record, figures_of);
}

/* linearity: derived from the counts, written for readers and not read back. */
static cJSON *write_linearity(const void *record)
{
	const struct slope *slopes = ((const struct measurement *)record)->slopes;
	cJSON *object = cJSON_CreateObject();

	if (cJSON_AddNumberToObject(object, "instructions_percent",
				    slopes[METRIC_INSTRUCTIONS].linearity_percent) == NULL ||
	    cJSON_AddNumberToObject(object, "allocations_percent",
				    slopes[METRIC_ALLOCATIONS].linearity_percent) == NULL ||
	    cJSON_AddBoolToObject(object, "nonlinear", slopes[METRIC_INSTRUCTIONS].nonlinear ||
							       slopes[METRIC_ALLOCATIONS].nonlinear) == NULL) {
		cJSON_Delete(object);
		return NULL;
	}
	return object;
}

/* raw: the output files of each tool's three runs, kept so a document written again from what
 * was read is the same. An opt-in tool that did not run has no files and no key. */
static int read_raw(const struct json_reader *reader, const cJSON *item, const char *path,
		    void *record)
{
	struct measurement *measurement = record;
	size_t tool, which;

	if (item == NULL)
		return 0;
	if (!cJSON_IsObject(item))
		return json_reader_bad(reader, path, "is not an object");
	for (tool = 0; tool < TOOL_COUNT; tool++) {
		const cJSON *names = cJSON_GetObjectItemCaseSensitive(item, tool_table[tool].name);
		char where[300];

		if (names == NULL && tool_table[tool].opt_in)
			continue;
		snprintf(where, sizeof(where), "%s.%s", path, tool_table[tool].name);
		if (!cJSON_IsArray(names) || cJSON_GetArraySize(names) != SLOPE_RUNS)
			return json_reader_bad(reader, where, "is not an array of 3 file names");
		for (which = 0; which < SLOPE_RUNS; which++) {
			const cJSON *name = cJSON_GetArrayItem(names, (int)which);

			if (!cJSON_IsString(name))
				return json_reader_bad(reader, where, "is not an array of 3 file names");
			measurement->raw_files[tool][which] = strdup(name->valuestring);
			if (measurement->raw_files[tool][which] == NULL)
				return gate_error_oom(reader->err);
		}
	}
	return 0;
}

static cJSON *write_raw(const void *record)
{
	const struct measurement *measurement = record;
	cJSON *object = cJSON_CreateObject();
	size_t tool, which;

	for (tool = 0; object != NULL && tool < TOOL_COUNT; tool++) {
		const char *names[SLOPE_RUNS];

		if (tool_table[tool].opt_in && measurement->raw_files[tool][0] == NULL)
			continue;
		for (which = 0; which < SLOPE_RUNS; which++)
			names[which] = measurement->raw_files[tool][which] != NULL
					       ? measurement->raw_files[tool][which]
					       : "";
		if (!cJSON_AddItemToObject(object, tool_table[tool].name,
					   cJSON_CreateStringArray(names, SLOPE_RUNS))) {
			cJSON_Delete(object);
			return NULL;
		}
	}
	return object;
}

/* What no single member can say: the name is a scenario's, N is at least 2, and schema 3's
 * figures are what the counts give. A lenient read of a document without counts takes the
 * figures as stated and any name. */
static int finish_code(const struct json_reader *reader, const cJSON *object, const char *path,
		       void *record)
{
	struct measurement *measurement = record;
	char where[300];

	if (!reader->lenient && !text_is_name(measurement->info.name)) {
		snprintf(where, sizeof(where), "%s.name", path);
		return json_reader_bad(reader, where, "is not a scenario name ([a-z0-9_]{1,64})");
	}
	if (!reader->lenient && measurement->messages < 2) {
		snprintf(where, sizeof(where), "%s.messages", path);
		return json_reader_bad(reader, where, "is below 2");
	}
	if (!flame_frames_valid(measurement->frames, measurement->frame_count)) {
		snprintf(where, sizeof(where), "%s.frames", path);
		return json_reader_bad(reader, where, "is no call tree (the first at depth 0, each at "
				       "most one level below the one before)");
	}
	if (!measurement->has[METRIC_INSTRUCTIONS])
		return 0;
	memset(measurement->stated, 0, sizeof(measurement->stated));
	return check_pair(reader, object, path, measurement, false) != 0 ||
			       check_pair(reader, object, path, measurement, true) != 0
		       ? -1
		       : 0;
}

static const struct json_field code_fields[] = {
	{ .key = "name", JSON_TEXT_MEMBER(struct measurement, info.name), .need = JSON_REQUIRED,
	  .since = "0.1.0" },
	{ .key = "messages", JSON_COUNT_MEMBER(struct measurement, messages), .need = JSON_STRICT,
	  .since = "0.1.0" },
	{ .key = "framework", .type = JSON_CUSTOM, .need = JSON_REQUIRED, .since = "0.1.0",
	  .shape = "object: instructions, allocations per message", .read = read_framework,
	  .write = write_framework },
	{ .key = "cold", .type = JSON_CUSTOM, .need = JSON_REQUIRED, .since = "0.1.0",
	  .shape = "object: instructions, allocations of the 1-delivery run", .read = read_cold,
	  .write = write_cold },
	{ .key = "gated", JSON_BOOL_MEMBER(struct measurement, info.gated), .need = JSON_STRICT,
	  .since = "0.1.0", .present = JSON_PRESENT(struct measurement, has_gated) },
	{ .key = "title", JSON_TEXT_MEMBER(struct measurement, info.title), .need = JSON_STRICT,
	  .since = "0.1.0" },
	{ .key = "bytes", .type = JSON_CUSTOM, .need = JSON_OPTIONAL, .since = "0.1.0",
	  .shape = "object: per_message, cold (from counts.bytes; not read)", .write = write_bytes },
	{ .key = "floors", .type = JSON_CUSTOM, .need = JSON_STRICT, .since = "0.1.0",
	  .shape = "object: steady_allocations, cold_allocations, the optional floors",
	  .read = read_floors, .write = write_floors },
	{ .key = "limit_percent", JSON_NONNEG_MEMBER(struct measurement, info.limit_percent),
	  .need = JSON_OPTIONAL, .since = "0.1.0", .flags = JSON_OMIT_EMPTY },
	{ .key = "build", JSON_TEXT_MEMBER(struct measurement, build), .need = JSON_OPTIONAL,
	  .since = "0.2.0", .flags = JSON_OMIT_EMPTY },
	{ .key = "telltales", JSON_TEXT_MEMBER(struct measurement, telltales),
	  .need = JSON_OPTIONAL, .since = "0.3.0", .flags = JSON_OMIT_EMPTY },
	{ .key = "gate_metrics", .type = JSON_CUSTOM, .need = JSON_OPTIONAL, .since = "0.3.0",
	  .flags = JSON_OMIT_EMPTY,
	  .shape = "array: the keys of the metrics gated on request that the scenario gates "
		   "(or \"gate_cycles\": true, as earlier 0.3.0 documents say it)",
	  .read = read_gate_metrics, .write = write_gate_metrics },
	{ .key = "gate_cycles", .type = JSON_CUSTOM, .need = JSON_OPTIONAL, .since = "0.3.0",
	  .flags = JSON_OMIT_EMPTY, .shape = "boolean: true is \"cycles\" in gate_metrics (read, never written)",
	  .read = read_gate_cycles },
	{ .key = "linearity_percent", JSON_NONNEG_MEMBER(struct measurement, info.linearity_percent),
	  .need = JSON_OPTIONAL, .since = "0.3.0", .flags = JSON_OMIT_EMPTY },
	{ .key = "allocator_limit_percent",
	  JSON_NONNEG_MEMBER(struct measurement, info.allocator_limit_percent),
	  .need = JSON_OPTIONAL, .since = "0.3.0", .flags = JSON_OMIT_EMPTY },
	{ .key = "counts", .type = JSON_CUSTOM, .need = JSON_STRICT, .since = "0.1.0",
	  .shape = "object: per metric key, its counts at 1, N and 2N", .read = read_metric_counts,
	  .write = write_metric_counts },
	{ .key = "metrics", .type = JSON_CUSTOM, .need = JSON_OPTIONAL, .since = "0.3.0",
	  .shape = "object: per metric key, per_message, cold and unit", .read = read_metrics,
	  .write = write_metrics },
	{ .key = "linearity", .type = JSON_CUSTOM, .need = JSON_OPTIONAL, .since = "0.1.0",
	  .shape = "object: instructions_percent, allocations_percent, nonlinear (not read)",
	  .write = write_linearity },
	{ .key = "functions",
	  JSON_ARRAY_MEMBER(struct measurement, functions, function_count, &results_function_record),
	  .need = JSON_OPTIONAL, .since = "0.1.0", .shape = "array of functions" },
	{ .key = "sites", JSON_ARRAY_MEMBER(struct measurement, sites, site_count, &results_site_record),
	  .need = JSON_OPTIONAL, .since = "0.1.0", .shape = "array of allocation sites" },
	{ .key = "lines", JSON_ARRAY_MEMBER(struct measurement, lines, line_count, &results_line_record),
	  .need = JSON_OPTIONAL, .since = "0.3.0", .shape = "array of source lines" },
	{ .key = "frames",
	  JSON_ARRAY_MEMBER(struct measurement, frames, frame_count, &results_frame_record),
	  .need = JSON_OPTIONAL, .since = "0.3.0", .shape = "array of call-tree frames" },
	{ .key = "fill_per_message", JSON_NONNEG_MEMBER(struct measurement, fill_per_message),
	  .need = JSON_OPTIONAL, .since = "0.3.0", .flags = JSON_OMIT_EMPTY,
	  .present = JSON_PRESENT(struct measurement, has_fill) },
	{ .key = "fill_functions",
	  JSON_ARRAY_MEMBER(struct measurement, fill_functions, fill_function_count,
			    &results_function_record),
	  .need = JSON_OPTIONAL, .since = "0.3.0", .shape = "array of functions",
	  .flags = JSON_OMIT_EMPTY },
	{ .key = "raw", .type = JSON_CUSTOM, .need = JSON_OPTIONAL, .since = "0.1.0",
	  .shape = "object: per tool, its three output files", .read = read_raw,
	  .write = write_raw },
};

const struct json_record results_code_record = JSON_RECORD("code entry", code_fields, finish_code);

static const struct json_field function_fields[] = {
	{ .key = "name", JSON_TEXT_MEMBER(struct function_cost, name), .need = JSON_REQUIRED,
	  .since = "0.1.0" },
	{ .key = "exclusive", JSON_NUMBER_MEMBER(struct function_cost, exclusive),
	  .need = JSON_REQUIRED, .since = "0.1.0" },
	{ .key = "inclusive", JSON_NUMBER_MEMBER(struct function_cost, inclusive),
	  .need = JSON_REQUIRED, .since = "0.1.0" },
	{ .key = "cold_exclusive", JSON_COUNT_MEMBER(struct function_cost, cold_exclusive),
	  .need = JSON_REQUIRED, .since = "0.1.0" },
	{ .key = "with_library", JSON_NUMBER_MEMBER(struct function_cost, with_library),
	  .need = JSON_OPTIONAL, .since = "0.2.0" },
	{ .key = "project", JSON_BOOL_MEMBER(struct function_cost, project), .need = JSON_OPTIONAL,
	  .since = "0.2.0" },
	{ .key = "with_library_early", JSON_NUMBER_MEMBER(struct function_cost, with_library_early),
	  .need = JSON_OPTIONAL, .since = "0.3.0" },
	{ .key = "harness", JSON_BOOL_MEMBER(struct function_cost, harness), .need = JSON_OPTIONAL,
	  .since = "0.3.0", .flags = JSON_OMIT_EMPTY },
	{ .key = "syscalls", JSON_NUMBER_MEMBER(struct function_cost, syscalls),
	  .need = JSON_OPTIONAL, .since = "0.3.0", .flags = JSON_OMIT_EMPTY },
	{ .key = "cold_syscalls", JSON_COUNT_MEMBER(struct function_cost, cold_syscalls),
	  .need = JSON_OPTIONAL, .since = "0.3.0", .flags = JSON_OMIT_EMPTY },
};

/* with_library is absent before the project's functions were told apart: a system library's,
 * then, its own instructions. */
static int finish_function(const struct json_reader *reader, const cJSON *object, const char *path,
			   void *record)
{
	struct function_cost *cost = record;

	(void)reader;
	(void)path;
	if (cJSON_GetObjectItemCaseSensitive(object, "with_library") == NULL)
		cost->with_library = cost->exclusive;
	if (cJSON_GetObjectItemCaseSensitive(object, "with_library_early") == NULL)
		cost->with_library_early = cost->with_library;
	return 0;
}

const struct json_record results_function_record = JSON_RECORD("function", function_fields,
							       finish_function);

static const struct json_field site_fields[] = {
	{ .key = "location", JSON_TEXT_MEMBER(struct site_cost, location), .need = JSON_REQUIRED,
	  .since = "0.1.0" },
	{ .key = "stack", JSON_TEXT_MEMBER(struct site_cost, stack), .need = JSON_REQUIRED,
	  .since = "0.1.0" },
	{ .key = "blocks", JSON_NUMBER_MEMBER(struct site_cost, blocks), .need = JSON_REQUIRED,
	  .since = "0.1.0" },
	{ .key = "bytes", JSON_NUMBER_MEMBER(struct site_cost, bytes), .need = JSON_REQUIRED,
	  .since = "0.1.0" },
	{ .key = "cold_blocks", JSON_COUNT_MEMBER(struct site_cost, cold_blocks),
	  .need = JSON_REQUIRED, .since = "0.1.0" },
	{ .key = "cold_bytes", JSON_COUNT_MEMBER(struct site_cost, cold_bytes),
	  .need = JSON_REQUIRED, .since = "0.1.0" },
};

const struct json_record results_site_record = JSON_RECORD("allocation site", site_fields, NULL);

static const struct json_field line_fields[] = {
	{ .key = "file", JSON_TEXT_MEMBER(struct line_cost, file), .need = JSON_REQUIRED,
	  .since = "0.3.0" },
	{ .key = "line", JSON_COUNT_MEMBER(struct line_cost, line), .need = JSON_REQUIRED,
	  .since = "0.3.0" },
	{ .key = "function", JSON_TEXT_MEMBER(struct line_cost, function), .need = JSON_REQUIRED,
	  .since = "0.3.0" },
	{ .key = "text", JSON_TEXT_MEMBER(struct line_cost, text), .need = JSON_REQUIRED,
	  .since = "0.3.0" },
	{ .key = "instructions", JSON_NUMBER_MEMBER(struct line_cost, instructions),
	  .need = JSON_REQUIRED, .since = "0.3.0" },
};

const struct json_record results_line_record = JSON_RECORD("source line", line_fields, NULL);

static const struct json_field frame_fields[] = {
	{ .key = "name", JSON_TEXT_MEMBER(struct flame_frame, name), .need = JSON_REQUIRED,
	  .since = "0.3.0" },
	{ .key = "depth", JSON_COUNT_MEMBER(struct flame_frame, depth), .need = JSON_REQUIRED,
	  .since = "0.3.0" },
	{ .key = "instructions", JSON_NUMBER_MEMBER(struct flame_frame, instructions),
	  .need = JSON_REQUIRED, .since = "0.3.0" },
};

const struct json_record results_frame_record = JSON_RECORD("call-tree frame", frame_fields, NULL);

static int finish_failure(const struct json_reader *reader, const cJSON *object, const char *path,
			  void *record)
{
	struct measurement *failure = record;

	(void)object;
	failure->failed = true;
	return text_is_name(failure->info.name)
		       ? 0
		       : json_reader_bad(reader, path, "names no scenario ([a-z0-9_]{1,64})");
}

static const struct json_field failure_fields[] = {
	{ .key = "name", JSON_TEXT_MEMBER(struct measurement, info.name), .need = JSON_REQUIRED,
	  .since = "0.1.0" },
	{ .key = "failure", JSON_TEXT_FIXED, offsetof(struct measurement, failure),
	  sizeof(((struct measurement *)0)->failure), .need = JSON_REQUIRED, .since = "0.1.0" },
};

const struct json_record results_failure_record = JSON_RECORD("failure", failure_fields,
							      finish_failure);

static const struct json_field run_fields[] = {
	{ .key = "source", JSON_TEXT_MEMBER(struct measurement, source), .need = JSON_OPTIONAL,
	  .since = "0.3.0", .flags = JSON_OMIT_EMPTY },
	{ .key = "valgrind_seconds", JSON_NONNEG_MEMBER(struct measurement, valgrind_seconds),
	  .need = JSON_REQUIRED, .since = "0.3.0" },
};

const struct json_record results_run_record = JSON_RECORD("run", run_fields, NULL);

const struct results_schema_place results_schema_places[] = {
	{ "code[]", &results_code_record },
	{ "code[].functions[]", &results_function_record },
	{ "code[].sites[]", &results_site_record },
	{ "code[].lines[]", &results_line_record },
	{ "code[].frames[]", &results_frame_record },
	{ "costgate.failures[]", &results_failure_record },
	{ "costgate.runs.NAME", &results_run_record },
};

const size_t results_schema_place_count =
	sizeof(results_schema_places) / sizeof(results_schema_places[0]);
