/* Test-only: a handler whose work depends on the clock, which a gated scenario must never do
 * (docs/design.md rule 5). gate --verify must catch it: two runs of the same count differ. */
#include <time.h>

#include <costgate/harness.h>

#include "test_only.h"

static int handle(struct costgate_service *service, const unsigned char *message, size_t length)
{
	struct timespec now;
	long spins, i;

	(void)service;
	(void)message;
	(void)length;
	clock_gettime(CLOCK_MONOTONIC, &now);
	spins = now.tv_nsec % 97;
	for (i = 0; i < spins; i++)
		COSTGATE_KEEP(i);
	return 0;
}

TEST_ONLY_SCENARIO("nondeterministic", "work that depends on the clock", .handle = handle);
