/* Test-only: a handler that dies of SIGSEGV inside the region. gate must report a measurement
 * failure naming it, never a pass. */
#include <signal.h>

#include <costgate/harness.h>

#include "test_only.h"

static int handle(struct costgate_service *service, const unsigned char *message, size_t length)
{
	(void)service;
	(void)message;
	(void)length;
	raise(SIGSEGV);
	return 0;
}

TEST_ONLY_SCENARIO("segfaults", "crashes in its handler", .handle = handle);
