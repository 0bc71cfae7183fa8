/* Slope, cold start and linearity. Per message is a difference of two totals: the start-up,
 * loader and argv costs are the same in both runs and cancel (docs/design.md rule 1). */
#include "slope.h"

#include <inttypes.h>
#include <math.h>

double slope_per_message(uint64_t at_n, uint64_t at_twice_n, uint64_t messages)
{
	return ((double)at_twice_n - (double)at_n) / (double)messages;
}

int slope_compute(struct slope *slope, const uint64_t counts[SLOPE_RUNS], uint64_t messages,
		  bool must_grow, struct gate_error *err)
{
	uint64_t one = counts[SLOPE_ONE], n = counts[SLOPE_N], twice = counts[SLOPE_TWICE_N];
	double expected, actual;

	*slope = (struct slope){ 0 };
	if (messages < 2)
		return gate_error_set(err, "the message count must be at least 2, not %" PRIu64, messages);
	if (twice < n || (must_grow && twice == n))
		return gate_error_set(err, "count(2N) %" PRIu64 " is not above count(N) %" PRIu64
				      " (N = %" PRIu64 ")", twice, n, messages);
	if (n < one)
		return gate_error_set(err, "count(N) %" PRIu64 " is below count(1) %" PRIu64
				      " (N = %" PRIu64 ")", n, one, messages);
	slope->per_message = slope_per_message(n, twice, messages);
	slope->per_message_early = (double)(n - one) / (double)(messages - 1);
	slope->cold = one;
	expected = slope->per_message * (double)(messages - 1);
	actual = (double)(n - one);
	if (expected > 0)
		slope->linearity_percent = fabs(actual - expected) / expected * 100.0;
	else
		slope->linearity_percent = actual > 0 ? 100.0 : 0.0;
	slope->nonlinear = slope->linearity_percent > SLOPE_LINEARITY_WARNING_PERCENT;
	return 0;
}

double slope_change_percent(double head, double baseline)
{
	if (baseline == 0)
		return head == 0 ? 0.0 : 100.0;
	return (head - baseline) / baseline * 100.0;
}
