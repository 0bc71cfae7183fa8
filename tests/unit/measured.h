/* A hand-made measurement for the tests of the verdict and what prints it (core/, out/): gated,
 * N = 1000, 19 allocations per message and cold (the declared floors), and the instruction
 * figures given. Its strings are the caller's; nothing in it is owned. */
#ifndef COSTGATE_TEST_MEASURED_H
#define COSTGATE_TEST_MEASURED_H

#include <string.h>

#include "measurement.h"

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
	measurement.slopes[METRIC_INSTRUCTIONS].cold = cold;
	measurement.slopes[METRIC_ALLOCATIONS].per_message = 19;
	measurement.slopes[METRIC_ALLOCATIONS].cold = 19;
	measurement.has[METRIC_INSTRUCTIONS] = measurement.has[METRIC_ALLOCATIONS] = true;
	return measurement;
}

#endif
