/* The walk over a baseline's history. git is run with argv arrays in the repository's top
 * directory; each version is read from git's object store (never the working tree) by the same
 * reader as --baseline, so a version gate would refuse as a baseline is refused here too. */
#define _GNU_SOURCE
#include "history.h"

#include <fnmatch.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acceptance.h"
#include "array.h"
#include "baseline.h"
#include "environment.h"
#include "json_record.h"
#include "results.h"
#include "slope.h"

int history_series_name(struct history_series *series, struct history_figure figure)
{
	const struct metric *metric = &metric_table[figure.metric];
	int label;

	series->figure = figure;
	metric_figure_key(series->key, sizeof(series->key), figure.metric, figure.cold);
	/* A peak's per-message figure is how fast it grows, not the peak. */
	label = figure.cold ? snprintf(series->label, sizeof(series->label), "cold-start %s",
				       metric->title)
			    : snprintf(series->label, sizeof(series->label), "%s%s per message",
				       metric->title, metric->shows_cold ? ", growth" : "");
	return label < 0 || (size_t)label >= sizeof(series->label) ? -1 : 0;
}

bool history_valid_date(const char *text)
{
	static const int days[] = { 31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
	int year, month, day, used = 0;
	size_t i;

	if (text == NULL || strlen(text) != 10)
		return false;
	for (i = 0; i < 10; i++)
		if ((i == 4 || i == 7) ? text[i] != '-' : (text[i] < '0' || text[i] > '9'))
			return false;
	if (sscanf(text, "%4d-%2d-%2d%n", &year, &month, &day, &used) != 3 || used != 10)
		return false;
	if (year < 1970 || month < 1 || month > 12 || day < 1 || day > days[month - 1])
		return false;
	return !(month == 2 && day == 29 && !(year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)));
}

static void trim_newline(char *text)
{
	size_t length = strlen(text);

	while (length > 0 && (text[length - 1] == '\n' || text[length - 1] == '\r'))
		text[--length] = '\0';
}

/* The commit `qualified` names, or NULL: show-ref --verify takes the name as it is, with no
 * abbreviation and no search through tags. */
static char *verify_ref(const char *root, const char *qualified)
{
	const char *arguments[] = { "show-ref", "--verify", "--hash", qualified, NULL };
	struct gate_error ignored = GATE_ERROR_INIT;
	char *output = NULL;

	if (baseline_git(root, arguments, &output, &ignored) != 0)
		return NULL;
	trim_newline(output);
	return output;
}

static enum history_status resolve(struct history *history, const char *root, const char *ref,
				   struct gate_error *err)
{
	const char *check[] = { "check-ref-format", NULL, NULL };
	char *candidates[2] = { NULL, NULL };
	char *output = NULL;
	enum history_status status = HISTORY_BAD_REQUEST;
	size_t i;

	if (ref[0] == '\0' || ref[0] == '-' || strncmp(ref, "refs/", 5) == 0 ||
	    asprintf(&candidates[0], "refs/remotes/origin/%s", ref) < 0 ||
	    asprintf(&candidates[1], "refs/heads/%s", ref) < 0) {
		gate_error_set(err, "--ref '%s' is not a branch name (give it as 'main', not as a "
			       "full ref or an option)", ref);
		goto out;
	}
	check[1] = candidates[1];
	if (baseline_git(root, check, &output, err) != 0) {
		gate_error_set(err, "--ref '%s' is not a valid branch name", ref);
		goto out;
	}
	status = HISTORY_NONE;
	for (i = 0; i < 2 && history->tip == NULL; i++) {
		history->tip = verify_ref(root, candidates[i]);
		if (history->tip != NULL) {
			history->ref = candidates[i];
			candidates[i] = NULL;
		}
	}
	if (history->tip == NULL) {
		gate_error_set(err, "no history: neither refs/remotes/origin/%s nor refs/heads/%s is a "
			       "branch in '%s'", ref, ref, root);
		goto out;
	}
	status = HISTORY_FOUND;
out:
	free(output);
	free(candidates[0]);
	free(candidates[1]);
	return status;
}

/* One line of git log: hash, short hash, date and subject, separated by 0x1f. */
static int split_commit(char *line, struct history_commit *commit)
{
	char **fields[] = { &commit->hash, &commit->short_hash, &commit->date, &commit->subject };
	size_t i;

	for (i = 0; i < 4; i++) {
		char *end = i < 3 ? strchr(line, '\x1f') : line + strlen(line);

		if (end == NULL)
			return -1;
		*fields[i] = strndup(line, (size_t)(end - line));
		if (*fields[i] == NULL)
			return -1;
		line = end + (i < 3);
	}
	return 0;
}

static void commit_release(struct history_commit *commit)
{
	free(commit->hash);
	free(commit->short_hash);
	free(commit->date);
	free(commit->subject);
	memset(commit, 0, sizeof(*commit));
}

/* The commits on the first-parent line of the tip that changed the file, oldest first. */
static int list_commits(const struct history *history, const struct history_request *request,
			struct history_commit **commits, size_t *count, struct gate_error *err)
{
	char *since = NULL, *output = NULL, *line, *next;
	const char *arguments[12];
	size_t argc = 0, lines = 0, i;
	int status = -1;

	*commits = NULL;
	*count = 0;
	arguments[argc++] = "log";
	arguments[argc++] = "--first-parent";
	arguments[argc++] = "--no-color";
	arguments[argc++] = "--format=%H%x1f%h%x1f%cs%x1f%s";
	arguments[argc++] = "--abbrev=7";
	if (request->since != NULL) {
		if (asprintf(&since, "--since=%s 00:00:00", request->since) < 0)
			return gate_error_oom(err);
		arguments[argc++] = since;
	}
	arguments[argc++] = history->tip;
	arguments[argc++] = "--";
	arguments[argc++] = history->path;
	arguments[argc] = NULL;
	if (baseline_git(request->root, arguments, &output, err) != 0) {
		gate_error_prefix(err, "cannot walk the history of %s on %s", history->path, history->ref);
		goto out;
	}
	for (line = output; *line != '\0'; line++)
		lines += *line == '\n';
	*commits = calloc(lines + 1, sizeof(**commits));
	if (*commits == NULL) {
		gate_error_oom(err);
		goto out;
	}
	for (line = output; *line != '\0'; line = next) {
		next = strchr(line, '\n');
		next = next != NULL ? (*next = '\0', next + 1) : line + strlen(line);
		if (*line == '\0')
			continue;
		if (split_commit(line, &(*commits)[*count]) != 0) {
			gate_error_set(err, "cannot read git log's line '%.80s'", line);
			++*count;
			goto out;
		}
		++*count;
	}
	/* git lists the newest first. */
	for (i = 0; i < *count / 2; i++) {
		struct history_commit swap = (*commits)[i];

		(*commits)[i] = (*commits)[*count - 1 - i];
		(*commits)[*count - 1 - i] = swap;
	}
	status = 0;
out:
	free(since);
	free(output);
	return status;
}

static void commit_lines_free(struct history_commit *commits, size_t count)
{
	ARRAY_RELEASE(commits, count, commit_release);
}

/* `git show COMMIT:PATH` into *text; -1 when the file is not in that commit. */
static int show_file(const char *root, const char *commit, const char *path, char **text,
		     struct gate_error *err)
{
	char *object = NULL;
	const char *arguments[] = { "show", "--no-color", NULL, NULL };
	int status;

	*text = NULL;
	if (asprintf(&object, "%s:%s", commit, path) < 0)
		return gate_error_oom(err);
	arguments[2] = object;
	status = baseline_git(root, arguments, text, err);
	free(object);
	if (status != 0)
		gate_error_set(err, "%s is not in this commit", path);
	return status;
}

static void value_text(const cJSON *item, char *text, size_t size)
{
	if (cJSON_IsString(item))
		snprintf(text, size, "%s", item->valuestring);
	else if (cJSON_IsNumber(item))
		snprintf(text, size, "%g", item->valuedouble);
	else
		snprintf(text, size, "(none)");
}

/* What differs between two fingerprints, "compiler: GNU 12.2.0 -> GNU 13.2.0"; NULL when equal. */
static char *fingerprint_change(const struct environment *before, const struct environment *after)
{
	cJSON *old = NULL, *new = NULL;
	const cJSON *item;
	char *text = NULL;
	size_t length = 0;
	FILE *out;

	if (environment_fingerprint_equal(after, before, NULL, 0))
		return NULL;
	out = open_memstream(&text, &length);
	old = environment_fingerprint_to_json(before);
	new = environment_fingerprint_to_json(after);
	if (out == NULL || old == NULL || new == NULL)
		goto out;
	cJSON_ArrayForEach(item, new) {
		const cJSON *was = cJSON_GetObjectItemCaseSensitive(old, item->string);
		char now_text[512], was_text[512];

		value_text(item, now_text, sizeof(now_text));
		value_text(was, was_text, sizeof(was_text));
		if (strcmp(now_text, was_text) != 0)
			fprintf(out, "%s%s: %s -> %s", ftell(out) > 0 ? "; " : "", item->string, was_text,
				now_text);
	}
	if (ftell(out) == 0)
		fputs("fingerprint changed", out);
out:
	if (out != NULL)
		fclose(out);
	cJSON_Delete(old);
	cJSON_Delete(new);
	return text;
}

static double figure_value(const struct measurement *measurement, struct history_figure figure)
{
	const struct slope *slope = &measurement->slopes[figure.metric];

	return figure.cold ? (double)slope->cold : slope->per_message;
}

/* A version being read: its document and the acceptances committed with it. */
struct loaded {
	struct results results;
	struct acceptance acceptance;
};

static bool selected(const struct history_request *request, const char *name)
{
	size_t i;

	for (i = 0; i < request->pattern_count; i++)
		if (fnmatch(request->patterns[i], name, 0) == 0)
			return true;
	return request->pattern_count == 0;
}

/* Reads one commit's version; 1 when it does not parse (skipped, with the reason). */
static int load_version(struct history *history, const struct history_request *request,
			struct history_commit *commit, struct loaded *loaded, struct gate_error *err)
{
	struct gate_error problem = GATE_ERROR_INIT, ignored = GATE_ERROR_INIT;
	char *text = NULL, *source = NULL, *accepted_path = NULL;
	int status = -1;

	if (asprintf(&source, "%s at %s", history->path, commit->short_hash) < 0 ||
	    asprintf(&accepted_path, "baselines/accepted.json at %s", commit->short_hash) < 0) {
		gate_error_oom(err);
		goto out;
	}
	if (show_file(request->root, commit->hash, history->path, &text, &problem) == 0 &&
	    results_parse(&loaded->results, text, strlen(text), source, &problem) == 0) {
		free(text);
		text = NULL;
		/* An acceptance file that does not read marks nothing: the baseline still counts. */
		if (show_file(request->root, commit->hash, "baselines/accepted.json", &text,
			      &ignored) != 0 ||
		    acceptance_parse(&loaded->acceptance, text, strlen(text), accepted_path,
				     metric_acceptance_figures(), &ignored) != 0)
			loaded->acceptance = (struct acceptance)ACCEPTANCE_INIT;
		status = 0;
		goto out;
	}
	{
		struct history_skip *skip = &history->skipped[history->skipped_count++];

		skip->commit = *commit;
		memset(commit, 0, sizeof(*commit));
		skip->problem = strdup(problem.message);
		status = skip->problem != NULL ? 1 : gate_error_oom(err);
	}
out:
	free(text);
	free(source);
	free(accepted_path);
	return status;
}

static int add_version(struct history *history, struct history_commit *commit,
		       const struct loaded *previous, const struct loaded *loaded)
{
	struct history_version *version = &history->versions[history->version_count++];

	version->commit = *commit;
	memset(commit, 0, sizeof(*commit));
	if (previous != NULL) {
		version->fingerprint_change = fingerprint_change(&previous->results.fingerprint,
								 &loaded->results.fingerprint);
		if (version->fingerprint_change == NULL &&
		    !environment_fingerprint_equal(&loaded->results.fingerprint,
						   &previous->results.fingerprint, NULL, 0))
			return -1;
	}
	return 0;
}

static struct history_series *find_series(struct history *history, const char *scenario,
					  struct history_figure figure)
{
	size_t i;

	for (i = 0; i < history->series_count; i++)
		if (history->series[i].figure.metric == figure.metric &&
		    history->series[i].figure.cold == figure.cold &&
		    strcmp(history->series[i].scenario, scenario) == 0)
			return &history->series[i];
	return NULL;
}

static int grow(void **items, size_t count, size_t size)
{
	/* Room for one more whenever count reaches a power of two. */
	void *grown;

	if (count != 0 && (count & (count - 1)) != 0)
		return 0;
	grown = realloc(*items, (count == 0 ? 1 : count * 2) * size);
	if (grown == NULL)
		return -1;
	*items = grown;
	return 0;
}

/* The reason baselines/accepted.json gives for a rise to `value`: a metric gated at a limit is
 * accepted by figure, as "KEY" or "cold_KEY" (the others have floors, accepted as settings). */
static const char *accepting_reason(const struct acceptance *acceptance, const char *scenario,
				    const struct history_series *series, double value)
{
	int kind = metric_acceptance(series->figure.metric, series->figure.cold);
	const struct acceptance_entry *entry =
		kind >= 0 ? acceptance_find(acceptance, scenario, (unsigned)kind) : NULL;

	return entry != NULL && value <= entry->value ? entry->reason : NULL;
}

/* Adds a point to the series of (scenario, figure) when the figure differs from its last one. */
static int add_point(struct history *history, const char *scenario, struct history_figure figure,
		     double value, const struct acceptance *acceptance)
{
	struct history_series *series = find_series(history, scenario, figure);
	struct history_point *point, *last;
	const char *reason;

	if (series == NULL) {
		if (grow((void **)&history->series, history->series_count, sizeof(*series)) != 0)
			return -1;
		series = &history->series[history->series_count++];
		*series = (struct history_series){ .scenario = strdup(scenario) };
		if (series->scenario == NULL || history_series_name(series, figure) != 0)
			return -1;
	}
	last = series->point_count > 0 ? &series->points[series->point_count - 1] : NULL;
	if (last != NULL && last->value == value)
		return 0;
	if (grow((void **)&series->points, series->point_count, sizeof(*point)) != 0)
		return -1;
	last = series->point_count > 0 ? &series->points[series->point_count - 1] : NULL;
	point = &series->points[series->point_count++];
	*point = (struct history_point){ .version = history->version_count - 1, .value = value };
	if (last != NULL) {
		point->has_change = true;
		point->change_percent = slope_change_percent(value, last->value);
		reason = value > last->value ? accepting_reason(acceptance, scenario, series, value) : NULL;
		if (reason != NULL && (point->accepted = strdup(reason)) == NULL)
			return -1;
	}
	return 0;
}

/* Every figure each selected scenario has: a metric a version lacks (measured by a later gate, or
 * not asked for) adds no point there. */
static int add_points(struct history *history, const struct history_request *request,
		      const struct loaded *loaded)
{
	size_t i;
	int cold, metric;

	for (i = 0; i < loaded->results.count; i++) {
		const struct measurement *measurement = &loaded->results.measurements[i];

		if (!selected(request, measurement->info.name))
			continue;
		for (cold = 0; cold < 2; cold++)
			for (metric = 0; metric < METRIC_COUNT; metric++) {
				struct history_figure figure = { (enum metric_id)metric, cold != 0 };

				if (measurement->has[metric] &&
				    add_point(history, measurement->info.name, figure,
					      figure_value(measurement, figure), &loaded->acceptance) != 0)
					return -1;
			}
	}
	return 0;
}

static int compare_series(const void *left, const void *right)
{
	const struct history_series *a = left, *b = right;
	int order = strcmp(a->scenario, b->scenario);

	if (order != 0)
		return order;
	if (a->figure.cold != b->figure.cold)
		return a->figure.cold ? 1 : -1;
	return (int)a->figure.metric - (int)b->figure.metric;
}

static void finish_series(struct history *history)
{
	size_t i;

	qsort(history->series, history->series_count, sizeof(*history->series), compare_series);
	for (i = 0; i < history->series_count; i++) {
		struct history_series *series = &history->series[i];

		series->drift_percent = slope_change_percent(series->points[series->point_count - 1].value,
							     series->points[0].value);
	}
}

static void loaded_release(struct loaded *loaded)
{
	results_release(&loaded->results);
	acceptance_release(&loaded->acceptance);
}

static int read_versions(struct history *history, const struct history_request *request,
			 struct history_commit *commits, size_t count, struct gate_error *err)
{
	struct loaded slots[2] = { { RESULTS_INIT, ACCEPTANCE_INIT }, { RESULTS_INIT, ACCEPTANCE_INIT } };
	struct loaded *previous = NULL;
	size_t i;
	int status = -1;

	history->versions = calloc(count + 1, sizeof(*history->versions));
	history->skipped = calloc(count + 1, sizeof(*history->skipped));
	if (history->versions == NULL || history->skipped == NULL)
		return gate_error_oom(err);
	for (i = 0; i < count; i++) {
		struct loaded *loaded = previous == &slots[0] ? &slots[1] : &slots[0];
		int read = load_version(history, request, &commits[i], loaded, err);

		if (read < 0)
			goto out;
		if (read > 0)
			continue;
		if (add_version(history, &commits[i], previous, loaded) != 0 ||
		    add_points(history, request, loaded) != 0) {
			loaded_release(loaded);
			gate_error_oom(err);
			goto out;
		}
		if (previous != NULL)
			loaded_release(previous);
		previous = loaded;
	}
	status = 0;
out:
	if (previous != NULL)
		loaded_release(previous);
	return status;
}

enum history_status history_walk(struct history *history, const struct history_request *request,
				 struct gate_error *err)
{
	struct history_commit *commits = NULL;
	size_t count = 0;
	enum history_status status;

	*history = (struct history)HISTORY_INIT;
	if (request->since != NULL && !history_valid_date(request->since)) {
		gate_error_set(err, "--since '%s' is not a date (YYYY-MM-DD)", request->since);
		return HISTORY_BAD_REQUEST;
	}
	status = resolve(history, request->root, request->ref, err);
	if (status != HISTORY_FOUND)
		goto out;
	status = HISTORY_BAD_REQUEST;
	if (asprintf(&history->path, "baselines/%s.json", request->ref) < 0) {
		history->path = NULL;
		gate_error_oom(err);
		goto out;
	}
	if (list_commits(history, request, &commits, &count, err) != 0 ||
	    read_versions(history, request, commits, count, err) != 0)
		goto out;
	status = HISTORY_NONE;
	if (count == 0) {
		gate_error_set(err, "no history: no commit on %s%s%s changed %s", history->ref,
			       request->since ? " since " : "", request->since ? request->since : "",
			       history->path);
		goto out;
	}
	if (history->version_count == 0) {
		gate_error_set(err, "no history: none of the %zu versions of %s on %s could be read",
			       count, history->path, history->ref);
		goto out;
	}
	if (history->series_count == 0) {
		gate_error_set(err, "no scenario in the history of %s matches --scenario '%s'",
			       history->path, request->patterns[0]);
		status = HISTORY_BAD_REQUEST;
		goto out;
	}
	finish_series(history);
	status = HISTORY_FOUND;
out:
	commit_lines_free(commits, count);
	return status;
}

/* JSON: the history document's records (json_record.h), one table each, read and written
 * alike. */

#define COMMIT_FIELDS(type)                                                                   \
	{ .key = "commit", JSON_TEXT_MEMBER(type, commit.hash), .need = JSON_REQUIRED,         \
	  .since = "0.2.0" },                                                                  \
	{ .key = "short", JSON_TEXT_MEMBER(type, commit.short_hash), .need = JSON_REQUIRED,    \
	  .since = "0.2.0" },                                                                  \
	{ .key = "date", JSON_TEXT_MEMBER(type, commit.date), .need = JSON_REQUIRED,           \
	  .since = "0.2.0" },                                                                  \
	{ .key = "subject", JSON_TEXT_MEMBER(type, commit.subject), .need = JSON_REQUIRED,     \
	  .since = "0.2.0" }

static const struct json_field version_fields[] = {
	COMMIT_FIELDS(struct history_version),
	{ .key = "fingerprint_change", JSON_TEXT_MEMBER(struct history_version, fingerprint_change),
	  .need = JSON_REQUIRED, .since = "0.2.0", .flags = JSON_NULLABLE },
};

static const struct json_record version_record = JSON_RECORD("version", version_fields, NULL);

static const struct json_field skip_fields[] = {
	COMMIT_FIELDS(struct history_skip),
	{ .key = "problem", JSON_TEXT_MEMBER(struct history_skip, problem), .need = JSON_REQUIRED,
	  .since = "0.2.0" },
};

static const struct json_record skip_record = JSON_RECORD("skipped version", skip_fields, NULL);

/* A point's change is the step from the point before: written for readers, computed again on
 * reading. */
static cJSON *write_change(const void *record)
{
	const struct history_point *point = record;

	return point->has_change ? cJSON_CreateNumber(point->change_percent) : cJSON_CreateNull();
}

static const struct json_field point_fields[] = {
	{ .key = "version", JSON_INDEX_MEMBER(struct history_point, version), .need = JSON_REQUIRED,
	  .since = "0.2.0" },
	{ .key = "value", JSON_NONNEG_MEMBER(struct history_point, value), .need = JSON_REQUIRED,
	  .since = "0.2.0" },
	{ .key = "change_percent", .type = JSON_CUSTOM, .need = JSON_OPTIONAL, .since = "0.2.0",
	  .shape = "number or null (from the point before; not read)", .write = write_change },
	{ .key = "accepted", JSON_TEXT_MEMBER(struct history_point, accepted),
	  .need = JSON_REQUIRED, .since = "0.2.0", .flags = JSON_NULLABLE },
};

static const struct json_record point_record = JSON_RECORD("point", point_fields, NULL);

static int read_metric(const struct json_reader *reader, const cJSON *item, const char *path,
		       void *record)
{
	struct history_series *series = record;
	const struct metric *found;
	bool cold;

	if (!cJSON_IsString(item))
		return json_reader_bad(reader, path, "is not a string");
	found = metric_figure_find(item->valuestring, &cold);
	if (found == NULL || history_series_name(series, (struct history_figure){
				     (enum metric_id)(found - metric_table), cold }) != 0)
		return json_reader_bad(reader, path, "is an unknown metric");
	return 0;
}

static cJSON *write_metric(const void *record)
{
	return cJSON_CreateString(((const struct history_series *)record)->key);
}

static cJSON *write_drift(const void *record)
{
	return cJSON_CreateNumber(((const struct history_series *)record)->drift_percent);
}

static const struct json_field series_fields[] = {
	{ .key = "scenario", JSON_TEXT_MEMBER(struct history_series, scenario),
	  .need = JSON_REQUIRED, .since = "0.2.0" },
	{ .key = "metric", .type = JSON_CUSTOM, .need = JSON_REQUIRED, .since = "0.2.0",
	  .shape = "string: a metric key, cold_ before it for the cold figure", .read = read_metric,
	  .write = write_metric },
	{ .key = "drift_percent", .type = JSON_CUSTOM, .need = JSON_OPTIONAL, .since = "0.2.0",
	  .shape = "number (first point to last; not read)", .write = write_drift },
	{ .key = "points",
	  JSON_ARRAY_MEMBER(struct history_series, points, point_count, &point_record),
	  .need = JSON_REQUIRED, .since = "0.2.0", .flags = JSON_NONEMPTY },
};

static const struct json_record series_record = JSON_RECORD("series", series_fields, NULL);

/* Every point names a version, later than the point before it; the changes and drifts are
 * computed again from the values. */
static int finish_history(const struct json_reader *reader, const cJSON *object, const char *path,
			  void *record)
{
	struct history *history = record;
	size_t i, j;

	(void)object;
	(void)path;
	for (i = 0; i < history->series_count; i++) {
		struct history_series *series = &history->series[i];

		for (j = 0; j < series->point_count; j++) {
			struct history_point *point = &series->points[j];
			char where[96];

			snprintf(where, sizeof(where), "series[%zu].points[%zu]", i, j);
			if (point->version >= history->version_count)
				return json_reader_bad(reader, where, "has no version index into versions");
			if (j > 0 && point->version <= series->points[j - 1].version)
				return json_reader_bad(reader, where, "is not after the point before it");
			point->has_change = j > 0;
			if (j > 0)
				point->change_percent = slope_change_percent(point->value,
									     series->points[j - 1].value);
		}
		series->drift_percent = slope_change_percent(series->points[series->point_count - 1].value,
							     series->points[0].value);
	}
	return 0;
}

static const struct json_field history_fields[] = {
	{ .key = "ref", JSON_TEXT_MEMBER(struct history, ref), .need = JSON_REQUIRED,
	  .since = "0.2.0" },
	{ .key = "tip", JSON_TEXT_MEMBER(struct history, tip), .need = JSON_REQUIRED,
	  .since = "0.2.0" },
	{ .key = "path", JSON_TEXT_MEMBER(struct history, path), .need = JSON_REQUIRED,
	  .since = "0.2.0" },
	{ .key = "versions", JSON_ARRAY_MEMBER(struct history, versions, version_count, &version_record),
	  .need = JSON_REQUIRED, .since = "0.2.0", .flags = JSON_NONEMPTY },
	{ .key = "skipped", JSON_ARRAY_MEMBER(struct history, skipped, skipped_count, &skip_record),
	  .need = JSON_REQUIRED, .since = "0.2.0" },
	{ .key = "series", JSON_ARRAY_MEMBER(struct history, series, series_count, &series_record),
	  .need = JSON_REQUIRED, .since = "0.2.0" },
};

static const struct json_record history_record = JSON_RECORD("history", history_fields,
							      finish_history);

cJSON *history_to_json(const struct history *history)
{
	cJSON *document = cJSON_CreateObject();

	if (document == NULL || cJSON_AddStringToObject(document, "costgate_history", "1") == NULL ||
	    json_record_write(&history_record, history, document) != 0) {
		cJSON_Delete(document);
		return NULL;
	}
	return document;
}

int history_from_json(struct history *history, const cJSON *document, const char *source,
		      struct gate_error *err)
{
	const struct json_reader reader = { "history", source, false, err };
	const cJSON *marker = cJSON_GetObjectItemCaseSensitive(document, "costgate_history");

	*history = (struct history)HISTORY_INIT;
	if (!cJSON_IsObject(document) || !cJSON_IsString(marker) || strcmp(marker->valuestring, "1") != 0)
		return gate_error_set(err, "cannot read history '%s': not a history document "
				      "(costgate_history \"1\", written by gate history --json)", source);
	if (json_record_read(&reader, &history_record, document, "", history) == 0)
		return 0;
	history_release(history);
	return -1;
}

static void version_release(struct history_version *version)
{
	commit_release(&version->commit);
	free(version->fingerprint_change);
}

static void skip_release(struct history_skip *skip)
{
	commit_release(&skip->commit);
	free(skip->problem);
}

static void point_release(struct history_point *point)
{
	free(point->accepted);
}

static void series_release(struct history_series *series)
{
	ARRAY_RELEASE(series->points, series->point_count, point_release);
	free(series->scenario);
}

void history_release(struct history *history)
{
	if (history == NULL)
		return;
	ARRAY_RELEASE(history->versions, history->version_count, version_release);
	ARRAY_RELEASE(history->skipped, history->skipped_count, skip_release);
	ARRAY_RELEASE(history->series, history->series_count, series_release);
	free(history->ref);
	free(history->tip);
	free(history->path);
	*history = (struct history)HISTORY_INIT;
}
