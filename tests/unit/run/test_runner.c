/* Unit tests of the child-process runner on small real programs (/bin/sh, /bin/true, env): how
 * each job ended, its log, the order jobs start in, deadlines, the sealed environment, and the
 * one-command capture. Every batch of jobs runs in a scratch directory of its own. */
#define _GNU_SOURCE
#include "check.h"
#include "fs.h"
#include "runner.h"
#include "scratch.h"

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

#define BATCH_MAX 4

static char *sealed_environment[] = { "PATH=/usr/bin:/bin", "LC_ALL=C", NULL };

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

/* Jobs that run in a scratch directory, job i logged to i.log there, with the sealed
 * environment. */
struct batch {
	char *directory;
	char logs[BATCH_MAX][600];
	struct runner_job jobs[BATCH_MAX];
	size_t count;
	struct runner_options options;
};

/* A batch of `count` jobs, job i running argvs[i], `parallel` at once, each killed after
 * `timeout_seconds`. Returns its jobs, to set more of them before batch_run. */
static struct runner_job *batch_start(struct batch *batch, char **const *argvs, size_t count,
				      unsigned parallel, double timeout_seconds)
{
	size_t i;

	batch->directory = scratch_make("runner");
	batch->count = count;
	batch->options = (struct runner_options){ .parallel = parallel,
						  .timeout_seconds = timeout_seconds,
						  .environment = sealed_environment };
	for (i = 0; i < count; i++) {
		snprintf(batch->logs[i], sizeof(batch->logs[i]), "%s/%zu.log", batch->directory, i);
		batch->jobs[i] = (struct runner_job){ .argv = argvs[i], .directory = batch->directory,
						      .log_path = batch->logs[i] };
	}
	return batch->jobs;
}

/* Runs the batch's jobs, which all get to an end however they end. */
static void batch_run(struct batch *batch)
{
	struct gate_error err = GATE_ERROR_INIT;

	CHECK(runner_run(batch->jobs, batch->count, &batch->options, &err) == 0);
	CHECK_STR(err.message, "");
}

/* The text of the file `name` in the batch's directory (owned), or NULL. */
static char *batch_read(const struct batch *batch, const char *name)
{
	char path[700];

	snprintf(path, sizeof(path), "%s/%s", batch->directory, name);
	return read_text(path);
}

static void batch_end(struct batch *batch)
{
	scratch_remove(batch->directory);
}

/* How job `index` of the batch ended, as messages say it. */
static const char *ending(const struct batch *batch, size_t index)
{
	static char how[200];

	runner_describe_end(&batch->jobs[index], batch->options.timeout_seconds, how, sizeof(how));
	return how;
}

static void runner_should_report_how_each_job_ended(void)
{
	char *ok[] = { "/bin/true", NULL }, *fails[] = { "/bin/false", NULL };
	char *exits[] = { "/bin/sh", "-c", "exit 42", NULL };
	char *crashes[] = { "/bin/sh", "-c", "kill -SEGV $$", NULL };
	char **const argvs[] = { ok, fails, exits, crashes };
	struct batch batch;
	struct runner_job *jobs = batch_start(&batch, argvs, 4, 4, 30);
	size_t i;

	batch_run(&batch);
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
	CHECK_STR(ending(&batch, 1), "exited with 1");
	CHECK_CONTAINS(ending(&batch, 3), "killed by signal 11 (");
	batch_end(&batch);
}

/* The state letter of /proc/PID/stat, or 0 when the process is gone. Read a line at a time: a
 * file of /proc has no size to read up to. */
static char process_state(pid_t pid)
{
	char path[64], text[512], *paren, state = 0;
	FILE *file;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	file = fopen(path, "r");
	if (file == NULL)
		return 0;
	if (fgets(text, sizeof(text), file) != NULL && (paren = strrchr(text, ')')) != NULL &&
	    paren[1] == ' ')
		state = paren[2];
	fclose(file);
	return state;
}

/* True while `pid` runs (a zombie has ended). */
static bool process_runs(pid_t pid)
{
	char state = process_state(pid);

	return state != 0 && state != 'Z' && state != 'X';
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
	/* In the job's group; in a session of its own (setsid), so only gate's subreaping finds
	 * it; and nothing left. */
	char *stays[] = { "/bin/sh", "-c", "sleep 60 >/dev/null & echo $!", NULL };
	char *escapes[] = { "/bin/sh", "-c", "setsid sleep 60 >/dev/null & echo $!", NULL };
	char *clean[] = { "/bin/sh", "-c", "sleep 0.1", NULL };
	char **const argvs[] = { stays, escapes, clean };
	struct batch batch;
	/* One at a time: a process that left its run's session is found among gate's strays, and
	 * with runs side by side it is counted for the run that ended when it was found. */
	struct runner_job *jobs = batch_start(&batch, argvs, 3, 1, 30);
	pid_t left[2];
	size_t i;

	batch_run(&batch);
	for (i = 0; i < 2; i++) {
		left[i] = pid_in_log(batch.logs[i]);
		CHECK(left[i] > 0);
		CHECK(jobs[i].exited && jobs[i].exit_code == 0);
		CHECK_U64(jobs[i].leftovers, 1);
		CHECK(!runner_job_succeeded(&jobs[i]));
		CHECK(left[i] <= 0 || !process_runs(left[i]));
	}
	CHECK_STR(ending(&batch, 1), "left 1 process running (killed)");
	CHECK_U64(jobs[2].leftovers, 0);
	CHECK(runner_job_succeeded(&jobs[2]));
	batch_end(&batch);
}

static void runner_should_skip_a_job_that_comes_after_a_failed_one(void)
{
	char *fails[] = { "/bin/false", NULL }, *ok[] = { "/bin/true", NULL };
	char **const argvs[] = { fails, ok, ok, ok };
	struct batch batch;
	struct runner_job *jobs = batch_start(&batch, argvs, 4, 2, 30);
	size_t i;

	for (i = 0; i < 4; i++)
		jobs[i].weight = 10 - i; /* heavier than what they come after: order still holds */
	jobs[2].after[0] = &jobs[0]; /* after the failure */
	jobs[2].weight = 100;
	jobs[3].after[0] = &jobs[1]; /* after a success */
	jobs[3].weight = 100;
	batch_run(&batch);
	CHECK(jobs[2].skipped && !jobs[2].started && jobs[2].finished);
	CHECK(!runner_job_succeeded(&jobs[2]));
	CHECK_STR(ending(&batch, 2), "was not run: a run it comes after failed");
	CHECK(!jobs[3].skipped && runner_job_succeeded(&jobs[3]));
	batch_end(&batch);
}

static void runner_should_kill_a_job_at_its_deadline(void)
{
	char *sleeps[] = { "/bin/sleep", "5", NULL };
	struct batch batch;
	struct runner_job *job = batch_start(&batch, (char **const[]){ sleeps }, 1, 1, 1);
	double started = now(), took;

	batch_run(&batch);
	took = now() - started;
	CHECK(job->started);
	CHECK(job->timed_out);
	CHECK(!job->exited);
	CHECK(job->signal == SIGKILL);
	CHECK(!runner_job_succeeded(job));
	CHECK(took >= 0.9 && took < 4.0);
	CHECK(job->seconds >= 0.9 && job->seconds < 4.0);
	CHECK_CONTAINS(ending(&batch, 0), "timed out after 1 s");
	batch_end(&batch);
}

static void runner_should_kill_what_a_job_started_at_its_deadline(void)
{
	char script[800], *pid_text;
	char *argv[] = { "/bin/sh", "-c", script, NULL };
	struct batch batch;
	struct runner_job *job = batch_start(&batch, (char **const[]){ argv }, 1, 1, 1);
	int tries;
	pid_t grandchild;

	snprintf(script, sizeof(script), "sleep 30 & echo $! > '%s/grandchild.pid'; wait",
		 batch.directory);
	batch_run(&batch);
	CHECK(job->timed_out);
	pid_text = batch_read(&batch, "grandchild.pid");
	CHECK(pid_text != NULL);
	grandchild = pid_text ? (pid_t)atoi(pid_text) : 0;
	free(pid_text);
	CHECK(grandchild > 0);
	for (tries = 0; grandchild > 0 && tries < 100 && process_runs(grandchild); tries++)
		usleep(10000);
	if (grandchild > 0 && process_runs(grandchild)) {
		check_failed(__FILE__, __LINE__, "the grandchild %d is still running (state %c)",
			     (int)grandchild, process_state(grandchild));
		kill(grandchild, SIGKILL);
	}
	batch_end(&batch);
}

/* The log of `argv` run alone for at most `timeout_seconds`, the file holding `old` before. */
static void check_log(char **argv, double timeout_seconds, const char *old, const char *expected)
{
	struct batch batch;
	struct runner_job *job = batch_start(&batch, (char **const[]){ argv }, 1, 1, timeout_seconds);
	FILE *file;
	char *text;

	if (old != NULL && (file = fopen(batch.logs[0], "w")) != NULL) {
		fputs(old, file);
		fclose(file);
	}
	batch_run(&batch);
	CHECK(runner_job_succeeded(job));
	text = batch_read(&batch, "0.log");
	CHECK_STR(text, expected);
	free(text);
	batch_end(&batch);
}

static void runner_should_log_the_standard_output_and_error_of_a_job(void)
{
	char *argv[] = { "/bin/sh", "-c", "echo out; echo err >&2; echo out again", NULL };

	check_log(argv, 30, NULL, "out\nerr\nout again\n");
}

static void runner_should_truncate_an_old_log(void)
{
	char *argv[] = { "/bin/sh", "-c", "echo new", NULL };

	check_log(argv, 30, "an old and much longer log\n", "new\n");
}

static void runner_should_start_the_heaviest_jobs_first(void)
{
	static const char *const names[] = { "light", "heaviest", "middle", "heavy" };
	static const uint64_t weights[] = { 1, 4000000000ULL, 20, 300 };
	char scripts[4][800], *text;
	char *argvs[4][4];
	struct batch batch;
	struct runner_job *jobs = batch_start(&batch, (char **const[]){ argvs[0], argvs[1], argvs[2],
									 argvs[3] }, 4, 1, 30);
	size_t i;

	for (i = 0; i < 4; i++) {
		snprintf(scripts[i], sizeof(scripts[i]), "echo %s >> '%s/order'", names[i],
			 batch.directory);
		argvs[i][0] = "/bin/sh";
		argvs[i][1] = "-c";
		argvs[i][2] = scripts[i];
		argvs[i][3] = NULL;
		jobs[i].weight = weights[i];
	}
	batch_run(&batch);
	text = batch_read(&batch, "order");
	CHECK_STR(text, "heaviest\nheavy\nmiddle\nlight\n");
	free(text);
	batch_end(&batch);
}

static void runner_should_run_no_more_jobs_at_once_than_allowed(void)
{
	char script[900], *text;
	char *argv[] = { "/bin/sh", "-c", script, NULL };
	struct batch batch;
	struct runner_job *jobs = batch_start(&batch, (char **const[]){ argv, argv, argv, argv }, 4,
					      2, 30);
	size_t i;

	/* Each job counts the others running beside it through marker files. */
	snprintf(script, sizeof(script),
		 "cd '%s' && touch running.$$ && sleep 0.3 && ls running.* | wc -l >> counts; "
		 "rm -f running.$$", batch.directory);
	batch_run(&batch);
	for (i = 0; i < 4; i++)
		CHECK(runner_job_succeeded(&jobs[i]));
	text = batch_read(&batch, "counts");
	CHECK(text != NULL);
	if (text != NULL) {
		CHECK(strstr(text, "3") == NULL && strstr(text, "4") == NULL);
		CHECK(strstr(text, "2") != NULL); /* and two did run at once */
	}
	free(text);
	batch_end(&batch);
}

static void runner_should_report_a_program_that_does_not_exist(void)
{
	char *missing[] = { "/nonexistent/costgate-no-such-program", NULL };
	char *ok[] = { "/bin/true", NULL };
	struct batch batch;
	struct runner_job *jobs = batch_start(&batch, (char **const[]){ missing, ok }, 2, 1, 30);

	batch_run(&batch);
	CHECK(!jobs[0].started);
	CHECK(jobs[0].spawn_error == ENOENT);
	CHECK(!jobs[0].exited);
	CHECK(!runner_job_succeeded(&jobs[0]));
	CHECK(runner_job_succeeded(&jobs[1])); /* the others go on */
	CHECK_STR(ending(&batch, 0), "could not start: No such file or directory");
	batch_end(&batch);
}

static void runner_should_report_a_log_it_cannot_create(void)
{
	char *ok[] = { "/bin/true", NULL };
	struct batch batch;
	struct runner_job *job = batch_start(&batch, (char **const[]){ ok }, 1, 1, 30);

	snprintf(batch.logs[0], sizeof(batch.logs[0]), "%s/absent/true.log", batch.directory);
	batch_run(&batch);
	CHECK(!job->started);
	CHECK(job->spawn_error == ENOENT);
	batch_end(&batch);
}

static void runner_should_give_the_child_exactly_the_environment_given(void)
{
	char *argv[] = { "/usr/bin/env", NULL };
	char *environment[] = { "COSTGATE_ONE=1", "COSTGATE_TWO=two words", NULL };
	struct batch batch;
	struct runner_job *job = batch_start(&batch, (char **const[]){ argv }, 1, 1, 30);
	char *text;

	batch.options.environment = environment;
	setenv("COSTGATE_LEAK", "from the test", 1);
	batch_run(&batch);
	CHECK(runner_job_succeeded(job));
	text = batch_read(&batch, "0.log");
	CHECK_STR(text, "COSTGATE_ONE=1\nCOSTGATE_TWO=two words\n");
	free(text);
	unsetenv("COSTGATE_LEAK");
	batch_end(&batch);
}

static void runner_should_start_the_child_in_the_directory_given_with_no_input(void)
{
	char *argv[] = { "/bin/sh", "-c", "pwd; if read line; then echo input; else echo no input; fi",
			 NULL };
	struct batch batch;
	struct runner_job *job = batch_start(&batch, (char **const[]){ argv }, 1, 1, 5);
	char expected[700], *text, *resolved = realpath(batch.directory, NULL);

	batch_run(&batch);
	CHECK(runner_job_succeeded(job));
	snprintf(expected, sizeof(expected), "%s\nno input\n", resolved ? resolved : batch.directory);
	text = batch_read(&batch, "0.log");
	CHECK_STR(text, expected);
	free(text);
	free(resolved);
	batch_end(&batch);
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

/* The personality flags of a child started with address randomization off or not, or
 * `otherwise` when there are none to read. */
static unsigned long child_personality(bool no_randomize, unsigned long otherwise)
{
	char *argv[] = { "/bin/cat", "/proc/self/personality", NULL };
	struct batch batch;
	char *text;
	unsigned long value;

	batch_start(&batch, (char **const[]){ argv }, 1, 1, 30);
	batch.options.no_randomize = no_randomize;
	batch_run(&batch);
	text = batch_read(&batch, "0.log");
	value = text ? strtoul(text, NULL, 16) : otherwise;
	free(text);
	batch_end(&batch);
	return value;
}

static void runner_should_turn_address_randomization_off_when_asked(void)
{
	if (!can_turn_randomization_off()) {
		check_skip("runner_should_turn_address_randomization_off_when_asked",
			   "personality(2) is refused here");
		return;
	}
	CHECK((child_personality(true, 0) & ADDR_NO_RANDOMIZE) != 0);
	CHECK((child_personality(false, ADDR_NO_RANDOMIZE) & ADDR_NO_RANDOMIZE) == 0);
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
	char *ok[] = { "/bin/true", NULL }, *missing[] = { "/nonexistent/program", NULL };
	struct batch batch;
	struct progress_record record = { 0 };

	batch_start(&batch, (char **const[]){ ok, missing, ok }, 3, 2, 30);
	batch.options.progress = record_progress;
	batch.options.progress_context = &record;
	batch_run(&batch);
	CHECK_U64(record.calls, 3);
	CHECK_U64(record.remaining[0], 2);
	CHECK_U64(record.remaining[1], 1);
	CHECK_U64(record.remaining[2], 0);
	batch_end(&batch);
}

/* What `sh -c script` prints to its standard output, captured by runner_capture with a deadline
 * of `seconds` (owned); NULL when the capture failed. */
static char *captured(const char *script, unsigned seconds)
{
	char *argv[] = { "/bin/sh", "-c", (char *)script, NULL };
	struct gate_error err = GATE_ERROR_INIT;
	char *output = NULL;

	CHECK(runner_capture(argv, "/", sealed_environment, seconds, &output, &err) == 0);
	CHECK_STR(err.message, "");
	CHECK(output != NULL);
	return output;
}

static void runner_capture_should_return_the_standard_output(void)
{
	char *output = captured("echo hello; echo noise >&2; printf 'world'", 10);

	CHECK_STR(output, "hello\nworld");
	free(output);
}

static void runner_capture_should_return_output_larger_than_its_first_buffer(void)
{
	char *output = captured("head -c 300000 /dev/zero | tr '\\0' a", 10);
	size_t i, a = 0;

	for (i = 0; output != NULL && output[i] != '\0'; i++)
		a += output[i] == 'a';
	CHECK_U64(a, 300000);
	CHECK_U64(output ? strlen(output) : 0, 300000);
	free(output);
}

static void runner_capture_should_return_output_larger_than_a_mebibyte_whole(void)
{
	char *output = captured("head -c 3000000 /dev/zero | tr '\\0' a", 30);

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
	char *directory = scratch_make("runner"), path[600];
	FILE *file;

	snprintf(path, sizeof(path), "%s/tool", directory);
	file = fopen(path, "w");
	if (file != NULL)
		fclose(file);
	CHECK(chmod(path, 0644) == 0);
	CHECK(runner_find_program("tool", directory) == NULL);
	scratch_remove(directory);
}

/* Regression: access(X_OK) is true for a directory, so a directory of that name on the PATH was
 * once returned as the program. */
static void runner_should_not_take_a_directory_for_a_program(void)
{
	char *directory = scratch_make("runner"), path[600], *found;

	snprintf(path, sizeof(path), "%s/tool", directory);
	CHECK(mkdir(path, 0755) == 0);
	found = runner_find_program("tool", directory);
	CHECK(found == NULL);
	free(found);
	scratch_remove(directory);
}

/* The cleanup a signal handler runs: the program in its directory, with its environment, waited
 * for; a program that is not there is no error to anyone. */
static void runner_run_and_wait_should_run_the_program_in_its_directory(void)
{
	char *directory = scratch_make("run_and_wait"), path[600];
	char *argv[] = { (char *)"/bin/sh", (char *)"-c", (char *)"echo \"$WHO\" >made", NULL };
	char *environment[] = { (char *)"WHO=cleanup", NULL };
	char *missing[] = { (char *)"/nonexistent/program", NULL };
	char *text = NULL;
	size_t length = 0;

	runner_run_and_wait(argv, directory, environment);
	snprintf(path, sizeof(path), "%s/made", directory);
	CHECK(fs_read_file(path, 100, &text, &length) == 0);
	CHECK_STR(text, "cleanup\n");
	free(text);
	runner_run_and_wait(missing, directory, environment);
	runner_run_and_wait(NULL, directory, environment);
	scratch_remove(directory);
}

static int returns_eacces(void *context)
{
	(void)context;
	return EACCES;
}

static int returns_nothing(void *context)
{
	(void)context;
	return 0;
}

static int dies(void *context)
{
	(void)context;
	_exit(3); /* ends without a word of what went wrong */
}

/* A probe in a child of its own: what it returned, or ECHILD when it ended otherwise. */
static void runner_call_in_child_should_give_what_the_child_returned(void)
{
	CHECK(runner_call_in_child(returns_nothing, NULL) == 0);
	CHECK(runner_call_in_child(returns_eacces, NULL) == EACCES);
	CHECK(runner_call_in_child(dies, NULL) == ECHILD);
}

int main(void)
{
	return RUN_CASES(runner_run_and_wait_should_run_the_program_in_its_directory,
			 runner_call_in_child_should_give_what_the_child_returned,
			 runner_should_report_how_each_job_ended,
			 runner_should_kill_a_job_at_its_deadline,
			 runner_should_kill_and_count_what_a_job_left_running,
			 runner_should_skip_a_job_that_comes_after_a_failed_one,
			 runner_should_kill_what_a_job_started_at_its_deadline,
			 runner_should_log_the_standard_output_and_error_of_a_job,
			 runner_should_truncate_an_old_log,
			 runner_should_start_the_heaviest_jobs_first,
			 runner_should_run_no_more_jobs_at_once_than_allowed,
			 runner_should_report_a_program_that_does_not_exist,
			 runner_should_report_a_log_it_cannot_create,
			 runner_should_give_the_child_exactly_the_environment_given,
			 runner_should_start_the_child_in_the_directory_given_with_no_input,
			 runner_should_turn_address_randomization_off_when_asked,
			 runner_should_report_progress_once_per_job,
			 runner_capture_should_return_the_standard_output,
			 runner_capture_should_return_output_larger_than_its_first_buffer,
			 runner_capture_should_return_output_larger_than_a_mebibyte_whole,
			 runner_capture_should_say_how_a_failing_command_ended,
			 runner_capture_should_say_a_program_could_not_start,
			 runner_capture_should_kill_a_command_at_its_deadline,
			 runner_capture_should_kill_a_command_that_closed_its_output_at_its_deadline,
			 runner_should_find_a_program_on_the_path,
			 runner_should_find_no_program_that_is_not_there,
			 runner_should_take_a_name_with_a_slash_as_it_is,
			 runner_should_not_take_a_file_without_execute_permission_for_a_program,
			 runner_should_not_take_a_directory_for_a_program);
}
