/* DWARF through libdw, the real reader (no home-made one): one walk over the compile units'
 * top-level subprograms. Deliberately by declaration line rather than by address ranges, because
 * callgrind gives gate lines (fl=, fi=, fe= and a line per cost), not addresses. */
#define _GNU_SOURCE
#include "debuginfo.h"

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "array.h"

static int debuginfo_compare(const void *left, const void *right)
{
	const struct debuginfo_function *a = left, *b = right;
	int order = strcmp(a->file, b->file);

	if (order != 0)
		return order;
	return a->line < b->line ? -1 : a->line > b->line ? 1 : strcmp(a->name, b->name);
}

static int debuginfo_add(struct debuginfo *info, size_t *capacity, const char *directory,
			 const char *file, uint64_t line, const char *name)
{
	struct debuginfo_function *entry;

	if (ARRAY_GROW(info->functions, *capacity, info->count, 64) != 0)
		return -1;
	entry = &info->functions[info->count];
	entry->line = line;
	entry->name = strdup(name);
	if (file[0] == '/' || directory == NULL)
		entry->file = strdup(file);
	else if (asprintf(&entry->file, "%s/%s", directory, file) < 0)
		entry->file = NULL;
	if (entry->name == NULL || entry->file == NULL) {
		free(entry->name);
		free(entry->file);
		return -1;
	}
	info->count++;
	return 0;
}

/* A function with a body here: out of line (an address) or inlined (DW_AT_inline), not a mere
 * declaration. */
static bool debuginfo_defines(Dwarf_Die *die)
{
	return dwarf_tag(die) == DW_TAG_subprogram && !dwarf_hasattr(die, DW_AT_declaration) &&
	       (dwarf_hasattr(die, DW_AT_low_pc) || dwarf_hasattr(die, DW_AT_ranges) ||
		dwarf_hasattr(die, DW_AT_inline));
}

/* The first compilation unit whose header is at *offset or after (0: the first of all) into *unit,
 * *offset moved past it; false when there is none. A unit whose DIE cannot be read is passed
 * over. */
static bool debuginfo_next_unit(Dwarf *dwarf, Dwarf_Off *offset, Dwarf_Die *unit)
{
	Dwarf_Off next;
	size_t header_size;

	while (dwarf_nextcu(dwarf, *offset, &next, &header_size, NULL, NULL, NULL) == 0) {
		bool read = dwarf_offdie(dwarf, *offset + header_size, unit) != NULL;

		*offset = next;
		if (read)
			return true;
	}
	return false;
}

static int debuginfo_read_unit(struct debuginfo *info, size_t *capacity, Dwarf_Die *unit)
{
	Dwarf_Attribute attribute;
	const char *directory = dwarf_formstring(dwarf_attr(unit, DW_AT_comp_dir, &attribute));
	Dwarf_Die child;

	if (dwarf_child(unit, &child) != 0)
		return 0;
	do {
		const char *name, *file;
		int line;

		if (!debuginfo_defines(&child))
			continue;
		name = dwarf_formstring(dwarf_attr_integrate(&child, DW_AT_name, &attribute));
		file = dwarf_decl_file(&child);
		if (name == NULL || file == NULL || dwarf_decl_line(&child, &line) != 0 || line <= 0)
			continue;
		if (debuginfo_add(info, capacity, directory, file, (uint64_t)line, name) != 0)
			return -1;
	} while (dwarf_siblingof(&child, &child) == 0);
	return 0;
}

int debuginfo_read(struct debuginfo *info, const char *object)
{
	size_t capacity = 0;
	Dwarf_Off offset = 0;
	Dwarf_Die unit;
	Dwarf *dwarf = NULL;
	int fd, status = -1;

	*info = (struct debuginfo)DEBUGINFO_INIT;
	info->object = strdup(object);
	if (info->object == NULL)
		return -1;
	fd = open(object, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	dwarf = dwarf_begin(fd, DWARF_C_READ);
	if (dwarf == NULL) {
		status = 0;
		goto out;
	}
	while (debuginfo_next_unit(dwarf, &offset, &unit))
		if (debuginfo_read_unit(info, &capacity, &unit) != 0)
			goto out;
	if (info->count > 0)
		qsort(info->functions, info->count, sizeof(*info->functions), debuginfo_compare);
	/* Kept open for debuginfo_owner_at. */
	info->dwarf = dwarf;
	info->fd = fd;
	return 0;
out:
	if (dwarf != NULL)
		dwarf_end(dwarf);
	close(fd);
	return status;
}

/* The DIE a scope stands for: through DW_AT_abstract_origin (an inlined or concrete copy) to the
 * abstract instance, then through DW_AT_specification (a member defined apart from its class's
 * declaration of it) to the declaration, which sits inside its namespaces and classes. */
static void debuginfo_origin(Dwarf_Die *die)
{
	Dwarf_Attribute attribute;
	Dwarf_Die next;
	int steps;

	for (steps = 0; steps < 16 && dwarf_attr(die, DW_AT_abstract_origin, &attribute) != NULL &&
			dwarf_formref_die(&attribute, &next) != NULL; steps++)
		*die = next;
	for (steps = 0; steps < 16 && dwarf_attr(die, DW_AT_specification, &attribute) != NULL &&
			dwarf_formref_die(&attribute, &next) != NULL; steps++)
		*die = next;
}

/* The name of `die` (a function's declaration) with the named namespaces, classes, structures
 * and unions around it, outermost first: "shop::Index::add". NULL when it has no name. */
static char *debuginfo_qualified_name(Dwarf_Die *die)
{
	const char *name = dwarf_diename(die);
	Dwarf_Die *scopes = NULL;
	char *qualified;
	int count, i;

	if (name == NULL)
		return NULL;
	qualified = strdup(name);
	count = dwarf_getscopes_die(die, &scopes);
	/* scopes[0] is the die itself, then each enclosing DIE up to the unit. */
	for (i = 1; qualified != NULL && i < count; i++) {
		int tag = dwarf_tag(&scopes[i]);
		const char *outer = dwarf_diename(&scopes[i]);
		char *longer = NULL;

		if ((tag != DW_TAG_namespace && tag != DW_TAG_class_type &&
		     tag != DW_TAG_structure_type && tag != DW_TAG_union_type) || outer == NULL)
			continue;
		if (asprintf(&longer, "%s::%s", outer, qualified) < 0)
			longer = NULL;
		free(qualified);
		qualified = longer;
	}
	free(scopes);
	return qualified;
}

/* The unit whose code holds `address`: by the object's address ranges table, else by asking each
 * unit (an object without .debug_aranges). */
static bool debuginfo_unit_at(Dwarf *dwarf, uint64_t address, Dwarf_Die *unit)
{
	Dwarf_Off offset = 0;

	if (dwarf_addrdie(dwarf, address, unit) != NULL)
		return true;
	while (debuginfo_next_unit(dwarf, &offset, unit))
		if (dwarf_haspc(unit, address) > 0)
			return true;
	return false;
}

/* Whether code can sit below a DIE of this tag without the DIE saying where: namespaces and
 * classes hold the definitions of their functions, and have no addresses of their own. */
static bool debuginfo_holds_code(int tag)
{
	return tag == DW_TAG_namespace || tag == DW_TAG_class_type ||
	       tag == DW_TAG_structure_type || tag == DW_TAG_union_type;
}

/* Below `parent`, the innermost function scope (a function or a copy of one inlined there) whose
 * addresses hold `address`, into *found; walked by hand rather than with dwarf_getscopes, which
 * finds no scope in a unit link-time optimisation wrote (its scopes name their origins in other
 * units). */
static void debuginfo_innermost(Dwarf_Die *parent, uint64_t address, Dwarf_Die *found,
				bool *any, unsigned depth)
{
	Dwarf_Die child;

	if (depth > 64 || dwarf_child(parent, &child) != 0)
		return;
	do {
		int tag = dwarf_tag(&child);

		if (debuginfo_holds_code(tag)) {
			debuginfo_innermost(&child, address, found, any, depth + 1);
			continue;
		}
		if ((tag != DW_TAG_subprogram && tag != DW_TAG_inlined_subroutine &&
		     tag != DW_TAG_lexical_block) || dwarf_haspc(&child, address) <= 0)
			continue;
		if (tag != DW_TAG_lexical_block) {
			*found = child;
			*any = true;
		}
		/* Scopes nest: no sibling holds the address too. */
		debuginfo_innermost(&child, address, found, any, depth + 1);
		return;
	} while (dwarf_siblingof(&child, &child) == 0);
}

static int debuginfo_compare_names(const void *left, const void *right)
{
	const struct debuginfo_function *const *a = left, *const *b = right;

	return strcmp((*a)->name, (*b)->name);
}

/* Whether the object defines more than one function named `name` (at two places). */
static int debuginfo_defined_twice(struct debuginfo *info, const char *name, bool *twice)
{
	struct debuginfo_function key = { .name = (char *)name };
	const struct debuginfo_function *key_pointer = &key, **found, **end;
	size_t i;

	*twice = false;
	if (info->count < 2)
		return 0;
	if (info->by_name == NULL) {
		info->by_name = malloc(info->count * sizeof(*info->by_name));
		if (info->by_name == NULL)
			return -1;
		for (i = 0; i < info->count; i++)
			info->by_name[i] = &info->functions[i];
		qsort(info->by_name, info->count, sizeof(*info->by_name), debuginfo_compare_names);
	}
	found = bsearch(&key_pointer, info->by_name, info->count, sizeof(*info->by_name),
			debuginfo_compare_names);
	if (found == NULL)
		return 0;
	while (found > info->by_name && strcmp(found[-1]->name, name) == 0)
		found--;
	end = info->by_name + info->count;
	for (i = 1; found + i < end && strcmp(found[i]->name, name) == 0; i++)
		if (found[i]->line != found[0]->line || strcmp(found[i]->file, found[0]->file) != 0)
			*twice = true;
	return 0;
}

/* *name with " [FILE:LINE]" after it, FILE the base name of where `die` is declared. */
static int debuginfo_add_place(char **name, Dwarf_Die *die)
{
	const char *file = dwarf_decl_file(die), *base;
	char *longer = NULL;
	int line = 0;

	if (file == NULL || dwarf_decl_line(die, &line) != 0)
		return 0;
	base = strrchr(file, '/');
	if (asprintf(&longer, "%s [%s:%d]", *name, base != NULL ? base + 1 : file, line) < 0)
		return -1;
	free(*name);
	*name = longer;
	return 0;
}

static int debuginfo_compare_spans(const void *left, const void *right)
{
	const struct debuginfo_span *a = left, *b = right;

	return a->low < b->low ? -1 : a->low > b->low;
}

/* Adds every range of every function below `parent` (through namespaces and classes) to *index. */
static int debuginfo_collect_spans(Dwarf_Die *parent, struct debuginfo_unit_spans *index,
				   size_t *capacity, unsigned depth)
{
	Dwarf_Die child;

	if (depth > 16 || dwarf_child(parent, &child) != 0)
		return 0;
	do {
		int tag = dwarf_tag(&child);
		Dwarf_Addr base, start, end;
		ptrdiff_t offset = 0;

		if (debuginfo_holds_code(tag)) {
			if (debuginfo_collect_spans(&child, index, capacity, depth + 1) != 0)
				return -1;
			continue;
		}
		if (tag != DW_TAG_subprogram)
			continue;
		while ((offset = dwarf_ranges(&child, offset, &base, &start, &end)) > 0) {
			if (ARRAY_GROW(index->spans, *capacity, index->count, 64) != 0)
				return -1;
			index->spans[index->count++] = (struct debuginfo_span){
				.low = start, .high = end, .die = dwarf_dieoffset(&child) };
		}
	} while (dwarf_siblingof(&child, &child) == 0);
	return 0;
}

/* The spans of `unit`, made the first time it is asked for; NULL when out of memory. */
static bool debuginfo_unit_is_harness(Dwarf_Die *unit);

static const struct debuginfo_unit_spans *debuginfo_unit_spans(struct debuginfo *info,
							       Dwarf_Die *unit)
{
	uint64_t offset = dwarf_dieoffset(unit);
	struct debuginfo_unit_spans *grown, *index;
	size_t i, capacity = 0;

	for (i = 0; i < info->span_units; i++)
		if (info->spans[i].unit == offset)
			return &info->spans[i];
	grown = realloc(info->spans, (info->span_units + 1) * sizeof(*grown));
	if (grown == NULL)
		return NULL;
	info->spans = grown;
	index = &info->spans[info->span_units];
	*index = (struct debuginfo_unit_spans){ .unit = offset,
						 .harness = debuginfo_unit_is_harness(unit) };
	if (debuginfo_collect_spans(unit, index, &capacity, 0) != 0) {
		free(index->spans);
		return NULL;
	}
	if (index->count > 1)
		qsort(index->spans, index->count, sizeof(*index->spans), debuginfo_compare_spans);
	info->span_units++;
	return index;
}

/* The function of `index` whose range holds `address`, into *function: the last to start at or
 * before it that holds it (functions do not overlap; a few ranges may start alike). */
static bool debuginfo_function_at(Dwarf *dwarf, const struct debuginfo_unit_spans *index,
				  uint64_t address, Dwarf_Die *function)
{
	size_t low = 0, high = index->count, i;

	while (low < high) {
		size_t middle = low + (high - low) / 2;

		if (index->spans[middle].low <= address)
			low = middle + 1;
		else
			high = middle;
	}
	for (i = low; i > 0 && low - i < 8; i--)
		if (index->spans[i - 1].low <= address && address < index->spans[i - 1].high)
			return dwarf_offdie(dwarf, index->spans[i - 1].die, function) != NULL;
	return false;
}

/* The name of the function whose declaration is `die`, made the first time (qualified, and with
 * its place when the object defines the name twice); NULL when out of memory. */
static const struct debuginfo_origin *debuginfo_origin_name(struct debuginfo *info, Dwarf_Die *die)
{
	uint64_t offset = dwarf_dieoffset(die);
	size_t low = 0, high = info->origin_count;
	struct debuginfo_origin *grown, made = { .die = offset };

	while (low < high) {
		size_t middle = low + (high - low) / 2;

		if (info->origins[middle].die < offset)
			low = middle + 1;
		else
			high = middle;
	}
	if (low < info->origin_count && info->origins[low].die == offset)
		return &info->origins[low];
	made.name = debuginfo_qualified_name(die);
	if (made.name == NULL && dwarf_diename(die) != NULL)
		return NULL;
	/* Qualified names tell members of two classes apart; a free function's name may not. */
	if (made.name != NULL && strstr(made.name, "::") == NULL &&
	    (debuginfo_defined_twice(info, made.name, &made.ambiguous) != 0 ||
	     (made.ambiguous && debuginfo_add_place(&made.name, die) != 0))) {
		free(made.name);
		return NULL;
	}
	grown = realloc(info->origins, (info->origin_count + 1) * sizeof(*grown));
	if (grown == NULL) {
		free(made.name);
		return NULL;
	}
	info->origins = grown;
	memmove(&grown[low + 1], &grown[low], (info->origin_count - low) * sizeof(*grown));
	grown[low] = made;
	info->origin_count++;
	return &grown[low];
}

/* Looks `address` up in the DWARF into *place. -1 when out of memory. */
static int debuginfo_look_up(struct debuginfo *info, uint64_t address,
			     struct debuginfo_place *place)
{
	Dwarf_Die unit, function, scope;
	const struct debuginfo_unit_spans *index;
	const struct debuginfo_origin *origin;
	bool any = false;

	*place = (struct debuginfo_place){ .address = address, .known = true };
	if (info->dwarf == NULL || !debuginfo_unit_at(info->dwarf, address, &unit))
		return 0;
	index = debuginfo_unit_spans(info, &unit);
	if (index == NULL)
		return -1;
	place->harness = index->harness;
	/* The function first, by its ranges; then the scopes inside it. */
	if (!debuginfo_function_at(info->dwarf, index, address, &function))
		return 0;
	scope = function;
	any = true;
	debuginfo_innermost(&function, address, &scope, &any, 1);
	place->inlined = dwarf_tag(&scope) == DW_TAG_inlined_subroutine;
	debuginfo_origin(&scope);
	origin = debuginfo_origin_name(info, &scope);
	if (origin == NULL)
		return -1;
	place->name = origin->name;
	place->ambiguous = origin->ambiguous;
	return 0;
}

static struct debuginfo_place *debuginfo_slot(const struct debuginfo *info, uint64_t address)
{
	size_t mask = info->place_capacity - 1;
	size_t at = (size_t)((address * 0x9e3779b97f4a7c15ULL) >> 17) & mask;

	while (info->places[at].known && info->places[at].address != address)
		at = (at + 1) & mask;
	return &info->places[at];
}

static int debuginfo_grow_places(struct debuginfo *info)
{
	struct debuginfo_place *old = info->places;
	size_t old_capacity = info->place_capacity, i;

	info->place_capacity = old_capacity == 0 ? 256 : old_capacity * 2;
	info->places = calloc(info->place_capacity, sizeof(*info->places));
	if (info->places == NULL) {
		info->places = old;
		info->place_capacity = old_capacity;
		return -1;
	}
	for (i = 0; i < old_capacity; i++)
		if (old[i].known)
			*debuginfo_slot(info, old[i].address) = old[i];
	free(old);
	return 0;
}

const struct debuginfo_place *debuginfo_place_at(struct debuginfo *info, uint64_t address)
{
	struct debuginfo_place *place;

	if ((info->place_count + 1) * 2 > info->place_capacity && debuginfo_grow_places(info) != 0)
		return NULL;
	place = debuginfo_slot(info, address);
	if (!place->known) {
		if (debuginfo_look_up(info, address, place) != 0)
			return NULL;
		info->place_count++;
	}
	return place;
}

int debuginfo_owner_at(struct debuginfo *info, uint64_t address, const char **name,
		       bool *inlined, bool *ambiguous)
{
	const struct debuginfo_place *place;

	*name = NULL;
	*inlined = false;
	*ambiguous = false;
	place = debuginfo_place_at(info, address);
	if (place == NULL)
		return -1;
	*name = place->name;
	*inlined = place->inlined;
	*ambiguous = place->ambiguous;
	return 0;
}

int debuginfo_units_read(const char *object, struct debuginfo_units *units)
{
	Dwarf_Off offset = 0, next;
	Dwarf_Half version;
	size_t header_size;
	Dwarf *dwarf;
	int fd;

	*units = (struct debuginfo_units){ 0 };
	fd = open(object, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	dwarf = dwarf_begin(fd, DWARF_C_READ);
	while (dwarf != NULL && dwarf_next_unit(dwarf, offset, &next, &header_size, &version, NULL,
						NULL, NULL, NULL, NULL) == 0) {
		Dwarf_Die unit;
		Dwarf_Attribute attribute;
		const char *producer = NULL;

		units->units++;
		if (version > units->highest_version)
			units->highest_version = version;
		if (dwarf_offdie(dwarf, offset + header_size, &unit) != NULL)
			producer = dwarf_formstring(dwarf_attr(&unit, DW_AT_producer, &attribute));
		if (version >= 5 && producer != NULL && strstr(producer, "clang") != NULL) {
			if (units->clang_dwarf5++ == 0)
				snprintf(units->producer, sizeof(units->producer), "%s", producer);
		}
		offset = next;
	}
	if (dwarf != NULL)
		dwarf_end(dwarf);
	close(fd);
	return 0;
}

/* Equal, or one ends with "/" followed by the other (a relative name against an absolute one). */
static bool debuginfo_same_file(const char *a, const char *b)
{
	size_t length_a = strlen(a), length_b = strlen(b);

	if (length_a == length_b)
		return strcmp(a, b) == 0;
	if (length_a < length_b)
		return b[length_b - length_a - 1] == '/' && strcmp(b + length_b - length_a, a) == 0;
	return a[length_a - length_b - 1] == '/' && strcmp(a + length_a - length_b, b) == 0;
}

const char *debuginfo_owner(const struct debuginfo *info, const char *file, uint64_t line)
{
	const struct debuginfo_function *best = NULL;
	size_t i = 0;

	if (info == NULL || file == NULL || line == 0)
		return NULL;
	while (i < info->count) {
		const char *current = info->functions[i].file;
		bool same = debuginfo_same_file(current, file);

		/* Entries of one file are adjacent; the last that starts at or before the line. */
		for (; i < info->count && strcmp(info->functions[i].file, current) == 0; i++)
			if (same && info->functions[i].line <= line)
				best = &info->functions[i];
		if (same && best != NULL)
			return best->name;
	}
	return NULL;
}

static void debuginfo_function_release(struct debuginfo_function *function)
{
	free(function->file);
	free(function->name);
}

static void debuginfo_origin_release(struct debuginfo_origin *origin)
{
	free(origin->name);
}

static void unit_spans_release(struct debuginfo_unit_spans *unit)
{
	free(unit->spans);
}

void debuginfo_release(struct debuginfo *info)
{
	if (info == NULL)
		return;
	ARRAY_RELEASE(info->functions, info->count, debuginfo_function_release);
	free(info->object);
	free(info->places);
	ARRAY_RELEASE(info->origins, info->origin_count, debuginfo_origin_release);
	free(info->by_name);
	ARRAY_RELEASE(info->spans, info->span_units, unit_spans_release);
	if (info->dwarf != NULL)
		dwarf_end(info->dwarf);
	if (info->fd >= 0)
		close(info->fd);
	*info = (struct debuginfo)DEBUGINFO_INIT;
}

/* The unit's top-level definition of `variable`, into *file; 1 found, 0 not, -1 out of memory. */
static int debuginfo_unit_variable(Dwarf_Die *unit, const char *variable, char **file)
{
	Dwarf_Attribute attribute;
	const char *directory = dwarf_formstring(dwarf_attr(unit, DW_AT_comp_dir, &attribute));
	Dwarf_Die child;

	if (dwarf_child(unit, &child) != 0)
		return 0;
	do {
		const char *name, *declared;

		if (dwarf_tag(&child) != DW_TAG_variable || dwarf_hasattr(&child, DW_AT_declaration))
			continue;
		name = dwarf_formstring(dwarf_attr_integrate(&child, DW_AT_name, &attribute));
		/* A definition that follows an extern declaration (the harness header's) carries
		 * only DW_AT_specification and its location: it is defined in the unit's own file,
		 * not where the declaration it points to was made. */
		declared = dwarf_hasattr(&child, DW_AT_decl_file) ? dwarf_decl_file(&child)
								  : dwarf_diename(unit);
		if (name == NULL || declared == NULL || strcmp(name, variable) != 0)
			continue;
		if (declared[0] == '/' || directory == NULL)
			*file = strdup(declared);
		else if (asprintf(file, "%s/%s", directory, declared) < 0)
			*file = NULL;
		return *file != NULL ? 1 : -1;
	} while (dwarf_siblingof(&child, &child) == 0);
	return 0;
}

int debuginfo_variable_file(const char *object, const char *variable, char **file)
{
	Dwarf_Off offset = 0;
	Dwarf_Die unit;
	Dwarf *dwarf;
	int fd, found = 0;

	*file = NULL;
	fd = open(object, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	dwarf = dwarf_begin(fd, DWARF_C_READ);
	while (dwarf != NULL && found == 0 && debuginfo_next_unit(dwarf, &offset, &unit))
		found = debuginfo_unit_variable(&unit, variable, file);
	if (dwarf != NULL)
		dwarf_end(dwarf);
	close(fd);
	return found < 0 ? -1 : 0;
}

/* Whether the unit defines, out of line, one of the harness's own entry points (harness.c's and
 * queue.c's external functions, include/costgate/). Any name the project could give its own code
 * ("costgate_helper") is no mark: only these, which a project cannot define beside the harness
 * it links without taking the harness's place. */
static bool debuginfo_unit_is_harness(Dwarf_Die *unit)
{
	static const char *const entry_points[] = {
		"costgate_harness_main", "costgate_measured_region", "costgate_queue_init",
		"costgate_queue_reserve", "costgate_queue_publish", "costgate_queue_release", NULL,
	};
	Dwarf_Attribute attribute;
	Dwarf_Die child;
	bool external;
	size_t i;

	if (dwarf_child(unit, &child) != 0)
		return false;
	do {
		const char *name;

		if (!debuginfo_defines(&child) || dwarf_hasattr(&child, DW_AT_inline) ||
		    dwarf_formflag(dwarf_attr_integrate(&child, DW_AT_external, &attribute),
				   &external) != 0 || !external)
			continue;
		name = dwarf_formstring(dwarf_attr_integrate(&child, DW_AT_name, &attribute));
		for (i = 0; name != NULL && entry_points[i] != NULL; i++)
			if (strcmp(name, entry_points[i]) == 0)
				return true;
	} while (dwarf_siblingof(&child, &child) == 0);
	return false;
}

int debuginfo_each_unit(const char *object,
			int (*each)(const struct debuginfo_unit *unit, void *context), void *context)
{
	Dwarf_Off offset = 0;
	Dwarf_Die die;
	Dwarf *dwarf;
	int fd, status = 0;

	fd = open(object, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	dwarf = dwarf_begin(fd, DWARF_C_READ);
	while (dwarf != NULL && status == 0 && debuginfo_next_unit(dwarf, &offset, &die)) {
		Dwarf_Attribute attribute;
		struct debuginfo_unit unit = { 0 };
		const char *name = dwarf_diename(&die);
		const char *directory = dwarf_formstring(
			dwarf_attr(&die, DW_AT_comp_dir, &attribute));
		char *file = NULL;

		if (name != NULL && name[0] != '/' && directory != NULL) {
			if (asprintf(&file, "%s/%s", directory, name) < 0) {
				status = -1;
				break;
			}
			unit.file = file;
		} else {
			unit.file = name;
		}
		unit.producer = dwarf_formstring(dwarf_attr(&die, DW_AT_producer, &attribute));
		unit.harness = debuginfo_unit_is_harness(&die);
		status = each(&unit, context);
		free(file);
	}
	if (dwarf != NULL)
		dwarf_end(dwarf);
	close(fd);
	return status;
}

/* Options that take the next word as their argument, on a recorded command line. */
static bool debuginfo_takes_argument(const char *word)
{
	static const char *const options[] = { "-o", "-I", "-D", "-U", "-MF", "-MT", "-MQ", "-x",
						"-include", "-isystem", "-iquote", "-idirafter",
						"-imacros", "-Xclang", "-target", NULL };
	size_t i;

	for (i = 0; options[i] != NULL; i++)
		if (strcmp(word, options[i]) == 0)
			return true;
	return false;
}

/* Whether a recorded option decides the code and holds no path. */
static bool debuginfo_code_option(const char *word)
{
	static const char *const path_prefixes[] = { "-fdebug-prefix-map=", "-ffile-prefix-map=",
						     "-fmacro-prefix-map=", "-fprofile-",
						     "-fdiagnostics", "-fcolor-diagnostics",
						     "-fno-color-diagnostics", "-fmessage-length",
						     NULL };
	size_t i;

	if (word[0] != '-' || word[1] == '\0')
		return false;
	for (i = 0; path_prefixes[i] != NULL; i++)
		if (strncmp(word, path_prefixes[i], strlen(path_prefixes[i])) == 0)
			return false;
	if (strchr(word, '/') != NULL)
		return false;
	return word[1] == 'O' || word[1] == 'f' || word[1] == 'm' || word[1] == 'g' ||
	       strncmp(word, "-std=", 5) == 0 || strcmp(word, "-ansi") == 0 ||
	       strcmp(word, "-pg") == 0;
}

int debuginfo_producer_flags(const char *producer, char **flags)
{
	char *copy, *word, *saved = NULL, *out;
	bool skip = false;
	size_t used = 0;

	*flags = NULL;
	if (producer == NULL)
		return 0;
	copy = strdup(producer);
	out = malloc(strlen(producer) + 1);
	if (copy == NULL || out == NULL) {
		free(copy);
		free(out);
		return -1;
	}
	for (word = strtok_r(copy, " \t", &saved); word != NULL; word = strtok_r(NULL, " \t", &saved)) {
		if (skip) {
			skip = false;
			continue;
		}
		if (debuginfo_takes_argument(word)) {
			skip = true;
			continue;
		}
		if (!debuginfo_code_option(word))
			continue;
		if (used > 0)
			out[used++] = ' ';
		memcpy(out + used, word, strlen(word));
		used += strlen(word);
	}
	out[used] = '\0';
	free(copy);
	if (used == 0) {
		free(out);
		return 0;
	}
	*flags = out;
	return 0;
}

bool debuginfo_flags_optimise(const char *flags)
{
	const char *last = NULL, *at = flags;

	while (at != NULL && (at = strstr(at, "-O")) != NULL) {
		if (at == flags || at[-1] == ' ')
			last = at;
		at += 2;
	}
	return last != NULL && !(last[2] == '0' && (last[3] == ' ' || last[3] == '\0'));
}
