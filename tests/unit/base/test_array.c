/* Arrays: room made only when full, the capacity from the first size then doubled, the array
 * kept whole when it cannot grow; released element by element, a NULL array holding none. (The
 * sanitized suite and the one under memcheck see that the memory itself is given back.) */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "check.h"

struct pair {
	uint64_t a, b;
};

static void grow_should_double_only_when_full(void)
{
	struct pair *pairs = NULL;
	size_t capacity = 0, count;

	for (count = 0; count < 20; count++) {
		CHECK(ARRAY_GROW(pairs, capacity, count, 4) == 0);
		pairs[count] = (struct pair){ count, 2 * count };
		CHECK_U64(capacity, count < 4 ? 4 : count < 8 ? 8 : count < 16 ? 16 : 32);
	}
	for (count = 0; count < 20; count++)
		CHECK(pairs[count].a == count && pairs[count].b == 2 * count);
	free(pairs);
}

static void grow_should_keep_the_array_when_it_cannot_grow(void)
{
	char *bytes = malloc(8);
	char *before = bytes;
	size_t capacity = 8;

	CHECK(bytes != NULL);
	/* Twice the capacity of elements this large would overflow a size_t. */
	CHECK(array_grow(&bytes, &capacity, 8, SIZE_MAX / 8, 1) == -1);
	CHECK(bytes == before && capacity == 8);
	CHECK(array_grow(&bytes, &capacity, 7, SIZE_MAX, 1) == 0); /* room already */
	free(bytes);
}

static size_t released_sum, released_calls;

static void release_pair(struct pair *pair)
{
	released_sum += pair->a;
	released_calls++;
}

static void release_should_release_each_element_then_the_array(void)
{
	struct pair *pairs = calloc(5, sizeof(*pairs));
	char **strings = calloc(3, sizeof(*strings));
	size_t i;

	CHECK(pairs != NULL && strings != NULL);
	for (i = 0; i < 5; i++)
		pairs[i].a = i + 1;
	released_sum = released_calls = 0;
	/* Three of five filled: only those are released. */
	ARRAY_RELEASE(pairs, 3, release_pair);
	CHECK_U64(released_calls, 3);
	CHECK_U64(released_sum, 1 + 2 + 3);
	strings[0] = strdup("first");
	strings[2] = strdup("third"); /* the one between is NULL */
	CHECK(strings[0] != NULL && strings[2] != NULL);
	array_free_strings(strings, 3);
}

static void release_should_take_a_null_array_as_empty(void)
{
	struct pair *none = NULL;

	released_calls = 0;
	ARRAY_RELEASE(none, 4, release_pair);
	CHECK_U64(released_calls, 0);
	array_free_strings(NULL, 4);
}

int main(void)
{
	return RUN_CASES(grow_should_double_only_when_full,
			 grow_should_keep_the_array_when_it_cannot_grow,
			 release_should_release_each_element_then_the_array,
			 release_should_take_a_null_array_as_empty);
}
