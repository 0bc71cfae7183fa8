/* Test-only evasion: the client request lives in a shared library of the project's build tree
 * (libevasion_toggle.so, found through the executable's run path), which turns callgrind's
 * collection off around the expensive part. gate must read that library too (exit 3). */
#include "harness.h"
#include "../scenarios/test_only.h"

unsigned long evasion_hidden_checksum(const unsigned char *message, size_t length);

static int handle(struct service *service, const unsigned char *message, size_t length)
{
	(void)service;
	COSTGATE_KEEP(evasion_hidden_checksum(message, length));
	return 0;
}

TEST_ONLY_SCENARIO("toggles_in_library", "a library of the build tree toggles collection",
		   .handle = handle);
