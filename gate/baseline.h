/* Where a baseline comes from. `--baseline REF` reads baselines/REF.json as committed on the git
 * ref (else origin/REF) and never the working tree's copy, so a change cannot edit the baseline
 * it is judged against. */
#ifndef GATE_BASELINE_H
#define GATE_BASELINE_H

#include "error.h"
#include "results.h"

/* The outcome of a load: found, not there (exit 4), or there but malformed (exit 2). */
enum baseline_status { BASELINE_FOUND = 0, BASELINE_ABSENT = 1, BASELINE_MALFORMED = -1 };

/* The repository's top directory (`git rev-parse --show-toplevel` from the current directory),
 * owned; NULL when the current directory is not in a git repository. */
char *baseline_repository_root(void);

/* Reads baselines/NAME.json from git ref NAME, else origin/NAME, in the repository at `root`.
 * On success *source says what was read, e.g. "baselines/main.json at main (1a2b3c4)" (owned). */
enum baseline_status baseline_load_ref(struct results *baseline, const char *root,
				       const char *name, char **source, struct gate_error *err);

/* Reads an explicit file. *source is the path (owned). */
enum baseline_status baseline_load_file(struct results *baseline, const char *path,
					char **source, struct gate_error *err);

/* The commit a ref names (full hash, owned), trying REF then origin/REF; NULL when neither. */
char *baseline_resolve_ref(const char *root, const char *name);

/* Runs git with `arguments` (NULL-terminated, without "git") in `root`, capturing stdout. */
int baseline_git(const char *root, const char *const *arguments, char **output,
		 struct gate_error *err);

#endif
