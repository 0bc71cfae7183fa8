/* ELF files through libelf's class-independent gelf interface, and the loader's library search
 * (elf_object.h). Nothing here trusts the file: libelf bounds every table, and every string
 * taken from one is checked to end inside it. */
#define _GNU_SOURCE
#include "elf_object.h"

#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "array.h"
#include "fs.h"

struct elf_object {
	char *path;
	char *bytes; /* the whole file; libelf reads it in place */
	size_t size;
	Elf *elf;
	GElf_Ehdr header;
	size_t segment_count;
};

/* Whether `count` entries of `type` at `offset` lie in the file (none at all do). A table out of
 * the file is refused rather than read as empty: what gate cannot read, it does not pass. */
static bool tables_in_file(const struct elf_object *object, Elf_Type type, uint64_t offset,
			   uint64_t count)
{
	size_t entry = gelf_fsize(object->elf, type, 1, EV_CURRENT);

	if (offset == 0 || count == 0)
		return true;
	return entry != 0 && offset <= object->size && count <= (object->size - offset) / entry;
}

int elf_object_open(const char *path, struct elf_object **object, struct gate_error *err)
{
	struct elf_object *opened = calloc(1, sizeof(*opened));
	size_t segments = 0;

	*object = NULL;
	if (opened == NULL || (opened->path = strdup(path)) == NULL) {
		free(opened);
		return gate_error_oom(err);
	}
	if (fs_read_file(path, ELF_OBJECT_LIMIT + 1, &opened->bytes, &opened->size) != 0) {
		int saved = errno;

		elf_object_close(opened);
		if (saved == EFBIG || saved == EISDIR || saved == EINVAL)
			return gate_error_set(err, "cannot read '%s': not a regular file of a plausible "
					      "size", path);
		return gate_error_set(err, "cannot read '%s': %s", path, strerror(saved));
	}
	if (elf_version(EV_CURRENT) == EV_NONE ||
	    (opened->elf = elf_memory(opened->bytes, opened->size)) == NULL ||
	    elf_kind(opened->elf) != ELF_K_ELF || gelf_getehdr(opened->elf, &opened->header) == NULL ||
	    elf_getphdrnum(opened->elf, &segments) != 0) {
		elf_object_close(opened);
		return gate_error_set(err, "'%s' is not an ELF file", path);
	}
	opened->segment_count = segments;
	if (!tables_in_file(opened, ELF_T_SHDR, opened->header.e_shoff, opened->header.e_shnum)) {
		elf_object_close(opened);
		return gate_error_set(err, "'%s': the section header table is out of the file", path);
	}
	if (!tables_in_file(opened, ELF_T_PHDR, opened->header.e_phoff, segments)) {
		elf_object_close(opened);
		return gate_error_set(err, "'%s': the program header table is out of the file", path);
	}
	*object = opened;
	return 0;
}

void elf_object_close(struct elf_object *object)
{
	if (object == NULL)
		return;
	if (object->elf != NULL)
		elf_end(object->elf);
	free(object->bytes);
	free(object->path);
	free(object);
}

const char *elf_object_path(const struct elf_object *object)
{
	return object->path;
}

unsigned elf_object_bits(const struct elf_object *object)
{
	return object->header.e_ident[EI_CLASS] == ELFCLASS32 ? 32 : 64;
}

unsigned elf_object_machine(const struct elf_object *object)
{
	return object->header.e_machine;
}

/* The segment's bytes when they lie in the file, else NULL. */
static const char *segment_bytes(const struct elf_object *object, const GElf_Phdr *segment)
{
	if (segment->p_offset > object->size || segment->p_filesz > object->size - segment->p_offset)
		return NULL;
	return object->bytes + segment->p_offset;
}

/* The first segment of `type`, true when there is one and it lies in the file. */
static bool find_segment(const struct elf_object *object, uint32_t type, GElf_Phdr *segment)
{
	size_t i;

	for (i = 0; i < object->segment_count; i++)
		if (gelf_getphdr(object->elf, (int)i, segment) != NULL && segment->p_type == type)
			return segment_bytes(object, segment) != NULL;
	return false;
}

static size_t count_segments(const struct elf_object *object, uint32_t type)
{
	GElf_Phdr segment;
	size_t i, count = 0;

	for (i = 0; i < object->segment_count; i++)
		if (gelf_getphdr(object->elf, (int)i, &segment) != NULL && segment.p_type == type)
			count++;
	return count;
}

bool elf_object_is_library(const struct elf_object *object)
{
	GElf_Phdr segment;
	size_t i;

	if (object->header.e_type != ET_DYN)
		return false;
	for (i = 0; i < object->segment_count; i++)
		if (gelf_getphdr(object->elf, (int)i, &segment) != NULL && segment.p_type == PT_INTERP)
			return false;
	return true;
}

char *elf_object_interpreter(const struct elf_object *object)
{
	GElf_Phdr segment;
	const char *text;

	if (!find_segment(object, PT_INTERP, &segment) || segment.p_filesz == 0)
		return NULL;
	text = segment_bytes(object, &segment);
	if (memchr(text, '\0', segment.p_filesz) == NULL)
		return NULL;
	return strdup(text);
}

/* The file offset of virtual address `address`, through the PT_LOAD segment that maps it. */
static bool file_offset(const struct elf_object *object, uint64_t address, uint64_t *offset)
{
	GElf_Phdr segment;
	size_t i;

	for (i = 0; i < object->segment_count; i++) {
		if (gelf_getphdr(object->elf, (int)i, &segment) != NULL && segment.p_type == PT_LOAD &&
		    address >= segment.p_vaddr && address - segment.p_vaddr < segment.p_filesz) {
			*offset = address - segment.p_vaddr + segment.p_offset;
			return true;
		}
	}
	return false;
}

/* Adds a copy of `name` to the needed list unless it is there already. */
static int add_needed(struct elf_dynamic *dynamic, const char *name)
{
	char **grown;
	size_t i;

	for (i = 0; i < dynamic->needed_count; i++)
		if (strcmp(dynamic->needed[i], name) == 0)
			return 0;
	grown = realloc(dynamic->needed, (dynamic->needed_count + 1) * sizeof(*grown));
	if (grown == NULL)
		return -1;
	dynamic->needed = grown;
	if ((grown[dynamic->needed_count] = strdup(name)) == NULL)
		return -1;
	dynamic->needed_count++;
	return 0;
}

/* The NUL-terminated string at `offset` of a string table of `size` bytes, or NULL. The offset
 * is checked before it is added: the file's value may be any 64 bits. */
static const char *table_string(const char *table, uint64_t size, uint64_t offset)
{
	if (offset >= size || memchr(table + offset, '\0', size - offset) == NULL)
		return NULL;
	return table + offset;
}

int elf_object_dynamic(const struct elf_object *object, struct elf_dynamic *dynamic,
		       struct gate_error *err)
{
	GElf_Phdr segment;
	Elf_Data *entries;
	GElf_Dyn entry;
	uint64_t strtab = 0, strsz = 0, table = 0;
	size_t count, i;
	int status = -1;

	*dynamic = (struct elf_dynamic)ELF_DYNAMIC_INIT;
	if (!find_segment(object, PT_DYNAMIC, &segment))
		return 0;
	/* The loader reads the last PT_DYNAMIC at its address, gate reads it at its file offset: a
	 * file where those could differ is refused rather than read two ways. */
	if (count_segments(object, PT_DYNAMIC) != 1 || !file_offset(object, segment.p_vaddr, &table) ||
	    table != segment.p_offset)
		return gate_error_set(err, "cannot read '%s': its dynamic segment is not where its "
				      "address says", object->path);
	table = 0;
	entries = elf_getdata_rawchunk(object->elf, (int64_t)segment.p_offset, segment.p_filesz,
				       ELF_T_DYN);
	if (entries == NULL)
		return gate_error_set(err, "cannot read '%s': its dynamic section is out of the file",
				      object->path);
	count = segment.p_filesz / gelf_fsize(object->elf, ELF_T_DYN, 1, EV_CURRENT);
	for (i = 0; i < count && gelf_getdyn(entries, (int)i, &entry) != NULL && entry.d_tag != DT_NULL; i++) {
		if (entry.d_tag == DT_STRTAB)
			strtab = entry.d_un.d_ptr;
		else if (entry.d_tag == DT_STRSZ)
			strsz = entry.d_un.d_val;
	}
	if (!file_offset(object, strtab, &table) || table > object->size || strsz > object->size - table)
		return gate_error_set(err, "cannot read '%s': its dynamic string table is out of the file",
				      object->path);
	for (i = 0; i < count && gelf_getdyn(entries, (int)i, &entry) != NULL && entry.d_tag != DT_NULL; i++) {
		const char *text;
		char **slot = NULL;

		if (entry.d_tag != DT_NEEDED && entry.d_tag != DT_RUNPATH && entry.d_tag != DT_RPATH)
			continue;
		text = table_string(object->bytes + table, strsz, entry.d_un.d_val);
		if (text == NULL) {
			gate_error_set(err, "cannot read '%s': a name of its dynamic section is out of its "
				       "string table", object->path);
			goto out;
		}
		if (entry.d_tag == DT_NEEDED) {
			if (add_needed(dynamic, text) != 0)
				goto oom;
			continue;
		}
		/* Of two entries the loader keeps the last. */
		slot = entry.d_tag == DT_RUNPATH ? &dynamic->runpath : &dynamic->rpath;
		free(*slot);
		if ((*slot = strdup(text)) == NULL)
			goto oom;
	}
	status = 0;
	goto out;
oom:
	gate_error_oom(err);
out:
	if (status != 0)
		elf_dynamic_release(dynamic);
	return status;
}

void elf_dynamic_release(struct elf_dynamic *dynamic)
{
	if (dynamic == NULL)
		return;
	array_free_strings(dynamic->needed, dynamic->needed_count);
	free(dynamic->runpath);
	free(dynamic->rpath);
	*dynamic = (struct elf_dynamic)ELF_DYNAMIC_INIT;
}

/* The build id among the notes of `data`, as hex into `hex`. */
static bool notes_build_id(Elf_Data *data, char *hex, size_t size)
{
	GElf_Nhdr note;
	size_t at = 0, name_at, desc_at, next;

	while (data != NULL && (next = gelf_getnote(data, at, &note, &name_at, &desc_at)) > 0) {
		const unsigned char *bytes = data->d_buf;

		if (note.n_type == NT_GNU_BUILD_ID && note.n_namesz == 4 &&
		    memcmp(bytes + name_at, "GNU", 4) == 0 && note.n_descsz > 0 &&
		    (size_t)note.n_descsz * 2 < size) {
			uint32_t k;

			for (k = 0; k < note.n_descsz; k++)
				snprintf(hex + 2 * k, 3, "%02x", bytes[desc_at + k]);
			return true;
		}
		at = next;
	}
	return false;
}

bool elf_object_build_id(const struct elf_object *object, char *hex, size_t size)
{
	GElf_Phdr segment;
	GElf_Shdr header;
	Elf_Scn *section = NULL;
	size_t i;

	for (i = 0; i < object->segment_count; i++) {
		if (gelf_getphdr(object->elf, (int)i, &segment) == NULL || segment.p_type != PT_NOTE ||
		    segment_bytes(object, &segment) == NULL)
			continue;
		if (notes_build_id(elf_getdata_rawchunk(object->elf, (int64_t)segment.p_offset,
							segment.p_filesz, ELF_T_NHDR),
				   hex, size))
			return true;
	}
	while ((section = elf_nextscn(object->elf, section)) != NULL)
		if (gelf_getshdr(section, &header) != NULL && header.sh_type == SHT_NOTE &&
		    notes_build_id(elf_getdata(section, NULL), hex, size))
			return true;
	return false;
}

/* Calls visit for the defined symbols of one symbol table section (the undefined ones with
 * `imports`). */
static int table_symbols(const struct elf_object *object, Elf_Scn *section, const GElf_Shdr *header,
			 bool imports, int (*visit)(const struct elf_symbol *symbol, void *context),
			 void *context)
{
	Elf_Data *data = elf_getdata(section, NULL);
	size_t entry = gelf_fsize(object->elf, ELF_T_SYM, 1, EV_CURRENT), count, i;
	int stop;

	if (data == NULL || entry == 0 || header->sh_type == SHT_NOBITS)
		return 0;
	count = data->d_size / entry;
	for (i = 1; i < count; i++) {
		GElf_Sym symbol;
		struct elf_symbol found;

		if (gelf_getsym(data, (int)i, &symbol) == NULL ||
		    (symbol.st_shndx == SHN_UNDEF) != imports ||
		    GELF_ST_TYPE(symbol.st_info) == STT_SECTION || GELF_ST_TYPE(symbol.st_info) == STT_FILE)
			continue;
		found.name = elf_strptr(object->elf, header->sh_link, symbol.st_name);
		if (found.name == NULL)
			continue;
		found.value = symbol.st_value;
		found.size = symbol.st_size;
		found.type = GELF_ST_TYPE(symbol.st_info);
		if ((stop = visit(&found, context)) != 0)
			return stop;
	}
	return 0;
}

int elf_object_each_symbol(const struct elf_object *object, enum elf_symbol_tables tables,
			   int (*visit)(const struct elf_symbol *symbol, void *context), void *context)
{
	Elf_Scn *section = NULL, *dynamic = NULL;
	GElf_Shdr header, dynamic_header;
	int stop;

	while ((section = elf_nextscn(object->elf, section)) != NULL) {
		if (gelf_getshdr(section, &header) == NULL ||
		    (header.sh_type != SHT_SYMTAB && header.sh_type != SHT_DYNSYM))
			continue;
		if (tables == ELF_SYMBOLS_SYMTAB_ELSE_DYN && header.sh_type == SHT_DYNSYM) {
			if (dynamic == NULL) {
				dynamic = section;
				dynamic_header = header;
			}
			continue;
		}
		if ((stop = table_symbols(object, section, &header, tables == ELF_SYMBOLS_IMPORTS,
					  visit, context)) != 0)
			return stop;
		if (tables == ELF_SYMBOLS_SYMTAB_ELSE_DYN)
			return 0;
	}
	if (dynamic != NULL)
		return table_symbols(object, dynamic, &dynamic_header, false, visit, context);
	return 0;
}

const unsigned char *elf_object_bytes(const struct elf_object *object, size_t *size)
{
	*size = object->size;
	return (const unsigned char *)object->bytes;
}

int elf_object_each_code(const struct elf_object *object,
			 int (*visit)(const unsigned char *bytes, size_t size, uint64_t offset,
				      void *context),
			 void *context)
{
	GElf_Phdr segment;
	GElf_Shdr header;
	Elf_Scn *section = NULL;
	size_t i;
	int stop;

	for (i = 0; i < object->segment_count; i++) {
		const char *bytes;

		if (gelf_getphdr(object->elf, (int)i, &segment) == NULL || segment.p_type != PT_LOAD ||
		    (segment.p_flags & PF_X) == 0 || (bytes = segment_bytes(object, &segment)) == NULL)
			continue;
		if ((stop = visit((const unsigned char *)bytes, segment.p_filesz, segment.p_offset,
				  context)) != 0)
			return stop;
	}
	while (object->segment_count == 0 && (section = elf_nextscn(object->elf, section)) != NULL) {
		if (gelf_getshdr(section, &header) == NULL || (header.sh_flags & SHF_EXECINSTR) == 0 ||
		    header.sh_type == SHT_NOBITS || header.sh_offset > object->size ||
		    header.sh_size > object->size - header.sh_offset)
			continue;
		if ((stop = visit((const unsigned char *)object->bytes + header.sh_offset, header.sh_size,
				  header.sh_offset, context)) != 0)
			return stop;
	}
	return 0;
}

bool elf_object_address(const struct elf_object *object, uint64_t offset, uint64_t *address)
{
	GElf_Phdr segment;
	size_t i;

	for (i = 0; i < object->segment_count; i++) {
		if (gelf_getphdr(object->elf, (int)i, &segment) != NULL && segment.p_type == PT_LOAD &&
		    offset >= segment.p_offset && offset - segment.p_offset < segment.p_filesz) {
			*address = segment.p_vaddr + (offset - segment.p_offset);
			return true;
		}
	}
	return false;
}

const char *elf_object_section_text(const struct elf_object *object, const char *name)
{
	Elf_Scn *section = NULL;
	GElf_Shdr header;
	size_t names;

	if (elf_getshdrstrndx(object->elf, &names) != 0)
		return NULL;
	while ((section = elf_nextscn(object->elf, section)) != NULL) {
		const char *title;

		if (gelf_getshdr(section, &header) == NULL || header.sh_type == SHT_NOBITS ||
		    (title = elf_strptr(object->elf, names, header.sh_name)) == NULL ||
		    strcmp(title, name) != 0 || header.sh_offset > object->size ||
		    header.sh_size > object->size - header.sh_offset ||
		    memchr(object->bytes + header.sh_offset, '\0', header.sh_size) == NULL)
			continue;
		return object->bytes + header.sh_offset;
	}
	return NULL;
}

/* ldconfig's cache: a header, then fixed-size entries whose key (the soname) and value (the
 * path) are offsets into the file. */
#define LDCACHE_MAGIC "glibc-ld.so.cache1.1"
#define LDCACHE_MAGIC_SIZE 20
#define LDCACHE_HEADER_SIZE 48
#define LDCACHE_ENTRY_SIZE 24
#define LDCACHE_ELF_LIBC6 0x0003  /* FLAG_ELF_LIBC6: the entry's type */
#define LDCACHE_X8664_LIB64 0x0300
#define LDCACHE_X8664_LIBX32 0x0800
#define LDCACHE_AARCH64_LIB64 0x0a00

int elf_ldcache_read(const char *path, struct elf_ldcache *cache, struct gate_error *err)
{
	*cache = (struct elf_ldcache)ELF_LDCACHE_INIT;
	if (fs_read_file(path, (size_t)64 << 20, &cache->bytes, &cache->size) != 0) {
		int saved = errno;

		if (saved == ENOENT)
			return 0;
		return gate_error_set(err, "cannot read the loader's cache '%s': %s", path,
				      strerror(saved));
	}
	if (cache->size < LDCACHE_HEADER_SIZE ||
	    memcmp(cache->bytes, LDCACHE_MAGIC, LDCACHE_MAGIC_SIZE) != 0) {
		elf_ldcache_release(cache);
		return gate_error_set(err, "cannot read the loader's cache '%s': not ldconfig's format "
				      "\"%s\"", path, LDCACHE_MAGIC);
	}
	return 0;
}

void elf_ldcache_release(struct elf_ldcache *cache)
{
	if (cache == NULL)
		return;
	free(cache->bytes);
	*cache = (struct elf_ldcache)ELF_LDCACHE_INIT;
}

const struct elf_ldcache *elf_ldcache_system(void)
{
	static struct elf_ldcache cache = ELF_LDCACHE_INIT;
	static bool read;

	if (!read) {
		read = true;
		(void)elf_ldcache_read("/etc/ld.so.cache", &cache, NULL);
	}
	return &cache;
}

static uint32_t read_u32(const char *bytes)
{
	uint32_t value;

	memcpy(&value, bytes, sizeof(value));
	return value;
}

/* Whether the loader of an object like `like` takes a cache entry with these flags: glibc's
 * _dl_cache_check_flags for the machines gate runs on, and the plain libc6 type elsewhere. */
static bool ldcache_flags_fit(uint32_t flags, const struct elf_object *like)
{
	unsigned machine = elf_object_machine(like), bits = elf_object_bits(like);

	if (machine == EM_X86_64)
		return flags == (LDCACHE_ELF_LIBC6 | (bits == 64 ? LDCACHE_X8664_LIB64 : LDCACHE_X8664_LIBX32));
	if (machine == EM_AARCH64 && bits == 64)
		return flags == (LDCACHE_ELF_LIBC6 | LDCACHE_AARCH64_LIB64);
	return flags == LDCACHE_ELF_LIBC6 || flags == 1;
}

/* The NUL-terminated string at `offset` of the cache, or NULL. */
static const char *ldcache_string(const struct elf_ldcache *cache, uint32_t offset)
{
	if (offset >= cache->size || memchr(cache->bytes + offset, '\0', cache->size - offset) == NULL)
		return NULL;
	return cache->bytes + offset;
}

char *elf_ldcache_find(const struct elf_ldcache *cache, const char *name,
		       const struct elf_object *like)
{
	uint32_t count, i;

	if (cache->bytes == NULL)
		return NULL;
	count = read_u32(cache->bytes + LDCACHE_MAGIC_SIZE);
	if (count > (cache->size - LDCACHE_HEADER_SIZE) / LDCACHE_ENTRY_SIZE)
		return NULL;
	for (i = 0; i < count; i++) {
		const char *entry = cache->bytes + LDCACHE_HEADER_SIZE + (size_t)i * LDCACHE_ENTRY_SIZE;
		const char *key = ldcache_string(cache, read_u32(entry + 4));
		const char *value = ldcache_string(cache, read_u32(entry + 8));
		uint64_t hwcap;

		memcpy(&hwcap, entry + 16, sizeof(hwcap));
		if (key != NULL && value != NULL && hwcap == 0 && strcmp(key, name) == 0 &&
		    ldcache_flags_fit(read_u32(entry), like))
			return strdup(value);
	}
	return NULL;
}

/* Whether the file at `path` is an ELF file of the class and machine of `like`: the loader
 * passes over one that is not (a 32-bit library in /usr/lib for a 64-bit program). */
static bool fits(const char *path, const struct elf_object *like)
{
	unsigned char ident[EI_NIDENT + 4];
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	struct stat info;
	bool fit = false;

	if (fd < 0)
		return false;
	if (fstat(fd, &info) == 0 && S_ISREG(info.st_mode) &&
	    pread(fd, ident, sizeof(ident), 0) == (ssize_t)sizeof(ident) &&
	    memcmp(ident, ELFMAG, SELFMAG) == 0) {
		unsigned machine = ident[EI_DATA] == ELFDATA2MSB
					   ? (unsigned)ident[EI_NIDENT + 2] << 8 | ident[EI_NIDENT + 3]
					   : (unsigned)ident[EI_NIDENT + 3] << 8 | ident[EI_NIDENT + 2];

		fit = (ident[EI_CLASS] == ELFCLASS32 ? 32u : 64u) == elf_object_bits(like) &&
		      machine == elf_object_machine(like);
	}
	close(fd);
	return fit;
}

const char *const *elf_search_subdirectories(const struct elf_object *like)
{
	static const char *const x86_64[] = {
		"glibc-hwcaps/x86-64-v4", "glibc-hwcaps/x86-64-v3", "glibc-hwcaps/x86-64-v2",
		"tls/x86_64/x86_64",      "tls/x86_64",             "tls",
		"x86_64/x86_64",          "x86_64",                 NULL,
	};
	static const char *const other[] = { "tls", NULL };

	return elf_object_machine(like) == EM_X86_64 && elf_object_bits(like) == 64 ? x86_64 : other;
}

/* `name` in one directory of a search path, its CPU subdirectories first; owned. */
static char *search_directory(const char *directory, const char *name,
			      const struct elf_object *like)
{
	const char *const *subdirectory = elf_search_subdirectories(like);
	char *candidate = NULL;

	for (;; subdirectory++) {
		if (asprintf(&candidate, "%s/%s%s%s", directory,
			     *subdirectory != NULL ? *subdirectory : "", *subdirectory != NULL ? "/" : "",
			     name) < 0)
			return NULL;
		if (fits(candidate, like))
			return candidate;
		free(candidate);
		if (*subdirectory == NULL)
			return NULL;
	}
}

/* `name` in the ':'-separated `directories` ($ORIGIN and ${ORIGIN} are `origin`), owned. */
static char *search_path(const char *directories, const char *name, const char *origin,
			 const struct elf_object *like)
{
	const char *entry = directories;

	while (entry != NULL && *entry != '\0') {
		size_t length = strcspn(entry, ":");
		char *directory = NULL, *found = NULL;

		if (length > 0) {
			const char *rest = NULL;

			if (length >= 7 && strncmp(entry, "$ORIGIN", 7) == 0)
				rest = entry + 7;
			else if (length >= 9 && strncmp(entry, "${ORIGIN}", 9) == 0)
				rest = entry + 9;
			if (rest != NULL ? asprintf(&directory, "%s%.*s", origin,
						    (int)(length - (size_t)(rest - entry)), rest) < 0
					 : (directory = strndup(entry, length)) == NULL)
				return NULL;
			found = search_directory(directory, name, like);
			free(directory);
			if (found != NULL)
				return found;
		}
		entry = entry[length] == ':' ? entry + length + 1 : NULL;
	}
	return NULL;
}

/* The system's own directories for objects like `like`: the multiarch pair of Debian and its
 * derivatives, then lib64 for 64-bit objects, then /lib and /usr/lib. */
static char *search_system(const char *name, const struct elf_object *like)
{
	const char *triplet = NULL;
	char directories[256];

	switch (elf_object_machine(like)) {
	case EM_X86_64:
		triplet = elf_object_bits(like) == 64 ? "x86_64-linux-gnu" : "x86_64-linux-gnux32";
		break;
	case EM_386:
		triplet = "i386-linux-gnu";
		break;
	case EM_AARCH64:
		triplet = "aarch64-linux-gnu";
		break;
	default:
		break;
	}
	snprintf(directories, sizeof(directories), "%s%s%s%s%s%s/lib:/usr/lib",
		 triplet ? "/lib/" : "", triplet ? triplet : "", triplet ? ":/usr/lib/" : "",
		 triplet ? triplet : "", triplet ? ":" : "",
		 elf_object_bits(like) == 64 ? "/lib64:/usr/lib64:" : "");
	return search_path(directories, name, "/", like);
}

/* The directory of `path`, owned: "." without a slash, "/" for a file at the root. */
static char *directory_of(const char *path)
{
	const char *slash = strrchr(path, '/');

	if (slash == NULL)
		return strdup(".");
	return strndup(path, slash == path ? 1 : (size_t)(slash - path));
}

char *elf_library_find(const char *name, const struct elf_object *needing,
		       const struct elf_dynamic *dynamic, const struct elf_search *search)
{
	char *origin = NULL, *found = NULL;

	if (strchr(name, '/') != NULL) {
		if (name[0] != '/' && search->program_directory != NULL) {
			if (asprintf(&found, "%s/%s", search->program_directory, name) < 0)
				return NULL;
		} else if ((found = strdup(name)) == NULL) {
			return NULL;
		}
		goto out;
	}
	if ((origin = directory_of(needing->path)) == NULL)
		return NULL;
	if (dynamic->runpath == NULL) {
		size_t i;

		if (dynamic->rpath != NULL)
			found = search_path(dynamic->rpath, name, origin, needing);
		for (i = search->loader_count; found == NULL && i > 0; i--)
			if (search->loaders[i - 1].rpath != NULL)
				found = search_path(search->loaders[i - 1].rpath, name,
						    search->loaders[i - 1].origin, needing);
	} else {
		found = search_path(dynamic->runpath, name, origin, needing);
	}
	if (found == NULL && search->cache != NULL &&
	    (found = elf_ldcache_find(search->cache, name, needing)) != NULL && !fits(found, needing)) {
		free(found);
		found = NULL;
	}
	if (found == NULL)
		found = search_system(name, needing);
out:
	free(origin);
	return found;
}
