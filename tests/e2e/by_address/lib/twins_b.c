/* The other static twin (twins_a.c has the first). The test gives this one more rounds. */
#include "by_address.h"

#define TWIN_ROUNDS 1

static __attribute__((noinline)) unsigned twin(const unsigned char *bytes, size_t length)
{
	unsigned sum = 9;
	size_t i, r;

	for (r = 0; r < TWIN_ROUNDS; r++)
		for (i = 0; i < length; i++)
			sum = sum * 43u + bytes[i] + (unsigned)r;
	return sum;
}

unsigned twins_b(const unsigned char *bytes, size_t length)
{
	return twin(bytes, length) + 2u;
}
