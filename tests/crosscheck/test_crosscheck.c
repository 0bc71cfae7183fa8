/* Unit tests of the second opinion: what its native run prints, and how its figures are held to
 * the measured ones (blocks exactly, instructions one way, within the tolerance). */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "crosscheck.h"
#include "measured.h"

static void parse_should_read_the_allocations_and_the_instructions(void)
{
	struct measurement measurement = measured("alpha", 1000, 5000);
	struct gate_error err = GATE_ERROR_INIT;
	char why[64] = "";

	CHECK(crosscheck_parse("allocations 19 19000 38000\ninstructions 900 950000 1900000\n",
			       &measurement, why, sizeof(why), &err) == 0);
	CHECK(measurement.has_native && measurement.has_native_instructions);
	CHECK_U64(measurement.native_allocations[SLOPE_TWICE_N], 38000);
	CHECK_U64(measurement.native_instructions[SLOPE_N], 950000);
	CHECK_STR(why, "");
	measurement = measured("alpha", 1000, 5000);
	CHECK(crosscheck_parse("allocations 0 0 0\ninstructions unavailable: No such file or "
			       "directory\n", &measurement, why, sizeof(why), &err) == 0);
	CHECK(measurement.has_native && !measurement.has_native_instructions);
	CHECK_STR(why, "No such file or directory");
}

static void parse_should_reject_anything_else(void)
{
	static const char *const refused[] = {
		"", "allocations 1 2\n", "allocations 1 2 3", "allocations -1 2 3\n",
		"allocations 1 2 3x\n", "allocations 1 2 3\nmore\n",
		"allocations 1 2 3\ninstructions 1 2\n",
		"allocations 1 2 99999999999999999999999\n",
	};
	struct gate_error err = GATE_ERROR_INIT;
	size_t i;

	for (i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		struct measurement measurement = measured("alpha", 1000, 5000);

		CHECK(crosscheck_parse(refused[i], &measurement, NULL, 0, &err) != 0);
		CHECK(!measurement.has_native_instructions);
	}
	CHECK_CONTAINS(err.message, "not 'allocations C1 C2 C3'");
}

/* measured.h's 19 blocks a message and cold at N = 1000, with native blocks and instructions. */
static struct measurement with_native(uint64_t one, uint64_t n, uint64_t twice)
{
	struct measurement measurement = measured("alpha", 1000, 5000);

	measurement.counts[METRIC_ALLOCATIONS][SLOPE_ONE] = 19;
	measurement.counts[METRIC_ALLOCATIONS][SLOPE_N] = 19000;
	measurement.counts[METRIC_ALLOCATIONS][SLOPE_TWICE_N] = 38000;
	measurement.has_native = true;
	measurement.native_backlog = 3;
	measurement.native_allocations[SLOPE_ONE] = one;
	measurement.native_allocations[SLOPE_N] = n;
	measurement.native_allocations[SLOPE_TWICE_N] = twice;
	return measurement;
}

static void compare_should_hold_the_blocks_to_the_digit(void)
{
	struct measurement measurement = with_native(19, 19000, 38000);

	crosscheck_compare(&measurement);
	CHECK(!measurement.failed);
	measurement = with_native(19, 21000, 42000);
	crosscheck_compare(&measurement);
	CHECK(measurement.failed);
	CHECK_STR(measurement.failure,
		  "behaves differently when measured: 21.000 heap blocks per message and 19 cold "
		  "natively (address randomisation on, no pins, N on stdin, at most 3 messages "
		  "waiting), against 19.000 and 19 measured (19 / 21000 / 42000 at 1 / N / 2N, "
		  "against 19 / 19000 / 38000)");
	/* An offset that cancels in the slope still differs. */
	measurement = with_native(19, 19001, 38001);
	crosscheck_compare(&measurement);
	CHECK(measurement.failed);
	/* Without native figures (a document from before them) nothing is compared. */
	measurement = with_native(0, 0, 0);
	measurement.has_native = false;
	crosscheck_compare(&measurement);
	CHECK(!measurement.failed);
}

/* Natively the CPU's own string functions and tcmalloc run: fewer instructions is honest, a
 * quarter more than callgrind's region (the program's and the allocator's) is not. */
static void compare_should_hold_the_instructions_one_way(void)
{
	static const struct {
		uint64_t per_message; /* natively, against callgrind's 1200 */
		bool fails;
	} cases[] = { { 1500, false }, { 400, false }, { 1501, true }, { 2400, true } };
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct measurement measurement = with_native(19, 19000, 38000);

		measurement.has[METRIC_ALLOCATOR_INSTRUCTIONS] = true;
		measurement.slopes[METRIC_ALLOCATOR_INSTRUCTIONS].per_message = 200;
		measurement.has_native_instructions = true;
		measurement.native_instructions[SLOPE_N] = 1000000;
		measurement.native_instructions[SLOPE_TWICE_N] = 1000000 + cases[i].per_message * 1000;
		crosscheck_compare(&measurement);
		CHECK(measurement.failed == cases[i].fails);
		if (cases[i].per_message == 2400)
			CHECK_STR(measurement.failure,
				  "behaves differently when measured: 2400.000 instructions per message "
				  "natively (address randomisation on, no pins, N on stdin, at most 3 "
				  "messages waiting), against 1200.000 measured (the program's and the "
				  "allocator's): +100.0 %, above the 25 % the CPU's own string functions "
				  "and tcmalloc allow");
	}
}

int main(void)
{
	return RUN_CASES(parse_should_read_the_allocations_and_the_instructions,
			 parse_should_reject_anything_else, compare_should_hold_the_blocks_to_the_digit,
			 compare_should_hold_the_instructions_one_way);
}
