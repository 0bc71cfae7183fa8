/* The in-process queue. A ring whose size is a power of two, so the hot path is a mask and an
 * add; growth re-lays the ring in order and happens only on publish into a full ring. */
#include <costgate/queue.h>

#include <stdlib.h>
#include <string.h>

static size_t round_up_to_power_of_two(size_t value)
{
	size_t power = 1;

	while (power < value)
		power <<= 1;
	return power;
}

int costgate_queue_init(struct costgate_queue *queue, size_t capacity)
{
	*queue = (struct costgate_queue)COSTGATE_QUEUE_INIT;
	capacity = round_up_to_power_of_two(capacity == 0 ? 1 : capacity);
	queue->slots = calloc(capacity, sizeof(*queue->slots));
	if (queue->slots == NULL)
		return -1;
	queue->capacity = capacity;
	return 0;
}

/* Re-lays the ring into `capacity` slots (a power of two, at least the live ones), moving the
 * live slots to the front in FIFO order. The free slots keep their body buffers, so nothing
 * already allocated is lost. */
static int relayout(struct costgate_queue *queue, size_t capacity)
{
	struct costgate_delivery *slots = calloc(capacity, sizeof(*slots));
	size_t i;

	if (slots == NULL)
		return -1;
	for (i = 0; i < queue->capacity; i++)
		slots[i] = queue->slots[(queue->head + i) & (queue->capacity - 1)];
	free(queue->slots);
	queue->slots = slots;
	if (queue->span > 0)
		queue->span = queue->capacity; /* the old slots, bodies and all, now lead the ring */
	queue->capacity = capacity;
	queue->head = 0;
	return 0;
}

/* Doubles the ring. */
static int grow(struct costgate_queue *queue)
{
	return relayout(queue, queue->capacity == 0 ? 1 : queue->capacity * 2);
}

int costgate_queue_reserve(struct costgate_queue *queue, size_t capacity)
{
	capacity = round_up_to_power_of_two(capacity == 0 ? 1 : capacity);
	return capacity <= queue->capacity ? 0 : relayout(queue, capacity);
}

int costgate_queue_publish(struct costgate_queue *queue, const void *body, size_t length)
{
	struct costgate_delivery *slot;
	size_t index;

	if (queue->in_flight + queue->ready == queue->capacity && grow(queue) != 0)
		return -1;
	index = (queue->head + queue->in_flight + queue->ready) & (queue->capacity - 1);
	slot = &queue->slots[index];
	if (slot->capacity < length) {
		unsigned char *grown = realloc(slot->body, length);

		if (grown == NULL)
			return -1;
		slot->body = grown;
		slot->capacity = length;
		if (index >= queue->span)
			queue->span = index + 1;
	}
	if (length > 0)
		memcpy(slot->body, body, length);
	slot->length = length;
	slot->tag = ++queue->published;
	queue->ready++;
	return 0;
}

void costgate_queue_release(struct costgate_queue *queue)
{
	size_t i;

	if (queue == NULL)
		return;
	for (i = 0; i < queue->span; i++)
		free(queue->slots[i].body);
	free(queue->slots);
	*queue = (struct costgate_queue)COSTGATE_QUEUE_INIT;
}
