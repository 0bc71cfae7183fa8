/* Arrays that grow as they are filled: one rule for all of gate's, capacity doubled when full,
 * the array kept as it was when memory runs out. */
#ifndef GATE_GROW_H
#define GATE_GROW_H

#include <stddef.h>

/* Makes room for element `count` of the array whose pointer is at `array` (the address of a
 * `T *`, each element `size` bytes), `*capacity` long: when it is full, its capacity becomes
 * `first` (from none) or twice what it was. Returns 0, or -1 when memory runs out, the array and
 * its capacity unchanged. */
int grow_array(void *array, size_t *capacity, size_t count, size_t size, size_t first);

/* grow_array on the array `array` (a `T *` lvalue) and its capacity (a size_t lvalue), the size of
 * an element taken from the array itself. */
#define GROW_ARRAY(array, capacity, count, first) \
	grow_array(&(array), &(capacity), (count), sizeof(*(array)), (first))

#endif
