/* Hashing the built programs and checking them again (seal.h). */
#define _GNU_SOURCE
#include "seal.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "callgrind.h"
#include "packages.h"
#include "program.h"

/* A program that is not an ELF file (a script: its interpreter is the system's) is sealed alone. */
static int seal_file_alone(struct seal *seal, const char *executable, struct gate_error *err)
{
	seal->files = calloc(1, sizeof(*seal->files));
	if (seal->files == NULL)
		return gate_error_oom(err);
	seal->files[0].path = realpath(executable, NULL);
	if (seal->files[0].path == NULL ||
	    sha256_file(seal->files[0].path, seal->files[0].sha256, err) != 0) {
		if (seal->files[0].path == NULL)
			gate_error_set(err, "cannot read '%s': %s", executable, strerror(errno));
		seal_release(seal);
		return gate_error_prefix(err, "cannot seal '%s'", executable);
	}
	seal->count = 1;
	return 0;
}

/* Adds what the program could dlopen from the project (every library of its run path, program.h)
 * and the loader does not map at start, so a --describe cannot swap one in either. */
static int add_loadable(struct seal *seal, const char *executable, struct gate_error *err)
{
	struct gate_error ignored = GATE_ERROR_INIT;
	char **paths = NULL;
	size_t count = 0, i, k;
	int status = 0;

	/* One that cannot be read fails where the program is checked, in its own words. */
	if (program_objects(executable, &paths, &count, &ignored) != 0)
		return 0;
	for (i = 0; i < count && status == 0; i++) {
		struct seal_file *grown;

		for (k = 0; k < seal->count && strcmp(seal->files[k].path, paths[i]) != 0; k++)
			;
		if (k < seal->count || cg_object_is_system(paths[i]))
			continue;
		grown = realloc(seal->files, (seal->count + 1) * sizeof(*grown));
		if (grown == NULL) {
			status = gate_error_oom(err);
			break;
		}
		seal->files = grown;
		if (sha256_file(paths[i], grown[seal->count].sha256, err) != 0) {
			status = -1;
			break;
		}
		grown[seal->count++].path = paths[i];
		paths[i] = NULL;
	}
	array_free_strings(paths, count);
	return status;
}

int seal_make(struct seal *seal, const char *executable, struct gate_error *err)
{
	struct packages_object *objects = NULL;
	size_t count = 0, i;
	int status = -1;

	*seal = (struct seal)SEAL_INIT;
	if (packages_objects(executable, &objects, &count, err) != 0)
		return seal_file_alone(seal, executable, err);
	seal->files = calloc(count + 1, sizeof(*seal->files));
	if (seal->files == NULL) {
		gate_error_oom(err);
		goto out;
	}
	for (i = 0; i < count; i++) {
		struct seal_file *file = &seal->files[seal->count];

		/* The executable is sealed wherever it is; a library only when it is the project's. */
		if (i > 0 && cg_object_is_system(objects[i].path))
			continue;
		if (sha256_file(objects[i].path, file->sha256, err) != 0)
			goto out;
		file->path = objects[i].path;
		objects[i].path = NULL;
		seal->count++;
	}
	status = add_loadable(seal, executable, err);
out:
	packages_objects_release(objects, count);
	if (status != 0)
		seal_release(seal);
	return status;
}

int seal_check(const struct seal *seal, const char *moment, struct gate_error *err)
{
	char now[SHA256_HEX_SIZE];
	size_t i;

	for (i = 0; i < seal->count; i++) {
		struct gate_error unreadable = GATE_ERROR_INIT;

		if (sha256_file(seal->files[i].path, now, &unreadable) != 0)
			return gate_error_set(err, "'%s' is gone or unreadable %s (%s): the program "
					      "measured must be the one built", seal->files[i].path,
					      moment, unreadable.message);
		if (strcmp(now, seal->files[i].sha256) != 0)
			return gate_error_set(err, "'%s' changed after it was built, %s (sha256 %.16s... "
					      "then %.16s...): the program measured must be the one "
					      "built", seal->files[i].path, moment,
					      seal->files[i].sha256, now);
	}
	return 0;
}

/* A directory others write in too, never made read-only for the runs: valgrind makes its own
 * temporary files in TMPDIR (or /tmp) as it starts. Files sealed there rest on their hashes. */
static bool is_shared_directory(const char *directory, size_t length)
{
	const char *temporary = getenv("TMPDIR");
	size_t temporary_length;

	if (length == 0 || (length == 4 && strncmp(directory, "/tmp", 4) == 0))
		return true;
	if (temporary == NULL || temporary[0] != '/')
		return false;
	temporary_length = strlen(temporary);
	while (temporary_length > 1 && temporary[temporary_length - 1] == '/')
		temporary_length--;
	return length == temporary_length && strncmp(directory, temporary, length) == 0;
}

int seal_directories(const struct seal *seal, char ***directories, size_t *count)
{
	size_t i, k;

	for (i = 0; i < seal->count; i++) {
		const char *slash = strrchr(seal->files[i].path, '/');
		size_t length = slash != NULL ? (size_t)(slash - seal->files[i].path) : 0;
		bool known = is_shared_directory(seal->files[i].path, length);
		char **grown;

		for (k = 0; !known && k < *count; k++)
			known = strlen((*directories)[k]) == length &&
				strncmp((*directories)[k], seal->files[i].path, length) == 0;
		if (known)
			continue;
		grown = realloc(*directories, (*count + 2) * sizeof(**directories));
		if (grown == NULL)
			return -1;
		*directories = grown;
		grown[*count] = strndup(seal->files[i].path, length);
		if (grown[*count] == NULL)
			return -1;
		grown[++*count] = NULL;
	}
	return 0;
}

cJSON *seal_to_json(const struct seal *seal, const char *build_dir)
{
	cJSON *files = cJSON_CreateArray();
	size_t length = build_dir != NULL ? strlen(build_dir) : 0, i;

	for (i = 0; files != NULL && i < seal->count; i++) {
		const char *path = seal->files[i].path;
		cJSON *file = cJSON_CreateObject();

		if (length > 0 && strncmp(path, build_dir, length) == 0 && path[length] == '/')
			path += length + 1;
		if (file == NULL || !cJSON_AddItemToArray(files, file) ||
		    cJSON_AddStringToObject(file, "path", path) == NULL ||
		    cJSON_AddStringToObject(file, "sha256", seal->files[i].sha256) == NULL) {
			cJSON_Delete(files);
			return NULL;
		}
	}
	return files;
}

int seal_compare(const cJSON *files, const char *name, const char *build_dir,
		 struct gate_error *err)
{
	const cJSON *file;
	char here[SHA256_HEX_SIZE];
	size_t compared = 0;

	if (!cJSON_IsArray(files))
		return gate_error_set(err, "scenario '%s': no sealed programs in the results", name);
	cJSON_ArrayForEach(file, files) {
		const cJSON *path = cJSON_GetObjectItemCaseSensitive(file, "path");
		const cJSON *sha256 = cJSON_GetObjectItemCaseSensitive(file, "sha256");
		char *local = NULL;
		int status;

		if (!cJSON_IsString(path) || !cJSON_IsString(sha256) ||
		    strlen(sha256->valuestring) != SHA256_HEX_SIZE - 1 || strstr(path->valuestring, ".."))
			return gate_error_set(err, "scenario '%s': a malformed sealed program in the "
					      "results", name);
		if (path->valuestring[0] == '/')
			continue; /* outside the build measured: nothing here to compare it with */
		if (asprintf(&local, "%s/%s", build_dir, path->valuestring) < 0)
			return gate_error_oom(err);
		status = sha256_file(local, here, err);
		if (status == 0 && strcmp(here, sha256->valuestring) != 0)
			status = gate_error_set(err, "scenario '%s': '%s' built here (sha256 %.16s...) is "
						"not the program measured (sha256 %.16s...): it was not "
						"built from these sources", name, local, here,
						sha256->valuestring);
		free(local);
		if (status != 0)
			return gate_error_prefix(err, "--check-build");
		compared++;
	}
	if (compared == 0)
		return gate_error_set(err, "--check-build: scenario '%s': no program of the results lies "
				      "in the build measured", name);
	return 0;
}

static void seal_file_release(struct seal_file *file)
{
	free(file->path);
}

void seal_release(struct seal *seal)
{
	if (seal == NULL)
		return;
	ARRAY_RELEASE(seal->files, seal->count, seal_file_release);
	*seal = (struct seal)SEAL_INIT;
}
