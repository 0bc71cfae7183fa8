/* Unit tests of the callgrind parser, on the few-line fixtures in tests/fixtures/callgrind and on
 * two real callgrind outputs whose total was read from callgrind_annotate. */
#define FIXTURES "callgrind"
#include "callgrind.h"
#include "check.h"
#include "fixture.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* The profile of the fixture `name`, which must parse. */
static struct cg_profile parsed(const char *name)
{
	struct cg_profile profile = CG_PROFILE_INIT;
	struct gate_error err = GATE_ERROR_INIT;

	CHECK(cg_profile_parse(&profile, fixture(name), &err) == 0);
	CHECK_STR(err.message, "");
	return profile;
}

/* Checks one function's counts; a missing function is a failure, not a crash. */
static void check_function(const struct cg_profile *profile, const char *name, uint64_t exclusive,
			   uint64_t inclusive)
{
	const struct cg_function *function = cg_profile_find(profile, name);

	CHECK(function != NULL);
	if (function != NULL) {
		CHECK_U64(function->exclusive, exclusive);
		CHECK_U64(function->inclusive, inclusive);
	}
}

/* What a fixture reads to: its event, total and number of functions, some functions' costs
 * (up to the first without a name), and the files of its functions in name order (up to NULL). */
struct read_case {
	const char *name;
	const char *fixture, *event;
	uint64_t total;
	size_t function_count;
	struct {
		const char *function;
		uint64_t exclusive, inclusive;
	} costs[8];
	const char *files[4];
};

static const struct read_case reads[] = {
	/* func1 and func2 are defined on cfn= lines and used by fn=(2) and fn=(3); file2.c is defined
	 * on a cfi= line and used by fl=(2). */
	{ "callgrind_should_decompress_names_of_every_kind", "compressed.out", "Instructions", 820, 4,
	  { { "main", 20, 820 }, { "func1", 100, 400 }, { "func2", 700, 700 },
	    { "std::vector<int>::push_back(int const&)", 0, 0 } },
	  { "file1.c", "file2.c", "file1.c", "file2.c" } },
	/* main in three blocks; helper plain, then compressed, then under another fl=. */
	{ "callgrind_should_sum_repeated_fn_blocks", "repeated.out", "Ir", 27, 2,
	  { { "main", 16, 16 }, { "helper", 11, 11 } }, { "b.c", "a.c" } },
	/* A function's file is the fl= in effect, whatever fi=/fe= said since; fi=(2) defines a file
	 * id that fl=(2) uses. */
	{ "callgrind_should_keep_inlined_file_cost_with_the_function", "inlined.out", "Ir", 213, 3,
	  { { "work", 202, 202 }, { "mix_table", 10, 10 }, { "after_inlined_code", 1, 1 } },
	  { "mix.h", "mix.h", "work.c" } },
	/* main: 10 + 2 + 1 of its own, 30 in the call to leaf; the Dr and Dw columns are ignored and
	 * the missing ones are zero. */
	{ "callgrind_should_count_call_cost_as_inclusive_only", "calls.out", "Ir", 43, 2,
	  { { "main", 13, 43 }, { "leaf", 30, 30 } }, { NULL } },
	{ "callgrind_should_read_relative_subpositions_with_instr_line_positions", "subpositions.out",
	  "Ir", 124, 2, { { "func", 24, 124 }, { "callee", 100, 100 } }, { NULL } },
	/* fn=(2) and fl=(2) refer to ids first defined on jfn= and jfi= lines. */
	{ "callgrind_should_skip_jumps_and_learn_the_names_they_define", "jumps.out", "Ir", 9, 2,
	  { { "loop", 4, 4 }, { "elsewhere", 5, 5 } }, { "other.h" } },
	{ "callgrind_should_accept_a_file_without_totals", "no-totals.out", "Ir", 5, 1,
	  { { "main", 5, 5 } }, { "???" } },
	/* The format lets summary: exceed the cost lines, and --cache-sim=yes makes it 2 Ir above. */
	{ "callgrind_should_accept_a_summary_above_matching_totals", "summary-above-totals.out",
	  "Ir", 5, 1, { { NULL, 0, 0 } }, { NULL } },
	{ "callgrind_should_read_a_last_line_without_newline", "no-newline.out", "Ir", 12, 1,
	  { { NULL, 0, 0 } }, { NULL } },
	/* Real output (positions: line): 435 is callgrind_annotate's "PROGRAM TOTALS" for the file,
	 * which shows work as real.c:work 207 and mix.h:work 200 (inlined); the two functions
	 * named "(below main)", the program's and libc's, are two entries (another object each),
	 * the program's first. */
	{ "callgrind_should_match_callgrind_annotate_on_a_real_file", "real.out", "Ir", 435, 10,
	  { { "work", 407, 407 }, { "main", 10, 435 }, { "even", 2, 18 }, { "even'2", 4, 18 },
	    { "odd", 4, 16 }, { "odd'2", 8, 14 }, { "(below main)", 0, 435 } },
	  { NULL } },
	/* The same run with --dump-instr=yes --collect-jumps=yes: other encoding, same counts. */
	{ "callgrind_should_read_a_real_file_with_instructions_and_jumps", "real-instr.out", "Ir", 435,
	  10, { { "work", 407, 407 }, { "main", 10, 435 }, { "even'2", 4, 18 }, { "odd'2", 8, 14 } },
	  { NULL } },
};

static void check_read(const struct read_case *row)
{
	struct cg_profile profile = parsed(row->fixture);
	size_t i;

	CHECK_STR(profile.event, row->event);
	CHECK_U64(profile.total, row->total);
	CHECK_U64(profile.function_count, row->function_count);
	for (i = 0; i < 8 && row->costs[i].function != NULL; i++)
		check_function(&profile, row->costs[i].function, row->costs[i].exclusive,
			       row->costs[i].inclusive);
	for (i = 0; i < 4 && row->files[i] != NULL; i++)
		if (i < profile.function_count)
			CHECK_STR(profile.functions[i].file, row->files[i]);
	cg_profile_release(&profile);
}

static void callgrind_should_read_what_each_fixture_holds(void)
{
	RUN_ROWS(check_read, reads);
}

/* A fixture that is refused, and the message about it: "CANNOT 'PATH': PROBLEM". */
struct refused {
	const char *name;
	const char *fixture, *cannot, *problem;
};

static const struct refused refusals[] = {
	{ "callgrind_should_reject_totals_that_differ_from_the_cost_lines", "totals-mismatch.out",
	  "cannot parse", "totals say 6, cost lines sum to 5" },
	/* Without totals: (a truncated file has none), the summary is the only check: it must match. */
	{ "callgrind_should_reject_a_summary_that_differs_when_totals_are_absent",
	  "summary-mismatch.out", "cannot parse", "summary says 4, cost lines sum to 5" },
	{ "callgrind_should_reject_a_summary_below_the_cost_lines", "summary-below-totals.out", "cannot parse",
	  "summary says 4, cost lines sum to 5" },
	{ "callgrind_should_reject_a_file_cut_after_a_calls_line", "truncated.out", "cannot parse",
	  "line 5: 'calls=' line at the end of the file without its cost line (truncated file?)" },
	{ "callgrind_should_reject_a_calls_line_without_its_cost_line", "calls-not-followed.out",
	  "cannot parse", "line 5: the 'calls=' line 4 is not followed by a cost line" },
	{ "callgrind_should_reject_a_count_above_uint64_max", "overflow.out", "cannot parse",
	  "line 3: count '18446744073709551616' is above 18446744073709551615" },
	{ "callgrind_should_reject_a_function_cost_that_overflows", "overflow-sum.out", "cannot parse",
	  "line 4: cost of 'main' overflows" },
	{ "callgrind_should_reject_a_total_that_overflows", "overflow-total.out", "cannot parse",
	  "line 5: total cost overflows" },
	{ "callgrind_should_reject_a_missing_file", "no-such-file.out", "cannot open",
	  "No such file or directory" },
	/* A directory opens but cannot be read, whoever runs the test (root reads mode 000). */
	{ "callgrind_should_reject_an_unreadable_file", "", "cannot read", "Is a directory" },
	{ "callgrind_should_reject_an_empty_file", "empty.out", "cannot parse", "empty file" },
	{ "callgrind_should_reject_a_file_without_events", "no-events.out", "cannot parse",
	  "line 4: no 'events:' line before the first cost or name line" },
	{ "callgrind_should_reject_a_cost_line_before_any_function", "cost-before-fn.out", "cannot parse",
	  "line 3: cost line before any 'fn=' line" },
	{ "callgrind_should_reject_a_count_that_is_not_a_number", "bad-count.out", "cannot parse",
	  "line 3: bad count '2x0'" },
	{ "callgrind_should_reject_more_counts_than_events", "more-counts.out", "cannot parse",
	  "line 3: more counts than events (1)" },
	/* (7) is defined as a file, not as a function: the id spaces are separate. */
	{ "callgrind_should_reject_an_undefined_compressed_id", "undefined-id.out", "cannot parse",
	  "line 3: undefined function id (7)" },
	{ "callgrind_should_reject_a_file_with_several_parts", "second-part.out", "cannot parse",
	  "line 6: second 'events:' line (a file of several parts)" },
	{ "callgrind_should_reject_an_unknown_format_version", "version-2.out", "cannot parse",
	  "line 2: unsupported format version '2'" },
};

/* Parses the row's fixture, which fails with the whole message and leaves the profile empty. */
static void check_refused(const struct refused *row)
{
	struct cg_profile profile = CG_PROFILE_INIT;
	struct gate_error err = GATE_ERROR_INIT;

	CHECK(cg_profile_parse(&profile, fixture(row->fixture), &err) == -1);
	CHECK_ABOUT_FIXTURE(err.message, row->cannot, row->fixture, row->problem);
	CHECK(profile.event == NULL && profile.functions == NULL);
	CHECK_U64(profile.function_count, 0);
	CHECK_U64(profile.total, 0);
	cg_profile_release(&profile);
}

static void callgrind_should_refuse_every_malformed_fixture(void)
{
	RUN_ROWS(check_refused, refusals);
}

/* Exclusive costs: malloc 20, _int_malloc 60, calloc 5, memset 8, free'2 7, strdup 4, handle
 * 100: 204 in all. The allocator entered from outside it: handle's two mallocs (40), its calloc
 * (28, its malloc and memset included), its free'2 (7), and the malloc strdup made (25): 100,
 * which leaves the program's own 104, handle's and strdup's. */
static void callgrind_should_count_the_allocator_apart(void)
{
	struct cg_profile profile = parsed("allocator.out");
	const struct cg_function *handle, *strdup_function;

	CHECK_U64(profile.total, 204);
	CHECK_U64(profile.allocator, 40 + 28 + 7 + 25);
	handle = cg_profile_find(&profile, "handle");
	strdup_function = cg_profile_find(&profile, "strdup");
	CHECK(handle != NULL && handle->allocator_calls == 40 + 28 + 7);
	CHECK(handle != NULL && handle->library_calls == 40 + 28 + 29 + 7);
	CHECK(strdup_function != NULL && strdup_function->allocator_calls == 25);
	CHECK(cg_name_is_allocator("free'2") && cg_name_is_allocator("_int_malloc"));
	CHECK(!cg_name_is_allocator("memset") && !cg_name_is_allocator("mallocx"));
	CHECK(cg_name_is_allocator("sysmalloc_mmap.constprop.0") &&
	      cg_name_is_allocator("_int_free.part.0") && !cg_name_is_allocator("malloc_stats.x"));
	cg_profile_release(&profile);
}

/* Every event's total over the self cost lines (a call's inclusive cost line is not self cost):
 * what estimated cycles are made of. */
static void callgrind_should_total_every_event(void)
{
	struct cg_profile profile = parsed("calls.out");
	uint64_t total = 99;

	CHECK_U64(profile.event_count, 3);
	CHECK(cg_profile_event_total(&profile, "Ir", &total) == 0 && total == 43);
	CHECK(cg_profile_event_total(&profile, "Dr", &total) == 0 && total == 13);
	CHECK(cg_profile_event_total(&profile, "Dw", &total) == 0 && total == 1);
	CHECK(cg_profile_event_total(&profile, "D1mr", &total) == -1);
	CHECK(cg_profile_event_total(&profile, "D", &total) == -1); /* whole names only */
	cg_profile_release(&profile);
}

static void callgrind_should_find_functions_by_exact_name(void)
{
	struct cg_profile profile = parsed("compressed.out");
	const struct cg_function *function;

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
	struct cg_profile profile = parsed("calls.out");

	cg_profile_release(&profile);
	CHECK(profile.event == NULL && profile.functions == NULL);
	CHECK_U64(profile.function_count, 0);
	CHECK_U64(profile.total, 0);
	cg_profile_release(&profile);
	cg_profile_release(NULL);
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
	struct cg_profile profile = parsed("objects.out");
	const struct cg_function *parse, *strlen_function;
	const struct cg_line *line;

	check_function(&profile, "parse_value", 15, 64);
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

/* Parts added up (--dump-after): an empty sum copies the first; the second adds to every
 * function by name and every line by file name and line, whatever ids each file gave them. */
static void callgrind_should_add_up_the_parts_of_a_run(void)
{
	struct cg_profile sum = CG_PROFILE_INIT, first = parsed("objects.out");
	struct cg_profile later = parsed("later-part.out"), other = parsed("calls.out");
	struct gate_error err = GATE_ERROR_INIT;
	const struct cg_function *parse, *fresh;
	const struct cg_line *line;

	CHECK(cg_profile_add(&sum, &first, &err) == 0);
	CHECK_U64(sum.total, first.total);
	CHECK_U64(sum.function_count, first.function_count);
	check_function(&sum, "parse_value", 15, 64);
	CHECK(cg_profile_add(&sum, &later, &err) == 0);
	CHECK_U64(sum.total, 64 + 34);
	CHECK_U64(sum.event_totals[0], 64 + 34);
	CHECK_U64(sum.allocator, 25);
	CHECK_U64(sum.function_count, 5); /* parse_value, strlen, helper; fresh and malloc */
	check_function(&sum, "parse_value", 15 + 5, 64 + 30);
	check_function(&sum, "fresh", 4, 4);
	check_function(&sum, "malloc", 25, 25);
	parse = cg_profile_find(&sum, "parse_value");
	fresh = cg_profile_find(&sum, "fresh");
	CHECK(parse != NULL && fresh != NULL);
	if (parse == NULL || fresh == NULL)
		goto out;
	CHECK_U64(parse->library_calls, 40 + 25);
	CHECK_U64(parse->allocator_calls, 25);
	CHECK_STR(parse->file, "/src/lib.c");
	CHECK_STR(fresh->file, "/src/new.c");
	line = find_line(&sum, parse, "/src/lib.c", 10);
	CHECK(line != NULL && line->exclusive == 5 + 3);
	line = find_line(&sum, parse, "/src/number.h", 20); /* the first part's only */
	CHECK(line != NULL && line->exclusive == 7);
	line = find_line(&sum, parse, "/src/new.c", 7); /* a file the first part never named */
	CHECK(line != NULL && line->exclusive == 2);
	line = find_line(&sum, parse, "/src/lib.c", 14);
	CHECK(line != NULL && line->calls == 25 && line->allocator_calls == 25);
	/* Parts that count other events are refused, and the sum stays as it was. */
	CHECK(cg_profile_add(&sum, &other, &err) == -1);
	CHECK_STR(err.message, "the parts count different events: 'Ir' and 'Ir Dr Dw'");
	CHECK_U64(sum.total, 64 + 34);
out:
	cg_profile_release(&sum);
	cg_profile_release(&first);
	cg_profile_release(&later);
	cg_profile_release(&other);
}

/* allocator-names.out: only the two calls into the C library's allocator count (40 + 12), not
 * those into project functions named alloc_perturb and malloc, nor another library's free. */
static void callgrind_should_know_the_allocator_by_its_object(void)
{
	struct cg_profile profile = parsed("allocator-names.out");
	const struct cg_function *handle = cg_profile_find(&profile, "handle");
	const struct cg_function *perturb = cg_profile_find(&profile, "alloc_perturb");
	const struct cg_function *malloc_function = cg_profile_find(&profile, "malloc");
	const struct cg_function *project_malloc = malloc_function + 1;

	CHECK_U64(profile.total, 30 + 10 + 12 + 9 + 300 + 50 + 100);
	CHECK_U64(profile.allocator, 40 + 12);
	CHECK(handle != NULL && handle->allocator_calls == 0);
	CHECK(handle != NULL && handle->library_calls == 9);
	CHECK(perturb != NULL && perturb->allocator_calls == 40);
	/* The project's malloc and glibc's share callgrind's name: two entries, by object. */
	CHECK_U64(profile.function_count, 7);
	CHECK(malloc_function != NULL && malloc_function->allocator_calls == 0 &&
	      malloc_function->exclusive == 30);
	CHECK(malloc_function != NULL && strcmp(project_malloc->name, "malloc") == 0 &&
	      strcmp(project_malloc->object, "/work/build/scenario") == 0 &&
	      project_malloc->allocator_calls == 12 && project_malloc->exclusive == 50);
	CHECK(!profile.counts_syscalls);
	CHECK(cg_object_is_c_library("/usr/lib/x86_64-linux-gnu/libc.so.6"));
	CHECK(cg_object_is_c_library("/lib/x86_64-linux-gnu/libc-2.31.so"));
	CHECK(!cg_object_is_c_library("/work/build/libc.so.6"));
	CHECK(!cg_object_is_c_library("/usr/lib/x86_64-linux-gnu/libcjson.so.1"));
	CHECK(!cg_object_is_c_library("/usr/lib/x86_64-linux-gnu/libc-client.so.2007e"));
	CHECK(!cg_object_is_c_library("???"));
	CHECK(cg_is_allocator("malloc", "/usr/lib/x86_64-linux-gnu/libc.so.6"));
	CHECK(!cg_is_allocator("malloc", "/work/build/scenario"));
	CHECK(!cg_is_allocator("memcpy", "/usr/lib/x86_64-linux-gnu/libc.so.6"));
	cg_profile_release(&profile);
}

/* syscalls.out: every system call of the file is charged to the stack it was made on, so the
 * region's inclusive count holds the two writes below handle and the open below start, and not
 * main's getpid, made outside it. Added twice, every count doubles. */
static void callgrind_should_count_system_calls_by_the_stack_they_were_made_on(void)
{
	struct cg_profile profile = parsed("syscalls.out"), sum = CG_PROFILE_INIT;
	struct gate_error err = GATE_ERROR_INIT;
	const struct cg_function *region, *handle, *main_function, *write_function, *snapshot;
	uint64_t total = 0;

	CHECK(profile.counts_syscalls);
	CHECK_U64(profile.total, 33);
	CHECK(cg_profile_event_total(&profile, "sysCount", &total) == 0);
	CHECK_U64(total, 5); /* the self lines': write's three, getpid's, open's */
	snapshot = cg_profile_find(&profile, "snapshot");
	CHECK(snapshot != NULL && snapshot->syscalls.inclusive == 1 &&
	      snapshot->syscalls.library == 0 && snapshot->syscalls.exclusive == 0);
	region = cg_profile_find(&profile, "costgate_measured_region");
	handle = cg_profile_find(&profile, "handle");
	main_function = cg_profile_find(&profile, "main");
	write_function = cg_profile_find(&profile, "write");
	CHECK(region != NULL && handle != NULL && main_function != NULL && write_function != NULL);
	if (region == NULL || handle == NULL || main_function == NULL || write_function == NULL)
		goto out;
	CHECK_U64(region->syscalls.inclusive, 3);
	CHECK_U64(region->syscalls.exclusive, 0);
	CHECK_U64(region->syscalls.library, 0);
	CHECK_U64(handle->syscalls.inclusive, 2);
	CHECK_U64(handle->syscalls.library, 2);
	CHECK_U64(main_function->syscalls.inclusive, 4);
	CHECK_U64(main_function->syscalls.library, 0); /* its getpid collected nothing */
	/* One line of write's holds the calls from both sides: a function's own are approximate,
	 * the region's inclusive count exact. */
	CHECK_U64(write_function->syscalls.exclusive, 3);
	CHECK(cg_profile_add(&sum, &profile, &err) == 0 && cg_profile_add(&sum, &profile, &err) == 0);
	CHECK(sum.counts_syscalls);
	region = cg_profile_find(&sum, "costgate_measured_region");
	CHECK(region != NULL && region->syscalls.inclusive == 6 && region->syscalls.exclusive == 0);
	handle = cg_profile_find(&sum, "handle");
	CHECK(handle != NULL && handle->syscalls.library == 4);
out:
	cg_profile_release(&sum);
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

/* A function's calls, per target and object: how often and at what inclusive cost; a sum of
 * parts keeps none. */
static void callgrind_should_keep_each_functions_calls_by_target(void)
{
	struct cg_profile profile = parsed("real.out"), sum = CG_PROFILE_INIT;
	struct gate_error err = GATE_ERROR_INIT;
	const struct cg_function *main_function = cg_profile_find(&profile, "main");
	const struct cg_function *odd = cg_profile_find(&profile, "odd'2");
	const struct cg_function *below = cg_profile_find(&profile, "(below main)");
	const struct cg_function *even = cg_profile_find(&profile, "even'2");

	CHECK(main_function != NULL && odd != NULL && below != NULL);
	if (main_function != NULL && odd != NULL && below != NULL) {
		CHECK_U64(main_function->call_count, 2);
		CHECK_STR(main_function->calls[0].callee, "work");
		CHECK_U64(main_function->calls[0].inclusive, 407);
		CHECK_U64(main_function->calls[0].count, 1);
		CHECK_STR(main_function->calls[1].callee, "even");
		CHECK_U64(main_function->calls[1].inclusive, 18);
		CHECK_STR(main_function->calls[1].object, main_function->object);
		/* even'2 calls odd'2 twice (calls=2): one target, its count and cost. */
		CHECK_U64(odd->call_count, 1);
		CHECK_STR(odd->calls[0].callee, "even'2");
		CHECK_U64(odd->calls[0].inclusive, 6);
		CHECK_U64(odd->calls[0].count, 1);
		CHECK(even != NULL && even->call_count == 1 && even->calls[0].count == 2 &&
		      even->calls[0].inclusive == 14);
		/* cob= names the target's object for that call. */
		CHECK(below->call_count >= 1);
		if (below->call_count >= 1)
			CHECK_STR(below->calls[0].object, "/usr/lib/x86_64-linux-gnu/libc.so.6");
		CHECK(cg_profile_find_in(&profile, "main", main_function->object) == main_function);
		CHECK(cg_profile_find_in(&profile, "main", "/usr/lib/other.so") == NULL);
	}
	CHECK(cg_profile_add(&sum, &profile, &err) == 0);
	main_function = cg_profile_find(&sum, "main");
	CHECK(main_function != NULL && main_function->call_count == 0 &&
	      main_function->calls == NULL);
	cg_profile_release(&sum);
	cg_profile_release(&profile);
}

/* With --dump-instr=yes, a project function's costs by address, ascending and one per address,
 * adding up to its own counts; a sum of two parts adds them address by address. */
static void callgrind_should_keep_project_costs_by_address(void)
{
	struct cg_profile profile = parsed("real-instr.out"), sum = CG_PROFILE_INIT;
	struct gate_error err = GATE_ERROR_INIT;
	const struct cg_function *work = cg_profile_find(&profile, "work");
	const struct cg_function *main_function = cg_profile_find(&profile, "main");
	uint64_t exclusive = 0, calls = 0;
	size_t i;

	CHECK(profile.has_instrs);
	CHECK(work != NULL && main_function != NULL);
	if (work == NULL || main_function == NULL)
		goto out;
	CHECK(work->instr_count > 1);
	for (i = 0; i < work->instr_count; i++) {
		exclusive += work->instrs[i].exclusive;
		CHECK(i == 0 || work->instrs[i - 1].address < work->instrs[i].address);
	}
	CHECK_U64(exclusive, work->exclusive);
	exclusive = 0;
	for (i = 0; i < main_function->instr_count; i++) {
		exclusive += main_function->instrs[i].exclusive;
		calls += main_function->instrs[i].calls;
	}
	CHECK_U64(exclusive, main_function->exclusive);
	CHECK_U64(exclusive + calls, main_function->inclusive);
	CHECK(cg_profile_add(&sum, &profile, &err) == 0 && cg_profile_add(&sum, &profile, &err) == 0);
	work = cg_profile_find(&sum, "work");
	CHECK(work != NULL && work->instr_count == cg_profile_find(&profile, "work")->instr_count);
	if (work != NULL && work->instr_count > 0)
		CHECK_U64(work->instrs[0].exclusive,
			  2 * cg_profile_find(&profile, "work")->instrs[0].exclusive);
out:
	cg_profile_release(&sum);
	cg_profile_release(&profile);
	/* Without addresses, none. */
	profile = parsed("real.out");
	CHECK(!profile.has_instrs);
	work = cg_profile_find(&profile, "work");
	CHECK(work != NULL && work->instr_count == 0 && work->instrs == NULL);
	cg_profile_release(&profile);
}

int main(void)
{
	return RUN_CASES(callgrind_should_keep_the_lines_and_library_calls_of_project_functions,
			 callgrind_should_keep_each_functions_calls_by_target,
			 callgrind_should_keep_project_costs_by_address,
			 callgrind_should_add_up_the_parts_of_a_run,
			 callgrind_should_total_every_event,
			 callgrind_should_tell_system_objects_from_the_project,
			 callgrind_should_read_what_each_fixture_holds,
			 callgrind_should_count_the_allocator_apart,
			 callgrind_should_know_the_allocator_by_its_object,
			 callgrind_should_count_system_calls_by_the_stack_they_were_made_on,
			 callgrind_should_refuse_every_malformed_fixture,
			 callgrind_should_find_functions_by_exact_name,
			 callgrind_should_release_to_an_empty_profile);
}
