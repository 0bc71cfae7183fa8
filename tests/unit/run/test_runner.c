/* Unit tests of the child-process runner on small real programs (/bin/sh, /bin/true, env): how
 * each job ended, its log, the order jobs start in, deadlines, the sealed environment, and the
 * one-command capture. Every job runs in its own temporary directory. */
#define _GNU_SOURCE
#include "check.h"
#include "runner.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/personality.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static char *sealed_environment[] = { "PATH=/usr/bin:/bin", "LC_ALL=C", NULL };

static char *make_directory(void)
{
	char *directory = strdup("/tmp/costgate-test-runner-XXXXXX");

	if (directory == NULL || mkdtemp(directory) == NULL)
		abort();
	return directory;
}

static void remove_directory(char *directory)
{
	char command[600];

	snprintf(command, sizeof(command), "rm -rf '%s'", directory);
	if (system(command) != 0)
		fprintf(stderr, "cannot remove %s\n", directory);
	free(directory);
}

/* The whole text of a file (owned), or NULL. */
static char *read_text(const char *path)
{
	FILE *file = fopen(path, "r");
	char *text;
	long size;

	if (file == NULL)
		return NULL;
	fseek(file, 0, SEEK_END);
	size = ftell(file);
	fseek(file, 0, SEEK_SET);
	text = calloc((size_t)size + 1, 1);
	if (text != NULL && fread(text, 1, (size_t)size, file) != (size_t)size) {
		free(text);
		text = NULL;
	}
	fclose(file);
	return text;
}

static double now(void)
{
	struct timespec time;

	clock_gettime(CLOCK_MONOTONIC, &time);
	return (double)time.tv_sec + (double)time.tv_nsec / 1e9;
}

static struct runner_options options_of(unsigned parallel, double timeout_seconds)
{
	struct runner_options options = {
		.parallel = parallel,
		.timeout_seconds = timeout_seconds,
		.environment = sealed_environment,
	};

	return options;
}

static void runner_should_report_how_each_job_ended(void)
{
	char *directory = make_directory(), logs[4][600];
	char *ok[] = { "/bin/true", NULL }, *fails[] = { "/bin/false", NULL };
	char *exits[] = { "/bin/sh", "-c", "exit 42", NULL };
	char *crashes[] = { "/bin/sh", "-c", "kill -SEGV $$", NULL };
	struct runner_job jobs[4] = {
		{ .argv = ok }, { .argv = fails }, { .argv = exits }, { .argv = crashes },
	};
	struct runner_options options = options_of(4, 30);
	struct gate_error err = GATE_ERROR_INIT;
	char how[200];
	size_t i;

	for (i = 0; i < 4; i++) {
		snprintf(logs[i], sizeof(logs[i]), "%s/job%zu.log", directory, i);
		jobs[i].log_path = logs[i];
		jobs[i].directory = directory;
	}
	CHECK(runner_run(jobs, 4, &options, &err) == 0);
	CHECK_STR(err.message, "");
	for (i = 0; i < 4; i++) {
		CHECK(jobs[i].started);
		CHECK(jobs[i].spawn_error == 0);
		CHECK(!jobs[i].timed_out);
		CHECK(jobs[i].seconds >= 0 && jobs[i].seconds < 20);
	}
	CHECK(jobs[0].exited && jobs[0].exit_code == 0 && jobs[0].signal == 0);
	CHECK(runner_job_succeeded(&jobs[0]));
	CHECK(jobs[1].exited && jobs[1].exit_code == 1);
	CHECK(!runner_job_succeeded(&jobs[1]));
	CHECK(jobs[2].exited && jobs[2].exit_code == 42);
	CHECK(!jobs[3].exited);
	CHECK(jobs[3].signal == SIGSEGV);
	CHECK(!runner_job_succeeded(&jobs[3]));
	runner_describe_end(&jobs[1], 30, how, sizeof(how));
	CHECK_STR(how, "exited with 1");
	runner_describe_end(&jobs[3], 30, how, sizeof(how));
	CHECK_CONTAINS(how, "killed by signal 11 (");
	remove_directory(directory);
}

/* True while `pid` runs (a zombie has ended). */
static bool process_runs(pid_t pid)
{
	char path[64], text[512], *paren;
	FILE *file;
	bool runs = false;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	file = fopen(path, "r");
	if (file == NULL)
		return false;
	if (fgets(text, sizeof(text), file) != NULL && (paren = strrchr(text, ')')) != NULL)
		runs = paren[1] == ' ' && paren[2] != 'Z' && paren[2] != 'X';
	fclose(file);
	return runs;
}

/* The pid a job wrote into its log as its last line. */
static pid_t pid_in_log(const char *path)
{
	char *text = read_text(path), *last;
	pid_t pid = 0;

	if (text == NULL)
		return 0;
	last = strrchr(text, '\n');
	while (last != NULL && last > text && last[-1] != '\n')
		last--;
	if (last != NULL)
		pid = (pid_t)atoi(last);
	free(text);
	return pid;
}

static void runner_should_kill_and_count_what_a_job_left_running(void)
{
	char *directory = make_directory(), logs[3][600];
	/* In the job's group; in a session of its own (setsid), so only gate's subreaping finds
	 * it; and nothing left. */
	char *stays[] = { "/bin/sh", "-c", "sleep 60 >/dev/null & echo $!", NULL };
	char *escapes[] = { "/bin/sh", "-c", "setsid sleep 60 >/dev/null & echo $!", NULL };
	char *clean[] = { "/bin/sh", "-c", "sleep 0.1", NULL };
	struct runner_job jobs[3] = { { .argv = stays }, { .argv = escapes }, { .argv = clean } };
	/* One at a time: a process that left its run's session is found among gate's strays, and
	 * with runs side by side it is counted for the run that ended when it was found. */
	struct runner_options options = options_of(1, 30);
	struct gate_error err = GATE_ERROR_INIT;
	char how[200];
	pid_t left[2];
	size_t i;

	for (i = 0; i < 3; i++) {
		snprintf(logs[i], sizeof(logs[i]), "%s/job%zu.log", directory, i);
		jobs[i].log_path = logs[i];
		jobs[i].directory = directory;
	}
	CHECK(runner_run(jobs, 3, &options, &err) == 0);
	for (i = 0; i < 2; i++) {
		left[i] = pid_in_log(logs[i]);
		CHECK(left[i] > 0);
		CHECK(jobs[i].exited && jobs[i].exit_code == 0);
		CHECK_U64(jobs[i].leftovers, 1);
		CHECK(!runner_job_succeeded(&jobs[i]));
		CHECK(left[i] <= 0 || !process_runs(left[i]));
	}
	runner_describe_end(&jobs[1], 30, how, sizeof(how));
	CHECK_STR(how, "left 1 process running (killed)");
	CHECK_U64(jobs[2].leftovers, 0);
	CHECK(runner_job_succeeded(&jobs[2]));
	remove_directory(directory);
}

static void runner_should_skip_a_job_that_comes_after_a_failed_one(void)
{
	char *directory = make_directory(), logs[4][600];
	char *fails[] = { "/bin/false", NULL }, *ok[] = { "/bin/true", NULL };
	struct runner_job jobs[4] = { { .argv = fails }, { .argv = ok }, { .argv = ok }, { .argv = ok } };
	struct runner_options options = options_of(2, 30);
	struct gate_error err = GATE_ERROR_INIT;
	char how[200];
	size_t i;

	for (i = 0; i < 4; i++) {
		snprintf(logs[i], sizeof(logs[i]), "%s/job%zu.log", directory, i);
		jobs[i].log_path = logs[i];
		jobs[i].directory = directory;
		jobs[i].weight = 10 - i; /* heavier than what they come after: order still holds */
	}
	jobs[2].after[0] = &jobs[0]; /* after the failure */
	jobs[2].weight = 100;
	jobs[3].after[0] = &jobs[1]; /* after a success */
	jobs[3].weight = 100;
	CHECK(runner_run(jobs, 4, &options, &err) == 0);
	CHECK(jobs[2].skipped && !jobs[2].started && jobs[2].finished);
	CHECK(!runner_job_succeeded(&jobs[2]));
	runner_describe_end(&jobs[2], 30, how, sizeof(how));
	CHECK_STR(how, "was not run: a run it comes after failed");
	CHECK(!jobs[3].skipped && runner_job_succeeded(&jobs[3]));
	remove_directory(directory);
}

static void runner_should_kill_a_job_at_its_deadline(void)
{
	char *directory = make_directory(), log[600];
	char *sleeps[] = { "/bin/sleep", "5", NULL };
	struct runner_job job = { .argv = sleeps, .log_path = log };
	struct runner_options options = options_of(1, 1);
	struct gate_error err = GATE_ERROR_INIT;
	double started = now(), took;
	char how[200];

	job.directory = directory;
	snprintf(log, sizeof(log), "%s/sleep.log", directory);
	CHECK(runner_run(&job, 1, &options, &err) == 0);
	took = now() - started;
	CHECK(job.started);
	CHECK(job.timed_out);
	CHECK(!job.exited);
	CHECK(job.signal == SIGKILL);
	CHECK(!runner_job_succeeded(&job));
	CHECK(took >= 0.9 && took < 4.0);
	CHECK(job.seconds >= 0.9 && job.seconds < 4.0);
	runner_describe_end(&job, 1, how, sizeof(how));
	CHECK_CONTAINS(how, "timed out after 1 s");
	remove_directory(directory);
}

/* The state letter of /proc/PID/stat, or 0 when the process is gone. */
static char process_state(pid_t pid)
{
	char path[64], *text, *close_paren, state = 0;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	text = read_text(path);
	if (text == NULL)
		return 0;
	close_paren = strrchr(text, ')');
	if (close_paren != NULL && close_paren[1] == ' ')
		state = close_paren[2];
	free(text);
	return state;
}

static void runner_should_kill_what_a_job_started_at_its_deadline(void)
{
	char *directory = make_directory(), log[600], pid_path[600], script[800], *pid_text;
	char *argv[] = { "/bin/sh", "-c", script, NULL };
	struct runner_job job = { .argv = argv, .log_path = log };
	struct runner_options options = options_of(1, 1);
	struct gate_error err = GATE_ERROR_INIT;
	int tries;
	char state = 'S';
	pid_t grandchild;

	job.directory = directory;
	snprintf(log, sizeof(log), "%s/sh.log", directory);
	snprintf(pid_path, sizeof(pid_path), "%s/grandchild.pid", directory);
	snprintf(script, sizeof(script), "sleep 30 & echo $! > '%s'; wait", pid_path);
	CHECK(runner_run(&job, 1, &options, &err) == 0);
	CHECK(job.timed_out);
	pid_text = read_text(pid_path);
	CHECK(pid_text != NULL);
	grandchild = pid_text ? (pid_t)atoi(pid_text) : 0;
	free(pid_text);
	CHECK(grandchild > 0);
	for (tries = 0; grandchild > 0 && tries < 100; tries++) {
		state = process_state(grandchild);
		if (state == 0 || state == 'Z' || state == 'X')
			break;
		usleep(10000);
	}
	if (state != 0 && state != 'Z' && state != 'X') {
		fprintf(stderr, "the grandchild %d is still running (state %c)\n", (int)grandchild, state);
		kill(grandchild, SIGKILL);
	}
	CHECK(state == 0 || state == 'Z' || state == 'X');
	remove_directory(directory);
}

static void runner_should_log_the_standard_output_and_error_of_a_job(void)
{
	char *directory = make_directory(), log[600], *text;
	char *argv[] = { "/bin/sh", "-c", "echo out; echo err >&2; echo out again", NULL };
	struct runner_job job = { .argv = argv, .log_path = log };
	struct runner_options options = options_of(1, 30);
	struct gate_error err = GATE_ERROR_INIT;

	job.directory = directory;
	snprintf(log, sizeof(log), "%s/both.log", directory);
	CHECK(runner_run(&job, 1, &options, &err) == 0);
	text = read_text(log);
	CHECK_STR(text, "out\nerr\nout again\n");
	free(text);
	remove_directory(directory);
}

static void runner_should_truncate_an_old_log(void)
{
	char *directory = make_directory(), log[600], *text;
	char *argv[] = { "/bin/sh", "-c", "echo new", NULL };
	struct runner_job job = { .argv = argv, .log_path = log };
	struct runner_options options = options_of(1, 30);
	struct gate_error err = GATE_ERROR_INIT;
	FILE *old;

	job.directory = directory;
	snprintf(log, sizeof(log), "%s/old.log", directory);
	old = fopen(log, "w");
	if (old != NULL) {
		fputs("an old and much longer log\n", old);
		fclose(old);
	}
	CHECK(runner_run(&job, 1, &options, &err) == 0);
	text = read_text(log);
	CHECK_STR(text, "new\n");
	free(text);
	remove_directory(directory);
}

static void runner_should_start_the_heaviest_jobs_first(void)
{
	char *directory = make_directory(), logs[4][600], order_path[600], scripts[4][800], *text;
	char *argvs[4][4];
	static const char *const names[] = { "light", "heaviest", "middle", "heavy" };
	static const uint64_t weights[] = { 1, 4000000000ULL, 20, 300 };
	struct runner_job jobs[4];
	struct runner_options options = options_of(1, 30);
	struct gate_error err = GATE_ERROR_INIT;
	size_t i;

	snprintf(order_path, sizeof(order_path), "%s/order", directory);
	for (i = 0; i < 4; i++) {
		snprintf(scripts[i], sizeof(scripts[i]), "echo %s >> '%s'", names[i], order_path);
		snprintf(logs[i], sizeof(logs[i]), "%s/%s.log", directory, names[i]);
		argvs[i][0] = "/bin/sh";
		argvs[i][1] = "-c";
		argvs[i][2] = scripts[i];
		argvs[i][3] = NULL;
		jobs[i] = (struct runner_job){ .argv = argvs[i], .directory = directory,
					       .log_path = logs[i], .weight = weights[i] };
	}
	CHECK(runner_run(jobs, 4, &options, &err) == 0);
	text = read_text(order_path);
	CHECK_STR(text, "heaviest\nheavy\nmiddle\nlight\n");
	free(text);
	remove_directory(directory);
}

static void runner_should_run_no_more_jobs_at_once_than_allowed(void)
{
	char *directory = make_directory(), logs[4][600], script[900], *text;
	char *argv[] = { "/bin/sh", "-c", script, NULL };
	struct runner_job jobs[4];
	struct runner_options options = options_of(2, 30);
	struct gate_error err = GATE_ERROR_INIT;
	size_t i;

	/* Each job counts the others running beside it through marker files. */
	snprintf(script, sizeof(script),
		 "cd '%s' && touch running.$$ && sleep 0.3 && ls running.* | wc -l >> counts; "
		 "rm -f running.$$", directory);
	for (i = 0; i < 4; i++) {
		snprintf(logs[i], sizeof(logs[i]), "%s/%zu.log", directory, i);
		jobs[i] = (struct runner_job){ .argv = argv, .directory = directory, .log_path = logs[i] };
	}
	CHECK(runner_run(jobs, 4, &options, &err) == 0);
	for (i = 0; i < 4; i++)
		CHECK(runner_job_succeeded(&jobs[i]));
	snprintf(logs[0], sizeof(logs[0]), "%s/counts", directory);
	text = read_text(logs[0]);
	CHECK(text != NULL);
	if (text != NULL) {
		CHECK(strstr(text, "3") == NULL && strstr(text, "4") == NULL);
		CHECK(strstr(text, "2") != NULL); /* and two did run at once */
	}
	free(text);
	remove_directory(directory);
}

static void runner_should_report_a_program_that_does_not_exist(void)
{
	char *directory = make_directory(), logs[2][600];
	char *missing[] = { "/nonexistent/costgate-no-such-program", NULL };
	char *ok[] = { "/bin/true", NULL };
	struct runner_job jobs[2] = { { .argv = missing }, { .argv = ok } };
	struct runner_options options = options_of(1, 30);
	struct gate_error err = GATE_ERROR_INIT;
	char how[200];

	snprintf(logs[0], sizeof(logs[0]), "%s/missing.log", directory);
	snprintf(logs[1], sizeof(logs[1]), "%s/ok.log", directory);
	jobs[0].log_path = logs[0];
	jobs[1].log_path = logs[1];
	jobs[0].directory = jobs[1].directory = directory;
	CHECK(runner_run(jobs, 2, &options, &err) == 0);
	CHECK(!jobs[0].started);
	CHECK(jobs[0].spawn_error == ENOENT);
	CHECK(!jobs[0].exited);
	CHECK(!runner_job_succeeded(&jobs[0]));
	CHECK(runner_job_succeeded(&jobs[1])); /* the others go on */
	runner_describe_end(&jobs[0], 30, how, sizeof(how));
	CHECK_STR(how, "could not start: No such file or directory");
	remove_directory(directory);
}

static void runner_should_report_a_log_it_cannot_create(void)
{
	char *directory = make_directory(), log[600];
	char *ok[] = { "/bin/true", NULL };
	struct runner_job job = { .argv = ok, .log_path = log };
	struct runner_options options = options_of(1, 30);
	struct gate_error err = GATE_ERROR_INIT;

	job.directory = directory;
	snprintf(log, sizeof(log), "%s/absent/true.log", directory);
	CHECK(runner_run(&job, 1, &options, &err) == 0);
	CHECK(!job.started);
	CHECK(job.spawn_error == ENOENT);
	remove_directory(directory);
}

static void runner_should_give_the_child_exactly_the_environment_given(void)
{
	char *directory = make_directory(), log[600], *text;
	char *argv[] = { "/usr/bin/env", NULL };
	char *environment[] = { "COSTGATE_ONE=1", "COSTGATE_TWO=two words", NULL };
	struct runner_job job = { .argv = argv, .log_path = log };
	struct runner_options options = options_of(1, 30);
	struct gate_error err = GATE_ERROR_INIT;

	options.environment = environment;
	job.directory = directory;
	snprintf(log, sizeof(log), "%s/env.log", directory);
	setenv("COSTGATE_LEAK", "from the test", 1);
	CHECK(runner_run(&job, 1, &options, &err) == 0);
	CHECK(runner_job_succeeded(&job));
	text = read_text(log);
	CHECK_STR(text, "COSTGATE_ONE=1\nCOSTGATE_TWO=two words\n");
	free(text);
	unsetenv("COSTGATE_LEAK");
	remove_directory(directory);
}

static void runner_should_start_the_child_in_the_directory_given_with_no_input(void)
{
	char *directory = make_directory(), log[600], expected[700], *text;
	char *argv[] = { "/bin/sh", "-c", "pwd; if read line; then echo input; else echo no input; fi",
			 NULL };
	struct runner_job job = { .argv = argv, .log_path = log };
	struct runner_options options = options_of(1, 5);
	struct gate_error err = GATE_ERROR_INIT;
	char *resolved = realpath(directory, NULL);

	job.directory = directory;
	snprintf(log, sizeof(log), "%s/pwd.log", directory);
	CHECK(runner_run(&job, 1, &options, &err) == 0);
	CHECK(runner_job_succeeded(&job));
	snprintf(expected, sizeof(expected), "%s\nno input\n", resolved ? resolved : directory);
	text = read_text(log);
	CHECK_STR(text, expected);
	free(text);
	free(resolved);
	remove_directory(directory);
}

/* personality(2) may be refused in a container; then there is nothing to check. */
static bool can_turn_randomization_off(void)
{
	int old = personality(0xffffffff);

	if (old == -1 || personality((unsigned long)old | ADDR_NO_RANDOMIZE) == -1)
		return false;
	personality((unsigned long)old);
	return true;
}

static void runner_should_turn_address_randomization_off_when_asked(void)
{
	char *directory = make_directory(), logs[2][600], *text;
	char *argv[] = { "/bin/cat", "/proc/self/personality", NULL };
	struct runner_job jobs[2] = { { .argv = argv }, { .argv = argv } };
	struct runner_options options = options_of(1, 30);
	struct gate_error err = GATE_ERROR_INIT;
	unsigned long value;

	if (!can_turn_randomization_off()) {
		printf("skip runner_should_turn_address_randomization_off_when_asked: personality(2) "
		       "is refused here\n");
		remove_directory(directory);
		return;
	}
	snprintf(logs[0], sizeof(logs[0]), "%s/sealed.log", directory);
	snprintf(logs[1], sizeof(logs[1]), "%s/plain.log", directory);
	jobs[0].log_path = logs[0];
	jobs[0].directory = directory;
	options.no_randomize = true;
	CHECK(runner_run(&jobs[0], 1, &options, &err) == 0);
	jobs[1].log_path = logs[1];
	jobs[1].directory = directory;
	options.no_randomize = false;
	CHECK(runner_run(&jobs[1], 1, &options, &err) == 0);
	text = read_text(logs[0]);
	value = text ? strtoul(text, NULL, 16) : 0;
	CHECK((value & ADDR_NO_RANDOMIZE) != 0);
	free(text);
	text = read_text(logs[1]);
	value = text ? strtoul(text, NULL, 16) : ADDR_NO_RANDOMIZE;
	CHECK((value & ADDR_NO_RANDOMIZE) == 0);
	free(text);
	remove_directory(directory);
}

struct progress_record {
	size_t calls;
	size_t remaining[8];
};

static void record_progress(const struct runner_job *job, size_t remaining, void *context)
{
	struct progress_record *record = context;

	(void)job;
	if (record->calls < 8)
		record->remaining[record->calls] = remaining;
	record->calls++;
}

static void runner_should_report_progress_once_per_job(void)
{
	char *directory = make_directory(), logs[3][600];
	char *ok[] = { "/bin/true", NULL }, *missing[] = { "/nonexistent/program", NULL };
	struct runner_job jobs[3] = { { .argv = ok }, { .argv = missing }, { .argv = ok } };
	struct runner_options options = options_of(2, 30);
	struct progress_record record = { 0 };
	struct gate_error err = GATE_ERROR_INIT;
	size_t i;

	for (i = 0; i < 3; i++) {
		snprintf(logs[i], sizeof(logs[i]), "%s/%zu.log", directory, i);
		jobs[i].log_path = logs[i];
		jobs[i].directory = directory;
	}
	options.progress = record_progress;
	options.progress_context = &record;
	CHECK(runner_run(jobs, 3, &options, &err) == 0);
	CHECK_U64(record.calls, 3);
	CHECK_U64(record.remaining[0], 2);
	CHECK_U64(record.remaining[1], 1);
	CHECK_U64(record.remaining[2], 0);
	remove_directory(directory);
}

static void runner_capture_should_return_the_standard_output(void)
{
	char *argv[] = { "/bin/sh", "-c", "echo hello; echo noise >&2; printf 'world'", NULL };
	struct gate_error err = GATE_ERROR_INIT;
	char *output = NULL;

	CHECK(runner_capture(argv, "/", sealed_environment, 10, &output, &err) == 0);
	CHECK_STR(err.message, "");
	CHECK_STR(output, "hello\nworld");
	free(output);
}

static void runner_capture_should_return_output_larger_than_its_first_buffer(void)
{
	char *argv[] = { "/bin/sh", "-c", "head -c 300000 /dev/zero | tr '\\0' a", NULL };
	struct gate_error err = GATE_ERROR_INIT;
	char *output = NULL;
	size_t i, a = 0;

	CHECK(runner_capture(argv, "/", sealed_environment, 10, &output, &err) == 0);
	CHECK(output != NULL);
	for (i = 0; output != NULL && output[i] != '\0'; i++)
		a += output[i] == 'a';
	CHECK_U64(a, 300000);
	CHECK_U64(output ? strlen(output) : 0, 300000);
	free(output);
}

static void runner_capture_should_return_output_larger_than_a_mebibyte_whole(void)
{
	char *argv[] = { "/bin/sh", "-c", "head -c 3000000 /dev/zero | tr '\\0' a", NULL };
	struct gate_error err = GATE_ERROR_INIT;
	char *output = NULL;

	CHECK(runner_capture(argv, "/", sealed_environment, 30, &output, &err) == 0);
	CHECK_U64(output ? strlen(output) : 0, 3000000);
	free(output);
}

/* runner_capture of `argv` with a deadline of `seconds` fails, within `within` seconds, with
 * `problem` in the message and no output. */
static void check_capture_fails(char **argv, unsigned seconds, double within, const char *problem)
{
	struct gate_error err = GATE_ERROR_INIT;
	char *output = (char *)"untouched";
	double started = now();

	CHECK(runner_capture(argv, "/", sealed_environment, seconds, &output, &err) == -1);
	CHECK(now() - started < within);
	CHECK_CONTAINS(err.message, problem);
	CHECK(output == NULL);
}

static void runner_capture_should_say_how_a_failing_command_ended(void)
{
	char *exits[] = { "/bin/sh", "-c", "echo partial; exit 2", NULL };
	char *crashes[] = { "/bin/sh", "-c", "kill -SEGV $$", NULL };

	check_capture_fails(exits, 10, 10, "'/bin/sh' exited with 2");
	check_capture_fails(crashes, 10, 10, "'/bin/sh' was killed by signal 11");
}

static void runner_capture_should_say_a_program_could_not_start(void)
{
	char *argv[] = { "/nonexistent/costgate-describe", "--describe", NULL };

	check_capture_fails(argv, 10, 10, "/nonexistent/costgate-describe");
	check_capture_fails(argv, 10, 10, "No such file or directory");
}

static void runner_capture_should_kill_a_command_at_its_deadline(void)
{
	char *argv[] = { "/bin/sleep", "5", NULL };

	check_capture_fails(argv, 1, 4.0, "timed out after 1 s");
}

/* Regression: runner_capture once enforced its deadline only while the child's stdout was open;
 * a command that closes stdout and then hangs was waited for without end. */
static void runner_capture_should_kill_a_command_that_closed_its_output_at_its_deadline(void)
{
	char *argv[] = { "/bin/sh", "-c", "exec >/dev/null; sleep 3", NULL };
	struct gate_error err = GATE_ERROR_INIT;
	char *output = NULL;
	double started = now();

	CHECK(runner_capture(argv, "/", sealed_environment, 1, &output, &err) == -1);
	CHECK(now() - started < 2.5);
	CHECK_CONTAINS(err.message, "timed out");
	free(output);
}

static void runner_should_find_a_program_on_the_path(void)
{
	char *found = runner_find_program("sh", "/nonexistent/bin:/usr/bin:/bin");

	CHECK(found != NULL);
	if (found != NULL) {
		CHECK(strcmp(found, "/usr/bin/sh") == 0 || strcmp(found, "/bin/sh") == 0);
		CHECK(access(found, X_OK) == 0);
	}
	free(found);
	found = runner_find_program("sh", NULL); /* no PATH: /usr/bin:/bin */
	CHECK(found != NULL);
	free(found);
}

static void runner_should_find_no_program_that_is_not_there(void)
{
	CHECK(runner_find_program("costgate-no-such-program", "/usr/bin:/bin") == NULL);
	CHECK(runner_find_program("sh", "/nonexistent") == NULL);
	CHECK(runner_find_program("/nonexistent/sh", "/usr/bin:/bin") == NULL);
}

static void runner_should_take_a_name_with_a_slash_as_it_is(void)
{
	char *found = runner_find_program("/bin/sh", "/nonexistent");

	CHECK_STR(found, "/bin/sh");
	free(found);
}

static void runner_should_not_take_a_file_without_execute_permission_for_a_program(void)
{
	char *directory = make_directory(), path[600];
	FILE *file;

	snprintf(path, sizeof(path), "%s/tool", directory);
	file = fopen(path, "w");
	if (file != NULL)
		fclose(file);
	CHECK(chmod(path, 0644) == 0);
	CHECK(runner_find_program("tool", directory) == NULL);
	remove_directory(directory);
}

/* Regression: access(X_OK) is true for a directory, so a directory of that name on the PATH was
 * once returned as the program. */
static void runner_should_not_take_a_directory_for_a_program(void)
{
	char *directory = make_directory(), path[600], *found;

	snprintf(path, sizeof(path), "%s/tool", directory);
	CHECK(mkdir(path, 0755) == 0);
	found = runner_find_program("tool", directory);
	CHECK(found == NULL);
	free(found);
	remove_directory(directory);
}

int main(void)
{
	setvbuf(stdout, NULL, _IONBF, 0); /* keep the case lines if a sanitizer aborts */
	RUN(runner_should_report_how_each_job_ended);
	RUN(runner_should_kill_a_job_at_its_deadline);
	RUN(runner_should_kill_and_count_what_a_job_left_running);
	RUN(runner_should_skip_a_job_that_comes_after_a_failed_one);
	RUN(runner_should_kill_what_a_job_started_at_its_deadline);
	RUN(runner_should_log_the_standard_output_and_error_of_a_job);
	RUN(runner_should_truncate_an_old_log);
	RUN(runner_should_start_the_heaviest_jobs_first);
	RUN(runner_should_run_no_more_jobs_at_once_than_allowed);
	RUN(runner_should_report_a_program_that_does_not_exist);
	RUN(runner_should_report_a_log_it_cannot_create);
	RUN(runner_should_give_the_child_exactly_the_environment_given);
	RUN(runner_should_start_the_child_in_the_directory_given_with_no_input);
	RUN(runner_should_turn_address_randomization_off_when_asked);
	RUN(runner_should_report_progress_once_per_job);
	RUN(runner_capture_should_return_the_standard_output);
	RUN(runner_capture_should_return_output_larger_than_its_first_buffer);
	RUN(runner_capture_should_return_output_larger_than_a_mebibyte_whole);
	RUN(runner_capture_should_say_how_a_failing_command_ended);
	RUN(runner_capture_should_say_a_program_could_not_start);
	RUN(runner_capture_should_kill_a_command_at_its_deadline);
	RUN(runner_capture_should_kill_a_command_that_closed_its_output_at_its_deadline);
	RUN(runner_should_find_a_program_on_the_path);
	RUN(runner_should_find_no_program_that_is_not_there);
	RUN(runner_should_take_a_name_with_a_slash_as_it_is);
	RUN(runner_should_not_take_a_file_without_execute_permission_for_a_program);
	RUN(runner_should_not_take_a_directory_for_a_program);
	return CHECK_EXIT();
}
