/* A scenario whose cost can move outside the region: its body generator encodes each message
 * with encode_block, BODY_ROUNDS times over, into a body of BODY_BYTES bytes; the handler reads
 * four bytes of it, whatever its length. Built with more rounds, the fill before each drain
 * costs more and the region does not (tests/e2e/test_fill.sh). */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <costgate/harness.h>

#include "test_only.h"

#ifndef BODY_ROUNDS
#define BODY_ROUNDS 1
#endif
#ifndef BODY_BYTES
#define BODY_BYTES 64
#endif

static volatile uint32_t body_seed = 17;

/* A project function under the body generator: what a breach outside the region names. */
__attribute__((noinline, noipa)) static uint32_t encode_block(unsigned char *block, size_t length)
{
	uint32_t hash = body_seed;
	size_t i;
	int round;

	for (round = 0; round < BODY_ROUNDS; round++)
		for (i = 0; i < length; i++)
			hash = hash * 31u + block[i] + (uint32_t)round;
	return hash;
}

static size_t body_make(unsigned char *buffer, size_t capacity)
{
	uint32_t hash;

	if (capacity < BODY_BYTES)
		return 0;
	memset(buffer, 'b', BODY_BYTES);
	hash = encode_block(buffer, BODY_BYTES);
	memcpy(buffer, &hash, sizeof(hash));
	return BODY_BYTES;
}

static int body_handle(struct costgate_service *service, const unsigned char *body, size_t length)
{
	uint32_t word;

	(void)service;
	if (length < sizeof(word))
		return -1;
	memcpy(&word, body, sizeof(word));
	COSTGATE_KEEP(word);
	return 0;
}

TEST_ONLY_DECLARATION("body_work",
		      "a body generator that encodes each message; a handler that reads four bytes",
		      .gated = true, .steady_allocations = 0, .cold_allocations = 0,
		      .body = body_make, .handle = body_handle);
