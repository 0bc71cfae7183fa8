/* Unit tests of the callgrind parser, on the few-line fixtures in tests/fixtures/callgrind and on
 * two real callgrind outputs whose total was read from callgrind_annotate. */
#include "callgrind.h"
#include "check.h"

#include <stdint.h>

#define FIXTURE(name) FIXTURE_DIR "/callgrind/" name

/* Checks one function's counts; a missing function is a failure, not a crash. */
#define CHECK_FUNCTION(profile, function_name, expected_exclusive, expected_inclusive)    \
	do {                                                                              \
		const struct cg_function *check_function_ =                               \
			cg_profile_find((profile), (function_name));                      \
		CHECK(check_function_ != NULL);                                           \
		if (check_function_ != NULL) {                                            \
			CHECK_U64(check_function_->exclusive, (expected_exclusive));      \
			CHECK_U64(check_function_->inclusive, (expected_inclusive));      \
		}                                                                         \
	} while (0)

/* Parses a fixture that must be rejected: returns 1 when the call failed and left the profile
 * empty, with the message in err. */
static int parse_fails(const char *path, struct gate_error *err)
{
	struct cg_profile profile = CG_PROFILE_INIT;
	int result = cg_profile_parse(&profile, path, err);
	int left_empty = profile.event == NULL && profile.functions == NULL &&
			 profile.function_count == 0 && profile.total == 0;

	cg_profile_release(&profile);
	return result == -1 && left_empty;
}

static void callgrind_should_decompress_names_of_every_kind(void)
{
	struct cg_profile profile = CG_PROFILE_INIT;
	struct gate_error err = GATE_ERROR_INIT;

	CHECK(cg_profile_parse(&profile, FIXTURE("compressed.out"), &err) == 0);
	CHECK_STR(err.message, "");
	CHECK_STR(profile.event, "Instructions");
	CHECK_U64(profile.total, 820);
	CHECK_U64(profile.function_count, 4);
	/* func1 and func2 are defined on cfn= lines and used by fn=(2) and fn=(3). */
	CHECK_FUNCTION(&profile, "main", 20, 820);
	CHECK_FUNCTION(&profile, "func1", 100, 400);
	CHECK_FUNCTION(&profile, "func2", 700, 700);
	CHECK_FUNCTION(&profile, "std::vector<int>::push_back(int const&)", 0, 0);
	/* file2.c is defined on a cfi= line and used by fl=(2). */
	if (profile.function_count == 4) {
		CHECK_STR(profile.functions[0].name, "func1");
		CHECK_STR(profile.functions[0].file, "file1.c");
		CHECK_STR(profile.functions[1].name, "func2");
		CHECK_STR(profile.functions[1].file, "file2.c");
		CHECK_STR(profile.functions[2].name, "main");
		CHECK_STR(profile.functions[3].file, "file2.c");
	}
	cg_profile_release(&profile);
}

static void callgrind_should_sum_repeated_fn_blocks(void)
{
	struct cg_profile profile = CG_PROFILE_INIT;
	struct gate_error err = GATE_ERROR_INIT;

	CHECK(cg_profile_parse(&profile, FIXTURE("repeated.out"), &err) == 0);
	CHECK_U64(profile.function_count, 2);
	/* main in three blocks; helper plain, then compressed, then under another fl=. */
	CHECK_FUNCTION(&profile, "main", 16, 16);
	CHECK_FUNCTION(&profile, "helper", 11, 11);
	CHECK_U64(profile.total, 27);
	if (profile.function_count == 2) {
		CHECK_STR(profile.functions[0].file, "b.c");
		CHECK_STR(profile.functions[1].file, "a.c");
	}
	cg_profile_release(&profile);
}

static void callgrind_should_keep_inlined_file_cost_with_the_function(void)
{
	struct cg_profile profile = CG_PROFILE_INIT;
	struct gate_error err = GATE_ERROR_INIT;

	CHECK(cg_profile_parse(&profile, FIXTURE("inlined.out"), &err) == 0);
	CHECK_STR(err.message, "");
	CHECK_U64(profile.function_count, 3);
	CHECK_FUNCTION(&profile, "work", 202, 202);
	CHECK_FUNCTION(&profile, "mix_table", 10, 10);
	CHECK_FUNCTION(&profile, "after_inlined_code", 1, 1);
	CHECK_U64(profile.total, 213);
	if (profile.function_count == 3) {
		/* A function's file is the fl= in effect, whatever fi=/fe= said since; fi=(2)
		 * defines a file id that fl=(2) uses. */
		CHECK_STR(profile.functions[0].file, "mix.h");
		CHECK_STR(profile.functions[1].file, "mix.h");
		CHECK_STR(profile.functions[2].file, "work.c");
	}
	cg_profile_release(&profile);
}

static void callgrind_should_count_call_cost_as_inclusive_only(void)
{
	struct cg_profile profile = CG_PROFILE_INIT;
	struct gate_error err = GATE_ERROR_INIT;

	CHECK(cg_profile_parse(&profile, FIXTURE("calls.out"), &err) == 0);
	CHECK_STR(err.message, "");
	CHECK_STR(profile.event, "Ir");
	/* main: 10 + 2 + 1 of its own, 30 in the call to leaf; the Dr and Dw columns are ignored
	 * and the missing ones are zero. */
	CHECK_FUNCTION(&profile, "main", 13, 43);
	CHECK_FUNCTION(&profile, "leaf", 30, 30);
	CHECK_U64(profile.total, 43);
	cg_profile_release(&profile);
}

/* Exclusive costs: malloc 20, _int_malloc 60, calloc 5, memset 8, free'2 7, strdup 4, handle
 * 100: 204 in all. The allocator entered from outside it: handle's two mallocs (40), its calloc
 * (28, its malloc and memset included), its free'2 (7), and the malloc strdup made (25): 100,
 * which leaves the program's own 104, handle's and strdup's. */
static void callgrind_should_count_the_allocator_apart(void)
{
	struct cg_profile profile = CG_PROFILE_INIT;
	struct gate_error err = GATE_ERROR_INIT;
	const struct cg_function *handle, *strdup_function;

	CHECK(cg_profile_parse(&profile, FIXTURE("allocator.out"), &err) == 0);
	CHECK_STR(err.message, "");
	CHECK_U64(profile.total, 204);
	CHECK_U64(profile.allocator, 40 + 28 + 7 + 25);
	handle = cg_profile_find(&profile, "handle");
	strdup_function = cg_profile_find(&profile, "strdup");
	CHECK(handle != NULL && handle->allocator_calls == 40 + 28 + 7);
	CHECK(handle != NULL && handle->library_calls == 40 + 28 + 29 + 7);
	CHECK(strdup_function != NULL && strdup_function->allocator_calls == 25);
	CHECK(cg_name_is_allocator("free'2") && cg_name_is_allocator("_int_malloc"));
	CHECK(!cg_name_is_allocator("memset") && !cg_name_is_allocator("mallocx"));
	cg_profile_release(&profile);
}

static void callgrind_should_read_relative_subpositions_with_instr_line_positions(void)
{
	struct cg_profile profile = CG_PROFILE_INIT;
	struct gate_error err = GATE_ERROR_INIT;

	CHECK(cg_profile_parse(&profile, FIXTURE("subpositions.out"), &err) == 0);
	CHECK_STR(err.message, "");
	CHECK_FUNCTION(&profile, "func", 24, 124);
	CHECK_FUNCTION(&profile, "callee", 100, 100);
	CHECK_U64(profile.total, 124);
	cg_profile_release(&profile);
}

static void callgrind_should_skip_jumps_and_learn_the_names_they_define(void)
{
	struct cg_profile profile = CG_PROFILE_INIT;
	struct gate_error err = GATE_ERROR_INIT;

	CHECK(cg_profile_parse(&profile, FIXTURE("jumps.out"), &err) == 0);
	CHECK_STR(err.message, "");
	CHECK_FUNCTION(&profile, "loop", 4, 4);
	/* fn=(2) and fl=(2) refer to ids first defined on jfn= and jfi= lines. */
	CHECK_FUNCTION(&profile, "elsewhere", 5, 5);
	if (profile.function_count == 2)
		CHECK_STR(profile.functions[0].file, "other.h");
	CHECK_U64(profile.total, 9);
	cg_profile_release(&profile);
}

static void callgrind_should_accept_a_file_without_totals(void)
{
	struct cg_profile profile = CG_PROFILE_INIT;
	struct gate_error err = GATE_ERROR_INIT;

	CHECK(cg_profile_parse(&profile, FIXTURE("no-totals.out"), &err) == 0);
	CHECK_STR(err.message, "");
	CHECK_U64(profile.total, 5);
	CHECK_FUNCTION(&profile, "main", 5, 5);
	if (profile.function_count == 1)
		CHECK_STR(profile.functions[0].file, "???");
	cg_profile_release(&profile);
}

static void callgrind_should_reject_totals_that_differ_from_the_cost_lines(void)
{
	struct gate_error err = GATE_ERROR_INIT;

	CHECK(parse_fails(FIXTURE("totals-mismatch.out"), &err));
	CHECK_CONTAINS(err.message, "cannot parse '");
	CHECK_CONTAINS(err.message, "totals-mismatch.out': totals say 6, cost lines sum to 5");
}

/* Without totals: (a truncated file has none), the summary is the only check: it must match. */
static void callgrind_should_reject_a_summary_that_differs_when_totals_are_absent(void)
{
	struct gate_error err = GATE_ERROR_INIT;

	CHECK(parse_fails(FIXTURE("summary-mismatch.out"), &err));
	CHECK_CONTAINS(err.message, "summary says 4, cost lines sum to 5");
}

/* The format lets summary: exceed the cost lines, and --cache-sim=yes makes it 2 Ir above. */
static void callgrind_should_accept_a_summary_above_matching_totals(void)
{
	struct cg_profile profile = CG_PROFILE_INIT;
	struct gate_error err = GATE_ERROR_INIT;

	CHECK(cg_profile_parse(&profile, FIXTURE("summary-above-totals.out"), &err) == 0);
	CHECK_STR(err.message, "");
	CHECK_U64(profile.total, 5);
	cg_profile_release(&profile);
}

static void callgrind_should_reject_a_summary_below_the_cost_lines(void)
{
	struct gate_error err = GATE_ERROR_INIT;

	CHECK(parse_fails(FIXTURE("summary-below-totals.out"), &err));
	CHECK_CONTAINS(err.message, "summary says 4, cost lines sum to 5");
}

/* Every event's total over the self cost lines (a call's inclusive cost line is not self cost):
 * what estimated cycles are made of. */
static void callgrind_should_total_every_event(void)
{
	struct cg_profile profile = CG_PROFILE_INIT;
	struct gate_error err = GATE_ERROR_INIT;
	uint64_t total = 99;

	CHECK(cg_profile_parse(&profile, FIXTURE("calls.out"), &err) == 0);
	CHECK_U64(profile.event_count, 3);
	CHECK(cg_profile_event_total(&profile, "Ir", &total) == 0 && total == 43);
	CHECK(cg_profile_event_total(&profile, "Dr", &total) == 0 && total == 13);
	CHECK(cg_profile_event_total(&profile, "Dw", &total) == 0 && total == 1);
	CHECK(cg_profile_event_total(&profile, "D1mr", &total) == -1);
	CHECK(cg_profile_event_total(&profile, "D", &total) == -1); /* whole names only */
	cg_profile_release(&profile);
}

static void callgrind_should_reject_a_file_cut_after_a_calls_line(void)
{
	struct gate_error err = GATE_ERROR_INIT;

	CHECK(parse_fails(FIXTURE("truncated.out"), &err));
	CHECK_CONTAINS(err.message, "truncated.out': line 5: 'calls=' line at the end of the file");
}

static void callgrind_should_reject_a_calls_line_without_its_cost_line(void)
{
	struct gate_error err = GATE_ERROR_INIT;

	CHECK(parse_fails(FIXTURE("calls-not-followed.out"), &err));
	CHECK_CONTAINS(err.message, "line 5: the 'calls=' line 4 is not followed by a cost line");
}

static void callgrind_should_read_a_last_line_without_newline(void)
{
	struct cg_profile profile = CG_PROFILE_INIT;
	struct gate_error err = GATE_ERROR_INIT;

	CHECK(cg_profile_parse(&profile, FIXTURE("no-newline.out"), &err) == 0);
	CHECK_U64(profile.total, 12);
	cg_profile_release(&profile);
}

static void callgrind_should_reject_a_count_above_uint64_max(void)
{
	struct gate_error err = GATE_ERROR_INIT;

	CHECK(parse_fails(FIXTURE("overflow.out"), &err));
	CHECK_CONTAINS(err.message,
		       "line 3: count '18446744073709551616' is above 18446744073709551615");
}

static void callgrind_should_reject_a_function_cost_that_overflows(void)
{
	struct gate_error err = GATE_ERROR_INIT;

	CHECK(parse_fails(FIXTURE("overflow-sum.out"), &err));
	CHECK_CONTAINS(err.message, "line 4: cost of 'main' overflows");
}

static void callgrind_should_reject_a_total_that_overflows(void)
{
	struct gate_error err = GATE_ERROR_INIT;

	CHECK(parse_fails(FIXTURE("overflow-total.out"), &err));
	CHECK_CONTAINS(err.message, "line 5: total cost overflows");
}

static void callgrind_should_reject_a_missing_file(void)
{
	struct gate_error err = GATE_ERROR_INIT;

	CHECK(parse_fails(FIXTURE("no-such-file.out"), &err));
	CHECK_CONTAINS(err.message, "cannot open '");
	CHECK_CONTAINS(err.message, "no-such-file.out': No such file or directory");
}

static void callgrind_should_reject_an_unreadable_file(void)
{
	struct gate_error err = GATE_ERROR_INIT;

	/* A directory opens but cannot be read, whoever runs the test (root reads mode 000). */
	CHECK(parse_fails(FIXTURE(""), &err));
	CHECK_CONTAINS(err.message, "cannot read '");
	CHECK_CONTAINS(err.message, "Is a directory");
}

static void callgrind_should_reject_an_empty_file(void)
{
	struct gate_error err = GATE_ERROR_INIT;

	CHECK(parse_fails(FIXTURE("empty.out"), &err));
	CHECK_CONTAINS(err.message, "empty.out': empty file");
}

static void callgrind_should_reject_a_file_without_events(void)
{
	struct gate_error err = GATE_ERROR_INIT;

	CHECK(parse_fails(FIXTURE("no-events.out"), &err));
	CHECK_CONTAINS(err.message, "line 4: no 'events:' line");
}

static void callgrind_should_reject_a_cost_line_before_any_function(void)
{
	struct gate_error err = GATE_ERROR_INIT;

	CHECK(parse_fails(FIXTURE("cost-before-fn.out"), &err));
	CHECK_CONTAINS(err.message, "line 3: cost line before any 'fn=' line");
}

static void callgrind_should_reject_a_count_that_is_not_a_number(void)
{
	struct gate_error err = GATE_ERROR_INIT;

	CHECK(parse_fails(FIXTURE("bad-count.out"), &err));
	CHECK_CONTAINS(err.message, "line 3: bad count '2x0'");
}

static void callgrind_should_reject_more_counts_than_events(void)
{
	struct gate_error err = GATE_ERROR_INIT;

	CHECK(parse_fails(FIXTURE("more-counts.out"), &err));
	CHECK_CONTAINS(err.message, "line 3: more counts than events (1)");
}

static void callgrind_should_reject_an_undefined_compressed_id(void)
{
	struct gate_error err = GATE_ERROR_INIT;

	/* (7) is defined as a file, not as a function: the id spaces are separate. */
	CHECK(parse_fails(FIXTURE("undefined-id.out"), &err));
	CHECK_CONTAINS(err.message, "line 3: undefined function id (7)");
}

static void callgrind_should_reject_a_file_with_several_parts(void)
{
	struct gate_error err = GATE_ERROR_INIT;

	CHECK(parse_fails(FIXTURE("second-part.out"), &err));
	CHECK_CONTAINS(err.message, "line 6: second 'events:' line");
}

static void callgrind_should_reject_an_unknown_format_version(void)
{
	struct gate_error err = GATE_ERROR_INIT;

	CHECK(parse_fails(FIXTURE("version-2.out"), &err));
	CHECK_CONTAINS(err.message, "line 2: unsupported format version '2'");
}

static void callgrind_should_find_functions_by_exact_name(void)
{
	struct cg_profile profile = CG_PROFILE_INIT;
	struct gate_error err = GATE_ERROR_INIT;
	const struct cg_function *function;

	CHECK(cg_profile_parse(&profile, FIXTURE("compressed.out"), &err) == 0);
	/* The first and the last entry, the edges of the binary search. */
	function = cg_profile_find(&profile, "func1");
	CHECK(function != NULL && function == &profile.functions[0]);
	function = cg_profile_find(&profile, "std::vector<int>::push_back(int const&)");
	CHECK(function != NULL && function == &profile.functions[profile.function_count - 1]);
	CHECK(cg_profile_find(&profile, "func") == NULL);
	CHECK(cg_profile_find(&profile, "func3") == NULL);
	CHECK(cg_profile_find(&profile, "MAIN") == NULL);
	CHECK(cg_profile_find(&profile, "") == NULL);
	cg_profile_release(&profile);
	CHECK(cg_profile_find(&profile, "main") == NULL);
}

static void callgrind_should_release_to_an_empty_profile(void)
{
	struct cg_profile profile = CG_PROFILE_INIT;
	struct gate_error err = GATE_ERROR_INIT;

	CHECK(cg_profile_parse(&profile, FIXTURE("calls.out"), &err) == 0);
	cg_profile_release(&profile);
	CHECK(profile.event == NULL && profile.functions == NULL);
	CHECK_U64(profile.function_count, 0);
	CHECK_U64(profile.total, 0);
	cg_profile_release(&profile);
	cg_profile_release(NULL);
}

/* Real output (positions: line): 435 is callgrind_annotate's "PROGRAM TOTALS" for the file. */
static void callgrind_should_match_callgrind_annotate_on_a_real_file(void)
{
	struct cg_profile profile = CG_PROFILE_INIT;
	struct gate_error err = GATE_ERROR_INIT;

	CHECK(cg_profile_parse(&profile, FIXTURE("real.out"), &err) == 0);
	CHECK_STR(err.message, "");
	CHECK_STR(profile.event, "Ir");
	CHECK_U64(profile.total, 435);
	CHECK_U64(profile.function_count, 9);
	/* callgrind_annotate shows work as real.c:work 207 and mix.h:work 200 (inlined). */
	CHECK_FUNCTION(&profile, "work", 407, 407);
	CHECK_FUNCTION(&profile, "main", 10, 435);
	CHECK_FUNCTION(&profile, "even", 2, 18);
	CHECK_FUNCTION(&profile, "even'2", 4, 18);
	CHECK_FUNCTION(&profile, "odd", 4, 16);
	CHECK_FUNCTION(&profile, "odd'2", 8, 14);
	/* Two functions named "(below main)" (the program's and libc's), one entry. */
	CHECK_FUNCTION(&profile, "(below main)", 0, 870);
	cg_profile_release(&profile);
}

/* The same run with --dump-instr=yes --collect-jumps=yes: other encoding, same counts. */
static void callgrind_should_read_a_real_file_with_instructions_and_jumps(void)
{
	struct cg_profile profile = CG_PROFILE_INIT;
	struct gate_error err = GATE_ERROR_INIT;

	CHECK(cg_profile_parse(&profile, FIXTURE("real-instr.out"), &err) == 0);
	CHECK_STR(err.message, "");
	CHECK_U64(profile.total, 435);
	CHECK_U64(profile.function_count, 9);
	CHECK_FUNCTION(&profile, "work", 407, 407);
	CHECK_FUNCTION(&profile, "main", 10, 435);
	CHECK_FUNCTION(&profile, "even'2", 4, 18);
	CHECK_FUNCTION(&profile, "odd'2", 8, 14);
	cg_profile_release(&profile);
}

/* Finds the (file, line) record of a function; NULL when absent. */
static const struct cg_line *find_line(const struct cg_profile *profile,
				       const struct cg_function *function, const char *file,
				       uint64_t line)
{
	size_t i;

	for (i = 0; function != NULL && i < function->line_count; i++)
		if (strcmp(profile->files[function->lines[i].file], file) == 0 &&
		    function->lines[i].line == line)
			return &function->lines[i];
	return NULL;
}

static void callgrind_should_keep_the_lines_and_library_calls_of_project_functions(void)
{
	struct cg_profile profile = CG_PROFILE_INIT;
	struct gate_error err = GATE_ERROR_INIT;
	const struct cg_function *parse, *strlen_function;
	const struct cg_line *line;

	CHECK(cg_profile_parse(&profile, FIXTURE("objects.out"), &err) == 0);
	CHECK_STR(err.message, "");
	CHECK_FUNCTION(&profile, "parse_value", 15, 64);
	parse = cg_profile_find(&profile, "parse_value");
	strlen_function = cg_profile_find(&profile, "strlen");
	CHECK(parse != NULL && strlen_function != NULL);
	if (parse == NULL || strlen_function == NULL)
		goto out;
	CHECK_STR(parse->object, "/work/build/scenarios/demo");
	CHECK_U64(parse->library_calls, 40); /* strlen's, not helper's */
	CHECK_U64(parse->line_count, 6);
	line = find_line(&profile, parse, "/src/number.h", 20);
	CHECK(line != NULL && line->exclusive == 7 && line->calls == 0);
	line = find_line(&profile, parse, "/src/number.h", 21); /* "+1" after 20 */
	CHECK(line != NULL && line->exclusive == 1);
	line = find_line(&profile, parse, "/src/lib.c", 12);
	CHECK(line != NULL && line->exclusive == 0 && line->calls == 40 && line->library_calls == 40);
	line = find_line(&profile, parse, "/src/lib.c", 13); /* "+1" after the call's cost line */
	CHECK(line != NULL && line->calls == 9 && line->library_calls == 0);
	CHECK_STR(strlen_function->object, "/usr/lib/x86_64-linux-gnu/libc.so.6");
	CHECK_U64(strlen_function->line_count, 0); /* a system library's: no lines kept */
out:
	cg_profile_release(&profile);
}

static void callgrind_should_tell_system_objects_from_the_project(void)
{
	CHECK(cg_object_is_system("/usr/lib/x86_64-linux-gnu/libc.so.6"));
	CHECK(cg_object_is_system("/lib/x86_64-linux-gnu/libcjson.so.1"));
	CHECK(cg_object_is_system("/usr/libexec/valgrind/vgpreload_core-amd64-linux.so"));
	CHECK(cg_object_is_system("???"));
	CHECK(!cg_object_is_system("/work/build/scenarios/demo"));
	CHECK(!cg_object_is_system("/home/user/project/build/libparser.so"));
	CHECK(!cg_object_is_system("/usrlocal/thing"));
}

int main(void)
{
	RUN(callgrind_should_keep_the_lines_and_library_calls_of_project_functions);
	RUN(callgrind_should_total_every_event);
	RUN(callgrind_should_tell_system_objects_from_the_project);
	RUN(callgrind_should_decompress_names_of_every_kind);
	RUN(callgrind_should_sum_repeated_fn_blocks);
	RUN(callgrind_should_keep_inlined_file_cost_with_the_function);
	RUN(callgrind_should_count_call_cost_as_inclusive_only);
	RUN(callgrind_should_count_the_allocator_apart);
	RUN(callgrind_should_read_relative_subpositions_with_instr_line_positions);
	RUN(callgrind_should_skip_jumps_and_learn_the_names_they_define);
	RUN(callgrind_should_accept_a_file_without_totals);
	RUN(callgrind_should_reject_totals_that_differ_from_the_cost_lines);
	RUN(callgrind_should_reject_a_summary_that_differs_when_totals_are_absent);
	RUN(callgrind_should_accept_a_summary_above_matching_totals);
	RUN(callgrind_should_reject_a_summary_below_the_cost_lines);
	RUN(callgrind_should_reject_a_file_cut_after_a_calls_line);
	RUN(callgrind_should_reject_a_calls_line_without_its_cost_line);
	RUN(callgrind_should_read_a_last_line_without_newline);
	RUN(callgrind_should_reject_a_count_above_uint64_max);
	RUN(callgrind_should_reject_a_function_cost_that_overflows);
	RUN(callgrind_should_reject_a_total_that_overflows);
	RUN(callgrind_should_reject_a_missing_file);
	RUN(callgrind_should_reject_an_unreadable_file);
	RUN(callgrind_should_reject_an_empty_file);
	RUN(callgrind_should_reject_a_file_without_events);
	RUN(callgrind_should_reject_a_cost_line_before_any_function);
	RUN(callgrind_should_reject_a_count_that_is_not_a_number);
	RUN(callgrind_should_reject_more_counts_than_events);
	RUN(callgrind_should_reject_an_undefined_compressed_id);
	RUN(callgrind_should_reject_a_file_with_several_parts);
	RUN(callgrind_should_reject_an_unknown_format_version);
	RUN(callgrind_should_find_functions_by_exact_name);
	RUN(callgrind_should_release_to_an_empty_profile);
	RUN(callgrind_should_match_callgrind_annotate_on_a_real_file);
	RUN(callgrind_should_read_a_real_file_with_instructions_and_jumps);
	return CHECK_EXIT();
}
