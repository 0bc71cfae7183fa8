/* The error a library call leaves for its caller: one message, written where the context is
 * known, in the project's one style ("cannot parse 'file': missing key 'pps'"). Library code
 * never prints or exits; main decides what to show and which exit code to use. */
#ifndef GATE_ERROR_H
#define GATE_ERROR_H

#include <stdbool.h>
#include <stddef.h>

/* What kind of error it is, where a caller acts on it: only running out of memory so far (a
 * debug view that cannot be made for want of memory is not a reason to go on without it). */
enum gate_error_kind {
	GATE_ERROR_NONE,      /* no error, or none of a kind a caller tells apart */
	GATE_ERROR_NO_MEMORY, /* gate_error_oom */
};

struct gate_error {
	char message[1024]; /* empty when no error has been set */
	enum gate_error_kind kind;
};

#define GATE_ERROR_INIT { { 0 }, GATE_ERROR_NONE }

/* Sets the message (printf format). Always returns -1 so a call can end with
 * `return gate_error_set(err, ...)`. A NULL err is allowed and ignored. */
int gate_error_set(struct gate_error *err, const char *format, ...)
	__attribute__((format(printf, 2, 3)));

/* "out of memory", of kind GATE_ERROR_NO_MEMORY: the one way gate says it. Returns -1. */
int gate_error_oom(struct gate_error *err);

/* Whether err says gate ran out of memory (whatever context was put in front since). */
bool gate_error_is_oom(const struct gate_error *err);

/* Puts "prefix: " in front of the current message, to add context on the way up. */
int gate_error_prefix(struct gate_error *err, const char *format, ...)
	__attribute__((format(printf, 2, 3)));

#endif
