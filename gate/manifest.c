/* Reads the build's scenario manifest. A plain line format, written by CMake's file(GENERATE). */
#define _GNU_SOURCE
#include "manifest.h"

#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "text.h"

static int compare_entries(const void *left, const void *right)
{
	return strcmp(((const struct manifest_entry *)left)->name,
		      ((const struct manifest_entry *)right)->name);
}

static int add_entry(struct manifest *manifest, const char *rest, const char *path, size_t line,
		     struct gate_error *err)
{
	const char *space = strchr(rest, ' ');
	struct manifest_entry *grown;
	char *name;
	size_t i;

	if (space == NULL || space == rest || space[1] == '\0')
		return gate_error_set(err, "cannot read manifest '%s': line %zu: expected 'scenario NAME PATH'",
				      path, line);
	name = strndup(rest, (size_t)(space - rest));
	if (name == NULL)
		return gate_error_set(err, "out of memory");
	if (!text_is_name(name)) {
		char quoted[300];

		gate_error_set(err, "cannot read manifest '%s': line %zu: scenario name '%s' is not "
			       "[a-z0-9_]{1,64}", path, line, text_quote(quoted, sizeof(quoted), name));
		free(name);
		return -1;
	}
	for (i = 0; i < manifest->entry_count; i++) {
		if (strcmp(manifest->entries[i].name, name) == 0) {
			gate_error_set(err, "cannot read manifest '%s': line %zu: scenario '%s' listed twice",
				       path, line, name);
			free(name);
			return -1;
		}
	}
	grown = realloc(manifest->entries, (manifest->entry_count + 1) * sizeof(*grown));
	if (grown == NULL) {
		free(name);
		return gate_error_set(err, "out of memory");
	}
	manifest->entries = grown;
	grown[manifest->entry_count].name = name;
	grown[manifest->entry_count].path = strdup(space + 1);
	if (grown[manifest->entry_count].path == NULL) {
		free(name);
		return gate_error_set(err, "out of memory");
	}
	manifest->entry_count++;
	return 0;
}

static int set_text(char **field, const char *value, const char *key, const char *path,
		    size_t line, struct gate_error *err)
{
	if (*field != NULL)
		return gate_error_set(err, "cannot read manifest '%s': line %zu: '%s' given twice", path,
				      line, key);
	*field = strdup(value);
	return *field == NULL ? gate_error_set(err, "out of memory") : 0;
}

static int parse_line(struct manifest *manifest, char *text, const char *path, size_t line,
		      struct gate_error *err)
{
	if (text[0] == '#' || text[0] == '\0')
		return 0;
	if (strncmp(text, "compiler ", 9) == 0)
		return set_text(&manifest->compiler, text + 9, "compiler", path, line, err);
	if (strncmp(text, "flags ", 6) == 0)
		return set_text(&manifest->flags, text + 6, "flags", path, line, err);
	if (strncmp(text, "scenario ", 9) == 0)
		return add_entry(manifest, text + 9, path, line, err);
	return gate_error_set(err, "cannot read manifest '%s': line %zu: unknown line '%.40s'", path,
			      line, text);
}

int manifest_read(struct manifest *manifest, const char *path, struct gate_error *err)
{
	FILE *file = fopen(path, "r");
	char *text = NULL;
	size_t capacity = 0, line = 0;
	ssize_t length;
	int status = -1;

	*manifest = (struct manifest)MANIFEST_INIT;
	if (file == NULL) {
		int saved = errno;

		return gate_error_set(err, "cannot read manifest '%s': %s (build first: make)", path,
				      strerror(saved));
	}
	while ((length = getline(&text, &capacity, file)) >= 0) {
		line++;
		if (length > 0 && text[length - 1] == '\n')
			text[length - 1] = '\0';
		if (parse_line(manifest, text, path, line, err) != 0)
			goto out;
	}
	if (ferror(file)) {
		gate_error_set(err, "cannot read manifest '%s': read error", path);
		goto out;
	}
	if (manifest->compiler == NULL || manifest->flags == NULL) {
		gate_error_set(err, "cannot read manifest '%s': no 'compiler' or 'flags' line", path);
		goto out;
	}
	if (manifest->entry_count > 1)
		qsort(manifest->entries, manifest->entry_count, sizeof(*manifest->entries),
		      compare_entries);
	status = 0;
out:
	free(text);
	fclose(file);
	if (status != 0)
		manifest_release(manifest);
	return status;
}

static void remove_entry(struct manifest *manifest, size_t index)
{
	free(manifest->entries[index].name);
	free(manifest->entries[index].path);
	memmove(&manifest->entries[index], &manifest->entries[index + 1],
		(manifest->entry_count - index - 1) * sizeof(*manifest->entries));
	manifest->entry_count--;
}

static int matches_any(const char *name, char *const *patterns, size_t pattern_count)
{
	size_t i;

	for (i = 0; i < pattern_count; i++)
		if (fnmatch(patterns[i], name, 0) == 0)
			return 1;
	return 0;
}

static int unknown_pattern(const struct manifest *manifest, const char *pattern,
			   struct gate_error *err)
{
	char known[700] = "";
	size_t used = 0, i;

	for (i = 0; i < manifest->entry_count && used < sizeof(known) - 1; i++) {
		int written = snprintf(known + used, sizeof(known) - used, "%s%s", i ? ", " : "",
				       manifest->entries[i].name);

		if (written < 0)
			break;
		used += (size_t)written;
	}
	return gate_error_set(err, "unknown scenario '%s' (known: %s)", pattern, known);
}

int manifest_select(struct manifest *manifest, char *const *patterns, size_t pattern_count,
		    struct gate_error *err)
{
	size_t i, j;

	for (i = 0; i < pattern_count; i++) {
		int found = 0;

		for (j = 0; j < manifest->entry_count && !found; j++)
			found = fnmatch(patterns[i], manifest->entries[j].name, 0) == 0;
		if (!found)
			return unknown_pattern(manifest, patterns[i], err);
	}
	if (pattern_count == 0)
		return 0;
	for (i = manifest->entry_count; i-- > 0;)
		if (!matches_any(manifest->entries[i].name, patterns, pattern_count))
			remove_entry(manifest, i);
	return 0;
}

void manifest_shard(struct manifest *manifest, unsigned index, unsigned count)
{
	size_t i;

	if (count <= 1)
		return;
	for (i = manifest->entry_count; i-- > 0;)
		if (i % count != index - 1)
			remove_entry(manifest, i);
}

void manifest_release(struct manifest *manifest)
{
	size_t i;

	if (manifest == NULL)
		return;
	for (i = 0; i < manifest->entry_count; i++) {
		free(manifest->entries[i].name);
		free(manifest->entries[i].path);
	}
	free(manifest->entries);
	free(manifest->compiler);
	free(manifest->flags);
	*manifest = (struct manifest)MANIFEST_INIT;
}
