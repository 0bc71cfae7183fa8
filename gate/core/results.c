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

#include "array.h"
#include "fs.h"
#include "json_read.h"
#include "json_write.h"
#include "results_schema.h"
#include "text.h"

/* Adds `item` to `object` under `key`; a NULL item (out of memory) makes the result 0. */
static int add(cJSON *object, const char *key, cJSON *item)
{
	return item != NULL && cJSON_AddItemToObject(object, key, item);
}

cJSON *results_code_entry(const struct measurement *measurement)
{
	return json_record_object(&results_code_record, measurement);
}

static cJSON *failures_array(const struct measurement *measurements, size_t count)
{
	cJSON *array = cJSON_CreateArray();
	size_t i;

	for (i = 0; array != NULL && i < count; i++)
		if (measurements[i].failed &&
		    !cJSON_AddItemToArray(array, json_record_object(&results_failure_record,
								    &measurements[i]))) {
			cJSON_Delete(array);
			return NULL;
		}
	return array;
}

/* The whole process's counts at 1, N and 2N by scenario (`exit` false), or its instructions from
 * the last snapshot to its exit (`exit` true). Apart from the code section: unlike the region's,
 * they can differ by a few instructions between two runs of one program (start-up and exit
 * depend a little on the environment), so they are compared with a limit, never to the digit. */
static cJSON *process_object(const struct measurement *measurements, size_t count, bool exit)
{
	cJSON *object = cJSON_CreateObject();
	size_t i;

	for (i = 0; object != NULL && i < count; i++) {
		const struct measurement *measurement = &measurements[i];

		if (measurement->failed || !measurement->has_process)
			continue;
		if (!add(object, measurement->info.name,
			 exit ? cJSON_CreateNumber((double)measurement->process_exit)
			      : results_counts_array(measurement->process_instructions))) {
			cJSON_Delete(object);
			return NULL;
		}
	}
	return object;
}

/* costgate.native: each scenario's second opinion (crosscheck.h), its counts and its backlog,
 * so that gate merge decides again from the document what the run decided. */
static cJSON *native_object(const struct measurement *measurements, size_t count)
{
	cJSON *object = cJSON_CreateObject();
	size_t i;

	for (i = 0; object != NULL && i < count; i++) {
		const struct measurement *measurement = &measurements[i];
		cJSON *entry;

		if (measurement->failed || !measurement->has_native)
			continue;
		entry = cJSON_CreateObject();
		if (!add(object, measurement->info.name, entry) ||
		    !add(entry, "allocations", results_counts_array(measurement->native_allocations)) ||
		    (measurement->has_native_instructions &&
		     !add(entry, "instructions",
			  results_counts_array(measurement->native_instructions))) ||
		    cJSON_AddNumberToObject(entry, "backlog", (double)measurement->native_backlog) == NULL) {
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

	for (i = 0; object != NULL && i < count; i++)
		if (!add(object, measurements[i].info.name,
			 json_record_object(&results_run_record, &measurements[i]))) {
			cJSON_Delete(object);
			return NULL;
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
		 add(block, "process_instructions", process_object(measurements, count, false)) &&
		 add(block, "process_exit_instructions", process_object(measurements, count, true));

	/* What one run saw, never in a baseline: the seconds, and the CPU's counts of the native
	 * run, differ from run to run, and a committed file would change with them. */
	if (ok && verdict != NULL) {
		ok = add(block, "runs", runs_object(measurements, count)) &&
		     add(block, "native", native_object(measurements, count)) &&
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
static int read_count(const struct json_reader *reader, const cJSON *item, const char *path,
		      uint64_t *value)
{
	if (item == NULL)
		return json_reader_bad(reader, path, "is missing");
	if (!json_read_count(item, value))
		return json_reader_bad(reader, path, "is not a non-negative integer below 2^53");
	return 0;
}

static const cJSON *member(const cJSON *object, const char *key)
{
	return cJSON_GetObjectItemCaseSensitive(object, key);
}

static int compare_measurements(const void *left, const void *right)
{
	return strcmp(((const struct measurement *)left)->info.name,
		      ((const struct measurement *)right)->info.name);
}

static int read_code(const struct json_reader *reader, const cJSON *code, struct results *results)
{
	size_t i;

	if (json_record_read_array(reader, &results_code_record, code, "code",
				   sizeof(*results->measurements), (void **)&results->measurements,
				   &results->count) != 0)
		return -1;
	qsort(results->measurements, results->count, sizeof(*results->measurements),
	      compare_measurements);
	for (i = 1; !reader->lenient && i < results->count; i++)
		if (strcmp(results->measurements[i - 1].info.name, results->measurements[i].info.name) == 0)
			return gate_error_set(reader->err, "cannot read results '%s': scenario '%s' "
					      "appears twice", reader->source,
					      results->measurements[i].info.name);
	return 0;
}

static int read_shard(const struct json_reader *reader, const cJSON *shard, struct results *results)
{
	const cJSON *selected = member(shard, "selected"), *item;
	uint64_t index = 0, count = 0;

	if (shard == NULL)
		return 0;
	if (read_count(reader, member(shard, "index"), "costgate.shard.index", &index) != 0 ||
	    read_count(reader, member(shard, "count"), "costgate.shard.count", &count) != 0)
		return -1;
	if (count < 1 || count > 64 || index < 1 || index > count)
		return json_reader_bad(reader, "costgate.shard", "is not K/M with 1 <= K <= M <= 64");
	if (!cJSON_IsBool(member(shard, "filtered")))
		return json_reader_bad(reader, "costgate.shard.filtered", "is not a boolean");
	if (!cJSON_IsArray(selected))
		return json_reader_bad(reader, "costgate.shard.selected", "is not an array");
	results->shard_index = (unsigned)index;
	results->shard_count = (unsigned)count;
	results->filtered = cJSON_IsTrue(member(shard, "filtered"));
	results->selected = calloc((size_t)cJSON_GetArraySize(selected) + 1, sizeof(char *));
	if (results->selected == NULL)
		return gate_error_oom(reader->err);
	cJSON_ArrayForEach(item, selected) {
		if (!cJSON_IsString(item))
			return json_reader_bad(reader, "costgate.shard.selected[]", "is not a string");
		if ((results->selected[results->selected_count++] = strdup(item->valuestring)) == NULL)
			return gate_error_oom(reader->err);
	}
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

static int read_gate_block(const struct json_reader *reader, const cJSON *block, struct results *results)
{
	const cJSON *schema = member(block, "schema"), *failures = member(block, "failures");
	struct gate_error fingerprint_error = GATE_ERROR_INIT;

	if (!cJSON_IsObject(block))
		return json_reader_bad(reader, "costgate", "is missing or not an object");
	if (!cJSON_IsNumber(schema) || schema->valuedouble != GATE_SCHEMA_VERSION) {
		char problem[96];

		snprintf(problem, sizeof(problem), "is not %d (this gate reads schema %d only)",
			 GATE_SCHEMA_VERSION, GATE_SCHEMA_VERSION);
		return json_reader_bad(reader, "costgate.schema", problem);
	}
	if (read_count(reader, member(block, "messages"), "costgate.messages", &results->messages) != 0)
		return -1;
	if (environment_fingerprint_from_json(&results->fingerprint, member(block, "fingerprint"),
					      &fingerprint_error) != 0)
		return json_reader_bad(reader, "costgate.fingerprint",
			   strncmp(fingerprint_error.message, "fingerprint: ", 13) == 0
				   ? fingerprint_error.message + 13
				   : fingerprint_error.message);
	if (failures != NULL &&
	    json_record_read_array(reader, &results_failure_record, failures, "costgate.failures",
				   sizeof(*results->failures), (void **)&results->failures,
				   &results->failure_count) != 0)
		return -1;
	return read_shard(reader, member(block, "shard"), results);
}

/* The measurement or failure of that name, or NULL. */
static struct measurement *find_any(struct results *results, const char *name, bool failures)
{
	size_t i;

	for (i = 0; i < results->count; i++)
		if (strcmp(results->measurements[i].info.name, name) == 0)
			return &results->measurements[i];
	for (i = 0; failures && i < results->failure_count; i++)
		if (strcmp(results->failures[i].info.name, name) == 0)
			return &results->failures[i];
	return NULL;
}

/* costgate.process_instructions and costgate.process_exit_instructions: optional (documents
 * from before gate counted the whole process have neither; before it counted the exit apart,
 * their 2N count was the run's end, which is not comparable, so a scenario has the whole
 * process only with both); each entry names a measured scenario. */
static int read_process(const struct json_reader *reader, const cJSON *object,
			const cJSON *exits, struct results *results)
{
	const cJSON *item;
	char path[400];

	if (object == NULL)
		return 0;
	if (!cJSON_IsObject(object))
		return json_reader_bad(reader, "costgate.process_instructions", "is not an object");
	if (exits != NULL && !cJSON_IsObject(exits))
		return json_reader_bad(reader, "costgate.process_exit_instructions", "is not an object");
	cJSON_ArrayForEach(item, object) {
		struct measurement *measurement = find_any(results, item->string, false);
		const cJSON *exit = exits != NULL
					    ? cJSON_GetObjectItemCaseSensitive(exits, item->string)
					    : NULL;
		char quoted[300];
		struct gate_error slope_error = GATE_ERROR_INIT;

		text_quote(quoted, sizeof(quoted), item->string);
		snprintf(path, sizeof(path), "costgate.process_instructions.%s", quoted);
		if (measurement == NULL)
			return json_reader_bad(reader, path, "names no measured scenario");
		if (results_counts_read(reader, item, path, measurement->process_instructions) != 0)
			return -1;
		if (slope_compute(&measurement->process_slope, measurement->process_instructions,
				  measurement->messages, true, &slope_error) != 0)
			return json_reader_bad(reader, path, slope_error.message);
		snprintf(path, sizeof(path), "costgate.process_exit_instructions.%s", quoted);
		if (exit != NULL && !json_read_count(exit, &measurement->process_exit))
			return json_reader_bad(reader, path,
					       "is not a non-negative integer below 2^53");
		measurement->has_process = exit != NULL;
	}
	return 0;
}

/* costgate.native: optional (a build without native variants has none); each entry names a
 * measured scenario. */
static int read_native(const struct json_reader *reader, const cJSON *object,
		       struct results *results)
{
	const cJSON *item;
	char path[400], quoted[300];

	if (object == NULL)
		return 0;
	if (!cJSON_IsObject(object))
		return json_reader_bad(reader, "costgate.native", "is not an object");
	cJSON_ArrayForEach(item, object) {
		struct measurement *measurement = find_any(results, item->string, false);
		const cJSON *instructions = cJSON_GetObjectItemCaseSensitive(item, "instructions");
		const cJSON *backlog = cJSON_GetObjectItemCaseSensitive(item, "backlog");

		snprintf(path, sizeof(path), "costgate.native.%s",
			 text_quote(quoted, sizeof(quoted), item->string));
		if (measurement == NULL)
			return json_reader_bad(reader, path, "names no measured scenario");
		if (!cJSON_IsObject(item))
			return json_reader_bad(reader, path, "is not an object");
		strncat(path, ".allocations", sizeof(path) - strlen(path) - 1);
		if (results_counts_read(reader, cJSON_GetObjectItemCaseSensitive(item, "allocations"),
					path, measurement->native_allocations) != 0)
			return -1;
		snprintf(path, sizeof(path), "costgate.native.%s.instructions", quoted);
		if (instructions != NULL &&
		    results_counts_read(reader, instructions, path, measurement->native_instructions) != 0)
			return -1;
		snprintf(path, sizeof(path), "costgate.native.%s.backlog", quoted);
		if (!json_read_count(backlog, &measurement->native_backlog))
			return json_reader_bad(reader, path, backlog == NULL ? "is missing"
								   : "is not a non-negative integer below 2^53");
		measurement->has_native = true;
		measurement->has_native_instructions = instructions != NULL;
	}
	return 0;
}

/* costgate.runs: optional (a baseline has none); each entry names a scenario of the document. */
static int read_runs(const struct json_reader *reader, const cJSON *object, struct results *results)
{
	const cJSON *item;
	char path[160];

	if (object == NULL)
		return 0;
	if (!cJSON_IsObject(object))
		return json_reader_bad(reader, "costgate.runs", "is not an object");
	cJSON_ArrayForEach(item, object) {
		struct measurement *measurement = find_any(results, item->string, true);
		char quoted[300];

		snprintf(path, sizeof(path), "costgate.runs.%s", text_quote(quoted, sizeof(quoted), item->string));
		if (measurement == NULL)
			return json_reader_bad(reader, path, "names no scenario of the document");
		if (json_record_read(reader, &results_run_record, item, path, measurement) != 0)
			return -1;
	}
	return 0;
}

/* Strict: everything gate writes, checked. Lenient: the code section only, as much of it as
 * schema 3 requires (results_schema.h), whatever the document says its schema is. */
static int read_document(const struct json_reader *reader, const cJSON *root, struct results *results)
{
	const cJSON *schema = member(root, "schema"), *block = member(root, "costgate");
	const cJSON *code = member(root, "code");

	if (!cJSON_IsObject(root))
		return json_reader_bad(reader, "the document", "is not a JSON object");
	if (reader->lenient)
		return code == NULL ? 0 : read_code(reader, code, results);
	if (!cJSON_IsNumber(schema) || schema->valuedouble != RESULTS_SCHEMA)
		return json_reader_bad(reader, "schema", "is not 3");
	if (read_gate_block(reader, block, results) != 0)
		return -1;
	if (read_environment_block(member(root, "environment"), &results->fingerprint) != 0)
		return gate_error_oom(reader->err);
	if (!cJSON_IsArray(code))
		return json_reader_bad(reader, "code", "is missing or not an array");
	return read_code(reader, code, results) != 0 ||
			       read_process(reader, member(block, "process_instructions"),
					    member(block, "process_exit_instructions"), results) != 0 ||
			       read_native(reader, member(block, "native"), results) != 0 ||
			       read_runs(reader, member(block, "runs"), results) != 0
		       ? -1
		       : 0;
}

int results_from_json(struct results *results, const cJSON *root, const char *source, bool lenient,
		      struct gate_error *err)
{
	const struct json_reader reader = { "results", source, lenient, err };

	*results = (struct results)RESULTS_INIT;
	if (read_document(&reader, root, results) == 0)
		return 0;
	results_release(results);
	return -1;
}

int results_parse(struct results *results, const char *text, size_t length, const char *source,
		  struct gate_error *err)
{
	cJSON *root = json_read_document(text, length, err);
	int status;

	*results = (struct results)RESULTS_INIT;
	if (root == NULL)
		return gate_error_prefix(err, "cannot read results '%s'", source);
	status = results_from_json(results, root, source, false, err);
	cJSON_Delete(root);
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
	if (results == NULL)
		return;
	ARRAY_RELEASE(results->measurements, results->count, measurement_release);
	ARRAY_RELEASE(results->failures, results->failure_count, measurement_release);
	array_free_strings(results->selected, results->selected_count);
	environment_release(&results->fingerprint);
	*results = (struct results)RESULTS_INIT;
}
