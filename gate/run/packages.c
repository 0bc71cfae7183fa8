/* Which installed packages a scenario's shared libraries come from. The dependencies are read from
 * the ELF dynamic section (never by running the program or the loader); each library is resolved
 * as the loader would (elf_object.h: run paths, ld.so.cache, the system's directories), its
 * owner read from dpkg's file lists and the owners' versions asked of dpkg once. */
#define _GNU_SOURCE
#include "packages.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "argv_list.h"
#include "array.h"
#include "elf_object.h"
#include "fs.h"
#include "runner.h"

#define PACKAGES_TIMEOUT 30.0

/* A list of owned strings. */
struct packages_names {
	char **items;
	size_t count;
};

static void names_release(struct packages_names *names)
{
	array_free_strings(names->items, names->count);
	names->items = NULL;
	names->count = 0;
}

static bool names_contain(const struct packages_names *names, const char *text)
{
	size_t i;

	for (i = 0; i < names->count; i++)
		if (strcmp(names->items[i], text) == 0)
			return true;
	return false;
}

/* Adds a copy of `text` unless it is there already. */
static int names_add(struct packages_names *names, const char *text)
{
	char **grown;

	if (names_contain(names, text))
		return 0;
	grown = realloc(names->items, (names->count + 1) * sizeof(*grown));
	if (grown == NULL)
		return -1;
	names->items = grown;
	grown[names->count] = strdup(text);
	if (grown[names->count] == NULL)
		return -1;
	names->count++;
	return 0;
}

/* The real path of `path` (owned, freed here), owned; NULL for NULL or a path that does not
 * resolve. */
static char *real_path(char *path)
{
	char *real = path != NULL ? realpath(path, NULL) : NULL;

	free(path);
	return real;
}

/* The C library the system's programs load (for objects of gate's own class and machine, through
 * the cache and the system's directories), its real path, owned; NULL when there is none. */
static char *system_libc(void)
{
	struct elf_search search = { elf_ldcache_system(), NULL, NULL, 0 };
	struct elf_dynamic none = ELF_DYNAMIC_INIT;
	struct gate_error ignored = GATE_ERROR_INIT;
	struct elf_object *self = NULL;
	char *libc;

	if (elf_object_open("/proc/self/exe", &self, &ignored) != 0)
		return NULL;
	libc = elf_library_find("libc.so.6", self, &none, &search);
	elf_object_close(self);
	return real_path(libc);
}

/* A directory without a leading /usr: merged-/usr systems list a file under either. */
static const char *without_usr(const char *directory)
{
	return strncmp(directory, "/usr/", 5) == 0 ? directory + 4 : directory;
}

static char *capture(char *const *argv, struct gate_error *err)
{
	static char path_variable[] = "PATH=/usr/bin:/bin";
	static char locale[] = "LC_ALL=C";
	char *environment[] = { path_variable, locale, NULL };
	char *output = NULL;

	if (runner_capture(argv, "/", environment, PACKAGES_TIMEOUT, &output, err) != 0)
		return NULL;
	return output;
}

/* Where dpkg records which package installed which file: "PACKAGE[:ARCH].list", a path a line.
 * The file's name without ".list" is the owner as `dpkg-query -S` names it ("libc6:amd64"). */
#define DPKG_INFO "/var/lib/dpkg/info"

/* A .list file's name, for scandir. */
static int is_file_list(const struct dirent *entry)
{
	size_t length = strlen(entry->d_name);

	return length > 5 && entry->d_name[0] != '.' &&
	       strcmp(entry->d_name + length - 5, ".list") == 0;
}

/* Sets owners[i] (owned) for each of `libraries` that `listing` (the file list of package
 * `owner`) holds, under either side of a merged /usr. Returns how many it set; -1 out of memory. */
static int list_holds(char *listing, const char *owner, char *const *libraries, size_t count,
		      char **owners)
{
	char *cursor = listing, *line;
	int found = 0;
	size_t i;

	while ((line = strsep(&cursor, "\n")) != NULL) {
		if (line[0] != '/')
			continue;
		for (i = 0; i < count; i++) {
			if (owners[i] != NULL || strcmp(without_usr(line), without_usr(libraries[i])) != 0)
				continue;
			if ((owners[i] = strdup(owner)) == NULL)
				return -1;
			found++;
		}
	}
	return found;
}

/* Which package owns each of `libraries`: owners[i] becomes "libc6:amd64" (owned) or stays NULL
 * when none does. The answer `dpkg-query -S` gives, read from the same file lists without it:
 * dpkg-query also loads its whole database and takes several times as long (0.2 s of CPU a
 * gate run here). Lists are read in name order, so a file two packages list goes to the first;
 * a database that cannot be read owns nothing, as when dpkg-query fails. */
static int dpkg_owners(char *const *libraries, size_t count, char **owners,
		       struct gate_error *err)
{
	struct dirent **entries = NULL;
	int listed = scandir(DPKG_INFO, &entries, is_file_list, alphasort), i, status = 0;
	size_t left = count;

	for (i = 0; i < listed; i++) {
		char path[PATH_MAX], *listing = NULL, *owner = entries[i]->d_name;
		size_t length;
		int found = 0;

		if (status == 0 && left > 0 &&
		    snprintf(path, sizeof(path), "%s/%s", DPKG_INFO, owner) < (int)sizeof(path) &&
		    fs_read_file(path, FS_READ_LIMIT, &listing, &length) == 0) {
			owner[strlen(owner) - 5] = '\0';
			found = list_holds(listing, owner, libraries, count, owners);
			if (found < 0)
				status = gate_error_oom(err);
			else
				left -= (size_t)found;
		}
		free(listing);
		free(entries[i]);
	}
	free(entries);
	return status;
}

/* The installed version of `owner` ("libc6:amd64" or "libc6") in dpkg's list of
 * "package:architecture version" lines; NULL when it is not there. */
static const char *listed_version(const char *listing, const char *owner, size_t *length)
{
	size_t owner_length = strlen(owner);
	const char *line = listing;

	while (line != NULL && *line != '\0') {
		const char *end = strchr(line, '\n'), *space = strchr(line, ' ');
		const char *colon = memchr(line, ':', space != NULL ? (size_t)(space - line) : 0);

		if (end == NULL)
			end = line + strlen(line);
		if (space != NULL && space < end &&
		    (((size_t)(space - line) == owner_length && memcmp(line, owner, owner_length) == 0) ||
		     (colon != NULL && strchr(owner, ':') == NULL &&
		      (size_t)(colon - line) == owner_length && memcmp(line, owner, owner_length) == 0))) {
			*length = (size_t)(end - space - 1);
			return space + 1;
		}
		line = *end == '\n' ? end + 1 : end;
	}
	return NULL;
}

/* "libc6 2.36-9+deb12u9" into texts[i] for each of `libraries` (owned); "" when no package owns
 * it; the file name without dpkg. One dpkg-query run in all, whatever the count. */
static int describe_libraries(char *const *libraries, size_t count, char **texts,
			      struct gate_error *err)
{
	char *dpkg = runner_find_program("dpkg-query", "/usr/bin:/bin");
	char **owners = calloc(count + 1, sizeof(*owners));
	struct argv_list argv = ARGV_LIST_INIT;
	char *listing = NULL;
	size_t i;
	int status = -1;

	if (owners == NULL) {
		gate_error_oom(err);
		goto out;
	}
	if (dpkg == NULL) {
		for (i = 0; i < count; i++) {
			const char *slash = strrchr(libraries[i], '/');

			texts[i] = strdup(slash != NULL ? slash + 1 : libraries[i]);
			if (texts[i] == NULL) {
				gate_error_oom(err);
				goto out;
			}
		}
		status = 0;
		goto out;
	}
	if (dpkg_owners(libraries, count, owners, err) != 0)
		goto out;
	argv_list_add_all(&argv, (const char *const[]){ dpkg, "-W",
							"-f=${Package}:${Architecture} ${Version}\n",
							NULL });
	for (i = 0; i < count; i++) {
		size_t k;

		for (k = 3; owners[i] != NULL && k < argv.count && strcmp(argv.items[k], owners[i]) != 0;
		     k++)
			;
		if (owners[i] != NULL && k == argv.count)
			argv_list_add(&argv, owners[i]);
	}
	if (argv_list_vector(&argv) == NULL) {
		gate_error_oom(err);
		goto out;
	}
	if (argv.count > 3 && (listing = capture(argv_list_vector(&argv), err)) == NULL) {
		gate_error_prefix(err, "cannot read the versions of packages '%s'...", argv.items[3]);
		goto out;
	}
	for (i = 0; i < count; i++) {
		const char *version;
		size_t length = 0;
		char *colon;

		if (owners[i] == NULL) {
			texts[i] = strdup("");
		} else if ((version = listed_version(listing, owners[i], &length)) == NULL) {
			gate_error_set(err, "cannot read the version of package '%s'", owners[i]);
			goto out;
		} else {
			colon = strchr(owners[i], ':');
			if (colon != NULL)
				*colon = '\0';
			if (asprintf(&texts[i], "%s %.*s", owners[i], (int)length, version) < 0)
				texts[i] = NULL;
		}
		if (texts[i] == NULL) {
			gate_error_oom(err);
			goto out;
		}
	}
	status = 0;
out:
	if (status != 0)
		for (i = 0; i < count; i++) {
			free(texts[i]);
			texts[i] = NULL;
		}
	array_free_strings(owners, count);
	argv_list_release(&argv);
	free(listing);
	free(dpkg);
	return status;
}

static const char *cache_find(const struct packages_cache *cache, const char *library)
{
	size_t i;

	for (i = 0; i < cache->count; i++)
		if (strcmp(cache->paths[i], library) == 0)
			return cache->owners[i];
	return NULL;
}

/* Looks up every one of `libraries` not in the cache yet, in one batch, and caches it. */
static int cache_libraries(struct packages_cache *cache, char *const *libraries, size_t count,
			   struct gate_error *err)
{
	char **missing = calloc(count + 1, sizeof(*missing));
	char **texts = calloc(count + 1, sizeof(*texts));
	size_t wanted = 0, i, k;
	int status = -1;

	if (missing == NULL || texts == NULL) {
		gate_error_oom(err);
		goto out;
	}
	for (i = 0; i < count; i++) {
		for (k = 0; k < wanted && strcmp(missing[k], libraries[i]) != 0; k++)
			;
		if (k == wanted && cache_find(cache, libraries[i]) == NULL)
			missing[wanted++] = libraries[i];
	}
	if (wanted == 0) {
		status = 0;
		goto out;
	}
	if (describe_libraries(missing, wanted, texts, err) != 0)
		goto out;
	{
		char **paths = realloc(cache->paths, (cache->count + wanted) * sizeof(*paths));
		char **owners;

		if (paths != NULL)
			cache->paths = paths;
		owners = paths != NULL ? realloc(cache->owners, (cache->count + wanted) * sizeof(*owners))
				       : NULL;
		if (owners == NULL) {
			gate_error_oom(err);
			goto out;
		}
		cache->owners = owners;
	}
	for (i = 0; i < wanted; i++) {
		char *path = strdup(missing[i]);

		if (path == NULL) {
			gate_error_oom(err);
			goto out;
		}
		cache->paths[cache->count] = path;
		cache->owners[cache->count++] = texts[i];
		texts[i] = NULL;
	}
	status = 0;
out:
	array_free_strings(texts, count);
	free(missing);
	return status;
}

/* The cached description of `library`, looked up the first time. */
static const char *cached_owner(struct packages_cache *cache, const char *library,
				struct gate_error *err)
{
	char *libraries[] = { (char *)library };

	if (cache_find(cache, library) == NULL && cache_libraries(cache, libraries, 1, err) != 0)
		return NULL;
	return cache_find(cache, library);
}

static int compare_text(const void *left, const void *right)
{
	return strcmp(*(char *const *)left, *(char *const *)right);
}

/* The libraries `object` (files->items[next]) names, resolved as the loader would, added to
 * `files`. The executable, first, sets the search's program directory and run path. */
static int collect_needed(struct packages_names *files, size_t next, struct elf_search *search,
			  char **program, struct elf_rpath *loader, struct gate_error *err)
{
	struct elf_object *object = NULL;
	struct elf_dynamic dynamic = ELF_DYNAMIC_INIT;
	size_t i;
	int status = -1;

	if (elf_object_open(files->items[next], &object, err) != 0 ||
	    elf_object_dynamic(object, &dynamic, err) != 0)
		goto out;
	if (next == 0) {
		const char *slash = strrchr(files->items[0], '/');

		program[0] = strndup(files->items[0], slash != NULL && slash != files->items[0]
							      ? (size_t)(slash - files->items[0]) : 1);
		program[1] = dynamic.runpath == NULL && dynamic.rpath != NULL ? strdup(dynamic.rpath) : NULL;
		if (program[0] == NULL || (dynamic.runpath == NULL && dynamic.rpath != NULL && program[1] == NULL)) {
			gate_error_oom(err);
			goto out;
		}
		search->program_directory = program[0];
		*loader = (struct elf_rpath){ program[1], program[0] };
		search->loaders = loader;
		search->loader_count = 1;
	}
	for (i = 0; i < dynamic.needed_count; i++) {
		char *library = real_path(elf_library_find(dynamic.needed[i], object, &dynamic, search));

		if (library == NULL) {
			gate_error_set(err, "cannot find '%s', a library '%s' loads", dynamic.needed[i],
				       files->items[next]);
			goto out;
		}
		if (names_add(files, library) != 0) {
			free(library);
			gate_error_oom(err);
			goto out;
		}
		free(library);
	}
	status = 0;
out:
	elf_dynamic_release(&dynamic);
	elf_object_close(object);
	return status;
}

/* `executable` (its real path) then every library it loads, breadth first, each once. */
static int collect(const char *executable, struct packages_names *files, struct gate_error *err)
{
	struct elf_search search = { elf_ldcache_system(), NULL, NULL, 0 };
	char *program[2] = { NULL, NULL }; /* the executable's directory and DT_RPATH */
	struct elf_rpath loader;           /* the executable, the one loader every library has
					    * here: breadth first, an object's own loader is not
					    * followed */
	char *first = realpath(executable, NULL);
	size_t next;
	int status = 0;

	if (first == NULL) {
		int saved = errno;

		return gate_error_set(err, "cannot read '%s': %s", executable, strerror(saved));
	}
	if (names_add(files, first) != 0) {
		free(first);
		return gate_error_oom(err);
	}
	free(first);
	for (next = 0; status == 0 && next < files->count; next++)
		status = collect_needed(files, next, &search, program, &loader, err);
	free(program[0]);
	free(program[1]);
	return status;
}

/* The owners of every library `executable` loads, collected into `owners`. */
static int walk(struct packages_cache *cache, const char *executable, struct packages_names *owners,
		struct gate_error *err)
{
	struct packages_names files = { 0 };
	size_t next;
	int status = -1;

	if (collect(executable, &files, err) != 0)
		goto out;
	/* One batch for the ones not cached yet (the executable itself, first, is not a library). */
	if (files.count > 1 && cache_libraries(cache, files.items + 1, files.count - 1, err) != 0)
		goto out;
	for (next = 1; next < files.count; next++) {
		const char *owner = cached_owner(cache, files.items[next], err);

		if (owner == NULL || (owner[0] != '\0' && names_add(owners, owner) != 0))
			goto out;
	}
	status = 0;
out:
	names_release(&files);
	return status;
}

int packages_objects(const char *executable, struct packages_object **objects, size_t *count,
		     struct gate_error *err)
{
	struct packages_names files = { 0 };
	size_t i;
	int status = -1;

	*objects = NULL;
	*count = 0;
	if (collect(executable, &files, err) != 0)
		goto out;
	{
		struct elf_object *program = NULL;
		char *interpreter = NULL, *loader = NULL;

		if (elf_object_open(files.items[0], &program, err) != 0)
			goto out;
		interpreter = elf_object_interpreter(program);
		elf_object_close(program);
		loader = interpreter != NULL ? realpath(interpreter, NULL) : NULL;
		free(interpreter);
		if (loader != NULL && names_add(&files, loader) != 0) {
			free(loader);
			gate_error_oom(err);
			goto out;
		}
		free(loader);
	}
	*objects = calloc(files.count, sizeof(**objects));
	if (*objects == NULL) {
		gate_error_oom(err);
		goto out;
	}
	for (i = 0; i < files.count; i++) {
		struct elf_object *file = NULL;
		struct packages_object *object = &(*objects)[(*count)++];

		object->path = files.items[i];
		files.items[i] = NULL;
		if (elf_object_open(object->path, &file, err) != 0)
			goto out;
		if (!elf_object_build_id(file, object->build_id, sizeof(object->build_id)))
			object->build_id[0] = '\0';
		elf_object_close(file);
	}
	status = 0;
out:
	if (status != 0) {
		packages_objects_release(*objects, *count);
		*objects = NULL;
		*count = 0;
	}
	array_free_strings(files.items, files.count);
	return status;
}

static void packages_object_release(struct packages_object *object)
{
	free(object->path);
}

void packages_objects_release(struct packages_object *objects, size_t count)
{
	ARRAY_RELEASE(objects, count, packages_object_release);
}

void packages_prefetch(struct packages_cache *cache, char *const *executables, size_t count)
{
	struct packages_names libraries = { 0 };
	struct gate_error ignored = GATE_ERROR_INIT;
	size_t i, k;

	for (i = 0; i < count; i++) {
		struct packages_names files = { 0 };

		if (collect(executables[i], &files, &ignored) == 0)
			for (k = 1; k < files.count; k++)
				if (names_add(&libraries, files.items[k]) != 0)
					break;
		names_release(&files);
	}
	{
		char *libc = system_libc();

		if (libc != NULL)
			(void)names_add(&libraries, libc); /* out of memory: looked up later, alone */
		free(libc);
	}
	if (libraries.count > 0)
		(void)cache_libraries(cache, libraries.items, libraries.count, &ignored);
	names_release(&libraries);
}

int packages_describe(struct packages_cache *cache, const char *executable, char **text,
		      struct gate_error *err)
{
	struct packages_names owners = { 0 };
	size_t length = 1, i;
	int status = -1;

	*text = NULL;
	if (walk(cache, executable, &owners, err) != 0)
		goto out;
	if (owners.count > 1)
		qsort(owners.items, owners.count, sizeof(*owners.items), compare_text);
	for (i = 0; i < owners.count; i++)
		length += strlen(owners.items[i]) + 2;
	*text = malloc(length);
	if (*text == NULL) {
		gate_error_oom(err);
		goto out;
	}
	(*text)[0] = '\0';
	for (i = 0; i < owners.count; i++) {
		if (i > 0)
			strcat(*text, ", ");
		strcat(*text, owners.items[i]);
	}
	status = 0;
out:
	names_release(&owners);
	return status;
}

int packages_libc(struct packages_cache *cache, char **text, struct gate_error *err)
{
	char *library = system_libc();
	const char *owner;

	*text = NULL;
	if (library == NULL)
		return gate_error_set(err, "cannot find the C library (libc.so.6) in the system directories");
	owner = cached_owner(cache, library, err);
	free(library);
	if (owner == NULL)
		return -1;
	*text = strdup(owner[0] != '\0' ? owner : "libc.so.6 (no package)");
	return *text != NULL ? 0 : gate_error_oom(err);
}

struct packages_cache *packages_shared_cache(void)
{
	static struct packages_cache shared = PACKAGES_CACHE_INIT;

	return &shared;
}

void packages_cache_release(struct packages_cache *cache)
{
	if (cache == NULL)
		return;
	array_free_strings(cache->paths, cache->count);
	array_free_strings(cache->owners, cache->count);
	*cache = (struct packages_cache)PACKAGES_CACHE_INIT;
}
