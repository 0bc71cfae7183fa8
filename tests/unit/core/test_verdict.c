/* Unit tests of the verdict (docs/design.md gating rules and exit codes), on hand-made head
 * measurements and a hand-made baseline: strict limits, declared limits, floors with and without
 * a baseline, new and missing scenarios, failures, acceptances, and the summary and JSON. */
#include "check.h"
#include "json_at.h"
#include "measured.h"
#include "verdict.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

/* measured.h's (gated, N = 1000, allocations on floors of 19/19), with a title. */
static struct measurement titled(const char *name, double per_message, uint64_t cold)
{
	struct measurement measurement = measured(name, per_message, cold);

	measurement.info.title = (char *)"a scenario";
	return measurement;
}

/* Instructions per message of `per_message` from 1 to N and from N to 2N: a linear figure. */
static void linear(struct measurement *measurement, double per_message)
{
	measurement->slopes[METRIC_INSTRUCTIONS].per_message = per_message;
	measurement->slopes[METRIC_INSTRUCTIONS].per_message_early = per_message;
}

static struct measurement failed(const char *name, const char *failure)
{
	struct measurement measurement = titled(name, 0, 0);

	measurement.failed = true;
	snprintf(measurement.failure, sizeof(measurement.failure), "%s", failure);
	return measurement;
}

/* Decides one scenario's head against its baseline (or none, base NULL) and checks the row's
 * state and breaches and the exit code, failures naming the caller's line. The verdict stays in
 * *verdict for more checks, which the caller releases; with verdict NULL it is released here. */
static void decide_one_at(int line, struct verdict *verdict, const struct measurement *head,
			  struct measurement *base, const struct acceptance *acceptance,
			  enum verdict_state state, uint64_t breaches, enum gate_exit exit_code)
{
	const char *row = check_row;
	struct verdict own, *decided = verdict != NULL ? verdict : &own;
	char where[256];

	snprintf(where, sizeof(where), "%s%sdecided at line %d", row ? row : "", row ? ", " : "",
		 line);
	check_row = where;
	decide(decided, head, 1, base, base != NULL, acceptance, true);
	CHECK_U64(decided->row_count, 1);
	if (decided->row_count == 1) {
		CHECK_STR(verdict_state_name(decided->rows[0].state), verdict_state_name(state));
		CHECK_U64(decided->rows[0].breaches, breaches);
	}
	CHECK_U64(decided->exit_code, exit_code);
	check_row = row;
	if (verdict == NULL)
		verdict_release(&own);
}

#define decide_one(...) decide_one_at(__LINE__, __VA_ARGS__)

#define INSTRUCTIONS BREACH_LIMIT(METRIC_INSTRUCTIONS, false)
#define COLD_INSTRUCTIONS BREACH_LIMIT(METRIC_INSTRUCTIONS, true)

/* Whether a change in percent is the one expected, but for rounding. */
static bool changed_by(double change, double percent)
{
	return fabs(change - percent) < 1e-6;
}

/* A head of alpha against the baseline's 10000 instructions per message and 50000 cold, at the
 * default limit of 2 %. */
struct limit_case {
	const char *name;
	double per_message;
	uint64_t cold;
	enum verdict_state state;
	uint64_t breaches, improvements;
	enum gate_exit exit_code;
};

static const struct limit_case limit_cases[] = {
	{ "verdict_should_pass_a_head_exactly_at_the_limit", 10200.0, 51000, VERDICT_OK, 0, 0,
	  GATE_EXIT_PASS },
	{ "verdict_should_fail_a_head_a_thousandth_above_the_limit", 10200.001, 50000,
	  VERDICT_REGRESSED, INSTRUCTIONS, 0, GATE_EXIT_REGRESSION },
	{ "verdict_should_fail_a_head_above_the_limit", 10300.0, 50000, VERDICT_REGRESSED,
	  INSTRUCTIONS, 0, GATE_EXIT_REGRESSION },
	{ "verdict_should_fail_a_cold_start_above_its_limit", 10000.0, 51001, VERDICT_REGRESSED,
	  COLD_INSTRUCTIONS, 0, GATE_EXIT_REGRESSION },
	{ "verdict_should_call_a_head_cheaper_by_more_than_the_limit_improved", 9799.999, 50000,
	  VERDICT_IMPROVED, 0, INSTRUCTIONS, GATE_EXIT_PASS },
	{ "verdict_should_not_call_a_head_exactly_at_the_limit_below_improved", 9800.0, 50000,
	  VERDICT_OK, 0, 0, GATE_EXIT_PASS },
	{ "verdict_should_call_a_cold_start_cheaper_by_more_than_the_limit_improved", 9800.0, 48999,
	  VERDICT_IMPROVED, 0, COLD_INSTRUCTIONS, GATE_EXIT_PASS },
};

static void check_limit(const struct limit_case *row)
{
	struct measurement head = titled("alpha", row->per_message, row->cold);
	struct measurement base = titled("alpha", 10000.0, 50000);
	struct verdict verdict;

	decide_one(&verdict, &head, &base, NULL, row->state, row->breaches, row->exit_code);
	CHECK(verdict.compared);
	CHECK_U64(verdict.rows[0].improvements, row->improvements);
	CHECK(verdict.rows[0].limit_percent == VERDICT_DEFAULT_LIMIT_PERCENT);
	CHECK(changed_by(verdict.rows[0].changes[METRIC_INSTRUCTIONS][VERDICT_PER_MESSAGE],
			 (row->per_message - 10000.0) / 100.0));
	CHECK(changed_by(verdict.rows[0].changes[METRIC_INSTRUCTIONS][VERDICT_COLD],
			 ((double)row->cold - 50000.0) / 500.0));
	CHECK(verdict.rows[0].baseline == &base);
	CHECK(verdict.rows[0].head == &head);
	verdict_release(&verdict);
}

static void verdict_should_hold_instructions_to_the_limit_both_ways(void)
{
	RUN_ROWS(check_limit, limit_cases);
}

static void verdict_should_apply_a_declared_limit_instead_of_two_percent(void)
{
	struct measurement head = titled("alpha", 10400.0, 52500), base = titled("alpha", 10000.0, 50000);
	struct verdict verdict;

	head.info.limit_percent = base.info.limit_percent = 5;
	decide_one(&verdict, &head, &base, NULL, VERDICT_OK, 0, GATE_EXIT_PASS);
	CHECK(verdict.rows[0].limit_percent == 5.0);
	verdict_release(&verdict);

	linear(&head, 10500.001);
	head.slopes[METRIC_INSTRUCTIONS].cold = 52501;
	decide_one(NULL, &head, &base, NULL, VERDICT_REGRESSED, INSTRUCTIONS | COLD_INSTRUCTIONS,
		   GATE_EXIT_REGRESSION);

	/* A tighter declared limit fails what 2 % would pass, and is a note. */
	head.info.limit_percent = 0.5;
	base.info.limit_percent = 0;
	linear(&head, 10100.0);
	head.slopes[METRIC_INSTRUCTIONS].cold = 50000;
	decide_one(&verdict, &head, &base, NULL, VERDICT_REGRESSED, INSTRUCTIONS,
		   GATE_EXIT_REGRESSION);
	CHECK(verdict.rows[0].tightened == BREACH_LIMIT_RAISED);
	verdict_release(&verdict);
}

/* alpha alone, without a baseline, allocating per message and cold against floors of 19/19. */
struct floor_case {
	const char *name;
	double steady;
	uint64_t cold;
	enum verdict_state state;
	uint64_t breaches;
	enum gate_exit exit_code;
};

static const struct floor_case floor_cases[] = {
	{ "verdict_should_pass_allocations_exactly_on_the_floors_without_a_baseline", 19, 19,
	  VERDICT_OK, 0, GATE_EXIT_PASS },
	{ "verdict_should_fail_a_steady_floor_breach_without_any_baseline", 19.001, 19,
	  VERDICT_REGRESSED, BREACH_STEADY_FLOOR, GATE_EXIT_REGRESSION },
	{ "verdict_should_fail_a_cold_floor_breach_without_any_baseline", 19, 20, VERDICT_REGRESSED,
	  BREACH_COLD_FLOOR, GATE_EXIT_REGRESSION },
};

static void check_floors(const struct floor_case *row)
{
	struct measurement head = titled("alpha", 10000.0, 50000);
	struct verdict verdict;

	head.slopes[METRIC_ALLOCATIONS].per_message = row->steady;
	head.slopes[METRIC_ALLOCATIONS].cold = row->cold;
	decide_one(&verdict, &head, NULL, NULL, row->state, row->breaches, row->exit_code);
	CHECK(!verdict.compared);
	CHECK(verdict.rows[0].baseline == NULL);
	CHECK(!verdict.rows[0].steady_floor_high);
	CHECK(!verdict.rows[0].cold_floor_high);
	verdict_release(&verdict);
}

static void verdict_should_hold_the_floors_without_any_baseline(void)
{
	RUN_ROWS(check_floors, floor_cases);
}

static void verdict_should_ask_to_lower_floors_above_what_was_measured(void)
{
	struct measurement head = titled("alpha", 10000.0, 50000), base = titled("alpha", 10000.0, 50000);
	struct verdict verdict;

	head.info.steady_floor = base.info.steady_floor = 20;
	decide_one(&verdict, &head, &base, NULL, VERDICT_OK, 0, GATE_EXIT_PASS);
	CHECK(verdict.rows[0].steady_floor_high);
	CHECK(!verdict.rows[0].cold_floor_high);
	verdict_release(&verdict);

	head.info.steady_floor = base.info.steady_floor = 19;
	head.info.cold_floor = base.info.cold_floor = 25;
	decide_one(&verdict, &head, &base, NULL, VERDICT_OK, 0, GATE_EXIT_PASS);
	CHECK(!verdict.rows[0].steady_floor_high);
	CHECK(verdict.rows[0].cold_floor_high);
	verdict_release(&verdict);
}

/* The row named `name`, NULL when the verdict has none. */
static const struct verdict_row *row_of(const struct verdict *verdict, const char *name)
{
	size_t i;

	for (i = 0; i < verdict->row_count; i++)
		if (strcmp(verdict->rows[i].name, name) == 0)
			return &verdict->rows[i];
	return NULL;
}

/* The first `head_count` of a head of alpha and fresh against the first `base_count` of a
 * baseline of alpha and gone, fresh allocating `fresh_steady` per message (its floor 19): the
 * rows, and the state of the row named `row`. */
struct membership_case {
	const char *name;
	size_t head_count, base_count;
	bool whole;
	double fresh_steady;
	size_t row_count;
	const char *row;
	enum verdict_state state;
	uint64_t breaches;
	enum gate_exit exit_code;
};

static const struct membership_case membership_cases[] = {
	{ "verdict_should_fail_a_scenario_missing_from_the_head", 1, 2, true, 19, 2, "gone",
	  VERDICT_MISSING, 0, GATE_EXIT_MEASUREMENT },
	{ "verdict_should_leave_out_unmeasured_scenarios_of_a_partial_run", 1, 2, false, 19, 1,
	  "alpha", VERDICT_OK, 0, GATE_EXIT_PASS },
	{ "verdict_should_call_a_scenario_not_in_the_baseline_new", 2, 1, true, 19, 2, "fresh",
	  VERDICT_NEW, 0, GATE_EXIT_PASS },
	{ "verdict_should_enforce_the_floors_of_a_new_scenario", 2, 1, true, 20, 2, "fresh",
	  VERDICT_REGRESSED, BREACH_STEADY_FLOOR, GATE_EXIT_REGRESSION },
};

static void check_membership(const struct membership_case *row)
{
	struct measurement head[] = { titled("alpha", 10000.0, 50000), titled("fresh", 99999.0, 99999) };
	struct measurement base[] = { titled("alpha", 10000.0, 50000), titled("gone", 500.0, 900) };
	const struct verdict_row *found, *alpha;
	struct verdict verdict;

	head[1].slopes[METRIC_ALLOCATIONS].per_message = row->fresh_steady;
	decide(&verdict, head, row->head_count, base, row->base_count, NULL, row->whole);
	CHECK_U64(verdict.row_count, row->row_count);
	found = row_of(&verdict, row->row);
	alpha = row_of(&verdict, "alpha");
	CHECK(found != NULL);
	if (found != NULL) {
		CHECK_STR(verdict_state_name(found->state), verdict_state_name(row->state));
		CHECK_U64(found->breaches, row->breaches);
		CHECK((found->head == NULL) == (row->state == VERDICT_MISSING));
		CHECK(strcmp(row->row, "fresh") != 0 || found->baseline == NULL);
	}
	CHECK(alpha != NULL && alpha->state == VERDICT_OK);
	CHECK_U64(verdict.exit_code, row->exit_code);
	verdict_release(&verdict);
}

static void verdict_should_compare_the_scenarios_of_both_sides(void)
{
	RUN_ROWS(check_membership, membership_cases);
}

static void verdict_should_fail_a_failed_measurement_with_exit_3(void)
{
	struct measurement head[] = { titled("alpha", 10000.0, 50000),
				      failed("broken", "callgrind at N: exited with 1") };
	struct measurement base[] = { titled("alpha", 10000.0, 50000), titled("broken", 1.0, 1) };
	const struct verdict_row *broken;
	struct verdict verdict;

	decide(&verdict, head, 2, base, 2, NULL, true);
	broken = row_of(&verdict, "broken");
	CHECK_U64(verdict.row_count, 2);
	CHECK(broken != NULL && broken->state == VERDICT_FAILED && broken->head == &head[1]);
	CHECK(verdict.exit_code == GATE_EXIT_MEASUREMENT);
	verdict_release(&verdict);

	/* Without a baseline too. */
	decide(&verdict, head, 2, NULL, 0, NULL, true);
	CHECK(verdict.exit_code == GATE_EXIT_MEASUREMENT);
	verdict_release(&verdict);
}

/* alpha's instructions per message accepted up to `value`, for a head of 10300 against 10000. */
struct accepted_case {
	const char *name;
	double per_message, value;
	uint64_t cold;
	bool covered; /* the entry covers the rise */
	enum verdict_state state;
	uint64_t breaches;
	enum gate_exit exit_code;
};

static const struct accepted_case accepted_cases[] = {
	{ "verdict_should_accept_a_regression_up_to_the_accepted_value", 10300.0, 10300.0, 50000,
	  true, VERDICT_ACCEPTED, INSTRUCTIONS, GATE_EXIT_PASS },
	/* In use all the same: it falls short of the head, which is not the same as stale. */
	{ "verdict_should_still_fail_a_regression_beyond_the_accepted_value", 10300.001, 10300.0,
	  50000, false, VERDICT_REGRESSED, INSTRUCTIONS, GATE_EXIT_REGRESSION },
	{ "verdict_should_not_let_an_instruction_acceptance_pass_a_cold_breach", 10300.0, 99999.0,
	  60000, true, VERDICT_REGRESSED, INSTRUCTIONS | COLD_INSTRUCTIONS, GATE_EXIT_REGRESSION },
};

static void check_accepted(const struct accepted_case *row)
{
	struct measurement head = titled("alpha", row->per_message, row->cold);
	struct measurement base = titled("alpha", 10000.0, 50000);
	struct acceptance_entry entries[] = {
		{ (char *)"alpha", METRIC_ACCEPTANCE(METRIC_INSTRUCTIONS, false), row->value,
		  (char *)"a signature per message" },
	};
	struct acceptance acceptance = accepting(entries, 1);
	struct verdict verdict;

	decide_one(&verdict, &head, &base, &acceptance, row->state, row->breaches, row->exit_code);
	CHECK(verdict.rows[0].accepted[METRIC_ACCEPTANCE(METRIC_INSTRUCTIONS, false)] ==
	      (row->covered ? &entries[0] : NULL));
	CHECK(verdict.rows[0].accepted[METRIC_ACCEPTANCE(METRIC_INSTRUCTIONS, true)] == NULL);
	CHECK(verdict.acceptance_used[0]);
	CHECK(verdict.acceptance == &acceptance);
	verdict_release(&verdict);
}

static void verdict_should_accept_rises_up_to_the_accepted_value(void)
{
	RUN_ROWS(check_accepted, accepted_cases);
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
	struct verdict verdict;
	cJSON *json;

	decide(&verdict, head, 2, base, 2, &acceptance, true);
	CHECK(!verdict.acceptance_used[0]);
	CHECK(verdict.acceptance_used[1]);
	CHECK(!verdict.acceptance_used[2]);
	CHECK(!verdict.acceptance_used[3]);
	CHECK(verdict.exit_code == GATE_EXIT_PASS);
	json = verdict_to_json(&verdict);
	CHECK(cJSON_GetArraySize(json_at(json, "stale_acceptances")) == 3);
	CHECK_STR(json_string_at(json, "stale_acceptances[0].scenario"), "beta");
	CHECK_STR(json_string_at(json, "stale_acceptances[1].metric"), "cold_instructions");
	cJSON_Delete(json);
	verdict_release(&verdict);
}

static void verdict_should_say_when_head_and_baseline_used_different_message_counts(void)
{
	struct measurement head = titled("alpha", 10000.0, 50000), base = titled("alpha", 10000.0, 50000);
	struct verdict verdict;

	decide_one(&verdict, &head, &base, NULL, VERDICT_OK, 0, GATE_EXIT_PASS);
	CHECK(!verdict.messages_differ);
	verdict_release(&verdict);
	base.messages = 2000;
	decide_one(&verdict, &head, &base, NULL, VERDICT_OK, 0, GATE_EXIT_PASS);
	CHECK(verdict.messages_differ);
	verdict_release(&verdict);
}

static void verdict_should_sort_its_rows_by_name(void)
{
	struct measurement head[] = { titled("zeta", 1.0, 1), titled("alpha", 1.0, 1),
				      titled("mid", 1.0, 1) };
	struct measurement base[] = { titled("alpha", 1.0, 1), titled("beta", 1.0, 1),
				      titled("mid", 1.0, 1), titled("zeta", 1.0, 1) };
	struct verdict verdict;

	decide(&verdict, head, 3, base, 4, NULL, true);
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
	decide_one(&verdict, &head, &base, NULL, VERDICT_REGRESSED, INSTRUCTIONS, GATE_EXIT_PASS);
	CHECK_STR(verdict_row_state_text(&verdict.rows[0]), "regressed: instructions (not gated)");
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
	decide_one(&verdict, &head, &base, NULL, VERDICT_REGRESSED, INSTRUCTIONS | BREACH_UNGATED,
		   GATE_EXIT_REGRESSION);
	CHECK(verdict.rows[0].gated);
	CHECK_STR(verdict_row_state_text(&verdict.rows[0]), "regressed: instructions, settings");
	verdict_release(&verdict);

	/* Accepted: not gated any more, so its regression is shown and does not fail. */
	decide_one(&verdict, &head, &base, &acceptance, VERDICT_REGRESSED,
		   INSTRUCTIONS | BREACH_UNGATED, GATE_EXIT_PASS);
	CHECK(verdict.rows[0].accepted[ACCEPT_GATED] == &entries[0]);
	CHECK(!verdict.rows[0].gated);
	CHECK_STR(verdict_row_state_text(&verdict.rows[0]), "regressed: instructions (not gated)");
	CHECK(verdict.acceptance_used[0]);
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
	decide_one(&verdict, &head, &base, NULL, VERDICT_REGRESSED,
		   INSTRUCTIONS | BREACH_LIMIT_RAISED, GATE_EXIT_REGRESSION);
	CHECK(verdict.rows[0].limit_percent == VERDICT_DEFAULT_LIMIT_PERCENT);
	verdict_release(&verdict);

	/* Even on a scenario that is not gated, a looser setting fails. */
	linear(&head, 10000.0);
	head.info.gated = base.info.gated = false;
	decide_one(NULL, &head, &base, NULL, VERDICT_REGRESSED, BREACH_LIMIT_RAISED,
		   GATE_EXIT_REGRESSION);

	linear(&head, 19400.0);
	head.info.gated = base.info.gated = true;
	decide_one(&verdict, &head, &base, &acceptance, VERDICT_ACCEPTED, BREACH_LIMIT_RAISED,
		   GATE_EXIT_PASS);
	CHECK(verdict.rows[0].limit_percent == 500);
	verdict_release(&verdict);

	/* Above the accepted value: not accepted, and the baseline's limit applies. */
	head.info.limit_percent = 600;
	decide_one(&verdict, &head, &base, &acceptance, VERDICT_REGRESSED,
		   INSTRUCTIONS | BREACH_LIMIT_RAISED, GATE_EXIT_REGRESSION);
	CHECK(verdict.rows[0].accepted[ACCEPT_LIMIT_PERCENT] == NULL);
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
	decide_one(&verdict, &head, &base, NULL, VERDICT_REGRESSED, BREACH_PROCESS_INSTRUCTIONS,
		   GATE_EXIT_REGRESSION);
	CHECK(changed_by(verdict.rows[0].outside_change, 2.5));
	verdict_release(&verdict);

	/* Exactly at the limit passes, as for the region. */
	with_process(&head, 12240.0);
	decide_one(NULL, &head, &base, NULL, VERDICT_OK, 0, GATE_EXIT_PASS);

	/* The region's own regression is not a second breach of the whole process. */
	linear(&head, 10300.0);
	with_process(&head, 12300.0);
	decide_one(NULL, &head, &base, NULL, VERDICT_REGRESSED, INSTRUCTIONS, GATE_EXIT_REGRESSION);

	/* Accepted up to the whole process's figure. */
	linear(&head, 10000.0);
	with_process(&head, 13000.0);
	decide_one(&verdict, &head, &base, &acceptance, VERDICT_ACCEPTED, BREACH_PROCESS_INSTRUCTIONS,
		   GATE_EXIT_PASS);
	CHECK(verdict.rows[0].accepted[ACCEPT_PROCESS_INSTRUCTIONS] == &entries[0]);
	verdict_release(&verdict);

	/* A baseline without the figure (written before gate counted it): nothing to compare. */
	base.has_process = false;
	decide_one(NULL, &head, &base, NULL, VERDICT_OK, 0, GATE_EXIT_PASS);
}

/* Work moved to the exit: the head's exit instructions above the baseline's, grown with the
 * head's N (a teardown that frees every message grows with them), per message handled. */
static void verdict_should_gate_work_moved_to_the_exit_at_any_n(void)
{
	struct measurement head = titled("alpha", 10000.0, 50000), base = titled("alpha", 10000.0, 50000);
	struct verdict verdict;

	with_process(&base, 1000.0);
	base.process_exit = 5000; /* 2.5 a message handled at N = 1000 */
	with_process(&head, 1000.0);
	head.messages = 1500;
	head.slopes[METRIC_INSTRUCTIONS].per_message_early = 10000.0;
	/* Grown with N, 7500 is what the baseline's teardown allows at N = 1500. */
	head.process_exit = 7500;
	decide_one(&verdict, &head, &base, NULL, VERDICT_OK, 0, GATE_EXIT_PASS);
	CHECK(verdict.rows[0].exit_excess == 0);
	CHECK(changed_by(verdict.rows[0].process_baseline, 1002.5));
	verdict_release(&verdict);
	/* 60,000 is 17.5 a message of the 3,000 handled above it: within 2 % of 1002.5 (20.05). */
	head.process_exit = 60000;
	decide_one(NULL, &head, &base, NULL, VERDICT_OK, 0, GATE_EXIT_PASS);
	/* 100,000: 30.83 a message, above it. */
	head.process_exit = 100000;
	decide_one(&verdict, &head, &base, NULL, VERDICT_REGRESSED, BREACH_PROCESS_INSTRUCTIONS,
		   GATE_EXIT_REGRESSION);
	CHECK(fabs(verdict.rows[0].exit_excess - 92500.0 / 3000.0) < 1e-9);
	verdict_release(&verdict);
	/* At a smaller N the baseline's exit is not shrunk: a fixed teardown stays what it was. */
	head.messages = 500;
	head.process_exit = 5000;
	decide_one(NULL, &head, &base, NULL, VERDICT_OK, 0, GATE_EXIT_PASS);
}

/* Growth with the count: the slope from N to 2N above the one from 1 to N by more than the
 * baseline's, beyond the margin of half a point; a warm-up (the first messages dearer) is not
 * growth; accepted up to the growth accepted. */
static void verdict_should_fail_a_cost_that_grows_with_the_messages_handled(void)
{
	struct measurement head = titled("alpha", 10000.0, 50000), base = titled("alpha", 10000.0, 50000);
	struct acceptance_entry entries[] = {
		{ (char *)"alpha", ACCEPT_GROWTH, 1.5, (char *)"a cache that fills, on purpose" },
	};
	struct acceptance acceptance = accepting(entries, 1);
	struct verdict verdict;

	head.slopes[METRIC_INSTRUCTIONS].per_message_early = 9950.0; /* 0.5 % below: at the margin */
	decide_one(NULL, &head, &base, NULL, VERDICT_OK, 0, GATE_EXIT_PASS);
	head.slopes[METRIC_INSTRUCTIONS].per_message_early = 9900.0; /* 1 % */
	decide_one(&verdict, &head, &base, NULL, VERDICT_REGRESSED, BREACH_GROWTH,
		   GATE_EXIT_REGRESSION);
	CHECK(changed_by(verdict.rows[0].growth_head, 1.0) && verdict.rows[0].growth_baseline == 0);
	CHECK_STR(verdict_row_state_text(&verdict.rows[0]),
		  "regressed: growth with the messages handled");
	verdict_release(&verdict);
	/* The baseline grew as much already: nothing new. */
	base.slopes[METRIC_INSTRUCTIONS].per_message_early = 9940.0; /* 0.6 % */
	decide_one(NULL, &head, &base, NULL, VERDICT_OK, 0, GATE_EXIT_PASS);
	base.slopes[METRIC_INSTRUCTIONS].per_message_early = 10000.0;
	/* A warm-up: the first messages cost more; never growth. */
	head.slopes[METRIC_INSTRUCTIONS].per_message_early = 12000.0;
	decide_one(NULL, &head, &base, NULL, VERDICT_OK, 0, GATE_EXIT_PASS);
	head.slopes[METRIC_INSTRUCTIONS].per_message_early = 9900.0;
	decide_one(&verdict, &head, &base, &acceptance, VERDICT_ACCEPTED, BREACH_GROWTH,
		   GATE_EXIT_PASS);
	CHECK(verdict.rows[0].accepted[ACCEPT_GROWTH] == &entries[0]);
	verdict_release(&verdict);
}

/* With the system calls of both sides: `steady` a message (over N), `cold` in the cold run. */
static void with_syscalls(struct measurement *measurement, double steady, uint64_t cold)
{
	measurement->has[METRIC_SYSCALLS] = true;
	measurement->slopes[METRIC_SYSCALLS].per_message = steady;
	measurement->slopes[METRIC_SYSCALLS].cold = cold;
}

/* System calls: any rise over the baseline fails where no floor is declared, whatever limit the
 * scenario declares for its instructions; a declared floor holds instead, with or without a
 * baseline; across two N, a count over N is allowed one call each side. */
static void verdict_should_fail_any_rise_in_system_calls_unless_a_floor_allows_it(void)
{
	struct measurement head = titled("alpha", 10000.0, 50000), base = titled("alpha", 10000.0, 50000);
	struct acceptance_entry entries[] = {
		{ (char *)"alpha", METRIC_ACCEPTANCE(METRIC_SYSCALLS, false), 1, (char *)"a log line" },
	};
	struct acceptance acceptance = accepting(entries, 1);
	struct verdict verdict;

	with_syscalls(&base, 0, 3);
	with_syscalls(&head, 0.001, 3); /* one call in the N from N to 2N */
	head.info.limit_percent = 50;  /* the instructions' limit is not the calls' */
	base.info.limit_percent = 50;
	decide_one(&verdict, &head, &base, NULL, VERDICT_REGRESSED,
		   BREACH_LIMIT(METRIC_SYSCALLS, false), GATE_EXIT_REGRESSION);
	CHECK_STR(verdict_row_state_text(&verdict.rows[0]), "regressed: syscalls");
	verdict_release(&verdict);
	with_syscalls(&head, 0, 4);
	decide_one(NULL, &head, &base, NULL, VERDICT_REGRESSED, BREACH_LIMIT(METRIC_SYSCALLS, true),
		   GATE_EXIT_REGRESSION);
	with_syscalls(&head, 1, 3);
	decide_one(NULL, &head, &base, &acceptance, VERDICT_ACCEPTED,
		   BREACH_LIMIT(METRIC_SYSCALLS, false), GATE_EXIT_PASS);
	/* Fewer is an improvement. */
	with_syscalls(&head, 0, 2);
	decide_one(NULL, &head, &base, NULL, VERDICT_IMPROVED, 0, GATE_EXIT_PASS);
	/* A floor declared on both sides holds instead of the baseline's figure, both ways; so does
	 * one without a baseline. */
	scenario_set_floor(&head.info, "steady_syscalls", 2, NULL);
	scenario_set_floor(&base.info, "steady_syscalls", 2, NULL);
	with_syscalls(&head, 2, 3);
	decide_one(NULL, &head, &base, NULL, VERDICT_OK, 0, GATE_EXIT_PASS);
	with_syscalls(&head, 2.5, 3);
	decide_one(NULL, &head, &base, NULL, VERDICT_REGRESSED,
		   BREACH_FLOOR_OVER(METRIC_SYSCALLS, false), GATE_EXIT_REGRESSION);
	decide_one(NULL, &head, NULL, NULL, VERDICT_REGRESSED,
		   BREACH_FLOOR_OVER(METRIC_SYSCALLS, false), GATE_EXIT_REGRESSION);
	/* Where the baseline declares none it allows no rise: a change that declares a floor for the
	 * calls it adds loosens that, a breach unless accepted, and is compared as without it. */
	scenario_set_floor(&base.info, "steady_syscalls", 0, NULL);
	with_syscalls(&head, 2, 3);
	decide_one(&verdict, &head, &base, NULL, VERDICT_REGRESSED,
		   BREACH_FLOOR_RAISED(METRIC_SYSCALLS, false) | BREACH_LIMIT(METRIC_SYSCALLS, false),
		   GATE_EXIT_REGRESSION);
	CHECK(verdict.rows[0].floors[METRIC_SYSCALLS][VERDICT_PER_MESSAGE] == 0);
	verdict_release(&verdict);
	{
		struct acceptance_entry raised[] = {
			{ (char *)"alpha", METRIC_FLOOR_ACCEPTANCE(METRIC_SYSCALLS, false), 2,
			  (char *)"a log line a message" },
		};
		struct acceptance allowed = accepting(raised, 1);

		decide_one(&verdict, &head, &base, &allowed, VERDICT_ACCEPTED,
			   BREACH_FLOOR_RAISED(METRIC_SYSCALLS, false), GATE_EXIT_PASS);
		CHECK(verdict.rows[0].floors[METRIC_SYSCALLS][VERDICT_PER_MESSAGE] == 2);
		verdict_release(&verdict);
	}
	/* A floor at or below the baseline's figure is no looser. */
	with_syscalls(&base, 2, 3);
	decide_one(NULL, &head, &base, NULL, VERDICT_OK, 0, GATE_EXIT_PASS);
	with_syscalls(&base, 0, 3);
	scenario_set_floor(&head.info, "steady_syscalls", 0, NULL);
	/* Across two N: a write every 300 messages is 0.005 at N = 200 and 0.004 or 0.008 at 250,
	 * as the writes fall; within one call over each N, not a rise. Beyond it, one. */
	base.messages = 200;
	with_syscalls(&base, 0.005, 3);
	head.messages = 250;
	with_syscalls(&head, 0.008, 3);
	decide_one(NULL, &head, &base, NULL, VERDICT_OK, 0, GATE_EXIT_PASS);
	with_syscalls(&head, 0.016, 3);
	decide_one(NULL, &head, &base, NULL, VERDICT_REGRESSED, BREACH_LIMIT(METRIC_SYSCALLS, false),
		   GATE_EXIT_REGRESSION);
}

/* The allocator's instructions, at their own limit of 10 %, for as many allocations as the
 * head makes: one block more is the floors' to judge, each block's cost is this limit's. */
static void verdict_should_hold_the_allocator_to_its_own_limit_per_allocation(void)
{
	struct measurement head = titled("alpha", 10000.0, 50000), base = titled("alpha", 10000.0, 50000);
	struct verdict verdict;
	uint64_t allocator = BREACH_LIMIT(METRIC_ALLOCATOR_INSTRUCTIONS, false);

	base.has[METRIC_ALLOCATOR_INSTRUCTIONS] = head.has[METRIC_ALLOCATOR_INSTRUCTIONS] = true;
	base.slopes[METRIC_ALLOCATOR_INSTRUCTIONS].per_message = 1900; /* 100 a block */
	base.slopes[METRIC_ALLOCATOR_INSTRUCTIONS].cold = 1900;
	head.slopes[METRIC_ALLOCATOR_INSTRUCTIONS] = base.slopes[METRIC_ALLOCATOR_INSTRUCTIONS];
	head.info.limit_percent = base.info.limit_percent = 50; /* not the allocator's */
	head.slopes[METRIC_ALLOCATOR_INSTRUCTIONS].per_message = 2090; /* +10 %: at the limit */
	decide_one(NULL, &head, &base, NULL, VERDICT_OK, 0, GATE_EXIT_PASS);
	head.slopes[METRIC_ALLOCATOR_INSTRUCTIONS].per_message = 2100;
	decide_one(&verdict, &head, &base, NULL, VERDICT_REGRESSED, allocator, GATE_EXIT_REGRESSION);
	CHECK(verdict_limit(&verdict.rows[0], METRIC_ALLOCATOR_INSTRUCTIONS) == 10);
	verdict_release(&verdict);
	/* Two blocks more a message, each as dear: 2100 is within the 2310 they allow (the floor
	 * the head declares holds the blocks). */
	head.info.steady_floor = 21;
	head.slopes[METRIC_ALLOCATIONS].per_message = 21;
	decide_one(&verdict, &head, &base, NULL, VERDICT_REGRESSED,
		   BREACH_STEADY_FLOOR_RAISED | BREACH_STEADY_FLOOR, GATE_EXIT_REGRESSION);
	CHECK(verdict.rows[0].compared_with[METRIC_ALLOCATOR_INSTRUCTIONS][VERDICT_PER_MESSAGE] ==
	      2100);
	verdict_release(&verdict);
	/* A declared allocator limit applies; raising it is a setting's breach. */
	head.info.steady_floor = 19;
	head.slopes[METRIC_ALLOCATIONS].per_message = 19;
	head.slopes[METRIC_ALLOCATOR_INSTRUCTIONS].per_message = 2400;
	head.info.allocator_limit_percent = 30;
	decide_one(NULL, &head, &base, NULL, VERDICT_REGRESSED,
		   allocator | BREACH_ALLOCATOR_LIMIT_RAISED, GATE_EXIT_REGRESSION);
	base.info.allocator_limit_percent = 30;
	decide_one(NULL, &head, &base, NULL, VERDICT_OK, 0, GATE_EXIT_PASS);
	/* The baseline allocated nothing a message, the head does: nothing to scale, not compared. */
	base.slopes[METRIC_ALLOCATIONS].per_message = 0;
	base.info.steady_floor = 0;
	base.slopes[METRIC_ALLOCATOR_INSTRUCTIONS].per_message = 0;
	head.info.steady_floor = 0;
	head.slopes[METRIC_ALLOCATIONS].per_message = 0;
	decide_one(NULL, &head, &base, NULL, VERDICT_REGRESSED, allocator, GATE_EXIT_REGRESSION);
	head.info.steady_floor = 1;
	head.slopes[METRIC_ALLOCATIONS].per_message = 1;
	decide_one(&verdict, &head, &base, NULL, VERDICT_REGRESSED,
		   BREACH_STEADY_FLOOR_RAISED | BREACH_STEADY_FLOOR, GATE_EXIT_REGRESSION);
	CHECK(verdict.rows[0].unscaled != 0);
	verdict_release(&verdict);
}

/* A looser linearity limit than the baseline's is a breach unless accepted, like the others. */
static void verdict_should_hold_a_raised_linearity_limit_to_the_baseline_s(void)
{
	struct measurement head = titled("alpha", 10000.0, 50000), base = titled("alpha", 10000.0, 50000);
	struct acceptance_entry entries[] = {
		{ (char *)"alpha", ACCEPT_LINEARITY_PERCENT, 20, (char *)"a cache fills, on purpose" },
	};
	struct acceptance acceptance = accepting(entries, 1);
	struct verdict verdict;

	head.info.linearity_percent = 5; /* the default, declared */
	decide_one(NULL, &head, &base, NULL, VERDICT_OK, 0, GATE_EXIT_PASS);
	head.info.linearity_percent = 20;
	decide_one(&verdict, &head, &base, NULL, VERDICT_REGRESSED, BREACH_LINEARITY_RAISED,
		   GATE_EXIT_REGRESSION);
	CHECK_STR(verdict_row_state_text(&verdict.rows[0]), "regressed: settings");
	verdict_release(&verdict);
	decide_one(NULL, &head, &base, &acceptance, VERDICT_ACCEPTED, BREACH_LINEARITY_RAISED,
		   GATE_EXIT_PASS);
	head.info.linearity_percent = 2;
	decide_one(&verdict, &head, &base, NULL, VERDICT_OK, 0, GATE_EXIT_PASS);
	CHECK(verdict.rows[0].tightened == BREACH_LINEARITY_RAISED);
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
	decide_one(&verdict, &head, &base, NULL, VERDICT_REGRESSED,
		   BREACH_STEADY_FLOOR | BREACH_COLD_FLOOR | BREACH_STEADY_FLOOR_RAISED |
		   BREACH_COLD_FLOOR_RAISED, GATE_EXIT_REGRESSION);
	CHECK(verdict.rows[0].steady_floor == 19);
	verdict_release(&verdict);

	decide_one(NULL, &head, &base, &acceptance, VERDICT_ACCEPTED,
		   BREACH_STEADY_FLOOR_RAISED | BREACH_COLD_FLOOR_RAISED, GATE_EXIT_PASS);

	/* A lower floor is a note, never a breach. */
	head.info.steady_floor = 18;
	head.slopes[METRIC_ALLOCATIONS].per_message = 18;
	head.info.cold_floor = 19;
	head.slopes[METRIC_ALLOCATIONS].cold = 19;
	decide_one(&verdict, &head, &base, NULL, VERDICT_OK, 0, GATE_EXIT_PASS);
	CHECK(verdict.rows[0].tightened == BREACH_STEADY_FLOOR_RAISED);
	verdict_release(&verdict);
}

/* Estimated cycles of a scenario that opts in, per message and cold. */
static void with_cycles(struct measurement *measurement, double per_message, uint64_t cold)
{
	scenario_set_gate_metric(&measurement->info, "cycles", true, NULL);
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
	/* The same instructions: the cycles alone. */
	decide_one(&verdict, &head, &base, NULL, VERDICT_REGRESSED, BREACH_LIMIT(METRIC_CYCLES, false),
		   GATE_EXIT_REGRESSION);
	CHECK(changed_by(verdict.rows[0].changes[METRIC_CYCLES][VERDICT_PER_MESSAGE], 2.5));
	verdict_release(&verdict);
	decide_one(&verdict, &head, &base, &acceptance, VERDICT_ACCEPTED,
		   BREACH_LIMIT(METRIC_CYCLES, false), GATE_EXIT_PASS);
	CHECK(verdict.rows[0].accepted[METRIC_ACCEPTANCE(METRIC_CYCLES, false)] == &entries[0]);
	verdict_release(&verdict);
	/* A declared limit applies to the cycles as to the instructions. */
	head.info.limit_percent = base.info.limit_percent = 3.0;
	decide_one(&verdict, &head, &base, NULL, VERDICT_OK, 0, GATE_EXIT_PASS);
	CHECK(verdict_limit(&verdict.rows[0], METRIC_CYCLES) == 3.0);
	verdict_release(&verdict);
	head.info.limit_percent = base.info.limit_percent = 0;
	/* Not opted in: the same figures are shown, never gated. */
	scenario_set_gate_metric(&head.info, "cycles", false, NULL);
	scenario_set_gate_metric(&base.info, "cycles", false, NULL);
	decide_one(NULL, &head, &base, NULL, VERDICT_OK, 0, GATE_EXIT_PASS);
}

static void verdict_should_hold_a_dropped_cycles_opt_in_to_the_baseline_s(void)
{
	struct measurement head = titled("alpha", 10000.0, 50000), base = titled("alpha", 10000.0, 50000);
	struct acceptance_entry entries[] = {
		{ (char *)"alpha", METRIC_KIND(METRIC_CYCLES, METRIC_KIND_GATE), 0, (char *)"cycles moved to another scenario" },
	};
	struct acceptance acceptance = accepting(entries, 1);
	struct verdict verdict;

	with_cycles(&base, 12000.0, 90000);
	decide_one(&verdict, &head, &base, NULL, VERDICT_REGRESSED, BREACH_METRIC_UNGATED(METRIC_CYCLES),
		   GATE_EXIT_REGRESSION);
	CHECK(verdict.rows[0].opted_in);
	verdict_release(&verdict);
	decide_one(&verdict, &head, &base, &acceptance, VERDICT_ACCEPTED, BREACH_METRIC_UNGATED(METRIC_CYCLES),
		   GATE_EXIT_PASS);
	CHECK(!verdict.rows[0].opted_in);
	verdict_release(&verdict);
}

static void verdict_should_hold_the_bytes_and_peak_floors_and_their_baseline_s(void)
{
	struct measurement head = titled("alpha", 10000.0, 50000), base = titled("alpha", 10000.0, 50000);
	struct acceptance_entry big[] = {
		{ (char *)"alpha", METRIC_FLOOR_ACCEPTANCE(METRIC_BYTES, false), 1e15, (char *)"no bound needed" },
	};
	struct acceptance_entry removal[] = {
		{ (char *)"alpha", METRIC_FLOOR_ACCEPTANCE(METRIC_BYTES, false), 0, (char *)"no bound needed" },
	};
	struct acceptance accepting_big = accepting(big, 1), accepting_removal = accepting(removal, 1);
	struct verdict verdict;

	head.has[METRIC_BYTES] = head.has[METRIC_PEAK_BYTES] = true;
	head.slopes[METRIC_BYTES].per_message = 640;
	head.slopes[METRIC_BYTES].cold = 640;
	head.slopes[METRIC_PEAK_BYTES].cold = 700;
	scenario_set_floor(&head.info, "steady_bytes", 64, NULL);
	scenario_set_floor(&head.info, "cold_peak_bytes", 700, NULL); /* exactly on it: holds */
	decide_one(NULL, &head, &base, NULL, VERDICT_REGRESSED, BREACH_FLOOR_OVER(METRIC_BYTES, false),
		   GATE_EXIT_REGRESSION);
	/* Declaring no floor where the baseline declares one raises it without bound. */
	scenario_set_floor(&head.info, "steady_bytes", 0, NULL);
	scenario_set_floor(&base.info, "steady_bytes", 64, NULL);
	decide_one(&verdict, &head, &base, NULL, VERDICT_REGRESSED,
		   BREACH_FLOOR_RAISED(METRIC_BYTES, false) | BREACH_FLOOR_OVER(METRIC_BYTES, false),
		   GATE_EXIT_REGRESSION);
	CHECK(verdict.rows[0].floors[METRIC_BYTES][VERDICT_PER_MESSAGE] == 64); /* the baseline's applies */
	verdict_release(&verdict);
	/* No value covers an undeclared floor but 0, which accepts removing it. */
	head.slopes[METRIC_BYTES].per_message = 60;
	decide_one(&verdict, &head, &base, &accepting_big, VERDICT_REGRESSED,
		   BREACH_FLOOR_RAISED(METRIC_BYTES, false), GATE_EXIT_REGRESSION);
	CHECK(verdict.rows[0].accepted[METRIC_FLOOR_ACCEPTANCE(METRIC_BYTES, false)] == NULL);
	verdict_release(&verdict);
	decide_one(&verdict, &head, &base, &accepting_removal, VERDICT_ACCEPTED,
		   BREACH_FLOOR_RAISED(METRIC_BYTES, false), GATE_EXIT_PASS);
	CHECK(verdict.rows[0].accepted[METRIC_FLOOR_ACCEPTANCE(METRIC_BYTES, false)] == &removal[0]);
	CHECK(verdict.rows[0].floors[METRIC_BYTES][VERDICT_PER_MESSAGE] == 0); /* the head's: none */
	verdict_release(&verdict);
	/* ... and nothing else: raising the floor is not removing it. */
	scenario_set_floor(&head.info, "steady_bytes", 65, NULL);
	decide_one(&verdict, &head, &base, &accepting_removal, VERDICT_REGRESSED,
		   BREACH_FLOOR_RAISED(METRIC_BYTES, false), GATE_EXIT_REGRESSION);
	CHECK(verdict.rows[0].floors[METRIC_BYTES][VERDICT_PER_MESSAGE] == 64);
	verdict_release(&verdict);
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
	decide_one(&verdict, &head, &base, NULL, VERDICT_OK, 0, GATE_EXIT_PASS);
	CHECK(verdict.rows[0].lacking == 1u << METRIC_PEAK_BYTES);
	json = verdict_to_json(&verdict);
	lacks = cJSON_PrintUnformatted(json_at(json, "rows[0].baseline_lacks"));
	CHECK_STR(lacks, "[\"peak_bytes\"]");
	cJSON_free(lacks);
	cJSON_Delete(json);
	verdict_release(&verdict);
}

/* The summary line of deciding the first `head_count` of `head` against `base`. */
static void check_summary(const struct measurement *head, size_t head_count,
			  struct measurement *base, size_t base_count, bool whole, const char *summary)
{
	struct verdict verdict;
	char text[512];

	decide(&verdict, head, head_count, base, base_count, NULL, whole);
	verdict_summary(&verdict, text, sizeof(text));
	CHECK_STR(text, summary);
	verdict_release(&verdict);
}

static void verdict_summary_should_count_the_scenarios_that_pass(void)
{
	struct measurement head[] = { titled("alpha", 1.0, 1), titled("beta", 1.0, 1) };

	check_summary(head, 2, NULL, 0, true, "pass: 2 scenarios within their limits");
	check_summary(head, 1, NULL, 0, true, "pass: 1 scenario within its limits");
}

static void verdict_summary_should_name_what_regressed_failed_and_went_missing(void)
{
	struct measurement head[] = { titled("alpha", 10300.0, 50000), failed("broken", "crashed"),
				      titled("calm", 1.0, 1), titled("delta", 20000.0, 1) };
	struct measurement base[] = { titled("alpha", 10000.0, 50000), titled("calm", 1.0, 1),
				      titled("delta", 1.0, 1), titled("gone", 1.0, 1) };

	check_summary(head, 4, base, 4, true, "fail: 2 regressed (alpha, delta), 1 failed to measure "
					      "(broken), 1 missing (gone)");
	check_summary(head, 1, base, 4, false, "fail: 1 regressed (alpha)");
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

/* The row of the verdict's JSON named `name`, NULL when it has none. */
static const cJSON *row_named(const cJSON *json, const char *name)
{
	const cJSON *row;

	cJSON_ArrayForEach(row, json_at(json, "rows"))
		if (strcmp(json_string_at(row, "name"), name) == 0)
			return row;
	return NULL;
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
	struct verdict verdict;
	const cJSON *alpha;
	cJSON *json;

	head[2].info.steady_floor = 25;
	decide(&verdict, head, 3, base, 2, &acceptance, true);
	verdict.baseline_source = "main:baselines/main.json";
	json = verdict_to_json(&verdict);
	CHECK(json != NULL);
	CHECK(json_number_at(json, "exit_code") == 3);
	CHECK_STR(json_string_at(json, "summary"), "fail: 1 failed to measure (broken), 1 missing (gone)");
	CHECK_STR(json_string_at(json, "baseline"), "main:baselines/main.json");
	CHECK(cJSON_IsTrue(json_at(json, "compared")));
	CHECK(cJSON_GetArraySize(json_at(json, "rows")) == 4);
	CHECK_STR(json_string_at(row_named(json, "alpha"), "state"), "accepted");
	CHECK_STR(json_string_at(row_named(json, "broken"), "state"), "failed");
	CHECK_STR(json_string_at(row_named(json, "broken"), "failure"), "crashed");
	CHECK_STR(json_string_at(row_named(json, "fresh"), "state"), "new");
	CHECK_STR(json_string_at(row_named(json, "gone"), "state"), "missing");
	alpha = row_named(json, "alpha");
	CHECK(json_number_at(alpha, "instructions.head") == 10300.0);
	CHECK(json_number_at(alpha, "instructions.baseline") == 10000.0);
	CHECK_STR(json_string_at(alpha, "breaches[0]"), "instructions");
	CHECK(cJSON_GetArraySize(json_at(alpha, "accepted")) == 1);
	CHECK_STR(json_string_at(alpha, "accepted[0].reason"), "a signature per message");
	CHECK(json_number_at(row_named(json, "fresh"), "lower_steady_floor_to") == 19.0);
	cJSON_Delete(json);
	verdict_release(&verdict);
}

/* A metric gated at a limit needs an acceptance for each figure and a breach bit of its own for
 * each: the table entry alone must not leave a rise unacceptable or two breaches on one bit. */
static void every_metric_gated_at_a_limit_should_have_acceptances_and_breach_bits(void)
{
	uint64_t seen = 0;
	size_t metric;
	int figure;

	for (metric = 0; metric < METRIC_COUNT; metric++) {
		enum metric_gating gating = metric_table[metric].gating;

		for (figure = 0; figure < VERDICT_FIGURES; figure++) {
			int kind = verdict_limit_acceptance(metric, (enum verdict_figure)figure);
			uint64_t bit;

			if (!metric_compares(metric)) {
				CHECK(kind == -1);
				continue;
			}
			/* A rise is any rise: its limit is 0, every other one's is above. */
			CHECK(gating == METRIC_RISE ? metric_table[metric].limit_percent == 0
						    : metric_table[metric].limit_percent > 0);
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
	return RUN_CASES(verdict_should_hold_instructions_to_the_limit_both_ways,
			 verdict_should_gate_work_moved_to_the_exit_at_any_n,
			 verdict_should_fail_a_cost_that_grows_with_the_messages_handled,
			 verdict_should_fail_any_rise_in_system_calls_unless_a_floor_allows_it,
			 verdict_should_hold_the_allocator_to_its_own_limit_per_allocation,
			 verdict_should_hold_a_raised_linearity_limit_to_the_baseline_s,
			 verdict_should_apply_a_declared_limit_instead_of_two_percent,
			 verdict_should_hold_the_floors_without_any_baseline,
			 verdict_should_ask_to_lower_floors_above_what_was_measured,
			 verdict_should_compare_the_scenarios_of_both_sides,
			 verdict_should_fail_a_failed_measurement_with_exit_3,
			 verdict_should_accept_rises_up_to_the_accepted_value,
			 verdict_should_mark_acceptances_no_breach_needed_as_unused,
			 verdict_should_say_when_head_and_baseline_used_different_message_counts,
			 verdict_should_sort_its_rows_by_name,
			 verdict_should_fail_a_scenario_ungated_against_a_gating_baseline_unless_accepted,
			 verdict_should_apply_the_baseline_s_limit_when_a_higher_one_is_not_accepted,
			 verdict_should_gate_work_outside_the_region_in_the_whole_process,
			 verdict_should_hold_a_raised_floor_to_the_baseline_s_unless_accepted,
			 verdict_should_not_fail_the_run_for_an_ungated_regression,
			 verdict_should_gate_the_cycles_of_a_scenario_that_opts_in,
			 verdict_should_hold_a_dropped_cycles_opt_in_to_the_baseline_s,
			 verdict_should_hold_the_bytes_and_peak_floors_and_their_baseline_s,
			 verdict_should_say_which_metrics_the_baseline_lacks,
			 verdict_summary_should_count_the_scenarios_that_pass,
			 verdict_summary_should_name_what_regressed_failed_and_went_missing,
			 verdict_should_name_its_states,
			 verdict_json_should_hold_every_row_with_its_state_and_figures,
			 every_metric_gated_at_a_limit_should_have_acceptances_and_breach_bits);
}
