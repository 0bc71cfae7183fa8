/* Where a baseline comes from. `--baseline NAME` reads baselines/NAME.json as committed on the
 * branch NAME (a fully qualified ref, never a tag) or on `--base-commit`, and never the working
 * tree's copy, so a change cannot edit the baseline it is judged against. */
#ifndef GATE_BASELINE_H
#define GATE_BASELINE_H

#include <stdbool.h>

#include "error.h"
#include "results.h"

/* The outcome of a load: found, not there (exit 4), or there but malformed (exit 2). */
enum baseline_status { BASELINE_FOUND = 0, BASELINE_ABSENT = 1, BASELINE_MALFORMED = -1 };

/* The repository's top directory (`git rev-parse --show-toplevel` from the current directory),
 * owned; NULL when the current directory is not in a git repository. */
char *baseline_repository_root(void);

/* Which commit the baseline is read from. With `base_commit` (a full hash: what CI passes), that
 * commit. Else branch `name` as a fully qualified ref: refs/remotes/origin/NAME, else the one
 * other remote's refs/remotes/R/NAME, else refs/heads/NAME; but refs/heads/NAME when it has
 * every commit of the remote's and more (committed here, not pushed yet). A NAME starting with
 * "refs/" is taken exactly. Never a tag and never git's abbreviation rules. *commit (full hash)
 * and *ref (the ref read, for messages) are owned; *why (owned) says why that ref when a local
 * and a remote branch of the name differ, else NULL. Returns 0, or -1 with err listing the refs
 * looked at (no comparable baseline: exit 4). */
int baseline_resolve(const char *root, const char *name, const char *base_commit, char **commit,
		     char **ref, char **why, struct gate_error *err);

/* The repository's default branch (owned): the one refs/remotes/origin/HEAD points to, else main,
 * else master, as local or origin's branches; NULL when none of them is here. */
char *baseline_default_branch(const char *root);

/* The branch a --baseline NAME stands for: NAME, or the part after refs/heads/ or
 * refs/remotes/REMOTE/; NULL for any other refs/ name. baselines/BRANCH.json is its file. */
const char *baseline_branch_of(const char *name);

/* Checks a branch name given to `option`: a plain branch name (git's ref rules, within
 * [A-Za-z0-9._/-]: no revision syntax, no leading '-' or '.', no "..", no ".lock"), or with
 * `qualified` also refs/heads/NAME and refs/remotes/REMOTE/NAME; never a tag. Returns 0, or -1
 * with err naming the option and the name (a usage error: exit 2). */
int baseline_check_branch_name(const char *name, const char *option, bool qualified,
			       struct gate_error *err);

/* Reads baselines/BRANCH.json (BRANCH as baseline_branch_of() gives it) as committed in `commit`, which `ref`
 * resolved to. On success *source says what was read, e.g. "baselines/main.json at
 * refs/heads/main (1a2b3c4d5e6f)" (owned). */
enum baseline_status baseline_load_ref(struct results *baseline, const char *root,
				       const char *name, const char *commit, const char *ref,
				       char **source, struct gate_error *err);

/* Reads an explicit file. *source is the path (owned). */
enum baseline_status baseline_load_file(struct results *baseline, const char *path,
					char **source, struct gate_error *err);

/* Runs git with `arguments` (NULL-terminated, without "git") in `root`, capturing stdout: with
 * replace refs, grafts, hooks and every configuration but the repository's own off, in
 * baseline_git_environment(). */
int baseline_git(const char *root, const char *const *arguments, char **output,
		 struct gate_error *err);

/* gate's environment without GIT_* variables, with GIT_NO_REPLACE_OBJECTS=1, no system or user
 * configuration and no grafts: every git gate runs gets it. Made once; NULL when out of memory. */
char *const *baseline_git_environment(void);

#endif
