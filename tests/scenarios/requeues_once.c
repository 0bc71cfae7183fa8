/* Test-only: a handler that publishes the first message back onto its own queue, so the drain
 * handles one more message than was asked for. The harness's count check must catch it. */
#include <costgate/harness.h>

#include "test_only.h"

static int handle(struct costgate_service *service, const unsigned char *message, size_t length)
{
	static int requeued;

	if (requeued)
		return 0;
	requeued = 1;
	return costgate_queue_publish(service->requests, message, length);
}

TEST_ONLY_DECLARATION("requeues_once", "handles one message more than asked for",
		      .body = one_byte_body, .handle = handle);
