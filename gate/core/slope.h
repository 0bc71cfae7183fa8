/* The arithmetic of a measurement: what one message costs in the steady state, from the runs at
 * N and 2N, and what starting costs, from the run at 1 (docs/design.md rules 1 and 2). */
#ifndef GATE_SLOPE_H
#define GATE_SLOPE_H

#include <stdbool.h>
#include <stdint.h>

#include "error.h"

/* A count is taken at three delivery counts. */
enum slope_run { SLOPE_ONE, SLOPE_N, SLOPE_TWICE_N, SLOPE_RUNS };

/* Above this the runs at 1 and N disagree with the slope enough to be reported (a warning). */
#define SLOPE_LINEARITY_WARNING_PERCENT 1.0

/* Above this the slope is not the steady state and the measurement fails (exit 3), unless the
 * scenario declares its own limit (`linearity_percent`). */
#define SLOPE_LINEARITY_LIMIT_PERCENT 5.0

/* Figures measured at two different N are compared only when both are linear within this: a
 * slope that still depends on N would otherwise be compared with another N's. */
#define SLOPE_COMPARABLE_LINEARITY_PERCENT 0.5

struct slope {
	double per_message;       /* (count(2N) - count(N)) / N */
	double per_message_early; /* (count(N) - count(1)) / (N - 1): the slope from 1 to N */
	uint64_t cold;            /* count(1): starting the service and the first delivery */
	double linearity_percent; /* how far count(N) - count(1) is from (N - 1) * per_message */
	bool nonlinear;           /* linearity_percent above SLOPE_LINEARITY_WARNING_PERCENT */
};

/* What one message costs in the steady state: (count(2N) - count(N)) / N, the one place the
 * formula is written. Negative when the 2N run counted less (a function's share can shrink). */
double slope_per_message(uint64_t at_n, uint64_t at_twice_n, uint64_t messages);

/* Computes the slope of counts taken at 1, N and 2N deliveries (N = messages >= 2). With
 * must_grow (instructions: every message costs something) count(2N) <= count(N) is an error;
 * otherwise only count(2N) < count(N) is (allocations may be zero per message). */
int slope_compute(struct slope *slope, const uint64_t counts[SLOPE_RUNS], uint64_t messages,
		  bool must_grow, struct gate_error *err);

/* The change from baseline to head in percent: (head - baseline) / baseline * 100. The one place
 * a percentage is computed. A zero baseline gives 0 for a zero head and +100 otherwise. */
double slope_change_percent(double head, double baseline);

#endif
