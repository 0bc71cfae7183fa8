/* Test fixture: counts the spaces of a 300-byte text (fixture_count), then spins a while
 * (fixture_spin, SPIN_ROUNDS): the test makes both dearer. */
#include <string.h>

#include "../lib/fixture.h"
#include "test_only.h"

#define SPIN_ROUNDS 10

static size_t body(unsigned char *buffer, size_t capacity)
{
	size_t i;

	if (capacity < 300)
		return 0;
	for (i = 0; i < 300; i++)
		buffer[i] = (unsigned char)(i % 7 == 6 ? ' ' : 'a' + i % 26);
	return 300;
}

static int handle(struct costgate_service *service, const unsigned char *message, size_t length)
{
	char text[COSTGATE_BODY_MAX + 1];

	(void)service;
	memcpy(text, message, length);
	text[length] = '\0';
	COSTGATE_KEEP(fixture_count(text));
	COSTGATE_KEEP(fixture_spin(SPIN_ROUNDS));
	return 0;
}

TEST_ONLY_DECLARATION("strlen_added", "spaces counted in a 300-byte text", .gated = true,
		      .body = body, .handle = handle);
