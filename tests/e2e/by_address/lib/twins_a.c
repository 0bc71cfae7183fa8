/* One of two static functions named twin, each in its own file, out of line: callgrind names both
 * "twin" in one object, and only their addresses tell them apart. */
#include "by_address.h"

static __attribute__((noinline)) unsigned twin(const unsigned char *bytes, size_t length)
{
	unsigned sum = 5;
	size_t i;

	for (i = 0; i < length; i++)
		sum = sum * 41u + bytes[i];
	return sum;
}

unsigned twins_a(const unsigned char *bytes, size_t length)
{
	return twin(bytes, length) + 1u;
}
