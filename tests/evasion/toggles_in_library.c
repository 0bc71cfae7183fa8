/* Test-only evasion: the client request lives in a shared library of the project's build tree
 * (libevasion_toggle.so, found through the executable's run path), which turns callgrind's
 * collection off around the expensive part. gate must read that library too (exit 3). */
#include <string.h>

#include "harness.h"

unsigned long evasion_hidden_checksum(const unsigned char *message, size_t length);

static size_t body(unsigned char *buffer, size_t capacity)
{
	(void)capacity;
	memcpy(buffer, "toggle", 6);
	return 6;
}

static int handle(struct service *service, const unsigned char *message, size_t length)
{
	(void)service;
	COSTGATE_KEEP(evasion_hidden_checksum(message, length));
	return 0;
}

const struct scenario costgate_scenario = {
	.name = "toggles_in_library",
	.title = "test only: a library of the build tree toggles collection",
	.gated = true,
	.body = body,
	.handle = handle,
};
