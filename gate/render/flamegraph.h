/* A differential flame graph: one message's call tree of the head (flame.h), each frame as wide
 * as its inclusive instructions per message, drawn against the baseline's figure on the same
 * call path. A frame that costs more is red and hatched, one that costs less blue and dotted, an
 * unchanged one grey, a new one red with "new": the change reads without colour too. One SVG, no
 * script, no font, nothing fetched; every frame's figures in its title (shown on hover). */
#ifndef GATE_FLAMEGRAPH_H
#define GATE_FLAMEGRAPH_H

#include <stdbool.h>
#include <stdio.h>

#include "error.h"
#include "flame.h"
#include "verdict.h"

/* The width every graph is drawn at, in SVG user units (the page scales it to its column). */
#define FLAMEGRAPH_WIDTH 960

/* Writes the graph of `changes` (flame_compare) for scenario `name`. `id` makes the ids of its
 * patterns unique in a page holding several graphs ([a-z0-9_]). `standalone`: a file of its own,
 * with the XML declaration and a fixed size; otherwise an element for the page, as wide as its
 * container. Returns how many frames were drawn changed (more or less than the baseline, or new). */
size_t flamegraph_write(FILE *out, const struct flame_change *changes, size_t count,
			const char *name, const char *id, bool standalone);

/* For every regressed row of `verdict` whose head and baseline both have a call tree, its graph
 * as the file DIRECTORY/flame.SCENARIO.svg (written whole: a temporary name, then renamed).
 * Returns how many were written, or -1 with err naming the file that could not be. */
int flamegraph_write_files(const struct verdict *verdict, const char *directory,
			   struct gate_error *err);

/* The kind of change of one frame, as the graph's class names it: "grew", "shrank", "new" or
 * "same". A change below 0.05 % of the region's cost, or below 0.5 % of the frame's, is "same". */
const char *flamegraph_kind(const struct flame_change *change, double region);

#endif
