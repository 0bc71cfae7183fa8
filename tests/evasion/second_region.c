/* Test-only evasion: a static function that is also named costgate_measured_region. callgrind's
 * --toggle-collect switches collection at every function of that name, so entering this one from
 * inside the real region turns counting off for the work it does. gate must refuse the executable
 * before measuring it (exit 3). */
#include "harness.h"
#include "unseen_work.h"

__attribute__((noinline)) static unsigned long costgate_measured_region(const unsigned char *body,
									 size_t length)
{
	return checksum(body, length);
}

static int handle(struct service *service, const unsigned char *message, size_t length)
{
	(void)service;
	COSTGATE_KEEP(costgate_measured_region(message, length));
	return 0;
}

TEST_ONLY_SCENARIO("second_region", "a second function named like the region", .handle = handle);
