/* A native allocation counter on tcmalloc's malloc hooks that counts what DHAT counts, so its
 * figures cross-check gate's DHAT figures exactly.
 *
 * DHAT's semantics (valgrind 3.19, checked with a test program): every malloc, calloc, memalign
 * family call, operator new, malloc(0) and realloc(NULL, n) is one new block; a realloc of a live
 * block to a nonzero size, whether it moves or not, is one more block, attributed to the stack of
 * the block's *first* allocation; realloc(p, 0) frees and makes no block. gate keeps a block when
 * the region frame is on its allocation stack. So a block counts when it was allocated inside the
 * region, and a realloc counts when the block it resizes was first allocated inside the region,
 * wherever the realloc itself happens.
 *
 * tcmalloc's hooks alone cannot tell a realloc apart (it reports one as a delete and a new, in
 * either order), so this file also defines realloc() for the native executable, which sets a flag
 * around tcmalloc's tc_realloc and does the realloc's accounting itself. Single-threaded, like
 * every scenario. */
#ifndef COSTGATE_ALLOC_COUNTER_H
#define COSTGATE_ALLOC_COUNTER_H

#include <stdbool.h>
#include <stdint.h>

/* Adds the hooks and maps the table of blocks born in the region (with mmap, never malloc).
 * Returns 0, or -1 when the hooks cannot be added or the table cannot be mapped. */
int costgate_alloc_counter_install(void);

/* Counting on (inside the region) or off. */
void costgate_alloc_counter_enable(bool on);

/* Blocks counted so far. */
uint64_t costgate_alloc_counter_blocks(void);

/* true when more blocks born in the region were live at once than the table holds: a realloc of
 * one of them may then have gone uncounted, so the count cannot be trusted. */
bool costgate_alloc_counter_overflowed(void);

#endif
