/* Unit tests of ownership on a profile written here whose lines point into this test's own
 * source, so the owners come from this executable's real DWARF. */
#include "check.h"
#include "ownership.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static int helper_line; /* a line inside inlined_helper's definition */
static int caller_line; /* one inside caller_function's */

static inline int inlined_helper(int value)
{
	helper_line = __LINE__;
	return value + 1;
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
	struct cg_function function = { (char *)name, (char *)__FILE__, 0, 0, (char *)object, 0,
					 lines, count };
	size_t i;

	for (i = 0; i < count; i++) {
		function.exclusive += lines[i].exclusive;
		function.inclusive += lines[i].exclusive + lines[i].calls;
		function.library_calls += lines[i].library_calls;
	}
	return function;
}

static void ownership_should_split_off_inlined_code_under_its_own_name(void)
{
	char *files[] = { (char *)__FILE__ };
	struct cg_line lines[2];
	struct cg_function functions[2];
	struct cg_profile profile = { .functions = functions, .function_count = 2, .files = files, .file_count = 1 };
	struct ownership ownership;
	struct ownership_objects objects = { 0 };
	const struct owned_cost *caller, *inlined, *library;

	CHECK(caller_function(1) == 4);
	lines[0] = (struct cg_line){ 0, (uint64_t)caller_line, 10, 50, 50 }; /* a strlen of 50 */
	lines[1] = (struct cg_line){ 0, (uint64_t)helper_line, 7, 30, 20 };
	functions[0] = function_with_lines("caller_function", "/proc/self/exe", lines, 2);
	functions[1] = function_with_lines("strlen", "/usr/lib/x86_64-linux-gnu/libc.so.6", NULL, 0);
	functions[1].exclusive = 70;
	CHECK(ownership_compute(&ownership, &profile, &objects) == 0);
	CHECK_U64(ownership.count, 3);
	caller = ownership_find(&ownership, "caller_function");
	inlined = ownership_find(&ownership, "inlined_helper (inlined into caller_function)");
	library = ownership_find(&ownership, "strlen");
	CHECK(caller != NULL && inlined != NULL && library != NULL);
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
	ownership_release(&ownership);
	ownership_objects_release(&objects);
}

/* A recursion level or a clone of the same function is not code inlined into it. */
static void ownership_should_not_split_a_function_from_its_clone(void)
{
	char *files[] = { (char *)__FILE__ };
	struct cg_line lines[1];
	struct cg_function functions[2];
	struct cg_profile profile = { .functions = functions, .function_count = 2, .files = files, .file_count = 1 };
	struct ownership ownership;
	struct ownership_objects objects = { 0 };

	CHECK(caller_function(2) == 6);
	lines[0] = (struct cg_line){ 0, (uint64_t)caller_line, 10, 0, 0 };
	functions[0] = function_with_lines("caller_function'2", "/proc/self/exe", lines, 1);
	functions[1] = function_with_lines("caller_function.constprop.0", "/proc/self/exe", lines, 1);
	CHECK(ownership_compute(&ownership, &profile, &objects) == 0);
	CHECK_U64(ownership.count, 2);
	CHECK(ownership_find(&ownership, "caller_function'2") != NULL);
	CHECK(ownership_find(&ownership, "caller_function.constprop.0") != NULL);
	ownership_release(&ownership);
	ownership_objects_release(&objects);
}

int main(void)
{
	RUN(ownership_should_split_off_inlined_code_under_its_own_name);
	RUN(ownership_should_not_split_a_function_from_its_clone);
	return CHECK_EXIT();
}
