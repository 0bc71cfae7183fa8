/* The child-process runner. fork + execve rather than posix_spawn, because the child must turn
 * off address randomization (what `setarch -R` does), lead its own session and process group,
 * so that a deadline kills valgrind and everything it started, and die with gate
 * (PR_SET_PDEATHSIG). gate is a subreaper, so a process a run leaves behind becomes gate's:
 * when a run ends, whatever it left is found, killed and counted. A child's output comes through
 * a pipe and only its first and last RUNNER_LOG_KEEP bytes are kept. Waiting is poll on the
 * pipes and a signalfd for SIGCHLD: no polling loop, and the nearest deadline bounds the wait. */
#define _GNU_SOURCE
#include "runner.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/personality.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "array.h"

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

static bool is_tracked(pid_t pid)
{
	size_t i;

	for (i = 0; i < TRACKED_MAX; i++)
		if (tracked[i] == pid)
			return true;
	return false;
}

static void become_subreaper(void)
{
	static bool done;

	if (!done)
		(void)prctl(PR_SET_CHILD_SUBREAPER, 1);
	done = true;
}

/* gate's children that are not runs it started: processes a run left behind, reparented to
 * gate when their parent ended. Fills up to `capacity` pids; returns how many there are, or
 * SIZE_MAX when the kernel does not list children (then every check does the full scan). */
static size_t stray_children(pid_t *pids, size_t capacity)
{
	char path[64], text[4096];
	size_t count = 0;
	ssize_t got;
	char *cursor, *end;
	int fd;

	snprintf(path, sizeof(path), "/proc/self/task/%d/children", (int)getpid());
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return SIZE_MAX;
	got = read(fd, text, sizeof(text) - 1);
	close(fd);
	if (got < 0 || (size_t)got == sizeof(text) - 1) /* unread or maybe cut: scan instead */
		return SIZE_MAX;
	text[got] = '\0';
	for (cursor = text;; cursor = end) {
		long pid = strtol(cursor, &end, 10);

		if (end == cursor)
			break;
		if (pid > 0 && !is_tracked((pid_t)pid)) {
			if (count < capacity)
				pids[count] = (pid_t)pid;
			count++;
		}
	}
	return count;
}

/* Reaps the strays that have ended (never a run's child: those are waited for by pid). */
static void reap_strays(void)
{
	pid_t pids[256];
	size_t count = stray_children(pids, 256), i;

	for (i = 0; count != SIZE_MAX && i < count && i < 256; i++)
		(void)waitpid(pids[i], NULL, WNOHANG);
}

struct process {
	pid_t pid, parent, group, session;
	bool marked;
};

/* Every live process (zombies left out): pid, parent, group and session from /proc. */
static size_t list_processes(struct process **list)
{
	DIR *proc = opendir("/proc");
	struct dirent *entry;
	size_t count = 0, capacity = 0;

	*list = NULL;
	while (proc != NULL && (entry = readdir(proc)) != NULL) {
		char path[300], text[1024], state;
		struct process process = { 0 };
		ssize_t got;
		char *close_paren;
		int fd, pid, parent, group, session;

		if (entry->d_name[0] < '1' || entry->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/stat", entry->d_name);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue;
		got = read(fd, text, sizeof(text) - 1);
		close(fd);
		if (got <= 0)
			continue;
		text[got] = '\0';
		close_paren = strrchr(text, ')');
		if (sscanf(text, "%d", &pid) != 1 || close_paren == NULL ||
		    sscanf(close_paren + 1, " %c %d %d %d", &state, &parent, &group, &session) != 4 ||
		    state == 'Z' || state == 'X')
			continue;
		if (ARRAY_GROW(*list, capacity, count, 64) != 0)
			break;
		process = (struct process){ pid, parent, group, session, false };
		(*list)[count++] = process;
	}
	if (proc != NULL)
		closedir(proc);
	return count;
}

/* Marks the run's session and group, gate's strays, and every descendant of a marked process. */
static size_t mark_leftovers(struct process *list, size_t count, pid_t leader)
{
	pid_t self = getpid();
	size_t marked = 0, i, j;
	bool changed = true;

	for (i = 0; i < count; i++) {
		struct process *process = &list[i];

		process->marked = process->pid != self &&
				  (process->session == leader || process->group == leader ||
				   (process->parent == self && !is_tracked(process->pid)));
		marked += process->marked;
	}
	while (changed) {
		changed = false;
		for (i = 0; i < count; i++) {
			for (j = 0; !list[i].marked && j < count; j++) {
				if (list[j].marked && list[j].pid == list[i].parent) {
					list[i].marked = changed = true;
					marked++;
				}
			}
		}
	}
	return marked;
}

/* After the run led by `leader` ended: kills what it left running and returns how many. */
static unsigned kill_leftovers(pid_t leader)
{
	struct timespec pause = { 0, 2 * 1000 * 1000 };
	struct process *list = NULL;
	size_t count, marked, i, tries;
	bool alive = true;

	if (kill(-leader, 0) != 0 && stray_children(NULL, 0) == 0)
		return 0;
	count = list_processes(&list);
	marked = mark_leftovers(list, count, leader);
	for (i = 0; i < count; i++)
		if (list[i].marked)
			kill(list[i].pid, SIGKILL);
	/* They end as gate's zombies (reparented to the subreaper): reap them. */
	for (tries = 0; alive && tries < 1000; tries++) {
		reap_strays();
		alive = false;
		for (i = 0; i < count; i++)
			if (list[i].marked && waitpid(list[i].pid, NULL, WNOHANG) <= 0)
				alive = alive || kill(list[i].pid, 0) == 0;
		if (alive)
			nanosleep(&pause, NULL);
	}
	free(list);
	return (unsigned)marked;
}

void runner_kill_all(void)
{
	size_t i;

	for (i = 0; i < TRACKED_MAX; i++)
		if (tracked[i] > 0)
			kill(-(pid_t)tracked[i], SIGKILL);
}

/* A child's output as kept: the first RUNNER_LOG_KEEP bytes, and the last ones in a ring. */
struct kept_output {
	char head[RUNNER_LOG_KEEP];
	size_t head_used;
	char tail[RUNNER_LOG_KEEP];
	size_t tail_start;
	size_t tail_used;
	uint64_t total;
};

struct child {
	pid_t pid;
	struct runner_job *job;
	struct timespec started_at;
	int output; /* read end of the child's stdout and stderr; -1 once at its end */
	int log;    /* the job's log file, written when the child has ended */
	struct kept_output *kept;
	size_t mark_matched; /* bytes of options->mark the output ends with, so far */
};

static void keep_output(struct kept_output *kept, const char *data, size_t length)
{
	size_t take = RUNNER_LOG_KEEP - kept->head_used;

	kept->total += length;
	if (take > length)
		take = length;
	memcpy(kept->head + kept->head_used, data, take);
	kept->head_used += take;
	data += take;
	length -= take;
	while (length > 0) {
		size_t at = (kept->tail_start + kept->tail_used) % RUNNER_LOG_KEEP;
		size_t room = RUNNER_LOG_KEEP - at, step = length < room ? length : room;

		memcpy(kept->tail + at, data, step);
		data += step;
		length -= step;
		if (kept->tail_used + step <= RUNNER_LOG_KEEP) {
			kept->tail_used += step;
		} else {
			kept->tail_start = (kept->tail_start + kept->tail_used + step - RUNNER_LOG_KEEP) %
					   RUNNER_LOG_KEEP;
			kept->tail_used = RUNNER_LOG_KEEP;
		}
	}
}

static void write_all(int fd, const char *data, size_t length)
{
	while (length > 0) {
		ssize_t wrote = write(fd, data, length);

		if (wrote < 0 && errno == EINTR)
			continue;
		if (wrote <= 0)
			return;
		data += wrote;
		length -= (size_t)wrote;
	}
}

/* The log: the head, a line saying how much was dropped (when anything was), the tail. */
static void write_kept_output(int fd, const struct kept_output *kept)
{
	uint64_t dropped = kept->total - kept->head_used - kept->tail_used;
	size_t first = RUNNER_LOG_KEEP - kept->tail_start;

	write_all(fd, kept->head, kept->head_used);
	if (dropped > 0)
		dprintf(fd, "\n[gate: %" PRIu64 " bytes of output dropped here, of %" PRIu64 "; the "
			"log keeps the first and the last %d KiB]\n", dropped, kept->total,
			RUNNER_LOG_KEEP / 1024);
	if (first > kept->tail_used)
		first = kept->tail_used;
	write_all(fd, kept->tail + kept->tail_start, first);
	write_all(fd, kept->tail, kept->tail_used - first);
}

/* Reads what the pipe holds now; closes it at its end. */
static double seconds_since(const struct timespec *start);

/* Counts options->mark in what a child printed (a mark may arrive in two reads): each one moves
 * the job's deadline to what the budget says now. */
static void find_marks(const struct runner_options *options, struct child *child,
		       const char *data, size_t length)
{
	struct runner_job *job = child->job;
	size_t mark_length = strlen(options->mark), i;

	for (i = 0; i < length; i++) {
		if (data[i] == options->mark[child->mark_matched])
			child->mark_matched++;
		else
			child->mark_matched = data[i] == options->mark[0] ? 1 : 0;
		if (child->mark_matched < mark_length)
			continue;
		child->mark_matched = 0;
		if (job->marks < RUNNER_MARKS_MAX)
			job->mark_seconds[job->marks] = seconds_since(&child->started_at);
		job->marks++;
		if (options->budget != NULL && !job->timed_out)
			job->timeout_seconds = options->budget(job, options->progress_context);
	}
}

static void read_output_now(const struct runner_options *options, struct child *child)
{
	char buffer[16384];

	while (child->output >= 0) {
		ssize_t got = read(child->output, buffer, sizeof(buffer));

		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0 && errno == EAGAIN)
			return;
		if (got <= 0) {
			close(child->output);
			child->output = -1;
			return;
		}
		keep_output(child->kept, buffer, (size_t)got);
		if (options->mark != NULL && options->mark[0] != '\0')
			find_marks(options, child, buffer, (size_t)got);
	}
}

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
	const char *input_path; /* becomes stdin; NULL: /dev/null */
	char *const *environment;
	int output;        /* becomes stdout */
	int errors;        /* becomes stderr */
	bool no_randomize;
	int (*enter)(const void *context); /* runner_options.child_enter, or NULL */
	const void *context;
	bool limit_output;      /* stdout is a file: cap its size at RUNNER_CAPTURE_MAX */
	const sigset_t *mask; /* the signal mask the child gets back */
	pid_t parent;         /* gate: the child dies with it */
};

/* In the child, after fork: only async-signal-safe calls. Reports a failure's errno through
 * `report` (close-on-exec, so a successful execve closes it with nothing written). */
static void become_child(const struct child_setup *setup, int report)
{
	int input = open(setup->input_path != NULL ? setup->input_path : "/dev/null", O_RDONLY);
	int saved;

	/* Killed when gate dies, SIGKILL included; a gate already gone means no run. */
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || getppid() != setup->parent)
		goto failed;
	/* New credentials may clear the death signal: set again, and check gate is still there. */
	if (setup->enter != NULL &&
	    (setup->enter(setup->context) != 0 ||
	     prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || getppid() != setup->parent))
		goto failed;
	setsid();
	if (setup->limit_output) {
		struct rlimit size = { RUNNER_CAPTURE_MAX, RUNNER_CAPTURE_MAX };

		if (setrlimit(RLIMIT_FSIZE, &size) != 0)
			goto failed;
	}
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
	/* The child makes itself a session (and group) leader with setsid, which fails for a
	 * process that already leads a group: the parent does not setpgid it. */
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
	int child_ended; /* signalfd of SIGCHLD */
};

static void finish(struct pool *pool, struct runner_job *job)
{
	job->finished = true;
	pool->remaining--;
	if (pool->options->progress != NULL)
		pool->options->progress(job, pool->remaining, pool->options->progress_context);
}

static void launch(struct pool *pool, struct runner_job *job)
{
	struct child_setup setup = {
		.argv = job->argv,
		.directory = job->directory,
		.input_path = job->input_path,
		.environment = pool->options->environment,
		.no_randomize = pool->options->no_randomize,
		.enter = pool->options->child_enter,
		.context = pool->options->child_context,
		.mask = &pool->old_mask,
	};
	struct child *place = NULL;
	int output[2], file = -1;
	size_t i;

	for (i = 0; i < pool->options->parallel && place == NULL; i++)
		if (pool->children[i].pid == 0)
			place = &pool->children[i];
	job->timeout_seconds = pool->options->budget != NULL
				       ? pool->options->budget(job, pool->options->progress_context)
				       : pool->options->timeout_seconds;
	setup.parent = getpid();
	place->log = open(job->log_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (place->log >= 0 && job->output_path != NULL)
		file = open(job->output_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (place->log < 0 || (job->output_path != NULL && file < 0) || pipe2(output, O_CLOEXEC) != 0) {
		job->spawn_error = errno;
		if (place->log >= 0)
			close(place->log);
		if (file >= 0)
			close(file);
		finish(pool, job);
		return;
	}
	/* Only gate's end does not block: the child writes as to any pipe. */
	fcntl(output[0], F_SETFL, O_NONBLOCK);
	setup.output = file >= 0 ? file : output[1];
	setup.errors = output[1];
	setup.limit_output = file >= 0;
	memset(place->kept, 0, sizeof(*place->kept));
	place->mark_matched = 0;
	clock_gettime(CLOCK_MONOTONIC, &place->started_at);
	place->pid = start_child(&setup, &job->spawn_error);
	close(output[1]);
	if (file >= 0)
		close(file);
	if (place->pid < 0) {
		place->pid = 0;
		close(output[0]);
		close(place->log);
		finish(pool, job);
		return;
	}
	place->output = output[0];
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
		/* Nothing a run started may outlive it: no late writer touches its files. */
		child->job->leftovers = kill_leftovers(child->pid);
		read_output_now(pool->options, child);
		if (child->output >= 0)
			close(child->output);
		child->output = -1;
		write_kept_output(child->log, child->kept);
		close(child->log);
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
	double next = 3600;
	size_t i;

	for (i = 0; i < pool->options->parallel; i++) {
		struct child *child = &pool->children[i];
		double left;

		if (child->pid == 0 || child->job->timeout_seconds <= 0 || child->job->timed_out)
			continue;
		left = child->job->timeout_seconds - seconds_since(&child->started_at);
		if (left <= 0) {
			kill(-child->pid, SIGKILL);
			child->job->timed_out = true;
		} else if (left < next) {
			next = left;
		}
	}
	return next;
}

/* Waits for output, a child's end or the nearest deadline, and keeps the output that came. */
static void wait_for_a_child(struct pool *pool)
{
	double wait = enforce_deadlines(pool);
	struct pollfd ready[RUNNER_PARALLEL_MAX + 1];
	struct signalfd_siginfo ended;
	size_t count = 0, i;

	if (wait < 0.001)
		wait = 0.001;
	ready[count++] = (struct pollfd){ .fd = pool->child_ended, .events = POLLIN };
	for (i = 0; i < pool->options->parallel; i++)
		if (pool->children[i].pid != 0 && pool->children[i].output >= 0)
			ready[count++] = (struct pollfd){ .fd = pool->children[i].output, .events = POLLIN };
	if (poll(ready, count, (int)(wait * 1000) + 1) <= 0)
		return;
	while (read(pool->child_ended, &ended, sizeof(ended)) > 0)
		;
	for (i = 0; i < pool->options->parallel; i++)
		if (pool->children[i].pid != 0)
			read_output_now(pool->options, &pool->children[i]);
}

/* 1 when every job `job` comes after has finished well, 0 while one is still to finish, -1
 * when one failed or was skipped (then `job` is skipped too). */
static int prerequisites(const struct runner_job *job)
{
	size_t i;

	for (i = 0; i < RUNNER_AFTER_MAX && job->after[i] != NULL; i++) {
		if (!job->after[i]->finished)
			return 0;
		if (!runner_job_succeeded(job->after[i]))
			return -1;
	}
	return 1;
}

/* Starts the heaviest jobs that may start while there is room; skips those that never will.
 * Returns how many it passed over that wait for a job they come after. */
static size_t launch_ready(struct pool *pool, struct runner_job **order, size_t count,
			   size_t *first_waiting)
{
	size_t waiting = 0, i;

	while (*first_waiting < count && order[*first_waiting]->finished)
		(*first_waiting)++;
	for (i = *first_waiting; i < count && pool->running < pool->options->parallel; i++) {
		struct runner_job *job = order[i];
		int ready;

		if (job->started || job->finished)
			continue;
		ready = prerequisites(job);
		if (ready < 0) {
			job->skipped = true;
			finish(pool, job);
		} else if (ready == 0) {
			waiting++;
		} else if (pool->options->prepare != NULL &&
			   pool->options->prepare(job, pool->options->progress_context) != 0) {
			job->skipped = true;
			finish(pool, job);
		} else {
			launch(pool, job);
		}
	}
	return waiting;
}

int runner_run(struct runner_job *jobs, size_t job_count, const struct runner_options *options,
	       struct gate_error *err)
{
	struct pool pool = { .options = options, .remaining = job_count, .child_ended = -1 };
	struct runner_job **order = calloc(job_count ? job_count : 1, sizeof(*order));
	sigset_t chld;
	size_t first_waiting = 0, i;
	int status = 0;

	pool.children = calloc(options->parallel ? options->parallel : 1, sizeof(*pool.children));
	if (options->parallel == 0 || options->parallel > RUNNER_PARALLEL_MAX) {
		status = gate_error_set(err, "the runner runs 1 to %d jobs at a time", RUNNER_PARALLEL_MAX);
		goto out;
	}
	if (order == NULL || pool.children == NULL) {
		status = gate_error_oom(err);
		goto out;
	}
	for (i = 0; i < options->parallel; i++) {
		pool.children[i].kept = malloc(sizeof(*pool.children[i].kept));
		if (pool.children[i].kept == NULL) {
			status = gate_error_oom(err);
			goto out;
		}
	}
	for (i = 0; i < job_count; i++)
		order[i] = &jobs[i];
	qsort(order, job_count, sizeof(*order), compare_weight);
	become_subreaper();
	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	sigprocmask(SIG_BLOCK, &chld, &pool.old_mask);
	pool.child_ended = signalfd(-1, &chld, SFD_NONBLOCK | SFD_CLOEXEC);
	if (pool.child_ended < 0) {
		status = gate_error_set(err, "cannot wait for children: %s", strerror(errno));
		sigprocmask(SIG_SETMASK, &pool.old_mask, NULL);
		goto out;
	}
	while (pool.remaining > 0) {
		size_t waiting = pool.running < options->parallel
					 ? launch_ready(&pool, order, job_count, &first_waiting) : 0;

		if (pool.running == 0 && waiting > 0) { /* what they wait for never ends: a cycle */
			for (i = first_waiting; i < job_count; i++) {
				if (!order[i]->finished) {
					order[i]->skipped = true;
					finish(&pool, order[i]);
				}
			}
		}
		if (pool.running > 0 && reap(&pool) == 0)
			wait_for_a_child(&pool);
	}
	close(pool.child_ended);
	sigprocmask(SIG_SETMASK, &pool.old_mask, NULL);
out:
	for (i = 0; pool.children != NULL && i < options->parallel; i++)
		free(pool.children[i].kept);
	free(order);
	free(pool.children);
	return status;
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

int runner_call_in_child(int (*call)(void *context), void *context)
{
	int status = 0, report[2], child_errno = 0;
	pid_t pid;

	if (pipe2(report, O_CLOEXEC) != 0)
		return errno;
	pid = fork();
	if (pid < 0) {
		int saved = errno;

		close(report[0]);
		close(report[1]);
		return saved;
	}
	if (pid == 0) {
		int code;

		close(report[0]);
		code = call(context);
		if (code != 0 && write(report[1], &code, sizeof(code)) < 0)
			_exit(1);
		_exit(code == 0 ? 0 : 1);
	}
	close(report[1]);
	if (read(report[0], &child_errno, sizeof(child_errno)) != (ssize_t)sizeof(child_errno))
		child_errno = 0;
	close(report[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (child_errno == 0 && !(WIFEXITED(status) && WEXITSTATUS(status) == 0))
		child_errno = ECHILD;
	return child_errno;
}

void runner_run_and_wait(char *const *argv, const char *directory, char *const *environment)
{
	pid_t pid;

	if (argv == NULL || argv[0] == NULL)
		return;
	pid = fork();
	if (pid == 0) {
		if (directory != NULL && chdir(directory) != 0)
			_exit(127);
		execve(argv[0], argv, environment);
		_exit(127);
	}
	if (pid > 0)
		while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
			;
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
	setup.parent = getpid();
	become_subreaper();
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
	(void)kill_leftovers(pid);
	job.timed_out = timed_out;
	job.exited = WIFEXITED(status);
	job.exit_code = job.exited ? WEXITSTATUS(status) : 0;
	job.signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
	if (end == CAPTURE_TOO_LARGE || end == CAPTURE_NO_MEMORY)
		return gate_error_set(err, "'%s' printed %s", argv[0], end == CAPTURE_TOO_LARGE ?
				      "more than " RUNNER_CAPTURE_LIMIT_TEXT " (gate's limit)" :
				      "more than gate could hold in memory");
	if (*output != NULL && runner_job_succeeded(&job))
		return 0;
	runner_describe_end(&job, timeout_seconds, how, sizeof(how));
	free(*output);
	*output = NULL;
	return gate_error_set(err, "'%s' %s", argv[0], how);
}

bool runner_job_succeeded(const struct runner_job *job)
{
	return job->started && !job->timed_out && job->exited && job->exit_code == 0 &&
	       job->leftovers == 0;
}

void runner_describe_end(const struct runner_job *job, double timeout_seconds, char *text,
			 size_t text_size)
{
	if (job->skipped)
		snprintf(text, text_size, "was not run: a run it comes after failed");
	else if (!job->started)
		snprintf(text, text_size, "could not start: %s", strerror(job->spawn_error));
	else if (job->timed_out)
		snprintf(text, text_size, "timed out after %g s and was killed",
			 job->timeout_seconds > 0 ? job->timeout_seconds : timeout_seconds);
	else if (job->signal != 0)
		snprintf(text, text_size, "was killed by signal %d (%s)", job->signal,
			 strsignal(job->signal));
	else if (job->exited && job->exit_code != 0)
		snprintf(text, text_size, "exited with %d", job->exit_code);
	else if (job->leftovers > 0)
		snprintf(text, text_size, "left %u process%s running (killed)", job->leftovers,
			 job->leftovers == 1 ? "" : "es");
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
