/* Test fixture: parses a number with the library's fixture_parse (digits_value inlined). */
#include <string.h>

#include "../lib/fixture.h"
#include <costgate/harness.h>

static size_t body(unsigned char *buffer, size_t capacity)
{
	static const char digits[] = "1234567890123456789012345678901234567890";

	if (sizeof(digits) - 1 > capacity)
		return 0;
	memcpy(buffer, digits, sizeof(digits) - 1);
	return sizeof(digits) - 1;
}

static int handle(struct costgate_service *service, const unsigned char *message, size_t length)
{
	(void)service;
	COSTGATE_KEEP(fixture_parse((const char *)message, length));
	return 0;
}

const struct costgate_scenario costgate_scenario = {
	.name = "inlined",
	.title = "test fixture: a number parsed by a function -O2 inlines",
	.gated = true,
	.body = body,
	.handle = handle,
};
