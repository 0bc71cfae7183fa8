/* disagrees: one block per message under valgrind and two without it, so DHAT and the native
 * counter cannot agree; gate --cross-check must fail it (exit 3) naming both figures. It tells
 * valgrind by the preload valgrind puts in its environment, not by a client request, which gate
 * refuses before measuring. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <costgate/harness.h>

#include "../scenarios/test_only.h"

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

TEST_ONLY_DECLARATION("disagrees",
		      "allocates one block more per message when valgrind is not there",
		      .gated = false, .steady_allocations = 1, .cold_allocations = 1,
		      .body = one_byte_body, .handle = handle);
