/* results.json as a whole document: reading it to change a section, putting a section in its
 * place, the `scenarios` section gate time writes, and gate's own write keeping that section. */
#define _GNU_SOURCE
#include "results.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fs.h"
#include "json_read.h"
#include "wallclock.h"

static double two_decimals(double value)
{
	return round(value * 100) / 100;
}

static cJSON *summary_json(const struct wall_summary *summary)
{
	cJSON *object = cJSON_CreateObject();

	if (cJSON_AddNumberToObject(object, "best", round(summary->best)) == NULL ||
	    cJSON_AddNumberToObject(object, "median", round(summary->median)) == NULL ||
	    cJSON_AddNumberToObject(object, "worst", round(summary->worst)) == NULL) {
		cJSON_Delete(object);
		return NULL;
	}
	return object;
}

/* Adds `item` under `key`; a NULL item (out of memory) makes the result 0. */
static int add(cJSON *object, const char *key, cJSON *item)
{
	if (item == NULL)
		return 0;
	if (!cJSON_AddItemToObject(object, key, item)) {
		cJSON_Delete(item);
		return 0;
	}
	return 1;
}

/* raw, framework, overhead_percent, verdict: the part of an entry schema 3 defines, which every
 * loop repeats for its own rounds. */
static int add_comparison(cJSON *object, const struct wall_comparison *comparison)
{
	return add(object, "raw", summary_json(&comparison->raw)) &&
	       add(object, "framework", summary_json(&comparison->framework)) &&
	       cJSON_AddNumberToObject(object, "overhead_percent",
				       two_decimals(comparison->overhead_percent)) != NULL &&
	       cJSON_AddStringToObject(object, "verdict",
				       wall_verdict_name(comparison->indistinguishable)) != NULL &&
	       cJSON_AddNumberToObject(object, "median_overhead_percent",
				       two_decimals(comparison->median_overhead_percent)) != NULL &&
	       cJSON_AddNumberToObject(object, "spread_percent",
				       two_decimals(comparison->spread_percent)) != NULL;
}

static cJSON *rates_json(const double *rates, size_t count)
{
	cJSON *array = cJSON_CreateArray();
	size_t i;

	for (i = 0; array != NULL && i < count; i++) {
		if (!cJSON_AddItemToArray(array, cJSON_CreateNumber(round(rates[i])))) {
			cJSON_Delete(array);
			return NULL;
		}
	}
	return array;
}

static cJSON *loops_json(const struct wall_pair *pair)
{
	cJSON *array = cJSON_CreateArray();
	unsigned loop;

	for (loop = 0; array != NULL && loop < pair->loops; loop++) {
		struct wall_comparison comparison;
		cJSON *item = cJSON_CreateObject();

		wall_compare(&comparison, pair->raw_rates + (size_t)loop * pair->rounds,
			     pair->framework_rates + (size_t)loop * pair->rounds, pair->rounds);
		if (!cJSON_AddItemToArray(array, item) || !add_comparison(item, &comparison)) {
			cJSON_Delete(array);
			return NULL;
		}
	}
	return array;
}

cJSON *results_scenario_entry(const struct wall_pair *pair)
{
	size_t count = (size_t)pair->loops * pair->rounds;
	struct wall_comparison comparison;
	cJSON *entry = cJSON_CreateObject(), *rounds = NULL;
	int ok;

	wall_compare(&comparison, pair->raw_rates, pair->framework_rates, count);
	ok = entry != NULL && cJSON_AddStringToObject(entry, "name", pair->name) != NULL &&
	     cJSON_AddStringToObject(entry, "unit", WALLCLOCK_UNIT) != NULL &&
	     cJSON_AddNumberToObject(entry, "messages", (double)pair->messages) != NULL &&
	     cJSON_AddNumberToObject(entry, "pairs", (double)count) != NULL &&
	     add_comparison(entry, &comparison) &&
	     cJSON_AddStringToObject(entry, "title", pair->title ? pair->title : pair->name) != NULL &&
	     cJSON_AddStringToObject(entry, "raw_scenario", pair->raw_name) != NULL &&
	     cJSON_AddNumberToObject(entry, "round_seconds", pair->round_seconds) != NULL &&
	     add(entry, "loops", loops_json(pair)) &&
	     (rounds = cJSON_AddObjectToObject(entry, "rounds")) != NULL &&
	     add(rounds, "raw", rates_json(pair->raw_rates, count)) &&
	     add(rounds, "framework", rates_json(pair->framework_rates, count));
	if (!ok) {
		cJSON_Delete(entry);
		return NULL;
	}
	return entry;
}

int results_document_read(const char *path, bool missing_ok, cJSON **document, struct gate_error *err)
{
	char *text = NULL;
	size_t length = 0;

	*document = NULL;
	if (fs_read_file(path, FS_READ_LIMIT, &text, &length) != 0) {
		if (errno == ENOENT && missing_ok) {
			*document = cJSON_CreateObject();
			return *document != NULL ? 0 : gate_error_oom(err);
		}
		return gate_error_set(err, "cannot read '%s': %s", path, strerror(errno));
	}
	*document = json_read_document(text, length, err);
	free(text);
	if (*document == NULL)
		return gate_error_prefix(err, "cannot read results '%s'", path);
	if (!cJSON_IsObject(*document)) {
		cJSON_Delete(*document);
		*document = NULL;
		return gate_error_set(err, "cannot read results '%s': not a JSON object", path);
	}
	return 0;
}

int results_document_put(cJSON *document, const char *key, cJSON *item, const char *before)
{
	cJSON *next, *moved;

	if (item == NULL)
		return -1;
	if (cJSON_GetObjectItemCaseSensitive(document, key) != NULL)
		return cJSON_ReplaceItemInObjectCaseSensitive(document, key, item) ? 0 : (cJSON_Delete(item), -1);
	if (!cJSON_AddItemToObject(document, key, item)) {
		cJSON_Delete(item);
		return -1;
	}
	/* cJSON 1.7.15's cJSON_InsertItemInArray fails past the first position, so the item goes
	 * last and then `before` and everything after it move behind it, keys and order kept. */
	next = before != NULL ? cJSON_GetObjectItemCaseSensitive(document, before) : NULL;
	while (next != NULL && next != item) {
		moved = next;
		next = next->next;
		cJSON_DetachItemViaPointer(document, moved);
		cJSON_AddItemToArray(document, moved);
	}
	return 0;
}

int results_keep_scenarios(cJSON *document, const char *path)
{
	cJSON *existing = NULL, *section;
	int status = 0;

	if (cJSON_GetObjectItemCaseSensitive(document, WALLCLOCK_SECTION) != NULL ||
	    results_document_read(path, false, &existing, NULL) != 0)
		return 0;
	section = cJSON_DetachItemFromObjectCaseSensitive(existing, WALLCLOCK_SECTION);
	if (cJSON_IsArray(section))
		status = results_document_put(document, WALLCLOCK_SECTION, section, "code");
	else
		cJSON_Delete(section);
	cJSON_Delete(existing);
	return status;
}

int results_store_scenarios(const char *path, const struct wall_pair *pairs, size_t count,
			    const char *method, const struct environment *environment,
			    struct gate_error *err)
{
	cJSON *document = NULL, *section = cJSON_CreateArray();
	size_t i;
	int status = -1;

	for (i = 0; section != NULL && i < count; i++) {
		cJSON *entry = results_scenario_entry(&pairs[i]);

		/* Once in the section, the entry is the section's to free. */
		if (entry == NULL || cJSON_AddStringToObject(entry, "method", method) == NULL ||
		    !cJSON_AddItemToArray(section, entry)) {
			cJSON_Delete(entry);
			cJSON_Delete(section);
			section = NULL;
		}
	}
	if (section == NULL)
		return gate_error_oom(err);
	if (results_document_read(path, true, &document, err) != 0)
		goto out;
	if ((cJSON_GetObjectItemCaseSensitive(document, "schema") == NULL &&
	     results_document_put(document, "schema", cJSON_CreateNumber(RESULTS_SCHEMA), NULL) != 0) ||
	    results_document_put(document, "environment", environment_to_json(environment),
				 "code") != 0) {
		gate_error_oom(err);
		goto out;
	}
	status = results_document_put(document, WALLCLOCK_SECTION, section, "code");
	section = NULL; /* the document's now, or freed */
	if (status != 0) {
		gate_error_oom(err);
		goto out;
	}
	status = results_write_file(document, path, err);
out:
	cJSON_Delete(section);
	cJSON_Delete(document);
	return status;
}
