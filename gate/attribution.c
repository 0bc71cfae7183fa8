/* Attribution: a merge of two profiles by name (functions) or by location and stack (sites),
 * keeping the largest changes. The profiles are small (tens of rows), so a quadratic merge is
 * simpler than sorting both sides and just as fast here. */
#include "attribution.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const struct function_cost *find_function(const struct measurement *measurement,
						 const char *name)
{
	size_t i;

	for (i = 0; measurement != NULL && i < measurement->function_count; i++)
		if (strcmp(measurement->functions[i].name, name) == 0)
			return &measurement->functions[i];
	return NULL;
}

static const struct site_cost *find_site(const struct measurement *measurement,
					 const struct site_cost *like)
{
	size_t i;

	for (i = 0; measurement != NULL && i < measurement->site_count; i++)
		if (strcmp(measurement->sites[i].location, like->location) == 0 &&
		    strcmp(measurement->sites[i].stack, like->stack) == 0)
			return &measurement->sites[i];
	return NULL;
}

static int compare_functions(const void *left, const void *right)
{
	const struct attribution_function *a = left, *b = right;

	if (fabs(a->exclusive_change) != fabs(b->exclusive_change))
		return fabs(a->exclusive_change) > fabs(b->exclusive_change) ? -1 : 1;
	return strcmp(a->name, b->name);
}

static int compare_sites(const void *left, const void *right)
{
	const struct attribution_site *a = left, *b = right;
	int order;

	if (fabs(a->blocks_change) != fabs(b->blocks_change))
		return fabs(a->blocks_change) > fabs(b->blocks_change) ? -1 : 1;
	if (fabs(a->bytes_change) != fabs(b->bytes_change))
		return fabs(a->bytes_change) > fabs(b->bytes_change) ? -1 : 1;
	order = strcmp(a->location, b->location);
	return order != 0 ? order : strcmp(a->stack, b->stack);
}

/* Every function of both sides with a change, sorted; the first ATTRIBUTION_ROWS are kept. */
static int merge_functions(struct attribution *attribution, const struct measurement *head,
			   const struct measurement *baseline)
{
	size_t capacity = head->function_count + baseline->function_count, count = 0, i;
	struct attribution_function *all = calloc(capacity + 1, sizeof(*all));

	if (all == NULL)
		return -1;
	for (i = 0; i < capacity; i++) {
		bool from_head = i < head->function_count;
		const struct function_cost *cost = from_head ? &head->functions[i]
							     : &baseline->functions[i - head->function_count];
		const struct function_cost *other = find_function(from_head ? baseline : head, cost->name);
		const struct function_cost *in_head = from_head ? cost : other;
		const struct function_cost *in_baseline = from_head ? other : cost;
		struct attribution_function *row = &all[count];

		if (!from_head && other != NULL)
			continue; /* already merged from the head's side */
		row->name = cost->name;
		row->head = in_head ? in_head->exclusive : 0;
		row->baseline = in_baseline ? in_baseline->exclusive : 0;
		row->exclusive_change = row->head - row->baseline;
		row->inclusive_change = (in_head ? in_head->inclusive : 0) -
					(in_baseline ? in_baseline->inclusive : 0);
		row->appeared = in_baseline == NULL;
		row->disappeared = in_head == NULL;
		if (row->exclusive_change != 0 || row->inclusive_change != 0)
			count++;
	}
	qsort(all, count, sizeof(*all), compare_functions);
	attribution->function_count = count < ATTRIBUTION_ROWS ? count : ATTRIBUTION_ROWS;
	for (i = 0; i < attribution->function_count; i++) {
		attribution->functions[i] = all[i];
		if (attribution->total_change != 0)
			attribution->functions[i].share_percent =
				all[i].exclusive_change / attribution->total_change * 100.0;
	}
	free(all);
	return 0;
}

static int merge_sites(struct attribution *attribution, const struct measurement *head,
		       const struct measurement *baseline)
{
	size_t base_count = baseline ? baseline->site_count : 0;
	size_t capacity = head->site_count + base_count, count = 0, i;
	struct attribution_site *all = calloc(capacity + 1, sizeof(*all));

	if (all == NULL)
		return -1;
	for (i = 0; i < capacity; i++) {
		bool from_head = i < head->site_count;
		const struct site_cost *cost = from_head ? &head->sites[i]
							 : &baseline->sites[i - head->site_count];
		const struct site_cost *other = find_site(from_head ? baseline : head, cost);
		const struct site_cost *in_head = from_head ? cost : other;
		const struct site_cost *in_baseline = from_head ? other : cost;
		struct attribution_site *row = &all[count];

		if (!from_head && other != NULL)
			continue;
		row->location = cost->location;
		row->stack = cost->stack;
		row->head_blocks = in_head ? in_head->blocks : 0;
		row->baseline_blocks = in_baseline ? in_baseline->blocks : 0;
		row->blocks_change = row->head_blocks - row->baseline_blocks;
		row->bytes_change = (in_head ? in_head->bytes : 0) - (in_baseline ? in_baseline->bytes : 0);
		row->appeared = baseline != NULL && in_baseline == NULL;
		row->disappeared = in_head == NULL;
		if (row->blocks_change != 0 || row->bytes_change != 0)
			count++;
	}
	qsort(all, count, sizeof(*all), compare_sites);
	attribution->site_count = count < ATTRIBUTION_ROWS ? count : ATTRIBUTION_ROWS;
	memcpy(attribution->sites, all, attribution->site_count * sizeof(*all));
	free(all);
	return 0;
}

int attribution_compute(struct attribution *attribution, const struct measurement *head,
			const struct measurement *baseline)
{
	memset(attribution, 0, sizeof(*attribution));
	if (baseline != NULL) {
		attribution->total_change = head->instruction_slope.per_message -
					    baseline->instruction_slope.per_message;
		if (merge_functions(attribution, head, baseline) != 0)
			return -1;
	}
	return merge_sites(attribution, head, baseline);
}

cJSON *attribution_to_json(const struct attribution *attribution)
{
	cJSON *object = cJSON_CreateObject();
	cJSON *functions = cJSON_AddArrayToObject(object, "functions");
	cJSON *sites = cJSON_AddArrayToObject(object, "sites");
	size_t i;

	if (sites == NULL ||
	    cJSON_AddNumberToObject(object, "total_change", attribution->total_change) == NULL)
		goto failed;
	for (i = 0; i < attribution->function_count; i++) {
		const struct attribution_function *row = &attribution->functions[i];
		cJSON *item = cJSON_CreateObject();

		if (!cJSON_AddItemToArray(functions, item) ||
		    cJSON_AddStringToObject(item, "name", row->name) == NULL ||
		    cJSON_AddNumberToObject(item, "head", row->head) == NULL ||
		    cJSON_AddNumberToObject(item, "baseline", row->baseline) == NULL ||
		    cJSON_AddNumberToObject(item, "exclusive_change", row->exclusive_change) == NULL ||
		    cJSON_AddNumberToObject(item, "inclusive_change", row->inclusive_change) == NULL ||
		    cJSON_AddNumberToObject(item, "share_percent", row->share_percent) == NULL ||
		    cJSON_AddBoolToObject(item, "appeared", row->appeared) == NULL ||
		    cJSON_AddBoolToObject(item, "disappeared", row->disappeared) == NULL)
			goto failed;
	}
	for (i = 0; i < attribution->site_count; i++) {
		const struct attribution_site *row = &attribution->sites[i];
		cJSON *item = cJSON_CreateObject();

		if (!cJSON_AddItemToArray(sites, item) ||
		    cJSON_AddStringToObject(item, "location", row->location) == NULL ||
		    cJSON_AddStringToObject(item, "stack", row->stack) == NULL ||
		    cJSON_AddNumberToObject(item, "head_blocks", row->head_blocks) == NULL ||
		    cJSON_AddNumberToObject(item, "baseline_blocks", row->baseline_blocks) == NULL ||
		    cJSON_AddNumberToObject(item, "blocks_change", row->blocks_change) == NULL ||
		    cJSON_AddNumberToObject(item, "bytes_change", row->bytes_change) == NULL ||
		    cJSON_AddBoolToObject(item, "appeared", row->appeared) == NULL ||
		    cJSON_AddBoolToObject(item, "disappeared", row->disappeared) == NULL)
			goto failed;
	}
	return object;
failed:
	cJSON_Delete(object);
	return NULL;
}
