/* checksum: the CRC-32 of a 1 KiB message, as a receiver checks each frame it gets. */
#include <string.h>

#include <costgate/harness.h>

#include "crc32.h"

static size_t body(unsigned char *buffer, size_t capacity)
{
	size_t i, length = capacity < 1024 ? capacity : 1024;

	for (i = 0; i < length; i++)
		buffer[i] = (unsigned char)(i * 31 + 7);
	return length;
}

static int handle(struct costgate_service *service, const unsigned char *message, size_t length)
{
	(void)service;
	COSTGATE_KEEP(crc32_update(0, message, length));
	return 0;
}

const struct costgate_scenario costgate_scenario = {
	.name = "checksum",
	.title = "the CRC-32 of a 1 KiB message",
	.gated = true,
	.steady_allocations = 0,
	.cold_allocations = 0,
	.body = body,
	.handle = handle,
};
