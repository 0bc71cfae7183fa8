/* The library the attribution test changes. Markers in comments are where test_attribution.sh
 * edits it: lines inserted above everything, work added inside a function -O2 inlines, a strlen
 * added to a project function, a malloc added beside another. */
#include "fixture.h"

#include <stdlib.h>
#include <string.h>

/* A block the compiler must believe used: clang drops a malloc whose block is only tested and
 * freed, and with it the allocation site the test is about. */
#define ESCAPE(block) __asm__ volatile("" : : "g"(block) : "memory")

/* LINES-ABOVE */

/* Static and called once: -O2 inlines it into fixture_parse. */
static unsigned digits_value(const char *text, size_t length)
{
	unsigned value = 0;
	size_t i;

	for (i = 0; i < length; i++)
		value = value * 10 + (unsigned)(text[i] - '0');
	/* INLINED-CHANGE */
	return value;
}

__attribute__((noinline)) unsigned fixture_parse(const char *text, size_t length)
{
	if (length == 0)
		return 0;
	return digits_value(text, length) + 1;
}

__attribute__((noinline)) size_t fixture_count(const char *text)
{
	size_t count = 0;
	const char *at;

	for (at = text; *at != '\0'; at++)
		count += *at == ' ';
	/* STRLEN-CHANGE */
	return count;
}

__attribute__((noinline)) unsigned fixture_spin(unsigned rounds)
{
	unsigned total = 0, i;

	for (i = 0; i < rounds; i++) {
		total += i;
		__asm__ volatile("" : "+r"(total));
	}
	return total;
}

__attribute__((noinline)) int fixture_allocate(size_t size)
{
	char *order = malloc(size);
	char *note = malloc(2 * size);
	int status = order != NULL && note != NULL ? 0 : -1;

	ESCAPE(order);
	ESCAPE(note);
	/* MALLOC-CHANGE */
	free(note);
	free(order);
	return status;
}
