/* Test-only evasion: a handler that skips its work while more than ten messages wait, as they do
 * through most of a measured run's drain (each phase's messages are all queued before it). Only
 * the first message and the last ten of each phase do the work: measured, a tenth of a block a
 * message at N = 200. */
#include "keyed_work.h"

static int backlog_handle(struct service *service, const unsigned char *message, size_t length)
{
	measured = costgate_queue_ready(service->requests) > 10;
	return keyed_handle(service, message, length);
}

TEST_ONLY_SCENARIO("keyed_on_backlog", "skips its work while more than ten messages wait",
		   .handle = backlog_handle, .steady_allocations = 1, .cold_allocations = 2);
