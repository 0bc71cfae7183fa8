/* The checks of program.h on ELF files read through elf_object.h (libelf: 32- and 64-bit, every
 * table bounded by the file). The libraries followed are the ones the loader maps, found the way
 * it finds them, through the dynamic segment the loader itself reads (a section header table
 * that says otherwise changes nothing). */
#define _GNU_SOURCE
#include "program.h"

#include "array.h"
#include "callgrind.h"
#include "elf_object.h"

#include <dirent.h>
#include <elf.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_OBJECTS 256 /* the executable and the libraries of its run path */
#define MAX_REPORTED 4  /* region definitions named in a message */

struct region_found {
	uint64_t address;
	const char *path; /* points into the check's path list */
};

struct check {
	const char *region;
	char *paths[MAX_OBJECTS]; /* objects read (owned), in the order they were found */
	size_t path_count;
	struct region_found found[MAX_REPORTED];
	size_t found_count;
	bool list_only;           /* program_objects: find the objects, check nothing */
	struct elf_search search; /* the executable's directory and the loaders' DT_RPATHs */
	char *program_directory;  /* owned; search's, set when the executable is read */
	struct elf_rpath loaders[MAX_OBJECTS]; /* search's: the objects being read, the executable
						* first, each one's DT_RPATH (NULL: it has
						* DT_RUNPATH) pointing into its dynamic section */
	char *origins[MAX_OBJECTS];            /* owned: each loader's directory */
	struct gate_error *err;
};

struct region_visit {
	struct check *check;
	const char *path;
	uint64_t seen[MAX_REPORTED * 4];
	size_t seen_count;
};

/* Whether valgrind would take `name` for the region: --toggle-collect is a pattern on the
 * function name, and the region is a C identifier (no wildcard), so the name itself, with or
 * without a symbol version after '@'. */
static bool names_region(const char *name, const char *region)
{
	size_t length = strlen(region);

	return strncmp(name, region, length) == 0 && (name[length] == '\0' || name[length] == '@');
}

/* Every defined symbol of .symtab and .dynsym both: valgrind reads both, and a name in either
 * may be the one it switches on. */
static int visit_region(const struct elf_symbol *symbol, void *context)
{
	struct region_visit *visit = context;
	struct check *check = visit->check;
	size_t i;

	if (!names_region(symbol->name, check->region))
		return 0;
	/* One definition may be listed twice (a global and a local alias at one address). */
	for (i = 0; i < visit->seen_count; i++)
		if (visit->seen[i] == symbol->value)
			return 0;
	if (visit->seen_count < sizeof(visit->seen) / sizeof(visit->seen[0]))
		visit->seen[visit->seen_count++] = symbol->value;
	if (check->found_count < MAX_REPORTED) {
		check->found[check->found_count].address = symbol->value;
		check->found[check->found_count].path = visit->path;
	}
	check->found_count++;
	return 0;
}

struct enclosing {
	uint64_t address;
	const char *name;
};

static int visit_enclosing(const struct elf_symbol *symbol, void *context)
{
	struct enclosing *enclosing = context;

	if ((symbol->type != STT_FUNC && symbol->type != STT_GNU_IFUNC && symbol->type != STT_NOTYPE) ||
	    symbol->name[0] == '\0')
		return 0;
	if (symbol->value <= enclosing->address &&
	    enclosing->address - symbol->value < (symbol->size ? symbol->size : 1)) {
		enclosing->name = symbol->name;
		return 1;
	}
	return 0;
}

/* The client-request preamble valgrind.h puts in code for the object's machine. */
struct preamble {
	const char *bytes;
	size_t size;
	uint64_t offset; /* where it was found */
};

static int visit_code(const unsigned char *bytes, size_t size, uint64_t offset, void *context)
{
	struct preamble *preamble = context;
	const unsigned char *hit = memmem(bytes, size, preamble->bytes, preamble->size);

	if (hit == NULL)
		return 0;
	preamble->offset = offset + (uint64_t)(hit - bytes);
	return 1;
}

/* A client-request preamble in the file's code. Only code counts: a string holding these bytes,
 * as gate's own PROGRAM_AMD64_PREAMBLE does, is not a client request. */
static int check_preamble(const struct elf_object *object, struct gate_error *err)
{
	struct preamble preamble = { PROGRAM_AMD64_PREAMBLE, PROGRAM_AMD64_PREAMBLE_SIZE, 0 };
	struct enclosing enclosing = { 0, NULL };
	const char *path = elf_object_path(object);

	if (elf_object_machine(object) == EM_386) {
		preamble.bytes = PROGRAM_X86_PREAMBLE;
		preamble.size = PROGRAM_X86_PREAMBLE_SIZE;
	}
	if (elf_object_each_code(object, visit_code, &preamble) == 0)
		return 0;
	if (!elf_object_address(object, preamble.offset, &enclosing.address) || enclosing.address == 0)
		return gate_error_set(err, "'%s' holds a valgrind client request (the preamble of "
				      "valgrind.h) at file offset 0x%" PRIx64 ": the program under test "
				      "may not talk to valgrind", path, preamble.offset);
	elf_object_each_symbol(object, ELF_SYMBOLS_SYMTAB_ELSE_DYN, visit_enclosing, &enclosing);
	return gate_error_set(err, "'%s' holds a valgrind client request (the preamble of valgrind.h) "
			      "at 0x%" PRIx64 "%s%s%s: the program under test may not talk to valgrind",
			      path, enclosing.address, enclosing.name ? " in '" : "",
			      enclosing.name ? enclosing.name : "", enclosing.name ? "'" : "");
}

/* One run path entry with $ORIGIN (or ${ORIGIN}) replaced by the directory of `path`, owned. */
static char *expand_origin(const char *entry, const char *path)
{
	const char *slash = strrchr(path, '/');
	const char *rest = NULL;
	char *expanded = NULL;

	if (strncmp(entry, "$ORIGIN", 7) == 0)
		rest = entry + 7;
	else if (strncmp(entry, "${ORIGIN}", 9) == 0)
		rest = entry + 9;
	if (rest == NULL)
		return strdup(entry);
	if (asprintf(&expanded, "%.*s%s", slash ? (int)(slash - path) : 1, slash ? path : ".",
		     rest) < 0)
		return NULL;
	return expanded;
}

static int check_object(struct check *check, const char *path, const char *found);
static int visit_object(struct check *check, char *path);

/* Whether the file at `path` is a shared library dlopen could load. */
static bool is_library(const char *path)
{
	struct elf_object *object = NULL;
	bool library = elf_object_open(path, &object, NULL) == 0 && elf_object_is_library(object);

	elf_object_close(object);
	return library;
}

/* Every ELF file in `directory` itself. */
static int visit_directory(struct check *check, const char *directory)
{
	struct dirent **names = NULL;
	int count = scandir(directory, &names, NULL, alphasort), i, status = 0;

	for (i = 0; i < count; i++) {
		char *file = NULL;
		struct stat info;

		if (status == 0 && asprintf(&file, "%s/%s", directory, names[i]->d_name) >= 0 &&
		    stat(file, &info) == 0 && S_ISREG(info.st_mode) && is_library(file)) {
			status = visit_object(check, file);
			file = NULL;
		}
		free(file);
		free(names[i]);
	}
	free(names);
	return status;
}

/* Every ELF file in the run path's directories that are not the system's, and in the CPU
 * subdirectories the loader tries first in each (glibc-hwcaps/x86-64-v3, tls, ...): whichever
 * this CPU would take, every one is read. */
static int visit_run_path(struct check *check, const char *run_path, const char *path,
			  const struct elf_object *object)
{
	const char *const *subdirectories = elf_search_subdirectories(object);
	char *copy = strdup(run_path), *entry, *save = NULL;
	int status = 0;

	if (copy == NULL)
		return gate_error_oom(check->err);
	for (entry = strtok_r(copy, ":", &save); entry != NULL && status == 0;
	     entry = strtok_r(NULL, ":", &save)) {
		char *directory = expand_origin(entry, path), *subdirectory = NULL;
		size_t i;

		if (directory == NULL || cg_object_is_system(directory)) {
			free(directory);
			continue;
		}
		status = visit_directory(check, directory);
		for (i = 0; status == 0 && subdirectories[i] != NULL; i++) {
			if (asprintf(&subdirectory, "%s/%s", directory, subdirectories[i]) < 0)
				status = gate_error_oom(check->err);
			else
				status = visit_directory(check, subdirectory);
			free(subdirectory);
			subdirectory = NULL;
		}
		free(directory);
	}
	free(copy);
	return status;
}

/* Adds `path` (as the loader found it) to the objects to read unless its file was read already;
 * reads it. Objects are told apart by their real paths; a library's $ORIGIN is the directory of
 * the path it was found under, a symbolic link's own, as the loader takes it (the executable's
 * is its real directory, from /proc/self/exe). */
static int visit_object(struct check *check, char *path)
{
	char *real = realpath(path, NULL);
	int saved = errno, status;
	size_t i;

	if (real == NULL) {
		gate_error_set(check->err, "cannot read '%s': %s", path, strerror(saved));
		free(path);
		return -1;
	}
	for (i = 0; i < check->path_count; i++) {
		if (strcmp(check->paths[i], real) == 0) {
			free(real);
			free(path);
			return 0;
		}
	}
	if (check->path_count == MAX_OBJECTS) {
		free(real);
		free(path);
		return gate_error_set(check->err, "more than %d libraries in the run path of the "
				      "scenario", MAX_OBJECTS);
	}
	check->paths[check->path_count++] = real;
	status = check_object(check, real, check->path_count == 1 ? real : path);
	free(path);
	return status;
}

/* The file named by the object's .gnu_debuglink where valgrind looks for it in the object's own
 * directory and its .debug subdirectory, owned; NULL when there is none (a system directory's
 * is not the project's). valgrind reads the symbol table of that file too. */
static char *debug_link(const struct elf_object *object, const char *path)
{
	const char *link = elf_object_section_text(object, ".gnu_debuglink");
	const char *slash = strrchr(path, '/');
	char *candidate = NULL;
	int round;

	if (link == NULL || strchr(link, '/') != NULL)
		return NULL;
	for (round = 0; round < 2; round++) {
		if (asprintf(&candidate, "%.*s%s%s", slash ? (int)(slash - path) : 1,
			     slash ? path : ".", round == 0 ? "/" : "/.debug/", link) < 0)
			return NULL;
		if (access(candidate, R_OK) == 0 && !cg_object_is_system(candidate))
			return candidate;
		free(candidate);
	}
	return NULL;
}

/* Region definitions in the object's separate debug file, if it has one of the project's: with
 * the object's own `visit`, so that the one definition both list counts once. */
static int check_debug_file(struct region_visit *visit, const struct elf_object *object,
			    const char *path)
{
	char *debug = debug_link(object, path);
	struct elf_object *file = NULL;
	int status;

	if (debug == NULL)
		return 0;
	status = elf_object_open(debug, &file, visit->check->err);
	if (status == 0)
		elf_object_each_symbol(file, ELF_SYMBOLS_BOTH, visit_region, visit);
	elf_object_close(file);
	free(debug);
	return status;
}

/* The executable, read first: its directory for the search of its libraries. */
static int set_program(struct check *check, const char *path)
{
	const char *slash = strrchr(path, '/');

	check->program_directory = strndup(path, slash != NULL && slash != path ? (size_t)(slash - path) : 1);
	if (check->program_directory == NULL)
		return gate_error_oom(check->err);
	check->search.cache = elf_ldcache_system();
	check->search.program_directory = check->program_directory;
	check->search.loaders = check->loaders;
	return 0;
}

/* The libraries the object names that the loader would map from outside the system's
 * directories: found as it finds them, each read in turn, with the object on the stack of
 * loaders whose DT_RPATH they inherit. */
static int visit_needed(struct check *check, const struct elf_object *object, const char *path,
			const struct elf_dynamic *dynamic)
{
	size_t depth = check->search.loader_count, i;
	const char *slash = strrchr(path, '/');
	int status = 0;

	if (depth == MAX_OBJECTS)
		return gate_error_set(check->err, "libraries nested more than %d deep in the scenario",
				      MAX_OBJECTS);
	check->origins[depth] = strndup(path, slash != NULL && slash != path ? (size_t)(slash - path) : 1);
	if (check->origins[depth] == NULL)
		return gate_error_oom(check->err);
	check->loaders[depth] = (struct elf_rpath){ dynamic->runpath == NULL ? dynamic->rpath : NULL,
						    check->origins[depth] };
	for (i = 0; status == 0 && i < dynamic->needed_count; i++) {
		char *library = elf_library_find(dynamic->needed[i], object, dynamic, &check->search);

		if (library != NULL && cg_object_is_system(library)) {
			free(library);
			continue;
		}
		check->search.loader_count = depth + 1;
		if (library != NULL)
			status = visit_object(check, library);
		check->search.loader_count = depth;
	}
	free(check->origins[depth]);
	check->origins[depth] = NULL;
	return status;
}

/* Reads the object at `path` (its real path) that the loader found at `found`. */
static int check_object(struct check *check, const char *path, const char *found)
{
	struct elf_object *object = NULL;
	struct elf_dynamic dynamic = ELF_DYNAMIC_INIT;
	struct region_visit visit = { .check = check, .path = path };
	const char *run_path;
	int status = -1;

	if (elf_object_open(path, &object, check->err) != 0 ||
	    elf_object_dynamic(object, &dynamic, check->err) != 0)
		goto out;
	if (check->program_directory == NULL && set_program(check, path) != 0)
		goto out;
	if (!check->list_only) {
		elf_object_each_symbol(object, ELF_SYMBOLS_BOTH, visit_region, &visit);
		if (check_debug_file(&visit, object, path) != 0 || check_preamble(object, check->err) != 0)
			goto out;
	}
	if (visit_needed(check, object, found, &dynamic) != 0)
		goto out;
	/* dlopen("libx.so") searches the run path too: every object there may be loaded. */
	run_path = dynamic.runpath != NULL ? dynamic.runpath : dynamic.rpath;
	if (run_path != NULL && visit_run_path(check, run_path, found, object) != 0)
		goto out;
	status = 0;
out:
	elf_dynamic_release(&dynamic);
	elf_object_close(object);
	return status;
}

/* Frees what a check owns. */
static void check_release(struct check *check)
{
	size_t i;

	for (i = 0; i < check->path_count; i++)
		free(check->paths[i]);
	free(check->program_directory);
}

/* "0x1af0 in /a/b, 0x1b40 in /a/b" */
static void list_found(const struct check *check, char *text, size_t size)
{
	size_t used = 0, i;

	text[0] = '\0';
	for (i = 0; i < check->found_count && i < MAX_REPORTED && used < size; i++)
		used += (size_t)snprintf(text + used, size - used, "%s0x%" PRIx64 " in '%s'",
					 i ? ", " : "", check->found[i].address, check->found[i].path);
	if (check->found_count > MAX_REPORTED && used < size)
		snprintf(text + used, size - used, ", ...");
}

/* visit_object on a copy of `path`. */
static int visit_copy(struct check *check, const char *path)
{
	char *copy = strdup(path);

	return copy != NULL ? visit_object(check, copy) : gate_error_oom(check->err);
}

/* Checks the executable at `path` and then each of `extra` (NULL-terminated; may be NULL). */
static int check_all(const char *path, char *const *extra, const char *region,
		     struct gate_error *err)
{
	struct check check = { .region = region, .err = err };
	char where[600];
	size_t i;
	int status = -1;

	if (visit_copy(&check, path) != 0)
		goto out;
	for (i = 0; extra != NULL && extra[i] != NULL; i++)
		if (visit_copy(&check, extra[i]) != 0)
			goto out;
	if (check.found_count == 0) {
		gate_error_set(err, "'%s' has no function named '%s' (the measured region)",
			       check.paths[0], region);
		goto out;
	}
	if (check.found_count > 1) {
		list_found(&check, where, sizeof(where));
		gate_error_set(err, "%zu functions are named '%s' (%s): exactly one may be the measured "
			       "region, or callgrind counts the wrong code", check.found_count, region,
			       where);
		goto out;
	}
	status = 0;
out:
	check_release(&check);
	return status;
}

int program_check(const char *path, const char *region, struct gate_error *err)
{
	return check_all(path, NULL, region, err);
}

int program_objects(const char *path, char ***objects, size_t *count, struct gate_error *err)
{
	struct check check = { .region = "", .list_only = true, .err = err };
	size_t i;
	int status = -1;

	*objects = NULL;
	*count = 0;
	if (visit_copy(&check, path) != 0)
		goto out;
	*objects = calloc(check.path_count + 1, sizeof(**objects));
	if (*objects == NULL) {
		gate_error_oom(err);
		goto out;
	}
	for (i = 0; i < check.path_count; i++) {
		(*objects)[i] = check.paths[i];
		check.paths[i] = NULL;
	}
	*count = check.path_count;
	status = 0;
out:
	check_release(&check);
	return status;
}

/* Adds `object` (length bytes) to the list unless it is the system's or listed already. */
static int add_reported(char ***objects, size_t *count, const char *object, size_t length)
{
	char *name = strndup(object, length), **grown;
	size_t i;

	if (name == NULL)
		return -1;
	for (i = 0; i < *count; i++)
		if (strcmp((*objects)[i], name) == 0)
			break;
	if (i < *count || name[0] != '/' || cg_object_is_system(name)) {
		free(name);
		return 0;
	}
	grown = realloc(*objects, (*count + 2) * sizeof(*grown));
	if (grown == NULL) {
		free(name);
		return -1;
	}
	*objects = grown;
	grown[(*count)++] = name;
	grown[*count] = NULL;
	return 0;
}

/* The objects one output names: callgrind's "ob=(id) NAME" and "cob=(id) NAME" lines (a later
 * line gives the id alone), DHAT's frames "... (in NAME)". */
static int read_reported(const char *path, char ***objects, size_t *count, struct gate_error *err)
{
	FILE *file = fopen(path, "r");
	char *line = NULL;
	size_t capacity = 0;
	ssize_t length;
	int status = 0;

	if (file == NULL)
		return gate_error_set(err, "cannot read '%s': %s", path, strerror(errno));
	while (status == 0 && (length = getline(&line, &capacity, file)) > 0) {
		const char *name = NULL, *at;

		/* A last line without its newline is cut (a truncated file): not a name, and the
		 * file's own reader says what is wrong with it. */
		if (line[length - 1] != '\n')
			break;
		line[--length] = '\0';
		if (strncmp(line, "ob=", 3) == 0 || strncmp(line, "cob=", 4) == 0) {
			name = strchr(line, '=') + 1;
			if (name[0] == '(')
				name = strstr(name, ") ") ? strstr(name, ") ") + 2 : NULL;
			if (name != NULL && add_reported(objects, count, name, strlen(name)) != 0)
				status = -1;
			continue;
		}
		for (at = strstr(line, "(in /"); at != NULL && status == 0; at = strstr(at + 4, "(in /")) {
			const char *end = strchr(at + 4, ')');

			if (end != NULL && add_reported(objects, count, at + 4, (size_t)(end - at - 4)) != 0)
				status = -1;
		}
	}
	free(line);
	fclose(file);
	return status == 0 ? 0 : gate_error_oom(err);
}

int program_check_reported(const char *path, const char *const *outputs, size_t output_count,
			   const char *region, struct gate_error *err)
{
	char **objects = NULL;
	size_t count = 0, i;
	int status = 0;

	for (i = 0; i < output_count && status == 0; i++)
		if (outputs[i] != NULL)
			status = read_reported(outputs[i], &objects, &count, err);
	if (status == 0 && count > 0)
		status = check_all(path, objects, region, err);
	array_free_strings(objects, count);
	return status;
}
