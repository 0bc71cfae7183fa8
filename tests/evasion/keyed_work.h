/* What a library keyed on being measured skips when it believes it is: a second parse of every
 * message, two heap blocks and a checksum. The scenarios that include this set `measured` the way
 * each channel allows (keyed_on_*.c); measured, they look cheap (no block a message, as their
 * floors say), and natively they do the work. Their messages and declaration are those of every
 * test-only scenario (tests/scenarios/test_only.h). */
#ifndef COSTGATE_TEST_KEYED_WORK_H
#define COSTGATE_TEST_KEYED_WORK_H

#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "../scenarios/test_only.h"

static int measured; /* the library believes it is measured */

static int second_parse(const unsigned char *message, size_t length)
{
	char *copy = malloc(length + 1), *again;
	unsigned long value = length;
	size_t i;

	if (copy == NULL)
		return -1;
	memcpy(copy, message, length);
	copy[length] = '\0';
	again = malloc(2 * length + 1);
	if (again == NULL) {
		free(copy);
		return -1;
	}
	/* A block the compiler must believe used: clang drops a malloc whose block is only tested
	 * and freed, and with it one of the two blocks the test counts. */
	__asm__ volatile("" : : "g"(again) : "memory");
	for (i = 0; i < 2000; i++) {
		value = value * 2654435761u + (unsigned char)copy[i % length];
		COSTGATE_KEEP(value);
	}
	free(again);
	free(copy);
	return 0;
}

static int keyed_handle(struct service *service, const unsigned char *message, size_t length)
{
	(void)service;
	return measured ? 0 : second_parse(message, length);
}

#endif
