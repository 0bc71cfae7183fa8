/* Unit tests of the executable checks (program.h) on files that are not scenarios: a text file,
 * an ELF header whose tables lie outside the file, and this test's own executable, which has no
 * measured region. The evasions themselves are built and refused in tests/evasion. */
#define FIXTURES "program"
#include "check.h"
#include "fixture.h"
#include "program.h"

#include <stdio.h>

static void program_should_refuse_a_file_that_is_not_elf(void)
{
	struct gate_error err = GATE_ERROR_INIT;
	char expected[600];

	CHECK(program_check(fixture("text.txt"), "costgate_measured_region", &err) == -1);
	snprintf(expected, sizeof(expected), "'%s' is not an ELF file", fixture("text.txt"));
	CHECK_STR(err.message, expected);
}

static void program_should_refuse_tables_outside_the_file(void)
{
	struct gate_error err = GATE_ERROR_INIT;

	CHECK(program_check(fixture("truncated.elf"), "costgate_measured_region", &err) == -1);
	CHECK_CONTAINS(err.message, "the section header table is out of the file");
}

static const char *self;

/* A 32-bit library (tests/unit/parse/elf/make_fixtures.sh) with the measured region and, in it,
 * valgrind.h's client request as x86 code has it. */
static void program_should_find_a_client_request_in_32_bit_code(void)
{
	struct gate_error err = GATE_ERROR_INIT;

	CHECK(program_check(ELF_FIXTURES "/libasks32.so.1", "costgate_measured_region", &err) == -1);
	CHECK_CONTAINS(err.message, "libasks32.so.1' holds a valgrind client request (the preamble of "
		       "valgrind.h) at 0x");
	CHECK_CONTAINS(err.message, " in 'costgate_measured_region': the program under test may not "
		       "talk to valgrind");
}

/* hwuser defines the region; so does the copy of its library in its run path's
 * glibc-hwcaps/x86-64-v2, the one the loader maps on such a CPU (make_fixtures.sh). */
static void program_should_read_the_cpu_subdirectories_of_the_run_path(void)
{
	struct gate_error err = GATE_ERROR_INIT;

	CHECK(program_check(ELF_FIXTURES "/hwuser", "costgate_measured_region", &err) == -1);
	CHECK_CONTAINS(err.message, "glibc-hwcaps/x86-64-v2/libhw.so.1");
}

/* symuser loads libs through a symbolic link in sym/; libs's run path $ORIGIN/deps is the
 * link's directory's, where libd defines the region a second time (make_fixtures.sh). */
static void program_should_take_origin_from_the_path_a_library_was_found_under(void)
{
	struct gate_error err = GATE_ERROR_INIT;

	CHECK(program_check(ELF_FIXTURES "/symuser", "costgate_measured_region", &err) == -1);
	CHECK_CONTAINS(err.message, "sym/deps/libd.so.1");
}

static void program_should_refuse_an_executable_without_the_region(void)
{
	struct gate_error err = GATE_ERROR_INIT;

	CHECK(program_check(self, "costgate_measured_region", &err) == -1);
	CHECK_CONTAINS(err.message, "has no function named 'costgate_measured_region' (the measured region)");
}

static void program_should_accept_one_function_of_the_name(void)
{
	struct gate_error err = GATE_ERROR_INIT;

	CHECK(program_check(self, "program_check", &err) == 0);
	CHECK_STR(err.message, "");
}

static void program_should_refuse_a_missing_file(void)
{
	struct gate_error err = GATE_ERROR_INIT;

	CHECK(program_check(fixture("absent"), "costgate_measured_region", &err) == -1);
	CHECK_CONTAINS(err.message, "No such file or directory");
}

int main(int argc, char **argv)
{
	(void)argc;
	RUN(program_should_find_a_client_request_in_32_bit_code);
	RUN(program_should_read_the_cpu_subdirectories_of_the_run_path);
	RUN(program_should_take_origin_from_the_path_a_library_was_found_under);
	RUN(program_should_refuse_a_file_that_is_not_elf);
	RUN(program_should_refuse_tables_outside_the_file);
	RUN(program_should_refuse_a_missing_file);
	self = argv[0];
	RUN(program_should_refuse_an_executable_without_the_region);
	RUN(program_should_accept_one_function_of_the_name);
	return CHECK_EXIT();
}
