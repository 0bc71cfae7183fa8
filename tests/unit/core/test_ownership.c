/* Unit tests of ownership on a profile written here whose lines point into this test's own
 * source, so the owners come from this executable's real DWARF. */
#include "check.h"
#include "ownership.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static int helper_line; /* a line inside inlined_helper's definition */
static int caller_line; /* one inside caller_function's */
/* Read by the helper, so that its work stays: clang 14 worked out the calls below at compile
 * time, and kept no inlined instance of the helper, nor any DWARF naming it. */
static volatile int helper_step = 1;

static inline int inlined_helper(int value)
{
	helper_line = __LINE__;
	return value + helper_step;
}

/* The function callgrind would count everything under. */
static int caller_function(int value)
{
	caller_line = __LINE__;
	return inlined_helper(value) * 2;
}

static struct cg_function function_with_lines(const char *name, const char *object,
					      struct cg_line *lines, size_t count)
{
	struct cg_function function = { .name = (char *)name, .file = (char *)__FILE__,
					 .object = (char *)object, .lines = lines,
					 .line_count = count };
	size_t i;

	for (i = 0; i < count; i++) {
		function.exclusive += lines[i].exclusive;
		function.inclusive += lines[i].exclusive + lines[i].calls;
		function.library_calls += lines[i].library_calls;
	}
	return function;
}

/* The ownership of a profile of `count` functions whose lines are in this file, and the objects
 * it read to find their owners. */
struct owned {
	struct ownership ownership;
	struct ownership_objects objects;
};

static void own(struct owned *owned, struct cg_function *functions, size_t count, uint64_t total)
{
	static char *files[] = { (char *)__FILE__ };
	struct cg_profile profile = { .functions = functions, .function_count = count, .files = files,
				      .file_count = 1, .total = total };

	owned->objects = (struct ownership_objects){ 0 };
	CHECK(ownership_compute(&owned->ownership, &profile, &owned->objects) == 0);
}

static void disown(struct owned *owned)
{
	ownership_release(&owned->ownership);
	ownership_objects_release(&owned->objects);
}

/* The cost owned by `name`, which must be there. */
static const struct owned_cost *owner(const struct owned *owned, const char *name)
{
	const struct owned_cost *cost = ownership_find(&owned->ownership, name, true, false);

	if (cost == NULL)
		cost = ownership_find(&owned->ownership, name, false, false);

	if (cost == NULL)
		check_failed(__FILE__, __LINE__, "no cost is owned by '%s'", name);
	return cost;
}

/* glibc's alloc_perturb and a project function of that name are two owners (the parser keeps
 * them apart by object): the project's cost is never the system library's. A function's system
 * calls, its own and its direct library callees', stay with it. */
static void ownership_should_keep_a_project_function_named_like_a_system_ones_apart(void)
{
	struct cg_function functions[2] = {
		{ .name = (char *)"alloc_perturb", .file = (char *)"malloc.c",
		  .object = (char *)"/usr/lib/x86_64-linux-gnu/libc.so.6", .exclusive = 5,
		  .inclusive = 5 },
		{ .name = (char *)"alloc_perturb", .file = (char *)"nodes.c",
		  .object = (char *)"/work/build/scenarios/nodes", .exclusive = 900, .inclusive = 930,
		  .library_calls = 30, .syscalls = { .exclusive = 0, .inclusive = 2, .library = 2 } },
	};
	struct owned owned;
	const struct owned_cost *project, *system;

	own(&owned, functions, 2, 0);
	CHECK_U64(owned.ownership.count, 2);
	project = ownership_find(&owned.ownership, "alloc_perturb", true, false);
	system = ownership_find(&owned.ownership, "alloc_perturb", false, false);
	CHECK(project != NULL && system != NULL);
	if (project != NULL && system != NULL) {
		CHECK_U64(project->exclusive, 900);
		CHECK_U64(project->with_library, 930);
		CHECK_U64(project->syscalls, 2);
		CHECK_U64(system->exclusive, 5);
		CHECK_U64(system->syscalls, 0);
	}
	disown(&owned);
}

static void ownership_should_split_off_inlined_code_under_its_own_name(void)
{
	struct cg_line lines[2];
	struct cg_function functions[2];
	struct owned owned;
	const struct owned_cost *caller, *inlined, *library;

	CHECK(caller_function(1) == 4);
	lines[0] = (struct cg_line){ 0, (uint64_t)caller_line, 10, 50, 50, 0 }; /* a strlen of 50 */
	lines[1] = (struct cg_line){ 0, (uint64_t)helper_line, 7, 30, 20, 0 };
	functions[0] = function_with_lines("caller_function", "/proc/self/exe", lines, 2);
	functions[1] = function_with_lines("strlen", "/usr/lib/x86_64-linux-gnu/libc.so.6", NULL, 0);
	functions[1].exclusive = 70;
	own(&owned, functions, 2, 0);
	CHECK_U64(owned.ownership.count, 3);
	caller = owner(&owned, "caller_function");
	inlined = owner(&owned, "inlined_helper (inlined into caller_function)");
	library = owner(&owned, "strlen");
	if (caller != NULL && inlined != NULL && library != NULL) {
		CHECK_U64(caller->exclusive, 10);
		CHECK_U64(caller->with_library, 60);
		CHECK_U64(caller->inclusive, 97); /* callgrind's, the inlined code's included */
		CHECK(caller->project);
		CHECK_U64(inlined->exclusive, 7);
		CHECK_U64(inlined->inclusive, 37);
		CHECK_U64(inlined->with_library, 27);
		CHECK(inlined->project);
		CHECK_U64(library->exclusive, 70);
		CHECK(!library->project);
	}
	disown(&owned);
}

/* A clone of the same function is not code inlined into it, and a recursion level is the same
 * function: "caller_function'2" is counted as "caller_function". */
static void ownership_should_not_split_a_function_from_its_clone(void)
{
	struct cg_line lines[1];
	struct cg_function functions[2];
	struct owned owned;

	CHECK(caller_function(2) == 6);
	lines[0] = (struct cg_line){ 0, (uint64_t)caller_line, 10, 0, 0, 0 };
	functions[0] = function_with_lines("caller_function'2", "/proc/self/exe", lines, 1);
	functions[1] = function_with_lines("caller_function.constprop.0", "/proc/self/exe", lines, 1);
	own(&owned, functions, 2, 0);
	CHECK_U64(owned.ownership.count, 2);
	owner(&owned, "caller_function");
	owner(&owned, "caller_function.constprop.0");
	CHECK(ownership_find(&owned.ownership, "caller_function'2", true, false) == NULL);
	CHECK(ownership_find(&owned.ownership, "caller_function'2", false, false) == NULL);
	disown(&owned);
}

/* A recursive function as callgrind writes it (--separate-recs=2): the outermost level "f" calls
 * "f'2", which calls itself, and each level calls strlen; code inlined into both levels calls
 * the deeper level. callgrind's inclusive cost of f'2 counts a recursive call at every level. */
static void ownership_should_count_a_recursive_function_once(void)
{
	struct cg_line outer[2], inner[2];
	struct cg_function functions[3];
	struct owned owned;
	const struct owned_cost *caller, *inlined;
	size_t i;

	CHECK(caller_function(3) == 8);
	/* Outer level: 10 own (50 in strlen), 7 inlined whose call into the deeper level costs 121
	 * (all of f'2's cost: 40 + 21 own, 60 in strlen). */
	outer[0] = (struct cg_line){ 0, (uint64_t)caller_line, 10, 50, 50, 0 };
	outer[1] = (struct cg_line){ 0, (uint64_t)helper_line, 7, 121, 0, 0 };
	/* Deeper levels: 40 own (60 in strlen), 21 inlined whose calls to itself cost 80. */
	inner[0] = (struct cg_line){ 0, (uint64_t)caller_line, 40, 60, 60, 0 };
	inner[1] = (struct cg_line){ 0, (uint64_t)helper_line, 21, 80, 0, 0 };
	functions[0] = function_with_lines("caller_function", "/proc/self/exe", outer, 2);
	functions[1] = function_with_lines("caller_function'2", "/proc/self/exe", inner, 2);
	functions[2] = function_with_lines("strlen", "/usr/lib/x86_64-linux-gnu/libc.so.6", NULL, 0);
	functions[2].exclusive = functions[2].inclusive = 110;
	own(&owned, functions, 3, 10 + 7 + 40 + 21 + 60);
	for (i = 0; i < owned.ownership.count; i++)
		CHECK(strchr(owned.ownership.costs[i].name, '\'') == NULL);
	caller = owner(&owned, "caller_function");
	inlined = owner(&owned, "inlined_helper (inlined into caller_function)");
	if (caller != NULL && inlined != NULL) {
		CHECK_U64(caller->exclusive, 10 + 40);
		CHECK_U64(caller->with_library, 10 + 50 + 40 + 60);
		/* Everything under the outer level, once: its own inclusive, not the levels' sum. */
		CHECK_U64(caller->inclusive, 10 + 50 + 7 + 121);
		CHECK_U64(inlined->exclusive, 7 + 21);
		CHECK_U64(inlined->inclusive, 7 + 121);
		CHECK(inlined->inclusive <= caller->inclusive);
	}
	disown(&owned);
}

/* A call into malloc is the allocator's, not the caller's system-library cost. */
static void ownership_should_leave_the_allocator_out_of_library_costs(void)
{
	struct cg_line lines[1];
	struct cg_function functions[1];
	struct owned owned;
	const struct owned_cost *caller;

	CHECK(caller_function(4) == 10);
	lines[0] = (struct cg_line){ 0, (uint64_t)caller_line, 10, 90, 90, 70 }; /* 70 in malloc */
	functions[0] = function_with_lines("caller_function", "/proc/self/exe", lines, 1);
	functions[0].allocator_calls = 70;
	own(&owned, functions, 1, 0);
	caller = owner(&owned, "caller_function");
	CHECK(caller != NULL && caller->with_library == 10 + 20);
	disown(&owned);
}

int main(void)
{
	return RUN_CASES(ownership_should_keep_a_project_function_named_like_a_system_ones_apart,
			 ownership_should_split_off_inlined_code_under_its_own_name,
			 ownership_should_not_split_a_function_from_its_clone,
			 ownership_should_count_a_recursive_function_once,
			 ownership_should_leave_the_allocator_out_of_library_costs);
}
