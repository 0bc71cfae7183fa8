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

	CHECK(scenario_set_gate_metric(&opted, "cycles", true, NULL) == 0);
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
/* What a metric can break is named from its key and shape, and a kind is found back from its
 * number. */
static void metric_kinds_should_be_named_from_the_key(void)
{
	static const struct {
		enum metric_id metric;
		enum metric_kind kind;
		const char *name;
	} rows[] = {
		{ METRIC_INSTRUCTIONS, METRIC_KIND_FIGURE, "instructions" },
		{ METRIC_CYCLES, METRIC_KIND_COLD, "cold_cycles" },
		{ METRIC_CYCLES, METRIC_KIND_GATE, "gate_cycles" },
		{ METRIC_BYTES, METRIC_KIND_STEADY_FLOOR, "steady_bytes_floor" },
		{ METRIC_PEAK_BYTES, METRIC_KIND_COLD_FLOOR, "cold_peak_bytes_floor" },
		{ METRIC_SYSCALLS, METRIC_KIND_FIGURE, "syscalls" },      /* a rise, at limit 0 */
		{ METRIC_SYSCALLS, METRIC_KIND_STEADY_FLOOR, "steady_syscalls_floor" },
		{ METRIC_BYTES, METRIC_KIND_FIGURE, "" },                 /* floors only */
		{ METRIC_INSTRUCTIONS, METRIC_KIND_GATE, "" },            /* always gated */
		{ METRIC_ALLOCATIONS, METRIC_KIND_STEADY_FLOOR, "" },     /* a setting of its own */
	};
	const struct acceptance_figures *figures = metric_acceptance_figures();
	char name[80];
	size_t i;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		unsigned kind = METRIC_KIND(rows[i].metric, rows[i].kind);
		enum metric_kind which;

		metric_kind_name(name, sizeof(name), rows[i].metric, rows[i].kind);
		CHECK_STR(name, rows[i].name);
		CHECK_STR(acceptance_metric_name(figures, kind), rows[i].name);
		CHECK(metric_of_kind(kind, &which) == rows[i].metric && which == rows[i].kind);
	}
	CHECK(acceptance_value_of(figures, METRIC_KIND(METRIC_CYCLES, METRIC_KIND_GATE)) ==
	      ACCEPT_VALUE_ZERO);
	CHECK(acceptance_value_of(figures, METRIC_FLOOR_ACCEPTANCE(METRIC_BYTES, true)) ==
	      ACCEPT_VALUE_FLOOR);
	CHECK(acceptance_value_of(figures, METRIC_ACCEPTANCE(METRIC_CYCLES, false)) ==
	      ACCEPT_VALUE_ABOVE);
}

/* A scenario's floors and requests by key hold the metrics that take them, and a key this gate
 * does not know is refused with the keys there are. */
static void declarations_should_name_metrics_of_this_gate(void)
{
	struct scenario_info info = SCENARIO_INFO_INIT;
	struct gate_error err = GATE_ERROR_INIT;

	info.name = (char *)"alpha";
	CHECK(scenario_set_floor(&info, "steady_bytes", 64, NULL) == 0);
	CHECK(scenario_set_floor(&info, "cold_syscalls", 3, NULL) == 0);
	CHECK(scenario_set_gate_metric(&info, "cycles", true, NULL) == 0);
	CHECK(metric_check_declarations(&info, &err) == 0);
	CHECK(metric_floor(&info, METRIC_BYTES, false) == 64);
	CHECK(metric_floor(&info, METRIC_BYTES, true) == 0);
	CHECK(metric_floor(&info, METRIC_SYSCALLS, true) == 3);
	CHECK(metric_opted_in(METRIC_CYCLES, &info) && metric_opted_in(METRIC_INSTRUCTIONS, &info));
	CHECK(metric_of_floor("cold_peak_bytes") == &metric_table[METRIC_PEAK_BYTES]);
	CHECK(metric_of_floor("steady_instructions") == NULL);

	CHECK(scenario_set_floor(&info, "steady_instructions", 5, NULL) == 0);
	CHECK(metric_check_declarations(&info, &err) == -1);
	CHECK_CONTAINS(err.message, "scenario 'alpha' declares the floor 'steady_instructions', which "
				    "no metric of this gate takes (floors: 'steady_allocations', "
				    "'cold_allocations', 'steady_bytes', 'cold_bytes', ");
	CHECK(scenario_set_floor(&info, "steady_instructions", 0, NULL) == 0);
	CHECK(scenario_set_gate_metric(&info, "instructions", true, NULL) == 0);
	err = (struct gate_error)GATE_ERROR_INIT;
	CHECK(metric_check_declarations(&info, &err) == -1);
	CHECK_STR(err.message, "scenario 'alpha' asks to gate 'instructions', which is not a metric "
			       "of this gate gated on request (those are: 'cycles')");
}

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
			 metric_kinds_should_be_named_from_the_key,
			 declarations_should_name_metrics_of_this_gate,
			 limits_should_come_from_the_declaration_that_sets_them,
			 cycles_should_be_l1_hits_plus_5_last_level_hits_plus_35_ram_accesses,
			 metrics_should_be_found_by_key_and_read_by_their_tools,
			 cycles_should_run_only_for_a_scenario_that_opts_in,
			 measurement_compute_should_figure_every_metric_it_has);
}
