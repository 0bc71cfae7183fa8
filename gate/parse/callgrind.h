/* Reads one callgrind output file into the cost of its first event (Ir), per function, exclusive
 * and inclusive, and the system calls of each function when the file counts them (sysCount,
 * --collect-systime). Functions are merged by name within an object, as callgrind writes them,
 * so a name that callgrind writes for several functions of one object (two "(below main)", a
 * static helper in two files) is one entry; the same name in two objects (glibc's alloc_perturb
 * and a project function of that name) is two. */
#ifndef GATE_CALLGRIND_H
#define GATE_CALLGRIND_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"

/* The cost of one source line of a project function (see cg_object_is_system). */
struct cg_line {
	size_t file;            /* index in the profile's files: fl=, or fi=/fe= for inlined code */
	uint64_t line;          /* 0 when callgrind does not know it */
	uint64_t exclusive;     /* self cost of the first event on this line */
	uint64_t calls;         /* inclusive cost of the calls made from this line */
	uint64_t library_calls; /* the part of calls whose target is in a system library */
	uint64_t allocator_calls; /* the part of calls that entered the allocator */
};

/* The cost of one instruction of a project function, when the file records addresses
 * (--dump-instr=yes: "positions: instr line"). callgrind writes an address as an offset in its
 * object, the address the object's DWARF uses, so it names the function that holds it exactly,
 * also where two share a line (debuginfo_owner_at). */
struct cg_instr {
	uint64_t address;         /* in its object (callgrind's ob=) */
	uint64_t exclusive;       /* self cost of the first event at this address */
	uint64_t calls;           /* inclusive cost of the calls made from it */
	uint64_t library_calls;   /* the part of calls whose target is in a system library */
	uint64_t allocator_calls; /* the part of calls that entered the allocator */
};

/* The system calls of a function (callgrind's sysCount event), all 0 when the file does not
 * count them. callgrind counts every system call of the process, also while collection is off,
 * and charges it to the call stack it was made on: a function's inclusive count holds exactly
 * the calls made below it, so the measured region's inclusive count is the region's own. */
struct cg_syscalls {
	uint64_t exclusive; /* made by the function's own code (a libc wrapper's syscall), on lines
			     * whose instructions were collected */
	uint64_t inclusive; /* every one made by its own code and below its calls */
	uint64_t library;   /* those below its direct calls into system libraries, on calls whose
			     * instructions were collected */
};

/* One function's calls to one other (callgrind's calls= lines, cfn= and cob= naming the target),
 * summed over the call sites: how often and at what inclusive cost. */
struct cg_call {
	char *callee;       /* the target's name as callgrind wrote it; owned */
	char *object;       /* the target's object (cob=, else the caller's); owned */
	uint64_t count;     /* calls made */
	uint64_t inclusive; /* their inclusive cost of the first event */
};

struct cg_function {
	char *name;         /* as callgrind wrote it after name decompression, e.g. "even'2" for
			     * the second recursion level (--separate-recs); owned */
	char *file;         /* the fl= in effect at its first fn= block ("???" when unknown or when
			     * the file has no fl= before it); owned */
	uint64_t exclusive; /* self cost of the first event: every cost line of every fn= block of
			     * this name, inlined code (fi=/fe=) included, call costs excluded */
	uint64_t inclusive; /* exclusive + the cost lines that follow its calls= lines (callgrind's
			     * inclusive: a recursive call is counted at every level) */
	char *object;       /* the ob= in effect at its fn= blocks ("???" when none); owned */
	uint64_t library_calls;   /* inclusive cost of its direct calls into system libraries */
	uint64_t allocator_calls; /* inclusive cost of its direct calls into the allocator, when it
				   * is not the allocator's own (cg_calls_allocator) */
	struct cg_syscalls syscalls;
	struct cg_line *lines;    /* per (file, line), in order of appearance; only for functions
				   * outside system libraries, NULL otherwise; owned */
	size_t line_count;
	struct cg_instr *instrs;  /* per address, ascending, when the file records addresses and
				   * the function is outside system libraries; NULL otherwise; owned */
	size_t instr_count;
	struct cg_call *calls;    /* its direct calls, one per target, in order of appearance;
				   * kept by cg_profile_parse only (a sum of parts has none); owned */
	size_t call_count;
};

/* The most events a file may name ("events:"); --cache-sim=yes --branch-sim=yes names 13. */
#define CG_MAX_EVENTS 32

struct cg_profile {
	char *event;                   /* name of the first event in "events:", e.g. "Ir"; owned */
	uint64_t total;                /* sum of every function's exclusive cost */
	uint64_t allocator;            /* the part of total spent in the allocator: the inclusive
					* cost of every call into it from a function outside it
					* (malloc, free, ... and all they call); at most total */
	int counts_syscalls;           /* the file names the event sysCount (--collect-systime) */
	int has_instrs;                /* the file records addresses (positions: instr) */
	struct cg_function *functions; /* sorted by name, then object (strcmp), one entry per
					* distinct name and object; owned, NULL when none */
	size_t function_count;
	char **files;                  /* the source files cg_line.file indexes; owned */
	size_t file_count;
	char *events;                  /* the whole "events:" list, e.g. "Ir Dr Dw I1mr ..."; owned */
	size_t event_count;
	uint64_t event_totals[CG_MAX_EVENTS]; /* each event summed over every self cost line: the
					       * run's total of that event (callgrind's totals:) */
};

#define CG_PROFILE_INIT { 0 }

/* Whether callgrind's function name (a recursion suffix "'2" ignored) is one of glibc's
 * allocator's: an entry point (malloc, free, calloc, realloc, posix_memalign, ...) or a function
 * below one (_int_malloc, malloc_consolidate, sysmalloc, ...). A name alone says nothing: see
 * cg_is_allocator. */
int cg_name_is_allocator(const char *name);

/* Whether an ELF object, as callgrind names it, is the system's C library: libc.so.6 (or an
 * older glibc's libc-2.NN.so) installed in a system directory (cg_object_is_system). */
int cg_object_is_c_library(const char *object);

/* Whether the function `name` of `object` is the allocator: one of its names in the system's C
 * library. The allocator's instructions depend on the heap's history, not only on the calls
 * made (docs/metrics.md), so gate counts them apart; a project function of any name, and a
 * malloc of another library, is the program's own. */
int cg_is_allocator(const char *name, const char *object);

/* Whether an ELF object belongs to the system rather than the project: installed under /usr,
 * /lib, /lib32, /lib64 or /libx32 (the C library, cJSON from the distribution, valgrind's
 * preload objects), or unknown ("???"). Everything else, the scenario executable and libraries
 * built beside it, is the project's. */
int cg_object_is_system(const char *object);

/*
 * Parses one callgrind output file (one part: --combine-dumps files are rejected). *profile is
 * overwritten, not freed: pass it empty (CG_PROFILE_INIT or released). On success it owns what it
 * points to until cg_profile_release(). The first count of "totals:", when present, must equal
 * the total of the cost lines; so must that of "summary:" when there is no "totals:" (a truncated
 * file), otherwise it may be larger, as the format allows (--cache-sim=yes makes it 2 Ir larger).
 * Positions are checked but not kept.
 *
 * On error returns -1, leaves *profile empty and sets err to one message, e.g.
 * "cannot open 'x': No such file or directory", "cannot parse 'x': line 12: bad count '1y'",
 * "cannot parse 'x': totals say 900, cost lines sum to 820".
 */
int cg_profile_parse(struct cg_profile *profile, const char *path, struct gate_error *err);

/* Finds a function by exact name (binary search), the first by object when two objects define
 * the name; NULL when absent. Points into profile. */
const struct cg_function *cg_profile_find(const struct cg_profile *profile, const char *name);

/* The function `name` of `object` exactly (a call's target); NULL when absent. */
const struct cg_function *cg_profile_find_in(const struct cg_profile *profile, const char *name,
					     const char *object);

/* The total of the event named `event` (exact name, e.g. "D1mr") into *total; -1 when the file
 * does not name that event. */
int cg_profile_event_total(const struct cg_profile *profile, const char *event, uint64_t *total);

/*
 * Adds the profile of a later part of the same run (callgrind's --dump-after writes one file a
 * part, each with the costs since the one before) into *sum: the costs of every function, line
 * and event, functions merged by name and lines by (file name, line), so that the sum of parts 1
 * to k is the profile a single file would hold up to the end of part k (its calls aside: a sum
 * keeps none). A function or file first
 * seen in `part` is appended. The two must count the same events; an empty *sum
 * (CG_PROFILE_INIT) takes part's, so that adding to it copies. On error returns -1 with err
 * ("the parts count different events: 'Ir' and 'Ir Dr'", "... overflows", "out of memory") and
 * leaves *sum unchanged.
 */
int cg_profile_add(struct cg_profile *sum, const struct cg_profile *part, struct gate_error *err);

/* Frees what profile owns and leaves it as CG_PROFILE_INIT. NULL-safe. */
void cg_profile_release(struct cg_profile *profile);

#endif
