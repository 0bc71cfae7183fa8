/* Test-only evasion: work skipped when the program runs under valgrind (RUNNING_ON_VALGRIND, a
 * client request). gate must find the client-request preamble in the executable before measuring
 * it (exit 3). */
#include <valgrind/valgrind.h>

#include "harness.h"
#include "unseen_work.h"

static int handle(struct service *service, const unsigned char *message, size_t length)
{
	(void)service;
	if (!RUNNING_ON_VALGRIND)
		COSTGATE_KEEP(checksum(message, length));
	return 0;
}

TEST_ONLY_SCENARIO("client_request", "skips its work under valgrind", .handle = handle);
