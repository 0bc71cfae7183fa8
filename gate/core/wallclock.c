/* The wall-clock arithmetic and its section of results.json. Deliberate: the overhead is read
 * from the best rounds, and a difference smaller than the spread of the rounds is published as
 * `indistinguishable`, never as a percentage (the reference page's rule). */
#define _GNU_SOURCE
#include "wallclock.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fs.h"
#include "json_read.h"

/* Percentages are kept to two decimals, rates to whole messages per second: the rounds do not
 * repeat to more than that. */
static double two_decimals(double value)
{
	return round(value * 100.0) / 100.0;
}

double wall_slowdown_percent(double reference, double rate)
{
	if (rate <= 0 || reference <= 0)
		return 0;
	return (reference / rate - 1.0) * 100.0;
}

static int compare_doubles(const void *left, const void *right)
{
	double a = *(const double *)left, b = *(const double *)right;

	return (a > b) - (a < b);
}

void wall_summarize(struct wall_summary *summary, const double *rates, size_t count)
{
	double *sorted = count > 0 ? malloc(count * sizeof(*sorted)) : NULL;
	size_t i;

	*summary = (struct wall_summary){ 0, 0, 0 };
	if (sorted == NULL) {
		/* Out of memory or no rounds: best and worst still hold without the median. */
		for (i = 0; i < count; i++) {
			if (i == 0 || rates[i] > summary->best)
				summary->best = rates[i];
			if (i == 0 || rates[i] < summary->worst)
				summary->worst = rates[i];
		}
		summary->median = (summary->best + summary->worst) / 2;
		return;
	}
	memcpy(sorted, rates, count * sizeof(*sorted));
	qsort(sorted, count, sizeof(*sorted), compare_doubles);
	summary->worst = sorted[0];
	summary->best = sorted[count - 1];
	summary->median = count % 2 ? sorted[count / 2] : (sorted[count / 2 - 1] + sorted[count / 2]) / 2;
	free(sorted);
}

void wall_compare(struct wall_comparison *comparison, const double *raw, const double *framework,
		  size_t count)
{
	double raw_spread, framework_spread;

	wall_summarize(&comparison->raw, raw, count);
	wall_summarize(&comparison->framework, framework, count);
	comparison->overhead_percent = wall_slowdown_percent(comparison->raw.best,
							     comparison->framework.best);
	comparison->median_overhead_percent = wall_slowdown_percent(comparison->raw.median,
								    comparison->framework.median);
	raw_spread = wall_slowdown_percent(comparison->raw.best, comparison->raw.worst);
	framework_spread = wall_slowdown_percent(comparison->framework.best, comparison->framework.worst);
	comparison->spread_percent = raw_spread > framework_spread ? raw_spread : framework_spread;
	comparison->indistinguishable = fabs(comparison->overhead_percent) < comparison->spread_percent;
}

const char *wall_verdict_name(bool indistinguishable)
{
	return indistinguishable ? "indistinguishable" : "measured";
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

cJSON *wall_pair_to_json(const struct wall_pair *pair)
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

void wall_pair_release(struct wall_pair *pair)
{
	if (pair == NULL)
		return;
	free(pair->name);
	free(pair->raw_name);
	free(pair->title);
	free(pair->raw_rates);
	free(pair->framework_rates);
	*pair = (struct wall_pair)WALL_PAIR_INIT;
}

int wall_document_read(const char *path, bool missing_ok, cJSON **document, struct gate_error *err)
{
	char *text = NULL;
	size_t length = 0;

	*document = NULL;
	if (fs_read_file(path, FS_READ_LIMIT, &text, &length) != 0) {
		if (errno == ENOENT && missing_ok) {
			*document = cJSON_CreateObject();
			return *document != NULL ? 0 : gate_error_set(err, "out of memory");
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

int wall_document_put(cJSON *document, const char *key, cJSON *item, const char *before)
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

int wall_keep_section(cJSON *document, const char *path)
{
	cJSON *existing = NULL, *section;
	int status = 0;

	if (cJSON_GetObjectItemCaseSensitive(document, WALLCLOCK_SECTION) != NULL ||
	    wall_document_read(path, false, &existing, NULL) != 0)
		return 0;
	section = cJSON_DetachItemFromObjectCaseSensitive(existing, WALLCLOCK_SECTION);
	if (cJSON_IsArray(section))
		status = wall_document_put(document, WALLCLOCK_SECTION, section, "code");
	else
		cJSON_Delete(section);
	cJSON_Delete(existing);
	return status;
}
