/* Unit tests of the slope arithmetic: per message from the runs at N and 2N, cold from the run at
 * 1, the linearity check and the plausibility errors (docs/design.md rules 1, 2 and 7). */
#include "check.h"
#include "slope.h"

#include <stdint.h>

/* Counts of a real consume_json measurement (N = 1000), read off callgrind by hand. */
static const uint64_t real_counts[SLOPE_RUNS] = { 23632, 17318804, 34630804 };

static void slope_should_divide_the_difference_of_the_runs_at_n_and_2n_by_n(void)
{
	struct gate_error err = GATE_ERROR_INIT;
	struct slope slope;

	CHECK(slope_compute(&slope, real_counts, 1000, true, &err) == 0);
	CHECK_STR(err.message, "");
	CHECK(slope.per_message == 17312.0);
	CHECK_U64(slope.cold, 23632);
	CHECK(!slope.nonlinear);
	/* count(N) - count(1) = 17295172 against 999 * 17312 = 17294688: 484 apart. */
	CHECK(slope.linearity_percent > 0.0027 && slope.linearity_percent < 0.0029);
}

static void slope_should_keep_a_fraction_of_an_instruction_per_message(void)
{
	const uint64_t counts[SLOPE_RUNS] = { 100, 1100, 2101 };
	struct gate_error err = GATE_ERROR_INIT;
	struct slope slope;

	CHECK(slope_compute(&slope, counts, 1000, true, &err) == 0);
	CHECK(slope.per_message == 1.001);
	CHECK_U64(slope.cold, 100);
}

static void slope_should_take_the_cold_start_from_the_run_at_one_not_an_intercept(void)
{
	/* The intercept of the N and 2N totals would be 1000 - 100 * 10 = 0; cold is count(1). */
	const uint64_t counts[SLOPE_RUNS] = { 700, 1000, 2000 };
	struct gate_error err = GATE_ERROR_INIT;
	struct slope slope;

	CHECK(slope_compute(&slope, counts, 10, true, &err) == 0);
	CHECK(slope.per_message == 100.0);
	CHECK_U64(slope.cold, 700);
}

static void slope_should_keep_counts_above_two_to_the_32_exact(void)
{
	const uint64_t counts[SLOPE_RUNS] = { 5000000001ULL, 4005000000001ULL, 8005000000001ULL };
	struct gate_error err = GATE_ERROR_INIT;
	struct slope slope;

	CHECK(slope_compute(&slope, counts, 1000, true, &err) == 0);
	CHECK(slope.per_message == 4000000000.0);
	CHECK_U64(slope.cold, 5000000001ULL);
}

static void slope_should_report_a_perfectly_linear_run_as_zero_percent(void)
{
	/* count(N) - count(1) = 9900 = 99 * 100 exactly. */
	const uint64_t counts[SLOPE_RUNS] = { 1000, 10900, 20900 };
	struct gate_error err = GATE_ERROR_INIT;
	struct slope slope;

	CHECK(slope_compute(&slope, counts, 100, true, &err) == 0);
	CHECK(slope.linearity_percent == 0.0);
	CHECK(!slope.nonlinear);
}

static void slope_should_not_flag_a_run_exactly_one_percent_off_the_slope(void)
{
	/* count(N) - count(1) = 9999 against 99 * 100 = 9900: 1 % exactly, not above. */
	const uint64_t counts[SLOPE_RUNS] = { 1000, 10999, 20999 };
	struct gate_error err = GATE_ERROR_INIT;
	struct slope slope;

	CHECK(slope_compute(&slope, counts, 100, true, &err) == 0);
	CHECK(slope.linearity_percent == 1.0);
	CHECK(!slope.nonlinear);
}

static void slope_should_flag_a_run_more_than_one_percent_above_the_slope(void)
{
	/* count(N) - count(1) = 10000 against 9900: 1.0101 %. */
	const uint64_t counts[SLOPE_RUNS] = { 1000, 11000, 21000 };
	struct gate_error err = GATE_ERROR_INIT;
	struct slope slope;

	CHECK(slope_compute(&slope, counts, 100, true, &err) == 0);
	CHECK(slope.linearity_percent > 1.0101 && slope.linearity_percent < 1.0102);
	CHECK(slope.nonlinear);
	CHECK(slope.per_message == 100.0);
	/* The slope from 1 to N beside it: 10000 / 99. */
	CHECK(slope.per_message_early > 101.0101 && slope.per_message_early < 101.0102);
}

static void slope_should_flag_a_run_more_than_one_percent_below_the_slope(void)
{
	/* count(N) - count(1) = 9000 against 9900: 9.09 %. */
	const uint64_t counts[SLOPE_RUNS] = { 1000, 10000, 20000 };
	struct gate_error err = GATE_ERROR_INIT;
	struct slope slope;

	CHECK(slope_compute(&slope, counts, 100, true, &err) == 0);
	CHECK(slope.linearity_percent > 9.09 && slope.linearity_percent < 9.10);
	CHECK(slope.nonlinear);
}

static void slope_should_reject_a_second_run_no_longer_than_the_first_for_instructions(void)
{
	const uint64_t counts[SLOPE_RUNS] = { 23632, 17318804, 17318804 };
	struct gate_error err = GATE_ERROR_INIT;
	struct slope slope = { .per_message = 5, .cold = 5 };

	CHECK(slope_compute(&slope, counts, 1000, true, &err) == -1);
	CHECK_STR(err.message, "count(2N) 17318804 is not above count(N) 17318804 (N = 1000)");
	CHECK(slope.per_message == 0);
	CHECK_U64(slope.cold, 0);
}

static void slope_should_accept_no_allocation_per_message_when_it_need_not_grow(void)
{
	const uint64_t counts[SLOPE_RUNS] = { 19, 19, 19 };
	struct gate_error err = GATE_ERROR_INIT;
	struct slope slope;

	CHECK(slope_compute(&slope, counts, 1000, false, &err) == 0);
	CHECK_STR(err.message, "");
	CHECK(slope.per_message == 0.0);
	CHECK_U64(slope.cold, 19);
	CHECK(slope.linearity_percent == 0.0);
	CHECK(!slope.nonlinear);
}

static void slope_should_reject_a_shorter_second_run(void)
{
	const uint64_t counts[SLOPE_RUNS] = { 19, 19019, 19018 };
	struct gate_error err = GATE_ERROR_INIT;
	struct slope slope;

	CHECK(slope_compute(&slope, counts, 1000, false, &err) == -1);
	CHECK_STR(err.message, "count(2N) 19018 is not above count(N) 19019 (N = 1000)");
	err = (struct gate_error)GATE_ERROR_INIT;
	CHECK(slope_compute(&slope, counts, 1000, true, &err) == -1);
	CHECK_CONTAINS(err.message, "count(2N) 19018");
}

static void slope_should_reject_a_run_at_n_below_the_run_at_one(void)
{
	const uint64_t counts[SLOPE_RUNS] = { 5000, 4000, 8000 };
	struct gate_error err = GATE_ERROR_INIT;
	struct slope slope;

	CHECK(slope_compute(&slope, counts, 10, true, &err) == -1);
	CHECK_STR(err.message, "count(N) 4000 is below count(1) 5000 (N = 10)");
}

static void slope_should_flag_allocations_at_n_with_no_slope(void)
{
	/* Nothing per message, yet the run at N allocated more than the run at 1. */
	const uint64_t counts[SLOPE_RUNS] = { 19, 25, 25 };
	struct gate_error err = GATE_ERROR_INIT;
	struct slope slope;

	CHECK(slope_compute(&slope, counts, 1000, false, &err) == 0);
	CHECK(slope.per_message == 0.0);
	CHECK(slope.linearity_percent == 100.0);
	CHECK(slope.nonlinear);
}

static void slope_should_reject_fewer_than_two_messages(void)
{
	struct gate_error err = GATE_ERROR_INIT;
	struct slope slope;

	CHECK(slope_compute(&slope, real_counts, 1, true, &err) == -1);
	CHECK_STR(err.message, "the message count must be at least 2, not 1");
	err = (struct gate_error)GATE_ERROR_INIT;
	CHECK(slope_compute(&slope, real_counts, 0, false, &err) == -1);
	CHECK_STR(err.message, "the message count must be at least 2, not 0");
	err = (struct gate_error)GATE_ERROR_INIT;
	CHECK(slope_compute(&slope, real_counts, 2, true, &err) == 0);
	CHECK(slope.per_message == 8656000.0);
}

static void slope_change_should_be_the_difference_over_the_baseline_in_percent(void)
{
	CHECK(slope_change_percent(103.0, 100.0) == 3.0);
	CHECK(slope_change_percent(97.0, 100.0) == -3.0);
	CHECK(slope_change_percent(100.0, 100.0) == 0.0);
	CHECK(slope_change_percent(17312.0 * 1.5, 17312.0) == 50.0);
}

static void slope_change_should_be_zero_or_a_hundred_against_a_zero_baseline(void)
{
	CHECK(slope_change_percent(0.0, 0.0) == 0.0);
	CHECK(slope_change_percent(0.5, 0.0) == 100.0);
	CHECK(slope_change_percent(19.0, 0.0) == 100.0);
}

int main(void)
{
	setvbuf(stdout, NULL, _IONBF, 0); /* keep the case lines if a sanitizer aborts */
	RUN(slope_should_divide_the_difference_of_the_runs_at_n_and_2n_by_n);
	RUN(slope_should_keep_a_fraction_of_an_instruction_per_message);
	RUN(slope_should_take_the_cold_start_from_the_run_at_one_not_an_intercept);
	RUN(slope_should_keep_counts_above_two_to_the_32_exact);
	RUN(slope_should_report_a_perfectly_linear_run_as_zero_percent);
	RUN(slope_should_not_flag_a_run_exactly_one_percent_off_the_slope);
	RUN(slope_should_flag_a_run_more_than_one_percent_above_the_slope);
	RUN(slope_should_flag_a_run_more_than_one_percent_below_the_slope);
	RUN(slope_should_reject_a_second_run_no_longer_than_the_first_for_instructions);
	RUN(slope_should_accept_no_allocation_per_message_when_it_need_not_grow);
	RUN(slope_should_reject_a_shorter_second_run);
	RUN(slope_should_reject_a_run_at_n_below_the_run_at_one);
	RUN(slope_should_flag_allocations_at_n_with_no_slope);
	RUN(slope_should_reject_fewer_than_two_messages);
	RUN(slope_change_should_be_the_difference_over_the_baseline_in_percent);
	RUN(slope_change_should_be_zero_or_a_hundred_against_a_zero_baseline);
	return CHECK_EXIT();
}
