/* Runs child processes for gate: sealed (a given environment, a fixed working directory, address
 * randomization off, stdin from /dev/null), in parallel up to a limit, longest first, each with
 * a deadline. Children start with an argv array, never through a shell. */
#ifndef GATE_RUNNER_H
#define GATE_RUNNER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "error.h"

/* Most jobs one job may come after. */
#define RUNNER_AFTER_MAX 6
/* Most marks (runner_options.mark) a job keeps the time of. */
#define RUNNER_MARKS_MAX 8

/* What a job's log keeps of its output, at each end. */
#define RUNNER_LOG_KEEP (64 * 1024)
/* Most children at once. */
#define RUNNER_PARALLEL_MAX 256

struct runner_job {
	/* Set by the caller. */
	char *const *argv;     /* program (a path) and arguments, NULL-terminated */
	const char *directory; /* working directory of the child */
	const char *log_path;  /* the child's stdout and stderr go here (created or truncated):
				* the first and last RUNNER_LOG_KEEP bytes, with a line saying how
				* many were dropped between them */
	const char *input_path; /* when set, the child's stdin is this file; else /dev/null */
	const char *output_path; /* when set, the child's stdout goes whole to this file (at most
				  * RUNNER_CAPTURE_MAX bytes: past it the child is killed by
				  * SIGXFSZ) and only its stderr to the log */
	uint64_t weight;       /* expected cost: heavier jobs start first */
	void *context;         /* for the caller's progress callback */
	/* Jobs (of the same runner_run) this one starts after, NULL after the last: it is
	 * skipped when one of them did not succeed. */
	struct runner_job *after[RUNNER_AFTER_MAX];

	/* Set by runner_run. */
	bool finished;      /* ended, could not start or was skipped */
	bool skipped;       /* never started: a job it comes after failed */
	double timeout_seconds; /* the deadline it got (options->budget or ->timeout_seconds) */
	bool started;       /* false when the child could not be started (see spawn_error) */
	int spawn_error;    /* errno of a failed start, else 0 */
	bool exited;        /* the child exited (then exit_code is valid) */
	int exit_code;
	int signal;         /* the signal that ended it, else 0 */
	bool timed_out;     /* killed by the runner at its deadline */
	unsigned leftovers; /* processes the child left running when it ended (all killed) */
	double seconds;     /* wall time from start to reaping */
	unsigned marks;     /* how often the child printed options->mark */
	double mark_seconds[RUNNER_MARKS_MAX]; /* when, in seconds from its start (the first ones) */
	double cpu_seconds; /* user + system time of the child and its descendants */
};

struct runner_options {
	unsigned parallel;          /* children at once, 1 to RUNNER_PARALLEL_MAX */
	double timeout_seconds;     /* per child; 0 means none */
	char *const *environment;   /* the children's whole environment, NULL-terminated */
	bool no_randomize;          /* turn address-space randomization off in the child */
	/* Called in each child after fork, before the rest of its set-up: async-signal-safe calls
	 * only (it may enter new namespaces: debugview.h). Nonzero, with errno set, fails the start.
	 * May be NULL. */
	int (*child_enter)(const void *child_context);
	const void *child_context;
	/* Called once per finished job, with how many remain to finish. May be NULL. */
	void (*progress)(const struct runner_job *job, size_t remaining, void *progress_context);
	void *progress_context;
	/* The deadline of a job in seconds from its start (0: none), asked as it starts, when the
	 * jobs it comes after have ended, and again each time it prints `mark`. May be NULL: then
	 * timeout_seconds for every job. */
	double (*budget)(const struct runner_job *job, void *progress_context);
	/* A text a child prints on stdout or stderr to say it got further (the harness's
	 * snapshots): counted in job->marks. May be NULL. */
	const char *mark;
	/* Called as a job is about to start, once the jobs it comes after have ended well: it may
	 * set the job's argv, directory and log_path then (a job may be planned before what it
	 * needs is known). Nonzero skips the job. May be NULL. */
	int (*prepare)(struct runner_job *job, void *progress_context);
};

/* Runs every job to its end (or deadline). Each child leads its own session, dies with gate
 * (PR_SET_PDEATHSIG) and, once it has ended, every process it left running is killed and counted
 * in `leftovers` (gate makes itself a subreaper, so orphans of a run are its own). Returns 0 when
 * the runner itself worked, whatever the children did (each job says how it ended); -1 only when
 * the runner could not wait or fork at all, after killing and reaping what it started. */
int runner_run(struct runner_job *jobs, size_t job_count, const struct runner_options *options,
	       struct gate_error *err);

/* Runs argv (argv[0] an absolute path) in `directory` (NULL: here) with `environment` and waits
 * for it, with only what a signal handler may call (fork, chdir, execve, _exit, waitpid): gate's
 * cleanup on Ctrl-C (a temporary worktree, a debug view) runs through it. It reports nothing: a
 * cleanup that cannot run leaves what gate's next run sweeps. */
void runner_run_and_wait(char *const *argv, const char *directory, char *const *environment);

/* Calls `call` in a child process of its own (one that may change its namespaces, its mounts,
 * its credentials, and then ends) and returns what it returned: 0, or an errno; ECHILD when the
 * child ended otherwise, or the errno of a fork or pipe that failed. */
int runner_call_in_child(int (*call)(void *context), void *context);

/* The most runner_capture reads (git show of a baseline, --describe): far above real use (10,000
 * scenarios at the 7 KB a real one takes make a 70 MB baseline); past it the capture is an
 * error, never cut short. */
#define RUNNER_CAPTURE_MAX ((size_t)256 << 20)
#define RUNNER_CAPTURE_LIMIT_TEXT "256 MiB"

/* Runs one short command and captures its whole stdout into *output (owned, NUL-ended).
 * The child's stderr goes to `log_path` (or /dev/null when NULL). Returns 0 when it exited 0;
 * otherwise -1 with err saying how it ended ("exited with 2", "killed by signal 11", ...). */
int runner_capture(char *const *argv, const char *directory, char *const *environment,
		   double timeout_seconds, char **output, struct gate_error *err);

/* "exited with 1", "killed by signal 11 (Segmentation fault)", "timed out after 5 s", "could
 * not start: No such file or directory": how a job ended, for messages. */
void runner_describe_end(const struct runner_job *job, double timeout_seconds, char *text,
			 size_t text_size);

/* Finds `name` on the PATH of `path_variable` (a name with a slash is taken as it is). Returns
 * an owned path, or NULL when there is no executable of that name. */
char *runner_find_program(const char *name, const char *path_variable);

/* Kills the process group of every child the runner has started and not yet reaped. Only
 * async-signal-safe calls: for a signal handler. */
void runner_kill_all(void);

/* true when the job ran and exited 0. */
bool runner_job_succeeded(const struct runner_job *job);

#endif
