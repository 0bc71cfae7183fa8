/* Who a callgrind profile's instructions belong to: each function of the project (outside the
 * system libraries, cg_object_is_system) with the code -O2 inlined into it split off under the
 * inlined function's own name, "parse_number (inlined into parse_value)", and beside each, its
 * own instructions plus those of the system-library functions it calls directly, the allocator
 * left out. A function's recursion levels ("f", "f'2") are one owner named "f". */
#ifndef GATE_OWNERSHIP_H
#define GATE_OWNERSHIP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "callgrind.h"
#include "debuginfo.h"

struct owned_cost {
	char *name;            /* callgrind's name, or "inlined (inlined into caller)"; owned */
	uint64_t exclusive;    /* its own instructions (an inlined function's lines only) */
	uint64_t inclusive;    /* with everything it calls, counted once however deep it recurses
				* (its outermost level's inclusive; an inlined function's lines'
				* in the outermost level, never above its caller's) */
	uint64_t with_library; /* exclusive + the inclusive cost of its direct calls into system
				* libraries other than the allocator: where "calls strlen more"
				* shows */
	uint64_t syscalls;     /* the system calls its own code and its direct calls into system
				* libraries made (callgrind.h); an inlined function's stay with
				* the function it was inlined into */
	bool project;          /* outside the system libraries */
	bool harness;          /* costgate's harness compiled into the program (its code in the
				* harness's units, debuginfo_place_at), with what was inlined into
				* it: on the project's side, never one of its functions */
};

struct ownership {
	struct owned_cost *costs; /* sorted by name, the project's first of a name; owned */
	size_t count;
};

/* The DWARF of every project object seen, read once for the runs of one scenario. */
struct ownership_objects {
	struct debuginfo *objects;
	size_t count;
};

#define OWNERSHIP_INIT { 0 }

/* Splits `profile` by owner. Returns -1 only when out of memory. */
int ownership_compute(struct ownership *ownership, const struct cg_profile *profile,
		      struct ownership_objects *objects);

/* By exact name, on the project's side or the system's, the harness's or not; NULL when absent. */
const struct owned_cost *ownership_find(const struct ownership *ownership, const char *name,
				       bool project, bool harness);

void ownership_release(struct ownership *ownership);         /* NULL-safe */
void ownership_objects_release(struct ownership_objects *objects); /* NULL-safe */

#endif
