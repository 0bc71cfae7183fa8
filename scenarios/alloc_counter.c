/* The native allocation counter (see alloc_counter.h for what it counts and why). The blocks born
 * in the region live in an open-addressing table in mmap'd memory: a hook must not allocate, and
 * the table must never count itself. */
#define _GNU_SOURCE
#include "alloc_counter.h"

#include <gperftools/malloc_hook_c.h>
#include <gperftools/tcmalloc.h>
#include <stddef.h>
#include <stdlib.h>
#include <sys/mman.h>

/* Blocks born in the region that may be live at once: far above any scenario (cJSON's decode
 * holds 19), and 8 MiB of address space, touched only where used. */
#define BORN_CAPACITY (1u << 20)
#define BORN_LIMIT (BORN_CAPACITY / 4 * 3)

static bool installed;
static bool counting;
static bool in_realloc; /* tc_realloc's own hook calls are accounted by realloc() below */
static bool overflowed;
static uint64_t blocks;
static uintptr_t *born; /* 0 marks an empty slot */
static size_t born_count;

static size_t slot_of(uintptr_t address)
{
	return (size_t)(((address >> 4) * 0x9E3779B97F4A7C15ULL) >> 44) & (BORN_CAPACITY - 1);
}

static void born_insert(const void *pointer)
{
	uintptr_t address = (uintptr_t)pointer;
	size_t slot;

	if (address == 0)
		return;
	if (born_count >= BORN_LIMIT) {
		overflowed = true;
		return;
	}
	for (slot = slot_of(address); born[slot] != 0; slot = (slot + 1) & (BORN_CAPACITY - 1))
		if (born[slot] == address)
			return;
	born[slot] = address;
	born_count++;
}

static bool born_find(const void *pointer, size_t *found)
{
	uintptr_t address = (uintptr_t)pointer;
	size_t slot;

	for (slot = slot_of(address); born[slot] != 0; slot = (slot + 1) & (BORN_CAPACITY - 1)) {
		if (born[slot] == address) {
			*found = slot;
			return true;
		}
	}
	return false;
}

/* Linear probing's deletion without tombstones: later entries of the same run move back into
 * the hole when their home slot allows it, so the table never fills with dead slots. */
static void born_remove(const void *pointer)
{
	size_t hole, next;

	if (pointer == NULL || !born_find(pointer, &hole))
		return;
	born[hole] = 0;
	born_count--;
	for (next = (hole + 1) & (BORN_CAPACITY - 1); born[next] != 0;
	     next = (next + 1) & (BORN_CAPACITY - 1)) {
		size_t home = slot_of(born[next]);

		/* Move it when its home is not cyclically in (hole, next]. */
		if (hole <= next ? (home <= hole || home > next) : (home <= hole && home > next)) {
			born[hole] = born[next];
			born[next] = 0;
			hole = next;
		}
	}
}

static void on_new(const void *pointer, size_t size)
{
	(void)size;
	if (in_realloc || !counting)
		return;
	blocks++;
	born_insert(pointer);
}

static void on_delete(const void *pointer)
{
	if (!in_realloc)
		born_remove(pointer);
}

/* The executable's realloc, found before tcmalloc's by every library (cJSON included). A NULL
 * pointer is a malloc and a zero size a free: tc_realloc reports both through the hooks. */
void *realloc(void *pointer, size_t size)
{
	size_t slot;
	bool was_born;
	void *moved;

	if (!installed || pointer == NULL || size == 0)
		return tc_realloc(pointer, size);
	was_born = born_find(pointer, &slot);
	in_realloc = true;
	moved = tc_realloc(pointer, size);
	in_realloc = false;
	if (moved != NULL && was_born) {
		blocks++;
		if (moved != pointer) {
			born_remove(pointer);
			born_insert(moved);
		}
	}
	return moved;
}

int costgate_alloc_counter_install(void)
{
	void *table;

	if (installed)
		return 0;
	table = mmap(NULL, BORN_CAPACITY * sizeof(*born), PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (table == MAP_FAILED)
		return -1;
	born = table;
	if (!MallocHook_AddNewHook(on_new) || !MallocHook_AddDeleteHook(on_delete))
		return -1;
	installed = true;
	return 0;
}

void costgate_alloc_counter_enable(bool on)
{
	counting = on && installed;
}

uint64_t costgate_alloc_counter_blocks(void)
{
	return blocks;
}

bool costgate_alloc_counter_overflowed(void)
{
	return overflowed;
}
