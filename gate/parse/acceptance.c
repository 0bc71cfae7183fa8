/* Reads baselines/accepted.json. Strict: an entry gate cannot read must not silently accept or
 * silently drop a regression, so every malformed entry is an error naming it. */
#define _GNU_SOURCE
#include "acceptance.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "fs.h"
#include "json_read.h"
#include "text.h"

static const char *const setting_names[ACCEPT_FIGURES] = {
	"gated", "limit_percent", "steady_allocations_floor", "cold_allocations_floor",
	"process_instructions", "linearity_percent", "allocator_limit_percent", "growth",
};

const char *acceptance_metric_name(const struct acceptance_figures *figures, unsigned metric)
{
	const char *name = NULL;

	if (metric < ACCEPT_FIGURES)
		name = setting_names[metric];
	else if (figures != NULL && metric - ACCEPT_FIGURES < figures->count)
		name = figures->names[metric - ACCEPT_FIGURES];
	return name != NULL ? name : "";
}

enum acceptance_value acceptance_value_of(const struct acceptance_figures *figures, unsigned metric)
{
	if (metric == ACCEPT_GATED)
		return ACCEPT_VALUE_ZERO;
	if (metric >= ACCEPT_FIGURES && figures != NULL && figures->values != NULL &&
	    metric - ACCEPT_FIGURES < figures->count)
		return figures->values[metric - ACCEPT_FIGURES];
	return ACCEPT_VALUE_ABOVE;
}

int acceptance_metric_find(const struct acceptance_figures *figures, const char *name)
{
	size_t m;

	for (m = 0; m < ACCEPT_FIGURES; m++)
		if (strcmp(name, setting_names[m]) == 0)
			return (int)m;
	for (m = 0; figures != NULL && m < figures->count; m++)
		if (figures->names[m] != NULL && strcmp(name, figures->names[m]) == 0)
			return (int)(ACCEPT_FIGURES + m);
	return -1;
}

/* Every name an entry may give, quoted and ", "-joined: the figures', then the settings'. */
static void list_names(char *text, size_t size, const struct acceptance_figures *figures)
{
	size_t used = 0, m, count = ACCEPT_FIGURES + (figures != NULL ? figures->count : 0);

	text[0] = '\0';
	for (m = 0; m < count; m++) {
		unsigned kind = (unsigned)((m + ACCEPT_FIGURES) % count);
		const char *name = acceptance_metric_name(figures, kind);

		if (name[0] == '\0' || used >= size)
			continue;
		used += (size_t)snprintf(text + used, size - used, "%s'%s'", used > 0 ? ", " : "",
					 name);
	}
}

static int read_entry(struct acceptance_entry *entry, const cJSON *item, size_t index,
		      const char *path, const struct acceptance_figures *figures,
		      struct gate_error *err)
{
	const cJSON *scenario = cJSON_GetObjectItemCaseSensitive(item, "scenario");
	const cJSON *metric = cJSON_GetObjectItemCaseSensitive(item, "metric");
	const cJSON *value = cJSON_GetObjectItemCaseSensitive(item, "value");
	const cJSON *reason = cJSON_GetObjectItemCaseSensitive(item, "reason");
	double number;
	const char *problem;
	char quoted[300], names[1024];
	int found;
	size_t m;

	if (!cJSON_IsObject(item))
		return gate_error_set(err, "cannot read acceptances '%s': accepted[%zu] is not an object",
				      path, index);
	if (!cJSON_IsString(scenario) || !text_is_name(scenario->valuestring))
		return gate_error_set(err, "cannot read acceptances '%s': accepted[%zu].scenario is "
				      "not a scenario name ([a-z0-9_]{1,64})", path, index);
	if (!cJSON_IsString(metric))
		return gate_error_set(err, "cannot read acceptances '%s': accepted[%zu].metric is not "
				      "a string", path, index);
	found = acceptance_metric_find(figures, metric->valuestring);
	if (found < 0) {
		list_names(names, sizeof(names), figures);
		return gate_error_set(err, "cannot read acceptances '%s': accepted[%zu].metric '%s' is "
				      "not one of %s", path, index,
				      text_quote(quoted, sizeof(quoted), metric->valuestring), names);
	}
	m = (size_t)found;
	switch (acceptance_value_of(figures, (unsigned)m)) {
	case ACCEPT_VALUE_ZERO:
		if (!cJSON_IsNumber(value) || value->valuedouble != 0)
			return gate_error_set(err, "cannot read acceptances '%s': accepted[%zu].value is "
					      "not 0 (for '%s', 0 accepts that it is not gated)", path,
					      index, acceptance_metric_name(figures, (unsigned)m));
		break;
	case ACCEPT_VALUE_FLOOR:
		if (!json_read_number(value, true, &number) || number < 0)
			return gate_error_set(err, "cannot read acceptances '%s': accepted[%zu].value is "
					      "not a positive number, or 0 to accept removing the floor",
					      path, index);
		break;
	case ACCEPT_VALUE_ABOVE:
		if (!json_read_number(value, true, &number) || number <= 0)
			return gate_error_set(err, "cannot read acceptances '%s': accepted[%zu].value is "
					      "not a positive number", path, index);
		break;
	}
	if (!cJSON_IsString(reason) || strlen(reason->valuestring) < 3)
		return gate_error_set(err, "cannot read acceptances '%s': accepted[%zu].reason must say "
				      "why", path, index);
	if ((problem = text_line_problem(reason->valuestring, TEXT_LINE_MAX)) != NULL)
		return gate_error_set(err, "cannot read acceptances '%s': accepted[%zu].reason %s (one "
				      "printable line of at most %d characters)", path, index, problem,
				      TEXT_LINE_MAX);
	entry->metric = (unsigned)m;
	entry->value = value->valuedouble;
	entry->scenario = strdup(scenario->valuestring);
	entry->reason = strdup(reason->valuestring);
	if (entry->scenario == NULL || entry->reason == NULL)
		return gate_error_oom(err);
	return 0;
}

static int read_entries(struct acceptance *acceptance, const cJSON *array, const char *path,
			const struct acceptance_figures *figures, struct gate_error *err)
{
	const cJSON *item;
	size_t i;

	acceptance->entries = calloc((size_t)cJSON_GetArraySize(array) + 1, sizeof(*acceptance->entries));
	if (acceptance->entries == NULL)
		return gate_error_oom(err);
	cJSON_ArrayForEach(item, array) {
		struct acceptance_entry *entry = &acceptance->entries[acceptance->count];

		acceptance->count++;
		if (read_entry(entry, item, acceptance->count - 1, path, figures, err) != 0)
			return -1;
		for (i = 0; i + 1 < acceptance->count; i++)
			if (strcmp(acceptance->entries[i].scenario, entry->scenario) == 0 &&
			    acceptance->entries[i].metric == entry->metric)
				return gate_error_set(err, "cannot read acceptances '%s': accepted[%zu] "
						      "accepts '%s' %s again (first in accepted[%zu])",
						      path, acceptance->count - 1, entry->scenario,
						      acceptance_metric_name(figures, entry->metric), i);
	}
	return 0;
}

int acceptance_parse(struct acceptance *acceptance, const char *text, size_t length,
		     const char *path, const struct acceptance_figures *figures,
		     struct gate_error *err)
{
	cJSON *root = NULL;
	const cJSON *array;
	int status = -1;

	*acceptance = (struct acceptance)ACCEPTANCE_INIT;
	acceptance->figures = figures;
	acceptance->path = strdup(path);
	if (acceptance->path == NULL)
		return gate_error_oom(err);
	root = json_read_document(text, length, err);
	if (root == NULL) {
		gate_error_prefix(err, "cannot read acceptances '%s'", path);
		goto out;
	}
	array = cJSON_GetObjectItemCaseSensitive(root, "accepted");
	if (!cJSON_IsObject(root)) {
		gate_error_set(err, "cannot read acceptances '%s': not a JSON object", path);
		goto out;
	}
	if (!cJSON_IsArray(array)) {
		gate_error_set(err, "cannot read acceptances '%s': 'accepted' is missing or not an array",
			       path);
		goto out;
	}
	status = read_entries(acceptance, array, path, figures, err);
out:
	cJSON_Delete(root);
	if (status != 0)
		acceptance_release(acceptance);
	return status;
}

int acceptance_read(struct acceptance *acceptance, const char *path,
		    const struct acceptance_figures *figures, struct gate_error *err)
{
	char *text = NULL;
	size_t length = 0;
	int status;

	*acceptance = (struct acceptance)ACCEPTANCE_INIT;
	if (fs_read_file(path, FS_READ_LIMIT, &text, &length) != 0) {
		/* No file is no entries. */
		if (errno != ENOENT)
			return gate_error_set(err, "cannot read acceptances '%s': %s", path,
					      strerror(errno));
		acceptance->figures = figures;
		acceptance->path = strdup(path);
		return acceptance->path != NULL ? 0 : gate_error_oom(err);
	}
	status = acceptance_parse(acceptance, text, length, path, figures, err);
	free(text);
	return status;
}

const struct acceptance_entry *acceptance_find(const struct acceptance *acceptance,
					       const char *scenario, unsigned metric)
{
	size_t i;

	for (i = 0; acceptance != NULL && i < acceptance->count; i++)
		if (acceptance->entries[i].metric == metric &&
		    strcmp(acceptance->entries[i].scenario, scenario) == 0)
			return &acceptance->entries[i];
	return NULL;
}

static void acceptance_entry_release(struct acceptance_entry *entry)
{
	free(entry->scenario);
	free(entry->reason);
}

void acceptance_release(struct acceptance *acceptance)
{
	if (acceptance == NULL)
		return;
	ARRAY_RELEASE(acceptance->entries, acceptance->count, acceptance_entry_release);
	free(acceptance->path);
	*acceptance = (struct acceptance)ACCEPTANCE_INIT;
}
