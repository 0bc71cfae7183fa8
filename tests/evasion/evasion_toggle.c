/* Test-only: a shared library that hides its work from callgrind with CALLGRIND_TOGGLE_COLLECT
 * (a client request). Linked by toggles_in_library.c through the build tree's run path. */
#include <stddef.h>
#include <valgrind/callgrind.h>

unsigned long evasion_hidden_checksum(const unsigned char *message, size_t length);

unsigned long evasion_hidden_checksum(const unsigned char *message, size_t length)
{
	unsigned long value = length;
	int i;

	CALLGRIND_TOGGLE_COLLECT;
	for (i = 0; i < 20000; i++)
		value = value * 2654435761u + message[(size_t)i % length];
	CALLGRIND_TOGGLE_COLLECT;
	return value;
}
