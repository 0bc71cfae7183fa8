/* A measurement's figures from its counts, its lines placed in the repository, and its release. */
#define _GNU_SOURCE
#include "measurement.h"

#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "fs.h"

int measurement_compute(struct measurement *measurement, struct gate_error *err)
{
	size_t metric;

	for (metric = 0; metric < METRIC_COUNT; metric++) {
		if (!measurement->has[metric])
			continue;
		if (slope_compute(&measurement->slopes[metric], measurement->counts[metric],
				  measurement->messages, metric_table[metric].must_grow, err) != 0) {
			gate_error_prefix(err, "%s are implausible", metric_table[metric].title);
			return -1;
		}
	}
	return 0;
}

double measurement_process_per_message(const struct measurement *measurement)
{
	return measurement->process_slope.per_message +
	       (double)measurement->process_exit / (2.0 * (double)measurement->messages);
}

double measurement_shown(const struct measurement *measurement, enum metric_id metric)
{
	const struct slope *slope = &measurement->slopes[metric];

	return metric_table[metric].shows_cold ? (double)slope->cold : slope->per_message;
}

static void function_cost_release(struct function_cost *function)
{
	free(function->name);
}

static void site_cost_release(struct site_cost *site)
{
	free(site->location);
	free(site->stack);
}

static void line_cost_release(struct line_cost *line)
{
	free(line->file);
	free(line->function);
	free(line->text);
}

void measurement_release(struct measurement *measurement)
{
	if (measurement == NULL)
		return;
	scenario_info_release(&measurement->info);
	seal_release(&measurement->seal);
	free(measurement->build);
	free(measurement->source);
	free(measurement->telltales);
	ARRAY_RELEASE(measurement->functions, measurement->function_count, function_cost_release);
	ARRAY_RELEASE(measurement->fill_functions, measurement->fill_function_count,
		      function_cost_release);
	ARRAY_RELEASE(measurement->sites, measurement->site_count, site_cost_release);
	ARRAY_RELEASE(measurement->lines, measurement->line_count, line_cost_release);
	flame_frames_release(measurement->frames, measurement->frame_count);
	for (size_t tool = 0; tool < TOOL_COUNT; tool++)
		for (size_t i = 0; i < SLOPE_RUNS; i++)
			free(measurement->raw_files[tool][i]);
	memset(measurement, 0, sizeof(*measurement));
}

/* Line `number` of `text` (the whole file), blanks at either end dropped, into a new string. */
static char *line_text(const char *text, uint64_t number)
{
	const char *at = text, *end;
	size_t length;
	uint64_t i;

	for (i = 1; at != NULL && i < number; i++) {
		at = strchr(at, '\n');
		at = at != NULL ? at + 1 : NULL;
	}
	if (at == NULL)
		return strdup("");
	end = at + strcspn(at, "\n");
	while (at < end && (*at == ' ' || *at == '\t'))
		at++;
	while (end > at && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\r'))
		end--;
	length = (size_t)(end - at);
	if (length > MEASUREMENT_LINE_TEXT)
		length = MEASUREMENT_LINE_TEXT;
	return strndup(at, length);
}

static int compare_dearer(const void *left, const void *right)
{
	const struct line_cost *a = left, *b = right;
	double ca = a->instructions < 0 ? -a->instructions : a->instructions;
	double cb = b->instructions < 0 ? -b->instructions : b->instructions;

	if (ca != cb)
		return ca > cb ? -1 : 1;
	return 0;
}

static int compare_place(const void *left, const void *right)
{
	const struct line_cost *a = left, *b = right;
	int order = strcmp(a->file, b->file);

	if (order != 0)
		return order;
	return a->line < b->line ? -1 : a->line > b->line ? 1 : strcmp(a->function, b->function);
}

static void line_release(struct line_cost *line)
{
	free(line->file);
	free(line->function);
	free(line->text);
}

int measurement_place_lines(struct measurement *measurement, const char *root)
{
	size_t length = root != NULL ? strlen(root) : 0, kept = 0, i;
	char *source = NULL, *source_file = NULL;
	int status = 0;

	for (i = 0; i < measurement->line_count; i++) {
		struct line_cost *line = &measurement->lines[i];
		char *relative;

		/* A source named from its build directory ("ROOT/builddir/../lib.c") is ROOT/lib.c. */
		fs_path_tidy(line->file);
		if (length == 0 || strncmp(line->file, root, length) != 0 || line->file[length] != '/') {
			line_release(line);
			continue;
		}
		/* Lines come sorted by file: each file is read once. */
		if (source_file == NULL || strcmp(source_file, line->file) != 0) {
			size_t size;

			free(source);
			free(source_file);
			source = NULL;
			source_file = strdup(line->file);
			if (source_file == NULL || fs_read_file(line->file, (size_t)1 << 24, &source,
								&size) != 0)
				source = NULL;
		}
		relative = strdup(line->file + length + 1);
		free(line->text);
		line->text = source != NULL ? line_text(source, line->line) : strdup("");
		if (relative == NULL || line->text == NULL) {
			free(relative);
			line_release(line);
			status = -1;
			continue;
		}
		free(line->file);
		line->file = relative;
		measurement->lines[kept++] = *line;
	}
	free(source);
	free(source_file);
	measurement->line_count = kept;
	if (kept > MEASUREMENT_LINES_MAX) {
		qsort(measurement->lines, kept, sizeof(*measurement->lines), compare_dearer);
		for (i = MEASUREMENT_LINES_MAX; i < kept; i++)
			line_release(&measurement->lines[i]);
		measurement->line_count = MEASUREMENT_LINES_MAX;
	}
	if (measurement->line_count > 1)
		qsort(measurement->lines, measurement->line_count, sizeof(*measurement->lines),
		      compare_place);
	return status;
}
