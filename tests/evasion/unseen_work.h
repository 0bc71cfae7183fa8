/* The work the evasion scenarios hide from valgrind (second_region.c, client_request.c,
 * loads_skip.h): a checksum of 20,000 steps over a message. Their messages, and their declaration,
 * are those of every test-only scenario (tests/scenarios/test_only.h). */
#ifndef COSTGATE_TEST_UNSEEN_WORK_H
#define COSTGATE_TEST_UNSEEN_WORK_H

#include <stddef.h>

#include "harness.h"
#include "../scenarios/test_only.h"

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

#endif
