/* Unit tests of a scenario's declaration: parsing what `SCENARIO --describe` prints, and running a
 * real scenario executable of this build for it. The build's scenarios are found in argv[1], else
 * $COSTGATE_BUILD_DIR/scenarios, else ../scenarios (ctest runs this in build/tests). */
#include "check.h"
#include "scenario.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

/* What build/scenarios/consume_json --describe prints. */
#define DESCRIBE_JSON                                                                            \
	"{\"name\":\"consume_json\",\"title\":\"consume, 512 B JSON decoded into a small struct, " \
	"settle each\",\"gated\":true,\"region\":\"costgate_measured_region\",\"floors\":"         \
	"{\"steady_allocations\":19,\"cold_allocations\":19},\"body_bytes\":512,\"batch_size\":1," \
	"\"raw\":false,\"snapshots\":true}"

static char scenarios_dir[512] = "../scenarios";

static void check_released(const struct scenario_info *info)
{
	CHECK(info->name == NULL);
	CHECK(info->path == NULL);
	CHECK(info->title == NULL);
	CHECK(info->region == NULL);
}

/* A description read whole, and what it declares. */
struct declared {
	const char *name;
	const char *scenario, *text;
	const char *title, *region;
	bool gated;
	double steady_floor;
	uint64_t cold_floor;
	double limit_percent, linearity_percent;
	double allocator_limit_percent, steady_syscalls, cold_syscalls;
};

static const struct declared declarations[] = {
	{ "scenario_should_read_the_description_a_scenario_prints", "consume_json", DESCRIBE_JSON,
	  "consume, 512 B JSON decoded into a small struct, settle each", "costgate_measured_region",
	  true, 19.0, 19, 0.0, 0.0, 0.0, 0.0, 0.0 },
	{ "scenario_should_read_a_declared_limit_fractional_steady_floor_and_ungated", "batch",
	  "{\"name\":\"batch\",\"title\":\"t\",\"gated\":false,\"region\":\"r\","
	  "\"floors\":{\"steady_allocations\":0.25,\"cold_allocations\":0},"
	  "\"limit_percent\":5,\"linearity_percent\":12.5,\"snapshots\":true}",
	  "t", "r", false, 0.25, 0, 5.0, 12.5, 0.0, 0.0, 0.0 },
	{ "scenario_should_read_a_cold_floor_above_two_to_the_32", "big",
	  "{\"name\":\"big\",\"title\":\"t\",\"gated\":true,\"region\":\"r\","
	  "\"floors\":{\"steady_allocations\":1,\"cold_allocations\":5000000001},\"snapshots\":true}",
	  "t", "r", true, 1.0, 5000000001ULL, 0.0, 0.0, 0.0, 0.0, 0.0 },
	{ "scenario_should_read_the_allocator_limit_and_the_system_call_floors", "logs",
	  "{\"name\":\"logs\",\"title\":\"t\",\"gated\":true,\"region\":\"r\","
	  "\"floors\":{\"steady_allocations\":1,\"cold_allocations\":2,\"steady_syscalls\":1.5,"
	  "\"cold_syscalls\":7},\"allocator_limit_percent\":25,\"snapshots\":true}",
	  "t", "r", true, 1.0, 2, 0.0, 0.0, 25.0, 1.5, 7.0 },
};

static void check_declared(const struct declared *row)
{
	struct scenario_info info = SCENARIO_INFO_INIT;
	struct gate_error err = GATE_ERROR_INIT;

	CHECK(scenario_info_parse(&info, row->scenario, row->text, &err) == 0);
	CHECK_STR(err.message, "");
	CHECK_STR(info.name, row->scenario);
	CHECK_STR(info.title, row->title);
	CHECK_STR(info.region, row->region);
	CHECK(info.gated == row->gated);
	CHECK(info.steady_floor == row->steady_floor);
	CHECK_U64(info.cold_floor, row->cold_floor);
	CHECK(info.limit_percent == row->limit_percent);
	CHECK(info.linearity_percent == row->linearity_percent);
	CHECK(info.allocator_limit_percent == row->allocator_limit_percent);
	CHECK(scenario_floor(&info, "steady_syscalls") == row->steady_syscalls);
	CHECK(scenario_floor(&info, "cold_syscalls") == row->cold_syscalls);
	CHECK(info.path == NULL);
	scenario_info_release(&info);
	check_released(&info);
}

static void scenario_should_read_what_a_description_declares(void)
{
	RUN_ROWS(check_declared, declarations);
}

/* Parts of the refused descriptions: floors of one allocation, and the members before them. */
#define FLOORS_1_1 "\"floors\":{\"steady_allocations\":1,\"cold_allocations\":1}"
#define CONSUME_T_R "{\"name\":\"consume_json\",\"title\":\"t\",\"region\":\"r\",\"gated\":true,"

/* A description refused when read as `scenario`'s, with the message. */
struct refused {
	const char *name;
	const char *scenario, *text, *message;
};

#define OLDER_HARNESS                                                                             \
	"scenario 'consume_json': --describe does not say \"snapshots\": true: the executable was " \
	"built against an older costgate harness; rebuild it against this one"

static const struct refused refusals[] = {
	{ "scenario_should_reject_output_that_is_not_json", "consume_json",
	  "usage: consume_json [--describe]\n",
	  "scenario 'consume_json': --describe: not JSON (at byte 0)" },
	{ "scenario_should_reject_empty_output", "consume_json", "",
	  "scenario 'consume_json': --describe: not JSON (at byte 0)" },
	{ "scenario_should_reject_a_key_given_twice", "consume_json", "{\"name\": 1, \"name\": 2}",
	  "scenario 'consume_json': --describe: the key 'name' appears twice in one object" },
	{ "scenario_should_reject_json_that_is_not_an_object", "consume_json", "[1, 2]",
	  "scenario 'consume_json': --describe printed no JSON object" },
	{ "scenario_should_reject_a_description_of_another_scenario", "reply", DESCRIBE_JSON,
	  "scenario 'reply': --describe names another scenario" },
	{ "scenario_should_reject_a_description_without_a_name", "consume_json",
	  "{\"title\":\"t\",\"gated\":true,\"region\":\"r\"," FLOORS_1_1 "}",
	  "scenario 'consume_json': --describe names another scenario" },
	{ "scenario_should_reject_a_missing_title", "consume_json",
	  "{\"name\":\"consume_json\",\"gated\":true,\"region\":\"r\"," FLOORS_1_1 "}",
	  "scenario 'consume_json': --describe has no string 'title'" },
	{ "scenario_should_reject_a_title_of_two_lines", "consume_json",
	  "{\"name\":\"consume_json\",\"title\":\"t\\n::notice::x\",\"gated\":true,\"region\":\"r\","
	  FLOORS_1_1 "}",
	  "scenario 'consume_json': --describe 'title' is more than one line (one printable line of "
	  "at most 200 characters)" },
	{ "scenario_should_reject_a_title_with_controls", "consume_json",
	  "{\"name\":\"consume_json\",\"title\":\"\\u001b[2Jt\",\"gated\":true,\"region\":\"r\","
	  FLOORS_1_1 "}",
	  "scenario 'consume_json': --describe 'title' holds a control character (one printable line "
	  "of at most 200 characters)" },
	{ "scenario_should_reject_a_region_that_is_a_pattern", "consume_json",
	  "{\"name\":\"consume_json\",\"title\":\"t\",\"gated\":true,\"region\":\"costgate_*\","
	  FLOORS_1_1 "}",
	  "scenario 'consume_json': --describe 'region' is not a C identifier" },
	{ "scenario_should_reject_a_missing_region", "consume_json",
	  "{\"name\":\"consume_json\",\"title\":\"t\",\"gated\":true," FLOORS_1_1 "}",
	  "scenario 'consume_json': --describe has no string 'region'" },
	{ "scenario_should_reject_an_empty_region", "consume_json",
	  "{\"name\":\"consume_json\",\"title\":\"t\",\"region\":\"\",\"gated\":true," FLOORS_1_1 "}",
	  "scenario 'consume_json': --describe has no string 'region'" },
	{ "scenario_should_reject_a_missing_gated", "consume_json",
	  "{\"name\":\"consume_json\",\"title\":\"t\",\"region\":\"r\"," FLOORS_1_1 "}",
	  "scenario 'consume_json': --describe has no boolean 'gated'" },
	{ "scenario_should_reject_a_non_boolean_gated", "consume_json",
	  "{\"name\":\"consume_json\",\"title\":\"t\",\"region\":\"r\",\"gated\":1," FLOORS_1_1 "}",
	  "scenario 'consume_json': --describe has no boolean 'gated'" },
	{ "scenario_should_reject_missing_floors", "consume_json",
	  "{\"name\":\"consume_json\",\"title\":\"t\",\"region\":\"r\",\"gated\":true}",
	  "scenario 'consume_json': --describe has no object 'floors'" },
	{ "scenario_should_reject_a_missing_steady_floor", "consume_json",
	  CONSUME_T_R "\"floors\":{\"cold_allocations\":1}}",
	  "scenario 'consume_json': --describe 'steady_allocations' is not a non-negative number" },
	{ "scenario_should_reject_a_missing_cold_floor", "consume_json",
	  CONSUME_T_R "\"floors\":{\"steady_allocations\":1}}",
	  "scenario 'consume_json': --describe 'cold_allocations' is not a non-negative integer" },
	{ "scenario_should_reject_a_negative_cold_floor", "consume_json",
	  CONSUME_T_R "\"floors\":{\"steady_allocations\":1,\"cold_allocations\":-1}}",
	  "scenario 'consume_json': --describe 'cold_allocations' is not a non-negative integer" },
	{ "scenario_should_reject_a_fractional_cold_floor", "consume_json",
	  CONSUME_T_R "\"floors\":{\"steady_allocations\":1,\"cold_allocations\":19.5}}",
	  "scenario 'consume_json': --describe 'cold_allocations' is not a non-negative integer" },
	{ "scenario_should_reject_a_negative_steady_floor", "consume_json",
	  CONSUME_T_R "\"floors\":{\"steady_allocations\":-0.5,\"cold_allocations\":1}}",
	  "scenario 'consume_json': --describe 'steady_allocations' is not a non-negative number" },
	{ "scenario_should_reject_a_steady_floor_that_is_a_string", "consume_json",
	  CONSUME_T_R "\"floors\":{\"steady_allocations\":\"19\",\"cold_allocations\":1}}",
	  "scenario 'consume_json': --describe 'steady_allocations' is not a non-negative number" },
	{ "scenario_should_reject_a_limit_that_is_a_string", "consume_json",
	  CONSUME_T_R FLOORS_1_1 ",\"limit_percent\":\"5\"}",
	  "scenario 'consume_json': --describe 'limit_percent' is not a non-negative number" },
	{ "scenario_should_reject_a_negative_linearity_limit", "consume_json",
	  CONSUME_T_R FLOORS_1_1 ",\"linearity_percent\":-1}",
	  "scenario 'consume_json': --describe 'linearity_percent' is not a non-negative number" },
	/* Floors and metrics gated on request by key: which keys exist is the metric table's to say
	 * (core/metrics.h), but each must be a name with a count. */
	{ "scenario_should_reject_a_floor_key_that_is_not_a_name", "consume_json",
	  CONSUME_T_R "\"floors\":{\"steady_allocations\":1,\"cold_allocations\":1,\"Steady Bytes\":2}"
	  ",\"snapshots\":true}",
	  "scenario 'consume_json': --describe 'floors' has a key that is not a name ([a-z0-9_]+, at "
	  "most 63 characters)" },
	{ "scenario_should_reject_a_fractional_cold_floor_by_key", "consume_json",
	  CONSUME_T_R "\"floors\":{\"steady_allocations\":1,\"cold_allocations\":1,\"cold_x\":1.5}"
	  ",\"snapshots\":true}",
	  "scenario 'consume_json': --describe 'cold_x' is not a non-negative integer" },
	{ "scenario_should_reject_a_floor_declared_twice", "consume_json",
	  CONSUME_T_R "\"floors\":{\"steady_allocations\":1,\"cold_allocations\":1,\"cold_x\":1,"
	  "\"cold_x\":2},\"snapshots\":true}",
	  "scenario 'consume_json': --describe: the key 'cold_x' appears twice in one object" },
	{ "scenario_should_reject_gate_metrics_that_are_not_an_array", "consume_json",
	  CONSUME_T_R FLOORS_1_1 ",\"gate_metrics\":\"cycles\",\"snapshots\":true}",
	  "scenario 'consume_json': --describe 'gate_metrics' is not an array" },
	{ "scenario_should_reject_a_gate_metric_that_is_not_a_key", "consume_json",
	  CONSUME_T_R FLOORS_1_1 ",\"gate_metrics\":[\"cycles\",7],\"snapshots\":true}",
	  "scenario 'consume_json': --describe 'gate_metrics' holds something that is not a metric's "
	  "key" },
	/* A harness from before the snapshots (docs/design.md rule 10): gate says to rebuild. */
	{ "scenario_should_reject_a_harness_without_snapshots", "consume_json",
	  CONSUME_T_R FLOORS_1_1 "}", OLDER_HARNESS },
	{ "scenario_should_reject_a_harness_whose_snapshots_are_false", "consume_json",
	  CONSUME_T_R FLOORS_1_1 ",\"snapshots\":false}", OLDER_HARNESS },
};

/* An attempt to read a scenario's description that failed: -1, `message`, nothing kept. */
static void check_refused(int status, struct scenario_info *info, const struct gate_error *err,
			  const char *message)
{
	CHECK(status == -1);
	CHECK_STR(err->message, message);
	check_released(info);
	scenario_info_release(info);
}

static void check_refused_description(const struct refused *row)
{
	struct scenario_info info = SCENARIO_INFO_INIT;
	struct gate_error err = GATE_ERROR_INIT;

	check_refused(scenario_info_parse(&info, row->scenario, row->text, &err), &info, &err,
		      row->message);
}

/* Floors and requests by key, kept as declared for the metric table to check; "gate_cycles": true
 * is the request "cycles", and a floor of 0 is none. */
static void scenario_should_keep_floors_and_requests_by_key(void)
{
	struct scenario_info info = SCENARIO_INFO_INIT;
	struct gate_error err = GATE_ERROR_INIT;

	CHECK(scenario_info_parse(&info, "consume_json",
				  CONSUME_T_R "\"floors\":{\"steady_allocations\":1,\"cold_allocations\":"
				  "1,\"steady_x\":2.5,\"cold_x\":9,\"cold_y\":0},\"gate_cycles\":true,"
				  "\"gate_metrics\":[\"cycles\",\"x\"],\"snapshots\":true}", &err) == 0);
	CHECK_STR(err.message, "");
	CHECK(scenario_floor(&info, "steady_x") == 2.5);
	CHECK(scenario_floor(&info, "cold_x") == 9);
	CHECK(scenario_floor(&info, "cold_y") == 0 && info.floor_count == 2);
	CHECK(scenario_floor(&info, "steady_allocations") == 0); /* a field of its own */
	CHECK(scenario_gates_metric(&info, "cycles") && scenario_gates_metric(&info, "x"));
	CHECK(info.gate_metric_count == 2 && !scenario_gates_metric(&info, "y"));
	CHECK(scenario_set_floor(&info, "steady_x", 0, &err) == 0 && info.floor_count == 1);
	CHECK(scenario_floor(&info, "cold_x") == 9);
	CHECK(scenario_set_gate_metric(&info, "cycles", false, &err) == 0);
	CHECK(!scenario_gates_metric(&info, "cycles") && scenario_gates_metric(&info, "x"));
	scenario_info_release(&info);
	CHECK(info.floor_count == 0 && info.gate_metric_count == 0);
}

/* More declarations than a scenario may hold are an error naming it, never a floor dropped. */
static void scenario_should_refuse_more_floors_than_it_holds(void)
{
	struct scenario_info info = SCENARIO_INFO_INIT;
	struct gate_error err = GATE_ERROR_INIT;
	char key[32];
	int i, status = 0;

	info.name = (char *)"many";
	for (i = 0; i <= SCENARIO_DECLARED_MAX && status == 0; i++) {
		snprintf(key, sizeof(key), "steady_m%d", i);
		status = scenario_set_floor(&info, key, 1, &err);
	}
	CHECK(status == -1 && i == SCENARIO_DECLARED_MAX + 1);
	CHECK_CONTAINS(err.message, "scenario 'many' declares more than 16 floors");
	CHECK(info.floor_count == SCENARIO_DECLARED_MAX);
}

static void scenario_should_reject_every_malformed_description(void)
{
	RUN_ROWS(check_refused_description, refusals);
}

/* What a real scenario prints at --describe, captured to a file as gate's describe run does,
 * then read from it (scenario_info_from_output). */
static int describe_real(struct scenario_info *info, const char *name, const char *program,
			 struct gate_error *err)
{
	char path[600], output[700], command[1600];

	snprintf(path, sizeof(path), "%s/%s", scenarios_dir, program);
	snprintf(output, sizeof(output), "%s/describe.%ld.json", getenv("TMPDIR") ? getenv("TMPDIR")
				: "/tmp", (long)getpid());
	snprintf(command, sizeof(command), "env -i PATH=/usr/bin:/bin LC_ALL=C '%s' --describe > '%s'",
		 path, output);
	CHECK(system(command) == 0);
	{
		int status = scenario_info_from_output(info, name, path, output, err);

		remove(output);
		if (status == 0)
			CHECK_STR(info->path, path);
		return status;
	}
}

static void scenario_should_read_what_a_real_scenario_describes(void)
{
	struct scenario_info info = SCENARIO_INFO_INIT;
	struct gate_error err = GATE_ERROR_INIT;

	CHECK(describe_real(&info, "consume_json", "consume_json", &err) == 0);
	CHECK_STR(err.message, "");
	CHECK_STR(info.name, "consume_json");
	CHECK_STR(info.region, "costgate_measured_region");
	CHECK_CONTAINS(info.title, "JSON");
	CHECK(info.gated);
	CHECK(info.steady_floor > 0);
	CHECK(info.cold_floor > 0);
	scenario_info_release(&info);
}

static void scenario_should_reject_a_real_scenario_read_under_another_name(void)
{
	struct scenario_info info = SCENARIO_INFO_INIT;
	struct gate_error err = GATE_ERROR_INIT;

	check_refused(describe_real(&info, "reply", "consume_json", &err), &info, &err,
		      "scenario 'reply': --describe names another scenario");
}

static void scenario_should_say_it_cannot_read_a_missing_output(void)
{
	struct scenario_info info = SCENARIO_INFO_INIT;
	struct gate_error err = GATE_ERROR_INIT;

	check_refused(scenario_info_from_output(&info, "x", "/bin/false", "/nonexistent/describe.json",
						&err), &info, &err,
		      "scenario 'x': cannot read what --describe printed "
		      "('/nonexistent/describe.json'): No such file or directory");
}

int main(int argc, char **argv)
{
	const char *build_dir = getenv("COSTGATE_BUILD_DIR");

	if (argc > 1)
		snprintf(scenarios_dir, sizeof(scenarios_dir), "%s", argv[1]);
	else if (build_dir != NULL && build_dir[0] != '\0')
		snprintf(scenarios_dir, sizeof(scenarios_dir), "%s/scenarios", build_dir);
	return RUN_CASES(scenario_should_read_what_a_description_declares,
			 scenario_should_keep_floors_and_requests_by_key,
			 scenario_should_refuse_more_floors_than_it_holds,
			 scenario_should_reject_every_malformed_description,
			 scenario_should_read_what_a_real_scenario_describes,
			 scenario_should_reject_a_real_scenario_read_under_another_name,
			 scenario_should_say_it_cannot_read_a_missing_output);
}
