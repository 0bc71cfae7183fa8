/* A measurement's figures from its counts, and its release. */
#include "measurement.h"

#include <stdlib.h>
#include <string.h>

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

void measurement_release(struct measurement *measurement)
{
	size_t i, tool;

	if (measurement == NULL)
		return;
	scenario_info_release(&measurement->info);
	seal_release(&measurement->seal);
	free(measurement->build);
	free(measurement->source);
	free(measurement->telltales);
	for (i = 0; i < measurement->function_count; i++)
		free(measurement->functions[i].name);
	free(measurement->functions);
	for (i = 0; i < measurement->site_count; i++) {
		free(measurement->sites[i].location);
		free(measurement->sites[i].stack);
	}
	free(measurement->sites);
	for (tool = 0; tool < TOOL_COUNT; tool++)
		for (i = 0; i < SLOPE_RUNS; i++)
			free(measurement->raw_files[tool][i]);
	memset(measurement, 0, sizeof(*measurement));
}
