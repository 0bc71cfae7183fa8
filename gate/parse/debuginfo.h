/* Which function a cost belongs to, read from an object's DWARF with elfutils' libdw: by address
 * (the innermost function scope that holds it, debuginfo_owner_at), or for a profile without
 * addresses by line (the function whose definition starts last at or before that line in that
 * file). It names the code that -O2 inlined into another function, which callgrind counts under
 * the caller's name. */
#ifndef GATE_DEBUGINFO_H
#define GATE_DEBUGINFO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct debuginfo_function {
	char *file;    /* as the DWARF names it, made absolute with the unit's directory; owned */
	uint64_t line; /* where its definition starts (DW_AT_decl_line) */
	char *name;    /* owned */
};

/* Where one unit's functions are, by address (debuginfo_owner_at): each range of each function
 * defined at its top level or in its namespaces and classes, by start. */
struct debuginfo_span {
	uint64_t low, high; /* [low, high) */
	uint64_t die;       /* the function's DIE, as an offset in the object's DWARF */
};

/* A function's name as debuginfo_owner_at gives it, made once per DIE it is found through. */
struct debuginfo_origin {
	uint64_t die;   /* the declaration's DIE offset (after origin and specification) */
	char *name;     /* owned; NULL when it has none */
	bool ambiguous;
};

struct debuginfo_unit_spans {
	uint64_t unit;      /* the unit's DIE offset */
	bool harness;       /* the unit is costgate's harness (debuginfo_unit.harness) */
	struct debuginfo_span *spans;
	size_t count;
};

/* What debuginfo_owner_at found for one address, kept so each address is looked up once. */
struct debuginfo_place {
	uint64_t address;
	const char *name; /* the innermost function, qualified ("shop::Index::add"), pointing
			   * into the origins; NULL when the DWARF names none (the slot is used
			   * when `known`) */
	bool inlined; /* that function's code was inlined there (DW_TAG_inlined_subroutine) */
	bool ambiguous; /* the object defines more than one function of that name (two static
			 * functions in two files): the name then ends with its definition's place,
			 * "twin [twins_b.c:6]" */
	bool harness; /* the address lies in a unit of costgate's harness: its code, and what its
		       * headers' inline functions made there, is the harness's, never the
		       * project's, even where the harness is compiled into the project */
	bool known;   /* the slot holds an address */
};

struct debuginfo {
	char *object;                         /* the ELF file read; owned */
	struct debuginfo_function *functions; /* sorted by file, then line; owned */
	size_t count;
	void *dwarf;                          /* libdw's handle (Dwarf *), open until released;
					       * NULL when the object has no DWARF */
	int fd;
	struct debuginfo_place *places;       /* open addressing by address, at most half full */
	size_t place_capacity, place_count;
	const struct debuginfo_function **by_name; /* functions sorted by name, made when first
						    * needed; owned (the entries are functions') */
	struct debuginfo_origin *origins;     /* by DIE offset, ascending; owned */
	size_t origin_count;
	struct debuginfo_unit_spans *spans;   /* per unit looked into, where its functions are:
					       * made when the unit is first needed; owned */
	size_t span_units;
};

#define DEBUGINFO_INIT { .fd = -1 }

/* Reads every function defined in `object` (out-of-line or only inlined). An object that cannot
 * be opened or has no DWARF gives no functions, not an error. Returns -1 only when out of memory. */
int debuginfo_read(struct debuginfo *info, const char *object);

/* The function that `line` of `file` belongs to, or NULL when the object does not say. A file
 * matches when equal, or when one path ends with "/" and the other. Points into info. */
const char *debuginfo_owner(const struct debuginfo *info, const char *file, uint64_t line);

/* The function whose code holds `address` (an offset in the object, as callgrind writes it with
 * --dump-instr=yes): the innermost of the DWARF scopes that contain it that is a function or a
 * copy of one inlined there, named through DW_AT_abstract_origin and DW_AT_specification to
 * its declaration, and qualified with the namespaces and classes around that ("shop::Index::add").
 * So every inlined copy, member defined in its class and function sharing a line with another
 * is itself. A name the object defines more than once (static functions of one name in two
 * files, which callgrind counts as one) is told apart by its definition's file and line:
 * *ambiguous, and *name ends with " [FILE:LINE]". *name is NULL when the DWARF covers no function
 * there; it points into info. Returns -1 only when out of memory. */
int debuginfo_owner_at(struct debuginfo *info, uint64_t address, const char **name,
		       bool *inlined, bool *ambiguous);

/* All debuginfo_owner_at says of `address`, and whether it lies in a compile unit of costgate's
 * harness, looked up once and kept: NULL only when out of memory. Points into info. */
const struct debuginfo_place *debuginfo_place_at(struct debuginfo *info, uint64_t address);

void debuginfo_release(struct debuginfo *info); /* NULL-safe */

/* What an object's DWARF holds, unit by unit: enough to say why a valgrind cannot read it
 * (valgrind before 3.20 cannot read the DWARF 5 clang 14 writes; GCC 12's it reads). */
struct debuginfo_units {
	size_t units;             /* compile units */
	unsigned highest_version; /* the highest DWARF version of a unit */
	size_t clang_dwarf5;      /* units of DWARF 5 or later whose producer is clang */
	char producer[128];       /* DW_AT_producer of the first of those, cut to fit; "" when none */
};

/* Reads the compile units of `object` into *units (all 0 for an object without DWARF). Returns 0,
 * or -1 when the object cannot be opened. */
int debuginfo_units_read(const char *object, struct debuginfo_units *units);

/* The source file that defines the global variable `variable` in `object` (DW_AT_decl_file, made
 * absolute with the unit's directory) into *file (owned), or NULL when the object has no DWARF
 * or no such definition. For a scenario, `costgate_scenario`: the file its author wrote. Returns
 * -1 only when out of memory. */
int debuginfo_variable_file(const char *object, const char *variable, char **file);

/* One compile unit of an object, as debuginfo_each_unit() gives it. */
struct debuginfo_unit {
	const char *file;     /* DW_AT_name made absolute with DW_AT_comp_dir; NULL when absent */
	const char *producer; /* DW_AT_producer ("GNU C17 12.2.0 -mtune=generic ... -O2"); NULL
			       * when absent */
	bool harness;         /* it defines one of the harness's entry points
			       * (costgate_harness_main, the queue's): the harness's own code */
};

/* Calls `each` for every compile unit of `object` in order; stops at the first non-zero it
 * returns and returns that. An object without DWARF has no units. Returns -1 when the object
 * cannot be opened or out of memory (before any call). */
int debuginfo_each_unit(const char *object,
			int (*each)(const struct debuginfo_unit *unit, void *context), void *context);

/* The options of a DW_AT_producer that decide the code, in its order: those GCC records (it
 * records them by default: "-mtune=generic -march=x86-64 -g -O2"), or those of the command line
 * clang records with -grecord-command-line (-O, -f, -m, -g, -std and -ansi options; never -I,
 * -D, -W, -o or a prefix map, which hold paths or change no code). *flags is NULL when the
 * producer records no options (clang without -grecord-command-line, GCC with
 * -gno-record-gcc-switches). Returns -1 only when out of memory. */
int debuginfo_producer_flags(const char *producer, char **flags);

/* Whether options as debuginfo_producer_flags() gives them optimise: the last -O option is not
 * -O0 (GCC and clang compile at -O0 when none is given). */
bool debuginfo_flags_optimise(const char *flags);

#endif
