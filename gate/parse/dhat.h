/* Reads the JSON profile valgrind's DHAT writes and keeps only the allocations made under the
 * measured region. DHAT cannot be toggled like callgrind, so a program point counts when a frame
 * of the region function is on its stack (docs/design.md, measurement rule 3). */
#ifndef GATE_DHAT_H
#define GATE_DHAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "error.h"

/* The most frames a site's stack keeps, innermost first. */
#define DHAT_STACK_FRAMES 6

/* Where allocations under the region were made. Frames are written as DHAT's frame table has
 * them without the address: "function (file:line)" with debug info, else "function (in object)". */
struct dhat_site {
	char *location;  /* the allocation site: the innermost frame that is not the allocator itself
			  * (frames in valgrind's vgpreload_*.so, i.e. malloc/calloc/realloc/new, are
			  * skipped); owned */
	char *stack;     /* the frames from the site up to, not including, the innermost region frame,
			  * at most DHAT_STACK_FRAMES, joined with " < "; "" when the region function
			  * allocated directly (the site is the region frame); owned */
	uint64_t blocks; /* blocks allocated here under the region: tbk summed over every program
			  * point with the same location and stack */
	uint64_t bytes;  /* bytes likewise (tb) */
};

struct dhat_profile {
	uint64_t blocks;          /* total blocks of the program points whose stack holds the region
				   * frame (a point is counted once however often the frame appears) */
	uint64_t bytes;           /* total bytes of those points */
	uint64_t peak_bytes;      /* the process's live heap at its largest: every point's "gb"
				   * (its bytes live at that moment), summed; DHAT's "At t-gmax" */
	bool peak_unknown;        /* a point had no "gb" (DHAT tracked no lifetimes) */
	uint64_t all_blocks;      /* total blocks of every program point (plausibility, diagnostics) */
	uint64_t all_bytes;       /* total bytes of every program point */
	uint64_t instructions;    /* "te": the instructions the whole process executed, every
				   * thread, start to exit ("tu" must be "instrs") */
	size_t deepest_stack;     /* the most frames any program point has: DHAT keeps at most
				   * --num-callers frames, so a point that deep may have lost the region
				   * frame off its outer end; the caller compares this with what it passed */
	struct dhat_site *sites;  /* one per distinct (location, stack), sorted by blocks descending,
				   * then location, then stack (strcmp); owned */
	size_t site_count;
};

#define DHAT_PROFILE_INIT { 0 }

/* Parses the DHAT file at `path` (dhatFileVersion 2, mode "heap"), counting only the program points
 * with a frame whose function name is exactly `region`: the name is the frame's text between
 * "0x...: " and the " (" that starts its location, compared whole, so "region" matches neither
 * "region_helper" nor "pre_region" (nor a compiler clone such as "region.part.0"). Frames of the
 * allocator itself are never the region.
 *
 * `profile` must be DHAT_PROFILE_INIT or released; it is overwritten. On success returns 0 and fills
 * it; the caller frees it with dhat_profile_release(). On error returns -1 with `err` set (e.g.
 * "cannot open 'F': No such file or directory", "cannot parse 'F': missing key 'pps'",
 * "cannot parse 'F': pps[3].tbk is not a non-negative integer") and leaves `profile` released.
 * Counts must be integers below 2^53 (the exact range of a JSON number read as a double). */
int dhat_profile_parse(struct dhat_profile *profile, const char *path, const char *region,
		       struct gate_error *err);

/* Frees what a profile owns and leaves it DHAT_PROFILE_INIT. NULL-safe; may be called again. */
void dhat_profile_release(struct dhat_profile *profile);

#endif
