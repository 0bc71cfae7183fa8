/* Reads the build's scenario manifest. A plain line format, written by CMake's file(GENERATE). */
#define _GNU_SOURCE
#include "manifest.h"

#include <errno.h>
#include <fnmatch.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "suggest.h"
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
		return gate_error_oom(err);
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
		return gate_error_oom(err);
	}
	manifest->entries = grown;
	grown[manifest->entry_count].build = NULL;
	grown[manifest->entry_count].name = name;
	grown[manifest->entry_count].path = strdup(space + 1);
	if (grown[manifest->entry_count].path == NULL) {
		free(name);
		return gate_error_oom(err);
	}
	manifest->entry_count++;
	return 0;
}

/* The manifest is written by the project's build, which a pull request controls: its text reaches
 * results.json, the reports and the terminal, so each value is one printable line of bounded
 * length. */
#define MANIFEST_TEXT_MAX 1000
#define MANIFEST_BUILD_MAX 16384

static int check_text(const char *value, size_t max_characters, const char *key, const char *path,
		      size_t line, struct gate_error *err)
{
	const char *problem = text_line_problem(value, max_characters);

	if (problem == NULL)
		return 0;
	return gate_error_set(err, "cannot read manifest '%s': line %zu: '%s' %s", path, line, key,
			      problem);
}

static int set_text(char **field, const char *value, const char *key, const char *path,
		    size_t line, struct gate_error *err)
{
	if (*field != NULL)
		return gate_error_set(err, "cannot read manifest '%s': line %zu: '%s' given twice", path,
				      line, key);
	if (check_text(value, MANIFEST_TEXT_MAX, key, path, line, err) != 0)
		return -1;
	*field = strdup(value);
	return *field == NULL ? gate_error_oom(err) : 0;
}

/* Runs of blank space become one space; none at either end. */
static void collapse_spaces(char *text)
{
	char *out = text;
	const char *in;

	for (in = text; *in != '\0'; in++) {
		bool blank = *in == ' ' || *in == '\t' || *in == '\r';

		if (blank && (out == text || out[-1] == ' '))
			continue;
		*out++ = blank ? ' ' : *in;
	}
	if (out > text && out[-1] == ' ')
		out--;
	*out = '\0';
}

/* "build NAME TEXT" lines, kept until every scenario line has been read: the manifest is
 * line-oriented and its lines may come in any order. */
struct pending_build {
	char *name_and_text; /* the line after "build "; owned */
	size_t line;
};

struct manifest_reading {
	struct pending_build *builds;
	size_t build_count;
};

static int keep_build(struct manifest_reading *reading, const char *rest)
{
	struct pending_build *grown = realloc(reading->builds,
					      (reading->build_count + 1) * sizeof(*grown));

	if (grown == NULL)
		return -1;
	reading->builds = grown;
	grown[reading->build_count].name_and_text = strdup(rest);
	if (grown[reading->build_count].name_and_text == NULL)
		return -1;
	reading->build_count++;
	return 0;
}

/* Gives each pending build line to its scenario. */
static int attach_build(struct manifest *manifest, const struct pending_build *build,
			const char *path, struct gate_error *err)
{
	const char *rest = build->name_and_text;
	size_t name_length = strcspn(rest, " ");
	size_t i;

	for (i = 0; i < manifest->entry_count; i++) {
		struct manifest_entry *entry = &manifest->entries[i];

		if (strlen(entry->name) != name_length || strncmp(entry->name, rest, name_length) != 0)
			continue;
		if (entry->build != NULL)
			return gate_error_set(err, "cannot read manifest '%s': line %zu: 'build %s' given twice",
					      path, build->line, entry->name);
		entry->build = strdup(rest[name_length] == ' ' ? rest + name_length + 1 : "");
		if (entry->build == NULL)
			return gate_error_oom(err);
		collapse_spaces(entry->build);
		return check_text(entry->build, MANIFEST_BUILD_MAX, "build", path, build->line, err);
	}
	return gate_error_set(err, "cannot read manifest '%s': line %zu: 'build' names no scenario "
			      "the manifest lists", path, build->line);
}

static int parse_line(struct manifest *manifest, struct manifest_reading *reading, char *text,
		      const char *path, size_t line, struct gate_error *err)
{
	if (text[0] == '#' || text[0] == '\0')
		return 0;
	if (strncmp(text, "costgate ", 9) == 0)
		return set_text(&manifest->costgate, text + 9, "costgate", path, line, err);
	if (strncmp(text, "build-command ", 14) == 0) {
		if (manifest->build_command != NULL)
			return gate_error_set(err, "cannot read manifest '%s': line %zu: 'build-command' "
					      "given twice", path, line);
		if (check_text(text + 14, MANIFEST_BUILD_MAX, "build-command", path, line, err) != 0)
			return -1;
		manifest->build_command = strdup(text + 14);
		return manifest->build_command == NULL ? gate_error_oom(err) : 0;
	}
	if (strncmp(text, "build ", 6) == 0) {
		if (keep_build(reading, text + 6) != 0)
			return gate_error_oom(err);
		reading->builds[reading->build_count - 1].line = line;
		return 0;
	}
	if (strncmp(text, "compiler ", 9) == 0)
		return set_text(&manifest->compiler, text + 9, "compiler", path, line, err);
	if (strncmp(text, "flags ", 6) == 0)
		return set_text(&manifest->flags, text + 6, "flags", path, line, err);
	if (strncmp(text, "scenario ", 9) == 0)
		return add_entry(manifest, text + 9, path, line, err);
	return gate_error_set(err, "cannot read manifest '%s': line %zu: unknown line '%.40s'", path,
			      line, text);
}

static void pending_build_release(struct pending_build *build)
{
	free(build->name_and_text);
}

int manifest_read(struct manifest *manifest, const char *path, struct gate_error *err)
{
	FILE *file = fopen(path, "r");
	struct manifest_reading reading = { 0 };
	char *text = NULL;
	size_t capacity = 0, line = 0, i;
	ssize_t length;
	int status = -1;

	*manifest = (struct manifest)MANIFEST_INIT;
	if (file == NULL) {
		int saved = errno;

		return gate_error_set(err, "cannot read manifest '%s': %s (build the project first: its build writes it, with costgate_add_scenarios() or gate manifest)", path,
				      strerror(saved));
	}
	while ((length = getline(&text, &capacity, file)) >= 0) {
		line++;
		if (length > 0 && text[length - 1] == '\n')
			text[length - 1] = '\0';
		if (parse_line(manifest, &reading, text, path, line, err) != 0)
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
	for (i = 0; i < reading.build_count; i++)
		if (attach_build(manifest, &reading.builds[i], path, err) != 0)
			goto out;
	if (manifest->entry_count > 1)
		qsort(manifest->entries, manifest->entry_count, sizeof(*manifest->entries),
		      compare_entries);
	status = 0;
out:
	ARRAY_RELEASE(reading.builds, reading.build_count, pending_build_release);
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
	free(manifest->entries[index].build);
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

/* The built scenario nearest to a name that matched none, for "did you mean"; NULL for a glob. */
static const char *nearest_name(const struct manifest *manifest, const char *pattern)
{
	const char *names[256];
	size_t count = 0, i;

	if (strpbrk(pattern, "*?[") != NULL)
		return NULL;
	for (i = 0; i < manifest->entry_count && count < sizeof(names) / sizeof(names[0]); i++)
		names[count++] = manifest->entries[i].name;
	return suggest_nearest(pattern, names, count);
}

static int unknown_pattern(const struct manifest *manifest, const char *pattern,
			   struct gate_error *err)
{
	const char *nearest = nearest_name(manifest, pattern);
	char known[700] = "";
	size_t used = 0, i;

	for (i = 0; i < manifest->entry_count && used < sizeof(known) - 1; i++) {
		int written = snprintf(known + used, sizeof(known) - used, "%s%s", i ? ", " : "",
				       manifest->entries[i].name);

		if (written < 0)
			break;
		used += (size_t)written;
	}
	if (nearest != NULL)
		return gate_error_set(err, "unknown scenario '%s': did you mean '%s'? (known: %s)",
				      pattern, nearest, known);
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

static void manifest_entry_release(struct manifest_entry *entry)
{
	free(entry->name);
	free(entry->path);
	free(entry->build);
}

void manifest_release(struct manifest *manifest)
{
	if (manifest == NULL)
		return;
	ARRAY_RELEASE(manifest->entries, manifest->entry_count, manifest_entry_release);
	free(manifest->costgate);
	free(manifest->compiler);
	free(manifest->flags);
	free(manifest->build_command);
	*manifest = (struct manifest)MANIFEST_INIT;
}
