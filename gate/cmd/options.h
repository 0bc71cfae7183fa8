/* gate's command line, parsed and validated into one struct before anything runs. */
#ifndef GATE_OPTIONS_H
#define GATE_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "policy.h"
#include "error.h"
#include "optlayer.h"

/* The most deliveries a run may have (DHAT at 200,000 deliveries of 1 KB needed 669 MiB), and
 * N when neither --messages nor a baseline says: the check's own (policy.h). */
#define OPTIONS_MESSAGES_MAX POLICY_MESSAGES_MAX
#define OPTIONS_MESSAGES_DEFAULT POLICY_MESSAGES_DEFAULT

struct gate_options {
	uint64_t messages;        /* N: the runs are at 1, N and 2N deliveries */
	bool messages_given;      /* --messages: else the baseline's N, when there is one */
	char **scenarios;         /* names or globs (point into argv); owned array */
	size_t scenario_count;
	unsigned jobs;            /* valgrind runs at once */
	double timeout_seconds;   /* per run with --timeout; else the ceiling of scaled deadlines */
	bool timeout_given;       /* --timeout: every run gets timeout_seconds */
	const char *build_dir;    /* the build whose scenarios are measured */
	char *json_path;          /* owned */
	bool json_default;        /* --json not given: BUILD/gate/results.json, directory made */
	char *raw_dir;            /* owned */
	const char *baseline_ref; /* --baseline NAME: a branch */
	const char *base_commit;  /* --base-commit SHA: read NAME's baseline from this commit */
	const char *baseline_file;
	bool baseline_optional;   /* no baseline to be had: say so and gate on floors only */
	const char *save_baseline; /* --save-baseline NAME */
	const char *accepted_path; /* acceptance entries; NULL: baselines/accepted.json */
	const char *markdown_path; /* --markdown FILE */
	bool explain;             /* attribute every scenario, not only the ones over a limit */
	bool no_wall_check;       /* no wall clock beside an instruction regression */
	bool verify;              /* measure every run twice and require the same counts */
	bool all_metrics;         /* opt-in metrics (estimated cycles) for every scenario */
	bool full_debug_info;     /* runs read the system's debug files whole (debugview.h) */
	bool vary_n;              /* each scenario's N drawn above --messages (session.c) */
	bool cross_check;         /* count allocations again natively (tcmalloc's hooks) and
				   * require DHAT's figures */
	bool exact;               /* the baseline must hold exactly these counts (a refresh check) */
	const char *check_raw;    /* gate merge: re-read every count from the raw files here */
	const char *check_build;  /* gate merge: compare the sealed programs with this build's */
	int verbosity;            /* 0 quiet, 1 default, 2 verbose */
	unsigned shard_index;     /* --shard K/M: K (1-based); 0/0 without sharding */
	unsigned shard_count;     /* M */
	char **inputs;            /* gate merge: the shard files (point into argv); owned array */
	size_t input_count;
	bool help;
	bool version;
};

/* Parses argv. Returns 0, or -1 with err naming the bad argument (the caller exits 2). */
int options_parse(struct gate_options *options, int argc, char **argv, struct gate_error *err);

/* gate's own options checked together and their defaults filled (after options_start and the
 * parse; gate check's finish): 0, or -1 with err (a usage error). */
int options_finish(struct gate_options *options, struct gate_error *err);

/* The defaults, and where the shared options land in `options` (options_parse; gate merge, whose
 * command line command_main parses with merge_spec: the reporting and baseline options, the
 * measuring ones refused). */
void options_start(struct gate_options *options, struct common_targets *common);

/* gate merge's shard files, after its options: the defaults that depend on them (as
 * options_parse). 0, or -1 with err. */
int options_finish_merge(struct gate_options *options, char *const *files, size_t count,
			 struct gate_error *err);

/* The --help text; `subcommands` (the command table's lines, or NULL) goes before the exit
 * codes. */
void options_usage(FILE *out, const char *subcommands);

void options_release(struct gate_options *options);

/* gate's and gate merge's options, for gate(1) and the completion (optdoc.h). */
extern const struct command_spec gate_spec, merge_spec;

#endif
