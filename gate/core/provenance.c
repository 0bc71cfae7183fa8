/* Reads the scenario programs' DWARF (debuginfo_each_unit) and the files' times: no compiler is
 * run and no build file is read. */
#define _GNU_SOURCE
#include "provenance.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "array.h"
#include "callgrind.h"
#include "debuginfo.h"
#include "packages.h"

/* What one object's units add, while it is read. */
struct reading {
	struct provenance *provenance;
	const char *root;
	const char *scenario;   /* the manifest's name */
	struct timespec built;  /* its modification time */
	char **unoptimised;     /* the entry's slot */
	bool out_of_memory;
};

static bool later(const struct timespec *a, const struct timespec *b)
{
	return a->tv_sec > b->tv_sec || (a->tv_sec == b->tv_sec && a->tv_nsec > b->tv_nsec);
}

/* The source's name as outputs may show it: relative to the root when inside it, else its file
 * name. */
static const char *shown_name(const char *file, const char *root)
{
	size_t length = root != NULL ? strlen(root) : 0;
	const char *slash = strrchr(file, '/');

	if (length > 0 && strncmp(file, root, length) == 0 && file[length] == '/')
		return file + length + 1;
	return slash != NULL ? slash + 1 : file;
}

/* Adds `flags` to the distinct sets unless there already. */
static int add_flags(struct provenance *provenance, const char *flags)
{
	const char *at = provenance->flags;
	size_t length = strlen(flags);
	char *joined;

	while (at != NULL) {
		const char *end = strstr(at, " | ");
		size_t here = end != NULL ? (size_t)(end - at) : strlen(at);

		if (here == length && strncmp(at, flags, length) == 0)
			return 0;
		at = end != NULL ? end + 3 : NULL;
	}
	if (provenance->flags == NULL)
		joined = strdup(flags);
	else if (asprintf(&joined, "%s | %s", provenance->flags, flags) < 0)
		joined = NULL;
	if (joined == NULL)
		return -1;
	free(provenance->flags);
	provenance->flags = joined;
	return 0;
}

static bool written_by_a_c_compiler(const char *producer)
{
	return producer != NULL &&
	       (strncmp(producer, "GNU C", 5) == 0 || strstr(producer, "clang") != NULL);
}

static int read_unit(const struct debuginfo_unit *unit, void *context)
{
	struct reading *reading = context;
	struct provenance *provenance = reading->provenance;
	struct stat source;
	char *flags = NULL;

	if (unit->harness || unit->file == NULL || unit->file[0] != '/' ||
	    !written_by_a_c_compiler(unit->producer) || strncmp(unit->file, "/usr/", 5) == 0 ||
	    stat(unit->file, &source) != 0 || !S_ISREG(source.st_mode))
		return 0;
	provenance->units++;
	if (provenance->stale == NULL && later(&source.st_mtim, &reading->built) &&
	    asprintf(&provenance->stale, "'%s' is older than its source %s", reading->scenario,
		     shown_name(unit->file, reading->root)) < 0) {
		provenance->stale = NULL;
		goto no_memory;
	}
	if (debuginfo_producer_flags(unit->producer, &flags) != 0)
		goto no_memory;
	if (flags == NULL)
		return 0;
	provenance->recorded++;
	if (add_flags(provenance, flags) != 0)
		goto no_memory;
	if (*reading->unoptimised == NULL && !debuginfo_flags_optimise(flags) &&
	    asprintf(reading->unoptimised, "%s (%s)", shown_name(unit->file, reading->root),
		     flags) < 0) {
		*reading->unoptimised = NULL;
		goto no_memory;
	}
	free(flags);
	return 0;
no_memory:
	free(flags);
	reading->out_of_memory = true;
	return 1;
}

static int read_object(struct reading *reading, const char *object)
{
	struct stat built;

	if (stat(object, &built) != 0)
		return 0;
	reading->built = built.st_mtim;
	debuginfo_each_unit(object, read_unit, reading);
	return reading->out_of_memory ? -1 : 0;
}

int provenance_read(struct provenance *provenance, const struct manifest *manifest,
		    const char *root, struct gate_error *err)
{
	size_t i, j;

	*provenance = (struct provenance)PROVENANCE_INIT;
	provenance->unoptimised = calloc(manifest->entry_count + 1, sizeof(char *));
	if (provenance->unoptimised == NULL)
		return gate_error_oom(err);
	provenance->count = manifest->entry_count;
	for (i = 0; i < manifest->entry_count; i++) {
		struct reading reading = { provenance, root, manifest->entries[i].name, { 0, 0 },
					   &provenance->unoptimised[i], false };
		struct packages_object *objects = NULL;
		struct gate_error ignored = GATE_ERROR_INIT;
		size_t count = 0;
		int status = 0;

		if (packages_objects(manifest->entries[i].path, &objects, &count, &ignored) != 0)
			status = read_object(&reading, manifest->entries[i].path);
		for (j = 0; status == 0 && j < count; j++)
			if (j == 0 || !cg_object_is_system(objects[j].path))
				status = read_object(&reading, objects[j].path);
		packages_objects_release(objects, count);
		if (status != 0) {
			provenance_release(provenance);
			return gate_error_oom(err);
		}
	}
	return 0;
}

void provenance_release(struct provenance *provenance)
{
	if (provenance == NULL)
		return;
	array_free_strings(provenance->unoptimised, provenance->count);
	free(provenance->flags);
	free(provenance->stale);
	*provenance = (struct provenance)PROVENANCE_INIT;
}
