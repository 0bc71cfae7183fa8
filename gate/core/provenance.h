/* How the scenario programs were built, as their own DWARF says, read before anything runs: the
 * options each of the project's compile units was compiled with (the fingerprint's flags, not
 * what a build file says it passed), the scenarios whose project code was compiled without
 * optimisation, and programs older than the sources they were built from. The project's units
 * are those of the scenario executable and of the project's libraries it loads (outside the
 * system's directories), written by GCC or clang, not the harness's (debuginfo_unit.harness),
 * whose source file is on this machine outside /usr. */
#ifndef GATE_PROVENANCE_H
#define GATE_PROVENANCE_H

#include <stddef.h>

#include "error.h"
#include "manifest.h"

struct provenance {
	char *flags;     /* the distinct option sets of the project's units in the order first
			  * seen, joined by " | " (debuginfo_producer_flags); NULL when no unit
			  * records its options; owned */
	size_t units;    /* the project's units read, over every scenario */
	size_t recorded; /* of those, the ones whose producer records its options */
	char *stale;     /* the first program older than one of its sources: "'checksum' is older
			  * than crc32.c"; NULL when none; owned */
	char **unoptimised; /* by manifest entry: the first project unit compiled without
			     * optimisation, "crc32.c (-g)"; NULL entries when none or unknown;
			     * owned */
	size_t count;
};

#define PROVENANCE_INIT { 0 }

/* Reads every scenario of `manifest`. Sources are named relative to `root` (the repository's top
 * directory; NULL: by their file names), never by a path of this machine. Returns -1 only when
 * out of memory; an object that cannot be read gives no units. */
int provenance_read(struct provenance *provenance, const struct manifest *manifest,
		    const char *root, struct gate_error *err);

void provenance_release(struct provenance *provenance); /* NULL-safe */

#endif
