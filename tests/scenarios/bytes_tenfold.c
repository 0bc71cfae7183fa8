/* One heap block a message, BLOCK_BYTES long (64 by default): built with 640 it allocates the
 * same number of blocks and ten times the bytes, which its declared bytes floor catches; with
 * COLD_PEAK_FLOOR it also declares the process's peak live heap in the 1-delivery run; with
 * GATE_METRICS it asks for metrics gated on request by key, and with FLOOR_KEY and FLOOR_VALUE it
 * declares one more floor by key (tests/metrics). */
#include <stdlib.h>

#include <costgate/harness.h>

#include "test_only.h"

#ifndef BLOCK_BYTES
#define BLOCK_BYTES 64
#endif
/* The bytes floors it declares: a block's bytes unless told (a variant that allocates more and
 * declares it too breaks no floor, only a limit on bytes). */
#ifndef BYTES_FLOOR
#define BYTES_FLOOR 64
#endif
/* The rest it declares only when told: 0 and NULL are none. */
#ifndef COLD_PEAK_FLOOR
#define COLD_PEAK_FLOOR 0
#endif
#ifndef GATE_METRICS
#define GATE_METRICS NULL
#endif

/* Read at run time: the size never becomes a constant the compiler could fold differently. */
static volatile size_t block_bytes = BLOCK_BYTES;

static size_t tenfold_body(unsigned char *buffer, size_t capacity)
{
	return text_body(buffer, capacity, "bytes");
}

static int tenfold_handle(struct costgate_service *service, const unsigned char *body,
			  size_t length)
{
	void *block = malloc(block_bytes);

	(void)service;
	(void)body;
	(void)length;
	if (block == NULL)
		return -1;
	COSTGATE_KEEP(block);
	free(block);
	return 0;
}

#ifdef FLOOR_KEY
static const struct costgate_floor more_floors[] = { { FLOOR_KEY, FLOOR_VALUE }, { NULL, 0 } };
#define MORE_FLOORS more_floors
#else
#define MORE_FLOORS NULL
#endif

TEST_ONLY_DECLARATION("bytes_tenfold", "one heap block a message: 64 bytes, or ten times that",
		      .gated = true, .steady_allocations = 1, .cold_allocations = 1,
		      .steady_bytes = BYTES_FLOOR, .cold_bytes = BYTES_FLOOR,
		      .cold_peak_bytes = COLD_PEAK_FLOOR, .body = tenfold_body,
		      .handle = tenfold_handle, .gate_metrics = GATE_METRICS,
		      .floors = MORE_FLOORS);
