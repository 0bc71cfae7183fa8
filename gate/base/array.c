/* Growing and releasing arrays (array.h). The array's pointer is read and written through
 * memcpy, so that one function serves arrays of every element type without a cast of T ** to
 * void **. */
#include "array.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int array_grow(void *array, size_t *capacity, size_t count, size_t size, size_t first)
{
	void *items, *grown;
	size_t wanted;

	if (count < *capacity)
		return 0;
	wanted = *capacity == 0 ? first : *capacity * 2;
	if (wanted <= count || wanted > SIZE_MAX / size)
		return -1;
	memcpy(&items, array, sizeof(items));
	grown = realloc(items, wanted * size);
	if (grown == NULL)
		return -1;
	memcpy(array, &grown, sizeof(grown));
	*capacity = wanted;
	return 0;
}

void array_free_strings(char **strings, size_t count)
{
	for (size_t i = 0; strings != NULL && i < count; i++)
		free(strings[i]);
	free(strings);
}
