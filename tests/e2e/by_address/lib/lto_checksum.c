/* Calls lto_sum in another unit: only link-time optimisation inlines it here. */
#include "by_address.h"

unsigned lto_sum(const unsigned char *bytes, size_t length);

unsigned lto_checksum(const unsigned char *bytes, size_t length)
{
	return lto_sum(bytes, length) * 3u + 1u;
}
