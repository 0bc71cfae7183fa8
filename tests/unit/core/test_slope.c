/* Unit tests of the slope arithmetic: per message from the runs at N and 2N, cold from the run at
 * 1, the linearity check and the plausibility errors (docs/design.md rules 1, 2 and 7). */
#include "check.h"
#include "slope.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>

/* Counts of a real consume_json measurement (N = 1000), read off callgrind by hand. */
#define REAL_COUNTS { 23632, 17318804, 34630804 }

/* The counts of three runs (at 1, N and 2N messages) and what slope_compute makes of them: the
 * figures, or the message of an error (which leaves the slope zero). */
struct slope_case {
	const char *name;
	uint64_t counts[SLOPE_RUNS];
	uint64_t messages;
	bool must_grow; /* instructions must grow from N to 2N; allocations need not */
	double per_message;
	uint64_t cold;
	double per_message_early; /* from 1 to N: (count(N) - count(1)) / (N - 1) */
	double linearity_percent; /* how far apart the two, against per_message */
	bool nonlinear;           /* above 1 % */
	const char *message;
};

static const struct slope_case slopes[] = {
	/* count(N) - count(1) = 17295172 against 999 * 17312 = 17294688: 484 apart. */
	{ "slope_should_divide_the_difference_of_the_runs_at_n_and_2n_by_n", REAL_COUNTS, 1000, true,
	  17312.0, 23632, 17295172.0 / 999, 484.0 / 999 / 17312 * 100, false, NULL },
	{ "slope_should_keep_a_fraction_of_an_instruction_per_message", { 100, 1100, 2101 }, 1000, true,
	  1.001, 100, 1000.0 / 999, (1000 - 1.001 * 999) / (1.001 * 999) * 100, false, NULL },
	/* The intercept of the N and 2N totals would be 1000 - 100 * 10 = 0; cold is count(1). */
	{ "slope_should_take_the_cold_start_from_the_run_at_one_not_an_intercept", { 700, 1000, 2000 },
	  10, true, 100.0, 700, 300.0 / 9, 600.0 / 900 * 100, true, NULL },
	{ "slope_should_keep_counts_above_two_to_the_32_exact",
	  { 5000000001ULL, 4005000000001ULL, 8005000000001ULL }, 1000, true, 4000000000.0,
	  5000000001ULL, 4000000000000.0 / 999, (4000000000000.0 / 999 / 4000000000.0 - 1) * 100,
	  false, NULL },
	/* count(N) - count(1) = 9900 = 99 * 100 exactly. */
	{ "slope_should_report_a_perfectly_linear_run_as_zero_percent", { 1000, 10900, 20900 }, 100,
	  true, 100.0, 1000, 100.0, 0.0, false, NULL },
	/* count(N) - count(1) = 9999 against 99 * 100 = 9900: 1 % exactly, not above. */
	{ "slope_should_not_flag_a_run_exactly_one_percent_off_the_slope", { 1000, 10999, 20999 }, 100,
	  true, 100.0, 1000, 101.0, 1.0, false, NULL },
	/* count(N) - count(1) = 10000 against 9900: 1.0101 %. */
	{ "slope_should_flag_a_run_more_than_one_percent_above_the_slope", { 1000, 11000, 21000 }, 100,
	  true, 100.0, 1000, 10000.0 / 99, 100.0 / 99, true, NULL },
	/* count(N) - count(1) = 9000 against 9900: 9.09 %. */
	{ "slope_should_flag_a_run_more_than_one_percent_below_the_slope", { 1000, 10000, 20000 }, 100,
	  true, 100.0, 1000, 9000.0 / 99, 900.0 / 99, true, NULL },
	{ "slope_should_accept_no_allocation_per_message_when_it_need_not_grow", { 19, 19, 19 }, 1000,
	  false, 0.0, 19, 0.0, 0.0, false, NULL },
	/* Nothing per message, yet the run at N allocated more than the run at 1. */
	{ "slope_should_flag_allocations_at_n_with_no_slope", { 19, 25, 25 }, 1000, false, 0.0, 19,
	  6.0 / 999, 100.0, true, NULL },
	{ "slope_should_take_two_messages", REAL_COUNTS, 2, true, 8656000.0, 23632, 17295172.0,
	  (17295172.0 - 8656000.0) / 8656000.0 * 100, true, NULL },
	{ "slope_should_reject_a_second_run_no_longer_than_the_first_for_instructions",
	  { 23632, 17318804, 17318804 }, 1000, true, 0, 0, 0, 0, false,
	  "count(2N) 17318804 is not above count(N) 17318804 (N = 1000)" },
	{ "slope_should_reject_a_shorter_second_run_of_allocations", { 19, 19019, 19018 }, 1000, false,
	  0, 0, 0, 0, false, "count(2N) 19018 is not above count(N) 19019 (N = 1000)" },
	{ "slope_should_reject_a_shorter_second_run_of_instructions", { 19, 19019, 19018 }, 1000, true,
	  0, 0, 0, 0, false, "count(2N) 19018 is not above count(N) 19019 (N = 1000)" },
	{ "slope_should_reject_a_run_at_n_below_the_run_at_one", { 5000, 4000, 8000 }, 10, true, 0, 0,
	  0, 0, false, "count(N) 4000 is below count(1) 5000 (N = 10)" },
	{ "slope_should_reject_one_message", REAL_COUNTS, 1, true, 0, 0, 0, 0, false,
	  "the message count must be at least 2, not 1" },
	{ "slope_should_reject_no_message", REAL_COUNTS, 0, false, 0, 0, 0, 0, false,
	  "the message count must be at least 2, not 0" },
};

/* Whether a figure is the one expected, but for rounding. */
static bool near(double actual, double expected)
{
	return fabs(actual - expected) <= 1e-9 * fabs(expected);
}

static void check_slope(const struct slope_case *row)
{
	struct gate_error err = GATE_ERROR_INIT;
	struct slope slope = { .per_message = 5, .cold = 5 };

	CHECK(slope_compute(&slope, row->counts, row->messages, row->must_grow, &err) ==
	      (row->message != NULL ? -1 : 0));
	CHECK_STR(err.message, row->message != NULL ? row->message : "");
	CHECK(slope.per_message == row->per_message);
	CHECK_U64(slope.cold, row->cold);
	CHECK(near(slope.per_message_early, row->per_message_early));
	CHECK(near(slope.linearity_percent, row->linearity_percent));
	CHECK(slope.nonlinear == row->nonlinear);
}

static void slope_should_make_its_figures_of_three_runs(void)
{
	RUN_ROWS(check_slope, slopes);
}

/* Against a zero baseline, 0 % when the head is zero too and 100 % when it is not. */
static void slope_change_should_be_the_difference_over_the_baseline_in_percent(void)
{
	static const double changes[][3] = {
		/* head, baseline, change in % */
		{ 103.0, 100.0, 3.0 }, { 97.0, 100.0, -3.0 }, { 100.0, 100.0, 0.0 },
		{ 17312.0 * 1.5, 17312.0, 50.0 }, { 0.0, 0.0, 0.0 }, { 0.5, 0.0, 100.0 },
		{ 19.0, 0.0, 100.0 },
	};
	size_t i;

	for (i = 0; i < sizeof(changes) / sizeof(changes[0]); i++) {
		double change = slope_change_percent(changes[i][0], changes[i][1]);

		if (change != changes[i][2])
			check_failed(__FILE__, __LINE__, "%g against %g is a change of %g %%, expected %g %%",
				     changes[i][0], changes[i][1], change, changes[i][2]);
	}
}

int main(void)
{
	return RUN_CASES(slope_should_make_its_figures_of_three_runs,
			 slope_change_should_be_the_difference_over_the_baseline_in_percent);
}
