/* The in-process queue scenarios are driven over: FIFO deliveries whose bodies the queue owns.
 * Deliberate: slots and their body buffers are kept and reused, so once the queue has reached its
 * capacity neither publish nor delivery nor settle touches the heap. */
#ifndef COSTGATE_QUEUE_H
#define COSTGATE_QUEUE_H

#include <stddef.h>
#include <stdint.h>

struct costgate_delivery {
	unsigned char *body; /* the queue's copy of the published bytes; owned by the queue */
	size_t length;       /* bytes of body in use */
	size_t capacity;     /* bytes allocated for body; grows, never shrinks */
	uint64_t tag;        /* delivery tag: 1 for the first message ever published, then +1 */
};

struct costgate_queue {
	struct costgate_delivery *slots; /* ring of `capacity` slots (a power of two); owned */
	size_t capacity;           /* number of slots */
	size_t head;               /* index of the oldest unsettled delivery */
	size_t in_flight;          /* delivered, not yet settled (they start at head) */
	size_t ready;              /* published, not yet delivered (they follow the in-flight ones) */
	uint64_t published;        /* messages ever published; also the last tag given */
	uint64_t delivered;        /* deliveries ever handed out by costgate_queue_next */
	uint64_t settled;          /* deliveries ever settled */
	size_t span;               /* every slot with a body buffer is below this index: releasing
				    * costs what was used, not the ring's power-of-two size, so the
				    * process's exit grows with the messages (docs/design.md) */
};

#define COSTGATE_QUEUE_INIT { NULL, 0, 0, 0, 0, 0, 0, 0, 0 }

/* Allocates a ring of at least `capacity` slots (rounded up to a power of two, minimum 1); the
 * slots' body buffers are allocated by the first publish into each. Returns 0, or -1 when out of
 * memory (the queue is then left empty and releasable). */
int costgate_queue_init(struct costgate_queue *queue, size_t capacity);

/* Grows the ring to at least `capacity` slots at once (rounded up to a power of two), so that
 * publishing that many never grows it. Returns 0, or -1 when out of memory (the queue is then
 * as it was). */
int costgate_queue_reserve(struct costgate_queue *queue, size_t capacity);

/* Copies `length` bytes of `body` into the next slot. Allocates only when every slot is taken
 * (the ring doubles) or when the slot's buffer is shorter than `length`. Returns 0, or -1 when
 * out of memory (nothing is published then). */
int costgate_queue_publish(struct costgate_queue *queue, const void *body, size_t length);

/* Hands out the oldest delivery not yet handed out, or NULL when there is none. The delivery
 * stays owned by the queue and valid until it is settled. Never allocates. Inline: it is the
 * delivery path every message takes. */
static __inline__ const struct costgate_delivery *costgate_queue_next(struct costgate_queue *queue)
{
	const struct costgate_delivery *delivery;

	if (queue->ready == 0)
		return NULL;
	delivery = &queue->slots[(queue->head + queue->in_flight) & (queue->capacity - 1)];
	queue->in_flight++;
	queue->ready--;
	queue->delivered++;
	return delivery;
}

/* Settles (acknowledges) every in-flight delivery up to and including `tag`, oldest first, and
 * frees their slots for reuse. Returns the number settled; 0 when `tag` is not in flight.
 * Settles happen in order and tags are consecutive from 1, so the oldest in-flight delivery's
 * tag is always settled + 1 and the tag alone says how many to settle. */
static __inline__ size_t costgate_queue_settle(struct costgate_queue *queue, uint64_t tag)
{
	uint64_t count = tag - queue->settled;

	if (tag <= queue->settled || count > queue->in_flight)
		return 0;
	queue->head = (queue->head + (size_t)count) & (queue->capacity - 1);
	queue->in_flight -= (size_t)count;
	queue->settled += count;
	return (size_t)count;
}

/* Messages waiting to be delivered. */
static __inline__ size_t costgate_queue_ready(const struct costgate_queue *queue)
{
	return queue->ready;
}

/* Frees the slots and every body buffer; leaves the queue as COSTGATE_QUEUE_INIT. NULL-safe. */
void costgate_queue_release(struct costgate_queue *queue);

#endif
