/* What the test-only scenarios share where it is not their point: a message of one byte, 'x', and
 * a handler that does nothing with it (ignore_message) or keeps it from being optimised away
 * (keep_message). */
#ifndef COSTGATE_TEST_ONLY_H
#define COSTGATE_TEST_ONLY_H

#include <stddef.h>

#include <costgate/harness.h>

static inline size_t one_byte_body(unsigned char *buffer, size_t capacity)
{
	(void)capacity;
	buffer[0] = 'x';
	return 1;
}

static inline int ignore_message(struct costgate_service *service, const unsigned char *message,
				 size_t length)
{
	(void)service;
	(void)message;
	(void)length;
	return 0;
}

static inline int keep_message(struct costgate_service *service, const unsigned char *message,
			       size_t length)
{
	(void)service;
	COSTGATE_KEEP(message);
	COSTGATE_KEEP(length);
	return 0;
}

#endif
