/* work: every message runs WORK_ITERATIONS steps of arithmetic; the tests edit the number to make
 * a message dearer. The start does a fixed, larger amount of work so that the cold run moves
 * far less than the per message figure when only the per message loop changes.
 * Measured (gcc 12, -O2): 9 instructions a step, 18058 a message at 2000 steps; the tests use
 * 2020 steps for about +1 % and 2060 for about +3 %, and check the percentage gate prints. */
#include <string.h>

#include <costgate/harness.h>

#define WORK_ITERATIONS 2000
#define START_ITERATIONS 400000

static size_t body(unsigned char *buffer, size_t capacity)
{
	static const char text[] = "{\"order\":42,\"qty\":7}";

	(void)capacity;
	memcpy(buffer, text, sizeof(text) - 1);
	return sizeof(text) - 1;
}

__attribute__((noinline)) static unsigned long work_compute(const unsigned char *body, size_t length,
							    int iterations)
{
	unsigned long value = length;
	int i;

	for (i = 0; i < iterations; i++) {
		value = value * 2654435761u + body[(size_t)i % length];
		COSTGATE_KEEP(value);
	}
	return value;
}

static int start(struct costgate_service *service)
{
	static const unsigned char seed[] = "start";

	service->state = NULL;
	COSTGATE_KEEP(work_compute(seed, sizeof(seed) - 1, START_ITERATIONS));
	return 0;
}

static int handle(struct costgate_service *service, const unsigned char *body, size_t length)
{
	(void)service;
	COSTGATE_KEEP(work_compute(body, length, WORK_ITERATIONS));
	return 0;
}

const struct costgate_scenario costgate_scenario = {
	.name = "work",
	.title = "a fixed loop of arithmetic per message",
	.gated = true,
	.steady_allocations = 0,
	.cold_allocations = 0,
	.body = body,
	.start = start,
	.handle = handle,
};
