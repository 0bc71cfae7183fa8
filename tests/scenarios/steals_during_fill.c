/* Test-only: a generator that consumes from the queue while it is being filled. The harness's
 * fill check must catch it (exit 1). */
#include <costgate/harness.h>

#include "test_only.h"

static struct costgate_queue *requests;

static int start(struct costgate_service *service)
{
	requests = service->requests;
	return 0;
}

static size_t body(unsigned char *buffer, size_t capacity)
{
	(void)capacity;
	if (requests != NULL)
		(void)costgate_queue_next(requests);
	buffer[0] = 'x';
	return 1;
}

TEST_ONLY_DECLARATION("steals_during_fill", "consumes while the queue is filled", .body = body,
		      .start = start, .handle = ignore_message);
