/* consume_json: a 512-byte JSON order decoded with cJSON into a small struct, then settled. */
#include <costgate/harness.h>
#include "order.h"

static size_t body(unsigned char *buffer, size_t capacity)
{
	return order_body(buffer, capacity, 512);
}

const struct costgate_scenario costgate_scenario = {
	.name = "consume_json",
	.title = "consume, 512 B JSON decoded into a small struct, settle each",
	.gated = true,
	/* DHAT under the region at 1/1000/2000 deliveries: 19 / 19000 / 38000 blocks, so 19 per
	 * message (cJSON: a node per value, a copy per key and string) and 19 cold: the service
	 * has no state of its own and the queue's slots were filled outside the region. */
	.steady_allocations = 19,
	.cold_allocations = 19,
	.body = body,
	.handle = order_handle,
	COSTGATE_RAW_COUNTERPART("decode_only") /* gate time: the same decode, no queue */
};
