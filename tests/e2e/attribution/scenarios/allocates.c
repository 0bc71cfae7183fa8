/* Test fixture: the library allocates and frees two blocks a message (fixture_allocate). */
#include "../lib/fixture.h"
#include "test_only.h"

static int handle(struct costgate_service *service, const unsigned char *message, size_t length)
{
	(void)service;
	(void)message;
	return fixture_allocate(16 + length);
}

TEST_ONLY_SCENARIO("allocates", "two blocks allocated and freed a message", .steady_allocations = 2,
		   .cold_allocations = 2, .handle = handle);
