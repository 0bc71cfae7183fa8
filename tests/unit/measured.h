/* Hand-made measurements for the tests of the verdict and what prints it (core/, out/): one that
 * is gated, N = 1000, 19 allocations per message and cold (the declared floors), with the
 * instruction figures given; acceptance entries as a file would give them; and the decision of
 * heads against a baseline of such measurements. Their strings are the caller's; nothing in them
 * is owned. */
#ifndef COSTGATE_TEST_MEASURED_H
#define COSTGATE_TEST_MEASURED_H

#include <stdbool.h>
#include <string.h>

#include "check.h"
#include "measurement.h"
#include "metrics.h"
#include "verdict.h"

static inline struct measurement measured(const char *name, double per_message, uint64_t cold)
{
	struct measurement measurement;

	memset(&measurement, 0, sizeof(measurement));
	measurement.info.name = (char *)name;
	measurement.info.gated = true;
	measurement.info.steady_floor = 19;
	measurement.info.cold_floor = 19;
	measurement.messages = 1000;
	measurement.slopes[METRIC_INSTRUCTIONS].per_message = per_message;
	measurement.slopes[METRIC_INSTRUCTIONS].per_message_early = per_message; /* linear */
	measurement.slopes[METRIC_INSTRUCTIONS].cold = cold;
	measurement.slopes[METRIC_ALLOCATIONS].per_message = 19;
	measurement.slopes[METRIC_ALLOCATIONS].cold = 19;
	measurement.has[METRIC_INSTRUCTIONS] = measurement.has[METRIC_ALLOCATIONS] = true;
	return measurement;
}

/* Acceptance entries as read from baselines/accepted.json. */
static inline struct acceptance accepting(struct acceptance_entry *entries, size_t count)
{
	struct acceptance acceptance = ACCEPTANCE_INIT;

	acceptance.entries = entries;
	acceptance.count = count;
	acceptance.path = (char *)"baselines/accepted.json";
	acceptance.figures = metric_acceptance_figures();
	return acceptance;
}

/* Decides `head_count` heads against a baseline of `base_count` measurements (in name order, as
 * a read document is; no baseline when base is NULL) measured at the first one's N, of a whole
 * run or of a partial one, which must decide. */
static inline void decide(struct verdict *verdict, const struct measurement *head,
			  size_t head_count, struct measurement *base, size_t base_count,
			  const struct acceptance *acceptance, bool whole)
{
	struct results baseline = RESULTS_INIT;
	struct gate_error err = GATE_ERROR_INIT;

	baseline.measurements = base;
	baseline.count = base_count;
	baseline.messages = base_count > 0 ? base[0].messages : 1000;
	CHECK(verdict_decide(verdict, head, head_count, base != NULL ? &baseline : NULL, acceptance,
			     whole, &err) == 0);
	CHECK_STR(err.message, "");
}

#endif
