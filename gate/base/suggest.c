/* Edit distance for "did you mean" (the optimal string alignment form of Damerau-Levenshtein): a
 * swap of two neighbours, the commonest typo ("tiem"), is one edit. Words are short; three rows
 * of a fixed size do, with no allocation. */
#include "suggest.h"

#include <stdint.h>
#include <string.h>

#define WORD_MAX 128
#define NEAR_EDITS 2

static size_t smallest(size_t a, size_t b, size_t c)
{
	size_t least = a < b ? a : b;

	return least < c ? least : c;
}

size_t suggest_distance(const char *a, const char *b)
{
	size_t rows[3][WORD_MAX + 1];
	size_t length_a = strlen(a), length_b = strlen(b), i, j;
	size_t *before = rows[0], *previous = rows[1], *current = rows[2];

	if (length_a > WORD_MAX || length_b > WORD_MAX)
		return SIZE_MAX;
	for (j = 0; j <= length_b; j++)
		previous[j] = j;
	for (i = 1; i <= length_a; i++) {
		size_t *spare = before;

		current[0] = i;
		for (j = 1; j <= length_b; j++) {
			size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;

			current[j] = smallest(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost);
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    before[j - 2] + 1 < current[j])
				current[j] = before[j - 2] + 1;
		}
		before = previous;
		previous = current;
		current = spare;
	}
	return previous[length_b];
}

const char *suggest_nearest(const char *word, const char *const *candidates, size_t count)
{
	size_t limit = strlen(word) / 3, best_distance = SIZE_MAX, i;
	const char *best = NULL;

	if (limit > NEAR_EDITS)
		limit = NEAR_EDITS;
	for (i = 0; i < count; i++) {
		size_t distance;

		if (candidates[i] == NULL || strcmp(candidates[i], word) == 0)
			continue;
		distance = suggest_distance(word, candidates[i]);
		if (distance <= limit && distance < best_distance) {
			best = candidates[i];
			best_distance = distance;
		}
	}
	return best;
}
