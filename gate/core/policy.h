/* The check's decisions: what `gate` measures and when it measures again, when two builds compare,
 * whether a baseline is exact, and the commands its reports print. Each takes what it decides
 * from as arguments and prints nothing, so each has a unit test (tests/unit/core/test_policy.c);
 * cmd/session*.c takes the steps around them. */
#ifndef GATE_POLICY_H
#define GATE_POLICY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "measurement.h"
#include "results.h"
#include "verdict.h"

#define POLICY_MESSAGES_MAX 100000ULL    /* the largest N gate measures */
#define POLICY_MESSAGES_DEFAULT 1000ULL  /* N when neither --messages nor a baseline says */

/* N: `requested` when it was given (--messages), else the baseline's when there is one with an N
 * gate measures (a baseline saved at 200 is compared at 200), else `requested` (the default). */
uint64_t policy_messages(uint64_t requested, bool given, const struct results *baseline);

/* --vary-n's range: (messages, 2 x messages], at most POLICY_MESSAGES_MAX. -1 with err when it
 * leaves no room. */
int policy_vary_range(uint64_t messages, uint64_t *lowest, uint64_t *highest,
		     struct gate_error *err);

/* --vary-n: one scenario's N in [lowest, highest], from the SHA-256 of the seed (the head
 * commit), a newline and its name: a program cannot know it in advance, and a rerun of the same
 * commit draws the same. */
uint64_t policy_vary_draw(const char *seed, const char *name, uint64_t lowest, uint64_t highest);

/* Whether every scenario measured (heads, count) was built as the baseline's of that name (the
 * same flags for it and its libraries, the same system packages); else false with the first
 * difference in `difference`. A failed head, one without a build, or one the baseline lacks
 * compares nothing. */
bool policy_builds_equal(const struct measurement *heads, size_t count,
			const struct results *baseline, char *difference, size_t size);

/* Whether the head, measured at `messages`, must be measured again at the baseline's N: only
 * when the Ns differ and a scenario of both sides is not linear enough to compare across N
 * (SLOPE_COMPARABLE_LINEARITY_PERCENT) in a gated figure. Returns the baseline's N then, with
 * that scenario's name and linearity into *name and *percent; else 0. */
uint64_t policy_measure_again_at(const struct measurement *heads, size_t count, uint64_t messages,
				const struct results *baseline, const char **name, double *percent);

/* --exact: whether one row's figures (instructions and allocations, per message and cold) are
 * the baseline's to the last instruction; else false with why, one line, in `why`. */
bool policy_row_exact(const struct verdict_row *row, char *why, size_t size);

/* What refreshes the baseline, as a user pastes it at the repository's top: `make baseline` in
 * costgate's own tree (own_makefile), else gate with the build directory when it is not
 * `build`, the baseline's N when it is not the default, and the branch of `baseline_ref` (main
 * when NULL). */
void policy_refresh_command(char *text, size_t size, bool own_makefile, const char *build_dir,
			   uint64_t messages, const char *baseline_ref);

/* What a run is repeated with locally: the build (`make && build/gate/gate` in costgate's own
 * tree, else `build_command && gate`), then the run's N, --vary-n, --baseline and each
 * --scenario. */
struct policy_run_words {
	bool own_makefile;
	const char *build_command;
	const char *build_dir;         /* as shown: --build-dir when not `build` */
	uint64_t messages;
	bool vary_n;
	const char *baseline_ref;      /* NULL: none */
	char *const *scenarios;
	size_t scenario_count;
};

void policy_reproduce_command(char *text, size_t size, const struct policy_run_words *run);

#endif
