/* The callgrind format parser: one pass with getline, no line-length limit, every count checked.
 * Positions (line, instr, relative +N, -N, "*") are only checked: costgate totals per function, and
 * callgrind makes them relative to the last plain cost line, not to calls= or jump lines. */
#define _POSIX_C_SOURCE 200809L

#include "callgrind.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "array.h"

#define CG_NO_FUNCTION SIZE_MAX

/* The three id spaces of name compression: callgrind numbers files once for fl=, fi=, fe=,
 * cfi=, cfl= and jfi=, functions once for fn=, cfn= and jfn=, objects once for ob= and cob=. */
enum cg_space {
	CG_SPACE_FILES,
	CG_SPACE_FUNCTIONS,
	CG_SPACE_OBJECTS,
	CG_SPACE_COUNT
};

static const char *const cg_space_names[CG_SPACE_COUNT] = { "file", "function", "object" };

enum cg_effect {
	CG_EFFECT_NONE,            /* only names something (and may define a compressed id) */
	CG_EFFECT_SETS_FILE,       /* fl=: the file of the functions that follow */
	CG_EFFECT_SETS_FUNCTION,   /* fn=: the function the next cost lines belong to */
	CG_EFFECT_SETS_COST_FILE,  /* fi=/fe=: the file of the next cost lines (inlined code) */
	CG_EFFECT_SETS_OBJECT,     /* ob=: the object of the functions that follow */
	CG_EFFECT_SETS_CALL_OBJECT, /* cob=: the object of the next call's target */
	CG_EFFECT_SETS_CALL_FUNCTION /* cfn=: the next call's target */
};

struct cg_spec {
	const char *prefix;
	enum cg_space space;
	enum cg_effect effect;
};

/* fi=/fe= switch the file for inlined code: the cost stays with the current fn=. jfi=/jfn= come
 * with --collect-jumps and carry no cost, but may be where a compressed id is first defined. */
static const struct cg_spec cg_specs[] = {
	{ "fn=", CG_SPACE_FUNCTIONS, CG_EFFECT_SETS_FUNCTION },
	{ "fl=", CG_SPACE_FILES, CG_EFFECT_SETS_FILE },
	{ "fi=", CG_SPACE_FILES, CG_EFFECT_SETS_COST_FILE },
	{ "fe=", CG_SPACE_FILES, CG_EFFECT_SETS_COST_FILE },
	{ "ob=", CG_SPACE_OBJECTS, CG_EFFECT_SETS_OBJECT },
	{ "cob=", CG_SPACE_OBJECTS, CG_EFFECT_SETS_CALL_OBJECT },
	{ "cfi=", CG_SPACE_FILES, CG_EFFECT_NONE },
	{ "cfl=", CG_SPACE_FILES, CG_EFFECT_NONE },
	{ "cfn=", CG_SPACE_FUNCTIONS, CG_EFFECT_SETS_CALL_FUNCTION },
	{ "jfi=", CG_SPACE_FILES, CG_EFFECT_NONE },
	{ "jfn=", CG_SPACE_FUNCTIONS, CG_EFFECT_NONE },
};

/* One defined compressed id; name NULL marks an empty slot. */
struct cg_name {
	uint64_t id;
	char *name;
};

/* One id space: open addressing, capacity a power of two, at most half full. */
struct cg_names {
	struct cg_name *slots;
	size_t capacity;
	size_t count;
};

struct cg_parser {
	const char *path;
	struct gate_error *err;
	uint64_t line_number;       /* of the line being parsed, from 1 */
	size_t position_count;      /* columns before the counts: 1 unless "positions:" says more */
	size_t event_count;         /* 0 until the "events:" line */
	char *event;                /* first event name; owned until moved into the profile */
	char *events;               /* the whole "events:" list; owned likewise */
	uint64_t counts[CG_MAX_EVENTS];       /* the counts of the line being parsed */
	uint64_t event_totals[CG_MAX_EVENTS]; /* each event summed over the self cost lines */
	int seen_positions;
	int body_started;           /* a cost, name, calls= or jump line was seen */
	int call_pending;           /* a calls= line awaits the cost line after it */
	uint64_t call_line_number;  /* of that calls= line */
	int has_summary;
	int has_totals;
	uint64_t summary;           /* first count of "summary:" */
	uint64_t totals;            /* first count of "totals:" */
	uint64_t total;             /* sum of the exclusive cost lines */
	struct cg_names names[CG_SPACE_COUNT];
	char *file;                 /* the last fl=, owned; NULL before the first */
	size_t current;             /* index in functions of the fn= in effect, or CG_NO_FUNCTION */
	struct cg_function *functions;
	size_t function_count;
	size_t function_capacity;
	size_t *by_name;            /* open addressing: index in functions + 1, 0 when empty */
	size_t by_name_capacity;    /* a power of two, at most half full */
	char *object;               /* the last ob=, owned; NULL before the first */
	char *call_object;          /* a cob= for the next calls= line, owned; NULL when none */
	int call_system;            /* the pending call's target is in a system library */
	char *call_function;        /* the cfn= for the next calls= line, owned; NULL when none */
	int call_allocator;         /* the pending call enters the allocator from outside it */
	char *callee;               /* the pending call's target and its object, owned; NULL when
				     * the calls= line had no cfn= before it */
	char *callee_object;
	uint64_t call_count;        /* the pending call's count */
	uint64_t allocator;         /* inclusive cost of every call that entered the allocator */
	size_t syscall_column;      /* the column of sysCount among the events, SIZE_MAX when none */
	char *cost_file;            /* fl=, or the fi=/fe= in effect, owned; NULL before any */
	size_t line_column;         /* the "line" column of the positions, SIZE_MAX when none */
	uint64_t last_line;         /* the line of the last cost line, for +N, -N and "*" */
	size_t instr_column;        /* the "instr" column of the positions, SIZE_MAX when none */
	uint64_t last_instr;        /* the address of the last cost line, likewise */
	char **files;               /* the files cg_line.file indexes */
	size_t file_count;
	size_t file_capacity;
};

enum cg_number {
	CG_NUMBER_OK,
	CG_NUMBER_BAD,     /* not a decimal or 0x hexadecimal number */
	CG_NUMBER_TOO_BIG  /* above UINT64_MAX */
};

static int parse_error(const struct cg_parser *parser, uint64_t line_number,
		       const char *format, ...) __attribute__((format(printf, 3, 4)));

/* Sets "cannot parse 'path': line N: <problem>" and returns -1. */
static int parse_error(const struct cg_parser *parser, uint64_t line_number,
		       const char *format, ...)
{
	char problem[512];
	va_list args;

	va_start(args, format);
	vsnprintf(problem, sizeof(problem), format, args);
	va_end(args);
	gate_error_set(parser->err, "cannot parse '%s': line %" PRIu64 ": %s", parser->path,
		       line_number, problem);
	return -1;
}

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static int is_hex_digit(char c)
{
	return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

static int is_space(char c)
{
	return c == ' ' || c == '\t';
}

static int is_key_char(char c)
{
	return is_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static const char *skip_spaces(const char *cursor)
{
	while (is_space(*cursor))
		cursor++;
	return cursor;
}

/* Length of the token at cursor, for quoting it in a message. */
static int token_length(const char *cursor)
{
	size_t length = 0;

	while (cursor[length] != '\0' && !is_space(cursor[length]))
		length++;
	return length > 40 ? 40 : (int)length;
}

static int starts_with(const char *text, const char *prefix)
{
	return strncmp(text, prefix, strlen(prefix)) == 0;
}

/* Reads a decimal or 0x hexadecimal number at *cursor and moves past it. Signs and leading
 * spaces, which strtoull would take, are refused; a leading 0 is decimal, not octal. */
static enum cg_number read_number(const char **cursor, uint64_t *value)
{
	const char *start = *cursor;
	int base = 10;
	char *end;
	unsigned long long number;

	if (start[0] == '0' && (start[1] == 'x' || start[1] == 'X') && is_hex_digit(start[2]))
		base = 16;
	else if (!is_digit(start[0]))
		return CG_NUMBER_BAD;
	errno = 0;
	number = strtoull(start, &end, base);
	if (errno == ERANGE)
		return CG_NUMBER_TOO_BIG;
	if (end == start)
		return CG_NUMBER_BAD;
#if ULLONG_MAX > UINT64_MAX
	if (number > UINT64_MAX)
		return CG_NUMBER_TOO_BIG;
#endif
	*cursor = end;
	*value = (uint64_t)number;
	return CG_NUMBER_OK;
}

/* Moves past one subposition: a number, +N, -N or "*", ending at a space or the line's end.
 * *value is the position it gives relative to `last` (clamped at 0 and UINT64_MAX). */
static int read_subposition(const char **cursor, uint64_t last, uint64_t *value)
{
	const char *at = *cursor;
	char sign = 0;
	uint64_t number = 0;

	if (*at == '*') {
		at++;
		number = last;
	} else {
		if (*at == '+' || *at == '-')
			sign = *at++;
		if (read_number(&at, &number) != CG_NUMBER_OK)
			return -1;
		if (sign == '+')
			number = number > UINT64_MAX - last ? UINT64_MAX : last + number;
		else if (sign == '-')
			number = number > last ? 0 : last - number;
	}
	if (*at != '\0' && !is_space(*at))
		return -1;
	*cursor = at;
	*value = number;
	return 0;
}

static int skip_subposition(const char **cursor)
{
	uint64_t ignored;

	return read_subposition(cursor, 0, &ignored);
}

/* Reads the counts from cursor to the end of the line, at most parser->event_count of them, into
 * parser->counts; *first is the first one, 0 when there is none (missing counts are 0). */
static int read_counts(struct cg_parser *parser, const char *cursor, uint64_t *first,
		       size_t *count)
{
	uint64_t value;

	*first = 0;
	*count = 0;
	memset(parser->counts, 0, sizeof(parser->counts));
	for (cursor = skip_spaces(cursor); *cursor != '\0'; cursor = skip_spaces(cursor)) {
		const char *start = cursor;
		enum cg_number status;

		if (*count == parser->event_count)
			return parse_error(parser, parser->line_number,
					   "more counts than events (%zu)", parser->event_count);
		status = read_number(&cursor, &value);
		if (status == CG_NUMBER_OK && *cursor != '\0' && !is_space(*cursor))
			status = CG_NUMBER_BAD;
		if (status == CG_NUMBER_TOO_BIG)
			return parse_error(parser, parser->line_number,
					   "count '%.*s' is above %" PRIu64, token_length(start),
					   start, UINT64_MAX);
		if (status != CG_NUMBER_OK)
			return parse_error(parser, parser->line_number, "bad count '%.*s'",
					   token_length(start), start);
		if (*count == 0)
			*first = value;
		parser->counts[*count] = value;
		(*count)++;
	}
	return 0;
}

/* Adds count to *sum unless that would pass UINT64_MAX. */
static int add_count(uint64_t *sum, uint64_t count)
{
	if (count > UINT64_MAX - *sum)
		return -1;
	*sum += count;
	return 0;
}

static uint64_t hash_id(uint64_t id)
{
	id ^= id >> 33;
	id *= UINT64_C(0xff51afd7ed558ccd);
	id ^= id >> 33;
	return id;
}

static uint64_t hash_text(const char *text)
{
	uint64_t hash = UINT64_C(0xcbf29ce484222325);

	for (; *text != '\0'; text++) {
		hash ^= (unsigned char)*text;
		hash *= UINT64_C(0x100000001b3);
	}
	return hash;
}

static struct cg_name *names_slot(const struct cg_names *names, uint64_t id)
{
	size_t mask = names->capacity - 1;
	size_t at = (size_t)hash_id(id) & mask;

	while (names->slots[at].name != NULL && names->slots[at].id != id)
		at = (at + 1) & mask;
	return &names->slots[at];
}

static const char *names_find(const struct cg_names *names, uint64_t id)
{
	if (names->capacity == 0)
		return NULL;
	return names_slot(names, id)->name;
}

static int names_grow(struct cg_names *names)
{
	struct cg_names grown = { NULL, names->capacity == 0 ? 64 : names->capacity * 2,
				  names->count };
	size_t i;

	grown.slots = calloc(grown.capacity, sizeof(*grown.slots));
	if (grown.slots == NULL)
		return -1;
	for (i = 0; i < names->capacity; i++)
		if (names->slots[i].name != NULL)
			*names_slot(&grown, names->slots[i].id) = names->slots[i];
	free(names->slots);
	*names = grown;
	return 0;
}

/* Defines id as a copy of name; id must not be defined yet. */
static int names_add(struct cg_names *names, uint64_t id, const char *name)
{
	struct cg_name *slot;
	char *copy;

	if ((names->count + 1) * 2 > names->capacity && names_grow(names) != 0)
		return -1;
	copy = strdup(name);
	if (copy == NULL)
		return -1;
	slot = names_slot(names, id);
	slot->id = id;
	slot->name = copy;
	names->count++;
	return 0;
}

static void names_release(struct cg_names *names)
{
	size_t i;

	for (i = 0; i < names->capacity; i++)
		free(names->slots[i].name);
	free(names->slots);
	names->slots = NULL;
	names->capacity = 0;
	names->count = 0;
}

/* The object of the fn= in effect, as a function's entry records it. */
static const char *current_object(const struct cg_parser *parser)
{
	return parser->object != NULL ? parser->object : "???";
}

/* The by_name slot holding the function `name` of `object`, or the empty slot where it belongs. */
static size_t *by_name_slot(const struct cg_parser *parser, const char *name, const char *object)
{
	size_t mask = parser->by_name_capacity - 1;
	size_t at = (size_t)hash_text(name) & mask;

	while (parser->by_name[at] != 0 &&
	       (strcmp(parser->functions[parser->by_name[at] - 1].name, name) != 0 ||
		strcmp(parser->functions[parser->by_name[at] - 1].object, object) != 0))
		at = (at + 1) & mask;
	return &parser->by_name[at];
}

static int by_name_grow(struct cg_parser *parser)
{
	size_t *old = parser->by_name;
	size_t old_capacity = parser->by_name_capacity;
	size_t capacity = old_capacity == 0 ? 64 : old_capacity * 2;
	size_t i;

	parser->by_name = calloc(capacity, sizeof(*parser->by_name));
	if (parser->by_name == NULL) {
		parser->by_name = old;
		return -1;
	}
	parser->by_name_capacity = capacity;
	for (i = 0; i < old_capacity; i++)
		if (old[i] != 0)
			*by_name_slot(parser, parser->functions[old[i] - 1].name,
				      parser->functions[old[i] - 1].object) = old[i];
	free(old);
	return 0;
}

static int out_of_memory(const struct cg_parser *parser)
{
	gate_error_oom(parser->err);
	return gate_error_prefix(parser->err, "cannot parse '%s': line %" PRIu64, parser->path,
				 parser->line_number);
}

/* Makes name the current function, adding it (with the current fl=) when it is new. */
static int enter_function(struct cg_parser *parser, const char *name)
{
	struct cg_function *function;
	size_t *slot;

	if ((parser->function_count + 1) * 2 > parser->by_name_capacity &&
	    by_name_grow(parser) != 0)
		return out_of_memory(parser);
	slot = by_name_slot(parser, name, current_object(parser));
	if (*slot != 0) {
		parser->current = *slot - 1;
		return 0;
	}
	if (ARRAY_GROW(parser->functions, parser->function_capacity, parser->function_count, 32))
		return out_of_memory(parser);
	function = &parser->functions[parser->function_count];
	memset(function, 0, sizeof(*function));
	function->name = strdup(name);
	function->file = strdup(parser->file != NULL ? parser->file : "???");
	function->object = strdup(current_object(parser));
	if (function->name == NULL || function->file == NULL || function->object == NULL) {
		free(function->name);
		free(function->file);
		free(function->object);
		return out_of_memory(parser);
	}
	parser->current = parser->function_count++;
	*slot = parser->current + 1;
	return 0;
}

/* Replaces the owned string *slot with a copy of name. */
static int set_text(struct cg_parser *parser, char **slot, const char *name)
{
	char *copy = strdup(name);

	if (copy == NULL)
		return out_of_memory(parser);
	free(*slot);
	*slot = copy;
	return 0;
}

/* glibc's allocator: its entry points and the functions below them that callgrind names. */
static const char *const cg_allocator_names[] = {
	"malloc", "free", "calloc", "realloc", "reallocarray", "posix_memalign", "aligned_alloc",
	"memalign", "valloc", "pvalloc", "cfree", "malloc_usable_size", "malloc_trim",
	"__libc_malloc", "__libc_free", "__libc_calloc", "__libc_realloc", "__libc_memalign",
	"__libc_valloc", "__libc_pvalloc", "__posix_memalign", "__malloc_usable_size",
	"_int_malloc", "_int_free", "_int_realloc", "_int_memalign", "_mid_memalign",
	"sysmalloc", "sysmalloc_mmap", "systrim", "malloc_consolidate", "malloc_init_state", "ptmalloc_init",
	"tcache_init", "tcache_get", "tcache_put", "alloc_perturb", "free_perturb", "unlink_chunk",
	"_int_free_merge_chunk", "_int_free_create_chunk", "_int_free_maybe_consolidate",
	"__malloc_arena_thread_freeres", "arena_get2", "get_free_list", "new_heap",
	"grow_heap", "shrink_heap", "heap_trim", "mremap_chunk", "munmap_chunk",
	"__default_morecore", "__glibc_morecore", "malloc_hook_ini", "realloc_hook_ini",
	"memalign_hook_ini",
};

int cg_name_is_allocator(const char *name)
{
	/* Without a recursion level ("free'2") or a compiler clone's suffix
	 * ("sysmalloc_mmap.constprop.0", "_int_free.part.0"). */
	size_t length = strcspn(name, "'."), i;

	for (i = 0; i < sizeof(cg_allocator_names) / sizeof(cg_allocator_names[0]); i++)
		if (strlen(cg_allocator_names[i]) == length &&
		    strncmp(cg_allocator_names[i], name, length) == 0)
			return 1;
	return 0;
}

int cg_object_is_c_library(const char *object)
{
	const char *name;

	if (object == NULL || strcmp(object, "???") == 0 || !cg_object_is_system(object))
		return 0;
	name = strrchr(object, '/');
	name = name != NULL ? name + 1 : object;
	/* libc-2.31.so and the like: the file an older glibc's libc.so.6 links to. */
	return strcmp(name, "libc.so.6") == 0 ||
	       (starts_with(name, "libc-") && strlen(name) > 8 &&
		strcmp(name + strlen(name) - 3, ".so") == 0);
}

int cg_is_allocator(const char *name, const char *object)
{
	return name != NULL && cg_name_is_allocator(name) && cg_object_is_c_library(object);
}

int cg_object_is_system(const char *object)
{
	static const char *const prefixes[] = { "/usr/", "/lib/", "/lib32/", "/lib64/", "/libx32/" };
	size_t i;

	if (object == NULL || strcmp(object, "???") == 0)
		return 1;
	for (i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++)
		if (starts_with(object, prefixes[i]))
			return 1;
	return 0;
}

/* The index of the current cost file in parser->files, adding it when new. */
static int cost_file_index(struct cg_parser *parser, size_t *index)
{
	const char *name = parser->cost_file != NULL ? parser->cost_file : "???";
	size_t i;

	for (i = parser->file_count; i > 0; i--) {
		if (strcmp(parser->files[i - 1], name) == 0) {
			*index = i - 1;
			return 0;
		}
	}
	if (ARRAY_GROW(parser->files, parser->file_capacity, parser->file_count, 16) != 0)
		return out_of_memory(parser);
	parser->files[parser->file_count] = strdup(name);
	if (parser->files[parser->file_count] == NULL)
		return out_of_memory(parser);
	*index = parser->file_count++;
	return 0;
}

/* Adds a cost line of a project function to its (file, line) record. */
static int add_line_cost(struct cg_parser *parser, struct cg_function *function, uint64_t line,
			 uint64_t cost, int is_call)
{
	struct cg_line *record = NULL;
	size_t file = 0, i;

	if (cost_file_index(parser, &file) != 0)
		return -1;
	for (i = function->line_count; i > 0 && record == NULL; i--)
		if (function->lines[i - 1].file == file && function->lines[i - 1].line == line)
			record = &function->lines[i - 1];
	if (record == NULL) {
		/* Powers of two: the capacity is implied by the count. */
		if ((function->line_count & (function->line_count - 1)) == 0) {
			size_t capacity = function->line_count == 0 ? 4 : function->line_count * 2;
			struct cg_line *grown = realloc(function->lines, capacity * sizeof(*grown));

			if (grown == NULL)
				return out_of_memory(parser);
			function->lines = grown;
		}
		record = &function->lines[function->line_count++];
		*record = (struct cg_line){ .file = file, .line = line };
	}
	if (!is_call)
		return add_count(&record->exclusive, cost) == 0 ? 0 : parse_error(parser,
			parser->line_number, "cost of '%s' overflows", function->name);
	if (add_count(&record->calls, cost) != 0 ||
	    (parser->call_system && add_count(&record->library_calls, cost) != 0) ||
	    (parser->call_allocator && add_count(&record->allocator_calls, cost) != 0))
		return parse_error(parser, parser->line_number, "cost of '%s' overflows",
				   function->name);
	return 0;
}

/* Adds a cost line of a project function to its record of that address: the last one when the
 * address repeats (a call's line after its instruction's), else a new one; sorted and merged
 * when the file is read (merge_instrs). */
static int add_instr_cost(struct cg_parser *parser, struct cg_function *function,
			  uint64_t address, uint64_t cost, int is_call)
{
	struct cg_instr *record = function->instr_count > 0
					  ? &function->instrs[function->instr_count - 1] : NULL;

	if (record == NULL || record->address != address) {
		if ((function->instr_count & (function->instr_count - 1)) == 0) {
			size_t capacity = function->instr_count == 0 ? 8 : function->instr_count * 2;
			struct cg_instr *grown = realloc(function->instrs, capacity * sizeof(*grown));

			if (grown == NULL)
				return out_of_memory(parser);
			function->instrs = grown;
		}
		record = &function->instrs[function->instr_count++];
		*record = (struct cg_instr){ .address = address };
	}
	if (is_call ? add_count(&record->calls, cost) != 0 ||
			      (parser->call_system && add_count(&record->library_calls, cost) != 0) ||
			      (parser->call_allocator && add_count(&record->allocator_calls, cost) != 0)
		    : add_count(&record->exclusive, cost) != 0)
		return parse_error(parser, parser->line_number, "cost of '%s' overflows",
				   function->name);
	return 0;
}

static int compare_instrs(const void *left, const void *right)
{
	const struct cg_instr *a = left, *b = right;

	return a->address < b->address ? -1 : a->address > b->address;
}

/* Adds `from` into `to`, 1 when a count overflows. */
static int add_instr(struct cg_instr *to, const struct cg_instr *from)
{
	return add_count(&to->exclusive, from->exclusive) != 0 ||
	       add_count(&to->calls, from->calls) != 0 ||
	       add_count(&to->library_calls, from->library_calls) != 0 ||
	       add_count(&to->allocator_calls, from->allocator_calls) != 0;
}

/* A function's records by address, one per address (a function's blocks may visit an address
 * again: another fn= block, or a loop written out twice). 1 when a count overflows. */
static int merge_instrs(struct cg_function *function)
{
	size_t kept = 0, i;

	if (function->instr_count < 2)
		return 0;
	qsort(function->instrs, function->instr_count, sizeof(*function->instrs), compare_instrs);
	for (i = 1; i < function->instr_count; i++) {
		if (function->instrs[i].address == function->instrs[kept].address) {
			if (add_instr(&function->instrs[kept], &function->instrs[i]) != 0)
				return 1;
		} else {
			function->instrs[++kept] = function->instrs[i];
		}
	}
	function->instr_count = kept + 1;
	return 0;
}

/* Resolves the text after "fn=" and the like: "name", "(id) name" (defines id) or "(id)"
 * (refers to it). A name that starts with "(" and no digit, "(below main)", is a plain name. */
static int resolve_name(struct cg_parser *parser, enum cg_space space, const char *text,
			const char **name)
{
	struct cg_names *names = &parser->names[space];
	const char *kind = cg_space_names[space];
	const char *cursor = skip_spaces(text);
	const char *defined;
	uint64_t id;

	if (cursor[0] != '(' || !is_digit(cursor[1])) {
		if (*cursor == '\0')
			return parse_error(parser, parser->line_number, "empty %s name", kind);
		*name = cursor;
		return 0;
	}
	cursor++;
	if (read_number(&cursor, &id) != CG_NUMBER_OK || *cursor != ')')
		return parse_error(parser, parser->line_number, "bad %s id '%.*s'", kind,
				   token_length(text), text);
	cursor = skip_spaces(cursor + 1);
	defined = names_find(names, id);
	if (*cursor == '\0') {
		if (defined == NULL)
			return parse_error(parser, parser->line_number,
					   "undefined %s id (%" PRIu64 ")", kind, id);
		*name = defined;
		return 0;
	}
	if (defined != NULL && strcmp(defined, cursor) != 0)
		return parse_error(parser, parser->line_number,
				   "%s id (%" PRIu64 ") redefined from '%s' to '%s'", kind, id,
				   defined, cursor);
	if (defined == NULL && names_add(names, id, cursor) != 0)
		return out_of_memory(parser);
	*name = cursor;
	return 0;
}

/* Every body line needs the "events:" line before it, and ends the header. */
static int start_body(struct cg_parser *parser)
{
	if (parser->event_count == 0)
		return parse_error(parser, parser->line_number,
				   "no 'events:' line before the first cost or name line");
	parser->body_started = 1;
	return 0;
}

static int parse_spec_line(struct cg_parser *parser, const struct cg_spec *spec, const char *text)
{
	const char *name = NULL; /* set by resolve_name; NULL quiets -Wmaybe-uninitialized */

	if (start_body(parser) != 0 || resolve_name(parser, spec->space, text, &name) != 0)
		return -1;
	switch (spec->effect) {
	case CG_EFFECT_SETS_FILE:
		if (set_text(parser, &parser->file, name) != 0)
			return -1;
		return set_text(parser, &parser->cost_file, name);
	case CG_EFFECT_SETS_FUNCTION:
		if (parser->file != NULL && set_text(parser, &parser->cost_file, parser->file) != 0)
			return -1;
		return enter_function(parser, name);
	case CG_EFFECT_SETS_COST_FILE:
		return set_text(parser, &parser->cost_file, name);
	case CG_EFFECT_SETS_OBJECT:
		return set_text(parser, &parser->object, name);
	case CG_EFFECT_SETS_CALL_OBJECT:
		return set_text(parser, &parser->call_object, name);
	case CG_EFFECT_SETS_CALL_FUNCTION:
		return set_text(parser, &parser->call_function, name);
	case CG_EFFECT_NONE:
		break;
	}
	return 0;
}

/* The system calls of a cost line (its sysCount column, when the file has one): the function's
 * own on a plain line, those below a call on the line after calls=. A line whose instructions
 * were never collected ran only outside the measured part: its system calls count for the
 * inclusive figure, which stays whole, and never as a function's own or library calls. */
static int add_syscalls(struct cg_parser *parser, struct cg_function *function, size_t count,
			int is_call)
{
	struct cg_syscalls *syscalls = &function->syscalls;
	uint64_t calls;
	int collected = count > 0 && parser->counts[0] > 0;

	if (parser->syscall_column >= count)
		return 0;
	calls = parser->counts[parser->syscall_column];
	if ((!is_call && collected && add_count(&syscalls->exclusive, calls) != 0) ||
	    add_count(&syscalls->inclusive, calls) != 0 ||
	    (is_call && collected && parser->call_system &&
	     add_count(&syscalls->library, calls) != 0))
		return parse_error(parser, parser->line_number, "system calls of '%s' overflow",
				   function->name);
	return 0;
}

/* Adds the pending call (its count and inclusive `cost`) to the caller's calls to its target. */
static int add_call(struct cg_parser *parser, struct cg_function *function, uint64_t cost)
{
	struct cg_call *call = NULL;
	size_t i;

	if (parser->callee == NULL)
		return 0;
	for (i = 0; i < function->call_count && call == NULL; i++)
		if (strcmp(function->calls[i].callee, parser->callee) == 0 &&
		    strcmp(function->calls[i].object, parser->callee_object) == 0)
			call = &function->calls[i];
	if (call == NULL) {
		struct cg_call *grown =
			realloc(function->calls, (function->call_count + 1) * sizeof(*grown));

		if (grown == NULL)
			return out_of_memory(parser);
		function->calls = grown;
		call = &function->calls[function->call_count++];
		*call = (struct cg_call){ .callee = parser->callee, .object = parser->callee_object };
		parser->callee = NULL;
		parser->callee_object = NULL;
	}
	if (add_count(&call->count, parser->call_count) != 0 ||
	    add_count(&call->inclusive, cost) != 0)
		return parse_error(parser, parser->line_number, "calls of '%s' overflow",
				   function->name);
	return 0;
}

/* A plain cost line is self cost; the one right after calls= is the inclusive cost of that call,
 * which belongs to the caller's inclusive cost only. */
static int parse_cost_line(struct cg_parser *parser, const char *line)
{
	const char *cursor = line;
	struct cg_function *function;
	uint64_t cost, source_line = parser->last_line, address = parser->last_instr, position;
	size_t count;
	size_t column;
	int is_call = parser->call_pending;

	if (start_body(parser) != 0)
		return -1;
	if (parser->current == CG_NO_FUNCTION)
		return parse_error(parser, parser->line_number, "cost line before any 'fn=' line");
	for (column = 0; column < parser->position_count; column++) {
		cursor = skip_spaces(cursor);
		if (*cursor == '\0')
			return parse_error(parser, parser->line_number,
					   "cost line with %zu of its %zu positions", column,
					   parser->position_count);
		if (read_subposition(&cursor, column == parser->instr_column ? parser->last_instr
									  : parser->last_line,
				     &position) != 0)
			return parse_error(parser, parser->line_number, "bad position '%.*s'",
					   token_length(cursor), cursor);
		if (column == parser->line_column)
			source_line = position;
		if (column == parser->instr_column)
			address = position;
	}
	if (read_counts(parser, cursor, &cost, &count) != 0)
		return -1;
	parser->last_line = source_line;
	parser->last_instr = address;
	parser->call_pending = 0;
	function = &parser->functions[parser->current];
	if (add_syscalls(parser, function, count, is_call) != 0 ||
	    (is_call && add_call(parser, function, cost) != 0))
		return -1;
	if (is_call && parser->call_system && add_count(&function->library_calls, cost) != 0)
		return parse_error(parser, parser->line_number, "cost of '%s' overflows",
				   function->name);
	if (is_call && parser->call_allocator &&
	    (add_count(&function->allocator_calls, cost) != 0 ||
	     add_count(&parser->allocator, cost) != 0))
		return parse_error(parser, parser->line_number, "cost of '%s' overflows",
				   function->name);
	if (!cg_object_is_system(function->object) &&
	    (add_line_cost(parser, function, source_line, cost, is_call) != 0 ||
	     (parser->instr_column != SIZE_MAX &&
	      add_instr_cost(parser, function, address, cost, is_call) != 0)))
		return -1;
	if (!is_call && add_count(&function->exclusive, cost) != 0)
		return parse_error(parser, parser->line_number, "cost of '%s' overflows",
				   function->name);
	if (add_count(&function->inclusive, cost) != 0)
		return parse_error(parser, parser->line_number, "inclusive cost of '%s' overflows",
				   function->name);
	if (!is_call && add_count(&parser->total, cost) != 0)
		return parse_error(parser, parser->line_number, "total cost overflows");
	for (column = 0; !is_call && column < count; column++)
		if (add_count(&parser->event_totals[column], parser->counts[column]) != 0)
			return parse_error(parser, parser->line_number, "total cost overflows");
	return 0;
}

/* "calls=<count> <target position>": the next cost line is the call's inclusive cost. */
static int parse_calls_line(struct cg_parser *parser, const char *text)
{
	const char *cursor = skip_spaces(text);
	uint64_t call_count;
	size_t column;

	if (start_body(parser) != 0)
		return -1;
	if (read_number(&cursor, &call_count) != CG_NUMBER_OK ||
	    (*cursor != '\0' && !is_space(*cursor)))
		return parse_error(parser, parser->line_number, "bad call count in 'calls=' line");
	for (column = 0; column < parser->position_count; column++) {
		cursor = skip_spaces(cursor);
		if (skip_subposition(&cursor) != 0)
			return parse_error(parser, parser->line_number,
					   "bad target position in 'calls=' line");
	}
	if (*skip_spaces(cursor) != '\0')
		return parse_error(parser, parser->line_number, "trailing text in 'calls=' line");
	if (parser->current == CG_NO_FUNCTION)
		return parse_error(parser, parser->line_number,
				   "'calls=' line before any 'fn=' line");
	parser->call_pending = 1;
	parser->call_line_number = parser->line_number;
	/* cob= names the target's object for this call only; without it, the caller's. */
	parser->call_system = cg_object_is_system(parser->call_object != NULL ? parser->call_object
									     : parser->object);
	/* Only a call from outside the allocator enters it: malloc's own calls to _int_malloc are
	 * inside the cost of the call that entered malloc. Both sides are known by their object
	 * too (cg_is_allocator): a project function named like one of glibc's is the program's. */
	parser->call_allocator =
		cg_is_allocator(parser->call_function, parser->call_object != NULL
							       ? parser->call_object
							       : parser->object) &&
		!cg_is_allocator(parser->functions[parser->current].name, parser->object);
	free(parser->callee);
	free(parser->callee_object);
	parser->callee = parser->call_function;
	parser->callee_object = parser->call_object != NULL ? parser->call_object
							    : parser->object != NULL ? strdup(parser->object)
										     : strdup("???");
	parser->call_count = call_count;
	parser->call_object = NULL;
	parser->call_function = NULL;
	if (parser->callee != NULL && parser->callee_object == NULL)
		return out_of_memory(parser);
	return 0;
}

static int parse_events(struct cg_parser *parser, const char *value)
{
	const char *cursor = skip_spaces(value);
	size_t length = 0;

	if (parser->event_count != 0)
		return parse_error(parser, parser->line_number,
				   "second 'events:' line (a file of several parts)");
	while (cursor[length] != '\0' && !is_space(cursor[length]))
		length++;
	if (length == 0)
		return parse_error(parser, parser->line_number, "empty 'events:' line");
	parser->event = strndup(cursor, length);
	parser->events = strdup(cursor);
	if (parser->event == NULL || parser->events == NULL)
		return out_of_memory(parser);
	for (; *cursor != '\0'; cursor = skip_spaces(cursor + strcspn(cursor, " \t"))) {
		if (strncmp(cursor, "sysCount", 8) == 0 && (cursor[8] == '\0' || is_space(cursor[8])))
			parser->syscall_column = parser->event_count;
		parser->event_count++;
	}
	if (parser->event_count > CG_MAX_EVENTS)
		return parse_error(parser, parser->line_number, "more than %d events",
				   CG_MAX_EVENTS);
	return 0;
}

static int parse_positions(struct cg_parser *parser, const char *value)
{
	const char *cursor = skip_spaces(value);
	size_t count = 0;

	if (parser->seen_positions || parser->body_started)
		return parse_error(parser, parser->line_number,
				   "'positions:' line repeated or after the first cost line");
	parser->line_column = SIZE_MAX;
	parser->instr_column = SIZE_MAX;
	for (; *cursor != '\0'; cursor = skip_spaces(cursor + strcspn(cursor, " \t"))) {
		if (strncmp(cursor, "line", 4) == 0 && (cursor[4] == '\0' || is_space(cursor[4])))
			parser->line_column = count;
		if (strncmp(cursor, "instr", 5) == 0 && (cursor[5] == '\0' || is_space(cursor[5])))
			parser->instr_column = count;
		count++;
	}
	if (count == 0)
		return parse_error(parser, parser->line_number, "empty 'positions:' line");
	parser->position_count = count;
	parser->seen_positions = 1;
	return 0;
}

/* "summary:" (in the header) and "totals:" (at the end): the whole run's cost of each event. */
static int parse_sum(struct cg_parser *parser, const char *key, const char *value, int *seen,
		     uint64_t *first)
{
	size_t count;

	if (*seen)
		return parse_error(parser, parser->line_number, "second '%s:' line", key);
	if (parser->event_count == 0)
		return parse_error(parser, parser->line_number, "'%s:' before the 'events:' line",
				   key);
	if (read_counts(parser, value, first, &count) != 0)
		return -1;
	if (count == 0)
		return parse_error(parser, parser->line_number, "empty '%s:' line", key);
	*seen = 1;
	return 0;
}

static int parse_version(struct cg_parser *parser, const char *value)
{
	const char *cursor = skip_spaces(value);
	uint64_t version;

	if (read_number(&cursor, &version) != CG_NUMBER_OK || version > 1)
		return parse_error(parser, parser->line_number, "unsupported format version '%.*s'",
				   token_length(skip_spaces(value)), skip_spaces(value));
	return 0;
}

/* "key: value". Keys other than these (cmd:, pid:, desc:, event:, ...) describe the run. */
static int parse_header_line(struct cg_parser *parser, const char *line)
{
	size_t key_length = 0;
	const char *value;

	while (is_key_char(line[key_length]))
		key_length++;
	if (key_length == 0 || line[key_length] != ':')
		return parse_error(parser, parser->line_number, "unrecognised line '%.40s'", line);
	value = line + key_length + 1;
	if (key_length == 6 && strncmp(line, "events", 6) == 0)
		return parse_events(parser, value);
	if (key_length == 9 && strncmp(line, "positions", 9) == 0)
		return parse_positions(parser, value);
	if (key_length == 7 && strncmp(line, "summary", 7) == 0)
		return parse_sum(parser, "summary", value, &parser->has_summary, &parser->summary);
	if (key_length == 6 && strncmp(line, "totals", 6) == 0)
		return parse_sum(parser, "totals", value, &parser->has_totals, &parser->totals);
	if (key_length == 7 && strncmp(line, "version", 7) == 0)
		return parse_version(parser, value);
	return 0;
}

static int is_blank(const char *line)
{
	return *skip_spaces(line) == '\0';
}

static int parse_line(struct cg_parser *parser, const char *line)
{
	size_t i;

	if (is_blank(line) || line[0] == '#')
		return 0;
	if (is_digit(line[0]) || line[0] == '+' || line[0] == '-' || line[0] == '*')
		return parse_cost_line(parser, line);
	if (parser->call_pending)
		return parse_error(parser, parser->line_number,
				   "the 'calls=' line %" PRIu64 " is not followed by a cost line",
				   parser->call_line_number);
	for (i = 0; i < sizeof(cg_specs) / sizeof(cg_specs[0]); i++)
		if (starts_with(line, cg_specs[i].prefix))
			return parse_spec_line(parser, &cg_specs[i],
					       line + strlen(cg_specs[i].prefix));
	if (starts_with(line, "calls="))
		return parse_calls_line(parser, line + strlen("calls="));
	/* Jumps (--collect-jumps) carry no cost; the position line after one is a cost line
	 * without counts. callgrind writes "jcnd=<followed>/<executed>", not the documented
	 * "jcnd=<executed> <followed>", another reason to skip rather than read them. */
	if (starts_with(line, "jump=") || starts_with(line, "jcnd="))
		return start_body(parser);
	return parse_header_line(parser, line);
}

/* Drops the line end ("\n" or "\r\n"); refuses a NUL byte, which would cut the line short. */
static int trim_line(const struct cg_parser *parser, char *line, size_t length)
{
	if (strlen(line) != length)
		return parse_error(parser, parser->line_number, "NUL byte in line");
	if (length > 0 && line[length - 1] == '\n')
		line[--length] = '\0';
	if (length > 0 && line[length - 1] == '\r')
		line[--length] = '\0';
	return 0;
}

static int finish(struct cg_parser *parser)
{
	if (parser->line_number == 0)
		return gate_error_set(parser->err, "cannot parse '%s': empty file", parser->path);
	if (parser->event_count == 0)
		return gate_error_set(parser->err, "cannot parse '%s': no 'events:' line",
				      parser->path);
	if (parser->call_pending)
		return parse_error(parser, parser->call_line_number,
				   "'calls=' line at the end of the file without its cost line "
				   "(truncated file?)");
	if (parser->has_totals && parser->totals != parser->total)
		return gate_error_set(parser->err,
				      "cannot parse '%s': totals say %" PRIu64
				      ", cost lines sum to %" PRIu64,
				      parser->path, parser->totals, parser->total);
	/* totals: is the checksum of the cost lines. summary: is the run's own count, which the
	 * format lets exceed them (--cache-sim=yes writes 2 more Ir than the cost lines hold),
	 * so it must match only without totals:, which is what a truncated file looks like. */
	if (parser->has_summary && (parser->has_totals ? parser->summary < parser->total
						       : parser->summary != parser->total))
		return gate_error_set(parser->err,
				      "cannot parse '%s': summary says %" PRIu64
				      ", cost lines sum to %" PRIu64,
				      parser->path, parser->summary, parser->total);
	return 0;
}

/* By name, then by object: a name two objects define (glibc's alloc_perturb and a project's) is
 * two functions. */
static int compare_functions(const void *left, const void *right)
{
	const struct cg_function *a = left;
	const struct cg_function *b = right;
	int order = strcmp(a->name, b->name);

	return order != 0 ? order : strcmp(a->object, b->object);
}

static void cg_call_release(struct cg_call *call)
{
	free(call->callee);
	free(call->object);
}

/* A function's strings, lines and calls, whether the parser's or the profile's. */
static void cg_function_release(struct cg_function *function)
{
	free(function->name);
	free(function->file);
	free(function->object);
	free(function->lines);
	free(function->instrs);
	ARRAY_RELEASE(function->calls, function->call_count, cg_call_release);
}

static void parser_release(struct cg_parser *parser)
{
	for (size_t i = 0; i < CG_SPACE_COUNT; i++)
		names_release(&parser->names[i]);
	ARRAY_RELEASE(parser->functions, parser->function_count, cg_function_release);
	array_free_strings(parser->files, parser->file_count);
	free(parser->by_name);
	free(parser->file);
	free(parser->object);
	free(parser->call_object);
	free(parser->call_function);
	free(parser->callee);
	free(parser->callee_object);
	free(parser->cost_file);
	free(parser->event);
	free(parser->events);
}

int cg_profile_parse(struct cg_profile *profile, const char *path, struct gate_error *err)
{
	struct cg_parser parser;
	FILE *stream = NULL;
	char *line = NULL;
	size_t line_capacity = 0;
	ssize_t length;
	size_t i;
	int saved_errno;
	int result = -1;

	*profile = (struct cg_profile)CG_PROFILE_INIT;
	memset(&parser, 0, sizeof(parser));
	parser.path = path;
	parser.err = err;
	parser.position_count = 1;
	parser.line_column = 0; /* "positions: line" is the default */
	parser.instr_column = SIZE_MAX;
	parser.current = CG_NO_FUNCTION;
	parser.syscall_column = SIZE_MAX;

	stream = fopen(path, "r");
	if (stream == NULL) {
		saved_errno = errno;
		gate_error_set(err, "cannot open '%s': %s", path, strerror(saved_errno));
		goto out;
	}
	for (;;) {
		errno = 0;
		length = getline(&line, &line_capacity, stream);
		if (length == -1)
			break;
		parser.line_number++;
		if (trim_line(&parser, line, (size_t)length) != 0 || parse_line(&parser, line) != 0)
			goto out;
	}
	saved_errno = errno;
	if (ferror(stream) || saved_errno != 0) {
		gate_error_set(err, "cannot read '%s': %s", path,
			       saved_errno != 0 ? strerror(saved_errno) : "read error");
		goto out;
	}
	if (finish(&parser) != 0)
		goto out;

	for (i = 0; i < parser.function_count; i++)
		if (merge_instrs(&parser.functions[i]) != 0) {
			gate_error_set(err, "cannot parse '%s': the cost of an instruction of '%s' "
				       "overflows", path, parser.functions[i].name);
			goto out;
		}
	if (parser.function_count > 0)
		qsort(parser.functions, parser.function_count, sizeof(*parser.functions),
		      compare_functions);
	profile->has_instrs = parser.instr_column != SIZE_MAX;
	profile->event = parser.event;
	profile->events = parser.events;
	profile->event_count = parser.event_count;
	memcpy(profile->event_totals, parser.event_totals, sizeof(profile->event_totals));
	profile->total = parser.total;
	profile->counts_syscalls = parser.syscall_column != SIZE_MAX;
	/* A function the allocator calls back that enters it again would count twice: never more
	 * than the whole. */
	profile->allocator = parser.allocator < parser.total ? parser.allocator : parser.total;
	profile->functions = parser.functions;
	profile->function_count = parser.function_count;
	profile->files = parser.files;
	profile->file_count = parser.file_count;
	parser.event = NULL;
	parser.events = NULL;
	parser.functions = NULL;
	parser.function_count = 0;
	parser.files = NULL;
	parser.file_count = 0;
	result = 0;
out:
	free(line);
	if (stream != NULL)
		fclose(stream);
	parser_release(&parser);
	return result;
}

const struct cg_function *cg_profile_find(const struct cg_profile *profile, const char *name)
{
	size_t low = 0;
	size_t high;

	if (profile == NULL || name == NULL)
		return NULL;
	high = profile->function_count;
	while (low < high) {
		size_t middle = low + (high - low) / 2;

		if (strcmp(profile->functions[middle].name, name) < 0)
			low = middle + 1;
		else
			high = middle;
	}
	return low < profile->function_count && strcmp(profile->functions[low].name, name) == 0
		       ? &profile->functions[low]
		       : NULL;
}

const struct cg_function *cg_profile_find_in(const struct cg_profile *profile, const char *name,
					     const char *object)
{
	const struct cg_function *found = cg_profile_find(profile, name);
	const struct cg_function *end;

	if (found == NULL)
		return NULL;
	end = profile->functions + profile->function_count;
	for (; found < end && strcmp(found->name, name) == 0; found++)
		if (strcmp(found->object, object) == 0)
			return found;
	return NULL;
}

void cg_profile_release(struct cg_profile *profile)
{
	if (profile == NULL)
		return;
	ARRAY_RELEASE(profile->functions, profile->function_count, cg_function_release);
	array_free_strings(profile->files, profile->file_count);
	free(profile->event);
	free(profile->events);
	*profile = (struct cg_profile)CG_PROFILE_INIT;
}

int cg_profile_event_total(const struct cg_profile *profile, const char *event, uint64_t *total)
{
	const char *cursor = profile->events;
	size_t length = strlen(event), index = 0;

	while (cursor != NULL && *(cursor = skip_spaces(cursor)) != '\0') {
		size_t word = strcspn(cursor, " \t");

		if (word == length && strncmp(cursor, event, length) == 0) {
			*total = profile->event_totals[index];
			return 0;
		}
		cursor += word;
		index++;
	}
	return -1;
}

/* The index of `name` in files[], appending a copy when absent; -1 when out of memory. */
static int file_slot(char ***files, size_t *count, const char *name, size_t *index)
{
	char **grown;
	size_t i;

	for (i = 0; i < *count; i++) {
		if (strcmp((*files)[i], name) == 0) {
			*index = i;
			return 0;
		}
	}
	grown = realloc(*files, (*count + 1) * sizeof(*grown));
	if (grown == NULL)
		return -1;
	*files = grown;
	if ((grown[*count] = strdup(name)) == NULL)
		return -1;
	*index = (*count)++;
	return 0;
}

/* A copy of `from` with its strings and lines owned, its lines' files mapped through `map`
 * (NULL: kept). */
static int copy_function(struct cg_function *to, const struct cg_function *from,
			 const size_t *map)
{
	size_t i;

	*to = *from;
	to->name = strdup(from->name);
	to->file = strdup(from->file);
	to->object = strdup(from->object);
	to->calls = NULL;
	to->call_count = 0;
	to->lines = from->line_count > 0 ? malloc(from->line_count * sizeof(*to->lines)) : NULL;
	to->instrs = from->instr_count > 0 ? malloc(from->instr_count * sizeof(*to->instrs)) : NULL;
	if (to->name == NULL || to->file == NULL || to->object == NULL ||
	    (from->line_count > 0 && to->lines == NULL) ||
	    (from->instr_count > 0 && to->instrs == NULL))
		return -1;
	if (from->instr_count > 0)
		memcpy(to->instrs, from->instrs, from->instr_count * sizeof(*to->instrs));
	for (i = 0; i < from->line_count; i++) {
		to->lines[i] = from->lines[i];
		if (map != NULL)
			to->lines[i].file = map[from->lines[i].file];
	}
	return 0;
}

/* Adds `from`'s records by address into `to`'s, both ascending: a merge. 1 when a count
 * overflows, -1 when out of memory. */
static int add_instrs(struct cg_function *to, const struct cg_function *from)
{
	struct cg_instr *merged;
	size_t i = 0, j = 0, count = 0;

	if (from->instr_count == 0)
		return 0;
	merged = malloc((to->instr_count + from->instr_count) * sizeof(*merged));
	if (merged == NULL)
		return -1;
	while (i < to->instr_count || j < from->instr_count) {
		if (j == from->instr_count ||
		    (i < to->instr_count && to->instrs[i].address < from->instrs[j].address)) {
			merged[count++] = to->instrs[i++];
		} else if (i == to->instr_count || from->instrs[j].address < to->instrs[i].address) {
			merged[count++] = from->instrs[j++];
		} else {
			merged[count] = to->instrs[i++];
			if (add_instr(&merged[count++], &from->instrs[j++]) != 0) {
				free(merged);
				return 1;
			}
		}
	}
	free(to->instrs);
	to->instrs = merged;
	to->instr_count = count;
	return 0;
}

/* Adds `from` (its lines' files mapped through `map`) into `to`, a function of the same name. */
static int add_function(struct cg_function *to, const struct cg_function *from, const size_t *map)
{
	size_t i, j;
	int status;

	if (add_count(&to->exclusive, from->exclusive) != 0 ||
	    add_count(&to->inclusive, from->inclusive) != 0 ||
	    add_count(&to->library_calls, from->library_calls) != 0 ||
	    add_count(&to->allocator_calls, from->allocator_calls) != 0 ||
	    add_count(&to->syscalls.exclusive, from->syscalls.exclusive) != 0 ||
	    add_count(&to->syscalls.inclusive, from->syscalls.inclusive) != 0 ||
	    add_count(&to->syscalls.library, from->syscalls.library) != 0)
		return 1;
	if ((status = add_instrs(to, from)) != 0)
		return status;
	for (i = 0; i < from->line_count; i++) {
		const struct cg_line *line = &from->lines[i];
		struct cg_line *into = NULL;

		for (j = 0; j < to->line_count && into == NULL; j++)
			if (to->lines[j].file == map[line->file] && to->lines[j].line == line->line)
				into = &to->lines[j];
		if (into == NULL) {
			struct cg_line *grown = realloc(to->lines,
							(to->line_count + 1) * sizeof(*grown));

			if (grown == NULL)
				return -1;
			to->lines = grown;
			into = &to->lines[to->line_count++];
			*into = (struct cg_line){ .file = map[line->file], .line = line->line };
		}
		if (add_count(&into->exclusive, line->exclusive) != 0 ||
		    add_count(&into->calls, line->calls) != 0 ||
		    add_count(&into->library_calls, line->library_calls) != 0 ||
		    add_count(&into->allocator_calls, line->allocator_calls) != 0)
			return 1;
	}
	return 0;
}

int cg_profile_add(struct cg_profile *sum, const struct cg_profile *part, struct gate_error *err)
{
	struct cg_profile merged = CG_PROFILE_INIT;
	size_t *map = NULL, i = 0, j = 0, k;
	int status = -1, added = 0;

	if (sum->events != NULL &&
	    strcmp(sum->events, part->events != NULL ? part->events : "") != 0)
		return gate_error_set(err, "the parts count different events: '%s' and '%s'",
				      sum->events != NULL ? sum->events : "",
				      part->events != NULL ? part->events : "");
	merged = *sum;
	merged.functions = calloc(sum->function_count + part->function_count + 1,
				  sizeof(*merged.functions));
	merged.function_count = 0;
	merged.files = NULL;
	merged.file_count = 0;
	map = calloc(part->file_count + 1, sizeof(*map));
	if (merged.functions == NULL || map == NULL)
		goto out_of_memory;
	for (k = 0; k < sum->file_count; k++)
		if (file_slot(&merged.files, &merged.file_count, sum->files[k], &i) != 0)
			goto out_of_memory;
	for (k = 0; k < part->file_count; k++)
		if (file_slot(&merged.files, &merged.file_count, part->files[k], &map[k]) != 0)
			goto out_of_memory;
	/* Both sorted by name: a merge. sum's functions are copied too, so that *sum is untouched
	 * until the whole sum is made. */
	for (i = 0, j = 0; i < sum->function_count || j < part->function_count;) {
		int order = i == sum->function_count   ? 1
			    : j == part->function_count ? -1
							 : compare_functions(&sum->functions[i],
									     &part->functions[j]);
		struct cg_function *to = &merged.functions[merged.function_count];

		if (copy_function(to, order <= 0 ? &sum->functions[i] : &part->functions[j],
				  order <= 0 ? NULL : map) != 0) {
			merged.function_count++;
			goto out_of_memory;
		}
		merged.function_count++;
		if (order == 0 && (added = add_function(to, &part->functions[j], map)) != 0)
			goto failed;
		i += order <= 0;
		j += order >= 0;
	}
	if (add_count(&merged.total, part->total) != 0 ||
	    add_count(&merged.allocator, part->allocator) != 0) {
		added = 1;
		goto failed;
	}
	if (merged.allocator > merged.total)
		merged.allocator = merged.total;
	for (k = 0; k < CG_MAX_EVENTS; k++)
		if (add_count(&merged.event_totals[k], part->event_totals[k]) != 0) {
			added = 1;
			goto failed;
		}
	merged.event_count = part->event_count;
	merged.counts_syscalls = part->counts_syscalls;
	merged.has_instrs = part->has_instrs;
	merged.event = strdup(part->event != NULL ? part->event : "");
	merged.events = strdup(part->events != NULL ? part->events : "");
	if (merged.event == NULL || merged.events == NULL)
		goto out_of_memory;
	cg_profile_release(sum);
	*sum = merged;
	merged = (struct cg_profile)CG_PROFILE_INIT;
	status = 0;
	goto out;
out_of_memory:
	added = -1;
failed:
	if (added > 0)
		gate_error_set(err, "the sum of the parts overflows a 64-bit count");
	else
		gate_error_oom(err);
	merged.event = merged.event == sum->event ? NULL : merged.event;
	merged.events = merged.events == sum->events ? NULL : merged.events;
	cg_profile_release(&merged);
out:
	free(map);
	return status;
}
