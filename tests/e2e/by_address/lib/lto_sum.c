/* A unit of its own: with -flto, lto_sum is inlined into lto_checksum (another unit), and that into
 * the scenario's handle. The test gives it more rounds. */
#include "by_address.h"

#define LTO_ROUNDS 1

unsigned lto_sum(const unsigned char *bytes, size_t length);

unsigned lto_sum(const unsigned char *bytes, size_t length)
{
	unsigned sum = 0;
	size_t i, r;

	for (r = 0; r < LTO_ROUNDS; r++)
		for (i = 0; i < length; i++)
			sum = sum * 33u + bytes[i] + (unsigned)r;
	return sum;
}
