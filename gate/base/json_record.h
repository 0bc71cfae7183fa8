/* A JSON object described once, as a table of its members: each member's key, its type, where its
 * value lives in a C struct, whether a reader may do without it, and the costgate version that
 * first wrote it. One table drives both directions: json_record_write adds the members in the
 * table's order, json_record_read checks and copies them, naming a wrong value by its path. The
 * results document's tables are in results_schema.c, the history's in history.c
 * (docs/design.md, "One schema"). */
#ifndef GATE_JSON_RECORD_H
#define GATE_JSON_RECORD_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "error.h"

/* What a reader is reading: "cannot read WHAT 'SOURCE': PATH PROBLEM". */
struct json_reader {
	const char *what;         /* "results", "history" */
	const char *source;       /* the path, or "main:baselines/main.json" */
	bool lenient;             /* members marked JSON_STRICT may be missing */
	struct gate_error *err;
};

/* Sets the reader's error for the value at `path`; returns -1. */
int json_reader_bad(const struct json_reader *reader, const char *path, const char *problem);

enum json_type {
	JSON_TEXT,                /* char *, owned: a copy of the string */
	JSON_TEXT_FIXED,          /* char[size], the string cut to fit */
	JSON_TEXT_VIEW,           /* const char *, pointing into the document read (which must
				   * outlive the struct) */
	JSON_COUNT,               /* uint64_t: an integer from 0 to 2^53 - 1 */
	JSON_INDEX,               /* size_t: likewise */
	JSON_NUMBER,              /* double: finite, within +-(2^53 - 1) */
	JSON_NONNEG,              /* double: the same and not negative */
	JSON_BOOL,                /* bool */
	JSON_OBJECT,              /* a struct member, an object of `element` */
	JSON_ARRAY,               /* a pointer to `size`-byte structs, each an object of `element`,
				   * with their count (size_t) at `count_offset` */
	JSON_CUSTOM,              /* an object or array the field's own functions read and write */
};

enum json_need {
	JSON_REQUIRED,            /* every reader demands it */
	JSON_STRICT,              /* the strict reader demands it; a lenient one does without */
	JSON_OPTIONAL,            /* may be absent: the struct keeps what it held */
};

enum {
	JSON_NULLABLE = 1,        /* JSON null stands for NULL (a JSON_TEXT), both ways */
	JSON_OMIT_EMPTY = 2,      /* written only when set: not NULL, not 0, not false (a
				   * JSON_CUSTOM: not an empty array or object) */
	JSON_NONEMPTY = 4,        /* a JSON_ARRAY read with no element is refused */
};

struct json_field {
	const char *key;
	enum json_type type;
	size_t offset, size;      /* of the member in the struct (the JSON_*_MEMBER macros) */
	enum json_need need;
	const char *since;        /* the costgate version that first wrote it ("0.1.0") */
	unsigned flags;
	size_t present;           /* 1 + the offset of a bool set when the key was read; 0: none */
	const struct json_record *element; /* JSON_OBJECT, JSON_ARRAY: what it (each element) is */
	size_t count_offset;      /* JSON_ARRAY: where its count is */
	/* JSON_CUSTOM: reads `item` (present, or NULL when absent and not required) into the
	 * record (no read function: a figure derived from others, written and not read back);
	 * writes the member, NULL when out of memory (no write function: a member of older
	 * documents, read and never written). `shape` says what it holds, for docs
	 * (any type may have one; a JSON_CUSTOM must). */
	const char *shape;
	int (*read)(const struct json_reader *reader, const cJSON *item, const char *path,
		    void *record);
	cJSON *(*write)(const void *record);
};

/* Table entries, the member's type checked at compile time against the kind. */
#define JSON_AT(type, member, want) \
	offsetof(type, member) + 0 * sizeof(_Generic(&((type *)0)->member, want *: 1)), \
		sizeof(((type *)0)->member)
#define JSON_TEXT_MEMBER(type, member) JSON_TEXT, JSON_AT(type, member, char *)
#define JSON_VIEW_MEMBER(type, member) JSON_TEXT_VIEW, JSON_AT(type, member, const char *)
/* A char array, not a pointer: the member's address must be that of an array of its size. */
#define JSON_FIXED_MEMBER(type, member)                                                 \
	JSON_TEXT_FIXED,                                                                \
		offsetof(type, member) +                                                \
			0 * sizeof(_Generic(&((type *)0)->member,                       \
					    char(*)[sizeof(((type *)0)->member)] : 1)), \
		sizeof(((type *)0)->member)
#define JSON_COUNT_MEMBER(type, member) JSON_COUNT, JSON_AT(type, member, uint64_t)
#define JSON_INDEX_MEMBER(type, member) JSON_INDEX, JSON_AT(type, member, size_t)
#define JSON_NUMBER_MEMBER(type, member) JSON_NUMBER, JSON_AT(type, member, double)
#define JSON_NONNEG_MEMBER(type, member) JSON_NONNEG, JSON_AT(type, member, double)
#define JSON_BOOL_MEMBER(type, member) JSON_BOOL, JSON_AT(type, member, bool)
#define JSON_OBJECT_MEMBER(type, member, record) \
	JSON_OBJECT, offsetof(type, member), sizeof(((type *)0)->member), .element = (record)
#define JSON_ARRAY_MEMBER(type, member, count_member, record)                                \
	JSON_ARRAY, offsetof(type, member), sizeof(*((type *)0)->member), .element = (record),   \
	.count_offset = offsetof(type, count_member) +                                          \
			0 * sizeof(_Generic(&((type *)0)->count_member, size_t *: 1))
#define JSON_PRESENT(type, member) \
	(1 + offsetof(type, member) + 0 * sizeof(_Generic(&((type *)0)->member, bool *: 1)))

struct json_record {
	const char *name;         /* what one object is, for docs: "code entry" */
	const struct json_field *fields;
	size_t count;
	/* Optional: checks between members once all are read ("its counts give ..."). */
	int (*finish)(const struct json_reader *reader, const cJSON *object, const char *path,
		      void *record);
};

#define JSON_RECORD(name, fields, finish) { name, fields, sizeof(fields) / sizeof((fields)[0]), finish }

/* Reads `object` (which must be a JSON object) at `path` into `record`, field by field in the
 * table's order; keys the table does not name are left alone. Returns 0 or -1 with the reader's
 * error set ("code[2].messages is missing", "... is not a string"). Owned strings already read
 * stay in the record on failure, for its owner to release. */
int json_record_read(const struct json_reader *reader, const struct json_record *record,
		     const cJSON *object, const char *path, void *into);

/* Adds every member of `record` from `from` to `object`, in the table's order. Returns 0, or -1
 * when out of memory (some members may have been added). */
int json_record_write(const struct json_record *record, const void *from, cJSON *object);

/* A new object with every member; NULL when out of memory. */
cJSON *json_record_object(const struct json_record *record, const void *from);

/* An array of `count` records `size` bytes apart, each written as an object; NULL when out of
 * memory. */
cJSON *json_record_array(const struct json_record *record, const void *items, size_t size,
			 size_t count);

/* Reads the array at `path` into a new array of `size`-byte records (one spare, zeroed), each
 * read with json_record_read; *count counts those begun, so a failed one is released too. */
int json_record_read_array(const struct json_reader *reader, const struct json_record *record,
			   const cJSON *array, const char *path, size_t size, void **items,
			   size_t *count);

/* Type and need as docs/results-schema.md spells them ("count", "optional"). */
const char *json_type_name(enum json_type type);
const char *json_need_name(enum json_need need);

#endif
