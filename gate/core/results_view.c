/* Reading a results document to draw it (results.h, the page): the `scenarios` pairs, the
 * `environment` and the verdict gate wrote, each object through its table of members
 * (json_record.h) into structs whose strings point into the document, and the `code` section
 * through the one reader in its lenient mode (results_from_json), since a schema 3 document from
 * another tool has only name, framework, cold and gated. */
#define _GNU_SOURCE
#include "results.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "json_record.h"
#include "results_schema.h"
#include "text.h"
#include "wallclock.h"

/* Whether `object` has the member `key`. */
static bool has(const cJSON *object, const char *key)
{
	return cJSON_GetObjectItemCaseSensitive(object, key) != NULL;
}

/* best, median and worst in msg/s: positive, best the fastest. A schema 3 document without a
 * median keeps the worst round in its place, as the reference page does. */
static int finish_summary(const struct json_reader *reader, const cJSON *object, const char *path,
			  void *record)
{
	struct results_wall_summary *summary = record;

	if (!has(object, "median"))
		summary->median = summary->worst;
	if (!(summary->worst > 0) || summary->median < summary->worst || summary->best < summary->median)
		return json_reader_bad(reader, path, "is not best >= median >= worst > 0");
	return 0;
}

static const struct json_field summary_fields[] = {
	{ .key = "best", JSON_NUMBER_MEMBER(struct results_wall_summary, best), .need = JSON_REQUIRED,
	  .since = "0.1.0" },
	{ .key = "worst", JSON_NUMBER_MEMBER(struct results_wall_summary, worst), .need = JSON_REQUIRED,
	  .since = "0.1.0" },
	{ .key = "median", JSON_NUMBER_MEMBER(struct results_wall_summary, median),
	  .need = JSON_OPTIONAL, .since = "0.2.0" },
};

static const struct json_record summary_record = JSON_RECORD("msg/s summary", summary_fields,
							     finish_summary);

/* "measured" or "indistinguishable", into the bool at `indistinguishable`. */
static int read_verdict_word(const struct json_reader *reader, const cJSON *item, const char *path,
			     bool *indistinguishable)
{
	if (item == NULL)
		return 0;
	if (!cJSON_IsString(item))
		return json_reader_bad(reader, path, "is not a string");
	if (strcmp(item->valuestring, "indistinguishable") != 0 &&
	    strcmp(item->valuestring, "measured") != 0)
		return json_reader_bad(reader, path, "is neither 'measured' nor 'indistinguishable'");
	*indistinguishable = strcmp(item->valuestring, "indistinguishable") == 0;
	return 0;
}

/* What the verdict rule gives for two summaries: the spread (wallclock.c's arithmetic on the
 * summaries alone). */
static double spread_of(const struct results_wall_summary *raw, const struct results_wall_summary *framework)
{
	double raw_spread = wall_slowdown_percent(raw->best, raw->worst);
	double framework_spread = wall_slowdown_percent(framework->best, framework->worst);

	return raw_spread > framework_spread ? raw_spread : framework_spread;
}

static int read_loop_verdict(const struct json_reader *reader, const cJSON *item, const char *path,
			     void *record)
{
	return read_verdict_word(reader, item, path,
				 &((struct results_wall_loop *)record)->indistinguishable);
}

/* A loop without its overhead or its verdict gets those the rule gives its summaries. */
static int finish_loop(const struct json_reader *reader, const cJSON *object, const char *path,
		       void *record)
{
	struct results_wall_loop *loop = record;

	(void)reader;
	(void)path;
	if (!has(object, "overhead_percent"))
		loop->overhead = wall_slowdown_percent(loop->raw.best, loop->framework.best);
	if (!has(object, "verdict"))
		loop->indistinguishable = fabs(wall_slowdown_percent(loop->raw.best, loop->framework.best)) <
					  spread_of(&loop->raw, &loop->framework);
	return 0;
}

static const struct json_field loop_fields[] = {
	{ .key = "raw", JSON_OBJECT_MEMBER(struct results_wall_loop, raw, &summary_record),
	  .need = JSON_REQUIRED, .since = "0.2.0" },
	{ .key = "framework", JSON_OBJECT_MEMBER(struct results_wall_loop, framework, &summary_record),
	  .need = JSON_REQUIRED, .since = "0.2.0" },
	{ .key = "overhead_percent", JSON_NUMBER_MEMBER(struct results_wall_loop, overhead),
	  .need = JSON_OPTIONAL, .since = "0.2.0" },
	{ .key = "verdict", .type = JSON_CUSTOM, .need = JSON_OPTIONAL, .since = "0.2.0",
	  .shape = "string: measured or indistinguishable", .read = read_loop_verdict },
};

static const struct json_record loop_record = JSON_RECORD("loop", loop_fields, finish_loop);

static int read_pair_verdict(const struct json_reader *reader, const cJSON *item, const char *path,
			     void *record)
{
	return read_verdict_word(reader, item, path,
				 &((struct results_wall_pair *)record)->indistinguishable);
}

/* The unit is msg/s unless said; the median overhead and the spread are computed when absent;
 * a pair without loops is one loop, itself. */
static int finish_pair(const struct json_reader *reader, const cJSON *object, const char *path,
		       void *record)
{
	struct results_wall_pair *pair = record;

	(void)path;
	if (pair->unit == NULL)
		pair->unit = WALLCLOCK_UNIT;
	if (!has(object, "median_overhead_percent"))
		pair->median_overhead = wall_slowdown_percent(pair->raw.median, pair->framework.median);
	if (!has(object, "spread_percent"))
		pair->spread = spread_of(&pair->raw, &pair->framework);
	if (pair->loop_count > 0)
		return 0;
	free(pair->loops);
	pair->loops = calloc(1, sizeof(*pair->loops));
	if (pair->loops == NULL)
		return gate_error_oom(reader->err);
	pair->loops[0] = (struct results_wall_loop){ pair->raw, pair->framework, pair->overhead,
						     pair->indistinguishable };
	pair->loop_count = 1;
	return 0;
}

static const struct json_field pair_fields[] = {
	{ .key = "name", JSON_VIEW_MEMBER(struct results_wall_pair, name), .need = JSON_REQUIRED,
	  .since = "0.1.0" },
	{ .key = "unit", JSON_VIEW_MEMBER(struct results_wall_pair, unit), .need = JSON_OPTIONAL,
	  .since = "0.1.0" },
	{ .key = "title", JSON_VIEW_MEMBER(struct results_wall_pair, title), .need = JSON_OPTIONAL,
	  .since = "0.2.0" },
	{ .key = "raw_scenario", JSON_VIEW_MEMBER(struct results_wall_pair, raw_name),
	  .need = JSON_OPTIONAL, .since = "0.2.0" },
	{ .key = "method", JSON_VIEW_MEMBER(struct results_wall_pair, method), .need = JSON_OPTIONAL,
	  .since = "0.2.0" },
	{ .key = "messages", JSON_NUMBER_MEMBER(struct results_wall_pair, messages),
	  .need = JSON_OPTIONAL, .since = "0.1.0" },
	{ .key = "raw", JSON_OBJECT_MEMBER(struct results_wall_pair, raw, &summary_record),
	  .need = JSON_REQUIRED, .since = "0.1.0" },
	{ .key = "framework", JSON_OBJECT_MEMBER(struct results_wall_pair, framework, &summary_record),
	  .need = JSON_REQUIRED, .since = "0.1.0" },
	{ .key = "overhead_percent", JSON_NUMBER_MEMBER(struct results_wall_pair, overhead),
	  .need = JSON_REQUIRED, .since = "0.1.0" },
	{ .key = "verdict", .type = JSON_CUSTOM, .need = JSON_REQUIRED, .since = "0.1.0",
	  .shape = "string: measured or indistinguishable", .read = read_pair_verdict },
	{ .key = "median_overhead_percent",
	  JSON_NUMBER_MEMBER(struct results_wall_pair, median_overhead), .need = JSON_OPTIONAL,
	  .since = "0.2.0" },
	{ .key = "spread_percent", JSON_NUMBER_MEMBER(struct results_wall_pair, spread),
	  .need = JSON_OPTIONAL, .since = "0.2.0" },
	{ .key = "loops", JSON_ARRAY_MEMBER(struct results_wall_pair, loops, loop_count, &loop_record),
	  .need = JSON_OPTIONAL, .since = "0.2.0", .flags = JSON_NONEMPTY },
};

static const struct json_record pair_record = JSON_RECORD("wall-clock pair", pair_fields,
							  finish_pair);

static void view_pair_release(struct results_wall_pair *pair)
{
	free(pair->loops);
}

void results_view_release(struct results_view *view)
{
	if (view == NULL)
		return;
	ARRAY_RELEASE(view->pairs, view->pair_count, view_pair_release);
	results_release(&view->code);
	free(view->facts);
	*view = (struct results_view){ 0 };
}

/* The environment block: every member a string (the machine facts and the toolchain). */
static int read_facts(const struct json_reader *reader, const cJSON *environment,
		      struct results_view *view)
{
	const cJSON *item;
	char where[400], quoted[300];

	if (environment == NULL)
		return 0;
	if (!cJSON_IsObject(environment))
		return json_reader_bad(reader, "environment", "is not an object");
	view->has_environment = true;
	view->facts = calloc((size_t)cJSON_GetArraySize(environment) + 1, sizeof(*view->facts));
	if (view->facts == NULL)
		return gate_error_oom(reader->err);
	cJSON_ArrayForEach(item, environment) {
		snprintf(where, sizeof(where), "environment.%s",
			 text_quote(quoted, sizeof(quoted), item->string));
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
	const cJSON *pairs = cJSON_GetObjectItemCaseSensitive(document, WALLCLOCK_SECTION);

	*view = (struct results_view){ 0 };
	if (!cJSON_IsObject(document))
		return gate_error_set(err, "cannot read results '%s': not a JSON object", source);
	if ((pairs != NULL &&
	     json_record_read_array(&reader, &pair_record, pairs, WALLCLOCK_SECTION,
				    sizeof(*view->pairs), (void **)&view->pairs, &view->pair_count) != 0) ||
	    results_from_json(&view->code, document, source, true, err) != 0)
		return -1;
	if (pairs == NULL && cJSON_GetObjectItemCaseSensitive(document, "code") == NULL)
		return gate_error_set(err, "cannot read results '%s': it has neither a scenarios nor "
				      "a code section", source);
	return read_facts(&reader, cJSON_GetObjectItemCaseSensitive(document, "environment"), view);
}

int results_view_read(struct results_view *view, const cJSON *document, const char *source,
		      struct gate_error *err)
{
	if (view_read(view, document, source, err) == 0)
		return 0;
	results_view_release(view);
	return -1;
}

/* The verdict gate wrote (costgate.verdict). */

/* An array of strings, each the array's item or its `member`, into `items`; absent: none. */
static int read_strings(const struct json_reader *reader, const cJSON *array, const char *path,
			const char *member, const char ***items, size_t *count)
{
	const cJSON *item;
	char where[200];

	if (array == NULL)
		return 0;
	if (!cJSON_IsArray(array))
		return json_reader_bad(reader, path, "is not an array");
	*items = calloc((size_t)cJSON_GetArraySize(array) + 1, sizeof(**items));
	if (*items == NULL)
		return gate_error_oom(reader->err);
	cJSON_ArrayForEach(item, array) {
		const cJSON *text = member != NULL ? cJSON_GetObjectItemCaseSensitive(item, member) : item;

		snprintf(where, sizeof(where), "%s[%zu]%s%s", path, *count, member ? "." : "",
			 member ? member : "");
		if (!cJSON_IsString(text))
			return json_reader_bad(reader, where, "is not a string");
		(*items)[(*count)++] = text->valuestring;
	}
	return 0;
}

static int read_breaches(const struct json_reader *reader, const cJSON *item, const char *path,
			 void *record)
{
	struct results_verdict_row *row = record;

	return read_strings(reader, item, path, NULL, &row->breaches, &row->breach_count);
}

static int read_accepted(const struct json_reader *reader, const cJSON *item, const char *path,
			 void *record)
{
	struct results_verdict_row *row = record;

	return read_strings(reader, item, path, "reason", &row->accepted_reasons, &row->accepted_count);
}

/* The head's figure and, when compared, the baseline's and the change. */
static int finish_figures(const struct json_reader *reader, const cJSON *object, const char *path,
			  void *record)
{
	struct results_figures *figures = record;
	char where[200];

	figures->has_baseline = has(object, "baseline");
	snprintf(where, sizeof(where), "%s.change_percent", path);
	if (figures->has_baseline && !has(object, "change_percent"))
		return json_reader_bad(reader, where, "is missing");
	return 0;
}

static const struct json_field figures_fields[] = {
	{ .key = "head", JSON_NUMBER_MEMBER(struct results_figures, head), .need = JSON_REQUIRED,
	  .since = "0.2.0" },
	{ .key = "baseline", JSON_NUMBER_MEMBER(struct results_figures, baseline),
	  .need = JSON_OPTIONAL, .since = "0.2.0" },
	{ .key = "change_percent", JSON_NUMBER_MEMBER(struct results_figures, change_percent),
	  .need = JSON_OPTIONAL, .since = "0.2.0" },
	{ .key = "limit_percent", JSON_NUMBER_MEMBER(struct results_figures, limit_percent),
	  .need = JSON_OPTIONAL, .since = "0.3.0",
	  .present = JSON_PRESENT(struct results_figures, has_limit) },
};

static const struct json_record figures_record = JSON_RECORD("figures", figures_fields,
							     finish_figures);

/* The figures of every metric gated at a limit, under keys the metric table names
 * ("instructions", "cold_cycles", ...). */
static int finish_row(const struct json_reader *reader, const cJSON *object, const char *path,
		      void *record)
{
	struct results_verdict_row *row = record;
	size_t metric;
	int cold;

	if (!flame_frames_valid(row->baseline_frames, row->baseline_frame_count)) {
		char where[200];

		snprintf(where, sizeof(where), "%s.baseline_frames", path);
		return json_reader_bad(reader, where, "is no call tree (the first at depth 0, each "
				       "at most one level below the one before)");
	}

	for (metric = 0; metric < METRIC_COUNT; metric++) {
		if (!metric_compares(metric))
			continue;
		for (cold = 0; cold < 2; cold++) {
			const cJSON *figures;
			char key[64], where[200];

			metric_figure_key(key, sizeof(key), metric, cold != 0);
			figures = cJSON_GetObjectItemCaseSensitive(object, key);
			row->has_figures[metric][cold] = figures != NULL;
			snprintf(where, sizeof(where), "%s.%s", path, key);
			if (figures != NULL && json_record_read(reader, &figures_record, figures, where,
								&row->figures[metric][cold]) != 0)
				return -1;
		}
	}
	return 0;
}

static const struct json_field row_fields[] = {
	{ .key = "name", JSON_VIEW_MEMBER(struct results_verdict_row, name), .need = JSON_REQUIRED,
	  .since = "0.1.0" },
	{ .key = "state", JSON_VIEW_MEMBER(struct results_verdict_row, state), .need = JSON_REQUIRED,
	  .since = "0.1.0" },
	{ .key = "failure", JSON_VIEW_MEMBER(struct results_verdict_row, failure),
	  .need = JSON_OPTIONAL, .since = "0.1.0" },
	{ .key = "limit_percent", JSON_NUMBER_MEMBER(struct results_verdict_row, limit_percent),
	  .need = JSON_OPTIONAL, .since = "0.1.0",
	  .present = JSON_PRESENT(struct results_verdict_row, has_limit) },
	{ .key = "breaches", .type = JSON_CUSTOM, .need = JSON_OPTIONAL, .since = "0.2.0",
	  .shape = "array of strings", .read = read_breaches },
	{ .key = "accepted", .type = JSON_CUSTOM, .need = JSON_OPTIONAL, .since = "0.2.0",
	  .shape = "array of objects with a reason", .read = read_accepted },
	{ .key = "baseline_frames",
	  JSON_ARRAY_MEMBER(struct results_verdict_row, baseline_frames, baseline_frame_count,
			    &results_frame_record),
	  .need = JSON_OPTIONAL, .since = "0.3.0", .shape = "array of call-tree frames" },
};

static const struct json_record row_record = JSON_RECORD("verdict row", row_fields, finish_row);

/* Any finite number: the document's, untrusted; the page takes 0 to 255 for an exit code. */
static int read_exit_code(const struct json_reader *reader, const cJSON *item, const char *path,
			  void *record)
{
	struct results_verdict *verdict = record;

	if (item == NULL)
		return 0;
	if (!cJSON_IsNumber(item) || !isfinite(item->valuedouble))
		return json_reader_bad(reader, path, "is not a number");
	verdict->exit_code = item->valuedouble;
	verdict->has_exit_code = true;
	return 0;
}

static const struct json_field verdict_fields[] = {
	{ .key = "summary", JSON_VIEW_MEMBER(struct results_verdict, summary), .need = JSON_OPTIONAL,
	  .since = "0.2.0" },
	{ .key = "exit_code", .type = JSON_CUSTOM, .need = JSON_OPTIONAL, .since = "0.2.0",
	  .shape = "number (the page draws 0 to 255 only)", .read = read_exit_code },
	{ .key = "rows", JSON_ARRAY_MEMBER(struct results_verdict, rows, row_count, &row_record),
	  .need = JSON_REQUIRED, .since = "0.1.0" },
};

static const struct json_record verdict_record = JSON_RECORD("verdict", verdict_fields, NULL);

static void verdict_row_release(struct results_verdict_row *row)
{
	free(row->breaches);
	free(row->accepted_reasons);
	flame_frames_release(row->baseline_frames, row->baseline_frame_count);
}

void results_verdict_release(struct results_verdict *verdict)
{
	if (verdict == NULL)
		return;
	ARRAY_RELEASE(verdict->rows, verdict->row_count, verdict_row_release);
	*verdict = (struct results_verdict){ 0 };
}

int results_verdict_read(struct results_verdict *verdict, const cJSON *document, const char *source,
			 struct gate_error *err)
{
	const struct json_reader reader = { "results", source, false, err };
	const cJSON *block = cJSON_GetObjectItemCaseSensitive(document, "costgate");
	const cJSON *object = cJSON_GetObjectItemCaseSensitive(block, "verdict");

	*verdict = (struct results_verdict){ 0 };
	if (object == NULL)
		return 0;
	if (json_record_read(&reader, &verdict_record, object, "costgate.verdict", verdict) == 0)
		return 0;
	results_verdict_release(verdict);
	return -1;
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
