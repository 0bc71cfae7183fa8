/* Unit tests of the results schema (results_schema.h), driven by its tables so that a member
 * added to them is covered without a new case: the writer writes each member a table declares
 * and no other; the strict reader refuses a document without any member it requires and the
 * lenient one only those every reader requires; another tool's schema 3 document reads
 * leniently with its figures as stated; and docs/results-schema.md lists every member with the
 * type, need and version the table gives it. The document is the committed baseline, a real run. */
#define _GNU_SOURCE
#include "check.h"
#include "fs.h"
#include "json_read.h"
#include "json_write.h"
#include "results.h"
#include "results_schema.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BASELINE FIXTURE_DIR "/../../baselines/main.json"
#define SCHEMA_DOC FIXTURE_DIR "/../../docs/results-schema.md"

static cJSON *read_json(const char *path)
{
	char *text = NULL;
	size_t length = 0;
	cJSON *root;

	if (fs_read_file(path, FS_READ_LIMIT, &text, &length) != 0) {
		fprintf(stderr, "cannot read %s\n", path);
		abort();
	}
	root = cJSON_ParseWithLength(text, length);
	free(text);
	CHECK(root != NULL);
	return root;
}

static char *read_text(const char *path)
{
	char *text = NULL;
	size_t length = 0;

	if (fs_read_file(path, FS_READ_LIMIT, &text, &length) != 0) {
		fprintf(stderr, "cannot read %s\n", path);
		abort();
	}
	return text;
}

/* Reads `root` strictly (from its text, as a file is read) or leniently; returns the status and
 * leaves the message in err. */
static int read_back(const cJSON *root, bool lenient, struct gate_error *err)
{
	struct results results = RESULTS_INIT;
	char *text = json_print(root, false, NULL);
	int status;

	*err = (struct gate_error)GATE_ERROR_INIT;
	if (lenient)
		status = results_from_json(&results, root, "test.json", true, err);
	else
		status = results_parse(&results, text, strlen(text), "test.json", err);
	results_release(&results);
	free(text);
	return status;
}

static void schema_should_need_each_member_as_its_table_says(void)
{
	const struct json_record *record = &results_code_record;
	size_t i;

	for (i = 0; i < record->count; i++) {
		const struct json_field *field = &record->fields[i];
		cJSON *root = read_json(BASELINE);
		cJSON *entry = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(root, "code"), 0);
		struct gate_error err;
		char where[96];
		int strict, lenient;

		snprintf(where, sizeof(where), "code[0].%s is missing", field->key);
		CHECK(cJSON_GetObjectItemCaseSensitive(entry, field->key) != NULL ||
		      (field->flags & JSON_OMIT_EMPTY) != 0);
		cJSON_DeleteItemFromObjectCaseSensitive(entry, field->key);
		strict = read_back(root, false, &err);
		if (field->need == JSON_OPTIONAL) {
			CHECK(strict == 0);
			CHECK_STR(err.message, "");
		} else {
			CHECK(strict == -1);
			CHECK_CONTAINS(err.message, where);
		}
		lenient = read_back(root, true, &err);
		if (field->need == JSON_REQUIRED) {
			CHECK(lenient == -1);
			CHECK_CONTAINS(err.message, where);
		} else {
			CHECK(lenient == 0);
			CHECK_STR(err.message, "");
		}
		cJSON_Delete(root);
	}
}

/* A written entry has the table's members in the table's order, and nothing else. */
static void schema_should_write_the_members_it_declares_in_order(void)
{
	struct results results = RESULTS_INIT;
	struct gate_error err = GATE_ERROR_INIT;
	size_t i, field = 0;

	CHECK(results_read_file(&results, BASELINE, &err) == 0);
	CHECK_STR(err.message, "");
	for (i = 0; i < results.count; i++) {
		cJSON *entry = results_code_entry(&results.measurements[i]);
		const cJSON *member;

		CHECK(entry != NULL);
		field = 0;
		cJSON_ArrayForEach(member, entry) {
			while (field < results_code_record.count &&
			       strcmp(results_code_record.fields[field].key, member->string) != 0) {
				/* Skipped: only a member written when set may be. */
				CHECK((results_code_record.fields[field].flags & JSON_OMIT_EMPTY) != 0);
				field++;
			}
			CHECK(field < results_code_record.count); /* declared, and in order */
			field++;
		}
		cJSON_Delete(entry);
	}
	results_release(&results);
}

/* Another tool's schema 3 document: no counts, no costgate block; its figures as it states
 * them. The strict reader refuses it. */
static void schema_should_read_another_tools_document_leniently(void)
{
	static const char text[] =
		"{\"schema\":3,\"code\":[{\"name\":\"Walk The List\",\"messages\":1000,"
		"\"framework\":{\"instructions\":1077.5,\"allocations\":0.25},"
		"\"cold\":{\"instructions\":9,\"allocations\":2},"
		"\"metrics\":{\"cycles\":{\"per_message\":3296.5,\"cold\":16388315,\"unit\":\"cycles\"}}}]}";
	struct results results = RESULTS_INIT;
	struct gate_error err = GATE_ERROR_INIT;
	cJSON *root = cJSON_Parse(text);
	const struct measurement *walk;

	CHECK(results_from_json(&results, root, "other.json", true, &err) == 0);
	CHECK_STR(err.message, "");
	CHECK_U64(results.count, 1);
	walk = results.count == 1 ? &results.measurements[0] : NULL;
	if (walk != NULL) {
		CHECK_STR(walk->info.name, "Walk The List");
		CHECK(walk->slopes[METRIC_INSTRUCTIONS].per_message == 1077.5);
		CHECK(walk->slopes[METRIC_ALLOCATIONS].per_message == 0.25);
		CHECK_U64(walk->slopes[METRIC_INSTRUCTIONS].cold, 9);
		CHECK_U64(walk->slopes[METRIC_CYCLES].cold, 16388315);
		CHECK(walk->stated[METRIC_CYCLES] && !walk->has[METRIC_CYCLES]);
		CHECK(!walk->stated[METRIC_PEAK_BYTES]);
		CHECK(!walk->has_gated);
	}
	results_release(&results);
	CHECK(read_back(root, false, &err) == -1);
	CHECK_CONTAINS(err.message, "cannot read results 'test.json': costgate is missing");
	cJSON_Delete(root);
}

/* A key the document chose is named in an error with its control bytes quoted, never raw. */
static void schema_should_quote_a_key_of_the_document_in_its_errors(void)
{
	cJSON *root = read_json(BASELINE);
	cJSON *block = cJSON_GetObjectItemCaseSensitive(root, "costgate");
	cJSON *runs = cJSON_AddObjectToObject(block, "runs");
	struct gate_error err;

	cJSON_AddObjectToObject(runs, "\x1b[2Jclear");
	CHECK(read_back(root, false, &err) == -1);
	CHECK_CONTAINS(err.message, "costgate.runs.\\x1b[2Jclear names no scenario of the document");
	CHECK(strchr(err.message, '\x1b') == NULL);
	cJSON_Delete(root);
}

/* docs/results-schema.md has one row per member: | `PATH.KEY` | TYPE | NEED | SINCE |. */
static void schema_should_be_listed_in_the_docs_as_the_tables_say(void)
{
	char *doc = read_text(SCHEMA_DOC);
	size_t place, i, rows = 0;
	const char *line;

	for (place = 0; place < results_schema_place_count; place++) {
		const struct json_record *record = results_schema_places[place].record;

		for (i = 0; i < record->count; i++) {
			const struct json_field *field = &record->fields[i];
			char row[512];

			snprintf(row, sizeof(row), "| `%s.%s` | %s | %s | %s |\n",
				 results_schema_places[place].path, field->key,
				 field->shape != NULL ? field->shape : json_type_name(field->type),
				 json_need_name(field->need), field->since);
			if (strstr(doc, row) == NULL)
				printf("docs/results-schema.md lacks the row:\n%s", row);
			CHECK(strstr(doc, row) != NULL);
			rows++;
		}
	}
	/* And no row for a member the tables do not have. */
	for (line = doc; (line = strstr(line, "\n| `")) != NULL; line++)
		rows--;
	CHECK_U64(rows, 0);
	free(doc);
}

int main(void)
{
	RUN(schema_should_need_each_member_as_its_table_says);
	RUN(schema_should_write_the_members_it_declares_in_order);
	RUN(schema_should_read_another_tools_document_leniently);
	RUN(schema_should_quote_a_key_of_the_document_in_its_errors);
	RUN(schema_should_be_listed_in_the_docs_as_the_tables_say);
	return CHECK_EXIT();
}
