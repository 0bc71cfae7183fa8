/* Test-only: a generator whose bytes change with every call. The harness's body check must catch
 * it, because bodies that differ make the slope wrong. */
#include <costgate/harness.h>

#include "test_only.h"

static size_t body(unsigned char *buffer, size_t capacity)
{
	static unsigned char counter;

	(void)capacity;
	buffer[0] = counter++;
	return 1;
}

TEST_ONLY_DECLARATION("varying_body", "a generator whose bytes change", .body = body,
		      .handle = ignore_message);
