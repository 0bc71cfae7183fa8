/* The call tree of one message, for a flame graph: every call path from the measured region down,
 * with its inclusive instructions per message, from callgrind's call graph of the N..2N part.
 * callgrind keeps a function's calls, not the paths that led to it: a function reached on two
 * paths has its calls shared between them in proportion to what each path's call to it cost
 * (the reading every call-graph viewer makes). A path's figure is exact where its function has one
 * caller, which is the case for most of a handler's tree. */
#ifndef GATE_FLAME_H
#define GATE_FLAME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "callgrind.h"

/* One call path: the frames in depth-first order, each below the nearest frame before it one
 * level up; siblings by name. */
struct flame_frame {
	char *name;          /* the function, as callgrind names it; owned */
	uint64_t depth;      /* 0 for the region */
	double instructions; /* inclusive instructions per message on this path */
};

/* A path below this share of the region is left out, and at most this many frames kept (the
 * dearest): a results document stays bounded whatever the library. */
#define FLAME_MIN_SHARE 0.002
#define FLAME_FRAMES_MAX 300

struct flame {
	struct flame_frame *frames; /* owned */
	size_t count;
};

/* The tree below the function `region` of `part` (one part of a callgrind run, as
 * cg_profile_parse read it, calls included) over `messages` messages. A profile without that
 * function gives an empty tree. Returns -1 only when out of memory, *flame empty. */
int flame_from_profile(struct flame *flame, const struct cg_profile *part, const char *region,
		       uint64_t messages);

/* One frame of the head's tree against the baseline's: the head's frame and the baseline's
 * figure on the same call path. */
struct flame_change {
	const char *name;    /* points into the head's frames */
	uint64_t depth;
	double head;         /* per message */
	double baseline;     /* per message, 0 when the path is new */
	bool appeared;       /* the baseline has no such path */
};

/* Pairs the head's frames with the baseline's by call path: *changes gets one entry per head
 * frame, in its order (owned array; NULL when the head has none). -1 when out of memory. A
 * baseline path the head no longer takes has no width to draw and is left out. */
int flame_compare(struct flame_change **changes, size_t *count, const struct flame_frame *head,
		  size_t head_count, const struct flame_frame *baseline, size_t baseline_count);

/* Whether frames read from a document make a tree: the first at depth 0 and each at most one
 * level below the one before it. */
bool flame_frames_valid(const struct flame_frame *frames, size_t count);

void flame_frames_release(struct flame_frame *frames, size_t count);
void flame_release(struct flame *flame); /* NULL-safe, leaves it empty */

#endif
