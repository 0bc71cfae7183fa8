/* The manifest the build writes (build/scenarios/manifest.txt): which scenario executables exist
 * and how they were compiled. gate measures what it lists and guesses no directories. */
#ifndef GATE_MANIFEST_H
#define GATE_MANIFEST_H

#include <stddef.h>

#include "error.h"

struct manifest_entry {
	char *name; /* scenario name; owned */
	char *path; /* absolute path of its executable; owned */
	char *build; /* the flags it and the libraries it links were compiled and linked with, as
		      * the build computed them (one line, spaces collapsed); owned, NULL when the
		      * manifest does not say */
};

struct manifest {
	char *costgate;                 /* the harness's version, "0.2.0"; owned, NULL if not said */
	char *compiler;                 /* "GNU 12.2.0"; owned */
	char *flags;                    /* the flags as the build says it passed them, "-O2 -g";
					 * owned (the fingerprint's are read from the programs:
					 * provenance.h) */
	char *build_command;            /* how the scenarios are built, a shell command run from
					 * the repository's top directory ("make"), for the base's
					 * worktree; owned, NULL when the manifest does not say (a
					 * CMake build: gate configures and builds it) */
	struct manifest_entry *entries; /* sorted by name, names unique; owned */
	size_t entry_count;
};

#define MANIFEST_INIT { 0 }

/* Reads `path`. Lines: "# comment", "costgate VERSION", "compiler TEXT", "flags TEXT",
 * "scenario NAME PATH" (PATH is the rest of the line and may hold spaces), "build NAME TEXT" and
 * "build-command TEXT", in any order. Unknown keys, duplicate names, a build line for a scenario not listed or given
 * twice, a missing compiler or flags line: errors naming the file and line. */
int manifest_read(struct manifest *manifest, const char *path, struct gate_error *err);

/* Keeps only the entries whose name matches one of `patterns` (fnmatch globs). A pattern that
 * matches nothing is an error listing the known names. No patterns: keeps everything. */
int manifest_select(struct manifest *manifest, char *const *patterns, size_t pattern_count,
		    struct gate_error *err);

/* Keeps shard `index` (1-based) of `count`: the entries whose position in name order is
 * congruent to index-1 modulo count, so the split depends on names alone. */
void manifest_shard(struct manifest *manifest, unsigned index, unsigned count);

void manifest_release(struct manifest *manifest);

#endif
