/* The child-process runner. fork + execve rather than posix_spawn, because the child must turn
 * off address randomization (what `setarch -R` does) and lead its own process group, so that a
 * deadline kills valgrind and everything it started. Waiting is sigtimedwait on SIGCHLD: no
 * polling, and the nearest deadline bounds the wait. */
#define _GNU_SOURCE
#include "runner.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/personality.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* Every child process group alive, for runner_kill_all in a signal handler. */
#define TRACKED_MAX 512
static volatile sig_atomic_t tracked[TRACKED_MAX];

static void track(pid_t pid)
{
	size_t i;

	for (i = 0; i < TRACKED_MAX; i++) {
		if (tracked[i] == 0) {
			tracked[i] = pid;
			return;
		}
	}
}

static void untrack(pid_t pid)
{
	size_t i;

	for (i = 0; i < TRACKED_MAX; i++)
		if (tracked[i] == pid)
			tracked[i] = 0;
}

void runner_kill_all(void)
{
	size_t i;

	for (i = 0; i < TRACKED_MAX; i++)
		if (tracked[i] > 0)
			kill(-(pid_t)tracked[i], SIGKILL);
}

struct child {
	pid_t pid;
	struct runner_job *job;
	struct timespec started_at;
};

static double seconds_since(const struct timespec *start)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - start->tv_sec) + (double)(now.tv_nsec - start->tv_nsec) / 1e9;
}

/* The streams and settings a child starts with. */
struct child_setup {
	char *const *argv;
	const char *directory;
	char *const *environment;
	int output;        /* becomes stdout */
	int errors;        /* becomes stderr */
	bool no_randomize;
	const sigset_t *mask; /* the signal mask the child gets back */
};

/* In the child, after fork: only async-signal-safe calls. Reports a failure's errno through
 * `report` (close-on-exec, so a successful execve closes it with nothing written). */
static void become_child(const struct child_setup *setup, int report)
{
	int input = open("/dev/null", O_RDONLY);
	int saved;

	setpgid(0, 0);
	if (setup->no_randomize)
		(void)personality(ADDR_NO_RANDOMIZE);
	if (input < 0 || dup2(input, STDIN_FILENO) < 0 ||
	    dup2(setup->output, STDOUT_FILENO) < 0 || dup2(setup->errors, STDERR_FILENO) < 0 ||
	    (setup->directory != NULL && chdir(setup->directory) != 0))
		goto failed;
	sigprocmask(SIG_SETMASK, setup->mask, NULL);
	execve(setup->argv[0], setup->argv, setup->environment);
failed:
	saved = errno;
	if (write(report, &saved, sizeof(saved)) < 0)
		_exit(127);
	_exit(127);
}

/* Forks and execs; returns the pid, or -1 with *spawn_error set when the child never ran. */
static pid_t start_child(const struct child_setup *setup, int *spawn_error)
{
	int report[2];
	int child_errno = 0;
	ssize_t got;
	pid_t pid;

	if (pipe2(report, O_CLOEXEC) != 0) {
		*spawn_error = errno;
		return -1;
	}
	pid = fork();
	if (pid < 0) {
		*spawn_error = errno;
		close(report[0]);
		close(report[1]);
		return -1;
	}
	if (pid == 0) {
		close(report[0]);
		become_child(setup, report[1]);
	}
	setpgid(pid, pid);
	track(pid);
	close(report[1]);
	do
		got = read(report[0], &child_errno, sizeof(child_errno));
	while (got < 0 && errno == EINTR);
	close(report[0]);
	if (got == (ssize_t)sizeof(child_errno)) {
		waitpid(pid, NULL, 0);
		untrack(pid);
		*spawn_error = child_errno;
		return -1;
	}
	*spawn_error = 0;
	return pid;
}

static void record_end(struct child *child, int status, const struct rusage *usage)
{
	struct runner_job *job = child->job;

	job->seconds = seconds_since(&child->started_at);
	job->cpu_seconds = (double)usage->ru_utime.tv_sec + (double)usage->ru_utime.tv_usec / 1e6 +
			   (double)usage->ru_stime.tv_sec + (double)usage->ru_stime.tv_usec / 1e6;
	if (WIFEXITED(status)) {
		job->exited = true;
		job->exit_code = WEXITSTATUS(status);
	} else if (WIFSIGNALED(status)) {
		job->signal = WTERMSIG(status);
	}
}

static int compare_weight(const void *left, const void *right)
{
	const struct runner_job *a = *(struct runner_job *const *)left;
	const struct runner_job *b = *(struct runner_job *const *)right;

	if (a->weight != b->weight)
		return a->weight > b->weight ? -1 : 1;
	return a < b ? -1 : (a > b);
}

struct pool {
	const struct runner_options *options;
	struct child *children; /* `options->parallel` places; pid 0 when free */
	size_t running;
	size_t remaining;
	sigset_t old_mask;
};

static void finish(struct pool *pool, struct runner_job *job)
{
	pool->remaining--;
	if (pool->options->progress != NULL)
		pool->options->progress(job, pool->remaining, pool->options->progress_context);
}

static void launch(struct pool *pool, struct runner_job *job)
{
	struct child_setup setup = {
		.argv = job->argv,
		.directory = job->directory,
		.environment = pool->options->environment,
		.no_randomize = pool->options->no_randomize,
		.mask = &pool->old_mask,
	};
	struct child *place = NULL;
	size_t i;

	for (i = 0; i < pool->options->parallel && place == NULL; i++)
		if (pool->children[i].pid == 0)
			place = &pool->children[i];
	setup.output = open(job->log_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	setup.errors = setup.output;
	if (setup.output < 0) {
		job->spawn_error = errno;
		finish(pool, job);
		return;
	}
	clock_gettime(CLOCK_MONOTONIC, &place->started_at);
	place->pid = start_child(&setup, &job->spawn_error);
	close(setup.output);
	if (place->pid < 0) {
		place->pid = 0;
		finish(pool, job);
		return;
	}
	place->job = job;
	job->started = true;
	pool->running++;
}

/* Reaps every child that has ended. Returns how many. */
static size_t reap(struct pool *pool)
{
	size_t reaped = 0, i;

	for (i = 0; i < pool->options->parallel; i++) {
		struct child *child = &pool->children[i];
		struct rusage usage;
		int status;

		if (child->pid == 0 || wait4(child->pid, &status, WNOHANG, &usage) != child->pid)
			continue;
		record_end(child, status, &usage);
		untrack(child->pid);
		child->pid = 0;
		pool->running--;
		reaped++;
		finish(pool, child->job);
	}
	return reaped;
}

/* Kills the children past their deadline; returns the seconds until the next deadline (or a
 * long wait when there is none). */
static double enforce_deadlines(struct pool *pool)
{
	double timeout = pool->options->timeout_seconds, next = 3600;
	size_t i;

	for (i = 0; i < pool->options->parallel; i++) {
		struct child *child = &pool->children[i];
		double left;

		if (child->pid == 0 || timeout <= 0 || child->job->timed_out)
			continue;
		left = timeout - seconds_since(&child->started_at);
		if (left <= 0) {
			kill(-child->pid, SIGKILL);
			child->job->timed_out = true;
		} else if (left < next) {
			next = left;
		}
	}
	return next;
}

static void wait_for_a_child(struct pool *pool)
{
	double wait = enforce_deadlines(pool);
	struct timespec timeout;
	sigset_t chld;

	if (wait < 0.001)
		wait = 0.001;
	timeout.tv_sec = (time_t)wait;
	timeout.tv_nsec = (long)((wait - (double)timeout.tv_sec) * 1e9);
	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	(void)sigtimedwait(&chld, NULL, &timeout);
}

int runner_run(struct runner_job *jobs, size_t job_count, const struct runner_options *options,
	       struct gate_error *err)
{
	struct pool pool = { .options = options, .remaining = job_count };
	struct runner_job **order = calloc(job_count ? job_count : 1, sizeof(*order));
	sigset_t chld;
	size_t next = 0, i;

	pool.children = calloc(options->parallel ? options->parallel : 1, sizeof(*pool.children));
	if (options->parallel == 0) {
		free(order);
		free(pool.children);
		return gate_error_set(err, "the runner needs at least one job at a time");
	}
	if (order == NULL || pool.children == NULL) {
		free(order);
		free(pool.children);
		return gate_error_set(err, "out of memory");
	}
	for (i = 0; i < job_count; i++)
		order[i] = &jobs[i];
	qsort(order, job_count, sizeof(*order), compare_weight);
	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	sigprocmask(SIG_BLOCK, &chld, &pool.old_mask);
	while (pool.remaining > 0) {
		while (pool.running < options->parallel && next < job_count)
			launch(&pool, order[next++]);
		if (pool.running > 0 && reap(&pool) == 0)
			wait_for_a_child(&pool);
	}
	sigprocmask(SIG_SETMASK, &pool.old_mask, NULL);
	free(order);
	free(pool.children);
	return 0;
}

enum capture_end { CAPTURE_DONE, CAPTURE_TIMED_OUT, CAPTURE_TOO_LARGE, CAPTURE_NO_MEMORY };

/* Reads the child's stdout whole until EOF, the deadline or RUNNER_CAPTURE_MAX bytes. */
static enum capture_end read_output(int fd, double timeout_seconds, const struct timespec *start,
				    char **output, size_t *length)
{
	size_t capacity = 4096;
	char *buffer = malloc(capacity);

	*length = 0;
	if (buffer == NULL)
		return CAPTURE_NO_MEMORY;
	for (;;) {
		double left = timeout_seconds > 0 ? timeout_seconds - seconds_since(start) : 3600;
		struct pollfd ready = { .fd = fd, .events = POLLIN };
		ssize_t got;

		if (left <= 0 || poll(&ready, 1, (int)(left * 1000) + 1) == 0) {
			free(buffer);
			return CAPTURE_TIMED_OUT;
		}
		if (*length + 1 >= capacity) {
			char *grown;

			if (capacity >= RUNNER_CAPTURE_MAX) {
				free(buffer);
				return CAPTURE_TOO_LARGE;
			}
			grown = realloc(buffer, capacity * 2);
			if (grown == NULL) {
				free(buffer);
				return CAPTURE_NO_MEMORY;
			}
			buffer = grown;
			capacity *= 2;
		}
		got = read(fd, buffer + *length, capacity - *length - 1);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			break;
		*length += (size_t)got;
	}
	buffer[*length] = '\0';
	*output = buffer;
	return CAPTURE_DONE;
}

/* Waits for pid until the deadline (timeout_seconds after start; none when 0). Returns -1 when
 * the deadline passed with the child still running. */
static int wait_until(pid_t pid, double timeout_seconds, const struct timespec *start, int *status)
{
	for (;;) {
		pid_t got = waitpid(pid, status, timeout_seconds > 0 ? WNOHANG : 0);
		struct timespec pause = { 0, 10 * 1000 * 1000 };

		if (got == pid)
			return 0;
		if (got < 0 && errno != EINTR)
			return 0;
		if (timeout_seconds > 0 && seconds_since(start) >= timeout_seconds)
			return -1;
		if (got == 0)
			nanosleep(&pause, NULL);
	}
}

int runner_capture(char *const *argv, const char *directory, char *const *environment,
		   double timeout_seconds, char **output, struct gate_error *err)
{
	struct runner_job job = { .argv = argv, .directory = directory };
	sigset_t mask;
	struct child_setup setup = {
		.argv = argv,
		.directory = directory,
		.environment = environment,
		.no_randomize = true,
		.mask = &mask,
	};
	struct timespec start;
	int pipe_ends[2], status = 0, quiet;
	size_t length = 0;
	char how[160];
	pid_t pid;
	enum capture_end end;
	bool timed_out;

	*output = NULL;
	quiet = open("/dev/null", O_WRONLY | O_CLOEXEC);
	if (quiet < 0 || pipe2(pipe_ends, O_CLOEXEC) != 0) {
		int saved = errno;

		if (quiet >= 0)
			close(quiet);
		return gate_error_set(err, "cannot run '%s': %s", argv[0], strerror(saved));
	}
	setup.output = pipe_ends[1];
	setup.errors = quiet;
	sigprocmask(SIG_SETMASK, NULL, &mask);
	clock_gettime(CLOCK_MONOTONIC, &start);
	pid = start_child(&setup, &job.spawn_error);
	close(pipe_ends[1]);
	close(quiet);
	if (pid < 0) {
		close(pipe_ends[0]);
		return gate_error_set(err, "cannot run '%s': %s", argv[0], strerror(job.spawn_error));
	}
	job.started = true;
	end = read_output(pipe_ends[0], timeout_seconds, &start, output, &length);
	close(pipe_ends[0]);
	timed_out = end == CAPTURE_TIMED_OUT ||
		    (end == CAPTURE_DONE && wait_until(pid, timeout_seconds, &start, &status) != 0);
	if (end != CAPTURE_DONE || timed_out) {
		kill(-pid, SIGKILL);
		while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
			;
	}
	untrack(pid);
	job.timed_out = timed_out;
	job.exited = WIFEXITED(status);
	job.exit_code = job.exited ? WEXITSTATUS(status) : 0;
	job.signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
	if (end == CAPTURE_TOO_LARGE || end == CAPTURE_NO_MEMORY)
		return gate_error_set(err, "'%s' printed %s", argv[0], end == CAPTURE_TOO_LARGE ?
				      "more than " RUNNER_CAPTURE_LIMIT_TEXT " (gate's limit)" :
				      "more than gate could hold in memory");
	if (runner_job_succeeded(&job) && *output != NULL)
		return 0;
	runner_describe_end(&job, timeout_seconds, how, sizeof(how));
	free(*output);
	*output = NULL;
	return gate_error_set(err, "'%s' %s", argv[0], how);
}

bool runner_job_succeeded(const struct runner_job *job)
{
	return job->started && !job->timed_out && job->exited && job->exit_code == 0;
}

void runner_describe_end(const struct runner_job *job, double timeout_seconds, char *text,
			 size_t text_size)
{
	if (!job->started)
		snprintf(text, text_size, "could not start: %s", strerror(job->spawn_error));
	else if (job->timed_out)
		snprintf(text, text_size, "timed out after %g s and was killed", timeout_seconds);
	else if (job->signal != 0)
		snprintf(text, text_size, "was killed by signal %d (%s)", job->signal,
			 strsignal(job->signal));
	else if (job->exited && job->exit_code != 0)
		snprintf(text, text_size, "exited with %d", job->exit_code);
	else
		snprintf(text, text_size, "done");
}

/* A regular file this process may execute (a directory passes access(X_OK) too). */
static bool is_program(const char *path)
{
	struct stat status;

	return stat(path, &status) == 0 && S_ISREG(status.st_mode) && access(path, X_OK) == 0;
}

char *runner_find_program(const char *name, const char *path_variable)
{
	const char *start = path_variable ? path_variable : "/usr/bin:/bin";
	char *candidate = NULL;

	if (strchr(name, '/') != NULL)
		return is_program(name) ? strdup(name) : NULL;
	while (start != NULL) {
		const char *end = strchr(start, ':');
		int length = end ? (int)(end - start) : (int)strlen(start);

		if (asprintf(&candidate, "%.*s/%s", length, length ? start : ".", name) < 0)
			return NULL;
		if (is_program(candidate))
			return candidate;
		free(candidate);
		candidate = NULL;
		start = end ? end + 1 : NULL;
	}
	return NULL;
}
