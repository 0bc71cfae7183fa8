/* What the test-only scenarios share where it is not their point: a message of one byte, 'x', or
 * of a fixed text (text_body), a handler that does nothing with it (ignore_message) or keeps it
 * from being optimised away (keep_message), and their declaration (TEST_ONLY_SCENARIO,
 * TEST_ONLY_DECLARATION). The scenarios here include it, tests/evasion's and tests/crosscheck's
 * too, and the tests that build a project of test scenarios copy it beside them. */
#ifndef COSTGATE_TEST_ONLY_H
#define COSTGATE_TEST_ONLY_H

#include <stddef.h>
#include <string.h>

#include <costgate/harness.h>

static inline size_t one_byte_body(unsigned char *buffer, size_t capacity)
{
	(void)capacity;
	buffer[0] = 'x';
	return 1;
}

/* text_body(BUFFER, CAPACITY, TEXT): TEXT, without its terminating NUL, as the message: what a
 * body generator returns when every message is that text. */
static inline size_t text_body(unsigned char *buffer, size_t capacity, const char *text)
{
	size_t length = strlen(text);

	if (length > capacity)
		return 0;
	memcpy(buffer, text, length);
	return length;
}

static inline int ignore_message(struct costgate_service *service, const unsigned char *message,
				 size_t length)
{
	(void)service;
	(void)message;
	(void)length;
	return 0;
}

static inline int keep_message(struct costgate_service *service, const unsigned char *message,
			       size_t length)
{
	(void)service;
	COSTGATE_KEEP(message);
	COSTGATE_KEEP(length);
	return 0;
}

/* TEST_ONLY_DECLARATION(NAME, WHAT, FIELDS...): the declaration of the scenario NAME, titled
 * "test only: WHAT", with FIELDS, the rest of its designated initialisers. */
#define TEST_ONLY_DECLARATION(scenario_name, what, ...)                                 \
	const struct costgate_scenario costgate_scenario = {                            \
		.name = scenario_name,                                                  \
		.title = "test only: " what,                                            \
		__VA_ARGS__                                                             \
	}

/* TEST_ONLY_SCENARIO(NAME, WHAT, FIELDS...): the same for a gated scenario whose messages are
 * one_byte_body's; FIELDS name .handle at least. */
#define TEST_ONLY_SCENARIO(scenario_name, what, ...)                                    \
	TEST_ONLY_DECLARATION(scenario_name, what, .gated = true, .body = one_byte_body,        \
			      __VA_ARGS__)

#endif
