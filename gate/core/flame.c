/* The call tree of one message from callgrind's call graph (flame.h), and the head's tree against
 * the baseline's. Paths are found by walking down from the region, a function's calls shared
 * among its paths in proportion to their cost; a function already on the path is not entered
 * again (its cost stays in the caller's frame), so a cycle ends. */
#define _GNU_SOURCE
#include "flame.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"

/* Deeper paths are cut: their cost stays in the deepest frame drawn. */
#define FLAME_DEPTH_MAX 64
/* At most this many frames are walked before the dearest are kept: a function's calls are
 * shared in proportion to its inclusive cost, which callgrind counts at every recursion level,
 * so calls can add up to more than their caller and a program's call graph (a hostile one too)
 * could otherwise make paths without end. */
#define FLAME_WALK_MAX 20000

struct flame_walk {
	const struct cg_profile *part;
	double messages;
	double least;       /* a path costing less, in the part's units, is left out */
	struct flame *flame;
	size_t capacity;
	const struct cg_function *path[FLAME_DEPTH_MAX];
};

static int add_frame(struct flame_walk *walk, const char *name, size_t depth, double cost)
{
	struct flame *flame = walk->flame;

	if (ARRAY_GROW(flame->frames, walk->capacity, flame->count, 64) != 0)
		return -1;
	flame->frames[flame->count].name = strdup(name);
	if (flame->frames[flame->count].name == NULL)
		return -1;
	flame->frames[flame->count].depth = depth;
	flame->frames[flame->count].instructions = cost / walk->messages;
	flame->count++;
	return 0;
}

static int compare_calls(const void *left, const void *right)
{
	const struct cg_call *a = *(const struct cg_call *const *)left;
	const struct cg_call *b = *(const struct cg_call *const *)right;
	int order = strcmp(a->callee, b->callee);

	return order != 0 ? order : strcmp(a->object, b->object);
}

static bool on_path(const struct flame_walk *walk, size_t depth, const struct cg_function *function)
{
	size_t i;

	for (i = 0; i <= depth; i++)
		if (walk->path[i] == function)
			return true;
	return false;
}

/* Adds `function`'s frame at `depth`, costing `cost` on this path, then its callees' by name. */
static int visit(struct flame_walk *walk, const struct cg_function *function, double cost,
		 size_t depth)
{
	const struct cg_call **calls = NULL;
	size_t i;
	int status = -1;

	if (walk->flame->count >= FLAME_WALK_MAX)
		return 0;
	if (add_frame(walk, function->name, depth, cost) != 0)
		return -1;
	if (depth + 1 >= FLAME_DEPTH_MAX || function->call_count == 0 || function->inclusive == 0)
		return 0;
	walk->path[depth] = function;
	calls = malloc(function->call_count * sizeof(*calls));
	if (calls == NULL)
		return -1;
	for (i = 0; i < function->call_count; i++)
		calls[i] = &function->calls[i];
	qsort(calls, function->call_count, sizeof(*calls), compare_calls);
	for (i = 0; i < function->call_count; i++) {
		const struct cg_function *callee =
			cg_profile_find_in(walk->part, calls[i]->callee, calls[i]->object);
		double share = cost * (double)calls[i]->inclusive / (double)function->inclusive;

		if (callee == NULL || on_path(walk, depth, callee) || share < walk->least)
			continue;
		if (visit(walk, callee, share < cost ? share : cost, depth + 1) != 0)
			goto out;
	}
	status = 0;
out:
	free(calls);
	return status;
}

/* The dearest first; of two as dear, the earlier (a caller before its callee). */
static int compare_dearer(const void *left, const void *right)
{
	const struct flame_frame *const *a = left, *const *b = right;

	if ((*a)->instructions != (*b)->instructions)
		return (*a)->instructions > (*b)->instructions ? -1 : 1;
	return *a < *b ? -1 : *a > *b;
}

static int compare_order(const void *left, const void *right)
{
	const struct flame_frame *const *a = left, *const *b = right;

	return *a < *b ? -1 : *a > *b;
}

/* Keeps the FLAME_FRAMES_MAX dearest frames, in their order. A frame costs no more than its
 * caller and comes after it, so every frame kept keeps its caller. */
static int keep_dearest(struct flame *flame)
{
	const struct flame_frame **ranked;
	struct flame_frame *kept;
	size_t i;

	if (flame->count <= FLAME_FRAMES_MAX)
		return 0;
	ranked = malloc(flame->count * sizeof(*ranked));
	kept = malloc(FLAME_FRAMES_MAX * sizeof(*kept));
	if (ranked == NULL || kept == NULL) {
		free(ranked);
		free(kept);
		return -1;
	}
	for (i = 0; i < flame->count; i++)
		ranked[i] = &flame->frames[i];
	qsort(ranked, flame->count, sizeof(*ranked), compare_dearer);
	for (i = FLAME_FRAMES_MAX; i < flame->count; i++)
		free(ranked[i]->name);
	qsort(ranked, FLAME_FRAMES_MAX, sizeof(*ranked), compare_order);
	for (i = 0; i < FLAME_FRAMES_MAX; i++)
		kept[i] = *ranked[i];
	free(ranked);
	free(flame->frames);
	flame->frames = kept;
	flame->count = FLAME_FRAMES_MAX;
	return 0;
}

int flame_from_profile(struct flame *flame, const struct cg_profile *part, const char *region,
		       uint64_t messages)
{
	struct flame_walk walk = { .part = part, .flame = flame };
	const struct cg_function *root = cg_profile_find(part, region), *candidate;

	*flame = (struct flame){ 0 };
	/* The region's own definition: the first object, not a system library's, that defines it. */
	for (candidate = root; candidate != NULL && root != NULL &&
	     candidate < part->functions + part->function_count &&
	     strcmp(candidate->name, region) == 0; candidate++)
		if (!cg_object_is_system(candidate->object)) {
			root = candidate;
			break;
		}
	if (root == NULL || root->inclusive == 0 || messages == 0)
		return 0;
	walk.messages = (double)messages;
	walk.least = (double)root->inclusive * FLAME_MIN_SHARE;
	if (visit(&walk, root, (double)root->inclusive, 0) != 0 || keep_dearest(flame) != 0) {
		flame_release(flame);
		return -1;
	}
	return 0;
}

bool flame_frames_valid(const struct flame_frame *frames, size_t count)
{
	size_t i;

	for (i = 0; i < count; i++)
		if (i == 0 ? frames[i].depth != 0
			   : frames[i].depth == 0 || frames[i].depth > frames[i - 1].depth + 1)
			return false;
	return true;
}

/* Each frame's path as one text, the names from the region down, joined by a byte no name
 * holds. NULL when out of memory or when the frames make no tree. */
static char **path_keys(const struct flame_frame *frames, size_t count)
{
	char **keys = calloc(count + 1, sizeof(*keys));
	size_t i;

	if (keys == NULL || !flame_frames_valid(frames, count))
		goto failed;
	for (i = 0; i < count; i++) {
		const char *parent = NULL;
		size_t j;

		for (j = i; frames[i].depth > 0 && j-- > 0;)
			if (frames[j].depth + 1 == frames[i].depth) {
				parent = keys[j];
				break;
			}
		if ((parent == NULL ? (keys[i] = strdup(frames[i].name)) == NULL
				    : asprintf(&keys[i], "%s\x1f%s", parent, frames[i].name) < 0)) {
			keys[i] = NULL;
			goto failed;
		}
	}
	return keys;
failed:
	for (i = 0; keys != NULL && i < count; i++)
		free(keys[i]);
	free(keys);
	return NULL;
}

int flame_compare(struct flame_change **changes, size_t *count, const struct flame_frame *head,
		  size_t head_count, const struct flame_frame *baseline, size_t baseline_count)
{
	char **head_keys = NULL, **baseline_keys = NULL;
	size_t i, j;
	int status = -1;

	*changes = NULL;
	*count = 0;
	if (head_count == 0)
		return 0;
	head_keys = path_keys(head, head_count);
	baseline_keys = path_keys(baseline, baseline_count);
	*changes = calloc(head_count, sizeof(**changes));
	if (head_keys == NULL || baseline_keys == NULL || *changes == NULL)
		goto out;
	for (i = 0; i < head_count; i++) {
		struct flame_change *change = &(*changes)[i];

		change->name = head[i].name;
		change->depth = head[i].depth;
		change->head = head[i].instructions;
		change->appeared = true;
		for (j = 0; j < baseline_count && change->appeared; j++)
			if (strcmp(head_keys[i], baseline_keys[j]) == 0) {
				change->baseline = baseline[j].instructions;
				change->appeared = false;
			}
	}
	*count = head_count;
	status = 0;
out:
	for (i = 0; head_keys != NULL && i < head_count; i++)
		free(head_keys[i]);
	for (i = 0; baseline_keys != NULL && i < baseline_count; i++)
		free(baseline_keys[i]);
	free(head_keys);
	free(baseline_keys);
	if (status != 0) {
		free(*changes);
		*changes = NULL;
	}
	return status;
}

static void flame_frame_release(struct flame_frame *frame)
{
	free(frame->name);
}

void flame_frames_release(struct flame_frame *frames, size_t count)
{
	ARRAY_RELEASE(frames, count, flame_frame_release);
}

void flame_release(struct flame *flame)
{
	if (flame == NULL)
		return;
	flame_frames_release(flame->frames, flame->count);
	*flame = (struct flame){ 0 };
}
