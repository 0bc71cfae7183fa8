/* Unit tests of the check's decisions (core/policy.c): the N measured, the N drawn by --vary-n,
 * when two builds compare, when the head is measured again at the baseline's N, --exact, and the
 * commands the reports print. */
#include "check.h"
#include "policy.h"

#include <stdio.h>
#include <string.h>

static struct results baseline_at(uint64_t messages, struct measurement *measurements,
				  size_t count)
{
	struct results results;

	memset(&results, 0, sizeof(results));
	results.messages = messages;
	results.measurements = measurements;
	results.count = count;
	return results;
}

static struct measurement scenario(const char *name, const char *build)
{
	struct measurement measurement;

	memset(&measurement, 0, sizeof(measurement));
	measurement.info.name = (char *)name;
	measurement.build = (char *)build;
	measurement.messages = 1000;
	return measurement;
}

static void messages_should_be_the_options_else_the_baselines(void)
{
	struct results at_200 = baseline_at(200, NULL, 0), at_1 = baseline_at(1, NULL, 0);
	struct results too_many = baseline_at(POLICY_MESSAGES_MAX + 1, NULL, 0);

	CHECK_U64(policy_messages(1000, false, NULL), 1000);
	CHECK_U64(policy_messages(1000, false, &at_200), 200);
	CHECK_U64(policy_messages(5000, true, &at_200), 5000);
	CHECK_U64(policy_messages(1000, false, &at_1), 1000);
	CHECK_U64(policy_messages(1000, false, &too_many), 1000);
}

static void vary_n_should_draw_above_n_the_same_for_a_commit(void)
{
	struct gate_error err = GATE_ERROR_INIT;
	uint64_t lowest, highest;

	CHECK(policy_vary_range(1000, &lowest, &highest, &err) == 0);
	CHECK_U64(lowest, 1001);
	CHECK_U64(highest, 2000);
	CHECK(policy_vary_range(60000, &lowest, &highest, &err) == 0);
	CHECK_U64(highest, POLICY_MESSAGES_MAX);
	CHECK(policy_vary_range(POLICY_MESSAGES_MAX, &lowest, &highest, &err) == -1);
	CHECK_STR(err.message, "--vary-n draws N above --messages, and --messages 100000 leaves no "
			       "room below 100000");
	/* The SHA-256 of "0123abc\nreply", its first 64 bits modulo the range's 1,000 values. */
	CHECK_U64(policy_vary_draw("0123abc", "reply", 1001, 2000), 1505);
	CHECK_U64(policy_vary_draw("0123abc", "batch", 1001, 2000), 1719);
	CHECK_U64(policy_vary_draw("0123abc", "reply", 1001, 2000),
		  policy_vary_draw("0123abc", "reply", 1001, 2000));
	CHECK_U64(policy_vary_draw("0123abc", "reply", 7, 7), 7);
}

static void builds_should_compare_scenario_by_scenario(void)
{
	struct measurement base[2] = { scenario("reply", "-O2 -g | libc6 2.36"),
				       scenario("batch", NULL) };
	struct measurement head[3] = { scenario("reply", "-O2 -g | libc6 2.36"),
				       scenario("batch", "-O2 -g | libc6 2.36"),
				       scenario("fresh", "-O3") };
	struct results baseline = baseline_at(1000, base, 2);
	char difference[256] = "";

	/* A scenario the baseline lacks compares nothing. */
	CHECK(policy_builds_equal(head, 1, &baseline, difference, sizeof(difference)));
	CHECK(policy_builds_equal(&head[2], 1, &baseline, difference, sizeof(difference)));
	CHECK(!policy_builds_equal(head, 3, &baseline, difference, sizeof(difference)));
	CHECK_STR(difference, "'batch' was built otherwise: '-O2 -g | libc6 2.36' here, "
			      "'(not recorded)' in the baseline");
	head[0].build = (char *)"-O3 -g | libc6 2.36";
	CHECK(!policy_builds_equal(head, 1, &baseline, difference, sizeof(difference)));
	CHECK_STR(difference, "'reply' was built otherwise: '-O3 -g | libc6 2.36' here, "
			      "'-O2 -g | libc6 2.36' in the baseline");
	/* A failed head says nothing of its build. */
	head[0].failed = true;
	CHECK(policy_builds_equal(head, 1, &baseline, difference, sizeof(difference)));
}

static void the_head_should_be_measured_again_only_when_not_linear_across_n(void)
{
	struct measurement base[1] = { scenario("reply", NULL) };
	struct measurement head[1] = { scenario("reply", NULL) };
	struct results baseline = baseline_at(200, base, 1);
	const char *name = "x";
	double percent = -1;

	base[0].has[METRIC_INSTRUCTIONS] = head[0].has[METRIC_INSTRUCTIONS] = true;
	base[0].slopes[METRIC_INSTRUCTIONS].linearity_percent = 0.001;
	head[0].slopes[METRIC_INSTRUCTIONS].linearity_percent = 0.002;
	CHECK_U64(policy_measure_again_at(head, 1, 1000, &baseline, &name, &percent), 0);
	CHECK(name == NULL);
	/* Above the limit for comparing across N on the baseline's side: measured again at 200. */
	base[0].slopes[METRIC_INSTRUCTIONS].linearity_percent =
		SLOPE_COMPARABLE_LINEARITY_PERCENT * 2;
	CHECK_U64(policy_measure_again_at(head, 1, 1000, &baseline, &name, &percent), 200);
	CHECK_STR(name, "reply");
	CHECK(percent == SLOPE_COMPARABLE_LINEARITY_PERCENT * 2);
	/* At the baseline's own N, or against an N gate does not measure: never. */
	CHECK_U64(policy_measure_again_at(head, 1, 200, &baseline, &name, &percent), 0);
	baseline.messages = 1;
	CHECK_U64(policy_measure_again_at(head, 1, 1000, &baseline, &name, &percent), 0);
	CHECK_U64(policy_measure_again_at(head, 1, 1000, NULL, &name, &percent), 0);
	/* Nor a figure the head did not measure. */
	baseline.messages = 200;
	head[0].has[METRIC_INSTRUCTIONS] = false;
	CHECK_U64(policy_measure_again_at(head, 1, 1000, &baseline, &name, &percent), 0);
	/* Nor one gated by floors, not at a limit (allocations): however far from linear. */
	head[0].has[METRIC_ALLOCATIONS] = base[0].has[METRIC_ALLOCATIONS] = true;
	head[0].slopes[METRIC_ALLOCATIONS].linearity_percent = 50;
	CHECK_U64(policy_measure_again_at(head, 1, 1000, &baseline, &name, &percent), 0);
	/* The head's side not linear is as much a reason as the baseline's. */
	head[0].has[METRIC_INSTRUCTIONS] = true;
	base[0].slopes[METRIC_INSTRUCTIONS].linearity_percent = 0.001;
	head[0].slopes[METRIC_INSTRUCTIONS].linearity_percent = SLOPE_COMPARABLE_LINEARITY_PERCENT * 3;
	CHECK_U64(policy_measure_again_at(head, 1, 1000, &baseline, &name, &percent), 200);
	CHECK(percent == SLOPE_COMPARABLE_LINEARITY_PERCENT * 3);
}

static void exact_should_hold_every_figure_to_the_instruction(void)
{
	struct measurement base = scenario("reply", NULL), head = scenario("reply", NULL);
	struct verdict_row row;
	char why[512];

	memset(&row, 0, sizeof(row));
	row.name = "reply";
	row.head = &head;
	row.baseline = &base;
	base.slopes[METRIC_INSTRUCTIONS].per_message = head.slopes[METRIC_INSTRUCTIONS].per_message =
		1234.5;
	base.slopes[METRIC_INSTRUCTIONS].cold = head.slopes[METRIC_INSTRUCTIONS].cold = 4000;
	CHECK(policy_row_exact(&row, why, sizeof(why)));
	head.slopes[METRIC_ALLOCATIONS].cold = 1;
	CHECK(!policy_row_exact(&row, why, sizeof(why)));
	CHECK_STR(why, "reply: the baseline says 1234.500 instructions per message and 4000 cold, "
		       "0.000 allocations per message and 0 cold; this tree measures 1234.500, "
		       "4000, 0.000 and 1");
	row.baseline = NULL;
	CHECK(!policy_row_exact(&row, why, sizeof(why)));
	CHECK_STR(why, "reply: not in the baseline, so the baseline cannot be exact");
	head.failed = true;
	CHECK(!policy_row_exact(&row, why, sizeof(why)));
	CHECK_STR(why, "reply: failed to measure, so the baseline cannot be exact");
}

static void commands_should_be_what_a_user_pastes_at_the_top(void)
{
	char text[512];
	char *scenarios[] = { (char *)"rep*", (char *)"batch" };

	policy_refresh_command(text, sizeof(text), true, "build", 1000, NULL);
	CHECK_STR(text, "make baseline, and commit baselines/main.json");
	policy_refresh_command(text, sizeof(text), false, "build", POLICY_MESSAGES_DEFAULT, NULL);
	CHECK_STR(text, "gate --save-baseline main on main, and commit baselines/main.json");
	policy_refresh_command(text, sizeof(text), false, "out", 200, "refs/heads/master");
	CHECK_STR(text, "gate --build-dir out --messages 200 --save-baseline master on master, and "
			"commit baselines/master.json");
	policy_reproduce_command(text, sizeof(text), &(struct policy_run_words){
		.own_makefile = true, .build_command = "ignored", .build_dir = "build",
		.messages = 1000 });
	CHECK_STR(text, "make && build/gate/gate --messages 1000");
	policy_reproduce_command(text, sizeof(text), &(struct policy_run_words){
		.build_command = "cmake --build build", .build_dir = "build", .messages = 1000,
		.baseline_ref = "main" });
	CHECK_STR(text, "cmake --build build && gate --messages 1000 --baseline=main");
	policy_reproduce_command(text, sizeof(text), &(struct policy_run_words){
		.build_command = "make BUILD=out", .build_dir = "out", .messages = 200,
		.vary_n = true, .scenarios = scenarios, .scenario_count = 2 });
	CHECK_STR(text, "make BUILD=out && gate --build-dir out --messages 200 --vary-n "
			"--scenario 'rep*' --scenario 'batch'");
	/* Cut to the buffer, never past it. */
	policy_reproduce_command(text, 24, &(struct policy_run_words){
		.build_command = "make BUILD=out", .build_dir = "out", .messages = 200,
		.scenarios = scenarios, .scenario_count = 2 });
	CHECK_U64(strlen(text), 23);
}

int main(void)
{
	return RUN_CASES(messages_should_be_the_options_else_the_baselines,
			 vary_n_should_draw_above_n_the_same_for_a_commit,
			 builds_should_compare_scenario_by_scenario,
			 the_head_should_be_measured_again_only_when_not_linear_across_n,
			 exact_should_hold_every_figure_to_the_instruction,
			 commands_should_be_what_a_user_pastes_at_the_top);
}
