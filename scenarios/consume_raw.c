/* consume_raw: no decode, only dispatch and settle: what the harness itself costs a message. */
#include <costgate/harness.h>
#include "order.h"

static size_t body(unsigned char *buffer, size_t capacity)
{
	return order_body(buffer, capacity, 512);
}

static int handle(struct costgate_service *service, const unsigned char *body, size_t length)
{
	(void)service;
	COSTGATE_KEEP(body);
	COSTGATE_KEEP(length);
	return 0;
}

const struct costgate_scenario costgate_scenario = {
	.name = "consume_raw",
	.title = "consume, no decode: dispatch and settle only",
	.gated = true,
	/* DHAT at 1/1000/2000: 0 / 0 / 0 blocks: the delivery path never allocates. */
	.steady_allocations = 0,
	.cold_allocations = 0,
	.body = body,
	.handle = handle,
};
