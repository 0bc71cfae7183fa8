/* Test-only: a handler whose first messages cost more than the rest (a cache being filled, say),
 * so the slope from 1 to N is above the one from N to 2N. The first WARM_UP_MESSAGES messages do
 * three times the work of a later one: 9 extra messages' worth spread over N - 1, about 18 % at
 * N = 100 and 1.8 % at N = 1000. */
#ifndef WARM_UP_H
#define WARM_UP_H

#include <costgate/harness.h>

#include "test_only.h"

#define WARM_UP_MESSAGES 10
#define WARM_UP_SPINS 200

static int warm_up_handle(struct costgate_service *service, const unsigned char *message,
			  size_t length)
{
	static unsigned long handled;
	long spins = handled++ < WARM_UP_MESSAGES ? 3 * WARM_UP_SPINS : WARM_UP_SPINS, i;

	(void)service;
	(void)message;
	(void)length;
	for (i = 0; i < spins; i++)
		COSTGATE_KEEP(i);
	return 0;
}

#endif
