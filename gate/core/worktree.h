/* Re-measuring the target branch here, when the stored baseline was measured with another
 * toolchain: a temporary git worktree of the ref, built with this machine's toolchain and
 * measured with the same options. The worktree is removed on every exit path. */
#ifndef GATE_WORKTREE_H
#define GATE_WORKTREE_H

#include <stdbool.h>

#include "environment.h"
#include "error.h"
#include "measure.h"
#include "results.h"

/* What the base's worktree is made from. */
struct worktree_source {
	const char *root;           /* the repository's top directory */
	const char *commit;         /* the commit checked out (baseline_resolve) */
	const char *ref;            /* the ref it was resolved from, for messages */
	const char *head_build_dir; /* the head's build: its place relative to the root is the
				     * worktree's build's; a CMake one's cache options and
				     * generator configure the worktree */
	const char *build_command;  /* the head's manifest's build command, or NULL */
};

/* Measures `source->commit` into `baseline` (its fingerprint is that build's). The worktree is
 * built as the head was: by the head's manifest's build command (run by /bin/sh from the
 * worktree's top with COSTGATE_BUILD_DIR set to where its build goes), else, for a CMake build
 * (a CMakeCache.txt), configured with the head's cache options (costgate-configure.cmake, which
 * costgate_add_scenarios() writes) and generator; anything else cannot be built and the error
 * says what to do. *what says what was measured (owned). Returns 0, or -1 with err set when the
 * worktree, the build or any scenario's measurement failed: then there is no comparable
 * baseline. */
int worktree_measure(struct results *baseline, const struct worktree_source *source,
		     const struct measure_options *options, const char *valgrind, char **what,
		     struct gate_error *err);

/* Checks `source->commit` out in a temporary worktree and builds it as worktree_measure does;
 * *build_dir (owned) is its build directory, which stays until worktree_cleanup(). Returns 0, or
 * -1 with err set (the worktree then removed). */
int worktree_build(const struct worktree_source *source, const struct measure_options *options,
		   char **build_dir, struct gate_error *err);

/* Whether `build_dir` is a CMake build (it holds a CMakeCache.txt). */
bool worktree_cmake_build(const char *build_dir);

/* Removes a worktree this process created and has not removed yet, and forgets it (exit paths;
 * safe to call when there is none). */
void worktree_cleanup(void);

/* The same with async-signal-safe calls only (fork, execve, waitpid, rmdir), for a signal handler
 * that is about to end the process: git removes the worktree, nothing is freed. */
void worktree_abandon(void);

#endif
