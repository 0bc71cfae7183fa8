/* Time beside instructions: when a scenario's instructions per message went up, its native drain
 * (build/scenarios/native, no valgrind) is timed at head and in the baseline's build, in
 * interleaved rounds, so a reviewer sees whether the change also costs time. A change that adds
 * instructions can run faster (more, independent instructions instead of a table's dependent
 * loads): the line says so. Informational only: it never changes the verdict or the exit code. */
#ifndef GATE_WALL_CHECK_H
#define GATE_WALL_CHECK_H

#include "measure.h"
#include "verdict.h"

/* Drains of each side, alternating which goes first, and how long one drain is sized to last. */
#define WALL_CHECK_ROUNDS 5
#define WALL_CHECK_DRAIN_SECONDS 0.25

struct wall_check_options {
	const char *root;           /* the repository, for the baseline's worktree */
	const char *commit;         /* the baseline's commit; NULL when it came from a file */
	const char *head_build_dir; /* the head's build (its scenarios/native/manifest.txt) */
	const char *build_command;  /* the head's manifest's, for the baseline's worktree */
	const struct measure_options *measure; /* jobs and raw directory for the worktree build */
	double timeout_seconds;     /* per drain */
	int verbosity;
};

/* Sets row->wall of every row whose instructions per message went up (verdict_row_instructions_up):
 * the times, or why there are none (no native build, a baseline from a file, a build that
 * failed). Returns -1 only when out of memory. */
int wall_check_run(struct verdict *verdict, const struct wall_check_options *options);

#endif
