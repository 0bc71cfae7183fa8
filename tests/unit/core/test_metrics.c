/* The metric table: what each entry reads, and the one computation of every metric's figures. */
#include <string.h>

#include "check.h"
#include "measure.h"
#include "metrics.h"

#define FIXTURE(name) FIXTURE_DIR "/callgrind/" name

/* cache.out by hand: accesses 150 + 50 + 10 = 210; L1 misses 2 + 10 + 1 = 13; RAM 1 + 3 + 0 = 4;
 * L1 hits 197, last-level hits 9: 197 + 5 x 9 + 35 x 4 = 382. */
static void cycles_should_be_l1_hits_plus_5_last_level_hits_plus_35_ram_accesses(void)
{
	struct cg_profile profile = CG_PROFILE_INIT;
	struct gate_error err = GATE_ERROR_INIT;
	struct tool_output output = { &profile, NULL, "main" };
	const char *why = "";
	uint64_t cycles = 0;

	CHECK(cg_profile_parse(&profile, FIXTURE("cache.out"), &err) == 0);
	CHECK(metric_table[METRIC_CYCLES].read(&output, &cycles, &why) == 0);
	CHECK_U64(cycles, 382);
	cg_profile_release(&profile);
	CHECK(cg_profile_parse(&profile, FIXTURE("calls.out"), &err) == 0);
	CHECK(metric_table[METRIC_CYCLES].read(&output, &cycles, &why) == -1);
	CHECK_CONTAINS(why, "cache simulation's events");
	cg_profile_release(&profile);
}

/* syscalls.out: the region's inclusive count (the start's open and handle's two writes), never
 * main's getpid before the region; a file without sysCount has no such count. */
static void syscalls_should_be_the_regions_inclusive_count(void)
{
	struct cg_profile profile = CG_PROFILE_INIT;
	struct gate_error err = GATE_ERROR_INIT;
	struct tool_output output = { &profile, NULL, "costgate_measured_region" };
	const char *why = "";
	uint64_t syscalls = 0;

	CHECK(cg_profile_parse(&profile, FIXTURE("syscalls.out"), &err) == 0);
	CHECK(metric_table[METRIC_SYSCALLS].read(&output, &syscalls, &why) == 0);
	CHECK_U64(syscalls, 3);
	output.region = "not_entered"; /* a region never entered made none */
	CHECK(metric_table[METRIC_SYSCALLS].read(&output, &syscalls, &why) == 0);
	CHECK_U64(syscalls, 0);
	cg_profile_release(&profile);
	CHECK(cg_profile_parse(&profile, FIXTURE("calls.out"), &err) == 0);
	CHECK(metric_table[METRIC_SYSCALLS].read(&output, &syscalls, &why) == -1);
	CHECK_CONTAINS(why, "sysCount");
	cg_profile_release(&profile);
	CHECK(tool_table[TOOL_CALLGRIND].options[2] != NULL &&
	      strcmp(tool_table[TOOL_CALLGRIND].options[2], "--collect-systime=yes") == 0);
}

/* Each limit comes from the declaration that sets it: the scenario's limit_percent for its
 * instructions (and cycles), allocator_limit_percent for the allocator's, none for a rise. */
static void limits_should_come_from_the_declaration_that_sets_them(void)
{
	struct scenario_info info = SCENARIO_INFO_INIT;

	CHECK(metric_limit_percent(METRIC_INSTRUCTIONS, &info) == 2.0);
	CHECK(metric_limit_percent(METRIC_ALLOCATOR_INSTRUCTIONS, &info) == ALLOCATOR_LIMIT_PERCENT);
	CHECK(metric_limit_percent(METRIC_SYSCALLS, &info) == 0);
	info.limit_percent = 5;
	info.allocator_limit_percent = 25;
	CHECK(metric_limit_percent(METRIC_INSTRUCTIONS, &info) == 5);
	CHECK(metric_limit_percent(METRIC_CYCLES, &info) == 5);
	CHECK(metric_limit_percent(METRIC_ALLOCATOR_INSTRUCTIONS, &info) == 25);
	CHECK(metric_limit_percent(METRIC_SYSCALLS, &info) == 0);
	CHECK(metric_compares(METRIC_SYSCALLS) && metric_compares(METRIC_ALLOCATOR_INSTRUCTIONS));
	CHECK(!metric_compares(METRIC_ALLOCATIONS) && !metric_compares(METRIC_BYTES));
	CHECK(metric_acceptance(METRIC_SYSCALLS, true) >= 0);
	CHECK(metric_acceptance(METRIC_BYTES, false) < 0);
}

static void metrics_should_be_found_by_key_and_read_by_their_tools(void)
{
	size_t metric;

	for (metric = 0; metric < METRIC_COUNT; metric++) {
		CHECK(metric_find(metric_table[metric].key) == &metric_table[metric]);
		CHECK(metric_table[metric].read != NULL);
		CHECK(metric_table[metric].tool < TOOL_COUNT);
	}
	CHECK(metric_find("seconds") == NULL);
	CHECK_STR(tool_table[TOOL_CACHE].options[0], "--tool=callgrind");
}

static void cycles_should_run_only_for_a_scenario_that_opts_in(void)
{
	struct scenario_info plain = SCENARIO_INFO_INIT, opted = SCENARIO_INFO_INIT;

	opted.gate_cycles = true;
	CHECK(metric_tool_wanted(TOOL_CALLGRIND, &plain, false));
	CHECK(metric_tool_wanted(TOOL_DHAT, &plain, false));
	CHECK(!metric_tool_wanted(TOOL_CACHE, &plain, false));
	CHECK(metric_tool_wanted(TOOL_CACHE, &plain, true)); /* --all-metrics */
	CHECK(metric_tool_wanted(TOOL_CACHE, &opted, false));
	CHECK(!metric_limit_gated(METRIC_CYCLES, &plain));
	CHECK(metric_limit_gated(METRIC_CYCLES, &opted));
	CHECK(metric_limit_gated(METRIC_INSTRUCTIONS, &plain));
	CHECK(!metric_limit_gated(METRIC_BYTES, &opted));
}

/* One function for every metric: those with counts get their figures, the others none. */
static void measurement_compute_should_figure_every_metric_it_has(void)
{
	static const uint64_t instructions[SLOPE_RUNS] = { 500, 10400, 20400 };
	static const uint64_t cycles[SLOPE_RUNS] = { 900, 30800, 60800 };
	struct measurement measurement;
	struct gate_error err = GATE_ERROR_INIT;

	memset(&measurement, 0, sizeof(measurement));
	measurement.messages = 1000;
	memcpy(measurement.counts[METRIC_INSTRUCTIONS], instructions, sizeof(instructions));
	memcpy(measurement.counts[METRIC_CYCLES], cycles, sizeof(cycles));
	measurement.has[METRIC_INSTRUCTIONS] = measurement.has[METRIC_CYCLES] = true;
	measurement.slopes[METRIC_BYTES].per_message = -1; /* no counts: left alone */
	CHECK(measurement_compute(&measurement, &err) == 0);
	CHECK(measurement.slopes[METRIC_INSTRUCTIONS].per_message == 10.0);
	CHECK_U64(measurement.slopes[METRIC_INSTRUCTIONS].cold, 500);
	CHECK(measurement.slopes[METRIC_CYCLES].per_message == 30.0);
	CHECK_U64(measurement.slopes[METRIC_CYCLES].cold, 900);
	CHECK(measurement.slopes[METRIC_BYTES].per_message == -1);
	measurement.counts[METRIC_CYCLES][SLOPE_TWICE_N] = 30800; /* no growth: implausible */
	CHECK(measurement_compute(&measurement, &err) == -1);
	CHECK_CONTAINS(err.message, "estimated cycles are implausible");
}

int main(void)
{
	return RUN_CASES(syscalls_should_be_the_regions_inclusive_count,
			 limits_should_come_from_the_declaration_that_sets_them,
			 cycles_should_be_l1_hits_plus_5_last_level_hits_plus_35_ram_accesses,
			 metrics_should_be_found_by_key_and_read_by_their_tools,
			 cycles_should_run_only_for_a_scenario_that_opts_in,
			 measurement_compute_should_figure_every_metric_it_has);
}
