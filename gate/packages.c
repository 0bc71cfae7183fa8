/* Which installed packages a scenario's shared libraries come from. The dependencies are read from
 * the ELF dynamic section (never by running the program or the loader); each library is resolved
 * as the loader would (RUNPATH, then the system directories) and its owner asked of dpkg once. */
#define _GNU_SOURCE
#include "packages.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "runner.h"

#define PACKAGES_ELF_LIMIT (512u << 20) /* a larger "executable" is not one we measure */
#define PACKAGES_TIMEOUT 30.0

static const char *const packages_system_dirs[] = {
	"/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu", "/lib/aarch64-linux-gnu",
	"/usr/lib/aarch64-linux-gnu", "/lib64", "/usr/lib64", "/lib", "/usr/lib",
};

/* A list of owned strings. */
struct packages_names {
	char **items;
	size_t count;
};

static void names_release(struct packages_names *names)
{
	size_t i;

	for (i = 0; i < names->count; i++)
		free(names->items[i]);
	free(names->items);
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

/* The file offset of virtual address `address`, through the PT_LOAD segment that maps it. */
static bool elf_offset(const Elf64_Phdr *headers, size_t count, uint64_t address, uint64_t *offset)
{
	size_t i;

	for (i = 0; i < count; i++) {
		if (headers[i].p_type == PT_LOAD && address >= headers[i].p_vaddr &&
		    address - headers[i].p_vaddr < headers[i].p_filesz) {
			*offset = address - headers[i].p_vaddr + headers[i].p_offset;
			return true;
		}
	}
	return false;
}

/* The dynamic section's entries, bounds-checked against the file. */
static const Elf64_Dyn *elf_dynamic(const unsigned char *data, size_t size, const Elf64_Phdr *headers,
				    size_t count, size_t *entries)
{
	size_t i;

	for (i = 0; i < count; i++) {
		if (headers[i].p_type != PT_DYNAMIC)
			continue;
		if (headers[i].p_offset > size || headers[i].p_filesz > size - headers[i].p_offset)
			return NULL;
		*entries = headers[i].p_filesz / sizeof(Elf64_Dyn);
		return (const Elf64_Dyn *)(const void *)(data + headers[i].p_offset);
	}
	*entries = 0;
	return NULL;
}

/* DT_NEEDED names into `needed` and the RUNPATH (or RPATH) into *runpath (owned, may be NULL). A
 * static executable has neither. */
static int elf_needed(const char *path, const unsigned char *data, size_t size,
		      struct packages_names *needed, char **runpath, struct gate_error *err)
{
	const Elf64_Ehdr *header = (const Elf64_Ehdr *)(const void *)data;
	const Elf64_Phdr *headers;
	const Elf64_Dyn *dynamic;
	uint64_t strtab = 0, strsz = 0, table_offset, run = UINT64_MAX;
	size_t count, i;

	if (size < sizeof(*header) || memcmp(header->e_ident, ELFMAG, SELFMAG) != 0 ||
	    header->e_ident[EI_CLASS] != ELFCLASS64 || header->e_phentsize != sizeof(Elf64_Phdr) ||
	    header->e_phoff > size || (size - header->e_phoff) / sizeof(Elf64_Phdr) < header->e_phnum)
		return gate_error_set(err, "cannot read '%s': not a 64-bit ELF file", path);
	headers = (const Elf64_Phdr *)(const void *)(data + header->e_phoff);
	dynamic = elf_dynamic(data, size, headers, header->e_phnum, &count);
	if (dynamic == NULL)
		return 0;
	for (i = 0; i < count && dynamic[i].d_tag != DT_NULL; i++) {
		if (dynamic[i].d_tag == DT_STRTAB)
			strtab = dynamic[i].d_un.d_ptr;
		else if (dynamic[i].d_tag == DT_STRSZ)
			strsz = dynamic[i].d_un.d_val;
		else if (dynamic[i].d_tag == DT_RUNPATH || (dynamic[i].d_tag == DT_RPATH && run == UINT64_MAX))
			run = dynamic[i].d_un.d_val;
	}
	if (!elf_offset(headers, header->e_phnum, strtab, &table_offset) || table_offset > size ||
	    strsz > size - table_offset)
		return gate_error_set(err, "cannot read '%s': its dynamic string table is out of the file",
				      path);
	for (i = 0; i < count && dynamic[i].d_tag != DT_NULL; i++) {
		uint64_t at = dynamic[i].d_tag == DT_NEEDED ? dynamic[i].d_un.d_val : UINT64_MAX;

		if (at == UINT64_MAX)
			continue;
		if (at >= strsz || memchr(data + table_offset + at, '\0', strsz - at) == NULL)
			return gate_error_set(err, "cannot read '%s': a library name is out of its table", path);
		if (names_add(needed, (const char *)data + table_offset + at) != 0)
			return gate_error_set(err, "out of memory");
	}
	if (run != UINT64_MAX && run < strsz && memchr(data + table_offset + run, '\0', strsz - run) != NULL) {
		*runpath = strdup((const char *)data + table_offset + run);
		if (*runpath == NULL)
			return gate_error_set(err, "out of memory");
	}
	return 0;
}

/* The whole file at `path`, at most PACKAGES_ELF_LIMIT bytes. */
static int read_whole(const char *path, unsigned char **data, size_t *size, struct gate_error *err)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat info;
	size_t used = 0;

	*data = NULL;
	if (fd < 0 || fstat(fd, &info) != 0) {
		int saved = errno;

		if (fd >= 0)
			close(fd);
		return gate_error_set(err, "cannot read '%s': %s", path, strerror(saved));
	}
	if (!S_ISREG(info.st_mode) || info.st_size <= 0 || (uint64_t)info.st_size > PACKAGES_ELF_LIMIT) {
		close(fd);
		return gate_error_set(err, "cannot read '%s': not a regular file of a plausible size", path);
	}
	*data = malloc((size_t)info.st_size);
	while (*data != NULL && used < (size_t)info.st_size) {
		ssize_t got = read(fd, *data + used, (size_t)info.st_size - used);

		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			break;
		used += (size_t)got;
	}
	close(fd);
	if (*data == NULL || used != (size_t)info.st_size) {
		free(*data);
		*data = NULL;
		return gate_error_set(err, "cannot read '%s': short read", path);
	}
	*size = used;
	return 0;
}

static int read_needed(const char *path, struct packages_names *needed, char **runpath,
		       struct gate_error *err)
{
	unsigned char *data = NULL;
	size_t size = 0;
	int status;

	*runpath = NULL;
	if (read_whole(path, &data, &size, err) != 0)
		return -1;
	status = elf_needed(path, data, size, needed, runpath, err);
	free(data);
	return status;
}

/* `directory/name` when it is a regular file, else NULL. $ORIGIN is the loading file's directory. */
static char *try_directory(const char *directory, const char *name, const char *origin)
{
	char *candidate = NULL;
	struct stat info;

	if (strncmp(directory, "$ORIGIN", 7) == 0) {
		if (asprintf(&candidate, "%s%s/%s", origin, directory + 7, name) < 0)
			return NULL;
	} else if (asprintf(&candidate, "%s/%s", directory, name) < 0) {
		return NULL;
	}
	if (stat(candidate, &info) == 0 && S_ISREG(info.st_mode))
		return candidate;
	free(candidate);
	return NULL;
}

/* Where the loader finds `name` for a file in `origin` with `runpath`: the real path, owned. */
static char *resolve(const char *name, const char *runpath, const char *origin)
{
	char *found = NULL, *real;
	size_t i;

	if (strchr(name, '/') != NULL)
		return realpath(name, NULL);
	if (runpath != NULL) {
		char *copy = strdup(runpath), *cursor = copy, *directory;

		while (copy != NULL && found == NULL && (directory = strsep(&cursor, ":")) != NULL)
			if (directory[0] != '\0')
				found = try_directory(directory, name, origin);
		free(copy);
	}
	for (i = 0; found == NULL && i < sizeof(packages_system_dirs) / sizeof(packages_system_dirs[0]); i++)
		found = try_directory(packages_system_dirs[i], name, origin);
	if (found == NULL)
		return NULL;
	real = realpath(found, NULL);
	free(found);
	return real;
}

/* A directory without a leading /usr: merged-/usr systems list a file under either. */
static const char *without_usr(const char *directory)
{
	return strncmp(directory, "/usr/", 5) == 0 ? directory + 4 : directory;
}

static char *capture(char **argv, struct gate_error *err)
{
	static char path_variable[] = "PATH=/usr/bin:/bin";
	static char locale[] = "LC_ALL=C";
	char *environment[] = { path_variable, locale, NULL };
	char *output = NULL;

	if (runner_capture(argv, "/", environment, PACKAGES_TIMEOUT, &output, err) != 0)
		return NULL;
	return output;
}

/* The package that owns `library` per dpkg ("libc6:amd64"), owned; NULL when none does. dpkg may
 * list the file under the other side of a merged /usr, so the match is by name and directory. */
static char *dpkg_owner(const char *dpkg, const char *library)
{
	struct gate_error ignored = GATE_ERROR_INIT;
	char *copy = strdup(library), *pattern = NULL, *output = NULL, *owner = NULL, *line, *cursor;
	const char *directory;

	if (copy == NULL || asprintf(&pattern, "*/%s", basename(copy)) < 0)
		goto out;
	directory = without_usr(dirname(copy));
	{
		char *argv[] = { (char *)dpkg, "-S", pattern, NULL };

		output = capture(argv, &ignored);
	}
	for (cursor = output; cursor != NULL && owner == NULL && (line = strsep(&cursor, "\n")) != NULL;) {
		char *separator = strstr(line, ": /"), *path, *slash;

		if (separator == NULL || strncmp(line, "diversion by ", 13) == 0)
			continue;
		*separator = '\0';
		path = separator + 2;
		slash = strrchr(path, '/');
		if (slash == NULL)
			continue;
		*slash = '\0';
		if (strcmp(without_usr(path), directory) == 0)
			owner = strndup(line, strcspn(line, ","));
	}
out:
	free(copy);
	free(pattern);
	free(output);
	return owner;
}

/* "libc6 2.36-9+deb12u9" for `library`; "" when no package owns it; the file name without dpkg. */
static char *describe_library(const char *library, struct gate_error *err)
{
	char *dpkg = runner_find_program("dpkg-query", "/usr/bin:/bin");
	char *owner = NULL, *version = NULL, *text = NULL, *colon;

	if (dpkg == NULL) {
		char *copy = strdup(library);

		text = copy != NULL ? strdup(basename(copy)) : NULL;
		free(copy);
		goto out;
	}
	owner = dpkg_owner(dpkg, library);
	if (owner == NULL) {
		text = strdup("");
		goto out;
	}
	{
		char format[] = "-f=${Version}";
		char *argv[] = { dpkg, "-W", format, owner, NULL };

		version = capture(argv, err);
	}
	if (version == NULL) {
		gate_error_prefix(err, "cannot read the version of package '%s'", owner);
		goto out;
	}
	version[strcspn(version, "\n")] = '\0';
	colon = strchr(owner, ':');
	if (colon != NULL)
		*colon = '\0';
	if (asprintf(&text, "%s %s", owner, version) < 0)
		text = NULL;
out:
	if (text == NULL && err->message[0] == '\0')
		gate_error_set(err, "out of memory");
	free(dpkg);
	free(owner);
	free(version);
	return text;
}

/* The cached description of `library`, looked up the first time. */
static const char *cached_owner(struct packages_cache *cache, const char *library,
				struct gate_error *err)
{
	char **paths, **owners, *owner;
	size_t i;

	for (i = 0; i < cache->count; i++)
		if (strcmp(cache->paths[i], library) == 0)
			return cache->owners[i];
	owner = describe_library(library, err);
	if (owner == NULL)
		return NULL;
	paths = realloc(cache->paths, (cache->count + 1) * sizeof(*paths));
	if (paths != NULL)
		cache->paths = paths;
	owners = paths != NULL ? realloc(cache->owners, (cache->count + 1) * sizeof(*owners)) : NULL;
	if (owners != NULL)
		cache->owners = owners;
	if (paths == NULL || owners == NULL || (paths[cache->count] = strdup(library)) == NULL) {
		free(owner);
		gate_error_set(err, "out of memory");
		return NULL;
	}
	owners[cache->count] = owner;
	return cache->owners[cache->count++];
}

static int compare_text(const void *left, const void *right)
{
	return strcmp(*(char *const *)left, *(char *const *)right);
}

/* Every library `executable` loads, breadth first, each once, with the owners collected. */
static int walk(struct packages_cache *cache, const char *executable, struct packages_names *owners,
		struct gate_error *err)
{
	struct packages_names files = { 0 };
	size_t next = 0;
	int status = -1;
	char *first = realpath(executable, NULL);

	if (first == NULL) {
		int saved = errno;

		return gate_error_set(err, "cannot read '%s': %s", executable, strerror(saved));
	}
	if (names_add(&files, first) != 0) {
		free(first);
		return gate_error_set(err, "out of memory");
	}
	free(first);
	for (next = 0; next < files.count; next++) {
		struct packages_names needed = { 0 };
		char *runpath = NULL, *origin_copy = strdup(files.items[next]);
		const char *owner;
		size_t i;
		int failed = origin_copy == NULL ||
			     read_needed(files.items[next], &needed, &runpath, err) != 0;

		for (i = 0; !failed && i < needed.count; i++) {
			char *library = resolve(needed.items[i], runpath, dirname(origin_copy));

			if (library == NULL) {
				failed = 1;
				gate_error_set(err, "cannot find '%s', a library '%s' loads", needed.items[i],
					       files.items[next]);
			} else if (names_add(&files, library) != 0) {
				failed = 1;
				gate_error_set(err, "out of memory");
			}
			free(library);
		}
		names_release(&needed);
		free(runpath);
		free(origin_copy);
		if (failed)
			goto out;
		if (next == 0)
			continue;
		owner = cached_owner(cache, files.items[next], err);
		if (owner == NULL || (owner[0] != '\0' && names_add(owners, owner) != 0))
			goto out;
	}
	status = 0;
out:
	names_release(&files);
	return status;
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
		gate_error_set(err, "out of memory");
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
	char *library = resolve("libc.so.6", NULL, "/");
	const char *owner;

	*text = NULL;
	if (library == NULL)
		return gate_error_set(err, "cannot find the C library (libc.so.6) in the system directories");
	owner = cached_owner(cache, library, err);
	free(library);
	if (owner == NULL)
		return -1;
	*text = strdup(owner[0] != '\0' ? owner : "libc.so.6 (no package)");
	return *text != NULL ? 0 : gate_error_set(err, "out of memory");
}

void packages_cache_release(struct packages_cache *cache)
{
	size_t i;

	if (cache == NULL)
		return;
	for (i = 0; i < cache->count; i++) {
		free(cache->paths[i]);
		free(cache->owners[i]);
	}
	free(cache->paths);
	free(cache->owners);
	*cache = (struct packages_cache)PACKAGES_CACHE_INIT;
}
