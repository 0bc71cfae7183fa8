/* Test fixture: the library allocates and frees two blocks a message (fixture_allocate). */
#include "../lib/fixture.h"
#include <costgate/harness.h>

static size_t body(unsigned char *buffer, size_t capacity)
{
	(void)capacity;
	buffer[0] = 'x';
	return 1;
}

static int handle(struct costgate_service *service, const unsigned char *message, size_t length)
{
	(void)service;
	(void)message;
	return fixture_allocate(16 + length);
}

const struct costgate_scenario costgate_scenario = {
	.name = "allocates",
	.title = "test fixture: two blocks allocated and freed a message",
	.gated = true,
	.steady_allocations = 2,
	.cold_allocations = 2,
	.body = body,
	.handle = handle,
};
