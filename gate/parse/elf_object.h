/* One reader of ELF files for gate, on elfutils' libelf (gelf: 32- and 64-bit, either byte
 * order): what the loader will load for a program (its DT_NEEDED names, run path, interpreter),
 * its GNU build id, and where the loader finds a library (the run path, /etc/ld.so.cache, the
 * system's directories). The file is the pull request's: libelf checks every offset against
 * it, and the file is read into memory rather than mapped (a file truncated under a mapping
 * would kill gate with SIGBUS). */
#ifndef GATE_ELF_OBJECT_H
#define GATE_ELF_OBJECT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "error.h"

/* The most an object may hold: a larger "executable" is not one gate measures. */
#define ELF_OBJECT_LIMIT ((size_t)512 << 20)

struct elf_object; /* an ELF file read whole; opaque */

/* Reads the ELF file at `path`. Returns 0 with *object (elf_object_close frees it), or -1 with
 * err naming the file: "cannot read 'F': ..." or "'F' is not an ELF file". */
int elf_object_open(const char *path, struct elf_object **object, struct gate_error *err);
void elf_object_close(struct elf_object *object); /* NULL-safe */

const char *elf_object_path(const struct elf_object *object);
unsigned elf_object_bits(const struct elf_object *object);    /* 32 or 64 */
unsigned elf_object_machine(const struct elf_object *object); /* e_machine: EM_X86_64, EM_386... */

/* Whether dlopen could load it: a shared object (ET_DYN) with no interpreter (glibc refuses to
 * dlopen an executable, PIE or not). */
bool elf_object_is_library(const struct elf_object *object);

/* What the dynamic section names, every string owned. */
struct elf_dynamic {
	char **needed;       /* DT_NEEDED, in order, each once */
	size_t needed_count;
	char *runpath;       /* DT_RUNPATH, or NULL */
	char *rpath;         /* DT_RPATH, or NULL (the loader ignores it beside a DT_RUNPATH) */
};

#define ELF_DYNAMIC_INIT { NULL, 0, NULL, NULL }

/* The dynamic section (through PT_DYNAMIC, as the loader reads it; a section header table is
 * not needed). A static executable has none: 0 with everything empty. -1 with err when a name
 * lies outside its string table. */
int elf_object_dynamic(const struct elf_object *object, struct elf_dynamic *dynamic,
		       struct gate_error *err);
void elf_dynamic_release(struct elf_dynamic *dynamic); /* NULL-safe, leaves it empty */

/* The loader named by PT_INTERP as written (owned), or NULL for a static executable or a
 * library. */
char *elf_object_interpreter(const struct elf_object *object);

/* The GNU build id (NT_GNU_BUILD_ID in a PT_NOTE segment, else in a SHT_NOTE section) as
 * lowercase hex into `hex` of `size` bytes. False when there is none or it does not fit. */
bool elf_object_build_id(const struct elf_object *object, char *hex, size_t size);

/* A defined symbol of a symbol table: not undefined, not a section's or a file's. */
struct elf_symbol {
	const char *name;  /* in the file's string table, valid while the object is open */
	uint64_t value;    /* its address */
	uint64_t size;
	unsigned type;     /* STT_FUNC, STT_GNU_IFUNC, STT_NOTYPE, STT_OBJECT... */
};

enum elf_symbol_tables {
	ELF_SYMBOLS_BOTH,            /* .symtab and .dynsym: valgrind reads both */
	ELF_SYMBOLS_SYMTAB_ELSE_DYN, /* .symtab, or .dynsym in a stripped file */
	ELF_SYMBOLS_IMPORTS          /* the undefined ones of both: what the object takes from
				      * others (its value and size 0, its name maybe "name@VERSION") */
};

/* Calls visit for each defined symbol of `tables` (each undefined one for ELF_SYMBOLS_IMPORTS),
 * in file order, until it returns nonzero; returns that value, or 0. */
int elf_object_each_symbol(const struct elf_object *object, enum elf_symbol_tables tables,
			   int (*visit)(const struct elf_symbol *symbol, void *context), void *context);

/* Calls visit for the file's code: each executable PT_LOAD segment's bytes, or without program
 * headers (an object file) each SHF_EXECINSTR section's, with its file offset, until it returns
 * nonzero; returns that value, or 0. */
int elf_object_each_code(const struct elf_object *object,
			 int (*visit)(const unsigned char *bytes, size_t size, uint64_t offset,
				      void *context),
			 void *context);

/* The whole file's bytes, valid while the object is open; its size into *size. */
const unsigned char *elf_object_bytes(const struct elf_object *object, size_t *size);

/* The virtual address at file offset `offset`, through the PT_LOAD segment that holds it;
 * false when none does. */
bool elf_object_address(const struct elf_object *object, uint64_t offset, uint64_t *address);

/* The contents of the section named `name` when they are a NUL-terminated string (as
 * .gnu_debuglink's file name is), valid while the object is open; NULL otherwise. */
const char *elf_object_section_text(const struct elf_object *object, const char *name);

/* The loader's cache of library names (/etc/ld.so.cache, written by ldconfig; glibc's format
 * "glibc-ld.so.cache1.1"). */
struct elf_ldcache {
	char *bytes; /* the file, owned; NULL when there was none */
	size_t size;
};

#define ELF_LDCACHE_INIT { NULL, 0 }

/* Reads the cache at `path`. A missing file is an empty cache (the loader then looks in its
 * default directories only); a file that is not the format is an error naming it. */
int elf_ldcache_read(const char *path, struct elf_ldcache *cache, struct gate_error *err);
void elf_ldcache_release(struct elf_ldcache *cache); /* NULL-safe */

/* This system's cache (/etc/ld.so.cache), read the first time it is asked for and kept for the
 * process; an unreadable one is an empty cache (the system's directories are still searched). */
const struct elf_ldcache *elf_ldcache_system(void);

/* The path the cache gives for library `name` built for objects like `like` (their class and
 * machine select the entries, as the loader's own check does), owned; NULL when it has none.
 * Entries for a CPU-specific subdirectory (glibc-hwcaps) are passed over: the plain entry is
 * the one every machine loads. */
char *elf_ldcache_find(const struct elf_ldcache *cache, const char *name,
		       const struct elf_object *like);

/* A DT_RPATH an object passes on to the libraries it loads and theirs, with the directory its
 * $ORIGIN stands for. */
struct elf_rpath {
	const char *rpath;               /* NULL: the object passes none on (it has DT_RUNPATH) */
	const char *origin;
};

/* What the loader knows beside the object that needs a library: the cache, the program's
 * directory, and the DT_RPATH of each object that loaded the one searching. */
struct elf_search {
	const struct elf_ldcache *cache; /* NULL: none */
	const char *program_directory;   /* the executable's directory: its $ORIGIN, and where the
					  * scenario runs (a relative name with a slash is from there) */
	const struct elf_rpath *loaders; /* the program first, then each object that loaded the
					  * next, down to the one that loaded the object searching */
	size_t loader_count;
};

/* Where the loader finds the library `name` that `needing` names (`dynamic` is its dynamic
 * section): a name with a slash as it is (from the program's directory when relative). Else,
 * when the object has no DT_RUNPATH, its DT_RPATH and then those of its loaders, nearest first
 * and the program's last; with one, its DT_RUNPATH ($ORIGIN is the directory of the object whose
 * run path it is). Then the cache, then the system's directories. In every directory of a run
 * path the loader tries the CPU subdirectories first (elf_search_subdirectories), and so does
 * this, as on a CPU that has every feature they name. A candidate of another class or machine is
 * passed over, as the loader does. LD_LIBRARY_PATH is not read: gate runs scenarios with a
 * cleared environment. Returns the path the loader would open, owned (symbolic links not
 * resolved: the directory of that path is the library's $ORIGIN), or NULL when it would find none. */
char *elf_library_find(const char *name, const struct elf_object *needing,
		       const struct elf_dynamic *dynamic, const struct elf_search *search);

/* The subdirectories of a search directory that glibc's loader tries before the directory
 * itself for objects like `like`, in its order, NULL-terminated: for 64-bit x86 the glibc-hwcaps
 * levels (x86-64-v4, -v3, -v2) and the legacy hwcaps directories of glibc before 2.37 (tls,
 * x86_64 and their pairs, as `ld.so --help` lists them); for others the legacy "tls". */
const char *const *elf_search_subdirectories(const struct elf_object *like);

#endif
