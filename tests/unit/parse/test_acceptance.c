/* Unit tests of the accepted regressions file (tests/fixtures/acceptance): a missing file is none,
 * a valid one is read in file order, and every malformed entry is an error naming the file, the
 * entry and the key, because a misread acceptance would let a regression pass. */
#define FIXTURES "acceptance"
#include "acceptance.h"
#include "check.h"
#include "fixture.h"

#include <string.h>

#include <stdio.h>

/* The names the reader is given here, as gate gives those of its metric table: two metrics gated
 * at a limit, two floors (one a metric takes, one it does not: NULL), and a metric gated on
 * request; each with what its value may be. */
static const char *const figure_names[] = {
	"instructions", "cold_instructions", "steady_bytes_floor", NULL, "cold_peak_bytes_floor",
	"cycles", "cold_cycles", "gate_cycles",
};
static const enum acceptance_value figure_values[] = {
	ACCEPT_VALUE_ABOVE, ACCEPT_VALUE_ABOVE, ACCEPT_VALUE_FLOOR, ACCEPT_VALUE_FLOOR,
	ACCEPT_VALUE_FLOOR, ACCEPT_VALUE_ABOVE, ACCEPT_VALUE_ABOVE, ACCEPT_VALUE_ZERO,
};
static const struct acceptance_figures figures = { figure_names, figure_values, 8 };
#define ACCEPT_INSTRUCTIONS (ACCEPT_FIGURES + 0)
#define ACCEPT_COLD_INSTRUCTIONS (ACCEPT_FIGURES + 1)

/* The acceptances of the fixture `name`, which must read whole. */
static struct acceptance read_valid(const char *name)
{
	struct acceptance acceptance = ACCEPTANCE_INIT;
	struct gate_error err = GATE_ERROR_INIT;

	CHECK(acceptance_read(&acceptance, fixture(name), &figures, &err) == 0);
	CHECK_STR(err.message, "");
	return acceptance;
}

static void acceptance_should_treat_a_missing_file_as_no_entries(void)
{
	struct acceptance acceptance = read_valid("absent.json");

	CHECK_U64(acceptance.count, 0);
	CHECK(acceptance_find(&acceptance, "reply", ACCEPT_INSTRUCTIONS) == NULL);
	acceptance_release(&acceptance);
}

static void acceptance_should_read_an_empty_list(void)
{
	struct acceptance acceptance = read_valid("empty.json");

	CHECK_U64(acceptance.count, 0);
	CHECK_STR(acceptance.path, fixture("empty.json"));
	acceptance_release(&acceptance);
}

static void acceptance_should_read_every_entry_in_file_order(void)
{
	struct acceptance acceptance = read_valid("valid.json");

	CHECK_STR(acceptance.path, fixture("valid.json"));
	CHECK_U64(acceptance.count, 3);
	if (acceptance.count == 3) {
		CHECK_STR(acceptance.entries[0].scenario, "consume_json");
		CHECK(acceptance.entries[0].metric == ACCEPT_INSTRUCTIONS);
		CHECK(acceptance.entries[0].value == 17700.5);
		CHECK_STR(acceptance.entries[0].reason, "schema validation added (#42)");
		CHECK_STR(acceptance.entries[1].scenario, "consume_json");
		CHECK(acceptance.entries[1].metric == ACCEPT_COLD_INSTRUCTIONS);
		CHECK(acceptance.entries[1].value == 25000);
		CHECK_STR(acceptance.entries[1].reason, "bigger decoder tables");
		CHECK_STR(acceptance.entries[2].scenario, "reply");
		CHECK(acceptance.entries[2].value == 20400);
	}
	acceptance_release(&acceptance);
	CHECK(acceptance.entries == NULL && acceptance.count == 0 && acceptance.path == NULL);
}

static void acceptance_should_find_an_entry_by_scenario_and_metric(void)
{
	struct acceptance acceptance = read_valid("valid.json");

	CHECK_U64(acceptance.count, 3);
	if (acceptance.count == 3) {
		CHECK(acceptance_find(&acceptance, "consume_json", ACCEPT_INSTRUCTIONS) ==
		      &acceptance.entries[0]);
		CHECK(acceptance_find(&acceptance, "consume_json", ACCEPT_COLD_INSTRUCTIONS) ==
		      &acceptance.entries[1]);
		CHECK(acceptance_find(&acceptance, "reply", ACCEPT_INSTRUCTIONS) == &acceptance.entries[2]);
	}
	CHECK(acceptance_find(&acceptance, "reply", ACCEPT_COLD_INSTRUCTIONS) == NULL);
	CHECK(acceptance_find(&acceptance, "batch", ACCEPT_INSTRUCTIONS) == NULL);
	CHECK(acceptance_find(NULL, "reply", ACCEPT_INSTRUCTIONS) == NULL);
	acceptance_release(&acceptance);
}

static void acceptance_should_name_its_metrics(void)
{
	CHECK_STR(acceptance_metric_name(&figures, ACCEPT_INSTRUCTIONS), "instructions");
	CHECK_STR(acceptance_metric_name(&figures, ACCEPT_COLD_INSTRUCTIONS), "cold_instructions");
	CHECK_STR(acceptance_metric_name(&figures, ACCEPT_FIGURES + 6), "cold_cycles");
	CHECK_STR(acceptance_metric_name(&figures, ACCEPT_GATED), "gated");
	CHECK_STR(acceptance_metric_name(&figures, ACCEPT_FIGURES + 3), "");
	CHECK_STR(acceptance_metric_name(&figures, ACCEPT_FIGURES + 8), "");
	CHECK(acceptance_metric_find(&figures, "cold_cycles") == (int)ACCEPT_FIGURES + 6);
	CHECK(acceptance_metric_find(&figures, "gate_cycles") == (int)ACCEPT_FIGURES + 7);
	CHECK(acceptance_value_of(&figures, ACCEPT_FIGURES + 7) == ACCEPT_VALUE_ZERO);
	CHECK(acceptance_value_of(&figures, ACCEPT_FIGURES + 2) == ACCEPT_VALUE_FLOOR);
	CHECK(acceptance_value_of(&figures, ACCEPT_GATED) == ACCEPT_VALUE_ZERO);
	CHECK(acceptance_value_of(&figures, ACCEPT_LIMIT_PERCENT) == ACCEPT_VALUE_ABOVE);
	CHECK(acceptance_metric_find(&figures, "allocations") == -1);
	CHECK(acceptance_metric_find(NULL, "instructions") == -1);
}

#define ONE_LINE "(one printable line of at most 200 characters)"

static const struct refused_fixture refusals[] = {
	{ "acceptance_should_name_an_entry_that_is_not_an_object", "entry-not-object.json",
	  "accepted[1] is not an object" },
	{ "acceptance_should_name_an_unknown_metric", "unknown-metric.json",
	  "accepted[0].metric 'allocations' is not one of 'instructions', 'cold_instructions', "
	  "'steady_bytes_floor', 'cold_peak_bytes_floor', 'cycles', 'cold_cycles', 'gate_cycles', "
	  "'gated', 'limit_percent', 'steady_allocations_floor', 'cold_allocations_floor', "
	  "'process_instructions', 'linearity_percent', 'allocator_limit_percent', 'growth'" },
	{ "acceptance_should_refuse_a_value_of_zero", "value-zero.json",
	  "accepted[1].value is not a positive number" },
	{ "acceptance_should_refuse_a_negative_value", "value-negative.json",
	  "accepted[0].value is not a positive number" },
	{ "acceptance_should_refuse_a_value_that_is_not_a_number", "value-string.json",
	  "accepted[0].value is not a positive number" },
	{ "acceptance_should_refuse_an_entry_without_a_reason", "reason-missing.json",
	  "accepted[0].reason must say why" },
	{ "acceptance_should_refuse_a_reason_too_short_to_say_why", "reason-short.json",
	  "accepted[0].reason must say why" },
	{ "acceptance_should_refuse_a_reason_of_two_lines", "reason-two-lines.json",
	  "accepted[0].reason is more than one line " ONE_LINE },
	{ "acceptance_should_refuse_a_reason_with_a_control_character", "reason-control.json",
	  "accepted[0].reason holds a control character " ONE_LINE },
	{ "acceptance_should_refuse_a_reason_of_more_than_200_characters", "reason-long.json",
	  "accepted[0].reason is too long " ONE_LINE },
	{ "acceptance_should_refuse_a_scenario_that_is_not_a_name", "scenario-bad-name.json",
	  "accepted[0].scenario is not a scenario name ([a-z0-9_]{1,64})" },
	{ "acceptance_should_refuse_an_entry_without_a_scenario", "scenario-missing.json",
	  "accepted[0].scenario is not a scenario name ([a-z0-9_]{1,64})" },
	{ "acceptance_should_refuse_a_scenario_and_metric_accepted_twice", "twice.json",
	  "accepted[2] accepts 'reply' instructions again (first in accepted[0])" },
	{ "acceptance_should_refuse_a_key_given_twice_in_one_object", "duplicate-key.json",
	  "the key 'value' appears twice in one object" },
	{ "acceptance_should_refuse_a_top_level_that_is_not_an_object", "top-level-array.json",
	  "not a JSON object" },
	{ "acceptance_should_refuse_a_file_that_is_not_json", "not-json.json", "not JSON (at byte 15)" },
	{ "acceptance_should_refuse_a_file_without_the_accepted_list", "accepted-missing.json",
	  "'accepted' is missing or not an array" },
};

/* Reads the row's fixture, which fails with a message that names the file, keeping nothing. */
static void check_refused(const struct refused_fixture *row)
{
	struct acceptance acceptance = ACCEPTANCE_INIT;
	struct gate_error err = GATE_ERROR_INIT;

	CHECK(acceptance_read(&acceptance, fixture(row->fixture), &figures, &err) == -1);
	CHECK_ABOUT_FIXTURE(err.message, "cannot read acceptances", row->fixture, row->problem);
	CHECK(acceptance.entries == NULL);
	CHECK_U64(acceptance.count, 0);
	CHECK(acceptance.path == NULL);
	acceptance_release(&acceptance);
}

static void acceptance_should_refuse_every_malformed_fixture(void)
{
	RUN_ROWS(check_refused, refusals);
}

static void acceptance_should_parse_text_read_from_git(void)
{
	static const char text[] = "{ \"accepted\": [ { \"scenario\": \"reply\", \"metric\": "
				   "\"cold_instructions\", \"value\": 12, \"reason\": \"one more\" } ] }";
	struct acceptance acceptance = ACCEPTANCE_INIT;
	struct gate_error err = GATE_ERROR_INIT;

	CHECK(acceptance_parse(&acceptance, text, sizeof(text) - 1, "accepted.json at 1a2b3c4", &figures, &err) == 0);
	CHECK_U64(acceptance.count, 1);
	CHECK(acceptance_find(&acceptance, "reply", ACCEPT_COLD_INSTRUCTIONS) != NULL);
	CHECK_STR(acceptance.path, "accepted.json at 1a2b3c4");
	acceptance_release(&acceptance);
	CHECK(acceptance_parse(&acceptance, "{}", 2, "accepted.json at 1a2b3c4", &figures, &err) == -1);
	CHECK_STR(err.message, "cannot read acceptances 'accepted.json at 1a2b3c4': 'accepted' is "
			       "missing or not an array");
	CHECK(acceptance.path == NULL);
}

/* An optional floor's acceptance may be 0: the scenario may stop declaring it. Only those. */
static void acceptance_should_take_zero_only_to_remove_an_optional_floor(void)
{
	static const char *const cases[][2] = {
		{ "steady_bytes_floor", "0" }, { "cold_peak_bytes_floor", "0" },
		{ "steady_allocations_floor", "accepted[0].value is not a positive number" },
		{ "cycles", "accepted[0].value is not a positive number" },
		{ "gate_cycles", "0" },
		{ "steady_bytes_floor", NULL }, /* with -1 below */
	};
	struct gate_error err = GATE_ERROR_INIT;
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct acceptance acceptance = ACCEPTANCE_INIT;
		char text[256];
		int status;

		snprintf(text, sizeof(text), "{ \"accepted\": [ { \"scenario\": \"reply\", \"metric\": "
			 "\"%s\", \"value\": %s, \"reason\": \"no bound\" } ] }", cases[i][0],
			 cases[i][1] == NULL ? "-1" : "0");
		err = (struct gate_error)GATE_ERROR_INIT;
		status = acceptance_parse(&acceptance, text, strlen(text), "accepted.json", &figures, &err);
		if (cases[i][1] != NULL && strcmp(cases[i][1], "0") == 0) {
			CHECK(status == 0);
			CHECK(acceptance.count == 1 && acceptance.entries[0].value == 0);
		} else if (cases[i][1] != NULL) {
			CHECK(status == -1);
			CHECK_CONTAINS(err.message, cases[i][1]);
		} else {
			CHECK(status == -1);
			CHECK_CONTAINS(err.message, "is not a positive number, or 0 to accept removing "
						    "the floor");
		}
		acceptance_release(&acceptance);
	}
}

int main(void)
{
	return RUN_CASES(acceptance_should_treat_a_missing_file_as_no_entries,
			 acceptance_should_read_an_empty_list,
			 acceptance_should_read_every_entry_in_file_order,
			 acceptance_should_find_an_entry_by_scenario_and_metric,
			 acceptance_should_name_its_metrics,
			 acceptance_should_refuse_every_malformed_fixture,
			 acceptance_should_parse_text_read_from_git,
			 acceptance_should_take_zero_only_to_remove_an_optional_floor);
}
