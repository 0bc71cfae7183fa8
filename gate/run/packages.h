/* The system libraries a scenario executable loads, named by the installed package that owns each
 * and its exact version (Debian's "libc6 2.36-9+deb12u9"): a security update that changes their
 * code changes the fingerprint. Libraries no package owns (the project's own, in its build tree)
 * are the code being measured, not the toolchain, and are left out. */
#ifndef GATE_PACKAGES_H
#define GATE_PACKAGES_H

#include <stddef.h>

#include "error.h"

/* Libraries already looked up, so a suite of many scenarios asks the package database once per
 * library. */
struct packages_cache {
	char **paths;    /* resolved library paths; owned */
	char **owners;   /* "libc6 2.36-9+deb12u9", or "" when no package owns it; owned */
	size_t count;
};

#define PACKAGES_CACHE_INIT { 0 }

/* The packages behind every shared library `executable` loads, directly or through another
 * library, sorted and ", "-joined into *text (owned; "" when none). An executable that is not a
 * ELF file, or a library that cannot be found, is an error naming it. Without dpkg, a
 * library is named by its file (e.g. "libcjson.so.1.7.15"). */
int packages_describe(struct packages_cache *cache, const char *executable, char **text,
		      struct gate_error *err);

/* Looks up the libraries of all `executables` and the C library at once (one dpkg-query run,
 * not one per library), so that packages_describe finds them cached. Failures are left for packages_describe to name. */
void packages_prefetch(struct packages_cache *cache, char *const *executables, size_t count);

/* The package and version of the C library this machine's programs load, e.g.
 * "libc6 2.36-9+deb12u9", or the file name without dpkg. *text is owned. */
int packages_libc(struct packages_cache *cache, char **text, struct gate_error *err);

/* A file a scenario's process maps: the executable, a library, or the loader. */
struct packages_object {
	char *path;         /* real path; owned */
	char build_id[129]; /* GNU build id in hex; "" when it has none */
};

/* Every object `executable` loads: itself first, its libraries (as packages_describe finds them),
 * then its loader (PT_INTERP) unless a library already named it, each once, with its build id. */
int packages_objects(const char *executable, struct packages_object **objects, size_t *count,
		     struct gate_error *err);
void packages_objects_release(struct packages_object *objects, size_t count); /* NULL-safe */

/* The cache gate's commands share for the whole process (the environment block and every
 * scenario's fingerprint ask about the same C library). */
struct packages_cache *packages_shared_cache(void);

void packages_cache_release(struct packages_cache *cache); /* NULL-safe */

#endif
