/* The split of a profile by owner. An instruction of a project function belongs to the innermost
 * function scope of the DWARF that holds its address (debuginfo_owner_at): when that is a copy of
 * another function inlined there, its cost is that function's "(inlined into ...)". A profile
 * without addresses is split by line: a line belongs to the function whose definition holds it. callgrind's recursion levels ("f'2") are one owner, "f": their
 * own instructions add up, and the inclusive cost is the outermost level's, which already holds
 * every deeper one (adding the levels' would count a recursive call's cost at each level). */
#define _GNU_SOURCE
#include "ownership.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"

static struct debuginfo *object_info(struct ownership_objects *objects, const char *object)
{
	struct debuginfo *grown;
	size_t i;

	for (i = 0; i < objects->count; i++)
		if (strcmp(objects->objects[i].object, object) == 0)
			return &objects->objects[i];
	grown = realloc(objects->objects, (objects->count + 1) * sizeof(*grown));
	if (grown == NULL)
		return NULL;
	objects->objects = grown;
	if (debuginfo_read(&objects->objects[objects->count], object) != 0) {
		debuginfo_release(&objects->objects[objects->count]);
		return NULL;
	}
	return &objects->objects[objects->count++];
}

/* Whether callgrind's name denotes the function `owner`: the same up to a recursion level
 * ("f'2") or a compiler clone's suffix ("f.constprop.0", "f.isra.0", "f.part.0", "f.cold"). */
static bool same_function(const char *name, const char *owner)
{
	size_t length = strcspn(name, "'.");

	return strlen(owner) == length && strncmp(name, owner, length) == 0;
}

/* The length of callgrind's name without its recursion level: "f'2" is "f". */
static size_t level_free_length(const char *name)
{
	return strcspn(name, "'");
}

static bool deeper_level(const char *name)
{
	return name[level_free_length(name)] == '\'';
}

static struct owned_cost *add_cost(struct ownership *ownership, size_t *capacity, char *name,
				   bool project, bool harness)
{
	struct owned_cost *cost;

	if (name == NULL)
		return NULL;
	if (ARRAY_GROW(ownership->costs, *capacity, ownership->count, 64) != 0) {
		free(name);
		return NULL;
	}
	cost = &ownership->costs[ownership->count++];
	*cost = (struct owned_cost){ .name = name, .project = project, .harness = harness };
	return cost;
}

/* The owner named `name` (exactly) on the project's side or the system's, and the harness's or
 * not, added when new: a project function named like a system library's, or like one of the
 * harness's (its static `drain`, `fill`, `grow`), is its own owner. */
static struct owned_cost *find_or_add(struct ownership *ownership, size_t *capacity, char *name,
				      bool project, bool harness)
{
	size_t i;

	if (name == NULL)
		return NULL;
	for (i = 0; i < ownership->count; i++)
		if (ownership->costs[i].project == project &&
		    ownership->costs[i].harness == harness &&
		    strcmp(ownership->costs[i].name, name) == 0) {
			free(name);
			return &ownership->costs[i];
		}
	return add_cost(ownership, capacity, name, project, harness);
}

static char *inlined_name(const char *owner, const char *caller)
{
	char *name;

	if (asprintf(&name, "%s (inlined into %.*s)", owner, (int)level_free_length(caller),
		     caller) < 0)
		return NULL;
	return name;
}

/* One function of the profile, under its level-free name: itself, then what was inlined into it.
 * Calls into the allocator are not the program's own (callgrind.h): never in with_library. */
static int split_function(struct ownership *ownership, size_t *capacity,
			  const struct cg_profile *profile, const struct cg_function *function,
			  struct ownership_objects *objects)
{
	/* "(below main)" and the like are valgrind's names for code no source defines. */
	bool project = !cg_object_is_system(function->object) && function->name[0] != '(';
	bool outermost = !deeper_level(function->name);
	bool by_address = function->instr_count > 0;
	struct debuginfo *info = project && (function->line_count > 0 || by_address)
					 ? object_info(objects, function->object) : NULL;
	uint64_t own = function->exclusive;
	uint64_t own_library = function->library_calls - function->allocator_calls;
	size_t index, i;
	struct owned_cost *cost;
	bool harness = false;

	if (project && (function->line_count > 0 || by_address) && info == NULL)
		return -1;
	/* The function is the harness's when its code lies in a harness unit; what was inlined into
	 * it or shares its name is each its own by its own addresses, below. */
	if (info != NULL && by_address) {
		const struct debuginfo_place *first = debuginfo_place_at(info,
									 function->instrs[0].address);

		if (first == NULL)
			return -1;
		harness = first->harness;
	}
	cost = find_or_add(ownership, capacity,
			   strndup(function->name, level_free_length(function->name)), project,
			   harness);
	if (cost == NULL)
		return -1;
	index = (size_t)(cost - ownership->costs);
	for (i = 0; info != NULL && by_address && i < function->instr_count; i++) {
		const struct cg_instr *instr = &function->instrs[i];
		uint64_t library = instr->library_calls - instr->allocator_calls;
		const struct debuginfo_place *place = debuginfo_place_at(info, instr->address);
		const char *owner;
		struct owned_cost *inlined;
		bool copy, ambiguous, here;

		if (place == NULL)
			return -1;
		owner = place->name;
		copy = place->inlined;
		ambiguous = place->ambiguous;
		here = place->harness;
		/* Its own code, unless its name stands for several functions of the object: then
		 * each is a row of its own, named with its place. */
		if (owner == NULL || (!copy && !ambiguous) || same_function(function->name, owner))
			continue;
		inlined = find_or_add(ownership, capacity,
				      copy ? inlined_name(owner, function->name) : strdup(owner), true,
				      here);
		if (inlined == NULL)
			return -1;
		inlined->exclusive += instr->exclusive;
		if (outermost)
			inlined->inclusive += instr->exclusive + instr->calls;
		inlined->with_library += instr->exclusive + library;
		own -= instr->exclusive;
		own_library -= library;
	}
	for (i = 0; info != NULL && !by_address && i < function->line_count; i++) {
		const struct cg_line *line = &function->lines[i];
		const char *owner = debuginfo_owner(info, profile->files[line->file], line->line);
		uint64_t library = line->library_calls - line->allocator_calls;
		struct owned_cost *inlined;

		if (owner == NULL || same_function(function->name, owner))
			continue;
		inlined = find_or_add(ownership, capacity, inlined_name(owner, function->name), true,
				      harness);
		if (inlined == NULL)
			return -1;
		inlined->exclusive += line->exclusive;
		if (outermost)
			inlined->inclusive += line->exclusive + line->calls;
		inlined->with_library += line->exclusive + library;
		own -= line->exclusive;
		own_library -= library;
	}
	cost = &ownership->costs[index]; /* the array may have moved */
	cost->exclusive += own;
	if (outermost || cost->inclusive == 0)
		cost->inclusive = function->inclusive;
	cost->with_library += own + own_library;
	cost->syscalls += function->syscalls.exclusive + function->syscalls.library;
	return 0;
}

/* Code inlined into a function runs inside it: its inclusive cost is never above the
 * function's (a line's calls into a deeper recursion level could otherwise count twice). */
static void cap_inlined(struct ownership *ownership)
{
	size_t i, j;

	for (i = 0; i < ownership->count; i++) {
		const char *into = strstr(ownership->costs[i].name, " (inlined into ");
		size_t length;

		if (into == NULL)
			continue;
		into += strlen(" (inlined into ");
		length = strlen(into) - 1; /* without the closing parenthesis */
		for (j = 0; j < ownership->count; j++) {
			const struct owned_cost *caller = &ownership->costs[j];

			if (strlen(caller->name) == length && strncmp(caller->name, into, length) == 0 &&
			    ownership->costs[i].inclusive > caller->inclusive)
				ownership->costs[i].inclusive = caller->inclusive;
		}
	}
}

/* By name, the project's owner before the system's of the same name, the harness's after the
 * project's own. */
static int compare_costs(const void *left, const void *right)
{
	const struct owned_cost *a = left, *b = right;
	int order = strcmp(a->name, b->name);

	if (order != 0)
		return order;
	if (a->project != b->project)
		return (int)b->project - (int)a->project;
	return (int)a->harness - (int)b->harness;
}

int ownership_compute(struct ownership *ownership, const struct cg_profile *profile,
		      struct ownership_objects *objects)
{
	size_t capacity = 0, i;

	*ownership = (struct ownership)OWNERSHIP_INIT;
	for (i = 0; i < profile->function_count; i++) {
		if (split_function(ownership, &capacity, profile, &profile->functions[i], objects) != 0) {
			ownership_release(ownership);
			return -1;
		}
	}
	cap_inlined(ownership);
	if (ownership->count > 0)
		qsort(ownership->costs, ownership->count, sizeof(*ownership->costs), compare_costs);
	return 0;
}

const struct owned_cost *ownership_find(const struct ownership *ownership, const char *name,
				       bool project, bool harness)
{
	struct owned_cost key = { .name = (char *)name, .project = project, .harness = harness };

	if (ownership == NULL || ownership->count == 0)
		return NULL;
	return bsearch(&key, ownership->costs, ownership->count, sizeof(key), compare_costs);
}

static void owned_cost_release(struct owned_cost *cost)
{
	free(cost->name);
}

void ownership_release(struct ownership *ownership)
{
	if (ownership == NULL)
		return;
	ARRAY_RELEASE(ownership->costs, ownership->count, owned_cost_release);
	*ownership = (struct ownership)OWNERSHIP_INIT;
}

void ownership_objects_release(struct ownership_objects *objects)
{
	if (objects == NULL)
		return;
	ARRAY_RELEASE(objects->objects, objects->count, debuginfo_release);
	*objects = (struct ownership_objects){ 0 };
}
