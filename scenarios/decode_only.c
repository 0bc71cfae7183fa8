/* decode_only: consume_json's decode in a hand-written loop with no queue. The raw baseline:
 * consume_json minus this is what the harness costs. */
#include <costgate/harness.h>
#include "order.h"

static size_t body(unsigned char *buffer, size_t capacity)
{
	return order_body(buffer, capacity, 512);
}

const struct costgate_scenario costgate_scenario = {
	.name = "decode_only",
	.title = "raw loop, 512 B JSON decoded into a small struct, no queue",
	.gated = true,
	/* DHAT at 1/1000/2000: 19 / 19000 / 38000 blocks: the same decode as consume_json. */
	.steady_allocations = 19,
	.cold_allocations = 19,
	.raw = true,
	.body = body,
	.handle = order_handle,
};
