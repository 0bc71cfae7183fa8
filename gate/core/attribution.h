/* Saying why: the project's functions whose instructions per message (own + system-library
 * callees) moved most between the baseline and the head, then the system-library leaves, and the
 * allocation sites whose blocks per message moved. Both sides are
 * slopes from their own N and 2N runs, so start-up cost never shows up as a per message change. */
#ifndef GATE_ATTRIBUTION_H
#define GATE_ATTRIBUTION_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stddef.h>

#include "measure.h"

/* At most this many rows each: the ones that explain the change, not the whole profile. */
#define ATTRIBUTION_ROWS 10
/* The system-library leaves are a shorter table under the project's functions. */
#define ATTRIBUTION_LEAVES 5

/* A project function ranks by its own instructions plus its direct system-library callees'
 * (function_cost.with_library), so "calls strlen more" shows at the function that calls it; a
 * system-library leaf ranks by its exclusive instructions. */
struct attribution_function {
	const char *name;           /* points into head or baseline */
	double head;                /* the ranked figure per message at head (0 when gone) */
	double baseline;            /* likewise in the baseline (0 when new) */
	double change;              /* head - baseline */
	double exclusive_change;    /* the change of its exclusive instructions */
	double inclusive_change;    /* the same for inclusive instructions */
	double share_percent;       /* change as a share of total_change (project functions; a
				     * leaf's is a part of the rows above it) */
	bool appeared;              /* not in the baseline's profile */
	bool disappeared;           /* not in the head's profile */
};

/* Room for a site's chain and its lines; longer text is cut (display only: identity is compared
 * on the whole chain). */
#define ATTRIBUTION_TEXT 512

/* A site is its chain of function names from the allocating function up to the region, without
 * lines, so lines inserted above it leave it the same site; the lines are shown beside it. */
struct attribution_site {
	char chain[ATTRIBUTION_TEXT];          /* "f < g < h"; sites of one chain are summed */
	char head_lines[ATTRIBUTION_TEXT];     /* "file.c:12, file.c:15" at head; "" when none */
	char baseline_lines[ATTRIBUTION_TEXT]; /* likewise in the baseline */
	double head_blocks;         /* blocks per message at head */
	double baseline_blocks;     /* in the baseline, or 0 without one */
	double blocks_change;
	double bytes_change;
	bool appeared;
	bool disappeared;
};

/* A source line of the project whose instructions per message (own + system-library callees,
 * the allocator apart) changed. Lines are matched by what they are, not by number: the same file,
 * function and text, the k-th line of that text in that function on both sides, so lines inserted
 * above a line leave it the same line. */
struct attribution_line {
	const char *file;      /* relative to the repository's top; points into head or baseline */
	uint64_t line;         /* its number at head (in the baseline when gone) */
	const char *function;  /* the function callgrind counts it under */
	const char *text;      /* its source text */
	double head;           /* per message at head (0 when gone) */
	double baseline;       /* in the baseline (0 when new) */
	double change;
	bool appeared;
	bool disappeared;
};

struct attribution {
	double total_change;        /* the program's instructions per message, head - baseline */
	double rest_change;         /* the part of total_change no row of `functions` shows: the
				     * project functions past the first ATTRIBUTION_ROWS, and system
				     * code the allocator reached through a library (strdup's
				     * malloc); with it the rows' shares add up to 100 % */
	double rest_share_percent;
	double allocator_change;    /* the allocator's instructions per message, head - baseline:
				     * reported apart, not part of total_change */
	double harness_change;      /* costgate's harness's own instructions per message (its
				     * functions' own + system-library callees), head - baseline:
				     * part of total_change and of the rest, never a project row */
	struct attribution_function functions[ATTRIBUTION_ROWS]; /* the project's, by |change| */
	size_t function_count;
	struct attribution_function leaves[ATTRIBUTION_LEAVES];  /* system libraries', by |change| */
	size_t leaf_count;
	struct attribution_site sites[ATTRIBUTION_ROWS];         /* blocks changed first, by
								  * |blocks_change| descending */
	size_t site_count;
	double syscall_change;      /* system calls per message, head - baseline */
	struct attribution_function syscalls[ATTRIBUTION_LEAVES]; /* project functions whose own
								   * and direct system-library
								   * callees' system calls per
								   * message changed, by |change|
								   * (head, baseline, change) */
	size_t syscall_count;
	struct attribution_function growing[ATTRIBUTION_LEAVES]; /* the head's project functions
								  * whose instructions per message
								  * (own + system-library callees)
								  * are higher from N to 2N than
								  * from 1 to N, most first: head
								  * the later slope, baseline the
								  * earlier, change the growth */
	size_t growing_count;
	struct attribution_line lines[ATTRIBUTION_ROWS]; /* the project's lines, by |change| */
	size_t line_count;
	/* The fill before each drain, outside the region (measurement.fill_per_message), when the
	 * head measured it: per message at head and in the baseline (has_fill_baseline: the
	 * baseline measured it too), and the project functions there whose instructions per
	 * message (own + system-library callees) changed most, the harness's apart; against a
	 * baseline without it, the head's dearest (baseline 0). */
	bool has_fill;
	bool has_fill_baseline;
	double fill_head, fill_baseline;
	struct attribution_function fill[ATTRIBUTION_LEAVES];
	size_t fill_count;
};

/* Compares head with baseline. Without a baseline (a floor breach on a first run) the sites are
 * the head's own, each counted as a change from nothing, and there are no function rows. Rows
 * with no change are left out. Returns -1 only when out of memory. */
int attribution_compute(struct attribution *attribution, const struct measurement *head,
			const struct measurement *baseline);

/* The attribution as JSON, for results.json (NULL when out of memory). */
cJSON *attribution_to_json(const struct attribution *attribution);

#endif
