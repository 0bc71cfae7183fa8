/* disagrees: one block per message under valgrind and two without it, so DHAT and the native
 * counter cannot agree; gate --cross-check must fail it (exit 3) naming both figures. It tells
 * valgrind by the preload valgrind puts in its environment, not by a client request, which gate
 * refuses before measuring. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <costgate/harness.h>

static size_t body(unsigned char *buffer, size_t capacity)
{
	if (capacity < 1)
		return 0;
	buffer[0] = 'x';
	return 1;
}

static bool under_valgrind(void)
{
	const char *preload = getenv("LD_PRELOAD");

	return preload != NULL && strstr(preload, "vgpreload") != NULL;
}

static int handle(struct costgate_service *service, const unsigned char *message, size_t length)
{
	void *first = malloc(length), *second = under_valgrind() ? NULL : malloc(length);

	(void)service;
	(void)message;
	if (first == NULL)
		return -1;
	COSTGATE_KEEP(first);
	COSTGATE_KEEP(second);
	free(first);
	free(second);
	return 0;
}

const struct costgate_scenario costgate_scenario = {
	.name = "disagrees",
	.title = "allocates one block more per message when valgrind is not there",
	.gated = false,
	.steady_allocations = 1,
	.cold_allocations = 1,
	.body = body,
	.handle = handle,
};
