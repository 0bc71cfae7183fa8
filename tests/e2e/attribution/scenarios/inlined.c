/* Test fixture: parses a number with the library's fixture_parse (digits_value inlined). */
#include "../lib/fixture.h"
#include "test_only.h"

static size_t body(unsigned char *buffer, size_t capacity)
{
	return text_body(buffer, capacity, "1234567890123456789012345678901234567890");
}

static int handle(struct costgate_service *service, const unsigned char *message, size_t length)
{
	(void)service;
	COSTGATE_KEEP(fixture_parse((const char *)message, length));
	return 0;
}

TEST_ONLY_DECLARATION("inlined", "a number parsed by a function -O2 inlines", .gated = true,
		      .body = body, .handle = handle);
