/* Unit tests of debuginfo on this test executable's own DWARF (built -O2 -g like every target):
 * a line belongs to the function whose definition holds it, inlined or not. */
#define _GNU_SOURCE
#include "check.h"
#include "debuginfo_declared.h"
#include "debuginfo.h"

#include <dlfcn.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static int inlined_line; /* set inside inlined_helper, which -O2 inlines into its one caller */
/* Read by the helper, so that its work stays: clang 14 worked out its result and the line it
 * records at compile time, and kept no inlined instance of it, nor any DWARF naming it. */
static volatile int inlined_factor = 3;

static inline int inlined_helper(int value)
{
	inlined_line = __LINE__;
	return value * inlined_factor;
}

static void debuginfo_should_name_the_function_that_holds_a_line(void)
{
	struct debuginfo info;
	int here = __LINE__;

	CHECK(debuginfo_read(&info, "/proc/self/exe") == 0);
	CHECK(info.count > 0);
	CHECK_STR(debuginfo_owner(&info, __FILE__, (uint64_t)here),
		  "debuginfo_should_name_the_function_that_holds_a_line");
	CHECK(inlined_helper(here) == 3 * here);
	CHECK_STR(debuginfo_owner(&info, __FILE__, (uint64_t)inlined_line), "inlined_helper");
	debuginfo_release(&info);
}

/* The file that defines a global variable, as a scenario's `costgate_scenario` names its source. */
int debuginfo_test_variable = 1;
int debuginfo_declared_variable = 2; /* declared in debuginfo_declared.h */

static void debuginfo_should_name_the_file_that_defines_a_variable(void)
{
	char *file = NULL;
	size_t length;

	CHECK(debuginfo_variable_file("/proc/self/exe", "debuginfo_test_variable", &file) == 0);
	length = file != NULL ? strlen(file) : 0;
	CHECK(file != NULL && file[0] == '/' && length > 28 &&
	      strcmp(file + length - 28, "/unit/parse/test_debuginfo.c") == 0);
	free(file);
	CHECK(debuginfo_variable_file("/proc/self/exe", "no_such_variable", &file) == 0);
	CHECK(file == NULL);
	CHECK(debuginfo_variable_file("/nonexistent/object", "debuginfo_test_variable", &file) == 0);
	CHECK(file == NULL);
	/* Declared in a header first: the definition's file, not the declaration's. */
	CHECK(debuginfo_variable_file("/proc/self/exe", "debuginfo_declared_variable", &file) == 0);
	length = file != NULL ? strlen(file) : 0;
	CHECK(file != NULL && length > 28 &&
	      strcmp(file + length - 28, "/unit/parse/test_debuginfo.c") == 0);
	free(file);
}

static void debuginfo_should_match_a_file_by_its_trailing_path(void)
{
	struct debuginfo info;
	int here = __LINE__;

	CHECK(debuginfo_read(&info, "/proc/self/exe") == 0);
	CHECK_STR(debuginfo_owner(&info, "unit/parse/test_debuginfo.c", (uint64_t)here),
		  "debuginfo_should_match_a_file_by_its_trailing_path");
	CHECK(debuginfo_owner(&info, "debuginfo.c/test_debuginfo.c", (uint64_t)here) == NULL);
	CHECK(debuginfo_owner(&info, "est_debuginfo.c", (uint64_t)here) == NULL);
	CHECK(debuginfo_owner(&info, __FILE__, 0) == NULL);
	debuginfo_release(&info);
}

static void debuginfo_should_give_nothing_for_an_object_without_dwarf(void)
{
	struct debuginfo info;

	CHECK(debuginfo_read(&info, "/nonexistent/object") == 0);
	CHECK_U64(info.count, 0);
	CHECK(debuginfo_owner(&info, __FILE__, 10) == NULL);
	debuginfo_release(&info);
	CHECK(debuginfo_read(&info, FIXTURE_DIR "/callgrind/objects.out") == 0);
	CHECK_U64(info.count, 0);
	debuginfo_release(&info);
	debuginfo_release(NULL);
}

/* The options a producer records that decide the code: GCC's as they are, clang's recorded command
 * line without its files, paths, include directories, macros and warnings. */
static void debuginfo_should_read_the_options_a_producer_records(void)
{
	char *flags = NULL;

	CHECK(debuginfo_producer_flags("GNU C17 12.2.0 -mtune=generic -march=x86-64 -g -O2 "
				       "-fasynchronous-unwind-tables", &flags) == 0);
	CHECK_STR(flags, "-mtune=generic -march=x86-64 -g -O2 -fasynchronous-unwind-tables");
	free(flags);
	CHECK(debuginfo_producer_flags("Debian clang version 14.0.6 /usr/lib/llvm-14/bin/clang -c "
				       "-I /src/include -Isrc -DNDEBUG -D X=1 -Wall -O2 -gdwarf-4 "
				       "-grecord-command-line -fdebug-prefix-map=/src=. -std=c99 "
				       "-o out/a.o /src/a.c", &flags) == 0);
	CHECK_STR(flags, "-O2 -gdwarf-4 -grecord-command-line -std=c99");
	free(flags);
	/* clang without -grecord-command-line, and GCC with -gno-record-gcc-switches: nothing. */
	CHECK(debuginfo_producer_flags("Debian clang version 14.0.6", &flags) == 0);
	CHECK(flags == NULL);
	CHECK(debuginfo_producer_flags("GNU C17 12.2.0", &flags) == 0);
	CHECK(flags == NULL);
	CHECK(debuginfo_producer_flags(NULL, &flags) == 0);
	CHECK(flags == NULL);
}

static void debuginfo_should_tell_options_that_optimise(void)
{
	CHECK(debuginfo_flags_optimise("-g -O2"));
	CHECK(debuginfo_flags_optimise("-O"));
	CHECK(debuginfo_flags_optimise("-O0 -g -Os"));
	CHECK(debuginfo_flags_optimise("-mtune=generic -g -O3 -fasynchronous-unwind-tables"));
	/* No -O at all is GCC's and clang's -O0; the last one given counts. */
	CHECK(!debuginfo_flags_optimise("-mtune=generic -march=x86-64 -g -fasynchronous-unwind-tables"));
	CHECK(!debuginfo_flags_optimise("-O2 -g -O0"));
	CHECK(!debuginfo_flags_optimise("-fno-omit-frame-pointer"));
}

/* A project function named with the harness's prefix: no mark of the harness (a pull request
 * could name its code so to hide it among the harness's). */
int costgate_lookalike(int value);
int costgate_lookalike(int value)
{
	return value + 1;
}

/* This executable's own units: its test file's records the options it was compiled with, and
 * none of its units is the harness's, not even this one with costgate_lookalike. */
static int find_own_unit(const struct debuginfo_unit *unit, void *context)
{
	char **flags = context;

	if (unit->file != NULL && strstr(unit->file, "test_debuginfo.c") != NULL) {
		CHECK(!unit->harness);
		return debuginfo_producer_flags(unit->producer, flags) == 0 ? 1 : -1;
	}
	return 0;
}

static void debuginfo_should_give_each_unit_and_its_producer(void)
{
	char *flags = NULL;

	CHECK(debuginfo_each_unit("/proc/self/exe", find_own_unit, &flags) == 1);
#ifdef __clang__
	/* clang records its options only with -grecord-command-line, which gate's own build does
	 * not give its tests. */
	CHECK(flags == NULL || debuginfo_flags_optimise(flags));
#else
	CHECK(flags != NULL && debuginfo_flags_optimise(flags));
#endif
	free(flags);
	CHECK(debuginfo_each_unit("/nonexistent/object", find_own_unit, &flags) == -1);
}

/* Out of line, so that its address is its own code. */
__attribute__((noinline)) int debuginfo_addressed_function(int value);
__attribute__((noinline)) int debuginfo_addressed_function(int value)
{
	return value * inlined_factor + 1;
}

/* By address, as callgrind writes one (an offset in the object): the function whose code it is,
 * not inlined; an address outside every function names none. */
static void debuginfo_should_name_the_function_at_an_address(void)
{
	struct debuginfo info;
	Dl_info where;
	const char *name = "unset";
	bool inlined = true, ambiguous = true;
	uint64_t address;

	CHECK(debuginfo_addressed_function(2) == 2 * inlined_factor + 1);
	CHECK(dladdr((void *)debuginfo_addressed_function, &where) != 0);
	address = (uint64_t)(uintptr_t)debuginfo_addressed_function - (uint64_t)(uintptr_t)where.dli_fbase;
	CHECK(debuginfo_read(&info, "/proc/self/exe") == 0);
	CHECK(debuginfo_owner_at(&info, address, &name, &inlined, &ambiguous) == 0);
	CHECK_STR(name, "debuginfo_addressed_function");
	CHECK(!inlined && !ambiguous);
	/* Asked again: the same answer, from what was kept. */
	CHECK(debuginfo_owner_at(&info, address, &name, &inlined, &ambiguous) == 0 && info.place_count == 1);
	CHECK_STR(name, "debuginfo_addressed_function");
	CHECK(debuginfo_owner_at(&info, 0, &name, &inlined, &ambiguous) == 0 && name == NULL && !inlined);
	debuginfo_release(&info);
	CHECK(info.fd == -1 && info.dwarf == NULL);
}

int main(void)
{
	RUN(debuginfo_should_name_the_function_at_an_address);
	RUN(debuginfo_should_read_the_options_a_producer_records);
	RUN(debuginfo_should_tell_options_that_optimise);
	RUN(debuginfo_should_give_each_unit_and_its_producer);
	RUN(debuginfo_should_name_the_function_that_holds_a_line);
	RUN(debuginfo_should_match_a_file_by_its_trailing_path);
	RUN(debuginfo_should_name_the_file_that_defines_a_variable);
	RUN(debuginfo_should_give_nothing_for_an_object_without_dwarf);
	return CHECK_EXIT();
}
