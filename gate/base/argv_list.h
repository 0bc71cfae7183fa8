/* The argument vector of a process gate starts, built one argument at a time: NULL-terminated
 * and grown as it is built, so no argument can run past its end or leave it unterminated (a
 * fixed array filled by hand once did both). Every string is copied and owned. Out of memory is
 * remembered, and said once by argv_list_vector, so a caller adds without checking each call. */
#ifndef GATE_ARGV_LIST_H
#define GATE_ARGV_LIST_H

#include <stdbool.h>
#include <stddef.h>

struct argv_list {
	char **items;    /* count strings and a NULL after them; owned, each string too */
	size_t count;
	size_t capacity; /* room for this many strings, the NULL beside them */
	bool failed;     /* an add ran out of memory: the list is incomplete */
};

#define ARGV_LIST_INIT { NULL, 0, 0, false }

/* Appends a copy of `argument` (NULL is refused as out of memory would be: an argv holds none). */
void argv_list_add(struct argv_list *list, const char *argument);

/* Appends a formatted argument ("--log-file=%s.%%p"). */
void argv_list_addf(struct argv_list *list, const char *format, ...)
	__attribute__((format(printf, 2, 3)));

/* Appends every string of a NULL-terminated array. */
void argv_list_add_all(struct argv_list *list, const char *const *arguments);

/* The vector for execve and posix_spawn, NULL-terminated; NULL when an add failed or nothing was
 * added. Points into the list, valid until the next add or argv_list_release. */
char *const *argv_list_vector(const struct argv_list *list);

/* Frees every string and the vector; leaves ARGV_LIST_INIT. NULL-safe. */
void argv_list_release(struct argv_list *list);

#endif
