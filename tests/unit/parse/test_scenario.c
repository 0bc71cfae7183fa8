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

/* Parses `text` as consume_json's description, which must fail with `message`. */
static void check_parse_error(const char *text, const char *message)
{
	struct scenario_info info = SCENARIO_INFO_INIT;
	struct gate_error err = GATE_ERROR_INIT;

	CHECK(scenario_info_parse(&info, "consume_json", text, &err) == -1);
	CHECK_STR(err.message, message);
	check_released(&info);
	scenario_info_release(&info);
}

static void scenario_should_read_the_description_a_scenario_prints(void)
{
	struct scenario_info info = SCENARIO_INFO_INIT;
	struct gate_error err = GATE_ERROR_INIT;

	CHECK(scenario_info_parse(&info, "consume_json", DESCRIBE_JSON, &err) == 0);
	CHECK_STR(err.message, "");
	CHECK_STR(info.name, "consume_json");
	CHECK_STR(info.title, "consume, 512 B JSON decoded into a small struct, settle each");
	CHECK_STR(info.region, "costgate_measured_region");
	CHECK(info.gated);
	CHECK(info.steady_floor == 19.0);
	CHECK_U64(info.cold_floor, 19);
	CHECK(info.limit_percent == 0.0);
	CHECK(info.linearity_percent == 0.0);
	CHECK(info.path == NULL);
	scenario_info_release(&info);
	check_released(&info);
}

static void scenario_should_read_a_declared_limit_fractional_steady_floor_and_ungated(void)
{
	struct scenario_info info = SCENARIO_INFO_INIT;
	struct gate_error err = GATE_ERROR_INIT;

	CHECK(scenario_info_parse(&info, "batch",
				  "{\"name\":\"batch\",\"title\":\"t\",\"gated\":false,\"region\":\"r\","
				  "\"floors\":{\"steady_allocations\":0.25,\"cold_allocations\":0},"
				  "\"limit_percent\":5,\"linearity_percent\":12.5,\"snapshots\":true}",
				  &err) == 0);
	CHECK_STR(err.message, "");
	CHECK(!info.gated);
	CHECK(info.steady_floor == 0.25);
	CHECK_U64(info.cold_floor, 0);
	CHECK(info.limit_percent == 5.0);
	CHECK(info.linearity_percent == 12.5);
	scenario_info_release(&info);
}

static void scenario_should_read_a_cold_floor_above_two_to_the_32(void)
{
	struct scenario_info info = SCENARIO_INFO_INIT;
	struct gate_error err = GATE_ERROR_INIT;

	CHECK(scenario_info_parse(&info, "big",
				  "{\"name\":\"big\",\"title\":\"t\",\"gated\":true,\"region\":\"r\","
				  "\"floors\":{\"steady_allocations\":1,\"cold_allocations\":5000000001},"
				  "\"snapshots\":true}", &err) == 0);
	CHECK_U64(info.cold_floor, 5000000001ULL);
	scenario_info_release(&info);
}

/* A harness from before the snapshots (docs/design.md rule 9): gate says to rebuild. */
static void scenario_should_reject_a_harness_without_snapshots(void)
{
	check_parse_error("{\"name\":\"consume_json\",\"title\":\"t\",\"gated\":true,\"region\":\"r\","
			  "\"floors\":{\"steady_allocations\":1,\"cold_allocations\":1}}",
			  "scenario 'consume_json': --describe does not say \"snapshots\": true: the "
			  "executable was built against an older costgate harness; rebuild it against "
			  "this one");
	check_parse_error("{\"name\":\"consume_json\",\"title\":\"t\",\"gated\":true,\"region\":\"r\","
			  "\"floors\":{\"steady_allocations\":1,\"cold_allocations\":1},"
			  "\"snapshots\":false}",
			  "scenario 'consume_json': --describe does not say \"snapshots\": true: the "
			  "executable was built against an older costgate harness; rebuild it against "
			  "this one");
}

static void scenario_should_reject_output_that_is_not_json(void)
{
	check_parse_error("usage: consume_json [--describe]\n",
			  "scenario 'consume_json': --describe: not JSON (at byte 0)");
	check_parse_error("", "scenario 'consume_json': --describe: not JSON (at byte 0)");
	check_parse_error("{\"name\": 1, \"name\": 2}",
			  "scenario 'consume_json': --describe: the key 'name' appears twice in one "
			  "object");
	check_parse_error("[1, 2]", "scenario 'consume_json': --describe printed no JSON object");
}

static void scenario_should_reject_a_description_of_another_scenario(void)
{
	struct scenario_info info = SCENARIO_INFO_INIT;
	struct gate_error err = GATE_ERROR_INIT;

	CHECK(scenario_info_parse(&info, "reply", DESCRIBE_JSON, &err) == -1);
	CHECK_STR(err.message, "scenario 'reply': --describe names another scenario");
	check_released(&info);
	scenario_info_release(&info);
	check_parse_error("{\"title\":\"t\",\"gated\":true,\"region\":\"r\",\"floors\":"
			  "{\"steady_allocations\":1,\"cold_allocations\":1}}",
			  "scenario 'consume_json': --describe names another scenario");
}

static void scenario_should_reject_a_missing_title(void)
{
	check_parse_error("{\"name\":\"consume_json\",\"gated\":true,\"region\":\"r\",\"floors\":"
			  "{\"steady_allocations\":1,\"cold_allocations\":1}}",
			  "scenario 'consume_json': --describe has no string 'title'");
}

static void scenario_should_reject_a_title_of_two_lines_or_with_controls(void)
{
	check_parse_error("{\"name\":\"consume_json\",\"title\":\"t\\n::notice::x\",\"gated\":true,"
			  "\"region\":\"r\",\"floors\":{\"steady_allocations\":1,\"cold_allocations\":1}}",
			  "scenario 'consume_json': --describe 'title' is more than one line (one "
			  "printable line of at most 200 characters)");
	check_parse_error("{\"name\":\"consume_json\",\"title\":\"\\u001b[2Jt\",\"gated\":true,"
			  "\"region\":\"r\",\"floors\":{\"steady_allocations\":1,\"cold_allocations\":1}}",
			  "scenario 'consume_json': --describe 'title' holds a control character (one "
			  "printable line of at most 200 characters)");
}

static void scenario_should_reject_a_region_that_is_a_pattern(void)
{
	check_parse_error("{\"name\":\"consume_json\",\"title\":\"t\",\"gated\":true,"
			  "\"region\":\"costgate_*\",\"floors\":{\"steady_allocations\":1,"
			  "\"cold_allocations\":1}}",
			  "scenario 'consume_json': --describe 'region' is not a C identifier");
}

static void scenario_should_reject_a_missing_or_empty_region(void)
{
	check_parse_error("{\"name\":\"consume_json\",\"title\":\"t\",\"gated\":true,\"floors\":"
			  "{\"steady_allocations\":1,\"cold_allocations\":1}}",
			  "scenario 'consume_json': --describe has no string 'region'");
	check_parse_error("{\"name\":\"consume_json\",\"title\":\"t\",\"region\":\"\",\"gated\":true,"
			  "\"floors\":{\"steady_allocations\":1,\"cold_allocations\":1}}",
			  "scenario 'consume_json': --describe has no string 'region'");
}

static void scenario_should_reject_a_missing_or_non_boolean_gated(void)
{
	check_parse_error("{\"name\":\"consume_json\",\"title\":\"t\",\"region\":\"r\",\"floors\":"
			  "{\"steady_allocations\":1,\"cold_allocations\":1}}",
			  "scenario 'consume_json': --describe has no boolean 'gated'");
	check_parse_error("{\"name\":\"consume_json\",\"title\":\"t\",\"region\":\"r\",\"gated\":1,"
			  "\"floors\":{\"steady_allocations\":1,\"cold_allocations\":1}}",
			  "scenario 'consume_json': --describe has no boolean 'gated'");
}

static void scenario_should_reject_missing_floors(void)
{
	check_parse_error("{\"name\":\"consume_json\",\"title\":\"t\",\"region\":\"r\",\"gated\":true}",
			  "scenario 'consume_json': --describe has no object 'floors'");
	check_parse_error("{\"name\":\"consume_json\",\"title\":\"t\",\"region\":\"r\",\"gated\":true,"
			  "\"floors\":{\"cold_allocations\":1}}",
			  "scenario 'consume_json': --describe 'steady_allocations' is not a "
			  "non-negative number");
	check_parse_error("{\"name\":\"consume_json\",\"title\":\"t\",\"region\":\"r\",\"gated\":true,"
			  "\"floors\":{\"steady_allocations\":1}}",
			  "scenario 'consume_json': --describe 'cold_allocations' is not a "
			  "non-negative integer");
}

static void scenario_should_reject_a_negative_cold_floor(void)
{
	check_parse_error("{\"name\":\"consume_json\",\"title\":\"t\",\"region\":\"r\",\"gated\":true,"
			  "\"floors\":{\"steady_allocations\":1,\"cold_allocations\":-1}}",
			  "scenario 'consume_json': --describe 'cold_allocations' is not a "
			  "non-negative integer");
}

static void scenario_should_reject_a_fractional_cold_floor(void)
{
	check_parse_error("{\"name\":\"consume_json\",\"title\":\"t\",\"region\":\"r\",\"gated\":true,"
			  "\"floors\":{\"steady_allocations\":1,\"cold_allocations\":19.5}}",
			  "scenario 'consume_json': --describe 'cold_allocations' is not a "
			  "non-negative integer");
}

static void scenario_should_reject_a_negative_or_string_steady_floor(void)
{
	check_parse_error("{\"name\":\"consume_json\",\"title\":\"t\",\"region\":\"r\",\"gated\":true,"
			  "\"floors\":{\"steady_allocations\":-0.5,\"cold_allocations\":1}}",
			  "scenario 'consume_json': --describe 'steady_allocations' is not a "
			  "non-negative number");
	check_parse_error("{\"name\":\"consume_json\",\"title\":\"t\",\"region\":\"r\",\"gated\":true,"
			  "\"floors\":{\"steady_allocations\":\"19\",\"cold_allocations\":1}}",
			  "scenario 'consume_json': --describe 'steady_allocations' is not a "
			  "non-negative number");
}

static void scenario_should_reject_a_limit_that_is_a_string(void)
{
	check_parse_error("{\"name\":\"consume_json\",\"title\":\"t\",\"region\":\"r\",\"gated\":true,"
			  "\"floors\":{\"steady_allocations\":1,\"cold_allocations\":1},"
			  "\"limit_percent\":\"5\"}",
			  "scenario 'consume_json': --describe 'limit_percent' is not a "
			  "non-negative number");
}

static void scenario_should_reject_a_negative_linearity_limit(void)
{
	check_parse_error("{\"name\":\"consume_json\",\"title\":\"t\",\"region\":\"r\",\"gated\":true,"
			  "\"floors\":{\"steady_allocations\":1,\"cold_allocations\":1},"
			  "\"linearity_percent\":-1}",
			  "scenario 'consume_json': --describe 'linearity_percent' is not a "
			  "non-negative number");
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

	CHECK(describe_real(&info, "reply", "consume_json", &err) == -1);
	CHECK_STR(err.message, "scenario 'reply': --describe names another scenario");
	check_released(&info);
	scenario_info_release(&info);
}

static void scenario_should_say_it_cannot_read_a_missing_output(void)
{
	struct scenario_info info = SCENARIO_INFO_INIT;
	struct gate_error err = GATE_ERROR_INIT;

	CHECK(scenario_info_from_output(&info, "x", "/bin/false", "/nonexistent/describe.json",
					&err) == -1);
	CHECK_STR(err.message, "scenario 'x': cannot read what --describe printed "
		  "('/nonexistent/describe.json'): No such file or directory");
	check_released(&info);
	scenario_info_release(&info);
}

int main(int argc, char **argv)
{
	const char *build_dir = getenv("COSTGATE_BUILD_DIR");

	setvbuf(stdout, NULL, _IONBF, 0); /* keep the case lines if a sanitizer aborts */
	if (argc > 1)
		snprintf(scenarios_dir, sizeof(scenarios_dir), "%s", argv[1]);
	else if (build_dir != NULL && build_dir[0] != '\0')
		snprintf(scenarios_dir, sizeof(scenarios_dir), "%s/scenarios", build_dir);
	RUN(scenario_should_read_the_description_a_scenario_prints);
	RUN(scenario_should_read_a_declared_limit_fractional_steady_floor_and_ungated);
	RUN(scenario_should_read_a_cold_floor_above_two_to_the_32);
	RUN(scenario_should_reject_output_that_is_not_json);
	RUN(scenario_should_reject_a_description_of_another_scenario);
	RUN(scenario_should_reject_a_missing_title);
	RUN(scenario_should_reject_a_title_of_two_lines_or_with_controls);
	RUN(scenario_should_reject_a_region_that_is_a_pattern);
	RUN(scenario_should_reject_a_missing_or_empty_region);
	RUN(scenario_should_reject_a_missing_or_non_boolean_gated);
	RUN(scenario_should_reject_missing_floors);
	RUN(scenario_should_reject_a_negative_cold_floor);
	RUN(scenario_should_reject_a_fractional_cold_floor);
	RUN(scenario_should_reject_a_negative_or_string_steady_floor);
	RUN(scenario_should_reject_a_limit_that_is_a_string);
	RUN(scenario_should_reject_a_negative_linearity_limit);
	RUN(scenario_should_reject_a_harness_without_snapshots);
	RUN(scenario_should_read_what_a_real_scenario_describes);
	RUN(scenario_should_reject_a_real_scenario_read_under_another_name);
	RUN(scenario_should_say_it_cannot_read_a_missing_output);
	return CHECK_EXIT();
}
