/* steady: a handler that touches the body and never allocates (the tests add a malloc). */
#include <stdlib.h>
#include <string.h>

#include <costgate/harness.h>

static size_t body(unsigned char *buffer, size_t capacity)
{
	(void)capacity;
	memset(buffer, 'x', 64);
	return 64;
}

static int handle(struct costgate_service *service, const unsigned char *body, size_t length)
{
	(void)service;
	COSTGATE_KEEP(body[length - 1]);
	/* EXTRA-ALLOCATION */
	return 0;
}

const struct costgate_scenario costgate_scenario = {
	.name = "steady",
	.title = "touch the body, no allocation",
	.gated = true,
	.steady_allocations = 0,
	.cold_allocations = 0,
	.body = body,
	.handle = handle,
};
