/* reply: consume as consume_json, then publish a reply onto the reply queue; the requester side
 * takes each reply. The publish path is inside the region, so it is counted. */
#include <stdio.h>

#include <costgate/harness.h>
#include "order.h"

static size_t body(unsigned char *buffer, size_t capacity)
{
	return order_body(buffer, capacity, 512);
}

static int handle(struct costgate_service *service, const unsigned char *body, size_t length)
{
	struct order order;
	char reply[128];
	int reply_length;

	if (order_decode(&order, body, length) != 0)
		return -1;
	reply_length = snprintf(reply, sizeof(reply), "{\"id\":%lld,\"status\":\"accepted\"}",
				(long long)order.id);
	if (reply_length < 0 || (size_t)reply_length >= sizeof(reply))
		return -1;
	return costgate_queue_publish(service->replies, reply, (size_t)reply_length);
}

static int handle_reply(struct costgate_service *service, const unsigned char *body, size_t length)
{
	(void)service;
	if (length == 0 || body[0] != '{')
		return -1;
	COSTGATE_KEEP(body[length - 1]);
	return 0;
}

const struct costgate_scenario costgate_scenario = {
	.name = "reply",
	.title = "consume 512 B JSON, decode, publish a reply and take it",
	.gated = true,
	/* DHAT at 1/1000/2000: 20 / 19001 / 38001 blocks: 19 per message (the decode; the reply
	 * reuses its slot) and 20 cold: the decode plus the reply slot's first body buffer. */
	.steady_allocations = 19,
	.cold_allocations = 20,
	.body = body,
	.handle = handle,
	.handle_reply = handle_reply,
};
