/* Arrays: how gate's grow and are released. One that is filled with a capacity grows by
 * ARRAY_GROW, its capacity doubled when full and the array kept as it was when memory runs out
 * (small ones, an object's few libraries, still grow by one element with a realloc of their own);
 * every one is released as a whole, each element by the release function of its type. */
#ifndef GATE_ARRAY_H
#define GATE_ARRAY_H

#include <stddef.h>
#include <stdlib.h>

/* Makes room for element `count` of the array whose pointer is at `array` (the address of a
 * `T *`, each element `size` bytes), `*capacity` long: when it is full, its capacity becomes
 * `first` (from none) or twice what it was. Returns 0, or -1 when memory runs out, the array and
 * its capacity unchanged. */
int array_grow(void *array, size_t *capacity, size_t count, size_t size, size_t first);

/* array_grow on the array `array` (a `T *` lvalue) and its capacity (a size_t lvalue), the size of
 * an element taken from the array itself. */
#define ARRAY_GROW(array, capacity, count, first) \
	array_grow(&(array), &(capacity), (count), sizeof(*(array)), (first))

/* Frees each of the `count` strings of `strings` (NULL ones too), then the array itself; a NULL
 * array holds none, whatever `count` says. */
void array_free_strings(char **strings, size_t count);

/* ARRAY_RELEASE(array, count, release_element): release_element(&array[i]) for each of the
 * `count` elements of `array` (a `T *`; a NULL one holds none), then free(array). `count` is the
 * number filled, or more where the slots past them are zero (made by calloc), which an element's
 * release function takes as empty: then one whose making failed half-way is released too. */
#define ARRAY_RELEASE(array, count, release_element)                                         \
	do {                                                                                 \
		for (size_t release_index_ = 0; (array) != NULL && release_index_ < (count); \
		     release_index_++)                                                       \
			release_element(&(array)[release_index_]);                           \
		free(array);                                                                 \
	} while (0)

#endif
