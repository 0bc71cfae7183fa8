/* Reads a scenario's own declaration. Every field is checked for type and range: a floor that
 * is not a count would silently disable the allocation gate. */
#define _GNU_SOURCE
#include "scenario.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_read.h"
#include "text.h"

static int copy_string(char **field, const cJSON *root, const char *key, const char *name,
		       struct gate_error *err)
{
	const cJSON *item = cJSON_GetObjectItemCaseSensitive(root, key);

	if (!cJSON_IsString(item) || item->valuestring[0] == '\0')
		return gate_error_set(err, "scenario '%s': --describe has no string '%s'", name, key);
	*field = strdup(item->valuestring);
	return *field == NULL ? gate_error_oom(err) : 0;
}

/* A number >= 0 (and a whole number below 2^53 when `whole`). */
/* An optional boolean of the declaration: absent is false. */
static int read_flag(bool *value, const cJSON *root, const char *key, const char *name,
		     struct gate_error *err)
{
	const cJSON *item = cJSON_GetObjectItemCaseSensitive(root, key);

	if (item == NULL)
		return 0;
	if (!cJSON_IsBool(item))
		return gate_error_set(err, "scenario '%s': --describe '%s' is not a boolean", name, key);
	*value = cJSON_IsTrue(item);
	return 0;
}

static int read_number(double *value, const cJSON *object, const char *key, bool whole,
		       const char *name, struct gate_error *err)
{
	const cJSON *item = cJSON_GetObjectItemCaseSensitive(object, key);

	if (!json_read_number(item, true, value) || (whole && *value != floor(*value)))
		return gate_error_set(err, "scenario '%s': --describe '%s' is not a %s", name, key,
				      whole ? "non-negative integer" : "non-negative number");
	return 0;
}

/* Every floor of the "floors" object beside the allocation floors, by its key: which metric each
 * holds is the metric table's to say (core/metrics.h), which this layer does not know. */
static int read_optional_floors(struct scenario_info *info, const cJSON *floors, const char *name,
				struct gate_error *err)
{
	const cJSON *item;

	cJSON_ArrayForEach(item, floors) {
		double value = 0;

		if (strcmp(item->string, "steady_allocations") == 0 ||
		    strcmp(item->string, "cold_allocations") == 0)
			continue;
		if (!text_is_name(item->string) || strlen(item->string) >= SCENARIO_KEY_SIZE)
			return gate_error_set(err, "scenario '%s': --describe 'floors' has a key that is "
					      "not a name ([a-z0-9_]+, at most %d characters)", name,
					      SCENARIO_KEY_SIZE - 1);
		if (read_number(&value, floors, item->string, strncmp(item->string, "cold_", 5) == 0,
				name, err) != 0 ||
		    scenario_set_floor(info, item->string, value, err) != 0)
			return -1;
	}
	return 0;
}

/* The metrics gated on request: "gate_metrics", an array of metric keys, and "gate_cycles": true
 * as an earlier harness said "cycles". */
static int read_gate_metrics(struct scenario_info *info, const cJSON *root, const char *name,
			     struct gate_error *err)
{
	const cJSON *list = cJSON_GetObjectItemCaseSensitive(root, "gate_metrics"), *item;
	bool cycles = false;

	if (read_flag(&cycles, root, "gate_cycles", name, err) != 0 ||
	    (cycles && scenario_set_gate_metric(info, "cycles", true, err) != 0))
		return -1;
	if (list == NULL)
		return 0;
	if (!cJSON_IsArray(list))
		return gate_error_set(err, "scenario '%s': --describe 'gate_metrics' is not an array",
				      name);
	cJSON_ArrayForEach(item, list) {
		if (!cJSON_IsString(item) || !text_is_name(item->valuestring) ||
		    strlen(item->valuestring) >= SCENARIO_KEY_SIZE)
			return gate_error_set(err, "scenario '%s': --describe 'gate_metrics' holds "
					      "something that is not a metric's key", name);
		if (scenario_set_gate_metric(info, item->valuestring, true, err) != 0)
			return -1;
	}
	return 0;
}

static int read_fields(struct scenario_info *info, const cJSON *root, const char *name,
		       struct gate_error *err)
{
	const cJSON *floors = cJSON_GetObjectItemCaseSensitive(root, "floors");
	const cJSON *gated = cJSON_GetObjectItemCaseSensitive(root, "gated");
	const cJSON *name_item = cJSON_GetObjectItemCaseSensitive(root, "name");
	double cold = 0;
	const char *problem;

	if (!cJSON_IsString(name_item) || strcmp(name_item->valuestring, name) != 0 ||
	    !text_is_name(name_item->valuestring))
		return gate_error_set(err, "scenario '%s': --describe names another scenario", name);
	if (copy_string(&info->title, root, "title", name, err) != 0 ||
	    copy_string(&info->region, root, "region", name, err) != 0)
		return -1;
	if ((problem = text_line_problem(info->title, TEXT_LINE_MAX)) != NULL)
		return gate_error_set(err, "scenario '%s': --describe 'title' %s (one printable line of "
				      "at most %d characters)", name, problem, TEXT_LINE_MAX);
	if (!text_is_identifier(info->region))
		return gate_error_set(err, "scenario '%s': --describe 'region' is not a C identifier",
				      name);
	if (!cJSON_IsBool(gated))
		return gate_error_set(err, "scenario '%s': --describe has no boolean 'gated'", name);
	info->gated = cJSON_IsTrue(gated);
	if (!cJSON_IsObject(floors))
		return gate_error_set(err, "scenario '%s': --describe has no object 'floors'", name);
	if (read_number(&info->steady_floor, floors, "steady_allocations", false, name, err) != 0 ||
	    read_number(&cold, floors, "cold_allocations", true, name, err) != 0)
		return -1;
	info->cold_floor = (uint64_t)cold;
	if (read_optional_floors(info, floors, name, err) != 0 ||
	    read_gate_metrics(info, root, name, err) != 0 ||
	    read_flag(&info->unoptimised, root, "unoptimised", name, err) != 0 ||
	    read_flag(&info->phases, root, "phases", name, err) != 0)
		return -1;
	if (cJSON_GetObjectItemCaseSensitive(root, "limit_percent") != NULL &&
	    read_number(&info->limit_percent, root, "limit_percent", false, name, err) != 0)
		return -1;
	if (cJSON_GetObjectItemCaseSensitive(root, "linearity_percent") != NULL &&
	    read_number(&info->linearity_percent, root, "linearity_percent", false, name, err) != 0)
		return -1;
	if (cJSON_GetObjectItemCaseSensitive(root, "allocator_limit_percent") != NULL &&
	    read_number(&info->allocator_limit_percent, root, "allocator_limit_percent", false, name,
			err) != 0)
		return -1;
	/* gate runs a scenario once per tool, its snapshots at 1, N and 2N taken by the harness
	 * (docs/design.md rule 10): a harness that does not say it takes them is an older one. */
	if (!cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(root, "snapshots")))
		return gate_error_set(err, "scenario '%s': --describe does not say \"snapshots\": true: "
				      "the executable was built against an older costgate harness; "
				      "rebuild it against this one", name);
	return 0;
}

int scenario_info_parse(struct scenario_info *info, const char *name, const char *text,
			struct gate_error *err)
{
	cJSON *root = json_read_document(text, strlen(text), err);
	int status = -1;

	*info = (struct scenario_info)SCENARIO_INFO_INIT;
	if (root == NULL) {
		gate_error_prefix(err, "scenario '%s': --describe", name);
		goto out;
	}
	if (!cJSON_IsObject(root)) {
		gate_error_set(err, "scenario '%s': --describe printed no JSON object", name);
		goto out;
	}
	info->name = strdup(name);
	if (info->name == NULL) {
		gate_error_oom(err);
		goto out;
	}
	status = read_fields(info, root, name, err);
out:
	cJSON_Delete(root);
	if (status != 0)
		scenario_info_release(info);
	return status;
}

int scenario_info_from_output(struct scenario_info *info, const char *name, const char *path,
			      const char *output_path, struct gate_error *err)
{
	FILE *in = fopen(output_path, "re");
	char *text = NULL;
	size_t size = 0;
	ssize_t length;
	int status = -1;

	*info = (struct scenario_info)SCENARIO_INFO_INIT;
	if (in == NULL)
		return gate_error_set(err, "scenario '%s': cannot read what --describe printed ('%s'): "
				      "%s", name, output_path, strerror(errno));
	length = getdelim(&text, &size, '\0', in);
	fclose(in);
	if (length < 0) {
		free(text);
		text = strdup("");
		if (text == NULL)
			return gate_error_oom(err);
	}
	if (scenario_info_parse(info, name, text, err) != 0)
		goto out;
	info->path = strdup(path);
	if (info->path == NULL) {
		gate_error_oom(err);
		scenario_info_release(info);
		goto out;
	}
	status = 0;
out:
	free(text);
	return status;
}

void scenario_info_release(struct scenario_info *info)
{
	if (info == NULL)
		return;
	free(info->name);
	free(info->path);
	free(info->title);
	free(info->region);
	*info = (struct scenario_info)SCENARIO_INFO_INIT;
}

double scenario_floor(const struct scenario_info *info, const char *key)
{
	size_t i;

	for (i = 0; i < info->floor_count; i++)
		if (strcmp(info->floors[i].key, key) == 0)
			return info->floors[i].value;
	return 0;
}

int scenario_set_floor(struct scenario_info *info, const char *key, double value,
		       struct gate_error *err)
{
	size_t i;

	for (i = 0; i < info->floor_count; i++)
		if (strcmp(info->floors[i].key, key) == 0)
			break;
	if (value == 0) {
		if (i < info->floor_count)
			info->floors[i] = info->floors[--info->floor_count];
		return 0;
	}
	if (i == SCENARIO_DECLARED_MAX || strlen(key) >= SCENARIO_KEY_SIZE)
		return gate_error_set(err, "scenario '%s' declares more than %d floors, or one named "
				      "with more than %d characters", info->name != NULL ? info->name
				      : "?", SCENARIO_DECLARED_MAX, SCENARIO_KEY_SIZE - 1);
	if (i == info->floor_count)
		snprintf(info->floors[info->floor_count++].key, SCENARIO_KEY_SIZE, "%s", key);
	info->floors[i].value = value;
	return 0;
}

bool scenario_gates_metric(const struct scenario_info *info, const char *key)
{
	size_t i;

	for (i = 0; i < info->gate_metric_count; i++)
		if (strcmp(info->gate_metrics[i], key) == 0)
			return true;
	return false;
}

int scenario_set_gate_metric(struct scenario_info *info, const char *key, bool gated,
			     struct gate_error *err)
{
	size_t i;

	for (i = 0; i < info->gate_metric_count; i++)
		if (strcmp(info->gate_metrics[i], key) == 0)
			break;
	if (!gated) {
		if (i < info->gate_metric_count)
			memmove(info->gate_metrics[i], info->gate_metrics[--info->gate_metric_count],
				SCENARIO_KEY_SIZE);
		return 0;
	}
	if (i < info->gate_metric_count)
		return 0;
	if (i == SCENARIO_DECLARED_MAX || strlen(key) >= SCENARIO_KEY_SIZE)
		return gate_error_set(err, "scenario '%s' gates more than %d metrics on request, or "
				      "one named with more than %d characters", info->name != NULL
				      ? info->name : "?", SCENARIO_DECLARED_MAX, SCENARIO_KEY_SIZE - 1);
	snprintf(info->gate_metrics[info->gate_metric_count++], SCENARIO_KEY_SIZE, "%s", key);
	return 0;
}
