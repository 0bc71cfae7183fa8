/* The error a library call leaves for its caller: one message, written where the context is
 * known, in the project's one style ("cannot parse 'file': missing key 'pps'"). Library code
 * never prints or exits; main decides what to show and which exit code to use. */
#ifndef GATE_ERROR_H
#define GATE_ERROR_H

#include <stddef.h>

struct gate_error {
	char message[1024]; /* empty when no error has been set */
};

#define GATE_ERROR_INIT { { 0 } }

/* Sets the message (printf format). Always returns -1 so a call can end with
 * `return gate_error_set(err, ...)`. A NULL err is allowed and ignored. */
int gate_error_set(struct gate_error *err, const char *format, ...)
	__attribute__((format(printf, 2, 3)));

/* Puts "prefix: " in front of the current message, to add context on the way up. */
int gate_error_prefix(struct gate_error *err, const char *format, ...)
	__attribute__((format(printf, 2, 3)));

#endif
