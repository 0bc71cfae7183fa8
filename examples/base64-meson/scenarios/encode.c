/* encode: a 512-byte binary message encoded as Base64 into a stack buffer. */
#include <costgate/harness.h>

#include "base64.h"

static size_t body(unsigned char *buffer, size_t capacity)
{
	size_t i, length = capacity < 512 ? capacity : 512;

	for (i = 0; i < length; i++)
		buffer[i] = (unsigned char)(i * 167 + 13);
	return length;
}

static int handle(struct costgate_service *service, const unsigned char *message, size_t length)
{
	char text[COSTGATE_BODY_MAX / 3 * 4 + 8];

	(void)service;
	if (base64_encode(message, length, text, sizeof(text)) == 0)
		return -1;
	COSTGATE_KEEP(text[0]);
	return 0;
}

const struct costgate_scenario costgate_scenario = {
	.name = "encode",
	.title = "a 512-byte message encoded as Base64",
	.gated = true,
	.steady_allocations = 0,
	.cold_allocations = 0,
	.body = body,
	.handle = handle,
};
