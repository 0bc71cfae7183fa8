/* libFuzzer target for the callgrind parser (gate/callgrind.c): any bytes as a callgrind output
 * file. Besides ASan and UBSan, a parsed profile must keep the promises of callgrind.h: functions
 * sorted and unique by name, the total the sum of the exclusive costs, each function's inclusive
 * at least its exclusive; a refused file leaves the profile empty and says why. A profile added
 * twice to an empty sum (cg_profile_add, as parts are) keeps those promises with every cost
 * doubled, or is refused for an overflow with the sum as it was. */
#define _GNU_SOURCE
#include <string.h>

#include "callgrind.h"
#include "fuzz_input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The profile added to an empty sum, then again: every function's costs doubled, by name. */
static void check_doubled(const struct cg_profile *profile)
{
	struct cg_profile twice = CG_PROFILE_INIT;
	struct gate_error err = GATE_ERROR_INIT;
	size_t i;

	FUZZ_REQUIRE(cg_profile_add(&twice, profile, &err) == 0);
	FUZZ_REQUIRE(twice.total == profile->total && twice.function_count == profile->function_count);
	if (cg_profile_add(&twice, profile, &err) != 0) {
		FUZZ_REQUIRE(strstr(err.message, "overflows") != NULL);
		FUZZ_REQUIRE(twice.total == profile->total);
		cg_profile_release(&twice);
		return;
	}
	FUZZ_REQUIRE(twice.total == 2 * profile->total);
	FUZZ_REQUIRE(twice.function_count == profile->function_count);
	for (i = 0; i < profile->function_count; i++) {
		const struct cg_function *function = &profile->functions[i];
		const struct cg_function *doubled =
			cg_profile_find_in(&twice, function->name, function->object);
		size_t j;

		FUZZ_REQUIRE(doubled != NULL && doubled->exclusive == 2 * function->exclusive);
		FUZZ_REQUIRE(doubled->inclusive == 2 * function->inclusive);
		FUZZ_REQUIRE(doubled->line_count == function->line_count);
		/* Costs by address, added address by address; a sum keeps no calls. */
		FUZZ_REQUIRE(doubled->instr_count == function->instr_count && doubled->call_count == 0);
		for (j = 0; j < function->instr_count; j++)
			FUZZ_REQUIRE(doubled->instrs[j].address == function->instrs[j].address &&
				     doubled->instrs[j].exclusive == 2 * function->instrs[j].exclusive);
	}
	cg_profile_release(&twice);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct cg_profile profile = CG_PROFILE_INIT;
	struct gate_error err = GATE_ERROR_INIT;
	uint64_t sum = 0;
	size_t i;

	if (cg_profile_parse(&profile, fuzz_input_path(data, size), &err) != 0) {
		FUZZ_REQUIRE(err.message[0] != '\0');
		FUZZ_REQUIRE(profile.functions == NULL && profile.function_count == 0);
		FUZZ_REQUIRE(profile.event == NULL && profile.total == 0);
		return 0;
	}
	FUZZ_REQUIRE(profile.event != NULL);
	for (i = 0; i < profile.function_count; i++) {
		const struct cg_function *function = &profile.functions[i];

		const struct cg_function *before = i > 0 ? &profile.functions[i - 1] : NULL;

		FUZZ_REQUIRE(function->name != NULL && function->file != NULL &&
			     function->object != NULL);
		/* By name, then object: a name two objects define is two entries. */
		FUZZ_REQUIRE(before == NULL || strcmp(before->name, function->name) < 0 ||
			     (strcmp(before->name, function->name) == 0 &&
			      strcmp(before->object, function->object) < 0));
		FUZZ_REQUIRE(cg_profile_find_in(&profile, function->name, function->object) == function);
		FUZZ_REQUIRE(cg_profile_find(&profile, function->name) != NULL &&
			     strcmp(cg_profile_find(&profile, function->name)->name, function->name) == 0);
		FUZZ_REQUIRE(function->inclusive >= function->exclusive);
		FUZZ_REQUIRE(sum + function->exclusive >= sum);
		sum += function->exclusive;
	}
	FUZZ_REQUIRE(sum == profile.total);
	check_doubled(&profile);
	cg_profile_release(&profile);
	FUZZ_REQUIRE(profile.functions == NULL && profile.event == NULL);
	return 0;
}
