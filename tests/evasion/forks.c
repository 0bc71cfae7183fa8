/* Test-only evasion: the service forks once at start and the child goes on working after the
 * parent has finished. Under valgrind the child writes output files of its own; with one name for
 * every process it would overwrite the run's evidence after gate has read it. gate must see the
 * second process (exit 3, "scenario forked") and keep every file. */
#include <unistd.h>

#include "harness.h"
#include "../scenarios/test_only.h"

static int start(struct service *service)
{
	service->state = NULL;
	if (fork() == 0) {
		sleep(1);
		_exit(0);
	}
	return 0;
}

TEST_ONLY_SCENARIO("forks", "forks a child that outlives the run", .start = start,
		   .handle = ignore_message);
