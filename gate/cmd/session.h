/* One run of gate: what it holds and the steps it takes. Each step returns 0 to go on, or the
 * exit code to stop with (after printing why). The steps are session.c (prepare, measure, run),
 * session_outputs.c, session_baseline.c and session_report.c; what they decide is core/policy.c,
 * which prints nothing and has unit tests. */
#ifndef GATE_SESSION_H
#define GATE_SESSION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "acceptance.h"
#include "environment.h"
#include "error.h"
#include "manifest.h"
#include "measure.h"
#include "options.h"
#include "provenance.h"
#include "results.h"
#include "verdict.h"

/* Everything one run of gate holds, released in one place. */
struct session {
	const struct gate_options *options;
	char *valgrind;
	char *root;                    /* repository top directory, or NULL outside git */
	struct manifest manifest;      /* the scenarios to measure */
	struct provenance provenance;  /* what their DWARF says of how they were built */
	char unoptimised_fix[300];     /* how this host's build optimises, for a refusal */
	size_t built_count;            /* scenarios the build has, before --scenario */
	struct environment environment;
	struct acceptance acceptance;
	struct results baseline;
	char *baseline_source;
	char *baseline_commit;         /* the commit --baseline/--base-commit resolved to */
	char *baseline_ref;            /* the ref it was read from, for messages */
	bool have_baseline;
	struct results earlier;        /* without a baseline: the last results at --json, if readable;
					* only orders the runs */
	bool remeasured;
	struct measurement *measurements; /* one per selected scenario, or the merged shards' */
	size_t measurement_count;
	char **selected;               /* names selected before --shard, for shard documents; owned */
	size_t selected_count;
	bool partial;                  /* not the whole suite (--scenario, --shard): a baseline
					* scenario not measured here is not "missing" */
	char *raw_dir;                 /* --raw-dir made absolute: the runs have their own cwd */
	uint64_t messages;             /* N measured: --messages, else the baseline's, else 1000 */
	bool measured_here;            /* this run measured the build (not gate merge) */
	struct measure_options measure_options; /* as the scenarios were measured */
	uint64_t messages_first;       /* the N measured first when the head was measured again at
					* the baseline's (session_match_messages); else 0 */
	struct debugview debug_view;   /* what the runs see of /usr/lib/debug */
	uint64_t *messages_each;       /* --vary-n: each scenario's N, by manifest entry; owned */
	char *vary_seed;               /* --vary-n: the head commit they were drawn from; owned */
	uint64_t vary_lowest, vary_highest; /* --vary-n: the range they were drawn from */
	int locks[2];                  /* held on the raw directory and the results file */
	char *lock_paths[2];           /* their files, removed at the end; owned */
	size_t lock_count;
};

/* Prints "gate: error: MESSAGE" and returns code. */
int session_fail(int code, const struct gate_error *err);

/* mkdir -p. */
int session_make_directories(const char *path, struct gate_error *err);

/* Every output path checked before anything runs: --raw-dir is (or is made) a writable
 * directory, --json and --markdown name a file in a writable directory that exists. Returns 0,
 * or GATE_EXIT_USAGE after saying which path and why. */
int session_check_outputs(const struct gate_options *options);

/* The directory of --json made when it is the default (BUILD/gate): 0, or -1 with err. */
int session_make_json_directory(const struct gate_options *options, struct gate_error *err);

/* How this build is built again, as a user runs it from the repository's top: the build command
 * its manifest records, else CMake's. */
void session_build_command(const struct session *session, char *text, size_t size);

/* The build directory as outputs show it: relative to the repository's top when inside it (as
 * a user pastes a command there), else as given. Returns text. */
const char *session_shown_build_dir(const struct session *session, char *text, size_t size);

/* Locks the raw directory and the results file for this run (session_outputs.c): 0, or the exit
 * code after saying which is held and by whom. */
int session_lock_outputs(struct session *session);

/* Each scenario's lines placed in the repository and its source file found (session.c): 0, or
 * -1 with err. */
int session_find_sources(struct session *session, struct gate_error *err);

/* --save-baseline: baselines/BRANCH.json written whole (session_baseline.c): 0, or the exit
 * code after saying why. */
int session_save_baseline(struct session *session);

/* Finds valgrind, reads and selects the manifest, reads how the programs were built (a build
 * older than its sources is refused, exit 2), collects the environment. */
int session_prepare(struct session *session);

/* Reads baselines/accepted.json (or --accepted). */
int session_load_acceptance(struct session *session);

/* Loads --baseline REF or --baseline-file (exit 4 when absent, 2 when malformed). */
int session_load_baseline(struct session *session);

/* Measures every selected scenario with these options, its sources found: 0, or the exit code
 * after saying why (a scenario refused before it ran is a usage error). */
int session_measure_scenarios(struct session *session, const struct measure_options *measure_options);

/* Measures every selected scenario. */
int session_measure(struct session *session, struct measure_options *measure_options);

/* Re-measures the baseline ref in a worktree when the stored baseline is not comparable. */
int session_make_comparable(struct session *session, const struct measure_options *measure_options);

/* A head measured at another N than the baseline is compared only when both are linear within
 * SLOPE_COMPARABLE_LINEARITY_PERCENT; otherwise it is measured again at the baseline's N, and
 * gate says so. */
int session_match_messages(struct session *session, struct measure_options *measure_options);

/* Verdict, table, results.json, Markdown, annotations, --save-baseline. Returns the verdict's
 * exit code (or a worse one when writing failed). */
int session_decide_and_report(struct session *session);

/* The steps after session_prepare (gate) or the shards read (gate merge), in order: acceptances,
 * baseline, the measurements when `measure` (gate merge has its figures already), comparable,
 * matched in N when measured here, decided and reported. Returns 0, or the exit code of the
 * step that stopped. */
int session_run(struct session *session, struct measure_options *measure_options, bool measure);

void session_release(struct session *session);

#endif
