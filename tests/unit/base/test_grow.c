/* Growing arrays: room made only when full, the capacity from the first size then doubled, and
 * the array kept whole when it cannot grow. */
#include <stdint.h>
#include <stdlib.h>

#include "check.h"
#include "grow.h"

struct pair {
	uint64_t a, b;
};

static void grow_should_double_only_when_full(void)
{
	struct pair *pairs = NULL;
	size_t capacity = 0, count;

	for (count = 0; count < 20; count++) {
		CHECK(GROW_ARRAY(pairs, capacity, count, 4) == 0);
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
	CHECK(grow_array(&bytes, &capacity, 8, SIZE_MAX / 8, 1) == -1);
	CHECK(bytes == before && capacity == 8);
	CHECK(grow_array(&bytes, &capacity, 7, SIZE_MAX, 1) == 0); /* room already */
	free(bytes);
}

int main(void)
{
	return RUN_CASES(grow_should_double_only_when_full,
			 grow_should_keep_the_array_when_it_cannot_grow);
}
