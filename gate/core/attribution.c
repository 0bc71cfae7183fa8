/* Attribution: a merge of two profiles by name (functions, the project's and the system
 * libraries' apart) or by chain of functions (sites),
 * keeping the largest changes. The profiles are small (tens of rows), so a quadratic merge is
 * simpler than sorting both sides and just as fast here. */
#include "attribution.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "json_record.h"

/* One side's functions: a measurement's region functions or its fill functions. */
struct function_list {
	const struct function_cost *items;
	size_t count;
};

static struct function_list region_functions(const struct measurement *measurement)
{
	return (struct function_list){ measurement->functions, measurement->function_count };
}

/* Whether the list flags any function as the harness's: a document written before the harness
 * was told apart flags none. */
static bool flags_harness(struct function_list list)
{
	size_t i;

	for (i = 0; i < list.count; i++)
		if (list.items[i].harness)
			return true;
	return false;
}

/* The function of that name on the same side (the project's or the system libraries', and, when
 * both documents tell the harness apart (`by_flag`), the harness's or not): a project function
 * named like a system library's, or like one of the harness's, is another function. Against a
 * document that flags no harness at all (an older one), the name and side alone. */
static const struct function_cost *find_function(struct function_list list,
						 const struct function_cost *like, bool by_flag)
{
	size_t i;

	for (i = 0; i < list.count; i++)
		if (list.items[i].project == like->project &&
		    (!by_flag || list.items[i].harness == like->harness) &&
		    strcmp(list.items[i].name, like->name) == 0)
			return &list.items[i];
	return NULL;
}

/* Whether either side counts the function as costgate's harness (a baseline written before the
 * harness was told apart has the flag on neither; the head's then decides). */
static bool either_harness(const struct function_cost *a, const struct function_cost *b)
{
	return (a != NULL && a->harness) || (b != NULL && b->harness);
}

/* Whether the function a line is counted under (callgrind's name) is only the harness's in
 * `measurement`: a harness function of that name, and no project function of it (nor one told
 * apart by its place, "NAME [file.c:12]"), whose lines these could also be. */
static bool harness_named(const struct measurement *measurement, const char *name)
{
	size_t length = strlen(name), i;
	bool harness = false;

	for (i = 0; measurement != NULL && i < measurement->function_count; i++) {
		const struct function_cost *cost = &measurement->functions[i];

		if (strncmp(cost->name, name, length) != 0 ||
		    (cost->name[length] != '\0' && strncmp(cost->name + length, " [", 2) != 0))
			continue;
		if (!cost->harness)
			return false;
		harness = harness || cost->name[length] == '\0';
	}
	return harness;
}

static int compare_functions(const void *left, const void *right)
{
	const struct attribution_function *a = left, *b = right;

	if (fabs(a->change) != fabs(b->change))
		return fabs(a->change) > fabs(b->change) ? -1 : 1;
	return strcmp(a->name, b->name);
}

/* The figure a row ranks by: own + system-library callees for the project, else exclusive. */
static double ranked(const struct function_cost *cost, bool project)
{
	return cost == NULL ? 0 : project ? cost->with_library : cost->exclusive;
}

static int compare_sites(const void *left, const void *right)
{
	const struct attribution_site *a = left, *b = right;

	if (fabs(a->blocks_change) != fabs(b->blocks_change))
		return fabs(a->blocks_change) > fabs(b->blocks_change) ? -1 : 1;
	if (fabs(a->bytes_change) != fabs(b->bytes_change))
		return fabs(a->bytes_change) > fabs(b->bytes_change) ? -1 : 1;
	return strcmp(a->chain, b->chain);
}

/* One side's sites summed by chain. */
struct site_group {
	char *chain; /* owned */
	char lines[ATTRIBUTION_TEXT];
	double blocks;
	double bytes;
};

struct site_groups {
	struct site_group *groups;
	size_t count;
};

/* Appends `text` (`length` bytes) to the NUL-terminated `buffer`, cut to its size. */
static void append_text(char *buffer, const char *text, size_t length)
{
	size_t used = strlen(buffer);

	if (used + 1 >= ATTRIBUTION_TEXT)
		return;
	if (length > ATTRIBUTION_TEXT - 1 - used)
		length = ATTRIBUTION_TEXT - 1 - used;
	memcpy(buffer + used, text, length);
	buffer[used + length] = '\0';
}

/* The function names of " < "-joined frames "name (file:line)" or "name (in object)". */
static char *chain_of(const char *frames)
{
	size_t capacity = strlen(frames) + 1, used = 0;
	char *chain = malloc(capacity);
	const char *frame = frames;

	if (chain == NULL)
		return NULL;
	while (*frame != '\0') {
		const char *end = strstr(frame, " < ");
		const char *name_end = strstr(frame, " (");
		size_t frame_length = end ? (size_t)(end - frame) : strlen(frame);
		size_t name_length = name_end && (size_t)(name_end - frame) < frame_length
					     ? (size_t)(name_end - frame) : frame_length;

		if (used > 0) {
			memcpy(chain + used, " < ", 3);
			used += 3;
		}
		memcpy(chain + used, frame, name_length);
		used += name_length;
		frame += frame_length + (end ? 3 : 0);
	}
	chain[used] = '\0';
	return chain;
}

/* "file.c:12" of a location "function (file.c:12)"; nothing for "function (in object)". */
static void add_line(char *lines, const char *location)
{
	const char *open = strstr(location, " (");
	size_t length;

	if (open == NULL || strncmp(open, " (in ", 5) == 0)
		return;
	open += 2;
	length = strlen(open);
	if (length == 0 || open[length - 1] != ')')
		return;
	length--;
	if (lines[0] != '\0') {
		char probe[ATTRIBUTION_TEXT];

		snprintf(probe, sizeof(probe), "%.*s", (int)length, open);
		if (strstr(lines, probe) != NULL)
			return;
		append_text(lines, ", ", 2);
	}
	append_text(lines, open, length);
}

static int group_sites(struct site_groups *groups, const struct measurement *measurement)
{
	size_t count = measurement != NULL ? measurement->site_count : 0, i, j;

	groups->count = 0;
	groups->groups = calloc(count + 1, sizeof(*groups->groups));
	if (groups->groups == NULL)
		return -1;
	for (i = 0; i < count; i++) {
		const struct site_cost *site = &measurement->sites[i];
		char *chain = chain_of(site->stack[0] ? site->stack : site->location);
		struct site_group *group = NULL;

		if (chain == NULL)
			return -1;
		for (j = 0; j < groups->count && group == NULL; j++)
			if (strcmp(groups->groups[j].chain, chain) == 0)
				group = &groups->groups[j];
		if (group == NULL) {
			group = &groups->groups[groups->count++];
			group->chain = chain;
		} else {
			free(chain);
		}
		group->blocks += site->blocks;
		group->bytes += site->bytes;
		add_line(group->lines, site->location);
	}
	return 0;
}

static void site_group_release(struct site_group *group)
{
	free(group->chain);
}

static void release_groups(struct site_groups *groups)
{
	ARRAY_RELEASE(groups->groups, groups->count, site_group_release);
}

static const struct site_group *find_group(const struct site_groups *groups, const char *chain)
{
	size_t i;

	for (i = 0; i < groups->count; i++)
		if (strcmp(groups->groups[i].chain, chain) == 0)
			return &groups->groups[i];
	return NULL;
}

/* Every function of both sides that is (project) or is not (a system library's) the project's,
 * with a change, sorted; the first `limit` are kept in `rows`. */
static int merge_functions(struct attribution_function *rows, size_t *row_count, size_t limit,
			   bool project, double total_change, struct function_list head,
			   struct function_list baseline)
{
	size_t capacity = head.count + baseline.count, count = 0, i;
	struct attribution_function *all = calloc(capacity + 1, sizeof(*all));
	bool by_flag = flags_harness(head) && flags_harness(baseline);

	if (all == NULL)
		return -1;
	for (i = 0; i < capacity; i++) {
		bool from_head = i < head.count;
		const struct function_cost *cost = from_head ? &head.items[i]
							     : &baseline.items[i - head.count];
		const struct function_cost *other = find_function(from_head ? baseline : head, cost,
								  by_flag);
		const struct function_cost *in_head = from_head ? cost : other;
		const struct function_cost *in_baseline = from_head ? other : cost;
		struct attribution_function *row = &all[count];

		if ((!from_head && other != NULL) || cost->project != project ||
		    (!cost->project && cg_name_is_allocator(cost->name)) ||
		    either_harness(in_head, in_baseline))
			continue; /* merged from the head's side, the other table's, the
				   * allocator's (reported apart), or the harness's own (in the
				   * rest: never the project's) */
		row->name = cost->name;
		row->head = ranked(in_head, project);
		row->baseline = ranked(in_baseline, project);
		row->change = row->head - row->baseline;
		row->exclusive_change = (in_head ? in_head->exclusive : 0) -
					(in_baseline ? in_baseline->exclusive : 0);
		row->inclusive_change = (in_head ? in_head->inclusive : 0) -
					(in_baseline ? in_baseline->inclusive : 0);
		row->appeared = in_baseline == NULL;
		row->disappeared = in_head == NULL;
		if (total_change != 0)
			row->share_percent = row->change / total_change * 100.0;
		/* A caller whose inclusive cost moved only because its callee's did is not a row:
		 * the callee is. */
		if (row->change != 0 || row->exclusive_change != 0)
			count++;
	}
	qsort(all, count, sizeof(*all), compare_functions);
	*row_count = count < limit ? count : limit;
	memcpy(rows, all, *row_count * sizeof(*all));
	free(all);
	return 0;
}

/* What the shown project rows leave of the whole change, so that their shares add up. */
static void compute_rest(struct attribution *attribution)
{
	double shown = 0;
	size_t i;

	for (i = 0; i < attribution->function_count; i++)
		shown += attribution->functions[i].change;
	attribution->rest_change = attribution->total_change - shown;
	if (attribution->total_change != 0)
		attribution->rest_share_percent =
			attribution->rest_change / attribution->total_change * 100.0;
}

static int merge_sites(struct attribution *attribution, const struct measurement *head,
		       const struct measurement *baseline)
{
	struct site_groups in_head = { 0 }, in_base = { 0 };
	struct attribution_site *all = NULL;
	size_t count = 0, i;
	int status = -1;

	if (group_sites(&in_head, head) != 0 || group_sites(&in_base, baseline) != 0)
		goto out;
	all = calloc(in_head.count + in_base.count + 1, sizeof(*all));
	if (all == NULL)
		goto out;
	for (i = 0; i < in_head.count + in_base.count; i++) {
		bool from_head = i < in_head.count;
		const struct site_group *group = from_head ? &in_head.groups[i]
							   : &in_base.groups[i - in_head.count];
		const struct site_group *other = find_group(from_head ? &in_base : &in_head, group->chain);
		const struct site_group *here = from_head ? group : other;
		const struct site_group *there = from_head ? other : group;
		struct attribution_site *row = &all[count];

		if (!from_head && other != NULL)
			continue;
		snprintf(row->chain, sizeof(row->chain), "%s", group->chain);
		snprintf(row->head_lines, sizeof(row->head_lines), "%s", here ? here->lines : "");
		snprintf(row->baseline_lines, sizeof(row->baseline_lines), "%s",
			 there ? there->lines : "");
		row->head_blocks = here ? here->blocks : 0;
		row->baseline_blocks = there ? there->blocks : 0;
		row->blocks_change = row->head_blocks - row->baseline_blocks;
		row->bytes_change = (here ? here->bytes : 0) - (there ? there->bytes : 0);
		row->appeared = baseline != NULL && there == NULL;
		row->disappeared = here == NULL;
		if (row->blocks_change != 0 || row->bytes_change != 0)
			count++;
	}
	qsort(all, count, sizeof(*all), compare_sites);
	attribution->site_count = count < ATTRIBUTION_ROWS ? count : ATTRIBUTION_ROWS;
	memcpy(attribution->sites, all, attribution->site_count * sizeof(*all));
	status = 0;
out:
	free(all);
	release_groups(&in_head);
	release_groups(&in_base);
	return status;
}

/* The project functions whose system calls per message changed, by |change|. */
static int merge_syscalls(struct attribution *attribution, const struct measurement *head,
			  const struct measurement *baseline)
{
	size_t capacity = head->function_count + baseline->function_count, count = 0, i;
	struct attribution_function *all = calloc(capacity + 1, sizeof(*all));
	bool by_flag = flags_harness(region_functions(head)) &&
		       flags_harness(region_functions(baseline));

	if (all == NULL)
		return -1;
	for (i = 0; i < capacity; i++) {
		bool from_head = i < head->function_count;
		const struct function_cost *cost = from_head ? &head->functions[i]
							     : &baseline->functions[i - head->function_count];
		const struct function_cost *other = find_function(
			region_functions(from_head ? baseline : head), cost, by_flag);
		const struct function_cost *in_head = from_head ? cost : other;
		const struct function_cost *in_baseline = from_head ? other : cost;
		struct attribution_function *row = &all[count];

		if ((!from_head && other != NULL) || !cost->project ||
		    either_harness(in_head, in_baseline))
			continue;
		row->name = cost->name;
		row->head = in_head ? in_head->syscalls : 0;
		row->baseline = in_baseline ? in_baseline->syscalls : 0;
		row->change = row->head - row->baseline;
		row->appeared = in_baseline == NULL;
		row->disappeared = in_head == NULL;
		if (row->change != 0)
			count++;
	}
	qsort(all, count, sizeof(*all), compare_functions);
	attribution->syscall_count = count < ATTRIBUTION_LEAVES ? count : ATTRIBUTION_LEAVES;
	memcpy(attribution->syscalls, all, attribution->syscall_count * sizeof(*all));
	free(all);
	return 0;
}

/* The head's project functions that cost more a message from N to 2N than from 1 to N. */
static int find_growing(struct attribution *attribution, const struct measurement *head)
{
	struct attribution_function *all = calloc(head->function_count + 1, sizeof(*all));
	size_t count = 0, i;

	if (all == NULL)
		return -1;
	for (i = 0; i < head->function_count; i++) {
		const struct function_cost *cost = &head->functions[i];
		struct attribution_function *row = &all[count];

		if (!cost->project || cost->harness || cost->with_library <= cost->with_library_early)
			continue;
		row->name = cost->name;
		row->head = cost->with_library;
		row->baseline = cost->with_library_early;
		row->change = row->head - row->baseline;
		count++;
	}
	qsort(all, count, sizeof(*all), compare_functions);
	attribution->growing_count = count < ATTRIBUTION_LEAVES ? count : ATTRIBUTION_LEAVES;
	memcpy(attribution->growing, all, attribution->growing_count * sizeof(*all));
	free(all);
	return 0;
}

/* The k-th line of `lines` (by number, from 0) with the file, function and text of lines[at]. */
static size_t line_ordinal(const struct line_cost *lines, size_t at)
{
	size_t ordinal = 0, i;

	for (i = 0; i < at; i++)
		if (strcmp(lines[i].file, lines[at].file) == 0 &&
		    strcmp(lines[i].function, lines[at].function) == 0 &&
		    strcmp(lines[i].text, lines[at].text) == 0)
			ordinal++;
	return ordinal;
}

/* The line of `lines` that is `like` (the same file, function, text and ordinal), or SIZE_MAX. */
static size_t find_line(const struct line_cost *lines, size_t count, const struct line_cost *like,
			size_t ordinal)
{
	size_t seen = 0, i;

	for (i = 0; i < count; i++)
		if (strcmp(lines[i].file, like->file) == 0 &&
		    strcmp(lines[i].function, like->function) == 0 &&
		    strcmp(lines[i].text, like->text) == 0 && seen++ == ordinal)
			return i;
	return SIZE_MAX;
}

/* Keeps `row` among the ATTRIBUTION_ROWS largest changes in `rows`, largest first. */
static void keep_line(struct attribution *attribution, const struct attribution_line *row)
{
	double size = fabs(row->change);
	size_t at = attribution->line_count;

	if (row->change == 0)
		return;
	if (at == ATTRIBUTION_ROWS) {
		if (size <= fabs(attribution->lines[at - 1].change))
			return;
		at--;
	} else {
		attribution->line_count++;
	}
	while (at > 0 && fabs(attribution->lines[at - 1].change) < size) {
		attribution->lines[at] = attribution->lines[at - 1];
		at--;
	}
	attribution->lines[at] = *row;
}

static void merge_lines(struct attribution *attribution, const struct measurement *head,
			const struct measurement *baseline)
{
	bool *matched = calloc(baseline->line_count + 1, sizeof(*matched));
	size_t i;

	if (matched == NULL)
		return; /* lines are a help to the reader; the verdict does not need them */
	for (i = 0; i < head->line_count; i++) {
		const struct line_cost *line = &head->lines[i];
		size_t at = find_line(baseline->lines, baseline->line_count, line,
				      line_ordinal(head->lines, i));
		struct attribution_line row = { line->file, line->line, line->function, line->text,
						line->instructions, 0, 0, at == SIZE_MAX, false };

		if (harness_named(head, line->function) || harness_named(baseline, line->function))
			continue;
		if (at != SIZE_MAX) {
			matched[at] = true;
			row.baseline = baseline->lines[at].instructions;
		}
		row.change = row.head - row.baseline;
		keep_line(attribution, &row);
	}
	for (i = 0; i < baseline->line_count; i++) {
		const struct line_cost *line = &baseline->lines[i];
		struct attribution_line row = { line->file, line->line, line->function, line->text,
						0, line->instructions, -line->instructions, false,
						true };

		if (!matched[i] && !harness_named(head, line->function) &&
		    !harness_named(baseline, line->function))
			keep_line(attribution, &row);
	}
	free(matched);
}

/* What the harness's functions (own + system-library callees) cost a message on one side; a
 * function counts when either side flags it (`flags`: the other side's functions). */
static double harness_total(const struct measurement *side, const struct measurement *flags)
{
	bool by_flag = flags_harness(region_functions(side)) &&
		       flags_harness(region_functions(flags));
	double total = 0;
	size_t i;

	for (i = 0; i < side->function_count; i++) {
		const struct function_cost *cost = &side->functions[i];

		if (cost->project &&
		    either_harness(cost, find_function(region_functions(flags), cost, by_flag)))
			total += cost->with_library;
	}
	return total;
}

/* The fill before each drain on both sides, and its project functions that changed most. */
static int merge_fill(struct attribution *attribution, const struct measurement *head,
		      const struct measurement *baseline)
{
	struct function_list none = { NULL, 0 };

	if (!head->has_fill)
		return 0;
	attribution->has_fill = true;
	attribution->has_fill_baseline = baseline->has_fill;
	attribution->fill_head = head->fill_per_message;
	attribution->fill_baseline = baseline->has_fill ? baseline->fill_per_message : 0;
	return merge_functions(attribution->fill, &attribution->fill_count, ATTRIBUTION_LEAVES, true,
			       attribution->fill_head - attribution->fill_baseline,
			       (struct function_list){ head->fill_functions,
						       head->fill_function_count },
			       baseline->has_fill
				       ? (struct function_list){ baseline->fill_functions,
								 baseline->fill_function_count }
				       : none);
}

int attribution_compute(struct attribution *attribution, const struct measurement *head,
			const struct measurement *baseline)
{
	memset(attribution, 0, sizeof(*attribution));
	if (baseline != NULL) {
		attribution->total_change = head->slopes[METRIC_INSTRUCTIONS].per_message -
					    baseline->slopes[METRIC_INSTRUCTIONS].per_message;
		if (head->has[METRIC_ALLOCATOR_INSTRUCTIONS] &&
		    baseline->has[METRIC_ALLOCATOR_INSTRUCTIONS])
			attribution->allocator_change =
				head->slopes[METRIC_ALLOCATOR_INSTRUCTIONS].per_message -
				baseline->slopes[METRIC_ALLOCATOR_INSTRUCTIONS].per_message;
		if (merge_functions(attribution->functions, &attribution->function_count,
				    ATTRIBUTION_ROWS, true, attribution->total_change,
				    region_functions(head), region_functions(baseline)) != 0 ||
		    merge_functions(attribution->leaves, &attribution->leaf_count, ATTRIBUTION_LEAVES,
				    false, attribution->total_change, region_functions(head),
				    region_functions(baseline)) != 0 ||
		    merge_fill(attribution, head, baseline) != 0)
			return -1;
		compute_rest(attribution);
		attribution->harness_change = harness_total(head, baseline) -
					      harness_total(baseline, head);
		merge_lines(attribution, head, baseline);
		if (head->has[METRIC_SYSCALLS] && baseline->has[METRIC_SYSCALLS]) {
			attribution->syscall_change = head->slopes[METRIC_SYSCALLS].per_message -
						      baseline->slopes[METRIC_SYSCALLS].per_message;
			if (merge_syscalls(attribution, head, baseline) != 0)
				return -1;
		}
	}
	if (find_growing(attribution, head) != 0)
		return -1;
	return merge_sites(attribution, head, baseline);
}

/* What attribution_to_json writes, described as records (json_record.h): a function's row, a
 * line's, a site's, and the figures of the whole. */
static const struct json_field function_fields[] = {
	{ .key = "name", JSON_VIEW_MEMBER(struct attribution_function, name) },
	{ .key = "head", JSON_NUMBER_MEMBER(struct attribution_function, head) },
	{ .key = "baseline", JSON_NUMBER_MEMBER(struct attribution_function, baseline) },
	{ .key = "change", JSON_NUMBER_MEMBER(struct attribution_function, change) },
	{ .key = "exclusive_change",
	  JSON_NUMBER_MEMBER(struct attribution_function, exclusive_change) },
	{ .key = "inclusive_change",
	  JSON_NUMBER_MEMBER(struct attribution_function, inclusive_change) },
	{ .key = "share_percent", JSON_NUMBER_MEMBER(struct attribution_function, share_percent) },
	{ .key = "appeared", JSON_BOOL_MEMBER(struct attribution_function, appeared) },
	{ .key = "disappeared", JSON_BOOL_MEMBER(struct attribution_function, disappeared) },
};

static const struct json_record function_record = JSON_RECORD("function that moved",
							      function_fields, NULL);

static const struct json_field line_fields[] = {
	{ .key = "file", JSON_VIEW_MEMBER(struct attribution_line, file) },
	{ .key = "line", JSON_COUNT_MEMBER(struct attribution_line, line) },
	{ .key = "function", JSON_VIEW_MEMBER(struct attribution_line, function) },
	{ .key = "text", JSON_VIEW_MEMBER(struct attribution_line, text) },
	{ .key = "head", JSON_NUMBER_MEMBER(struct attribution_line, head) },
	{ .key = "baseline", JSON_NUMBER_MEMBER(struct attribution_line, baseline) },
	{ .key = "change", JSON_NUMBER_MEMBER(struct attribution_line, change) },
	{ .key = "appeared", JSON_BOOL_MEMBER(struct attribution_line, appeared) },
	{ .key = "disappeared", JSON_BOOL_MEMBER(struct attribution_line, disappeared) },
};

static const struct json_record line_record = JSON_RECORD("line that moved", line_fields, NULL);

static const struct json_field site_fields[] = {
	{ .key = "chain", JSON_FIXED_MEMBER(struct attribution_site, chain) },
	{ .key = "head_lines", JSON_FIXED_MEMBER(struct attribution_site, head_lines) },
	{ .key = "baseline_lines", JSON_FIXED_MEMBER(struct attribution_site, baseline_lines) },
	{ .key = "head_blocks", JSON_NUMBER_MEMBER(struct attribution_site, head_blocks) },
	{ .key = "baseline_blocks", JSON_NUMBER_MEMBER(struct attribution_site, baseline_blocks) },
	{ .key = "blocks_change", JSON_NUMBER_MEMBER(struct attribution_site, blocks_change) },
	{ .key = "bytes_change", JSON_NUMBER_MEMBER(struct attribution_site, bytes_change) },
	{ .key = "appeared", JSON_BOOL_MEMBER(struct attribution_site, appeared) },
	{ .key = "disappeared", JSON_BOOL_MEMBER(struct attribution_site, disappeared) },
};

static const struct json_record site_record = JSON_RECORD("site that moved", site_fields, NULL);

static const struct json_field figure_fields[] = {
	{ .key = "syscall_change", JSON_NUMBER_MEMBER(struct attribution, syscall_change) },
	{ .key = "total_change", JSON_NUMBER_MEMBER(struct attribution, total_change) },
	{ .key = "rest_change", JSON_NUMBER_MEMBER(struct attribution, rest_change) },
	{ .key = "rest_share_percent", JSON_NUMBER_MEMBER(struct attribution, rest_share_percent) },
	{ .key = "allocator_change", JSON_NUMBER_MEMBER(struct attribution, allocator_change) },
	{ .key = "harness_change", JSON_NUMBER_MEMBER(struct attribution, harness_change) },
};

static const struct json_record figure_record = JSON_RECORD("attribution", figure_fields, NULL);

/* Adds the array `key` of `count` rows `size` bytes apart, each written as `record` says; false
 * when out of memory. */
static bool add_rows(cJSON *object, const char *key, const struct json_record *record,
		     const void *rows, size_t size, size_t count)
{
	cJSON *array = json_record_array(record, rows, size, count);

	if (array != NULL && cJSON_AddItemToObject(object, key, array))
		return true;
	cJSON_Delete(array);
	return false;
}

#define ADD_ROWS(object, key, record, rows, count) \
	add_rows((object), (key), (record), (rows), sizeof(*(rows)), (count))

cJSON *attribution_to_json(const struct attribution *attribution)
{
	cJSON *object = cJSON_CreateObject(), *fill = NULL;

	if (object == NULL ||
	    !ADD_ROWS(object, "functions", &function_record, attribution->functions,
		      attribution->function_count) ||
	    !ADD_ROWS(object, "leaves", &function_record, attribution->leaves,
		      attribution->leaf_count) ||
	    !ADD_ROWS(object, "sites", &site_record, attribution->sites, attribution->site_count) ||
	    !ADD_ROWS(object, "syscall_functions", &function_record, attribution->syscalls,
		      attribution->syscall_count) ||
	    !ADD_ROWS(object, "growing_functions", &function_record, attribution->growing,
		      attribution->growing_count) ||
	    !ADD_ROWS(object, "lines", &line_record, attribution->lines, attribution->line_count) ||
	    json_record_write(&figure_record, attribution, object) != 0)
		goto failed;
	if (attribution->has_fill &&
	    ((fill = cJSON_AddObjectToObject(object, "fill")) == NULL ||
	     cJSON_AddNumberToObject(fill, "head", attribution->fill_head) == NULL ||
	     (attribution->has_fill_baseline
		      ? cJSON_AddNumberToObject(fill, "baseline", attribution->fill_baseline)
		      : cJSON_AddNullToObject(fill, "baseline")) == NULL ||
	     !ADD_ROWS(fill, "functions", &function_record, attribution->fill,
		       attribution->fill_count)))
		goto failed;
	return object;
failed:
	cJSON_Delete(object);
	return NULL;
}
