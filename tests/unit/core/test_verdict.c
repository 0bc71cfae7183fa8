/* Unit tests of the verdict (docs/design.md gating rules and exit codes), on hand-made head
 * measurements and a hand-made baseline: strict limits, declared limits, floors with and without
 * a baseline, new and missing scenarios, failures, acceptances, and the summary and JSON. */
#include "check.h"
#include "measured.h"
#include "verdict.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

/* A gated scenario measured with N = 1000 whose allocations sit exactly on floors of 19/19. */
/* measured.h's, with a title. */
static struct measurement titled(const char *name, double per_message, uint64_t cold)
{
	struct measurement measurement = measured(name, per_message, cold);

	measurement.info.title = (char *)"a scenario";
	return measurement;
}

static struct measurement failed(const char *name, const char *failure)
{
	struct measurement measurement = titled(name, 0, 0);

	measurement.failed = true;
	snprintf(measurement.failure, sizeof(measurement.failure), "%s", failure);
	return measurement;
}

/* A baseline of `count` measurements, which must be in name order as a read document is. */
static struct results baseline_of(struct measurement *measurements, size_t count)
{
	struct results results = RESULTS_INIT;

	results.measurements = measurements;
	results.count = count;
	results.messages = 1000;
	return results;
}

/* Decides head against base[0] (both one scenario called "alpha"). */
static void decide_one(struct verdict *verdict, const struct measurement *head,
		       struct measurement *base, const struct acceptance *acceptance)
{
	struct results baseline = baseline_of(base, 1);
	struct gate_error err = GATE_ERROR_INIT;

	CHECK(verdict_decide(verdict, head, 1, &baseline, acceptance, true, &err) == 0);
	CHECK_STR(err.message, "");
	CHECK_U64(verdict->row_count, 1);
}

static void verdict_should_pass_a_head_exactly_at_the_limit(void)
{
	struct measurement head = titled("alpha", 10200.0, 51000), base = titled("alpha", 10000.0, 50000);
	struct verdict verdict;

	decide_one(&verdict, &head, &base, NULL);
	CHECK(verdict.compared);
	CHECK(verdict.rows[0].state == VERDICT_OK);
	CHECK(verdict.rows[0].breaches == 0);
	CHECK(verdict.rows[0].limit_percent == VERDICT_DEFAULT_LIMIT_PERCENT);
	CHECK(verdict.rows[0].changes[METRIC_INSTRUCTIONS][VERDICT_PER_MESSAGE] > 1.999999 && verdict.rows[0].changes[METRIC_INSTRUCTIONS][VERDICT_PER_MESSAGE] < 2.000001);
	CHECK(verdict.rows[0].changes[METRIC_INSTRUCTIONS][VERDICT_COLD] > 1.999999 && verdict.rows[0].changes[METRIC_INSTRUCTIONS][VERDICT_COLD] < 2.000001);
	CHECK(verdict.rows[0].baseline == &base);
	CHECK(verdict.rows[0].head == &head);
	CHECK(verdict.exit_code == GATE_EXIT_PASS);
	verdict_release(&verdict);
}

static void verdict_should_fail_a_head_a_thousandth_above_the_limit(void)
{
	struct measurement head = titled("alpha", 10200.001, 50000), base = titled("alpha", 10000.0, 50000);
	struct verdict verdict;

	decide_one(&verdict, &head, &base, NULL);
	CHECK(verdict.rows[0].state == VERDICT_REGRESSED);
	CHECK(verdict.rows[0].breaches == BREACH_LIMIT(METRIC_INSTRUCTIONS, false));
	CHECK(verdict.exit_code == GATE_EXIT_REGRESSION);
	verdict_release(&verdict);
}

static void verdict_should_fail_a_head_above_the_limit(void)
{
	struct measurement head = titled("alpha", 10300.0, 50000), base = titled("alpha", 10000.0, 50000);
	struct verdict verdict;

	decide_one(&verdict, &head, &base, NULL);
	CHECK(verdict.rows[0].state == VERDICT_REGRESSED);
	CHECK(verdict.rows[0].breaches == BREACH_LIMIT(METRIC_INSTRUCTIONS, false));
	CHECK(verdict.rows[0].changes[METRIC_INSTRUCTIONS][VERDICT_PER_MESSAGE] > 2.999999 && verdict.rows[0].changes[METRIC_INSTRUCTIONS][VERDICT_PER_MESSAGE] < 3.000001);
	CHECK(verdict.rows[0].changes[METRIC_INSTRUCTIONS][VERDICT_COLD] == 0.0);
	CHECK(verdict.exit_code == GATE_EXIT_REGRESSION);
	verdict_release(&verdict);
}

static void verdict_should_fail_a_cold_start_above_its_limit(void)
{
	struct measurement head = titled("alpha", 10000.0, 51001), base = titled("alpha", 10000.0, 50000);
	struct verdict verdict;

	decide_one(&verdict, &head, &base, NULL);
	CHECK(verdict.rows[0].state == VERDICT_REGRESSED);
	CHECK(verdict.rows[0].breaches == BREACH_LIMIT(METRIC_INSTRUCTIONS, true));
	CHECK(verdict.exit_code == GATE_EXIT_REGRESSION);
	verdict_release(&verdict);
}

static void verdict_should_apply_a_declared_limit_instead_of_two_percent(void)
{
	struct measurement head = titled("alpha", 10400.0, 52500), base = titled("alpha", 10000.0, 50000);
	struct verdict verdict;

	head.info.limit_percent = base.info.limit_percent = 5;
	decide_one(&verdict, &head, &base, NULL);
	CHECK(verdict.rows[0].limit_percent == 5.0);
	CHECK(verdict.rows[0].state == VERDICT_OK);
	CHECK(verdict.exit_code == GATE_EXIT_PASS);
	verdict_release(&verdict);

	head.slopes[METRIC_INSTRUCTIONS].per_message = 10500.001;
	head.slopes[METRIC_INSTRUCTIONS].cold = 52501;
	decide_one(&verdict, &head, &base, NULL);
	CHECK(verdict.rows[0].state == VERDICT_REGRESSED);
	CHECK(verdict.rows[0].breaches == (BREACH_LIMIT(METRIC_INSTRUCTIONS, false) | BREACH_LIMIT(METRIC_INSTRUCTIONS, true)));
	verdict_release(&verdict);

	/* A tighter declared limit fails what 2 % would pass, and is a note. */
	head.info.limit_percent = 0.5;
	base.info.limit_percent = 0;
	head.slopes[METRIC_INSTRUCTIONS].per_message = 10100.0;
	head.slopes[METRIC_INSTRUCTIONS].cold = 50000;
	decide_one(&verdict, &head, &base, NULL);
	CHECK(verdict.rows[0].state == VERDICT_REGRESSED);
	CHECK(verdict.rows[0].breaches == BREACH_LIMIT(METRIC_INSTRUCTIONS, false));
	CHECK(verdict.rows[0].tightened == BREACH_LIMIT_RAISED);
	verdict_release(&verdict);
}

static void verdict_should_fail_a_floor_breach_without_any_baseline(void)
{
	struct measurement head = titled("alpha", 10000.0, 50000);
	struct gate_error err = GATE_ERROR_INIT;
	struct verdict verdict;

	head.slopes[METRIC_ALLOCATIONS].per_message = 19.001;
	CHECK(verdict_decide(&verdict, &head, 1, NULL, NULL, true, &err) == 0);
	CHECK(!verdict.compared);
	CHECK_U64(verdict.row_count, 1);
	CHECK(verdict.rows[0].state == VERDICT_REGRESSED);
	CHECK(verdict.rows[0].breaches == BREACH_STEADY_FLOOR);
	CHECK(verdict.rows[0].baseline == NULL);
	CHECK(verdict.exit_code == GATE_EXIT_REGRESSION);
	verdict_release(&verdict);

	head.slopes[METRIC_ALLOCATIONS].per_message = 19;
	head.slopes[METRIC_ALLOCATIONS].cold = 20;
	CHECK(verdict_decide(&verdict, &head, 1, NULL, NULL, true, &err) == 0);
	CHECK(verdict.rows[0].state == VERDICT_REGRESSED);
	CHECK(verdict.rows[0].breaches == BREACH_COLD_FLOOR);
	CHECK(verdict.exit_code == GATE_EXIT_REGRESSION);
	verdict_release(&verdict);
}

static void verdict_should_pass_allocations_exactly_on_the_floors_without_a_baseline(void)
{
	struct measurement head = titled("alpha", 10000.0, 50000);
	struct gate_error err = GATE_ERROR_INIT;
	struct verdict verdict;

	CHECK(verdict_decide(&verdict, &head, 1, NULL, NULL, true, &err) == 0);
	CHECK(verdict.rows[0].state == VERDICT_OK);
	CHECK(verdict.rows[0].breaches == 0);
	CHECK(!verdict.rows[0].steady_floor_high);
	CHECK(!verdict.rows[0].cold_floor_high);
	CHECK(verdict.exit_code == GATE_EXIT_PASS);
	verdict_release(&verdict);
}

static void verdict_should_ask_to_lower_floors_above_what_was_measured(void)
{
	struct measurement head = titled("alpha", 10000.0, 50000), base = titled("alpha", 10000.0, 50000);
	struct verdict verdict;

	head.info.steady_floor = base.info.steady_floor = 20;
	decide_one(&verdict, &head, &base, NULL);
	CHECK(verdict.rows[0].steady_floor_high);
	CHECK(!verdict.rows[0].cold_floor_high);
	CHECK(verdict.rows[0].state == VERDICT_OK);
	CHECK(verdict.exit_code == GATE_EXIT_PASS);
	verdict_release(&verdict);

	head.info.steady_floor = base.info.steady_floor = 19;
	head.info.cold_floor = base.info.cold_floor = 25;
	decide_one(&verdict, &head, &base, NULL);
	CHECK(!verdict.rows[0].steady_floor_high);
	CHECK(verdict.rows[0].cold_floor_high);
	CHECK(verdict.exit_code == GATE_EXIT_PASS);
	verdict_release(&verdict);
}

static void verdict_should_call_a_head_cheaper_by_more_than_the_limit_improved(void)
{
	struct measurement head = titled("alpha", 9799.999, 50000), base = titled("alpha", 10000.0, 50000);
	struct verdict verdict;

	decide_one(&verdict, &head, &base, NULL);
	CHECK(verdict.rows[0].state == VERDICT_IMPROVED);
	CHECK(verdict.rows[0].improvements == BREACH_LIMIT(METRIC_INSTRUCTIONS, false));
	CHECK(verdict.rows[0].breaches == 0);
	CHECK(verdict.exit_code == GATE_EXIT_PASS);
	verdict_release(&verdict);

	/* Exactly at the limit below is not an improvement. */
	head.slopes[METRIC_INSTRUCTIONS].per_message = 9800.0;
	decide_one(&verdict, &head, &base, NULL);
	CHECK(verdict.rows[0].state == VERDICT_OK);
	CHECK(verdict.rows[0].improvements == 0);
	verdict_release(&verdict);

	head.slopes[METRIC_INSTRUCTIONS].cold = 48999;
	decide_one(&verdict, &head, &base, NULL);
	CHECK(verdict.rows[0].state == VERDICT_IMPROVED);
	CHECK(verdict.rows[0].improvements == BREACH_LIMIT(METRIC_INSTRUCTIONS, true));
	verdict_release(&verdict);
}

static void verdict_should_fail_a_scenario_missing_from_the_head(void)
{
	struct measurement head[] = { titled("alpha", 10000.0, 50000) };
	struct measurement base[] = { titled("alpha", 10000.0, 50000), titled("gone", 500.0, 900) };
	struct results baseline = baseline_of(base, 2);
	struct gate_error err = GATE_ERROR_INIT;
	struct verdict verdict;

	CHECK(verdict_decide(&verdict, head, 1, &baseline, NULL, true, &err) == 0);
	CHECK_U64(verdict.row_count, 2);
	if (verdict.row_count == 2) {
		CHECK_STR(verdict.rows[1].name, "gone");
		CHECK(verdict.rows[1].state == VERDICT_MISSING);
		CHECK(verdict.rows[1].head == NULL);
		CHECK(verdict.rows[0].state == VERDICT_OK);
	}
	CHECK(verdict.exit_code == GATE_EXIT_MEASUREMENT);
	verdict_release(&verdict);
}

static void verdict_should_leave_out_unmeasured_scenarios_of_a_partial_run(void)
{
	struct measurement head[] = { titled("alpha", 10000.0, 50000) };
	struct measurement base[] = { titled("alpha", 10000.0, 50000), titled("gone", 500.0, 900) };
	struct results baseline = baseline_of(base, 2);
	struct gate_error err = GATE_ERROR_INIT;
	struct verdict verdict;

	CHECK(verdict_decide(&verdict, head, 1, &baseline, NULL, false, &err) == 0);
	CHECK_U64(verdict.row_count, 1);
	if (verdict.row_count == 1)
		CHECK_STR(verdict.rows[0].name, "alpha");
	CHECK(verdict.exit_code == GATE_EXIT_PASS);
	verdict_release(&verdict);
}

static void verdict_should_call_a_scenario_not_in_the_baseline_new(void)
{
	struct measurement head[] = { titled("alpha", 10000.0, 50000), titled("fresh", 99999.0, 99999) };
	struct measurement base[] = { titled("alpha", 10000.0, 50000) };
	struct results baseline = baseline_of(base, 1);
	struct gate_error err = GATE_ERROR_INIT;
	struct verdict verdict;

	CHECK(verdict_decide(&verdict, head, 2, &baseline, NULL, true, &err) == 0);
	CHECK_U64(verdict.row_count, 2);
	if (verdict.row_count == 2) {
		CHECK_STR(verdict.rows[1].name, "fresh");
		CHECK(verdict.rows[1].state == VERDICT_NEW);
		CHECK(verdict.rows[1].baseline == NULL);
		CHECK(verdict.rows[1].breaches == 0);
	}
	CHECK(verdict.exit_code == GATE_EXIT_PASS);
	verdict_release(&verdict);
}

static void verdict_should_enforce_the_floors_of_a_new_scenario(void)
{
	struct measurement head[] = { titled("alpha", 10000.0, 50000), titled("fresh", 99999.0, 99999) };
	struct measurement base[] = { titled("alpha", 10000.0, 50000) };
	struct results baseline = baseline_of(base, 1);
	struct gate_error err = GATE_ERROR_INIT;
	struct verdict verdict;

	head[1].slopes[METRIC_ALLOCATIONS].per_message = 20;
	CHECK(verdict_decide(&verdict, head, 2, &baseline, NULL, true, &err) == 0);
	if (verdict.row_count == 2) {
		CHECK(verdict.rows[1].state == VERDICT_REGRESSED);
		CHECK(verdict.rows[1].breaches == BREACH_STEADY_FLOOR);
	}
	CHECK(verdict.exit_code == GATE_EXIT_REGRESSION);
	verdict_release(&verdict);
}

static void verdict_should_fail_a_failed_measurement_with_exit_3(void)
{
	struct measurement head[] = { titled("alpha", 10000.0, 50000),
				      failed("broken", "callgrind at N: exited with 1") };
	struct measurement base[] = { titled("alpha", 10000.0, 50000), titled("broken", 1.0, 1) };
	struct results baseline = baseline_of(base, 2);
	struct gate_error err = GATE_ERROR_INIT;
	struct verdict verdict;

	CHECK(verdict_decide(&verdict, head, 2, &baseline, NULL, true, &err) == 0);
	CHECK_U64(verdict.row_count, 2);
	if (verdict.row_count == 2) {
		CHECK(verdict.rows[1].state == VERDICT_FAILED);
		CHECK(verdict.rows[1].head == &head[1]);
	}
	CHECK(verdict.exit_code == GATE_EXIT_MEASUREMENT);
	verdict_release(&verdict);

	/* Without a baseline too. */
	CHECK(verdict_decide(&verdict, head, 2, NULL, NULL, true, &err) == 0);
	CHECK(verdict.exit_code == GATE_EXIT_MEASUREMENT);
	verdict_release(&verdict);
}

/* One acceptance entry for alpha's instructions per message. */
static struct acceptance accepting(struct acceptance_entry *entries, size_t count)
{
	struct acceptance acceptance = ACCEPTANCE_INIT;

	acceptance.entries = entries;
	acceptance.count = count;
	acceptance.path = (char *)"baselines/accepted.json";
	return acceptance;
}

static void verdict_should_accept_a_regression_up_to_the_accepted_value(void)
{
	struct measurement head = titled("alpha", 10300.0, 50000), base = titled("alpha", 10000.0, 50000);
	struct acceptance_entry entries[] = {
		{ (char *)"alpha", METRIC_ACCEPTANCE(METRIC_INSTRUCTIONS, false), 10300.0, (char *)"a signature per message" },
	};
	struct acceptance acceptance = accepting(entries, 1);
	struct verdict verdict;

	decide_one(&verdict, &head, &base, &acceptance);
	CHECK(verdict.rows[0].state == VERDICT_ACCEPTED);
	CHECK(verdict.rows[0].breaches == BREACH_LIMIT(METRIC_INSTRUCTIONS, false));
	CHECK(verdict.rows[0].accepted[METRIC_ACCEPTANCE(METRIC_INSTRUCTIONS, false)] == &entries[0]);
	CHECK(verdict.rows[0].accepted[METRIC_ACCEPTANCE(METRIC_INSTRUCTIONS, true)] == NULL);
	CHECK(verdict.acceptance_used[0]);
	CHECK(verdict.acceptance == &acceptance);
	CHECK(verdict.exit_code == GATE_EXIT_PASS);
	verdict_release(&verdict);
}

static void verdict_should_still_fail_a_regression_beyond_the_accepted_value(void)
{
	struct measurement head = titled("alpha", 10300.001, 50000), base = titled("alpha", 10000.0, 50000);
	struct acceptance_entry entries[] = {
		{ (char *)"alpha", METRIC_ACCEPTANCE(METRIC_INSTRUCTIONS, false), 10300.0, (char *)"a signature per message" },
	};
	struct acceptance acceptance = accepting(entries, 1);
	struct verdict verdict;

	decide_one(&verdict, &head, &base, &acceptance);
	CHECK(verdict.rows[0].state == VERDICT_REGRESSED);
	CHECK(verdict.rows[0].accepted[METRIC_ACCEPTANCE(METRIC_INSTRUCTIONS, false)] == NULL);
	/* In use all the same: it falls short of the head, which is not the same as stale. */
	CHECK(verdict.acceptance_used[0]);
	CHECK(verdict.exit_code == GATE_EXIT_REGRESSION);
	verdict_release(&verdict);
}

static void verdict_should_not_let_an_instruction_acceptance_pass_a_cold_breach(void)
{
	struct measurement head = titled("alpha", 10300.0, 60000), base = titled("alpha", 10000.0, 50000);
	struct acceptance_entry entries[] = {
		{ (char *)"alpha", METRIC_ACCEPTANCE(METRIC_INSTRUCTIONS, false), 99999.0, (char *)"a signature per message" },
	};
	struct acceptance acceptance = accepting(entries, 1);
	struct verdict verdict;

	decide_one(&verdict, &head, &base, &acceptance);
	CHECK(verdict.rows[0].state == VERDICT_REGRESSED);
	CHECK(verdict.rows[0].breaches == (BREACH_LIMIT(METRIC_INSTRUCTIONS, false) | BREACH_LIMIT(METRIC_INSTRUCTIONS, true)));
	CHECK(verdict.rows[0].accepted[METRIC_ACCEPTANCE(METRIC_INSTRUCTIONS, false)] == &entries[0]);
	CHECK(verdict.exit_code == GATE_EXIT_REGRESSION);
	verdict_release(&verdict);
}

static void verdict_should_mark_acceptances_no_breach_needed_as_unused(void)
{
	struct measurement head[] = { titled("alpha", 10300.0, 50000), titled("beta", 500.0, 900) };
	struct measurement base[] = { titled("alpha", 10000.0, 50000), titled("beta", 500.0, 900) };
	struct acceptance_entry entries[] = {
		{ (char *)"beta", METRIC_ACCEPTANCE(METRIC_INSTRUCTIONS, false), 600.0, (char *)"no longer needed" },
		{ (char *)"alpha", METRIC_ACCEPTANCE(METRIC_INSTRUCTIONS, false), 10400.0, (char *)"a signature per message" },
		{ (char *)"alpha", METRIC_ACCEPTANCE(METRIC_INSTRUCTIONS, true), 60000.0, (char *)"key loading" },
		{ (char *)"nowhere", METRIC_ACCEPTANCE(METRIC_INSTRUCTIONS, false), 1.0, (char *)"a deleted scenario" },
	};
	struct acceptance acceptance = accepting(entries, 4);
	struct results baseline = baseline_of(base, 2);
	struct gate_error err = GATE_ERROR_INIT;
	struct verdict verdict;
	cJSON *json, *stale;

	CHECK(verdict_decide(&verdict, head, 2, &baseline, &acceptance, true, &err) == 0);
	CHECK(!verdict.acceptance_used[0]);
	CHECK(verdict.acceptance_used[1]);
	CHECK(!verdict.acceptance_used[2]);
	CHECK(!verdict.acceptance_used[3]);
	CHECK(verdict.exit_code == GATE_EXIT_PASS);
	json = verdict_to_json(&verdict);
	stale = cJSON_GetObjectItemCaseSensitive(json, "stale_acceptances");
	CHECK(cJSON_GetArraySize(stale) == 3);
	CHECK_STR(cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(stale, 0),
									  "scenario")), "beta");
	CHECK_STR(cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(stale, 1),
									  "metric")), "cold_instructions");
	cJSON_Delete(json);
	verdict_release(&verdict);
}

static void verdict_should_say_when_head_and_baseline_used_different_message_counts(void)
{
	struct measurement head = titled("alpha", 10000.0, 50000), base = titled("alpha", 10000.0, 50000);
	struct verdict verdict;

	decide_one(&verdict, &head, &base, NULL);
	CHECK(!verdict.messages_differ);
	verdict_release(&verdict);
	base.messages = 2000;
	decide_one(&verdict, &head, &base, NULL);
	CHECK(verdict.messages_differ);
	CHECK(verdict.exit_code == GATE_EXIT_PASS);
	verdict_release(&verdict);
}

static void verdict_should_sort_its_rows_by_name(void)
{
	struct measurement head[] = { titled("zeta", 1.0, 1), titled("alpha", 1.0, 1),
				      titled("mid", 1.0, 1) };
	struct measurement base[] = { titled("alpha", 1.0, 1), titled("beta", 1.0, 1),
				      titled("mid", 1.0, 1), titled("zeta", 1.0, 1) };
	struct results baseline = baseline_of(base, 4);
	struct gate_error err = GATE_ERROR_INIT;
	struct verdict verdict;

	CHECK(verdict_decide(&verdict, head, 3, &baseline, NULL, true, &err) == 0);
	CHECK_U64(verdict.row_count, 4);
	if (verdict.row_count == 4) {
		CHECK_STR(verdict.rows[0].name, "alpha");
		CHECK_STR(verdict.rows[1].name, "beta");
		CHECK_STR(verdict.rows[2].name, "mid");
		CHECK_STR(verdict.rows[3].name, "zeta");
		CHECK(verdict.rows[0].head == &head[1]);
		CHECK(verdict.rows[1].state == VERDICT_MISSING);
		CHECK(verdict.rows[3].head == &head[0]);
	}
	verdict_release(&verdict);
}

static void verdict_should_not_fail_the_run_for_an_ungated_regression(void)
{
	struct measurement head = titled("alpha", 20000.0, 50000), base = titled("alpha", 10000.0, 50000);
	struct verdict verdict;

	head.info.gated = base.info.gated = false;
	decide_one(&verdict, &head, &base, NULL);
	CHECK(verdict.rows[0].state == VERDICT_REGRESSED);
	CHECK_STR(verdict_row_state_text(&verdict.rows[0]), "regressed: instructions (not gated)");
	CHECK(verdict.rows[0].breaches == BREACH_LIMIT(METRIC_INSTRUCTIONS, false));
	CHECK(verdict.exit_code == GATE_EXIT_PASS);
	verdict_release(&verdict);
}

static void verdict_should_fail_a_scenario_ungated_against_a_gating_baseline_unless_accepted(void)
{
	struct measurement head = titled("alpha", 20000.0, 50000), base = titled("alpha", 10000.0, 50000);
	struct acceptance_entry entries[] = {
		{ (char *)"alpha", ACCEPT_GATED, 0, (char *)"an experiment, not a product path" },
	};
	struct acceptance acceptance = accepting(entries, 1);
	struct verdict verdict;

	head.info.gated = false;
	decide_one(&verdict, &head, &base, NULL);
	CHECK(verdict.rows[0].state == VERDICT_REGRESSED);
	CHECK(verdict.rows[0].breaches == (BREACH_LIMIT(METRIC_INSTRUCTIONS, false) | BREACH_UNGATED));
	CHECK(verdict.rows[0].gated);
	CHECK_STR(verdict_row_state_text(&verdict.rows[0]), "regressed: instructions, settings");
	CHECK(verdict.exit_code == GATE_EXIT_REGRESSION);
	verdict_release(&verdict);

	/* Accepted: not gated any more, so its regression is shown and does not fail. */
	decide_one(&verdict, &head, &base, &acceptance);
	CHECK(verdict.rows[0].accepted[ACCEPT_GATED] == &entries[0]);
	CHECK(!verdict.rows[0].gated);
	CHECK_STR(verdict_row_state_text(&verdict.rows[0]), "regressed: instructions (not gated)");
	CHECK(verdict.acceptance_used[0]);
	CHECK(verdict.exit_code == GATE_EXIT_PASS);
	verdict_release(&verdict);
}

static void verdict_should_apply_the_baseline_s_limit_when_a_higher_one_is_not_accepted(void)
{
	struct measurement head = titled("alpha", 19400.0, 50000), base = titled("alpha", 10000.0, 50000);
	struct acceptance_entry entries[] = {
		{ (char *)"alpha", ACCEPT_LIMIT_PERCENT, 500, (char *)"a prototype with a loose limit" },
	};
	struct acceptance acceptance = accepting(entries, 1);
	struct verdict verdict;

	head.info.limit_percent = 500;
	decide_one(&verdict, &head, &base, NULL);
	CHECK(verdict.rows[0].limit_percent == VERDICT_DEFAULT_LIMIT_PERCENT);
	CHECK(verdict.rows[0].breaches == (BREACH_LIMIT(METRIC_INSTRUCTIONS, false) | BREACH_LIMIT_RAISED));
	CHECK(verdict.rows[0].state == VERDICT_REGRESSED);
	CHECK(verdict.exit_code == GATE_EXIT_REGRESSION);
	verdict_release(&verdict);

	/* Even on a scenario that is not gated, a looser setting fails. */
	head.slopes[METRIC_INSTRUCTIONS].per_message = 10000.0;
	head.info.gated = base.info.gated = false;
	decide_one(&verdict, &head, &base, NULL);
	CHECK(verdict.rows[0].breaches == BREACH_LIMIT_RAISED);
	CHECK(verdict.exit_code == GATE_EXIT_REGRESSION);
	verdict_release(&verdict);

	head.slopes[METRIC_INSTRUCTIONS].per_message = 19400.0;
	head.info.gated = base.info.gated = true;
	decide_one(&verdict, &head, &base, &acceptance);
	CHECK(verdict.rows[0].limit_percent == 500);
	CHECK(verdict.rows[0].breaches == BREACH_LIMIT_RAISED);
	CHECK(verdict.rows[0].state == VERDICT_ACCEPTED);
	CHECK(verdict.exit_code == GATE_EXIT_PASS);
	verdict_release(&verdict);

	/* Above the accepted value: not accepted. */
	head.info.limit_percent = 600;
	decide_one(&verdict, &head, &base, &acceptance);
	CHECK(verdict.rows[0].accepted[ACCEPT_LIMIT_PERCENT] == NULL);
	CHECK(verdict.exit_code == GATE_EXIT_REGRESSION);
	verdict_release(&verdict);
}

/* The whole process at `process` per message, as DHAT counts it. */
static void with_process(struct measurement *measurement, double process)
{
	measurement->has_process = true;
	measurement->process_slope.per_message = process;
}

static void verdict_should_gate_work_outside_the_region_in_the_whole_process(void)
{
	struct measurement head = titled("alpha", 10000.0, 50000), base = titled("alpha", 10000.0, 50000);
	struct acceptance_entry entries[] = {
		{ (char *)"alpha", ACCEPT_PROCESS_INSTRUCTIONS, 13000, (char *)"a checksum at fill time" },
	};
	struct acceptance acceptance = accepting(entries, 1);
	struct verdict verdict;

	/* 2.5 % more in the whole process while the region stays: work moved outside. */
	with_process(&base, 12000.0);
	with_process(&head, 12300.0);
	decide_one(&verdict, &head, &base, NULL);
	CHECK(verdict.rows[0].breaches == BREACH_PROCESS_INSTRUCTIONS);
	CHECK(verdict.rows[0].outside_change > 2.49 && verdict.rows[0].outside_change < 2.51);
	CHECK(verdict.exit_code == GATE_EXIT_REGRESSION);
	verdict_release(&verdict);

	/* Exactly at the limit passes, as for the region. */
	with_process(&head, 12240.0);
	decide_one(&verdict, &head, &base, NULL);
	CHECK(verdict.rows[0].breaches == 0);
	CHECK(verdict.exit_code == GATE_EXIT_PASS);
	verdict_release(&verdict);

	/* The region's own regression is not a second breach of the whole process. */
	head.slopes[METRIC_INSTRUCTIONS].per_message = 10300.0;
	with_process(&head, 12300.0);
	decide_one(&verdict, &head, &base, NULL);
	CHECK(verdict.rows[0].breaches == BREACH_LIMIT(METRIC_INSTRUCTIONS, false));
	verdict_release(&verdict);

	/* Accepted up to the whole process's figure. */
	head.slopes[METRIC_INSTRUCTIONS].per_message = 10000.0;
	with_process(&head, 13000.0);
	decide_one(&verdict, &head, &base, &acceptance);
	CHECK(verdict.rows[0].breaches == BREACH_PROCESS_INSTRUCTIONS);
	CHECK(verdict.rows[0].accepted[ACCEPT_PROCESS_INSTRUCTIONS] == &entries[0]);
	CHECK(verdict.exit_code == GATE_EXIT_PASS);
	verdict_release(&verdict);

	/* A baseline without the figure (written before gate counted it): nothing to compare. */
	base.has_process = false;
	decide_one(&verdict, &head, &base, NULL);
	CHECK(verdict.rows[0].breaches == 0);
	verdict_release(&verdict);
}

static void verdict_should_hold_a_raised_floor_to_the_baseline_s_unless_accepted(void)
{
	struct measurement head = titled("alpha", 10000.0, 50000), base = titled("alpha", 10000.0, 50000);
	struct acceptance_entry entries[] = {
		{ (char *)"alpha", ACCEPT_STEADY_FLOOR, 20, (char *)"one more node per message" },
		{ (char *)"alpha", ACCEPT_COLD_FLOOR, 20, (char *)"one more node at start" },
	};
	struct acceptance acceptance = accepting(entries, 2);
	struct verdict verdict;

	head.info.steady_floor = 20;
	head.info.cold_floor = 20;
	head.slopes[METRIC_ALLOCATIONS].per_message = 20;
	head.slopes[METRIC_ALLOCATIONS].cold = 20;
	decide_one(&verdict, &head, &base, NULL);
	CHECK(verdict.rows[0].steady_floor == 19);
	CHECK(verdict.rows[0].breaches == (BREACH_STEADY_FLOOR | BREACH_COLD_FLOOR |
					   BREACH_STEADY_FLOOR_RAISED | BREACH_COLD_FLOOR_RAISED));
	CHECK(verdict.exit_code == GATE_EXIT_REGRESSION);
	verdict_release(&verdict);

	decide_one(&verdict, &head, &base, &acceptance);
	CHECK(verdict.rows[0].breaches == (BREACH_STEADY_FLOOR_RAISED | BREACH_COLD_FLOOR_RAISED));
	CHECK(verdict.rows[0].state == VERDICT_ACCEPTED);
	CHECK(verdict.exit_code == GATE_EXIT_PASS);
	verdict_release(&verdict);

	/* A lower floor is a note, never a breach. */
	head.info.steady_floor = 18;
	head.slopes[METRIC_ALLOCATIONS].per_message = 18;
	head.info.cold_floor = 19;
	head.slopes[METRIC_ALLOCATIONS].cold = 19;
	decide_one(&verdict, &head, &base, NULL);
	CHECK(verdict.rows[0].breaches == 0);
	CHECK(verdict.rows[0].tightened == BREACH_STEADY_FLOOR_RAISED);
	CHECK(verdict.exit_code == GATE_EXIT_PASS);
	verdict_release(&verdict);
}

/* Estimated cycles of a scenario that opts in, per message and cold. */
static void with_cycles(struct measurement *measurement, double per_message, uint64_t cold)
{
	measurement->info.gate_cycles = true;
	measurement->has[METRIC_CYCLES] = true;
	measurement->slopes[METRIC_CYCLES].per_message = per_message;
	measurement->slopes[METRIC_CYCLES].cold = cold;
}

static void verdict_should_gate_the_cycles_of_a_scenario_that_opts_in(void)
{
	struct measurement head = titled("alpha", 10000.0, 50000), base = titled("alpha", 10000.0, 50000);
	struct acceptance_entry entries[] = {
		{ (char *)"alpha", METRIC_ACCEPTANCE(METRIC_CYCLES, false), 13000.0, (char *)"a larger table" },
	};
	struct acceptance acceptance = accepting(entries, 1);
	struct verdict verdict;

	with_cycles(&head, 12300.0, 90000);
	with_cycles(&base, 12000.0, 90000);
	decide_one(&verdict, &head, &base, NULL);
	CHECK(verdict.rows[0].state == VERDICT_REGRESSED);
	CHECK(verdict.rows[0].breaches == BREACH_LIMIT(METRIC_CYCLES, false)); /* the same instructions */
	CHECK(verdict.rows[0].changes[METRIC_CYCLES][VERDICT_PER_MESSAGE] > 2.49 && verdict.rows[0].changes[METRIC_CYCLES][VERDICT_PER_MESSAGE] < 2.51);
	CHECK(verdict.exit_code == GATE_EXIT_REGRESSION);
	verdict_release(&verdict);
	decide_one(&verdict, &head, &base, &acceptance);
	CHECK(verdict.rows[0].state == VERDICT_ACCEPTED);
	CHECK(verdict.rows[0].accepted[METRIC_ACCEPTANCE(METRIC_CYCLES, false)] == &entries[0]);
	CHECK(verdict.exit_code == GATE_EXIT_PASS);
	verdict_release(&verdict);
	/* A declared limit applies to the cycles as to the instructions. */
	head.info.limit_percent = base.info.limit_percent = 3.0;
	decide_one(&verdict, &head, &base, NULL);
	CHECK(verdict.rows[0].state == VERDICT_OK);
	CHECK(verdict_limit(&verdict.rows[0], METRIC_CYCLES) == 3.0);
	verdict_release(&verdict);
	head.info.limit_percent = base.info.limit_percent = 0;
	/* Not opted in: the same figures are shown, never gated. */
	head.info.gate_cycles = base.info.gate_cycles = false;
	decide_one(&verdict, &head, &base, NULL);
	CHECK(verdict.rows[0].state == VERDICT_OK);
	verdict_release(&verdict);
}

static void verdict_should_hold_a_dropped_cycles_opt_in_to_the_baseline_s(void)
{
	struct measurement head = titled("alpha", 10000.0, 50000), base = titled("alpha", 10000.0, 50000);
	struct acceptance_entry entries[] = {
		{ (char *)"alpha", ACCEPT_GATE_CYCLES, 0, (char *)"cycles moved to another scenario" },
	};
	struct acceptance acceptance = accepting(entries, 1);
	struct verdict verdict;

	with_cycles(&base, 12000.0, 90000);
	decide_one(&verdict, &head, &base, NULL);
	CHECK(verdict.rows[0].state == VERDICT_REGRESSED);
	CHECK(verdict.rows[0].breaches == BREACH_CYCLES_UNGATED);
	CHECK(verdict.rows[0].opted_in);
	CHECK(verdict.exit_code == GATE_EXIT_REGRESSION);
	verdict_release(&verdict);
	decide_one(&verdict, &head, &base, &acceptance);
	CHECK(verdict.rows[0].state == VERDICT_ACCEPTED);
	CHECK(!verdict.rows[0].opted_in);
	verdict_release(&verdict);
}

static void verdict_should_hold_the_bytes_and_peak_floors_and_their_baseline_s(void)
{
	struct measurement head = titled("alpha", 10000.0, 50000), base = titled("alpha", 10000.0, 50000);
	struct verdict verdict;

	head.has[METRIC_BYTES] = head.has[METRIC_PEAK_BYTES] = true;
	head.slopes[METRIC_BYTES].per_message = 640;
	head.slopes[METRIC_BYTES].cold = 640;
	head.slopes[METRIC_PEAK_BYTES].cold = 700;
	head.info.floors[FLOOR_STEADY_BYTES] = 64;
	head.info.floors[FLOOR_COLD_PEAK_BYTES] = 700; /* exactly on it: holds */
	decide_one(&verdict, &head, &base, NULL);
	CHECK(verdict.rows[0].breaches == BREACH_FLOOR_OVER(FLOOR_STEADY_BYTES));
	CHECK(verdict.rows[0].state == VERDICT_REGRESSED);
	verdict_release(&verdict);
	/* Declaring no floor where the baseline declares one raises it without bound. */
	head.info.floors[FLOOR_STEADY_BYTES] = 0;
	base.info.floors[FLOOR_STEADY_BYTES] = 64;
	decide_one(&verdict, &head, &base, NULL);
	CHECK(verdict.rows[0].breaches == (BREACH_FLOOR_RAISED(FLOOR_STEADY_BYTES) |
					   BREACH_FLOOR_OVER(FLOOR_STEADY_BYTES)));
	CHECK(verdict.rows[0].floors[FLOOR_STEADY_BYTES] == 64); /* the baseline's applies */
	verdict_release(&verdict);
	/* No value covers an undeclared floor but 0, which accepts removing it. */
	head.slopes[METRIC_BYTES].per_message = 60;
	{
		struct acceptance_entry big[] = {
			{ (char *)"alpha", ACCEPT_STEADY_BYTES_FLOOR, 1e15, (char *)"no bound needed" },
		};
		struct acceptance_entry removal[] = {
			{ (char *)"alpha", ACCEPT_STEADY_BYTES_FLOOR, 0, (char *)"no bound needed" },
		};
		struct acceptance acceptance = accepting(big, 1);

		decide_one(&verdict, &head, &base, &acceptance);
		CHECK(verdict.rows[0].state == VERDICT_REGRESSED);
		CHECK(verdict.rows[0].accepted[ACCEPT_STEADY_BYTES_FLOOR] == NULL);
		verdict_release(&verdict);
		acceptance = accepting(removal, 1);
		decide_one(&verdict, &head, &base, &acceptance);
		CHECK(verdict.rows[0].state == VERDICT_ACCEPTED);
		CHECK(verdict.rows[0].accepted[ACCEPT_STEADY_BYTES_FLOOR] == &removal[0]);
		CHECK(verdict.rows[0].floors[FLOOR_STEADY_BYTES] == 0); /* the head's: none */
		verdict_release(&verdict);
		/* ... and nothing else: raising the floor is not removing it. */
		head.info.floors[FLOOR_STEADY_BYTES] = 65;
		decide_one(&verdict, &head, &base, &acceptance);
		CHECK(verdict.rows[0].state == VERDICT_REGRESSED);
		CHECK(verdict.rows[0].floors[FLOOR_STEADY_BYTES] == 64);
		verdict_release(&verdict);
	}
}

static void verdict_should_say_which_metrics_the_baseline_lacks(void)
{
	struct measurement head = titled("alpha", 10000.0, 50000), base = titled("alpha", 10000.0, 50000);
	struct verdict verdict;
	cJSON *json;
	char *lacks;

	head.has[METRIC_INSTRUCTIONS] = head.has[METRIC_ALLOCATIONS] = head.has[METRIC_BYTES] = true;
	head.has[METRIC_PEAK_BYTES] = true;
	base.has[METRIC_INSTRUCTIONS] = base.has[METRIC_ALLOCATIONS] = base.has[METRIC_BYTES] = true;
	decide_one(&verdict, &head, &base, NULL);
	CHECK(verdict.rows[0].state == VERDICT_OK);
	CHECK(verdict.rows[0].lacking == 1u << METRIC_PEAK_BYTES);
	json = verdict_to_json(&verdict);
	lacks = cJSON_PrintUnformatted(cJSON_GetObjectItemCaseSensitive(
		cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(json, "rows"), 0), "baseline_lacks"));
	CHECK_STR(lacks, "[\"peak_bytes\"]");
	cJSON_free(lacks);
	cJSON_Delete(json);
	verdict_release(&verdict);
}

static void verdict_summary_should_count_the_scenarios_that_pass(void)
{
	struct measurement head[] = { titled("alpha", 1.0, 1), titled("beta", 1.0, 1) };
	struct gate_error err = GATE_ERROR_INIT;
	struct verdict verdict;
	char summary[512];

	CHECK(verdict_decide(&verdict, head, 2, NULL, NULL, true, &err) == 0);
	verdict_summary(&verdict, summary, sizeof(summary));
	CHECK_STR(summary, "pass: 2 scenarios within their limits");
	verdict_release(&verdict);
	CHECK(verdict_decide(&verdict, head, 1, NULL, NULL, true, &err) == 0);
	verdict_summary(&verdict, summary, sizeof(summary));
	CHECK_STR(summary, "pass: 1 scenario within its limits");
	verdict_release(&verdict);
}

static void verdict_summary_should_name_what_regressed_failed_and_went_missing(void)
{
	struct measurement head[] = { titled("alpha", 10300.0, 50000), failed("broken", "crashed"),
				      titled("calm", 1.0, 1), titled("delta", 20000.0, 1) };
	struct measurement base[] = { titled("alpha", 10000.0, 50000), titled("calm", 1.0, 1),
				      titled("delta", 1.0, 1), titled("gone", 1.0, 1) };
	struct results baseline = baseline_of(base, 4);
	struct gate_error err = GATE_ERROR_INIT;
	struct verdict verdict;
	char summary[512];

	CHECK(verdict_decide(&verdict, head, 4, &baseline, NULL, true, &err) == 0);
	verdict_summary(&verdict, summary, sizeof(summary));
	CHECK_STR(summary, "fail: 2 regressed (alpha, delta), 1 failed to measure (broken), "
			   "1 missing (gone)");
	verdict_release(&verdict);

	CHECK(verdict_decide(&verdict, head, 1, &baseline, NULL, false, &err) == 0);
	verdict_summary(&verdict, summary, sizeof(summary));
	CHECK_STR(summary, "fail: 1 regressed (alpha)");
	verdict_release(&verdict);
}

static void verdict_should_name_its_states(void)
{
	CHECK_STR(verdict_state_name(VERDICT_OK), "ok");
	CHECK_STR(verdict_state_name(VERDICT_IMPROVED), "improved");
	CHECK_STR(verdict_state_name(VERDICT_REGRESSED), "regressed");
	CHECK_STR(verdict_state_name(VERDICT_ACCEPTED), "accepted");
	CHECK_STR(verdict_state_name(VERDICT_NEW), "new");
	CHECK_STR(verdict_state_name(VERDICT_MISSING), "missing");
	CHECK_STR(verdict_state_name(VERDICT_FAILED), "failed");
}

static const cJSON *row_named(const cJSON *rows, const char *name)
{
	const cJSON *row;

	cJSON_ArrayForEach(row, rows)
		if (strcmp(cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(row, "name")), name) == 0)
			return row;
	return NULL;
}

static const char *string_of(const cJSON *object, const char *key)
{
	return cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(object, key));
}

static void verdict_json_should_hold_every_row_with_its_state_and_figures(void)
{
	struct measurement head[] = { titled("alpha", 10300.0, 50000), failed("broken", "crashed"),
				      titled("fresh", 5.0, 5) };
	struct measurement base[] = { titled("alpha", 10000.0, 50000), titled("gone", 1.0, 1) };
	struct acceptance_entry entries[] = {
		{ (char *)"alpha", METRIC_ACCEPTANCE(METRIC_INSTRUCTIONS, false), 10300.0, (char *)"a signature per message" },
	};
	struct acceptance acceptance = accepting(entries, 1);
	struct results baseline = baseline_of(base, 2);
	struct gate_error err = GATE_ERROR_INIT;
	struct verdict verdict;
	const cJSON *rows, *alpha, *figures;
	cJSON *json;

	head[2].info.steady_floor = 25;
	CHECK(verdict_decide(&verdict, head, 3, &baseline, &acceptance, true, &err) == 0);
	verdict.baseline_source = "main:baselines/main.json";
	json = verdict_to_json(&verdict);
	CHECK(json != NULL);
	CHECK(cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(json, "exit_code")) == 3);
	CHECK_STR(string_of(json, "summary"), "fail: 1 failed to measure (broken), 1 missing (gone)");
	CHECK_STR(string_of(json, "baseline"), "main:baselines/main.json");
	CHECK(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(json, "compared")));
	rows = cJSON_GetObjectItemCaseSensitive(json, "rows");
	CHECK(cJSON_GetArraySize(rows) == 4);
	CHECK_STR(string_of(row_named(rows, "alpha"), "state"), "accepted");
	CHECK_STR(string_of(row_named(rows, "broken"), "state"), "failed");
	CHECK_STR(string_of(row_named(rows, "broken"), "failure"), "crashed");
	CHECK_STR(string_of(row_named(rows, "fresh"), "state"), "new");
	CHECK_STR(string_of(row_named(rows, "gone"), "state"), "missing");
	alpha = row_named(rows, "alpha");
	figures = cJSON_GetObjectItemCaseSensitive(alpha, "instructions");
	CHECK(cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(figures, "head")) == 10300.0);
	CHECK(cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(figures, "baseline")) == 10000.0);
	CHECK_STR(cJSON_GetStringValue(cJSON_GetArrayItem(
			  cJSON_GetObjectItemCaseSensitive(alpha, "breaches"), 0)), "instructions");
	CHECK(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(alpha, "accepted")) == 1);
	CHECK_STR(string_of(cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(alpha, "accepted"), 0),
			    "reason"), "a signature per message");
	CHECK(cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(row_named(rows, "fresh"),
								    "lower_steady_floor_to")) == 19.0);
	cJSON_Delete(json);
	verdict_release(&verdict);
}

/* A metric gated at a limit needs an acceptance for each figure and a breach bit of its own for
 * each: the table entry alone must not leave a rise unacceptable or two breaches on one bit. */
static void every_metric_gated_at_a_limit_should_have_acceptances_and_breach_bits(void)
{
	unsigned seen = 0;
	size_t metric;
	int figure;

	for (metric = 0; metric < METRIC_COUNT; metric++) {
		enum metric_gating gating = metric_table[metric].gating;

		for (figure = 0; figure < VERDICT_FIGURES; figure++) {
			int kind = verdict_limit_acceptance(metric, (enum verdict_figure)figure);
			uint64_t bit;

			if (gating != METRIC_LIMIT && gating != METRIC_LIMIT_OPT_IN) {
				CHECK(kind == -1);
				continue;
			}
			CHECK(metric_table[metric].limit_percent > 0);
			CHECK(kind >= 0);
			if (kind < 0)
				continue;
			bit = verdict_metric_breach((unsigned)kind);
			CHECK(bit != 0 && (bit & (bit - 1)) == 0 && (seen & bit) == 0);
			seen |= bit;
		}
	}
	CHECK(metric_table[METRIC_INSTRUCTIONS].limit_percent == VERDICT_DEFAULT_LIMIT_PERCENT);
	CHECK(verdict_limit_acceptance(METRIC_INSTRUCTIONS, VERDICT_PER_MESSAGE) == METRIC_ACCEPTANCE(METRIC_INSTRUCTIONS, false));
	CHECK(verdict_limit_acceptance(METRIC_CYCLES, VERDICT_COLD) == METRIC_ACCEPTANCE(METRIC_CYCLES, true));
}

int main(void)
{
	setvbuf(stdout, NULL, _IONBF, 0); /* keep the case lines if a sanitizer aborts */
	RUN(verdict_should_pass_a_head_exactly_at_the_limit);
	RUN(verdict_should_fail_a_head_a_thousandth_above_the_limit);
	RUN(verdict_should_fail_a_head_above_the_limit);
	RUN(verdict_should_fail_a_cold_start_above_its_limit);
	RUN(verdict_should_apply_a_declared_limit_instead_of_two_percent);
	RUN(verdict_should_fail_a_floor_breach_without_any_baseline);
	RUN(verdict_should_pass_allocations_exactly_on_the_floors_without_a_baseline);
	RUN(verdict_should_ask_to_lower_floors_above_what_was_measured);
	RUN(verdict_should_call_a_head_cheaper_by_more_than_the_limit_improved);
	RUN(verdict_should_fail_a_scenario_missing_from_the_head);
	RUN(verdict_should_leave_out_unmeasured_scenarios_of_a_partial_run);
	RUN(verdict_should_call_a_scenario_not_in_the_baseline_new);
	RUN(verdict_should_enforce_the_floors_of_a_new_scenario);
	RUN(verdict_should_fail_a_failed_measurement_with_exit_3);
	RUN(verdict_should_accept_a_regression_up_to_the_accepted_value);
	RUN(verdict_should_still_fail_a_regression_beyond_the_accepted_value);
	RUN(verdict_should_not_let_an_instruction_acceptance_pass_a_cold_breach);
	RUN(verdict_should_mark_acceptances_no_breach_needed_as_unused);
	RUN(verdict_should_say_when_head_and_baseline_used_different_message_counts);
	RUN(verdict_should_sort_its_rows_by_name);
	RUN(verdict_should_fail_a_scenario_ungated_against_a_gating_baseline_unless_accepted);
	RUN(verdict_should_apply_the_baseline_s_limit_when_a_higher_one_is_not_accepted);
	RUN(verdict_should_gate_work_outside_the_region_in_the_whole_process);
	RUN(verdict_should_hold_a_raised_floor_to_the_baseline_s_unless_accepted);
	RUN(verdict_should_not_fail_the_run_for_an_ungated_regression);
	RUN(verdict_should_gate_the_cycles_of_a_scenario_that_opts_in);
	RUN(verdict_should_hold_a_dropped_cycles_opt_in_to_the_baseline_s);
	RUN(verdict_should_hold_the_bytes_and_peak_floors_and_their_baseline_s);
	RUN(verdict_should_say_which_metrics_the_baseline_lacks);
	RUN(verdict_summary_should_count_the_scenarios_that_pass);
	RUN(verdict_summary_should_name_what_regressed_failed_and_went_missing);
	RUN(verdict_should_name_its_states);
	RUN(verdict_json_should_hold_every_row_with_its_state_and_figures);
	RUN(every_metric_gated_at_a_limit_should_have_acceptances_and_breach_bits);
	return CHECK_EXIT();
}
