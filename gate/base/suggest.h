/* "Did you mean": the nearest of some known words to one that was mistyped (a command, an
 * option, a scenario name), by edit distance with a swap of two neighbours counting as one edit. */
#ifndef GATE_SUGGEST_H
#define GATE_SUGGEST_H

#include <stddef.h>

/* Edits (insert, delete, replace, swap two neighbours) from `a` to `b`; SIZE_MAX when either is
 * longer than 128 characters. */
size_t suggest_distance(const char *a, const char *b);

/* The candidate nearest to `word`, or NULL when none is near enough to be what was meant: at most
 * 2 edits, and at most a third of the word's length (one edit in "tiem", none in "x"). Ties go to
 * the first. `candidates` may hold NULLs, which are skipped. The result points into it. */
const char *suggest_nearest(const char *word, const char *const *candidates, size_t count);

#endif
