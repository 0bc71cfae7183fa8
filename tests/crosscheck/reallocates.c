/* reallocates: every way DHAT counts a block, so the native counter must count each the same.
 * Per message, inside the region: a malloc, a realloc that grows it and one that shrinks it (each
 * one more block, on the malloc's site), a realloc(NULL, n) (a malloc), a malloc freed by
 * realloc(p, 0) (one block, and none for the realloc), and a realloc of a block first allocated
 * outside the region (no block: DHAT puts it on its first site, outside). The service's state is
 * allocated at start, inside the region, and grown at stop, outside it: one more block, on the
 * start's site, in the run's end but in no count. */
#include <stdlib.h>

#include <costgate/harness.h>

#include "../scenarios/test_only.h"

static void *outside; /* allocated by the body generator, outside the region */

static size_t body(unsigned char *buffer, size_t capacity)
{
	if (outside == NULL)
		outside = malloc(8);
	if (capacity < 4)
		return 0;
	buffer[0] = 'b', buffer[1] = 'o', buffer[2] = 'd', buffer[3] = 'y';
	return 4;
}

static int start(struct costgate_service *service)
{
	service->state = malloc(16);
	return service->state != NULL ? 0 : -1;
}

static int handle(struct costgate_service *service, const unsigned char *message, size_t length)
{
	static size_t outside_size = 8;
	unsigned char *block = malloc(length), *grown, *shrunk, *fresh, *gone;

	/* Each block is kept, as disagrees.c keeps its own: clang drops a chain of allocations
	 * whose pointers go nowhere but to realloc and free, and DHAT would count none of them. */
	(void)service;
	COSTGATE_KEEP(block);
	if (block == NULL || (grown = realloc(block, 4096)) == NULL)
		return -1;
	COSTGATE_KEEP(grown);
	if ((shrunk = realloc(grown, 8)) == NULL || (fresh = realloc(NULL, 24)) == NULL)
		return -1;
	COSTGATE_KEEP(shrunk);
	COSTGATE_KEEP(fresh);
	if ((gone = malloc(32)) == NULL)
		return -1;
	COSTGATE_KEEP(gone);
	gone = realloc(gone, 0); /* frees: glibc and tcmalloc return NULL */
	free(gone);
	outside_size = outside_size == 8 ? 4096 : 8;
	if ((outside = realloc(outside, outside_size)) == NULL)
		return -1;
	shrunk[0] = message[0];
	COSTGATE_KEEP(shrunk[0]);
	free(shrunk);
	free(fresh);
	return 0;
}

static void stop(struct costgate_service *service)
{
	void *grown = realloc(service->state, 1024);

	free(grown != NULL ? grown : service->state);
	free(outside);
	outside = NULL;
}

/* Its floors, as DHAT counts at 1/100/200: 6 / 501 / 1001 blocks: 5 per message (two mallocs, two
 * reallocs, realloc(NULL)); cold 1 at start + 5. The realloc at stop comes after the snapshot at
 * each count, so no count holds it (docs/design.md rule 10). */
TEST_ONLY_DECLARATION("reallocates",
		      "every kind of realloc DHAT counts, inside and outside the region",
		      .gated = false, .steady_allocations = 5, .cold_allocations = 6, .body = body,
		      .start = start, .handle = handle, .stop = stop);
