/* A walk over a linked list of 16-byte nodes spread over 8 MiB, 256 nodes a message. Built two
 * ways that run the same instructions: with WALK_STRIDE 1 the list runs through the array in
 * order (four nodes to a cache line); with a large odd stride each next node is on another line,
 * far away. Only estimated cycles tell them apart (tests/metrics). WALK_GATE_CYCLES 0 leaves
 * cycles ungated. WALK_OUTSIDE_BY_PID adds work before the region that depends on the process's
 * id, so no two runs of the program count the same instructions outside the region. */
#include <stdint.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include <costgate/harness.h>

#include "test_only.h"

#ifndef WALK_STRIDE
#define WALK_STRIDE 1
#endif
#ifndef WALK_GATE_CYCLES
#define WALK_GATE_CYCLES 1
#endif

#define WALK_NODES (1u << 19) /* 16 bytes each: 8 MiB */
#define WALK_STEPS 256

struct node {
	struct node *next;
	uint64_t value;
};

struct walk {
	struct node *nodes;
	struct node *cursor;
	uint64_t sum;
};

#ifdef WALK_OUTSIDE_BY_PID
static volatile uint64_t walk_outside;

/* The process's id and the clock's nanoseconds: two runs doing the same work here once in about
 * a thousand. */
__attribute__((constructor)) static void walk_outside_work(void)
{
	struct timespec now;
	long i, rounds;

	clock_gettime(CLOCK_MONOTONIC, &now);
	rounds = 1 + ((long)getpid() + now.tv_nsec) % 997;

	for (i = 0; i < rounds; i++)
		walk_outside += (uint64_t)i;
}
#endif

/* Read at run time, so both builds compute the same order with the same instructions. */
static volatile uint32_t walk_stride = WALK_STRIDE;

static size_t walk_body(unsigned char *buffer, size_t capacity)
{
	return text_body(buffer, capacity, "walk");
}

static int walk_start(struct costgate_service *service)
{
	struct walk *walk = calloc(1, sizeof(*walk));
	uint32_t stride = walk_stride, i;

	if (walk == NULL || (walk->nodes = calloc(WALK_NODES, sizeof(struct node))) == NULL) {
		free(walk);
		return -1;
	}
	for (i = 0; i < WALK_NODES; i++) {
		uint32_t here = (i * stride) & (WALK_NODES - 1);
		uint32_t next = ((i + 1) * stride) & (WALK_NODES - 1);

		walk->nodes[here].next = &walk->nodes[next];
		walk->nodes[here].value = i;
	}
	walk->cursor = &walk->nodes[0];
	service->state = walk;
	return 0;
}

static int walk_handle(struct costgate_service *service, const unsigned char *body, size_t length)
{
	struct walk *walk = service->state;
	struct node *node = walk->cursor;
	unsigned step;

	(void)body;
	(void)length;
	for (step = 0; step < WALK_STEPS; step++) {
		walk->sum += node->value;
		node = node->next;
	}
	walk->cursor = node;
	COSTGATE_KEEP(walk->sum);
	return 0;
}

static void walk_stop(struct costgate_service *service)
{
	struct walk *walk = service->state;

	free(walk->nodes);
	free(walk);
}

TEST_ONLY_DECLARATION("list_walk",
		      "a list walk over 8 MiB: the same instructions, in order or scattered",
		      .gated = true, .steady_allocations = 0, .cold_allocations = 2,
		      .gate_cycles = WALK_GATE_CYCLES, .body = walk_body, .start = walk_start,
		      .handle = walk_handle, .stop = walk_stop);
