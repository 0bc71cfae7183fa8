/* The in-process queue: FIFO order, owned bodies, settle, and growth only while filling. */
#include <stdlib.h>

#include "check.h"
#include <costgate/queue.h>

/* Counts calls into the allocator through the linker's --wrap, so a test can say "no heap". */
static unsigned long heap_calls;
void *__real_malloc(size_t size);
void *__real_calloc(size_t count, size_t size);
void *__real_realloc(void *pointer, size_t size);
void *__wrap_malloc(size_t size);
void *__wrap_calloc(size_t count, size_t size);
void *__wrap_realloc(void *pointer, size_t size);

void *__wrap_malloc(size_t size)
{
	heap_calls++;
	return __real_malloc(size);
}

void *__wrap_calloc(size_t count, size_t size)
{
	heap_calls++;
	return __real_calloc(count, size);
}

void *__wrap_realloc(void *pointer, size_t size)
{
	heap_calls++;
	return __real_realloc(pointer, size);
}

/* Publishes the one-letter bodies 'a' + first up to 'a' + last - 1. */
static void publish_letters(struct costgate_queue *queue, int first, int last)
{
	char body[1];
	int i;

	for (i = first; i < last; i++) {
		body[0] = (char)('a' + i);
		CHECK(costgate_queue_publish(queue, body, 1) == 0);
	}
}

/* Takes the next deliveries, which must be those letters, letter i tagged i + 1, settling each. */
static void take_letters(struct costgate_queue *queue, int first, int last)
{
	const struct costgate_delivery *delivery;
	int i;

	for (i = first; i < last; i++) {
		delivery = costgate_queue_next(queue);
		CHECK(delivery != NULL);
		if (delivery == NULL)
			break;
		CHECK(delivery->length == 1 && delivery->body[0] == 'a' + i);
		CHECK_U64(delivery->tag, (uint64_t)i + 1);
		CHECK(costgate_queue_settle(queue, delivery->tag) == 1);
	}
}

static void queue_should_deliver_in_publish_order(void)
{
	struct costgate_queue queue;

	CHECK(costgate_queue_init(&queue, 2) == 0);
	publish_letters(&queue, 0, 10);
	take_letters(&queue, 0, 10);
	CHECK(costgate_queue_next(&queue) == NULL);
	costgate_queue_release(&queue);
}

/* Reserve: the ring grows at once to a power of two, the live deliveries keep their order and
 * tags, and publishing up to the reserved capacity then touches no ring again. */
static void queue_should_reserve_a_ring_in_one_step_keeping_the_order(void)
{
	struct costgate_queue queue;

	CHECK(costgate_queue_init(&queue, 1) == 0);
	publish_letters(&queue, 0, 1);
	CHECK(costgate_queue_next(&queue) != NULL); /* in flight across the reserve */
	CHECK(costgate_queue_reserve(&queue, 5) == 0);
	CHECK_U64(queue.capacity, 8);
	CHECK(costgate_queue_reserve(&queue, 3) == 0); /* smaller: nothing changes */
	CHECK_U64(queue.capacity, 8);
	publish_letters(&queue, 1, 8);
	CHECK_U64(queue.capacity, 8);
	CHECK(costgate_queue_settle(&queue, 1) == 1);
	take_letters(&queue, 1, 8);
	costgate_queue_release(&queue);
}

static void queue_should_own_a_copy_of_each_body(void)
{
	struct costgate_queue queue;
	const struct costgate_delivery *delivery;
	char body[] = "first";

	CHECK(costgate_queue_init(&queue, 1) == 0);
	CHECK(costgate_queue_publish(&queue, body, 5) == 0);
	body[0] = 'X';
	delivery = costgate_queue_next(&queue);
	CHECK(delivery != NULL && delivery->body != (unsigned char *)body);
	CHECK(delivery != NULL && memcmp(delivery->body, "first", 5) == 0);
	costgate_queue_release(&queue);
}

static void queue_should_settle_every_delivery_up_to_a_tag(void)
{
	struct costgate_queue queue;
	int i;

	CHECK(costgate_queue_init(&queue, 4) == 0);
	for (i = 0; i < 5; i++)
		CHECK(costgate_queue_publish(&queue, "m", 1) == 0);
	for (i = 0; i < 3; i++)
		CHECK(costgate_queue_next(&queue) != NULL);
	CHECK(costgate_queue_settle(&queue, 4) == 0); /* delivered only up to 3 */
	CHECK(costgate_queue_settle(&queue, 3) == 3);
	CHECK(costgate_queue_settle(&queue, 3) == 0); /* already settled */
	CHECK_U64(queue.settled, 3);
	CHECK_U64(costgate_queue_ready(&queue), 2);
	costgate_queue_release(&queue);
}

static void queue_should_not_touch_the_heap_once_it_has_reached_capacity(void)
{
	struct costgate_queue queue;
	const struct costgate_delivery *delivery;
	unsigned long before;
	int round;

	CHECK(costgate_queue_init(&queue, 1) == 0);
	/* Reach capacity: 8 slots, each with a body buffer. */
	for (round = 0; round < 8; round++)
		CHECK(costgate_queue_publish(&queue, "0123456789", 10) == 0);
	while ((delivery = costgate_queue_next(&queue)) != NULL)
		costgate_queue_settle(&queue, delivery->tag);
	before = heap_calls;
	for (round = 0; round < 1000; round++) {
		CHECK(costgate_queue_publish(&queue, "0123456789", 10) == 0);
		delivery = costgate_queue_next(&queue);
		CHECK(delivery != NULL);
		if (delivery != NULL)
			costgate_queue_settle(&queue, delivery->tag);
	}
	CHECK(heap_calls == before);
	costgate_queue_release(&queue);
}

static void queue_should_grow_when_published_into_while_full(void)
{
	struct costgate_queue queue;
	unsigned long before;
	int i;

	CHECK(costgate_queue_init(&queue, 2) == 0);
	CHECK(costgate_queue_publish(&queue, "a", 1) == 0);
	CHECK(costgate_queue_publish(&queue, "b", 1) == 0);
	CHECK(costgate_queue_next(&queue) != NULL); /* one in flight keeps its slot */
	before = heap_calls;
	CHECK(costgate_queue_publish(&queue, "c", 1) == 0);
	CHECK(heap_calls > before);
	CHECK_U64(queue.capacity, 4);
	CHECK(costgate_queue_settle(&queue, 1) == 1);
	for (i = 0; i < 2; i++) {
		const struct costgate_delivery *delivery = costgate_queue_next(&queue);

		CHECK(delivery != NULL && delivery->body[0] == "bc"[i]);
	}
	costgate_queue_release(&queue);
}

int main(void)
{
	return RUN_CASES(queue_should_deliver_in_publish_order,
			 queue_should_reserve_a_ring_in_one_step_keeping_the_order,
			 queue_should_own_a_copy_of_each_body,
			 queue_should_settle_every_delivery_up_to_a_tag,
			 queue_should_not_touch_the_heap_once_it_has_reached_capacity,
			 queue_should_grow_when_published_into_while_full);
}
