/* Test-only evasion: work skipped when the program runs under valgrind (RUNNING_ON_VALGRIND, a
 * client request). gate must find the client-request preamble in the executable before measuring
 * it (exit 3). */
#include <string.h>
#include <valgrind/valgrind.h>

#include "harness.h"

static unsigned long checksum(const unsigned char *message, size_t length)
{
	unsigned long value = length;
	int i;

	for (i = 0; i < 20000; i++) {
		value = value * 2654435761u + message[(size_t)i % length];
		COSTGATE_KEEP(value);
	}
	return value;
}

static size_t body(unsigned char *buffer, size_t capacity)
{
	(void)capacity;
	memcpy(buffer, "unseen", 6);
	return 6;
}

static int handle(struct service *service, const unsigned char *message, size_t length)
{
	(void)service;
	if (!RUNNING_ON_VALGRIND)
		COSTGATE_KEEP(checksum(message, length));
	return 0;
}

const struct scenario costgate_scenario = {
	.name = "client_request",
	.title = "test only: skips its work under valgrind",
	.gated = true,
	.body = body,
	.handle = handle,
};
