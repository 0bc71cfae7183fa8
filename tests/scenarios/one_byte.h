/* The message of the test-only scenarios whose point is not the message: one byte, 'x'. */
#ifndef COSTGATE_TEST_ONE_BYTE_H
#define COSTGATE_TEST_ONE_BYTE_H

#include <stddef.h>

static size_t one_byte_body(unsigned char *buffer, size_t capacity)
{
	(void)capacity;
	buffer[0] = 'x';
	return 1;
}

#endif
