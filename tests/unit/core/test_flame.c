/* Unit tests of the call tree of one message (flame.h): on real callgrind output (a recursion that
 * callgrind splits into levels, whose cycle the walk must end) and on profiles made here for the
 * share between paths, the least share and the bound on frames; then the head against a baseline
 * by call path. */
#define FIXTURES "callgrind"
#include "check.h"
#include "fixture.h"
#include "flame.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static bool near(double value, double expected)
{
	return fabs(value - expected) < 1e-9 * (fabs(expected) + 1);
}

static void check_frame(const struct flame *flame, size_t index, const char *name,
			uint64_t depth, double instructions)
{
	CHECK(index < flame->count);
	if (index >= flame->count)
		return;
	CHECK_STR(flame->frames[index].name, name);
	CHECK_U64(flame->frames[index].depth, depth);
	if (!near(flame->frames[index].instructions, instructions))
		check_failed(__FILE__, __LINE__, "%s costs %.6f, expected %.6f", name,
			     flame->frames[index].instructions, instructions);
}

/* A frame of a whole tree as check_tree expects it. */
struct expected_frame {
	const char *name;
	uint64_t depth;
	double instructions;
};

/* Checks that the tree is exactly `expected`: its `count` frames in order, and no other. */
static void check_tree(const struct flame *flame, const struct expected_frame *expected,
		       size_t count)
{
	size_t i;

	CHECK_U64(flame->count, count);
	for (i = 0; i < count; i++)
		check_frame(flame, i, expected[i].name, expected[i].depth,
			    expected[i].instructions);
}

/* real.c: main calls work (407, inlined code included) and even (18); even -> odd -> even'2 ->
 * odd'2 -> even'2 again, a cycle of callgrind's recursion levels. */
static void flame_should_follow_every_call_path_from_the_region(void)
{
	struct cg_profile profile = CG_PROFILE_INIT;
	struct gate_error err = GATE_ERROR_INIT;
	struct flame flame;
	const struct expected_frame tree[] = {
		{ "main", 0, 435 },
		{ "even", 1, 18 },
		{ "odd", 2, 16 },
		{ "even'2", 3, 12 },
		/* even'2 costs 18 in all, 14 of it in odd'2; on this path it costs 12. */
		{ "odd'2", 4, 12.0 * 14 / 18 },
		{ "work", 1, 407 },
	};

	CHECK(cg_profile_parse(&profile, fixture("real.out"), &err) == 0);
	CHECK(flame_from_profile(&flame, &profile, "main", 1) == 0);
	check_tree(&flame, tree, sizeof(tree) / sizeof(tree[0]));
	CHECK(flame_frames_valid(flame.frames, flame.count));
	flame_release(&flame);

	/* Per message: the part's cost over its messages. */
	CHECK(flame_from_profile(&flame, &profile, "main", 5) == 0);
	check_frame(&flame, 0, "main", 0, 87);
	check_frame(&flame, 5, "work", 1, 407.0 / 5);
	flame_release(&flame);

	/* A region the part does not hold: no tree, no error. */
	CHECK(flame_from_profile(&flame, &profile, "absent", 1) == 0);
	CHECK(flame.count == 0 && flame.frames == NULL);
	cg_profile_release(&profile);
}

/* A profile made here: `region` calls `shared` directly and through `wrapper`, and `shared`
 * calls `leaf`. */
static void flame_should_share_a_functions_calls_between_its_paths(void)
{
	struct cg_call region_calls[] = { { "shared", "/p/app", 1, 300 }, { "wrapper", "/p/app", 1, 100 },
					  { "tiny", "/p/app", 1, 1 } };
	struct cg_call wrapper_calls[] = { { "shared", "/p/app", 1, 100 } };
	struct cg_call shared_calls[] = { { "leaf", "/p/app", 2, 200 } };
	struct cg_function functions[] = {
		{ .name = "leaf", .object = "/p/app", .exclusive = 200, .inclusive = 200 },
		{ .name = "region", .object = "/p/app", .exclusive = 599, .inclusive = 1000,
		  .calls = region_calls, .call_count = 3 },
		{ .name = "shared", .object = "/p/app", .exclusive = 200, .inclusive = 400,
		  .calls = shared_calls, .call_count = 1 },
		{ .name = "tiny", .object = "/p/app", .exclusive = 1, .inclusive = 1 },
		{ .name = "wrapper", .object = "/p/app", .exclusive = 0, .inclusive = 100,
		  .calls = wrapper_calls, .call_count = 1 },
	};
	struct cg_profile profile = { .functions = functions, .function_count = 5, .total = 1000 };
	struct flame flame;
	/* shared's leaf (half of shared) splits 3 : 1 between the direct path and wrapper's; tiny,
	 * 0.1 % of the region, is below the least share drawn. */
	const struct expected_frame tree[] = {
		{ "region", 0, 100 }, { "shared", 1, 30 }, { "leaf", 2, 15 },
		{ "wrapper", 1, 10 }, { "shared", 2, 10 }, { "leaf", 3, 5 },
	};

	CHECK(flame_from_profile(&flame, &profile, "region", 10) == 0);
	check_tree(&flame, tree, sizeof(tree) / sizeof(tree[0]));
	flame_release(&flame);
}

/* A region with more callees than a document keeps frames: the dearest stay, each with its
 * caller, in the tree's order. */
static void flame_should_keep_the_dearest_frames_with_their_callers(void)
{
	enum { CALLEES = FLAME_FRAMES_MAX + 50 };
	static struct cg_call calls[CALLEES];
	static struct cg_function functions[CALLEES + 1];
	static char names[CALLEES][16];
	struct cg_profile profile = { .functions = functions, .function_count = CALLEES + 1 };
	struct flame flame;
	size_t i;

	for (i = 0; i < CALLEES; i++) {
		snprintf(names[i], sizeof(names[i]), "f%03zu", i);
		/* f000 is the cheapest, f349 the dearest. */
		calls[i] = (struct cg_call){ names[i], "/p/app", 1, 1000 + i };
		functions[i] = (struct cg_function){ .name = names[i], .object = "/p/app",
						     .exclusive = 1000 + i, .inclusive = 1000 + i };
		functions[CALLEES].inclusive += 1000 + i;
	}
	functions[CALLEES] = (struct cg_function){ .name = "region", .object = "/p/app",
						   .inclusive = functions[CALLEES].inclusive,
						   .calls = calls, .call_count = CALLEES };
	profile.total = functions[CALLEES].inclusive;
	CHECK(flame_from_profile(&flame, &profile, "region", 1) == 0);
	CHECK_U64(flame.count, FLAME_FRAMES_MAX);
	CHECK(flame_frames_valid(flame.frames, flame.count));
	check_frame(&flame, 0, "region", 0, (double)profile.total);
	/* The 51 cheapest went: the first callee kept is f051, the last f349. */
	check_frame(&flame, 1, "f051", 1, 1051);
	check_frame(&flame, FLAME_FRAMES_MAX - 1, "f349", 1, 1349);
	flame_release(&flame);
}

/* Twelve functions that each call all the others at their whole inclusive cost (callgrind counts a
 * recursion's cost at every level, so calls may add up to more than their caller): the paths
 * of distinct functions number over a billion (without the bound, no end in a test's time); the
 * walk stops, and the tree is still one. */
static void flame_should_stay_bounded_on_a_call_graph_of_cycles(void)
{
	enum { FUNCTIONS = 12 };
	static struct cg_call calls[FUNCTIONS][FUNCTIONS - 1];
	static struct cg_function functions[FUNCTIONS];
	static char names[FUNCTIONS][8];
	struct cg_profile profile = { .functions = functions, .function_count = FUNCTIONS,
				      .total = 1000 };
	struct flame flame;
	size_t i, j, k;

	for (i = 0; i < FUNCTIONS; i++)
		snprintf(names[i], sizeof(names[i]), "g%02zu", i); /* in name order */
	for (i = 0; i < FUNCTIONS; i++) {
		for (j = 0, k = 0; j < FUNCTIONS; j++)
			if (j != i)
				calls[i][k++] = (struct cg_call){ names[j], "/p/app", 1, 1000 };
		functions[i] = (struct cg_function){ .name = names[i], .object = "/p/app",
						     .inclusive = 1000, .calls = calls[i],
						     .call_count = FUNCTIONS - 1 };
	}
	CHECK(flame_from_profile(&flame, &profile, "g00", 1) == 0);
	CHECK_U64(flame.count, FLAME_FRAMES_MAX);
	CHECK(flame_frames_valid(flame.frames, flame.count));
	check_frame(&flame, 0, "g00", 0, 1000);
	flame_release(&flame);
}

static void flame_should_pair_the_heads_frames_with_the_baselines_by_path(void)
{
	struct flame_frame head[] = { { "region", 0, 10 }, { "a", 1, 6 }, { "b", 2, 3 },
				      { "c", 1, 4 }, { "b", 2, 1 } };
	struct flame_frame baseline[] = { { "region", 0, 8 }, { "a", 1, 6 }, { "c", 1, 2 },
					  { "b", 2, 0.5 }, { "x", 2, 1 } };
	struct flame_change *changes = NULL;
	size_t count = 0;

	CHECK(flame_compare(&changes, &count, head, 5, baseline, 5) == 0);
	CHECK_U64(count, 5);
	if (count == 5) {
		CHECK(changes[0].baseline == 8 && !changes[0].appeared);
		CHECK(changes[1].baseline == 6 && !changes[1].appeared);
		/* region > a > b is new; region > c > b is the baseline's, of 0.5. */
		CHECK(changes[2].appeared && changes[2].baseline == 0 && changes[2].head == 3);
		CHECK(changes[3].baseline == 2 && changes[3].depth == 1);
		CHECK(!changes[4].appeared && changes[4].baseline == 0.5);
		CHECK_STR(changes[4].name, "b");
	}
	free(changes);
	/* No baseline: every path new. */
	CHECK(flame_compare(&changes, &count, head, 5, NULL, 0) == 0);
	CHECK(count == 5 && changes[0].appeared && changes[4].appeared);
	free(changes);
}

static void flame_should_tell_a_tree_from_frames_that_are_not_one(void)
{
	struct flame_frame tree[] = { { "r", 0, 1 }, { "a", 1, 1 }, { "b", 2, 1 }, { "c", 1, 1 } };
	struct flame_frame skips[] = { { "r", 0, 1 }, { "a", 2, 1 } };
	struct flame_frame two_roots[] = { { "r", 0, 1 }, { "s", 0, 1 } };
	struct flame_frame no_root[] = { { "a", 1, 1 } };

	CHECK(flame_frames_valid(tree, 4));
	CHECK(flame_frames_valid(NULL, 0));
	CHECK(!flame_frames_valid(skips, 2));
	CHECK(!flame_frames_valid(two_roots, 2));
	CHECK(!flame_frames_valid(no_root, 1));
}

int main(void)
{
	return RUN_CASES(flame_should_follow_every_call_path_from_the_region,
			 flame_should_share_a_functions_calls_between_its_paths,
			 flame_should_keep_the_dearest_frames_with_their_callers,
			 flame_should_stay_bounded_on_a_call_graph_of_cycles,
			 flame_should_pair_the_heads_frames_with_the_baselines_by_path,
			 flame_should_tell_a_tree_from_frames_that_are_not_one);
}
