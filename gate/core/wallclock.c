/* The wall-clock arithmetic and its section of results.json. Deliberate: the overhead is read
 * from the best rounds, and a difference smaller than the spread of the rounds is published as
 * `indistinguishable`, never as a percentage (the reference page's rule). */
#define _GNU_SOURCE
#include "wallclock.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


/* Percentages are kept to two decimals, rates to whole messages per second: the rounds do not
 * repeat to more than that. */
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
