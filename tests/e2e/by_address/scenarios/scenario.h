/* What the fixture's scenarios share: the message, and a scenario whose handler keeps what
 * CALL returns (the library function whose cost the test changes). */
#ifndef BY_ADDRESS_SCENARIO_H
#define BY_ADDRESS_SCENARIO_H

#include "../lib/by_address.h"
#include "test_only.h"

static size_t body(unsigned char *buffer, size_t capacity)
{
	return text_body(buffer, capacity,
			 "the quick brown fox jumps over the lazy dog 0123456789");
}

/* BY_ADDRESS_SCENARIO(NAME, TITLE, CALL, ...): the scenario NAME, its handler `handle` keeping
 * CALL (of `message` and `length`), with any more members of the declaration after. */
#define BY_ADDRESS_SCENARIO(name_text, title_text, call, ...)                                  \
	static int handle(struct costgate_service *service, const unsigned char *message,       \
			  size_t length)                                                         \
	{                                                                                        \
		(void)service;                                                                   \
		COSTGATE_KEEP(call);                                                             \
		return 0;                                                                        \
	}                                                                                        \
	TEST_ONLY_DECLARATION(name_text, title_text, .gated = true, .body = body,                \
			      .handle = handle, __VA_ARGS__)

#endif
