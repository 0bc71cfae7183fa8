/* An allocation-heavy service whose heap never settles: each message builds and frees a tree of
 * blocks of varied sizes, grows a buffer with realloc, and replaces one of 32 long-lived cache
 * entries, drawn from a sequence, with a block of a drawn size. The tree and the buffer repeat
 * every 40 messages and the draw runs the same instructions whatever it draws, so the service's
 * own instructions per message are the same over any multiple of 40 deliveries (200, 1000, 4000),
 * while glibc malloc's work per message depends on how full and fragmented the heap already is,
 * and grows with the records it keeps: the figure that moves with N (docs/metrics.md, the
 * allocator's instructions). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <costgate/harness.h>

#include "test_only.h"

#define HEAP_ENTRIES 32 /* long-lived blocks, one replaced per message */
#define HEAP_NODES 48   /* short-lived blocks per message */
#define HEAP_PERIOD 40  /* every size pattern repeats after this many messages */

struct heap_state {
	unsigned char *entries[HEAP_ENTRIES];
	uint64_t message;
	uint32_t draw;      /* a linear congruential sequence: which entry, and its new size */
	uint64_t checksum;
	void *kept;         /* records kept for the service's lifetime, each linking the one before */
};

static size_t heap_body(unsigned char *buffer, size_t capacity)
{
	return text_body(buffer, capacity, "heap");
}

static int heap_start(struct costgate_service *service)
{
	struct heap_state *state = calloc(1, sizeof(*state));

	if (state == NULL)
		return -1;
	service->state = state;
	return 0;
}

/* The size of a short-lived node: 16 to 775 bytes, the pattern shifting with the phase. */
static size_t node_size(unsigned node, unsigned phase)
{
	return 16 + ((node * 37u + phase * 11u) % 96u) * 8u;
}

/* A tree's worth of blocks, half of them freed early: holes of every size. */
static int build_and_free_nodes(struct heap_state *state, unsigned phase)
{
	unsigned char *nodes[HEAP_NODES];
	unsigned i;

	for (i = 0; i < HEAP_NODES; i++) {
		size_t size = node_size(i, phase);

		nodes[i] = malloc(size);
		if (nodes[i] == NULL)
			return -1;
		memset(nodes[i], (int)i, size);
		if (i % 3 == 2) {
			free(nodes[i - 1]);
			nodes[i - 1] = NULL;
		}
	}
	for (i = 0; i < HEAP_NODES; i++)
		if (nodes[i] != NULL)
			state->checksum += nodes[i][0];
	for (i = HEAP_NODES; i > 0; i--)
		free(nodes[i - 1]);
	return 0;
}

/* A printed document: a buffer grown by realloc as text is appended. */
static int print_document(struct heap_state *state, unsigned phase)
{
	size_t capacity = 32, used = 0, piece = 40 + phase * 3;
	unsigned char *text = malloc(capacity);
	unsigned i;

	for (i = 0; text != NULL && i < 24; i++) {
		while (used + piece > capacity) {
			unsigned char *grown = realloc(text, capacity * 2);

			if (grown == NULL)
				break;
			text = grown;
			capacity *= 2;
		}
		if (used + piece > capacity)
			break;
		memset(text + used, 'a' + (int)(i % 26), piece);
		used += piece;
	}
	if (text == NULL || i < 24) {
		free(text);
		return -1;
	}
	state->checksum += text[used - 1];
	free(text);
	return 0;
}

/* A record of 1 to 4 KiB kept for good, and one dropped, allocated before it: each drop leaves a
 * hole between two kept records, too large for glibc's per-thread cache, that malloc keeps sorted
 * in its large bins. There are more of them the longer the service runs, so malloc's work per
 * message grows with the messages already handled, within one process as across processes. */
static int keep_record(struct heap_state *state)
{
	void *dropped = malloc(1040 + ((state->draw >> 8) % 4096u) * 8u);
	void **kept = malloc(1040 + ((state->draw >> 12) % 1024u) * 8u);

	if (dropped == NULL || kept == NULL) {
		free(dropped);
		free(kept);
		return -1;
	}
	*kept = state->kept;
	state->kept = kept;
	free(dropped);
	return 0;
}

static int heap_handle(struct costgate_service *service, const unsigned char *body,
		       size_t length)
{
	struct heap_state *state = service->state;
	unsigned phase = (unsigned)(state->message % HEAP_PERIOD);
	unsigned entry;
	size_t entry_size;

	(void)body;
	(void)length;
	if (build_and_free_nodes(state, phase) != 0 || print_document(state, phase) != 0)
		return -1;
	/* The same instructions whichever entry and size are drawn: only malloc's differ. */
	state->draw = state->draw * 1664525u + 1013904223u;
	entry = (state->draw >> 16) % HEAP_ENTRIES;
	entry_size = 24 + (state->draw >> 4) % 6000u;
	free(state->entries[entry]);
	state->entries[entry] = malloc(entry_size);
	if (state->entries[entry] == NULL)
		return -1;
	state->entries[entry][0] = (unsigned char)phase;
	if (keep_record(state) != 0)
		return -1;
	state->message++;
	COSTGATE_KEEP(state->checksum);
	return 0;
}

static void heap_stop(struct costgate_service *service)
{
	struct heap_state *state = service->state;
	unsigned i;

	for (i = 0; i < HEAP_ENTRIES; i++)
		free(state->entries[i]);
	while (state->kept != NULL) {
		void *next = *(void **)state->kept;

		free(state->kept);
		state->kept = next;
	}
	free(state);
}

/* Its floors, as DHAT counts under the region: 48 nodes, a growing buffer (7 or 8 blocks, 8.575
 * on average over the 40 phases), one cache entry and two records per message; 58 blocks in the
 * cold run. */
TEST_ONLY_DECLARATION("varied_heap",
		      "blocks of varied sizes built, freed and kept: a heap that never settles",
		      .gated = true, .steady_allocations = 58.575, .cold_allocations = 58,
		      .body = heap_body, .start = heap_start, .handle = heap_handle,
		      .stop = heap_stop);
