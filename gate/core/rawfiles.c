/* The raw files of a scenario, named by the patterns gate writes them under (docs/using.md, "What
 * gate writes"): KIND.SCENARIO.SUFFIX, where a scenario's name has no dot, so the name between
 * the kind and the first dot after it is the scenario's. */
#define _GNU_SOURCE
#include "rawfiles.h"

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"

/* The kinds of file, by the prefix before the scenario's name. */
static const struct {
	const char *prefix;
	const char *tool; /* the valgrind tool of an .out or .log file, or NULL */
	bool log;
} kinds[] = {
	{ "callgrind.out.", "callgrind", false }, { "callgrind.log.", "callgrind", true },
	{ "cachesim.out.", "cachesim", false },   { "cachesim.log.", "cachesim", true },
	{ "dhat.out.", "DHAT", false },           { "dhat.log.", "DHAT", true },
	{ "describe.", NULL, false },             { "native.", NULL, false },
	{ "flame.", NULL, false },
};

/* What the file `suffix` (after "KIND.SCENARIO.") of kind `kind` holds, into a new string. */
static char *describe(size_t kind, const char *suffix, const struct measurement *measurement,
		      bool *per_message)
{
	const char *tool = kinds[kind].tool;
	uint64_t n = measurement->messages, from, to;
	char *what = NULL, end[32];
	int read = 0;

	*per_message = false;
	if (strcmp(kinds[kind].prefix, "flame.") == 0)
		return strdup("the call tree of one message against the baseline's (a flame graph, "
			      "SVG)");
	if (strcmp(kinds[kind].prefix, "describe.") == 0)
		return strdup(strcmp(suffix, "json") == 0 ? "what the scenario declares (--describe)"
							  : "the --describe run's output");
	if (strcmp(kinds[kind].prefix, "native.") == 0)
		return strdup("the second opinion's native run (docs/threat-model.md)");
	if (kinds[kind].log)
		return asprintf(&what, "the %s run's log: valgrind's and the scenario's output", tool) < 0
			       ? NULL : what;
	if (strcmp(suffix, "start") == 0)
		return asprintf(&what, "%s: the service's start", tool) < 0 ? NULL : what;
	if (strcmp(suffix, "outside-start") == 0)
		return asprintf(&what, "%s: the process before the service's start", tool) < 0
			       ? NULL : what;
	if (strncmp(suffix, "outside-", 8) == 0)
		return asprintf(&what, "%s: the process outside the region before the part %s",
				tool, suffix + 8) < 0 ? NULL : what;
	if (strstr(suffix, ".end") != NULL)
		return asprintf(&what, "%s: the process's end%s", tool,
				strstr(suffix, "-thread-") != NULL ? ", another thread's" : "") < 0
			       ? NULL : what;
	if (sscanf(suffix, "%" SCNu64 "-%" SCNu64 "%n", &from, &to, &read) == 2 &&
	    suffix[read] == '\0') {
		*per_message = from == n && to == 2 * n && strcmp(tool, "DHAT") != 0;
		if (*per_message)
			return asprintf(&what, "%s: one message x %" PRIu64 ", deliveries %" PRIu64
					" to %" PRIu64 " (callgrind_annotate, KCachegrind: its total / "
					"%" PRIu64 " is the instructions and the allocator's per message)",
					tool, n, n + 1, 2 * n, n) < 0 ? NULL : what;
		if (from == 0 && to == 1)
			return asprintf(&what, "%s: the first delivery", tool) < 0 ? NULL : what;
		return asprintf(&what, "%s: deliveries %" PRIu64 " to %" PRIu64, tool, from + 1,
				to) < 0 ? NULL : what;
	}
	if (sscanf(suffix, "%" SCNu64 "%31s", &to, end) == 1)
		return asprintf(&what, "%s: the counts up to %" PRIu64 " deliver%s%s", tool, to,
				to == 1 ? "y" : "ies",
				strcmp(tool, "DHAT") == 0 ? " (DHAT's viewer)" : "") < 0 ? NULL : what;
	return asprintf(&what, "%s output", tool) < 0 ? NULL : what;
}

/* The kind of `name` when it is a file of scenario `scenario`, or -1; *suffix after its name. */
static int kind_of(const char *name, const char *scenario, const char **suffix)
{
	size_t i, length = strlen(scenario);

	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		size_t prefix = strlen(kinds[i].prefix);

		if (strncmp(name, kinds[i].prefix, prefix) == 0 &&
		    strncmp(name + prefix, scenario, length) == 0 && name[prefix + length] == '.' &&
		    name[prefix + length + 1] != '\0') {
			*suffix = name + prefix + length + 1;
			return (int)i;
		}
	}
	return -1;
}

/* The per-message profile first, the rest by name. */
static int compare_files(const void *left, const void *right)
{
	const struct rawfile *a = left, *b = right;

	if (a->per_message != b->per_message)
		return a->per_message ? -1 : 1;
	return strcmp(a->name, b->name);
}

int rawfiles_list(struct rawfiles *files, const char *directory,
		  const struct measurement *measurement, struct gate_error *err)
{
	DIR *listing = opendir(directory);
	struct dirent *entry;
	size_t capacity = 0;
	int saved;

	*files = (struct rawfiles){ 0 };
	if (listing == NULL) {
		saved = errno;
		return gate_error_set(err, "cannot read the raw directory '%s': %s", directory,
				      strerror(saved));
	}
	while ((entry = readdir(listing)) != NULL) {
		const char *suffix;
		int kind = kind_of(entry->d_name, measurement->info.name, &suffix);
		struct rawfile *file;
		bool per_message;

		if (kind < 0)
			continue;
		if (ARRAY_GROW(files->files, capacity, files->count, 16) != 0)
			goto out_of_memory;
		file = &files->files[files->count];
		file->name = strdup(entry->d_name);
		file->what = describe((size_t)kind, suffix, measurement, &per_message);
		files->count++;
		if (file->name == NULL || file->what == NULL)
			goto out_of_memory;
		file->per_message = per_message && strncmp(file->name, "callgrind.", 10) == 0;
	}
	closedir(listing);
	if (files->count > 1)
		qsort(files->files, files->count, sizeof(*files->files), compare_files);
	return 0;
out_of_memory:
	closedir(listing);
	rawfiles_release(files);
	return gate_error_oom(err);
}

static void rawfile_release(struct rawfile *file)
{
	free(file->name);
	free(file->what);
}

void rawfiles_release(struct rawfiles *files)
{
	if (files == NULL)
		return;
	ARRAY_RELEASE(files->files, files->count, rawfile_release);
	*files = (struct rawfiles){ 0 };
}
