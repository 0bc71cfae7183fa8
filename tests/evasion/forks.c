/* Test-only evasion: the service forks once at start and the child goes on working after the
 * parent has finished. Under valgrind the child writes output files of its own; with one name for
 * every process it would overwrite the run's evidence after gate has read it. gate must see the
 * second process (exit 3, "scenario forked") and keep every file. */
#include <string.h>
#include <unistd.h>

#include "harness.h"

static int start(struct service *service)
{
	service->state = NULL;
	if (fork() == 0) {
		sleep(1);
		_exit(0);
	}
	return 0;
}

static size_t body(unsigned char *buffer, size_t capacity)
{
	(void)capacity;
	memcpy(buffer, "forked", 6);
	return 6;
}

static int handle(struct service *service, const unsigned char *message, size_t length)
{
	(void)service;
	(void)message;
	(void)length;
	return 0;
}

const struct scenario costgate_scenario = {
	.name = "forks",
	.title = "test only: forks a child that outlives the run",
	.gated = true,
	.body = body,
	.start = start,
	.handle = handle,
};
