/* batch: deliveries assembled into batches of 64 on the consumer, each decoded, settled once per
 * batch. */
#include <costgate/harness.h>
#include "order.h"

static size_t body(unsigned char *buffer, size_t capacity)
{
	return order_body(buffer, capacity, 512);
}

const struct costgate_scenario costgate_scenario = {
	.name = "batch",
	.title = "consume 512 B JSON in batches of 64, settle per batch",
	.gated = true,
	/* DHAT at 1/1000/2000: 20 / 19001 / 38001 blocks: 19 per message (the decode) and 20
	 * cold: the decode plus the batch array allocated when the consumer starts. */
	.steady_allocations = 19,
	.cold_allocations = 20,
	.batch_size = 64,
	.body = body,
	.handle = order_handle,
	COSTGATE_RAW_COUNTERPART("decode_only") /* gate time: the same decode, no queue */
};
