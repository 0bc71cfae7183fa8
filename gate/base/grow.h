/* Arrays: one rule for all of gate's. They grow as they are filled, capacity doubled when full,
 * the array kept as it was when memory runs out; they are released as a whole, each element by
 * the release function of its type. */
#ifndef GATE_GROW_H
#define GATE_GROW_H

#include <stddef.h>
#include <stdlib.h>

/* Makes room for element `count` of the array whose pointer is at `array` (the address of a
 * `T *`, each element `size` bytes), `*capacity` long: when it is full, its capacity becomes
 * `first` (from none) or twice what it was. Returns 0, or -1 when memory runs out, the array and
 * its capacity unchanged. */
int grow_array(void *array, size_t *capacity, size_t count, size_t size, size_t first);

/* grow_array on the array `array` (a `T *` lvalue) and its capacity (a size_t lvalue), the size of
 * an element taken from the array itself. */
#define GROW_ARRAY(array, capacity, count, first) \
	grow_array(&(array), &(capacity), (count), sizeof(*(array)), (first))

/* Frees each of the `count` strings of `strings` (NULL ones too), then the array itself; a NULL
 * array holds none, whatever `count` says. */
void free_strings(char **strings, size_t count);

/* RELEASE_ARRAY(array, count, release_element): release_element(&array[i]) for each of the
 * `count` elements of `array` (a `T *`; a NULL one holds none), then free(array). Where an array
 * is only partly filled, `count` is the number filled. */
#define RELEASE_ARRAY(array, count, release_element)                                         \
	do {                                                                                 \
		for (size_t release_index_ = 0; (array) != NULL && release_index_ < (count); \
		     release_index_++)                                                       \
			release_element(&(array)[release_index_]);                           \
		free(array);                                                                 \
	} while (0)

#endif
