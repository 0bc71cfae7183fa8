/* The work the evasion scenarios hide from valgrind (client_request.c, loads_skip.h): a checksum
 * of 20,000 steps over a message, "unseen". */
#ifndef COSTGATE_TEST_UNSEEN_WORK_H
#define COSTGATE_TEST_UNSEEN_WORK_H

#include <stddef.h>
#include <string.h>

#include "harness.h"

static inline unsigned long checksum(const unsigned char *message, size_t length)
{
	unsigned long value = length;
	int i;

	for (i = 0; i < 20000; i++) {
		value = value * 2654435761u + message[(size_t)i % length];
		COSTGATE_KEEP(value);
	}
	return value;
}

static inline size_t body(unsigned char *buffer, size_t capacity)
{
	(void)capacity;
	memcpy(buffer, "unseen", 6);
	return 6;
}

#endif
