/* consume_json_kilobyte: consume_json with a 1 KiB body. */
#include <costgate/harness.h>
#include "order.h"

static size_t body(unsigned char *buffer, size_t capacity)
{
	return order_body(buffer, capacity, 1024);
}

const struct costgate_scenario costgate_scenario = {
	.name = "consume_json_kilobyte",
	.title = "consume, 1 KiB JSON decoded into a small struct, settle each",
	.gated = true,
	/* DHAT at 1/1000/2000: 19 / 19000 / 38000 blocks: as consume_json (the note string is
	 * longer, not more). */
	.steady_allocations = 19,
	.cold_allocations = 19,
	.body = body,
	.handle = order_handle,
};
