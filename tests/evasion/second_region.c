/* Test-only evasion: a static function that is also named costgate_measured_region. callgrind's
 * --toggle-collect switches collection at every function of that name, so entering this one from
 * inside the real region turns counting off for the work it does. gate must refuse the executable
 * before measuring it (exit 3). */
#include <string.h>

#include "harness.h"

__attribute__((noinline)) static unsigned long costgate_measured_region(const unsigned char *body,
									 size_t length)
{
	unsigned long value = length;
	int i;

	for (i = 0; i < 20000; i++) {
		value = value * 2654435761u + body[(size_t)i % length];
		COSTGATE_KEEP(value);
	}
	return value;
}

static size_t body(unsigned char *buffer, size_t capacity)
{
	(void)capacity;
	memcpy(buffer, "hidden", 6);
	return 6;
}

static int handle(struct service *service, const unsigned char *message, size_t length)
{
	(void)service;
	COSTGATE_KEEP(costgate_measured_region(message, length));
	return 0;
}

const struct scenario costgate_scenario = {
	.name = "second_region",
	.title = "test only: a second function named like the region",
	.gated = true,
	.body = body,
	.handle = handle,
};
