/* Reading ELF files for program.h's checks, by hand with <elf.h>: every offset and size is
 * checked against the file before it is used, since the file is the pull request's. */
#define _GNU_SOURCE
#include "program.h"

#include "callgrind.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_OBJECTS 256 /* the executable and the libraries of its run path */
#define MAX_REPORTED 4  /* region definitions named in a message */

struct elf_file {
	const char *path;
	const unsigned char *bytes;
	size_t size;
	const Elf64_Ehdr *header;
	const Elf64_Shdr *sections; /* NULL when the file has none */
	size_t section_count;
};

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
	struct gate_error *err;
};

static bool in_file(const struct elf_file *elf, uint64_t offset, uint64_t size)
{
	return offset <= elf->size && size <= elf->size - offset;
}

static int open_elf(struct elf_file *elf, const char *path, struct gate_error *err)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat status;
	void *map;
	const Elf64_Ehdr *header;

	memset(elf, 0, sizeof(*elf));
	elf->path = path;
	if (fd < 0 || fstat(fd, &status) != 0) {
		int saved = errno;

		if (fd >= 0)
			close(fd);
		return gate_error_set(err, "cannot read '%s': %s", path, strerror(saved));
	}
	if (status.st_size < (off_t)sizeof(Elf64_Ehdr)) {
		close(fd);
		return gate_error_set(err, "'%s' is not a 64-bit little-endian ELF file", path);
	}
	map = mmap(NULL, (size_t)status.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (map == MAP_FAILED)
		return gate_error_set(err, "cannot read '%s': %s", path, strerror(errno));
	elf->bytes = map;
	elf->size = (size_t)status.st_size;
	header = map;
	elf->header = header;
	if (memcmp(header->e_ident, ELFMAG, SELFMAG) != 0 || header->e_ident[EI_CLASS] != ELFCLASS64 ||
	    header->e_ident[EI_DATA] != ELFDATA2LSB)
		return gate_error_set(err, "'%s' is not a 64-bit little-endian ELF file", path);
	if (header->e_shoff != 0 && header->e_shnum != 0) {
		if (header->e_shentsize != sizeof(Elf64_Shdr) ||
		    !in_file(elf, header->e_shoff, (uint64_t)header->e_shnum * sizeof(Elf64_Shdr)) ||
		    header->e_shoff % 8 != 0)
			return gate_error_set(err, "'%s': the section header table is out of the file", path);
		elf->sections = (const Elf64_Shdr *)(elf->bytes + header->e_shoff);
		elf->section_count = header->e_shnum;
	}
	if (header->e_phoff != 0 && header->e_phnum != 0 &&
	    (header->e_phentsize != sizeof(Elf64_Phdr) || header->e_phoff % 8 != 0 ||
	     !in_file(elf, header->e_phoff, (uint64_t)header->e_phnum * sizeof(Elf64_Phdr))))
		return gate_error_set(err, "'%s': the program header table is out of the file", path);
	return 0;
}

static void close_elf(struct elf_file *elf)
{
	if (elf->bytes != NULL)
		munmap((void *)elf->bytes, elf->size);
	elf->bytes = NULL;
}

/* A section's bytes, or NULL when it does not lie in the file. */
static const void *section_bytes(const struct elf_file *elf, const Elf64_Shdr *section)
{
	if (section->sh_type == SHT_NOBITS || !in_file(elf, section->sh_offset, section->sh_size))
		return NULL;
	return elf->bytes + section->sh_offset;
}

/* The NUL-terminated string at `index` of string table section `link`, or NULL. */
static const char *string_at(const struct elf_file *elf, uint32_t link, uint64_t index)
{
	const char *table;
	const Elf64_Shdr *section;

	if (link == 0 || link >= elf->section_count)
		return NULL;
	section = &elf->sections[link];
	table = section_bytes(elf, section);
	if (table == NULL || index >= section->sh_size ||
	    memchr(table + index, '\0', section->sh_size - index) == NULL)
		return NULL;
	return table + index;
}

/* The symbol table: .symtab, else .dynsym (a stripped file). */
static const Elf64_Shdr *symbol_table(const struct elf_file *elf)
{
	const Elf64_Shdr *dynamic = NULL;
	size_t i;

	for (i = 0; i < elf->section_count; i++) {
		if (elf->sections[i].sh_type == SHT_SYMTAB)
			return &elf->sections[i];
		if (elf->sections[i].sh_type == SHT_DYNSYM)
			dynamic = &elf->sections[i];
	}
	return dynamic;
}

/* Calls visit for every defined function or code label in the symbol table. */
static int each_function(const struct elf_file *elf,
			 int (*visit)(const Elf64_Sym *symbol, const char *name, void *context),
			 void *context)
{
	const Elf64_Shdr *table = symbol_table(elf);
	const Elf64_Sym *symbols;
	size_t i, count;

	if (table == NULL || table->sh_entsize != sizeof(Elf64_Sym))
		return 0;
	symbols = section_bytes(elf, table);
	if (symbols == NULL)
		return 0;
	count = table->sh_size / sizeof(Elf64_Sym);
	for (i = 1; i < count; i++) {
		unsigned type = ELF64_ST_TYPE(symbols[i].st_info);
		const char *name;
		int stop;

		if ((type != STT_FUNC && type != STT_GNU_IFUNC && type != STT_NOTYPE) ||
		    symbols[i].st_shndx == SHN_UNDEF)
			continue;
		name = string_at(elf, table->sh_link, symbols[i].st_name);
		if (name != NULL && (stop = visit(&symbols[i], name, context)) != 0)
			return stop;
	}
	return 0;
}

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

/* Calls visit for every defined symbol of every type but sections and files, in .symtab and in
 * .dynsym both: valgrind reads both, and a name in either may be the one it switches on. */
static void each_symbol(const struct elf_file *elf,
			int (*visit)(const Elf64_Sym *symbol, const char *name, void *context),
			void *context)
{
	size_t section, i;

	for (section = 0; section < elf->section_count; section++) {
		const Elf64_Shdr *table = &elf->sections[section];
		const Elf64_Sym *symbols;

		if ((table->sh_type != SHT_SYMTAB && table->sh_type != SHT_DYNSYM) ||
		    table->sh_entsize != sizeof(Elf64_Sym) || (symbols = section_bytes(elf, table)) == NULL)
			continue;
		for (i = 1; i < table->sh_size / sizeof(Elf64_Sym); i++) {
			unsigned type = ELF64_ST_TYPE(symbols[i].st_info);
			const char *name;

			if (type == STT_SECTION || type == STT_FILE || symbols[i].st_shndx == SHN_UNDEF)
				continue;
			name = string_at(elf, table->sh_link, symbols[i].st_name);
			if (name != NULL)
				visit(&symbols[i], name, context);
		}
	}
}

static int visit_region(const Elf64_Sym *symbol, const char *name, void *context)
{
	struct region_visit *visit = context;
	struct check *check = visit->check;
	size_t i;

	if (!names_region(name, check->region))
		return 0;
	/* One definition may be listed twice (a global and a local alias at one address). */
	for (i = 0; i < visit->seen_count; i++)
		if (visit->seen[i] == symbol->st_value)
			return 0;
	if (visit->seen_count < sizeof(visit->seen) / sizeof(visit->seen[0]))
		visit->seen[visit->seen_count++] = symbol->st_value;
	if (check->found_count < MAX_REPORTED) {
		check->found[check->found_count].address = symbol->st_value;
		check->found[check->found_count].path = visit->path;
	}
	check->found_count++;
	return 0;
}

/* The file offset's virtual address, through the loadable segments; 0 when none maps it. */
static uint64_t address_of(const struct elf_file *elf, uint64_t offset)
{
	const Elf64_Phdr *segments = (const Elf64_Phdr *)(elf->bytes + elf->header->e_phoff);
	size_t i;

	for (i = 0; elf->header->e_phoff != 0 && i < elf->header->e_phnum; i++)
		if (segments[i].p_type == PT_LOAD && offset >= segments[i].p_offset &&
		    offset - segments[i].p_offset < segments[i].p_filesz)
			return segments[i].p_vaddr + (offset - segments[i].p_offset);
	return 0;
}

struct enclosing {
	uint64_t address;
	const char *name;
};

static int visit_enclosing(const Elf64_Sym *symbol, const char *name, void *context)
{
	struct enclosing *enclosing = context;

	if (name[0] != '\0' && symbol->st_value <= enclosing->address &&
	    enclosing->address - symbol->st_value < (symbol->st_size ? symbol->st_size : 1)) {
		enclosing->name = name;
		return 1;
	}
	return 0;
}

/* The first client-request preamble in the file's executable segments (or, without program
 * headers, its executable sections), or NULL. Only code counts: a string holding these bytes,
 * as gate's own PROGRAM_AMD64_PREAMBLE does, is not a client request. */
static const unsigned char *find_preamble(const struct elf_file *elf)
{
	const Elf64_Phdr *segments = (const Elf64_Phdr *)(elf->bytes + elf->header->e_phoff);
	const unsigned char *hit;
	size_t i;

	for (i = 0; elf->header->e_phoff != 0 && i < elf->header->e_phnum; i++) {
		if (segments[i].p_type != PT_LOAD || (segments[i].p_flags & PF_X) == 0 ||
		    !in_file(elf, segments[i].p_offset, segments[i].p_filesz))
			continue;
		hit = memmem(elf->bytes + segments[i].p_offset, segments[i].p_filesz,
			     PROGRAM_AMD64_PREAMBLE, PROGRAM_AMD64_PREAMBLE_SIZE);
		if (hit != NULL)
			return hit;
	}
	for (i = 0; (elf->header->e_phoff == 0 || elf->header->e_phnum == 0) && i < elf->section_count; i++) {
		const unsigned char *bytes = section_bytes(elf, &elf->sections[i]);

		if (bytes == NULL || (elf->sections[i].sh_flags & SHF_EXECINSTR) == 0)
			continue;
		hit = memmem(bytes, elf->sections[i].sh_size, PROGRAM_AMD64_PREAMBLE,
			     PROGRAM_AMD64_PREAMBLE_SIZE);
		if (hit != NULL)
			return hit;
	}
	return NULL;
}

/* A client-request preamble in the file's code. */
static int check_preamble(const struct elf_file *elf, struct gate_error *err)
{
	const unsigned char *hit = find_preamble(elf);
	struct enclosing enclosing = { 0, NULL };
	uint64_t offset;

	if (hit == NULL)
		return 0;
	offset = (uint64_t)(hit - elf->bytes);
	enclosing.address = address_of(elf, offset);
	if (enclosing.address != 0)
		each_function(elf, visit_enclosing, &enclosing);
	if (enclosing.address == 0)
		return gate_error_set(err, "'%s' holds a valgrind client request (the preamble of "
				      "valgrind.h) at file offset 0x%" PRIx64 ": the program under test "
				      "may not talk to valgrind", elf->path, offset);
	return gate_error_set(err, "'%s' holds a valgrind client request (the preamble of valgrind.h) "
			      "at 0x%" PRIx64 "%s%s%s: the program under test may not talk to valgrind",
			      elf->path, enclosing.address, enclosing.name ? " in '" : "",
			      enclosing.name ? enclosing.name : "", enclosing.name ? "'" : "");
}

/* The dynamic section's DT_NEEDED names and its run path (DT_RUNPATH, else DT_RPATH). */
struct dynamic_info {
	const char *needed[MAX_OBJECTS];
	size_t needed_count;
	const char *run_path;
};

static void read_dynamic(const struct elf_file *elf, struct dynamic_info *info)
{
	const char *rpath = NULL;
	size_t i, j;

	memset(info, 0, sizeof(*info));
	for (i = 0; i < elf->section_count; i++) {
		const Elf64_Shdr *section = &elf->sections[i];
		const Elf64_Dyn *entries;

		if (section->sh_type != SHT_DYNAMIC || (entries = section_bytes(elf, section)) == NULL)
			continue;
		for (j = 0; j < section->sh_size / sizeof(Elf64_Dyn) && entries[j].d_tag != DT_NULL; j++) {
			const char *text = string_at(elf, section->sh_link, entries[j].d_un.d_val);

			if (text == NULL)
				continue;
			if (entries[j].d_tag == DT_NEEDED && info->needed_count < MAX_OBJECTS)
				info->needed[info->needed_count++] = text;
			else if (entries[j].d_tag == DT_RUNPATH)
				info->run_path = text;
			else if (entries[j].d_tag == DT_RPATH)
				rpath = text;
		}
	}
	if (info->run_path == NULL)
		info->run_path = rpath;
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

/* `library` in the run path of the object at `path` ($ORIGIN is its directory), owned; NULL
 * when the run path does not hold it (the loader then looks in the system's directories). */
static char *find_in_run_path(const char *run_path, const char *path, const char *library)
{
	char *origin = strdup(path), *slash, *candidate = NULL;
	const char *entry = run_path;

	if (origin == NULL || strchr(library, '/') != NULL) {
		free(origin);
		return NULL;
	}
	slash = strrchr(origin, '/');
	if (slash != NULL)
		*slash = '\0';
	else
		strcpy(origin, ".");
	while (entry != NULL && *entry != '\0') {
		size_t length = strcspn(entry, ":");
		char directory[PATH_MAX];

		if (length > 0 && length < sizeof(directory)) {
			snprintf(directory, sizeof(directory), "%.*s", (int)length, entry);
			if (strncmp(directory, "$ORIGIN", 7) == 0 || strncmp(directory, "${ORIGIN}", 9) == 0) {
				const char *rest = directory + (directory[1] == '{' ? 9 : 7);
				char expanded[PATH_MAX];

				snprintf(expanded, sizeof(expanded), "%s%s", origin, rest);
				snprintf(directory, sizeof(directory), "%s", expanded);
			}
			if (asprintf(&candidate, "%s/%s", directory, library) < 0)
				candidate = NULL;
			if (candidate != NULL && access(candidate, R_OK) == 0)
				break;
			free(candidate);
			candidate = NULL;
		}
		entry = entry[length] == ':' ? entry + length + 1 : NULL;
	}
	free(origin);
	return candidate;
}

static int check_object(struct check *check, const char *path);
static int visit_object(struct check *check, char *path);

/* A DT_NEEDED path with a slash, absolute or from the directory of `path` (the run's own, for
 * the executable), owned; NULL for a system object (not read, like the run path's) or when out
 * of memory. */
static char *needed_path(const char *path, const char *needed)
{
	char *candidate = NULL;
	const char *slash = strrchr(path, '/');

	if (needed[0] == '/')
		candidate = strdup(needed);
	else if (asprintf(&candidate, "%.*s/%s", slash ? (int)(slash - path) : 1,
			  slash ? path : ".", needed) < 0)
		candidate = NULL;
	if (candidate != NULL && cg_object_is_system(candidate)) {
		free(candidate);
		candidate = NULL;
	}
	return candidate;
}

/* Whether the file at `path` is a shared library dlopen could load: an ELF shared object with
 * no interpreter (glibc refuses to dlopen an executable, PIE or not). */
static bool is_library(const char *path)
{
	Elf64_Ehdr header;
	Elf64_Phdr segment;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	bool library = false;
	size_t i;

	if (fd < 0)
		return false;
	if (pread(fd, &header, sizeof(header), 0) == (ssize_t)sizeof(header) &&
	    memcmp(header.e_ident, ELFMAG, SELFMAG) == 0 && header.e_ident[EI_CLASS] == ELFCLASS64 &&
	    header.e_type == ET_DYN && header.e_phentsize == sizeof(Elf64_Phdr)) {
		library = true;
		for (i = 0; library && i < header.e_phnum; i++)
			library = pread(fd, &segment, sizeof(segment),
					(off_t)(header.e_phoff + i * sizeof(segment))) ==
					  (ssize_t)sizeof(segment) &&
				  segment.p_type != PT_INTERP;
	}
	close(fd);
	return library;
}

/* Every ELF file in the run path's directories that are not the system's. */
static int visit_run_path(struct check *check, const char *run_path, const char *path)
{
	char *copy = strdup(run_path), *entry, *save = NULL;
	int status = 0;

	if (copy == NULL)
		return gate_error_set(check->err, "out of memory");
	for (entry = strtok_r(copy, ":", &save); entry != NULL && status == 0;
	     entry = strtok_r(NULL, ":", &save)) {
		char *directory = expand_origin(entry, path);
		struct dirent **names = NULL;
		int count = directory != NULL && !cg_object_is_system(directory)
				    ? scandir(directory, &names, NULL, alphasort) : 0;
		int i;

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
		free(directory);
	}
	free(copy);
	return status;
}

/* Adds `path` to the objects to read unless it was read already; reads it. */
static int visit_object(struct check *check, char *path)
{
	char *real = realpath(path, NULL);
	int saved = errno;
	size_t i;

	if (real == NULL) {
		gate_error_set(check->err, "cannot read '%s': %s", path, strerror(saved));
		free(path);
		return -1;
	}
	free(path);
	for (i = 0; i < check->path_count; i++) {
		if (strcmp(check->paths[i], real) == 0) {
			free(real);
			return 0;
		}
	}
	if (check->path_count == MAX_OBJECTS) {
		free(real);
		return gate_error_set(check->err, "more than %d libraries in the run path of the "
				      "scenario", MAX_OBJECTS);
	}
	check->paths[check->path_count++] = real;
	return check_object(check, real);
}

/* The file named by the object's .gnu_debuglink where valgrind looks for it in the object's own
 * directory and its .debug subdirectory, owned; NULL when there is none (a system directory's
 * is not the project's). valgrind reads the symbol table of that file too. */
static char *debug_link(const struct elf_file *elf, const char *path)
{
	const Elf64_Shdr *names = elf->header->e_shstrndx < elf->section_count
					  ? &elf->sections[elf->header->e_shstrndx] : NULL;
	const char *slash = strrchr(path, '/');
	size_t i;

	for (i = 0; names != NULL && i < elf->section_count; i++) {
		const char *name = string_at(elf, elf->header->e_shstrndx, elf->sections[i].sh_name);
		const char *link = section_bytes(elf, &elf->sections[i]);
		char *candidate = NULL;
		int round;

		if (name == NULL || strcmp(name, ".gnu_debuglink") != 0 || link == NULL ||
		    memchr(link, '\0', elf->sections[i].sh_size) == NULL || strchr(link, '/') != NULL)
			continue;
		for (round = 0; round < 2; round++) {
			if (asprintf(&candidate, "%.*s%s%s", slash ? (int)(slash - path) : 1,
				     slash ? path : ".", round == 0 ? "/" : "/.debug/", link) < 0)
				return NULL;
			if (access(candidate, R_OK) == 0 && !cg_object_is_system(candidate))
				return candidate;
			free(candidate);
		}
	}
	return NULL;
}

/* Region definitions in the object's separate debug file, if it has one of the project's: with
 * the object's own `visit`, so that the one definition both list counts once. */
static int check_debug_file(struct region_visit *visit, const struct elf_file *elf,
			    const char *path)
{
	char *debug = debug_link(elf, path);
	struct elf_file file;
	int status;

	if (debug == NULL)
		return 0;
	status = open_elf(&file, debug, visit->check->err);
	if (status == 0)
		each_symbol(&file, visit_region, visit);
	close_elf(&file);
	free(debug);
	return status;
}

static int check_object(struct check *check, const char *path)
{
	struct elf_file elf;
	struct dynamic_info dynamic;
	struct region_visit visit = { .check = check, .path = path };
	size_t i;
	int status = -1;

	if (open_elf(&elf, path, check->err) != 0)
		goto out;
	if (!check->list_only) {
		each_symbol(&elf, visit_region, &visit);
		if (check_debug_file(&visit, &elf, path) != 0 || check_preamble(&elf, check->err) != 0)
			goto out;
	}
	read_dynamic(&elf, &dynamic);
	for (i = 0; i < dynamic.needed_count; i++) {
		char *library = NULL;

		/* A name with a slash is loaded from that path as it is (relative ones from the
		 * run's directory, the executable's). */
		if (strchr(dynamic.needed[i], '/') != NULL)
			library = needed_path(path, dynamic.needed[i]);
		else if (dynamic.run_path != NULL)
			library = find_in_run_path(dynamic.run_path, path, dynamic.needed[i]);
		if (library != NULL && visit_object(check, library) != 0)
			goto out;
	}
	/* dlopen("libx.so") searches the run path too: every object there may be loaded. */
	if (dynamic.run_path != NULL && visit_run_path(check, dynamic.run_path, path) != 0)
		goto out;
	status = 0;
out:
	close_elf(&elf);
	return status;
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

/* Checks the executable at `path` and then each of `extra` (NULL-terminated; may be NULL). */
static int check_all(const char *path, char *const *extra, const char *region,
		     struct gate_error *err)
{
	struct check check = { .region = region, .err = err };
	char *first = strdup(path), where[600];
	size_t i;
	int status = -1;

	if (first == NULL)
		return gate_error_set(err, "out of memory");
	if (visit_object(&check, first) != 0)
		goto out;
	for (i = 0; extra != NULL && extra[i] != NULL; i++) {
		char *copy = strdup(extra[i]);

		if (copy == NULL) {
			gate_error_set(err, "out of memory");
			goto out;
		}
		if (visit_object(&check, copy) != 0)
			goto out;
	}
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
	for (i = 0; i < check.path_count; i++)
		free(check.paths[i]);
	return status;
}

int program_check(const char *path, const char *region, struct gate_error *err)
{
	return check_all(path, NULL, region, err);
}

int program_objects(const char *path, char ***objects, size_t *count, struct gate_error *err)
{
	struct check check = { .region = "", .list_only = true, .err = err };
	char *first = strdup(path);
	size_t i;
	int status = -1;

	*objects = NULL;
	*count = 0;
	if (first == NULL)
		return gate_error_set(err, "out of memory");
	if (visit_object(&check, first) != 0)
		goto out;
	*objects = calloc(check.path_count + 1, sizeof(**objects));
	if (*objects == NULL) {
		gate_error_set(err, "out of memory");
		goto out;
	}
	for (i = 0; i < check.path_count; i++) {
		(*objects)[i] = check.paths[i];
		check.paths[i] = NULL;
	}
	*count = check.path_count;
	status = 0;
out:
	for (i = 0; i < check.path_count; i++)
		free(check.paths[i]);
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

		if (line[length - 1] == '\n')
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
	return status == 0 ? 0 : gate_error_set(err, "out of memory");
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
	for (i = 0; i < count; i++)
		free(objects[i]);
	free(objects);
	return status;
}
