/* Unit tests of the terminal table, printed to memory from verdicts decided on hand-made
 * measurements: the header, sorted rows, exact figures, "-" for what was not measured, and the
 * notes that say why, down to the summary line. */
#define _GNU_SOURCE
#include "check.h"
#include "measured.h"
#include "table.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* measured.h's, with bytes. */
static struct measurement with_bytes(const char *name, double per_message, uint64_t cold)
{
	struct measurement measurement = measured(name, per_message, cold);

	measurement.slopes[METRIC_BYTES].per_message = 1234.5;
	measurement.slopes[METRIC_BYTES].cold = 5000;
	measurement.has[METRIC_BYTES] = true;
	return measurement;
}

/* The table of `verdict` as text (owned). */
static char *print(const struct verdict *verdict)
{
	struct printed printed;

	table_print(print_to(&printed), verdict, "make baseline");
	return printed_text(&printed);
}

/* Line `index` (0-based) of text, copied into line; "" past the end. */
static const char *line_of(const char *text, size_t index, char *line, size_t line_size)
{
	const char *start = text, *end;

	while (index-- > 0 && start != NULL) {
		start = strchr(start, '\n');
		if (start != NULL)
			start++;
	}
	line[0] = '\0';
	if (start == NULL)
		return line;
	end = strchr(start, '\n');
	snprintf(line, line_size, "%.*s", (int)(end ? end - start : (long)strlen(start)), start);
	return line;
}

/* The last non-empty line. */
static const char *last_line(const char *text, char *line, size_t line_size)
{
	size_t length = strlen(text);
	const char *start;

	while (length > 0 && text[length - 1] == '\n')
		length--;
	start = text + length;
	while (start > text && start[-1] != '\n')
		start--;
	snprintf(line, line_size, "%.*s", (int)(text + length - start), start);
	return line;
}

/* Four head scenarios (given out of order), one failed, one new, and one missing. */
struct example {
	struct measurement head[4];
	struct measurement base[4];
	struct verdict verdict;
};

static void decide_example(struct example *example)
{
	example->head[0] = with_bytes("zeta", 10300, 50000);
	example->head[1] = with_bytes("alpha", 10000, 50000);
	example->head[2] = with_bytes("broken", 0, 0);
	example->head[3] = with_bytes("fresh", 5, 5);
	example->head[2].failed = true;
	snprintf(example->head[2].failure, sizeof(example->head[2].failure),
		 "callgrind at N: exited with 1");
	example->base[0] = with_bytes("alpha", 10000, 50000);
	example->base[1] = with_bytes("broken", 1, 1);
	example->base[2] = with_bytes("gone", 1, 1);
	example->base[3] = with_bytes("zeta", 10000, 50000);
	decide(&example->verdict, example->head, 4, example->base, 4, NULL, true);
	example->verdict.baseline_source = "main:baselines/main.json";
}

/* `head` decided against a baseline of `base` (none when NULL) with `acceptance` (or NULL), and
 * its table; table_done releases both. */
struct table_run {
	struct verdict verdict;
	char *text;
};

static char *table_against(struct table_run *run, struct measurement *head, size_t head_count,
			   struct measurement *base, size_t base_count,
			   const struct acceptance *acceptance)
{
	decide(&run->verdict, head, head_count, base, base_count, acceptance, true);
	run->text = print(&run->verdict);
	return run->text;
}

static void table_done(struct table_run *run)
{
	free(run->text);
	verdict_release(&run->verdict);
}

/* The example's table, decided and printed; example_done releases both. */
static char *example_table(struct example *example)
{
	decide_example(example);
	return print(&example->verdict);
}

static void example_done(struct example *example, char *text)
{
	free(text);
	verdict_release(&example->verdict);
}

/* What the example's table shows: line `line` whole (the last one when LAST), or `text`
 * anywhere when line is ANYWHERE. */
struct shown {
	const char *name;
	int line;
	const char *text;
};

#define ANYWHERE (-1)
#define LAST (-2)

static const struct shown shown_in_the_example[] = {
	{ "table_should_print_the_columns_of_a_comparison", 0,
	  "scenario  instr/msg   baseline   change  cold instr  baseline   change  alloc/msg  "
	  "bytes/msg  cold alloc  floors msg/cold  state" },
	{ "table_should_print_a_row_of_figures_and_their_baseline", 1,
	  "alpha     10000.000  10000.000  +0.00 %       50000     50000  +0.00 %     19.000   "
	  "1234.500          19            19/19  ok" },
	{ "table_should_print_dashes_for_a_failed_scenario", 2,
	  "broken            -          -        -           -         -        -          -  "
	  "        -           -                -  failed" },
	{ "table_should_print_dashes_for_a_missing_scenario", 4,
	  "gone              -          -        -           -         -        -          -  "
	  "        -           -                -  missing" },
	{ "table_should_say_why_a_scenario_failed", ANYWHERE,
	  "\nbroken: failed to measure: callgrind at N: exited with 1\n" },
	{ "table_should_say_a_scenario_went_missing", ANYWHERE,
	  "\ngone: in the baseline but not measured: the scenario is missing\n" },
	{ "table_should_show_both_figures_and_the_change_of_a_breach", ANYWHERE,
	  "\nzeta: 10300.000 instructions per message against 10000.000 in the baseline: +3.00 %, "
	  "above the 2 % limit\n" },
	{ "table_should_name_the_baseline", ANYWHERE, "\nbaseline: main:baselines/main.json\n" },
	{ "table_should_call_a_scenario_the_baseline_lacks_new", ANYWHERE,
	  "\nfresh: new: not in the baseline" },
	{ "table_should_end_with_the_summary", LAST,
	  "fail: 1 regressed (zeta), 1 failed to measure (broken), 1 missing (gone)" },
};

static void check_shown(const struct shown *row)
{
	struct example example;
	char *text, line[512];

	decide_example(&example);
	text = print(&example.verdict);
	if (row->line == ANYWHERE)
		CHECK_CONTAINS(text, row->text);
	else if (row->line == LAST)
		CHECK_STR(last_line(text, line, sizeof(line)), row->text);
	else
		CHECK_STR(line_of(text, (size_t)row->line, line, sizeof(line)), row->text);
	example_done(&example, text);
}

static void table_should_show_the_example(void)
{
	RUN_ROWS(check_shown, shown_in_the_example);
}

static void table_should_print_the_columns_without_a_baseline(void)
{
	struct measurement head[] = { with_bytes("alpha", 17312, 23632) };
	struct table_run run;
	char *text = table_against(&run, head, 1, NULL, 0, NULL), line[512];

	CHECK_STR(line_of(text, 0, line, sizeof(line)),
		  "scenario  instr/msg  alloc/msg  bytes/msg  cold instr  cold alloc  floors msg/cold  state");
	CHECK_STR(line_of(text, 1, line, sizeof(line)),
		  "alpha     17312.000     19.000   1234.500       23632          19            19/19  ok");
	CHECK_STR(line_of(text, 2, line, sizeof(line)), "pass: 1 scenario within its limits");
	CHECK_STR(line_of(text, 3, line, sizeof(line)), "");
	table_done(&run);
}

static void table_should_sort_its_rows_by_name(void)
{
	struct example example;
	static const char *const names[] = { "alpha ", "broken ", "fresh ", "gone ", "zeta " };
	char *text, line[512];
	size_t i;

	text = example_table(&example);
	for (i = 0; i < 5; i++)
		CHECK(strncmp(line_of(text, i + 1, line, sizeof(line)), names[i], strlen(names[i])) == 0);
	example_done(&example, text);
}

/* The summary the verdict gives, on a line of its own. */
static void table_should_end_with_the_summary_of_the_verdict(void)
{
	struct example example;
	char *text, line[512], summary[512];

	text = example_table(&example);
	verdict_summary(&example.verdict, summary, sizeof(summary));
	CHECK_STR(last_line(text, line, sizeof(line)), summary);
	CHECK(text[strlen(text) - 1] == '\n');
	example_done(&example, text);
}

static void table_should_explain_cold_and_floor_breaches(void)
{
	struct measurement head[] = { with_bytes("alpha", 10000, 51500) };
	struct measurement base[] = { with_bytes("alpha", 10000, 50000) };
	struct table_run run;
	char *text;

	head[0].slopes[METRIC_ALLOCATIONS].per_message = 19.5;
	head[0].slopes[METRIC_ALLOCATIONS].cold = 21;
	text = table_against(&run, head, 1, base, 1, NULL);
	CHECK_CONTAINS(text, "\nalpha: 51500 cold instructions against 50000 in the baseline: "
			     "+3.00 %, above the 2 % limit\n");
	CHECK_CONTAINS(text, "\nalpha: 19.500 allocations per message, above the declared floor of 19\n");
	CHECK_CONTAINS(text, "\nalpha: 21 allocations in the cold run, above the declared floor of 19\n");
	table_done(&run);
}

static void table_should_name_settings_looser_and_stricter_than_the_baseline(void)
{
	struct measurement head[] = { with_bytes("alpha", 19000, 50000), with_bytes("beta", 10000, 50000) };
	struct measurement base[] = { with_bytes("alpha", 10000, 50000), with_bytes("beta", 10000, 50000) };
	struct table_run run;
	char *text;

	head[0].info.gated = false;
	head[0].info.limit_percent = 500;
	head[0].info.steady_floor = 20;
	head[0].info.cold_floor = 21;
	head[1].info.limit_percent = 1;
	head[1].info.steady_floor = 19;
	base[1].info.gated = false;
	head[1].slopes[METRIC_ALLOCATIONS].per_message = 18;
	head[1].info.steady_floor = 18;
	text = table_against(&run, head, 2, base, 2, NULL);
	CHECK_CONTAINS(text, "\nalpha: not gated, but the baseline gates it: loosening a setting is a "
			     "breach unless accepted (metric 'gated', value 0)\n");
	CHECK_CONTAINS(text, "\nalpha: the instruction limit 500 % is above the baseline's 2 %: loosening "
			     "a setting is a breach unless accepted (metric 'limit_percent')\n");
	CHECK_CONTAINS(text, "\nalpha: the steady floor 20 is above the baseline's 19: loosening a "
			     "setting is a breach unless accepted (metric 'steady_allocations_floor')\n");
	CHECK_CONTAINS(text, "\nalpha: the cold floor 21 is above the baseline's 19: loosening a "
			     "setting is a breach unless accepted (metric 'cold_allocations_floor')\n");
	CHECK_CONTAINS(text, "\nalpha: 19000.000 instructions per message against 10000.000 in the "
			     "baseline: +90.00 %, above the 2 % limit\n");
	CHECK_CONTAINS(text, "\nbeta: note: gated now (the baseline's is not)\n");
	CHECK_CONTAINS(text, "\nbeta: note: the instruction limit is now 1 % (the baseline's: 2 %)\n");
	CHECK_CONTAINS(text, "\nbeta: note: the steady floor is now 18 (the baseline's: 19)\n");
	CHECK_CONTAINS(text, "\nfail: 1 regressed (alpha)\n");
	table_done(&run);
}

static void table_should_show_an_ungated_regression_as_not_gated_and_not_within_limits(void)
{
	struct measurement head[] = { with_bytes("alpha", 19000, 50000), with_bytes("beta", 10000, 50000) };
	struct measurement base[] = { with_bytes("alpha", 10000, 50000), with_bytes("beta", 10000, 50000) };
	struct table_run run;
	char *text;

	head[0].info.gated = base[0].info.gated = false;
	text = table_against(&run, head, 2, base, 2, NULL);
	CHECK(run.verdict.exit_code == GATE_EXIT_PASS);
	CHECK_CONTAINS(text, "  regressed: instructions (not gated)\n");
	CHECK_CONTAINS(text, "\npass: 1 of 2 scenarios within their limits, 1 regressed, not gated "
			     "(alpha)\n");
	CHECK(strstr(text, "pass: 2 scenarios within their limits") == NULL);
	table_done(&run);
}

static void table_should_show_acceptances_floors_to_lower_and_improvements(void)
{
	struct measurement head[] = { with_bytes("alpha", 10300, 50000), with_bytes("beta", 9000, 50000) };
	struct measurement base[] = { with_bytes("alpha", 10000, 50000), with_bytes("beta", 10000, 50000) };
	struct acceptance_entry entries[] = {
		{ (char *)"alpha", METRIC_ACCEPTANCE(METRIC_INSTRUCTIONS, false), 10400, (char *)"a signature per message" },
		{ (char *)"gone", METRIC_ACCEPTANCE(METRIC_INSTRUCTIONS, true), 777, (char *)"long ago" },
	};
	struct acceptance acceptance = accepting(entries, 2);
	struct table_run run;
	char *text;

	head[1].info.steady_floor = base[1].info.steady_floor = 20;
	head[1].info.cold_floor = base[1].info.cold_floor = 25;
	base[0].messages = base[1].messages = 2000;
	text = table_against(&run, head, 2, base, 2, &acceptance);
	CHECK_CONTAINS(text, "\nalpha: accepted up to 10400 instructions per message: a signature per "
			     "message (baselines/accepted.json)\n");
	CHECK_CONTAINS(text, "\nbeta: the steady floor 20 is above the measured 19.000 allocations per "
			     "message: lower it in this change\n");
	CHECK_CONTAINS(text, "\nbeta: the cold floor 25 is above the measured 19 allocations: lower it "
			     "in this change\n");
	CHECK_CONTAINS(text, "\nbeta: improved: instructions per message -10.00 % against the "
			     "baseline, beyond the 2 % limit: refresh the baseline (make baseline)\n");
	CHECK_CONTAINS(text, "\nwarning: the acceptance of gone cold_instructions up to 777 in "
			     "baselines/accepted.json is stale");
	CHECK_CONTAINS(text, "different message counts (baseline N = 2000)");
	CHECK_CONTAINS(text, "  accepted: instructions\n");
	CHECK_CONTAINS(text, "  improved: instructions\n");
	table_done(&run);
}

/* An optional floor the head no longer declares: the breach names value 0, and an acceptance
 * of 0 is shown as what it accepts. A raised one names the metric alone. */
static void table_should_name_a_dropped_or_raised_optional_floor(void)
{
	struct measurement head[] = { with_bytes("alpha", 10000, 50000), with_bytes("beta", 10000, 50000) };
	struct measurement base[] = { with_bytes("alpha", 10000, 50000), with_bytes("beta", 10000, 50000) };
	struct acceptance_entry entries[] = {
		{ (char *)"beta", METRIC_FLOOR_ACCEPTANCE(METRIC_BYTES, false), 0, (char *)"bytes vary with the input" },
	};
	struct acceptance acceptance = accepting(entries, 1);
	struct table_run run;
	char *text;

	scenario_set_floor(&base[0].info, "steady_bytes", 2000, NULL);
	scenario_set_floor(&base[1].info, "steady_bytes", 2000, NULL);
	scenario_set_floor(&base[0].info, "cold_bytes", 6000, NULL);
	scenario_set_floor(&head[0].info, "cold_bytes", 7000, NULL);
	text = table_against(&run, head, 2, base, 2, &acceptance);
	CHECK_CONTAINS(text, "\nalpha: the floor 'steady_bytes' is no longer declared (the baseline's: "
			     "2000): loosening a setting is a breach unless accepted (metric "
			     "'steady_bytes_floor', value 0)\n");
	CHECK_CONTAINS(text, "\nalpha: the floor 'cold_bytes' is 7000, above the baseline's 6000: "
			     "loosening a setting is a breach unless accepted (metric "
			     "'cold_bytes_floor')\n");
	CHECK_CONTAINS(text, "\nbeta: accepted without the floor 'steady_bytes': bytes vary with the "
			     "input (baselines/accepted.json)\n");
	CHECK_CONTAINS(text, "\nfail: 1 regressed (alpha)\n");
	table_done(&run);
}

static void table_should_warn_when_the_cost_per_message_is_not_constant(void)
{
	struct measurement head[] = { with_bytes("alpha", 100, 1000) };
	struct table_run run;
	char *text;

	head[0].slopes[METRIC_INSTRUCTIONS].nonlinear = true;
	head[0].slopes[METRIC_INSTRUCTIONS].linearity_percent = 1.0101;
	head[0].slopes[METRIC_INSTRUCTIONS].per_message_early = 101.0101;
	text = table_against(&run, head, 1, NULL, 0, NULL);
	CHECK_CONTAINS(text, "\nalpha: warning: not quite linear: instructions per message are "
			     "101.010 from 1 to N and 100.000 from N to 2N, 1.01 % apart (failure "
			     "above 5 %): is the cost per message constant?\n");
	CHECK(strstr(text, "allocations per message are") == NULL);
	table_done(&run);
}

static void table_should_format_figures_exactly(void)
{
	char text[64];

	CHECK_FORMAT(table_format_per_message, 17312.0, "17312.000");
	CHECK_FORMAT(table_format_per_message, 1.001, "1.001");
	CHECK_FORMAT(table_format_change, 3.41, "+3.41 %");
	CHECK_FORMAT(table_format_change, -0.02, "-0.02 %");
	CHECK_FORMAT(table_format_change, 0.0, "+0.00 %");
	/* A change that rounds to nothing has no minus sign before it. */
	CHECK_FORMAT(table_format_change, -0.004, "+0.00 %");
	CHECK_FORMAT(table_format_change, -0.005001, "-0.01 %");
	CHECK_STR(table_format_signed(text, sizeof(text), -0.0004, 3), "+0.000");
	CHECK_STR(table_format_signed(text, sizeof(text), -1.5, 3), "-1.500");
	CHECK_STR(table_format_signed(text, sizeof(text), 96.0, 3), "+96.000");
}

/* The wall clock beside a regression: the line, and a reason for none that a pull request's
 * program may have written, escaped. */
static void table_should_print_the_wall_clock_and_escape_why_there_is_none(void)
{
	struct example example;
	struct verdict_row *row = NULL;
	char *text;
	size_t i;

	decide_example(&example);
	for (i = 0; i < example.verdict.row_count; i++)
		if (strcmp(example.verdict.rows[i].name, "zeta") == 0)
			row = &example.verdict.rows[i];
	CHECK(row != NULL);
	if (row == NULL)
		return;
	row->wall = calloc(1, sizeof(*row->wall));
	CHECK(row->wall != NULL);
	if (row->wall == NULL)
		return;
	*row->wall = (struct verdict_wall){ .timed = true, .messages = 1000, .rounds = 5,
					    .head_seconds = 0.58, .baseline_seconds = 0.79,
					    .change_percent = -26.58, .head_fastest = 0.55,
					    .head_slowest = 0.60, .baseline_fastest = 0.75,
					    .baseline_slowest = 0.83 };
	text = print(&example.verdict);
	CHECK_CONTAINS(text, "\nzeta: wall clock head 0.58 s, baseline 0.79 s over 5 rounds (-27 %): "
			     "instructions up, time down\n");
	free(text);
	*row->wall = (struct verdict_wall){ .timed = false };
	snprintf(row->wall->why_not, sizeof(row->wall->why_not), "a native drain failed: \033[2J");
	text = print(&example.verdict);
	CHECK_CONTAINS(text, "\nzeta: wall clock not compared: a native drain failed: ");
	CHECK(strchr(text, '\033') == NULL);
	example_done(&example, text);
}

int main(void)
{
	return RUN_CASES(table_should_show_the_example,
			 table_should_print_the_columns_without_a_baseline,
			 table_should_sort_its_rows_by_name,
			 table_should_end_with_the_summary_of_the_verdict,
			 table_should_explain_cold_and_floor_breaches,
			 table_should_name_settings_looser_and_stricter_than_the_baseline,
			 table_should_show_an_ungated_regression_as_not_gated_and_not_within_limits,
			 table_should_show_acceptances_floors_to_lower_and_improvements,
			 table_should_name_a_dropped_or_raised_optional_floor,
			 table_should_warn_when_the_cost_per_message_is_not_constant,
			 table_should_format_figures_exactly,
			 table_should_print_the_wall_clock_and_escape_why_there_is_none);
}
