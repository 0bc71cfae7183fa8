/* Reading a results document to draw it (results.h, the page): the `scenarios` pairs and the
 * `environment`, checked value by value into structs whose strings point into the document, and
 * the `code` section through the one reader in its lenient mode (results_from_json), since a
 * schema 3 document from another tool has only name, framework, cold and gated. */
#define _GNU_SOURCE
#include "results.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_record.h"
#include "wallclock.h"

static int read_number(const struct json_reader *reader, const cJSON *object, const char *key,
		       const char *path, bool required, double *value)
{
	const cJSON *item = cJSON_GetObjectItemCaseSensitive(object, key);
	char where[160];

	snprintf(where, sizeof(where), "%s.%s", path, key);
	if (item == NULL && !required)
		return 0;
	if (!cJSON_IsNumber(item) || !isfinite(item->valuedouble))
		return json_reader_bad(reader, where, item == NULL ? "is missing" : "is not a number");
	*value = item->valuedouble;
	return 0;
}

static int read_string(const struct json_reader *reader, const cJSON *object, const char *key,
		       const char *path, bool required, const char **value)
{
	const cJSON *item = cJSON_GetObjectItemCaseSensitive(object, key);
	char where[160];

	snprintf(where, sizeof(where), "%s.%s", path, key);
	if (item == NULL && !required)
		return 0;
	if (!cJSON_IsString(item))
		return json_reader_bad(reader, where, item == NULL ? "is missing" : "is not a string");
	*value = item->valuestring;
	return 0;
}

/* best, median and worst in msg/s: positive, best the fastest. A schema 3 document without a
 * median keeps the worst round in its place, as the reference page does. */
static int read_summary(const struct json_reader *reader, const cJSON *object, const char *key,
			const char *path, struct results_wall_summary *summary)
{
	const cJSON *item = cJSON_GetObjectItemCaseSensitive(object, key);
	char where[160];

	snprintf(where, sizeof(where), "%s.%s", path, key);
	if (!cJSON_IsObject(item))
		return json_reader_bad(reader, where, item == NULL ? "is missing" : "is not an object");
	summary->median = -1;
	if (read_number(reader, item, "best", where, true, &summary->best) != 0 ||
	    read_number(reader, item, "worst", where, true, &summary->worst) != 0 ||
	    read_number(reader, item, "median", where, false, &summary->median) != 0)
		return -1;
	if (summary->median < 0)
		summary->median = summary->worst;
	if (!(summary->worst > 0) || summary->median < summary->worst || summary->best < summary->median)
		return json_reader_bad(reader, where, "is not best >= median >= worst > 0");
	return 0;
}

static int read_verdict(const struct json_reader *reader, const cJSON *object, const char *path,
			bool required, bool *indistinguishable)
{
	const char *verdict = NULL;
	char where[160];

	if (read_string(reader, object, "verdict", path, required, &verdict) != 0)
		return -1;
	if (verdict == NULL)
		return 0;
	snprintf(where, sizeof(where), "%s.verdict", path);
	if (strcmp(verdict, "indistinguishable") != 0 && strcmp(verdict, "measured") != 0)
		return json_reader_bad(reader, where, "is neither 'measured' nor 'indistinguishable'");
	*indistinguishable = strcmp(verdict, "indistinguishable") == 0;
	return 0;
}

/* What the verdict rule gives for two summaries: the spread and the verdict (wallclock.c's
 * arithmetic on the summaries alone). */
static double spread_of(const struct results_wall_summary *raw, const struct results_wall_summary *framework)
{
	double raw_spread = wall_slowdown_percent(raw->best, raw->worst);
	double framework_spread = wall_slowdown_percent(framework->best, framework->worst);

	return raw_spread > framework_spread ? raw_spread : framework_spread;
}

static int read_loop(const struct json_reader *reader, const cJSON *object, const char *path,
		     struct results_wall_loop *loop)
{
	if (!cJSON_IsObject(object))
		return json_reader_bad(reader, path, "is not an object");
	if (read_summary(reader, object, "raw", path, &loop->raw) != 0 ||
	    read_summary(reader, object, "framework", path, &loop->framework) != 0)
		return -1;
	loop->overhead = wall_slowdown_percent(loop->raw.best, loop->framework.best);
	loop->indistinguishable = fabs(loop->overhead) < spread_of(&loop->raw, &loop->framework);
	if (read_number(reader, object, "overhead_percent", path, false, &loop->overhead) != 0)
		return -1;
	return read_verdict(reader, object, path, false, &loop->indistinguishable);
}

static int read_loops(const struct json_reader *reader, const cJSON *entry, const char *path,
		      struct results_wall_pair *pair)
{
	const cJSON *loops = cJSON_GetObjectItemCaseSensitive(entry, "loops"), *item;
	char where[160];
	size_t count = loops != NULL ? (size_t)cJSON_GetArraySize(loops) : 0;

	snprintf(where, sizeof(where), "%s.loops", path);
	if (loops != NULL && (!cJSON_IsArray(loops) || count == 0))
		return json_reader_bad(reader, where, "is not an array of loops");
	pair->loops = calloc(count > 0 ? count : 1, sizeof(*pair->loops));
	if (pair->loops == NULL)
		return gate_error_set(reader->err, "out of memory");
	if (count == 0) {
		/* One loop: the pair itself. */
		pair->loops[0] = (struct results_wall_loop){ pair->raw, pair->framework, pair->overhead,
						pair->indistinguishable };
		pair->loop_count = 1;
		return 0;
	}
	cJSON_ArrayForEach(item, loops) {
		snprintf(where, sizeof(where), "%s.loops[%zu]", path, pair->loop_count);
		if (read_loop(reader, item, where, &pair->loops[pair->loop_count]) != 0)
			return -1;
		pair->loop_count++;
	}
	return 0;
}

static int read_pair(const struct json_reader *reader, const cJSON *entry, const char *path,
		     struct results_wall_pair *pair)
{
	pair->unit = WALLCLOCK_UNIT;
	pair->median_overhead = NAN;
	pair->spread = NAN;
	if (!cJSON_IsObject(entry))
		return json_reader_bad(reader, path, "is not an object");
	if (read_string(reader, entry, "name", path, true, &pair->name) != 0 ||
	    read_string(reader, entry, "unit", path, false, &pair->unit) != 0 ||
	    read_string(reader, entry, "title", path, false, &pair->title) != 0 ||
	    read_string(reader, entry, "raw_scenario", path, false, &pair->raw_name) != 0 ||
	    read_string(reader, entry, "method", path, false, &pair->method) != 0 ||
	    read_number(reader, entry, "messages", path, false, &pair->messages) != 0 ||
	    read_summary(reader, entry, "raw", path, &pair->raw) != 0 ||
	    read_summary(reader, entry, "framework", path, &pair->framework) != 0 ||
	    read_number(reader, entry, "overhead_percent", path, true, &pair->overhead) != 0 ||
	    read_verdict(reader, entry, path, true, &pair->indistinguishable) != 0 ||
	    read_number(reader, entry, "median_overhead_percent", path, false,
			&pair->median_overhead) != 0 ||
	    read_number(reader, entry, "spread_percent", path, false, &pair->spread) != 0)
		return -1;
	if (isnan(pair->median_overhead))
		pair->median_overhead = wall_slowdown_percent(pair->raw.median, pair->framework.median);
	if (isnan(pair->spread))
		pair->spread = spread_of(&pair->raw, &pair->framework);
	return read_loops(reader, entry, path, pair);
}

/* Reads one array section into `count` structs of `size` bytes with `read_one`. */
static int read_section(const struct json_reader *reader, const cJSON *document, const char *key,
			size_t size, void **items, size_t *count,
			int (*read_one)(const struct json_reader *, const cJSON *, const char *, void *))
{
	const cJSON *section = cJSON_GetObjectItemCaseSensitive(document, key), *entry;
	char where[64];

	*count = 0;
	if (section == NULL)
		return 0;
	if (!cJSON_IsArray(section))
		return json_reader_bad(reader, key, "is not an array");
	*items = calloc((size_t)cJSON_GetArraySize(section) + 1, size);
	if (*items == NULL)
		return gate_error_set(reader->err, "out of memory");
	cJSON_ArrayForEach(entry, section) {
		snprintf(where, sizeof(where), "%s[%zu]", key, *count);
		if (read_one(reader, entry, where, (char *)*items + *count * size) != 0)
			return -1;
		++*count;
	}
	return 0;
}

static int read_pair_item(const struct json_reader *reader, const cJSON *entry, const char *path,
			  void *item)
{
	return read_pair(reader, entry, path, item);
}

void results_view_release(struct results_view *view)
{
	size_t i;

	if (view == NULL)
		return;
	for (i = 0; view->pairs != NULL && i < view->pair_count + 1; i++)
		free(view->pairs[i].loops);
	results_release(&view->code);
	free(view->pairs);
	free(view->facts);
	*view = (struct results_view){ 0 };
}

/* The environment block: every member a string (the machine facts and the toolchain). */
static int read_facts(const struct json_reader *reader, const cJSON *environment,
		      struct results_view *view)
{
	const cJSON *item;
	char where[120];

	if (environment == NULL)
		return 0;
	if (!cJSON_IsObject(environment))
		return json_reader_bad(reader, "environment", "is not an object");
	view->has_environment = true;
	view->facts = calloc((size_t)cJSON_GetArraySize(environment) + 1, sizeof(*view->facts));
	if (view->facts == NULL)
		return gate_error_set(reader->err, "out of memory");
	cJSON_ArrayForEach(item, environment) {
		snprintf(where, sizeof(where), "environment.%.64s", item->string);
		if (!cJSON_IsString(item))
			return json_reader_bad(reader, where, "is not a string");
		view->facts[view->fact_count++] = (struct results_fact){ item->string,
									  item->valuestring };
	}
	return 0;
}

static int view_read(struct results_view *view, const cJSON *document, const char *source,
		     struct gate_error *err)
{
	const struct json_reader reader = { "results", source, false, err };
	const cJSON *environment = cJSON_GetObjectItemCaseSensitive(document, "environment");

	*view = (struct results_view){ 0 };
	if (!cJSON_IsObject(document))
		return gate_error_set(err, "cannot read results '%s': not a JSON object", source);
	if (read_section(&reader, document, WALLCLOCK_SECTION, sizeof(struct results_wall_pair),
			 (void **)&view->pairs, &view->pair_count, read_pair_item) != 0 ||
	    results_from_json(&view->code, document, source, true, err) != 0)
		return -1;
	if (cJSON_GetObjectItemCaseSensitive(document, WALLCLOCK_SECTION) == NULL &&
	    cJSON_GetObjectItemCaseSensitive(document, "code") == NULL)
		return gate_error_set(err, "cannot read results '%s': it has neither a scenarios nor "
				      "a code section", source);
	return read_facts(&reader, environment, view);
}


int results_view_read(struct results_view *view, const cJSON *document, const char *source,
		      struct gate_error *err)
{
	if (view_read(view, document, source, err) == 0)
		return 0;
	results_view_release(view);
	return -1;
}

/* An array of strings, or absent (no items). */
static int read_strings(const struct json_reader *reader, const cJSON *object, const char *key,
			const char *path, const char *member, const char ***items, size_t *count)
{
	const cJSON *array = cJSON_GetObjectItemCaseSensitive(object, key), *item;
	char where[200];

	*count = 0;
	if (array == NULL)
		return 0;
	snprintf(where, sizeof(where), "%s.%s", path, key);
	if (!cJSON_IsArray(array))
		return json_reader_bad(reader, where, "is not an array");
	*items = calloc((size_t)cJSON_GetArraySize(array) + 1, sizeof(**items));
	if (*items == NULL)
		return gate_error_set(reader->err, "out of memory");
	cJSON_ArrayForEach(item, array) {
		const cJSON *text = member != NULL ? cJSON_GetObjectItemCaseSensitive(item, member) : item;

		snprintf(where, sizeof(where), "%s.%s[%zu]%s%s", path, key, *count, member ? "." : "",
			 member ? member : "");
		if (!cJSON_IsString(text))
			return json_reader_bad(reader, where, "is not a string");
		(*items)[(*count)++] = text->valuestring;
	}
	return 0;
}

static int read_figures(const struct json_reader *reader, const cJSON *row, const char *key,
			const char *path, struct results_figures *figures, bool *present)
{
	const cJSON *object = cJSON_GetObjectItemCaseSensitive(row, key);
	char where[200];

	*present = object != NULL;
	if (object == NULL)
		return 0;
	snprintf(where, sizeof(where), "%s.%s", path, key);
	if (!cJSON_IsObject(object))
		return json_reader_bad(reader, where, "is not an object");
	figures->has_baseline = cJSON_GetObjectItemCaseSensitive(object, "baseline") != NULL;
	if (read_number(reader, object, "head", where, true, &figures->head) != 0 ||
	    read_number(reader, object, "baseline", where, figures->has_baseline,
			&figures->baseline) != 0 ||
	    read_number(reader, object, "change_percent", where, figures->has_baseline,
			&figures->change_percent) != 0)
		return -1;
	return 0;
}

/* The figures of every metric gated at a limit ("instructions", "cold_cycles", ...). */
static int read_limit_figures(const struct json_reader *reader, const cJSON *item,
			      const char *path, struct results_verdict_row *row)
{
	size_t metric;
	int cold;

	for (metric = 0; metric < METRIC_COUNT; metric++) {
		if (metric_table[metric].gating != METRIC_LIMIT &&
		    metric_table[metric].gating != METRIC_LIMIT_OPT_IN)
			continue;
		for (cold = 0; cold < 2; cold++) {
			char key[64];

			metric_figure_key(key, sizeof(key), metric, cold != 0);
			if (read_figures(reader, item, key, path, &row->figures[metric][cold],
					 &row->has_figures[metric][cold]) != 0)
				return -1;
		}
	}
	return 0;
}

static int read_verdict_row(const struct json_reader *reader, const cJSON *item, const char *path,
			    struct results_verdict_row *row)
{
	if (!cJSON_IsObject(item))
		return json_reader_bad(reader, path, "is not an object");
	row->has_limit = cJSON_GetObjectItemCaseSensitive(item, "limit_percent") != NULL;
	return read_string(reader, item, "name", path, true, &row->name) != 0 ||
			       read_string(reader, item, "state", path, true, &row->state) != 0 ||
			       read_string(reader, item, "failure", path, false, &row->failure) != 0 ||
			       read_number(reader, item, "limit_percent", path, false,
					   &row->limit_percent) != 0 ||
			       read_strings(reader, item, "breaches", path, NULL, &row->breaches,
					    &row->breach_count) != 0 ||
			       read_strings(reader, item, "accepted", path, "reason",
					    &row->accepted_reasons, &row->accepted_count) != 0 ||
			       read_limit_figures(reader, item, path, row) != 0
		       ? -1
		       : 0;
}

void results_verdict_release(struct results_verdict *verdict)
{
	size_t i;

	if (verdict == NULL)
		return;
	for (i = 0; verdict->rows != NULL && i < verdict->row_count + 1; i++) {
		free(verdict->rows[i].breaches);
		free(verdict->rows[i].accepted_reasons);
	}
	free(verdict->rows);
	*verdict = (struct results_verdict){ 0 };
}

int results_verdict_read(struct results_verdict *verdict, const cJSON *document, const char *source,
			 struct gate_error *err)
{
	const struct json_reader reader = { "results", source, false, err };
	const cJSON *block = cJSON_GetObjectItemCaseSensitive(document, "costgate");
	const cJSON *object = cJSON_GetObjectItemCaseSensitive(block, "verdict");
	const cJSON *rows = cJSON_GetObjectItemCaseSensitive(object, "rows"), *item;
	char where[64];

	*verdict = (struct results_verdict){ 0 };
	if (object == NULL)
		return 0;
	if (!cJSON_IsObject(object) || !cJSON_IsArray(rows))
		return json_reader_bad(&reader, "costgate.verdict.rows", "is not an array");
	verdict->has_exit_code = cJSON_GetObjectItemCaseSensitive(object, "exit_code") != NULL;
	if (read_string(&reader, object, "summary", "costgate.verdict", false, &verdict->summary) != 0 ||
	    read_number(&reader, object, "exit_code", "costgate.verdict", false, &verdict->exit_code) != 0)
		return -1;
	verdict->rows = calloc((size_t)cJSON_GetArraySize(rows) + 1, sizeof(*verdict->rows));
	if (verdict->rows == NULL)
		return gate_error_set(err, "out of memory");
	cJSON_ArrayForEach(item, rows) {
		snprintf(where, sizeof(where), "costgate.verdict.rows[%zu]", verdict->row_count);
		if (read_verdict_row(&reader, item, where, &verdict->rows[verdict->row_count++]) != 0) {
			results_verdict_release(verdict);
			return -1;
		}
	}
	return 0;
}

const struct results_verdict_row *results_verdict_find(const struct results_verdict *verdict,
						       const char *name)
{
	size_t i;

	for (i = 0; i < verdict->row_count; i++)
		if (strcmp(verdict->rows[i].name, name) == 0)
			return &verdict->rows[i];
	return NULL;
}
