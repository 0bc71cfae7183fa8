/* Test-only: starting the service forks a child that leaves the run's session and outlives it,
 * then, 2 s later, ends (under valgrind its tool then writes its output file over the run's).
 * gate must kill it when the run ends and fail the scenario: left 1 process running. */
#include <unistd.h>

#include <costgate/harness.h>

#include "test_only.h"

static int start(struct costgate_service *service)
{
	(void)service;
	if (fork() == 0) {
		setsid();
		sleep(2);
		_exit(0);
	}
	return 0;
}

TEST_ONLY_SCENARIO("leaves_a_child", "leaves a detached child running", .start = start,
		   .handle = keep_message);
