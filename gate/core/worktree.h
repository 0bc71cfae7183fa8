/* Re-measuring the target branch here, when the stored baseline was measured with another
 * toolchain: a temporary git worktree of the ref, built with this machine's toolchain and
 * measured with the same options. The worktree is removed on every exit path. */
#ifndef GATE_WORKTREE_H
#define GATE_WORKTREE_H

#include "environment.h"
#include "error.h"
#include "measure.h"
#include "results.h"

/* Measures `commit` (which `ref` resolved to: baseline_resolve) of the repository at `root` into
 * `baseline` (its fingerprint is that build's). The worktree is configured with the cache
 * options the head's build was (`head_build_dir`/costgate-configure.cmake, which
 * costgate_add_scenarios() writes), so the same flags are compared. *source says what was
 * measured (owned). Returns 0, or -1 with err set when the worktree, the build or any scenario's
 * measurement failed: then there is no comparable baseline. */
int worktree_measure(struct results *baseline, const char *root, const char *commit,
		     const char *ref, const char *head_build_dir,
		     const struct measure_options *options, const char *valgrind, char **source,
		     struct gate_error *err);

/* Checks `commit` out in a temporary worktree and builds it as worktree_measure does; *build_dir
 * (owned) is its build directory, which stays until worktree_cleanup(). Returns 0, or -1 with
 * err set (the worktree then removed). */
int worktree_build(const char *root, const char *commit, const char *head_build_dir,
		   const struct measure_options *options, char **build_dir, struct gate_error *err);

/* Removes a worktree this process created and has not removed yet, and forgets it (exit paths;
 * safe to call when there is none). */
void worktree_cleanup(void);

/* The same with async-signal-safe calls only (fork, execve, waitpid, rmdir), for a signal handler
 * that is about to end the process: git removes the worktree, nothing is freed. */
void worktree_abandon(void);

#endif
