/* One run of gate, as named steps that main and the subcommands call in order: prepare,
 * acceptances, baseline, measure, make comparable, decide and report. Part of the executable,
 * not of the core library: these steps choose exit codes (docs/design.md, exit codes). */
#define _GNU_SOURCE
#include "session.h"

#include <errno.h>
#include <inttypes.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "baseline.h"
#include "crosscheck.h"
#include "telltales.h"
#include "debuginfo.h"
#include "exit_codes.h"
#include "flamegraph.h"
#include "fs.h"
#include "manifest.h"
#include "native_runs.h"
#include "report.h"
#include "runner.h"
#include "sha256.h"
#include "table.h"
#include "wall_check.h"
#include "wallclock.h"
#include "worktree.h"

int session_fail(int code, const struct gate_error *err)
{
	fprintf(stderr, "gate: error: %s\n", err->message);
	return code;
}

/* What mkdir -p leaves must be a directory gate can write into (EEXIST also means a file). */
static int check_directory(const char *path, struct gate_error *err)
{
	struct stat status;

	if (stat(path, &status) != 0)
		return gate_error_set(err, "cannot use directory '%s': %s", path, strerror(errno));
	if (!S_ISDIR(status.st_mode))
		return gate_error_set(err, "'%s' exists and is not a directory", path);
	if (access(path, W_OK | X_OK) != 0)
		return gate_error_set(err, "cannot write into directory '%s': %s", path, strerror(errno));
	return 0;
}

int session_make_directories(const char *path, struct gate_error *err)
{
	if (fs_mkdir_p(path, 0755, err) != 0)
		return -1;
	return check_directory(path, err);
}

/* An output file: not a directory, in a directory that exists and may be written. */
static int check_output_file(const char *path, const char *option, struct gate_error *err)
{
	char *copy = strdup(path);
	struct stat status;
	const char *directory;
	int result = 0;

	if (copy == NULL)
		return gate_error_set(err, "out of memory");
	directory = dirname(copy);
	if (stat(path, &status) == 0 && S_ISDIR(status.st_mode))
		result = gate_error_set(err, "%s '%s': is a directory", option, path);
	else if (stat(path, &status) == 0 && access(path, W_OK) != 0)
		result = gate_error_set(err, "%s '%s': the file cannot be written: %s", option, path,
					strerror(errno));
	else if (stat(path, &status) == 0 && !S_ISREG(status.st_mode))
		; /* a device or a pipe is written in place: its directory is not written */
	else if (stat(directory, &status) != 0)
		result = gate_error_set(err, "%s '%s': the directory '%s' does not exist", option,
					path, directory);
	else if (!S_ISDIR(status.st_mode))
		result = gate_error_set(err, "%s '%s': '%s' is not a directory", option, path,
					directory);
	else if (access(directory, W_OK | X_OK) != 0)
		result = gate_error_set(err, "%s '%s': the directory '%s' cannot be written: %s",
					option, path, directory, strerror(errno));
	free(copy);
	return result;
}

/* A directory that exists and may be written, or one mkdir -p can make: its nearest existing
 * ancestor is a writable directory. Nothing is created here (a usage error later leaves no
 * trace). */
static int check_output_directory(const char *path, struct gate_error *err)
{
	char *copy = strdup(path);
	struct stat status;
	int result = 0;

	if (copy == NULL)
		return gate_error_set(err, "out of memory");
	if (stat(copy, &status) == 0) {
		result = check_directory(copy, err);
	} else {
		while (stat(copy, &status) != 0 && (errno == ENOENT || errno == ENOTDIR) &&
		       strcmp(copy, "/") != 0 && strcmp(copy, ".") != 0) {
			const char *parent = dirname(copy);

			memmove(copy, parent, strlen(parent) + 1);
		}
		if (stat(copy, &status) != 0)
			result = gate_error_set(err, "cannot create directory under '%s': %s", copy,
						strerror(errno));
		else if (!S_ISDIR(status.st_mode))
			result = gate_error_set(err, "cannot create it: '%s' is not a directory", copy);
		else if (access(copy, W_OK | X_OK) != 0)
			result = gate_error_set(err, "cannot create it: '%s' cannot be written: %s", copy,
						strerror(errno));
	}
	free(copy);
	return result;
}

/* The default results.json goes where the build is: its directory is made when missing. */
static int check_default_json(const char *path, struct gate_error *err)
{
	char *copy = strdup(path);
	int result;

	if (copy == NULL)
		return gate_error_set(err, "out of memory");
	result = check_output_directory(dirname(copy), err);
	if (result != 0)
		gate_error_prefix(err, "results.json '%s'", path);
	free(copy);
	return result;
}

/* Makes the default results.json's directory (checked at the start). */
static int make_json_directory(const struct gate_options *options, struct gate_error *err)
{
	char *copy;
	int result;

	if (!options->json_default)
		return 0;
	copy = strdup(options->json_path);
	if (copy == NULL)
		return gate_error_set(err, "out of memory");
	result = session_make_directories(dirname(copy), err);
	free(copy);
	return result;
}

int session_check_outputs(const struct gate_options *options)
{
	struct gate_error err = GATE_ERROR_INIT;

	if (check_output_directory(options->raw_dir, &err) != 0) {
		gate_error_prefix(&err, "--raw-dir '%s'", options->raw_dir);
		return session_fail(GATE_EXIT_USAGE, &err);
	}
	if (options->json_default && check_default_json(options->json_path, &err) != 0)
		return session_fail(GATE_EXIT_USAGE, &err);
	if ((!options->json_default && check_output_file(options->json_path, "--json", &err) != 0) ||
	    (options->markdown_path != NULL &&
	     check_output_file(options->markdown_path, "--markdown", &err) != 0))
		return session_fail(GATE_EXIT_USAGE, &err);
	return 0;
}

/* The names a shard document lists, so that a merge can tell a missing shard. */
static int remember_selection(struct session *session)
{
	size_t i;

	session->selected = calloc(session->manifest.entry_count + 1, sizeof(*session->selected));
	if (session->selected == NULL)
		return -1;
	for (i = 0; i < session->manifest.entry_count; i++) {
		session->selected[i] = strdup(session->manifest.entries[i].name);
		if (session->selected[i] == NULL)
			return -1;
		session->selected_count++;
	}
	return 0;
}

/* The build directory as outputs show it: relative to the repository's top when inside it (as
 * a user pastes a command there), else as given. */
static const char *shown_build_dir(const struct session *session, char *text, size_t size)
{
	const char *build_dir = session->options->build_dir;
	char *absolute = realpath(build_dir, NULL);
	size_t root_length = session->root != NULL ? strlen(session->root) : 0;

	if (absolute != NULL && root_length > 0 && strncmp(absolute, session->root, root_length) == 0 &&
	    absolute[root_length] == '/')
		build_dir = absolute + root_length + 1;
	snprintf(text, size, "%s", build_dir);
	free(absolute);
	return text;
}

void session_build_command(const struct session *session, char *text, size_t size)
{
	char build_dir[PATH_MAX];

	if (session->manifest.build_command != NULL)
		snprintf(text, size, "%s", session->manifest.build_command);
	else
		snprintf(text, size, "cmake --build %s",
			 shown_build_dir(session, build_dir, sizeof(build_dir)));
}

/* What makes this host's build optimise, in its own terms: Meson's build type, CMake's, or the
 * compile flags of any other build. */
static void unoptimised_fix(struct session *session)
{
	const char *command = session->manifest.build_command;
	char build_dir[PATH_MAX];

	shown_build_dir(session, build_dir, sizeof(build_dir));
	if (command != NULL && strstr(command, "meson") != NULL)
		snprintf(session->unoptimised_fix, sizeof(session->unoptimised_fix),
			 "set a build type that optimises (meson configure %.200s "
			 "-Dbuildtype=debugoptimized)", build_dir);
	else if (command == NULL && worktree_cmake_build(session->options->build_dir))
		snprintf(session->unoptimised_fix, sizeof(session->unoptimised_fix),
			 "configure a build type that optimises (cmake -DCMAKE_BUILD_TYPE="
			 "RelWithDebInfo %.200s)", build_dir);
	else
		snprintf(session->unoptimised_fix, sizeof(session->unoptimised_fix),
			 "compile it with -O2 (in the flags the build passes the compiler: CFLAGS "
			 "for make)");
}

/* gate -v: where the fingerprint's flags came from. */
static void report_provenance(const struct session *session)
{
	const struct provenance *provenance = &session->provenance;

	if (provenance->flags != NULL)
		fprintf(stderr, "gate: the build: %zu of the project's %zu compile units record their "
			"options: %s\n", provenance->recorded, provenance->units, provenance->flags);
	else
		fprintf(stderr, "gate: the build: none of the project's %zu compile units records its "
			"options (clang records them with -grecord-command-line; a build without -g "
			"records nothing): the flags are the manifest's, '%s'\n", provenance->units,
			session->manifest.flags);
}

int session_prepare(struct session *session)
{
	const struct gate_options *options = session->options;
	struct gate_error err = GATE_ERROR_INIT;
	char *manifest_path = NULL;
	int status;

	session->valgrind = runner_find_program("valgrind", getenv("PATH"));
	if (session->valgrind == NULL) {
		gate_error_set(&err, "valgrind not found on PATH (install it: tools/install-deps.sh)");
		return session_fail(GATE_EXIT_MEASUREMENT, &err);
	}
	if (asprintf(&manifest_path, "%s/scenarios/manifest.txt", options->build_dir) < 0)
		return session_fail(GATE_EXIT_USAGE, &err);
	status = manifest_read(&session->manifest, manifest_path, &err);
	free(manifest_path);
	if (status != 0)
		return session_fail(GATE_EXIT_USAGE, &err);
	session->built_count = session->manifest.entry_count;
	if (manifest_select(&session->manifest, options->scenarios, options->scenario_count, &err) != 0)
		return session_fail(GATE_EXIT_USAGE, &err);
	if (remember_selection(session) != 0) {
		gate_error_set(&err, "out of memory");
		return session_fail(GATE_EXIT_USAGE, &err);
	}
	manifest_shard(&session->manifest, options->shard_index, options->shard_count);
	session->partial = options->scenario_count > 0 || options->shard_count > 1;
	/* One dpkg query for the C library and every scenario's libraries, before both ask. */
	measure_prefetch_packages(&session->manifest);
	session->root = baseline_repository_root();
	if (provenance_read(&session->provenance, &session->manifest, session->root, &err) != 0)
		return session_fail(GATE_EXIT_MEASUREMENT, &err);
	if (session->provenance.stale != NULL) {
		char again[600];

		session_build_command(session, again, sizeof(again));
		gate_error_set(&err, "the build is older than its sources: %s (a build that failed, "
			       "or one not run since they changed); build it again: %s",
			       session->provenance.stale, again);
		return session_fail(GATE_EXIT_USAGE, &err);
	}
	unoptimised_fix(session);
	if (options->verbosity > 0)
		report_provenance(session);
	/* The flags the programs were compiled with, as their DWARF says; what the build says it
	 * passed only where no unit records them (docs/adopting.md, the flags). */
	if (environment_collect(&session->environment, session->valgrind, session->manifest.compiler,
				session->provenance.flags != NULL ? session->provenance.flags
								  : session->manifest.flags,
				&err) != 0)
		return session_fail(GATE_EXIT_MEASUREMENT, &err);
	if (session->manifest.costgate != NULL &&
	    (session->environment.costgate = strdup(session->manifest.costgate)) == NULL) {
		gate_error_set(&err, "out of memory");
		return session_fail(GATE_EXIT_MEASUREMENT, &err);
	}
	return 0;
}

int session_load_acceptance(struct session *session)
{
	struct gate_error err = GATE_ERROR_INIT;
	char *path = NULL;
	int status;

	if (session->options->accepted_path != NULL)
		path = strdup(session->options->accepted_path);
	else if (asprintf(&path, "%s/baselines/accepted.json", session->root ? session->root : ".") < 0)
		path = NULL;
	if (path == NULL) {
		gate_error_set(&err, "out of memory");
		return session_fail(GATE_EXIT_USAGE, &err);
	}
	status = acceptance_read(&session->acceptance, path, metric_acceptance_figures(), &err);
	free(path);
	return status == 0 ? 0 : session_fail(GATE_EXIT_USAGE, &err);
}

/* The remote's branch has no baseline file: the local branch of the name, when it has one (a
 * baseline committed here and not pushed yet). BASELINE_ABSENT with `err` as it was otherwise. */
static enum baseline_status load_local_instead(struct session *session, char **why,
					       struct gate_error *err)
{
	const char *branch = baseline_branch_of(session->options->baseline_ref);
	char *local = NULL, *commit = NULL, *ref = NULL, *ignored_why = NULL, *source = NULL;
	struct gate_error ignored = GATE_ERROR_INIT;
	struct results found = RESULTS_INIT;
	enum baseline_status status = BASELINE_ABSENT;

	if (branch == NULL || session->options->base_commit != NULL ||
	    strncmp(session->baseline_ref, "refs/remotes/", 13) != 0 ||
	    asprintf(&local, "refs/heads/%s", branch) < 0)
		return BASELINE_ABSENT;
	if (baseline_resolve(session->root, local, NULL, &commit, &ref, &ignored_why, &ignored) == 0 &&
	    baseline_load_ref(&found, session->root, branch, commit, ref, &source, &ignored) ==
		    BASELINE_FOUND) {
		free(*why);
		if (asprintf(why, "%s, as %s has no baselines/%s.json", ref, session->baseline_ref,
			     branch) < 0)
			*why = NULL;
		results_release(&session->baseline);
		session->baseline = found;
		found = (struct results)RESULTS_INIT;
		free(session->baseline_commit);
		free(session->baseline_ref);
		session->baseline_commit = commit;
		session->baseline_ref = ref;
		session->baseline_source = source;
		commit = ref = source = NULL;
		status = BASELINE_FOUND;
		*err = (struct gate_error)GATE_ERROR_INIT;
	}
	results_release(&found);
	free(local);
	free(commit);
	free(ref);
	free(ignored_why);
	free(source);
	return status;
}

int session_load_baseline(struct session *session)
{
	const struct gate_options *options = session->options;
	struct gate_error err = GATE_ERROR_INIT;
	enum baseline_status status;
	char *why = NULL;

	if (options->baseline_ref == NULL && options->baseline_file == NULL)
		return 0;
	if (options->baseline_file != NULL) {
		status = baseline_load_file(&session->baseline, options->baseline_file,
					    &session->baseline_source, &err);
	} else if (session->root == NULL) {
		gate_error_set(&err, "no baseline: the current directory is not in a git repository");
		status = BASELINE_ABSENT;
	} else if (baseline_resolve(session->root, options->baseline_ref, options->base_commit,
				    &session->baseline_commit, &session->baseline_ref, &why,
				    &err) != 0) {
		status = BASELINE_ABSENT;
	} else {
		status = baseline_load_ref(&session->baseline, session->root, options->baseline_ref,
					   session->baseline_commit, session->baseline_ref,
					   &session->baseline_source, &err);
		if (status == BASELINE_ABSENT)
			status = load_local_instead(session, &why, &err);
	}
	if (why != NULL && status == BASELINE_FOUND)
		fprintf(stderr, "gate: baseline: read %s\n", why);
	free(why);
	if (status == BASELINE_MALFORMED)
		return session_fail(GATE_EXIT_USAGE, &err);
	if (status == BASELINE_ABSENT) {
		if (!options->baseline_optional)
			return session_fail(GATE_EXIT_NO_BASELINE, &err);
		fprintf(stderr, "gate: %s; checking floors only\n", err.message);
		return 0;
	}
	session->have_baseline = true;
	return 0;
}

/* How well the runs were packed onto the cores, and what gate itself cost: the figures
 * docs/figures.md quotes. */
static void report_speed(const struct session *session, const struct timespec *started)
{
	struct rusage self, children;
	struct timespec now;
	double wall, runs = 0, own, all;
	size_t i;

	clock_gettime(CLOCK_MONOTONIC, &now);
	getrusage(RUSAGE_SELF, &self);
	getrusage(RUSAGE_CHILDREN, &children);
	wall = (double)(now.tv_sec - started->tv_sec) + (double)(now.tv_nsec - started->tv_nsec) / 1e9;
	for (i = 0; i < session->measurement_count; i++)
		runs += session->measurements[i].valgrind_seconds;
	own = (double)self.ru_utime.tv_sec + (double)self.ru_utime.tv_usec / 1e6 +
	      (double)self.ru_stime.tv_sec + (double)self.ru_stime.tv_usec / 1e6;
	all = own + (double)children.ru_utime.tv_sec + (double)children.ru_utime.tv_usec / 1e6 +
	      (double)children.ru_stime.tv_sec + (double)children.ru_stime.tv_usec / 1e6;
	fprintf(stderr, "gate: measured in %.1f s wall; the runs took %.1f s in all, %.2f x the wall "
		"time on %u jobs (wall %+.1f %% against their sum over the jobs); gate's own CPU %.2f s, "
		"%.2f %% of %.1f s; gate's own peak memory %.1f MiB\n", wall, runs,
		wall > 0 ? runs / wall : 0, session->options->jobs,
		runs > 0 ? (wall / (runs / session->options->jobs) - 1) * 100 : 0, own,
		all > 0 ? own / all * 100 : 0, all, (double)self.ru_maxrss / 1024);
}

/* What in each scenario's objects can tell a measured run apart (telltales.h): shown to the
 * reviewer, never a failure alone, so an object that cannot be read (the program checks refused
 * it already) is only left out. */
static void find_telltales(struct session *session)
{
	size_t i;

	for (i = 0; i < session->measurement_count; i++) {
		struct measurement *measurement = &session->measurements[i];
		struct gate_error ignored = GATE_ERROR_INIT;

		if (measurement->failed || measurement->info.path == NULL)
			continue;
		free(measurement->telltales);
		measurement->telltales = NULL;
		(void)telltales_find(measurement->info.path, &measurement->telltales, &ignored);
	}
}

/* The second opinion (crosscheck.h): every scenario run once more natively, unlike any measured
 * run; one that behaves otherwise has failed to measure, so the verdict's exit code is 3. Beside
 * it, what in the code could tell the runs apart (telltales.h). On
 * wherever the build has native variants (gperftools); --cross-check makes their absence a
 * failure too. What cannot be compared is said once. */
static int second_opinion(struct session *session)
{
	const struct gate_options *options = session->options;
	struct gate_error err = GATE_ERROR_INIT;
	struct manifest native = MANIFEST_INIT;
	struct crosscheck_options check = { .native = &native, .required = options->cross_check,
					    .raw_dir = session->raw_dir, .jobs = options->jobs,
					    .timeout_seconds = options->timeout_seconds,
					    .verbosity = options->verbosity };
	char unavailable[200];
	size_t agreed;

	find_telltales(session);
	if (native_runs_read_manifest(&native, options->build_dir, &err) != 0) {
		manifest_release(&native);
		if (options->cross_check) {
			gate_error_prefix(&err, "--cross-check");
			return session_fail(GATE_EXIT_MEASUREMENT, &err);
		}
		if (options->verbosity > 0)
			fprintf(stderr, "gate: no second opinion: the build has no native variants "
				"(they need gperftools: docs/threat-model.md)\n");
		return 0;
	}
	agreed = crosscheck_scenarios(session->measurements, session->measurement_count, &check,
				      unavailable, sizeof(unavailable));
	if (options->verbosity > 0) {
		fprintf(stderr, "gate: second opinion: %zu of %zu scenarios behave alike natively\n",
			agreed, session->measurement_count);
		if (unavailable[0] != '\0')
			fprintf(stderr, "gate: second opinion: instructions not compared: the CPU's "
				"counter cannot be read here (perf_event_open: %s)\n", unavailable);
	}
	manifest_release(&native);
	return 0;
}

/* N: --messages when given, else the baseline's (a baseline saved at 200 is compared at 200),
 * else the default. */
static uint64_t messages_to_measure(const struct session *session)
{
	const struct gate_options *options = session->options;

	if (options->messages_given || !session->have_baseline || session->baseline.messages < 2 ||
	    session->baseline.messages > OPTIONS_MESSAGES_MAX)
		return options->messages;
	return session->baseline.messages;
}

/* Each scenario's source file, from its executable's DWARF, for the exports (JUnit's `file`):
 * relative to the repository when it is inside it, so the name means the same on every
 * checkout. A scenario whose executable says nothing has none. */
static int find_sources(struct session *session, struct gate_error *err)
{
	size_t root_length = session->root != NULL ? strlen(session->root) : 0, i;

	for (i = 0; i < session->measurement_count; i++) {
		struct measurement *measurement = &session->measurements[i];
		char *file;

		/* Its lines named in the repository, with their text (measurement.h). */
		if (measurement_place_lines(measurement, session->root) != 0)
			return gate_error_set(err, "out of memory");
		if (measurement->info.path == NULL)
			continue;
		if (debuginfo_variable_file(measurement->info.path, "costgate_scenario", &file) != 0)
			return gate_error_set(err, "out of memory");
		if (file != NULL && root_length > 0 && strncmp(file, session->root, root_length) == 0 &&
		    file[root_length] == '/')
			memmove(file, file + root_length + 1, strlen(file + root_length + 1) + 1);
		free(measurement->source);
		measurement->source = file;
	}
	return 0;
}

/* One gate per output: `path`, a lock file, is held until gate ends. A second gate that would
 * write the same files is a usage error before it touches any (exit 2). */
static int lock_output(struct session *session, const char *path, const char *what,
		       const char *subject)
{
	struct gate_error err = GATE_ERROR_INIT;
	long holder = 0;
	int fd = fs_lock(path, &holder, &err);

	if (fd >= 0) {
		session->lock_paths[session->lock_count] = strdup(path);
		session->locks[session->lock_count++] = fd;
		return 0;
	}
	/* A lock file that cannot be made (a full or read-only disk) guards nothing, and the
	 * outputs' own writes say what is wrong with the disk: go on without it. */
	if (errno != EWOULDBLOCK)
		return 0;
	if (holder > 0)
		gate_error_set(&err, "%s '%s' is in use by another gate (pid %ld): give each gate its "
			       "own --raw-dir and --json", what, subject, holder);
	else
		gate_error_set(&err, "%s '%s' is in use by another gate: give each gate its own "
			       "--raw-dir and --json", what, subject);
	return session_fail(GATE_EXIT_USAGE, &err);
}

/* The raw directory's lock, then the results file's (beside it, hidden; none for a device). */
static int lock_outputs(struct session *session)
{
	const char *json = session->options->json_path;
	struct gate_error err = GATE_ERROR_INIT;
	char *path = NULL, *copy = NULL;
	struct stat status;
	int code = GATE_EXIT_USAGE;

	if (asprintf(&path, "%s/.gate.lock", session->raw_dir) < 0) {
		gate_error_set(&err, "out of memory");
		return session_fail(GATE_EXIT_USAGE, &err);
	}
	code = lock_output(session, path, "the raw directory", session->raw_dir);
	free(path);
	path = NULL;
	if (code != 0 || (stat(json, &status) == 0 && !S_ISREG(status.st_mode)))
		return code;
	copy = strdup(json);
	if (copy == NULL || make_json_directory(session->options, &err) != 0 ||
	    asprintf(&path, "%s/.%s.lock", dirname(copy), strrchr(json, '/') ? strrchr(json, '/') + 1
									  : json) < 0) {
		if (err.message[0] == '\0')
			gate_error_set(&err, "out of memory");
		free(copy);
		return session_fail(GATE_EXIT_USAGE, &err);
	}
	code = lock_output(session, path, "the results file", json);
	free(path);
	free(copy);
	return code;
}

/* --vary-n: each scenario's N, drawn from (--messages, 2 x --messages] (at most the largest
 * --messages) by the SHA-256 of the head commit and the scenario's name: a program cannot know
 * its N in advance, and a rerun of the same commit draws the same. The figures are slopes over
 * N and 2N, so a scenario whose work does not depend on N measures the same. */
static int draw_messages(struct session *session, struct gate_error *err)
{
	const char *arguments[] = { "rev-parse", "--verify", "HEAD^{commit}", NULL };
	uint64_t messages = session->messages;
	size_t i;

	session->vary_lowest = messages + 1;
	session->vary_highest = 2 * messages < OPTIONS_MESSAGES_MAX ? 2 * messages
								     : OPTIONS_MESSAGES_MAX;
	if (session->vary_lowest > session->vary_highest)
		return gate_error_set(err, "--vary-n draws N above --messages, and --messages %" PRIu64
				      " leaves no room below %llu", messages, OPTIONS_MESSAGES_MAX);
	if (session->root == NULL ||
	    baseline_git(session->root, arguments, &session->vary_seed, err) != 0)
		return gate_error_prefix(err, "--vary-n needs the head commit as its seed");
	session->vary_seed[strcspn(session->vary_seed, "\n")] = '\0';
	session->messages_each = calloc(session->manifest.entry_count + 1, sizeof(uint64_t));
	if (session->messages_each == NULL)
		return gate_error_set(err, "out of memory");
	for (i = 0; i < session->manifest.entry_count; i++) {
		struct sha256 hash;
		char digest[SHA256_HEX_SIZE], word[17];

		sha256_init(&hash);
		sha256_update(&hash, session->vary_seed, strlen(session->vary_seed));
		sha256_update(&hash, "\n", 1);
		sha256_update(&hash, session->manifest.entries[i].name,
			      strlen(session->manifest.entries[i].name));
		sha256_final(&hash, digest);
		memcpy(word, digest, 16);
		word[16] = '\0';
		session->messages_each[i] = session->vary_lowest +
					    strtoull(word, NULL, 16) %
						    (session->vary_highest - session->vary_lowest + 1);
	}
	return 0;
}

int session_measure(struct session *session, struct measure_options *measure_options)
{
	const struct gate_options *options = session->options;
	struct gate_error err = GATE_ERROR_INIT;
	struct timespec started;
	size_t i;

	if (session_make_directories(options->raw_dir, &err) != 0)
		return session_fail(GATE_EXIT_USAGE, &err);
	session->raw_dir = realpath(options->raw_dir, NULL);
	if (session->raw_dir == NULL) {
		int saved = errno;

		gate_error_set(&err, "cannot use '%s': %s", options->raw_dir, strerror(saved));
		return session_fail(GATE_EXIT_USAGE, &err);
	}
	if (lock_outputs(session) != 0)
		return GATE_EXIT_USAGE;
	session->messages = messages_to_measure(session);
	*measure_options = (struct measure_options){
		.messages = session->messages,
		.jobs = options->jobs,
		.timeout_seconds = options->timeout_seconds,
		.scaled_timeouts = !options->timeout_given,
		.raw_dir = session->raw_dir,
		.valgrind = session->valgrind,
		.no_randomize = true,
		.verify = options->verify,
		.every_metric = options->all_metrics,
		.verbosity = options->verbosity,
	};
	if (options->vary_n && draw_messages(session, &err) != 0)
		return session_fail(GATE_EXIT_USAGE, &err);
	measure_options->messages_each = session->messages_each;
	measure_options->unoptimised = session->provenance.unoptimised;
	measure_options->unoptimised_fix = session->unoptimised_fix;
	session->measurement_count = session->manifest.entry_count;
	session->measurements = calloc(session->manifest.entry_count + 1, sizeof(*session->measurements));
	if (session->measurements == NULL) {
		gate_error_set(&err, "out of memory");
		return session_fail(GATE_EXIT_MEASUREMENT, &err);
	}
	if (options->verbosity > 0 && options->vary_n)
		fprintf(stderr, "gate: measuring %zu scenario%s at 1, N and 2N deliveries, each its own N "
			"from %" PRIu64 " to %" PRIu64 " (seed %.12s), %u at once\n",
			session->manifest.entry_count, session->manifest.entry_count == 1 ? "" : "s",
			session->vary_lowest, session->vary_highest, session->vary_seed, options->jobs);
	else if (options->verbosity > 0)
		fprintf(stderr, "gate: measuring %zu scenario%s at 1, %llu and %llu deliveries, %u at "
			"once%s\n", session->manifest.entry_count,
			session->manifest.entry_count == 1 ? "" : "s",
			(unsigned long long)session->messages, 2ULL * session->messages, options->jobs,
			session->messages != options->messages ? " (the baseline's N)" : "");
	if (session->have_baseline) {
		measure_options->estimates = session->baseline.measurements;
		measure_options->estimate_count = session->baseline.count;
	} else {
		/* No baseline to order the runs by: the last results written where this run writes its
		 * own. Only the order they start in depends on it; an unreadable file is no order. */
		struct gate_error ignored = GATE_ERROR_INIT;

		if (results_read_file(&session->earlier, options->json_path, &ignored) == 0) {
			measure_options->estimates = session->earlier.measurements;
			measure_options->estimate_count = session->earlier.count;
		} else {
			results_release(&session->earlier);
		}
	}
	session->debug_view.disabled = options->full_debug_info;
	measure_options->debug_view = &session->debug_view;
	clock_gettime(CLOCK_MONOTONIC, &started);
	if (measure_scenarios(session->measurements, &session->manifest, measure_options, &err) != 0 ||
	    find_sources(session, &err) != 0)
		return session_fail(GATE_EXIT_MEASUREMENT, &err);
	for (i = 0; i < session->measurement_count; i++) {
		if (session->measurements[i].refused) {
			gate_error_set(&err, "%s", session->measurements[i].failure);
			return session_fail(GATE_EXIT_USAGE, &err);
		}
	}
	session->measured_here = true;
	session->measure_options = *measure_options;
	if (session->debug_view.mode != NULL) {
		free(session->environment.debug_info);
		session->environment.debug_info = strdup(session->debug_view.mode);
		if (options->verbosity > 0)
			fprintf(stderr, "gate: system debug files: %s\n", session->debug_view.mode);
	}
	if (options->verbosity > 0)
		report_speed(session, &started);
	return 0;
}

/* 1 when every scenario measured here and in the baseline was built alike (the same flags for it
 * and the libraries it links, the same system packages); else 0 with the first difference. */
static int builds_equal(const struct session *session, const struct results *baseline,
			char *difference, size_t size)
{
	size_t i, j;

	for (i = 0; i < session->measurement_count; i++) {
		const struct measurement *head = &session->measurements[i];

		for (j = 0; j < baseline->count; j++) {
			const struct measurement *base = &baseline->measurements[j];

			if (head->failed || head->build == NULL ||
			    strcmp(head->info.name, base->info.name) != 0)
				continue;
			if (base->build != NULL && strcmp(head->build, base->build) == 0)
				break;
			snprintf(difference, size, "'%s' was built otherwise: '%s' here, '%s' in the baseline",
				 head->info.name, head->build, base->build ? base->build : "(not recorded)");
			return 0;
		}
	}
	return 1;
}

static int comparable(const struct session *session, const struct results *baseline,
		      char *difference, size_t size)
{
	return environment_fingerprint_equal(&session->environment, &baseline->fingerprint,
					     difference, size) &&
	       builds_equal(session, baseline, difference, size);
}

/* A stored baseline from another toolchain is not compared: the ref is measured here instead. */
int session_make_comparable(struct session *session, const struct measure_options *measure_options)
{
	struct gate_error err = GATE_ERROR_INIT;
	char difference[2048];
	char *raw_dir = NULL;
	struct measure_options baseline_options = *measure_options;
	int status;

	if (!session->have_baseline ||
	    comparable(session, &session->baseline, difference, sizeof(difference)))
		return 0;
	if (session->baseline_commit == NULL) {
		gate_error_set(&err, "no comparable baseline: '%s' was measured with another toolchain "
			       "(%s)", session->baseline_source, difference);
		return session_fail(GATE_EXIT_NO_BASELINE, &err);
	}
	fprintf(stderr, "gate: the stored baseline is not comparable (%s): measuring %s here in a "
		"temporary worktree\n", difference, session->baseline_ref);
	results_release(&session->baseline);
	free(session->baseline_source);
	session->baseline_source = NULL;
	session->have_baseline = false;
	if (asprintf(&raw_dir, "%s/baseline", session->raw_dir) < 0 || session_make_directories(raw_dir, &err) != 0) {
		free(raw_dir);
		return session_fail(GATE_EXIT_NO_BASELINE, &err);
	}
	baseline_options.raw_dir = raw_dir;
	baseline_options.estimates = NULL; /* the baseline they came from is gone */
	baseline_options.unoptimised = NULL; /* built as the head was: its flags are compared */
	baseline_options.messages_each = NULL; /* drawn for the head's scenarios; slopes compare */
	baseline_options.estimate_count = 0;
	status = worktree_measure(&session->baseline,
				  &(struct worktree_source){ session->root, session->baseline_commit,
							     session->baseline_ref,
							     session->options->build_dir,
							     session->manifest.build_command },
				  &baseline_options, session->valgrind, &session->baseline_source,
				  &err);
	free(raw_dir);
	if (status != 0)
		return session_fail(GATE_EXIT_NO_BASELINE, &err);
	if (!comparable(session, &session->baseline, difference, sizeof(difference))) {
		gate_error_set(&err, "no comparable baseline: %s built here still differs (%s)",
			       session->baseline_ref, difference);
		return session_fail(GATE_EXIT_NO_BASELINE, &err);
	}
	session->have_baseline = true;
	session->remeasured = true;
	return 0;
}

/* The first scenario of both sides whose gated figures are not linear within the limit: NULL
 * when every one is (the head's N then does not change what is compared). */
static const char *nonlinear_scenario(const struct session *session, double *percent)
{
	size_t i, metric;

	for (i = 0; i < session->measurement_count; i++) {
		const struct measurement *head = &session->measurements[i];
		const struct measurement *base = results_find(&session->baseline, head->info.name);

		if (head->failed || base == NULL)
			continue;
		for (metric = 0; metric < METRIC_COUNT; metric++) {
			/* The allocator's figure moves with the heap's history, and so with N: its
			 * own limit is wide for that (metrics.h), and it compares across N. */
			if (!metric_limit_gated(metric, &head->info) ||
			    metric_table[metric].per_allocation || !head->has[metric] ||
			    !base->has[metric])
				continue;
			*percent = head->slopes[metric].linearity_percent;
			if (base->slopes[metric].linearity_percent > *percent)
				*percent = base->slopes[metric].linearity_percent;
			if (*percent > SLOPE_COMPARABLE_LINEARITY_PERCENT)
				return head->info.name;
		}
	}
	return NULL;
}

int session_match_messages(struct session *session, struct measure_options *measure_options)
{
	struct gate_error err = GATE_ERROR_INIT;
	const char *name;
	double percent = 0;
	size_t i;

	if (!session->have_baseline || session->baseline.messages == session->messages ||
	    session->baseline.messages < 2 || session->baseline.messages > OPTIONS_MESSAGES_MAX)
		return 0;
	name = nonlinear_scenario(session, &percent);
	if (name == NULL)
		return 0;
	fprintf(stderr, "gate: head measured at N = %llu, the baseline at N = %llu, and '%s' is "
		"linear only within %.2f %% (the limit for comparing across N is %g %%): measuring "
		"the head again at N = %llu\n", (unsigned long long)session->messages,
		(unsigned long long)session->baseline.messages, name, percent,
		SLOPE_COMPARABLE_LINEARITY_PERCENT, (unsigned long long)session->baseline.messages);
	for (i = 0; i < session->measurement_count; i++)
		measurement_release(&session->measurements[i]);
	session->messages_first = session->messages;
	session->messages = session->baseline.messages;
	measure_options->messages = session->messages;
	if (measure_scenarios(session->measurements, &session->manifest, measure_options, &err) != 0 ||
	    find_sources(session, &err) != 0)
		return session_fail(GATE_EXIT_MEASUREMENT, &err);
	for (i = 0; i < session->measurement_count; i++) {
		if (session->measurements[i].refused) {
			gate_error_set(&err, "%s", session->measurements[i].failure);
			return session_fail(GATE_EXIT_USAGE, &err);
		}
	}
	return 0;
}

static int save_baseline(struct session *session)
{
	const struct gate_options *options = session->options;
	struct gate_error err = GATE_ERROR_INIT;
	char *directory = NULL, *path = NULL;
	cJSON *document = NULL;
	size_t i;
	int code = GATE_EXIT_USAGE;

	for (i = 0; i < session->measurement_count; i++) {
		if (session->measurements[i].failed) {
			gate_error_set(&err, "baseline not written: '%s' failed to measure",
				       session->measurements[i].info.name);
			return session_fail(GATE_EXIT_MEASUREMENT, &err);
		}
	}
	/* A branch release/2.x keeps its baseline in baselines/release/2.x.json. */
	if (asprintf(&path, "%s/baselines/%s.json", session->root ? session->root : ".",
		     options->save_baseline) < 0 ||
	    (directory = strndup(path, (size_t)(strrchr(path, '/') - path))) == NULL) {
		gate_error_set(&err, "out of memory");
		goto out;
	}
	document = results_document(session->measurements, session->measurement_count,
				    &session->environment, NULL);
	if (document == NULL) {
		gate_error_set(&err, "out of memory");
		goto out;
	}
	/* The temporary file goes to the raw directory (in the build), so a write killed half way
	 * leaves nothing in baselines/ for `git add` to pick up. */
	if (session_make_directories(directory, &err) != 0 ||
	    results_write_file_via(document, path, session->raw_dir, &err) != 0)
		goto out;
	fprintf(stderr, "gate: wrote the baseline baselines/%s.json (commit it on %s)\n",
		options->save_baseline, options->save_baseline);
	code = 0;
out:
	cJSON_Delete(document);
	free(directory);
	free(path);
	return code == 0 ? 0 : session_fail(code, &err);
}

/* costgate's own Makefile says so on a line of its own; in any other repository the reports print
 * gate's commands, which work whatever the project's build is. */
static bool own_makefile(const char *root)
{
	char *path = NULL, *line = NULL;
	size_t capacity = 0;
	bool found = false;
	FILE *file;

	if (asprintf(&path, "%s/Makefile", root != NULL ? root : ".") < 0)
		return false;
	file = fopen(path, "r");
	free(path);
	while (file != NULL && !found && getline(&line, &capacity, file) >= 0)
		found = strncmp(line, "# costgate-makefile: make baseline, make bench", 46) == 0;
	free(line);
	if (file != NULL)
		fclose(file);
	return found;
}

/* `gate` (never the path it was run by: a path of this machine), then --build-dir when it is
 * not the default. */
static int gate_command(const struct session *session, char *text, size_t size)
{
	char build_dir[PATH_MAX];

	shown_build_dir(session, build_dir, sizeof(build_dir));
	if (strcmp(build_dir, "build") == 0)
		return snprintf(text, size, "gate");
	return snprintf(text, size, "gate --build-dir %s", build_dir);
}

/* What refreshes the baseline here: `make baseline` in costgate's own tree, else gate's own, as
 * a user pastes it at the repository's top: `gate`, never the path it was run by, the build
 * directory relative to the top when it is inside it, the baseline's N when it is not the
 * default, and the branch the baseline was read from (main when none was named). */
static void refresh_command(const struct session *session, char *text, size_t size)
{
	const char *branch = session->options->baseline_ref != NULL
				     ? baseline_branch_of(session->options->baseline_ref) : NULL;
	uint64_t messages = session->have_baseline ? session->baseline.messages : session->messages;
	char build_dir[PATH_MAX], build_option[PATH_MAX + 16] = "", messages_option[48] = "";

	if (branch == NULL)
		branch = "main";
	if (own_makefile(session->root)) {
		snprintf(text, size, "make baseline, and commit baselines/main.json");
		return;
	}
	shown_build_dir(session, build_dir, sizeof(build_dir));
	if (strcmp(build_dir, "build") != 0)
		snprintf(build_option, sizeof(build_option), " --build-dir %s", build_dir);
	if (messages != 0 && messages != OPTIONS_MESSAGES_DEFAULT)
		snprintf(messages_option, sizeof(messages_option), " --messages %" PRIu64, messages);
	snprintf(text, size, "gate%s%s --save-baseline %s on %s, and commit baselines/%s.json",
		 build_option, messages_option, branch, branch, branch);
}

/* The local command that repeats this run, for the Markdown report: build, then gate. */
static void reproduce_command(const struct session *session, char *text, size_t size)
{
	const struct gate_options *options = session->options;
	size_t used, i;
	int written;

	if (own_makefile(session->root))
		written = snprintf(text, size, "make && build/gate/gate");
	else {
		char build[1024];

		session_build_command(session, build, sizeof(build));
		written = snprintf(text, size, "%s && ", build);
		if (written >= 0 && (size_t)written < size)
			written += gate_command(session, text + written, size - (size_t)written);
	}
	used = written < 0 ? 0 : (size_t)written;
	if (used < size)
		used += (size_t)snprintf(text + used, size - used, " --messages %llu%s",
					 (unsigned long long)(session->messages != 0
								      ? session->messages
								      : options->messages),
					 options->vary_n ? " --vary-n" : "");
	if (options->baseline_ref != NULL && used < size)
		used += (size_t)snprintf(text + used, size - used, " --baseline=%s", options->baseline_ref);
	for (i = 0; i < options->scenario_count && used < size; i++)
		used += (size_t)snprintf(text + used, size - used, " --scenario '%s'", options->scenarios[i]);
}

static int append_markdown(const char *path, const char *mode, const struct verdict *verdict,
			   const struct environment *environment, const char *reproduce)
{
	FILE *out = fopen(path, mode);
	int saved;

	if (out != NULL) {
		report_markdown(out, verdict, environment, reproduce);
		if (fclose(out) == 0)
			return 0;
	}
	saved = errno;
	fprintf(stderr, "gate: error: cannot write the Markdown report '%s': %s\n", path,
		strerror(saved));
	return -1;
}

/* Markdown for --markdown and the GitHub job summary; annotations inside GitHub Actions. */
static int write_pull_request_reports(struct session *session, const struct verdict *verdict)
{
	const char *summary = getenv("GITHUB_STEP_SUMMARY");
	const char *actions = getenv("GITHUB_ACTIONS");
	struct gate_error err = GATE_ERROR_INIT;
	char reproduce[1024];
	int status = 0;

	reproduce_command(session, reproduce, sizeof(reproduce));
	if (session->options->markdown_path != NULL &&
	    append_markdown(session->options->markdown_path, "w", verdict, &session->environment,
			    reproduce) != 0)
		status = -1;
	if (summary != NULL && summary[0] != '\0' &&
	    append_markdown(summary, "a", verdict, &session->environment, reproduce) != 0)
		status = -1;
	if (actions != NULL && strcmp(actions, "true") == 0)
		report_annotations(stdout, verdict);
	if (session->raw_dir != NULL && flamegraph_write_files(verdict, session->raw_dir, &err) < 0) {
		session_fail(GATE_EXIT_USAGE, &err);
		status = -1;
	}
	return status;
}

/* --exact: every figure of every row must be the baseline's to the last instruction. */
static bool baseline_is_exact(const struct verdict *verdict, const char *refresh)
{
	bool exact = true;
	size_t i;

	for (i = 0; i < verdict->row_count; i++) {
		const struct verdict_row *row = &verdict->rows[i];
		const struct measurement *head = row->head, *base = row->baseline;

		if (head == NULL || head->failed || base == NULL) {
			printf("%s: %s, so the baseline cannot be exact\n", row->name,
			       head == NULL ? "not measured" : head->failed ? "failed to measure"
									: "not in the baseline");
			exact = false;
		} else if (head->slopes[METRIC_INSTRUCTIONS].per_message != base->slopes[METRIC_INSTRUCTIONS].per_message ||
			   head->slopes[METRIC_INSTRUCTIONS].cold != base->slopes[METRIC_INSTRUCTIONS].cold ||
			   head->slopes[METRIC_ALLOCATIONS].per_message != base->slopes[METRIC_ALLOCATIONS].per_message ||
			   head->slopes[METRIC_ALLOCATIONS].cold != base->slopes[METRIC_ALLOCATIONS].cold) {
			printf("%s: the baseline says %.3f instructions per message and %" PRIu64 " cold, "
			       "%.3f allocations per message and %" PRIu64 " cold; this tree measures "
			       "%.3f, %" PRIu64 ", %.3f and %" PRIu64 "\n", row->name,
			       base->slopes[METRIC_INSTRUCTIONS].per_message, base->slopes[METRIC_INSTRUCTIONS].cold,
			       base->slopes[METRIC_ALLOCATIONS].per_message, base->slopes[METRIC_ALLOCATIONS].cold,
			       head->slopes[METRIC_INSTRUCTIONS].per_message, head->slopes[METRIC_INSTRUCTIONS].cold,
			       head->slopes[METRIC_ALLOCATIONS].per_message, head->slopes[METRIC_ALLOCATIONS].cold);
			exact = false;
		}
	}
	if (!exact)
		printf("the baseline is out of date: refresh it (%s)\n", refresh);
	return exact;
}

/* The wall clock beside every instruction regression, unless --no-wall-check: measured here
 * only, never by gate merge, which has no build of its own. */
static int time_regressions(const struct session *session, struct verdict *verdict,
			    struct gate_error *err)
{
	const struct gate_options *options = session->options;
	struct wall_check_options wall = {
		.root = session->root,
		.commit = session->baseline_commit,
		.head_build_dir = options->build_dir,
		.build_command = session->manifest.build_command,
		.measure = &session->measure_options,
		.timeout_seconds = options->timeout_seconds,
		.verbosity = options->verbosity,
	};

	if (options->no_wall_check || !session->measured_here || session->root == NULL)
		return 0;
	if (wall_check_run(verdict, &wall) != 0)
		return gate_error_set(err, "out of memory");
	return 0;
}

/* costgate.sealed: each scenario's programs as hashed when the build was read (seal.h), and
 * whether the runs saw them read-only. Nothing when no scenario was sealed (merged shards). */
static int add_seals(const struct session *session, cJSON *document)
{
	cJSON *block = cJSON_GetObjectItemCaseSensitive(document, "costgate"), *sealed, *scenarios;
	char *build_dir = realpath(session->options->build_dir, NULL);
	bool read_only = true, any = false;
	size_t i;
	int status = -1;

	for (i = 0; i < session->measurement_count; i++) {
		any = any || session->measurements[i].seal.count > 0;
		read_only = read_only && session->measurements[i].sealed_read_only;
	}
	if (!any) {
		free(build_dir);
		return 0;
	}
	sealed = cJSON_AddObjectToObject(block, "sealed");
	if (sealed == NULL || cJSON_AddBoolToObject(sealed, "read_only", read_only) == NULL ||
	    (scenarios = cJSON_AddObjectToObject(sealed, "scenarios")) == NULL)
		goto out;
	for (i = 0; i < session->measurement_count; i++) {
		const struct measurement *measurement = &session->measurements[i];
		cJSON *files;

		if (measurement->seal.count == 0)
			continue;
		files = seal_to_json(&measurement->seal, build_dir);
		if (files == NULL || !cJSON_AddItemToObject(scenarios, measurement->info.name, files)) {
			cJSON_Delete(files);
			goto out;
		}
	}
	status = 0;
out:
	free(build_dir);
	return status;
}

/* costgate.vary_n: the seed and the range each scenario's N (code[].messages) was drawn from. */
static int add_vary_n(const struct session *session, cJSON *document)
{
	cJSON *block = cJSON_GetObjectItemCaseSensitive(document, "costgate"), *vary;

	if (session->messages_each == NULL)
		return 0;
	/* costgate.messages stays --messages, the N a merge of shards compares and re-measures a
	 * baseline at; each scenario's own is code[].messages. */
	if (!cJSON_ReplaceItemInObjectCaseSensitive(
		    block, "messages", cJSON_CreateNumber((double)session->options->messages)))
		return -1;
	vary = cJSON_AddObjectToObject(block, "vary_n");
	return vary != NULL && cJSON_AddStringToObject(vary, "seed", session->vary_seed) != NULL &&
			       cJSON_AddNumberToObject(vary, "lowest", (double)session->vary_lowest) != NULL &&
			       cJSON_AddNumberToObject(vary, "highest", (double)session->vary_highest) != NULL
		       ? 0 : -1;
}

/* results.json with the verdict: 0, or -1 with err saying what could not be written. */
static int write_results(struct session *session, const struct verdict *verdict,
			 struct gate_error *err)
{
	const struct gate_options *options = session->options;
	cJSON *verdict_json = verdict_to_json(verdict), *document;
	int status = -1;

	document = verdict_json == NULL ? NULL
					: results_document(session->measurements,
							   session->measurement_count,
							   &session->environment, verdict_json);
	if (document != NULL && options->shard_count > 1 &&
	    results_add_shard(document, options->shard_index, options->shard_count,
			      (const char *const *)session->selected, session->selected_count,
			      options->scenario_count > 0) != 0) {
		cJSON_Delete(document);
		document = NULL;
	}
	if (document != NULL && (add_seals(session, document) != 0 || add_vary_n(session, document) != 0)) {
		cJSON_Delete(document);
		document = NULL;
	}
	if (document != NULL && results_keep_scenarios(document, options->json_path) != 0) {
		cJSON_Delete(document);
		document = NULL;
	}
	if (document == NULL)
		gate_error_set(err, "out of memory");
	else if (make_json_directory(options, err) == 0 &&
		 results_write_file(document, options->json_path, err) == 0)
		status = 0;
	cJSON_Delete(document);
	return status;
}

/* Every file is written before the verdict line is printed, so no "pass" stands above an error:
 * when one cannot be written, the verdict line says that instead, and the exit code is 2. */
int session_decide_and_report(struct session *session)
{
	const struct gate_options *options = session->options;
	struct gate_error err = GATE_ERROR_INIT;
	struct verdict verdict = VERDICT_INIT;
	bool whole_suite = !session->partial, written = true;
	char refresh[1024], summary[sizeof(err.message) + 64];
	size_t i;
	int code;

	/* The second opinion's figures against the measured ones, also as a results document holds
	 * them (gate merge decides again from the check's artifact). */
	for (i = 0; i < session->measurement_count; i++)
		crosscheck_compare(&session->measurements[i]);
	if (verdict_decide(&verdict, session->measurements, session->measurement_count,
			   session->have_baseline ? &session->baseline : NULL, &session->acceptance,
			   whole_suite, &err) != 0)
		return session_fail(GATE_EXIT_MEASUREMENT, &err);
	verdict.baseline_source = session->baseline_source;
	verdict.remeasured = session->remeasured;
	verdict.messages_first = session->messages_first;
	refresh_command(session, refresh, sizeof(refresh));
	verdict.refresh_command = refresh;
	if (verdict_explain(&verdict, options->explain, &err) != 0 ||
	    time_regressions(session, &verdict, &err) != 0) {
		verdict_release(&verdict);
		return session_fail(GATE_EXIT_MEASUREMENT, &err);
	}
	code = verdict.exit_code;
	if (write_results(session, &verdict, &err) != 0) {
		session_fail(GATE_EXIT_USAGE, &err);
		snprintf(summary, sizeof(summary), "fail: results not written: %s", err.message);
		written = false;
	}
	if (write_pull_request_reports(session, &verdict) != 0) {
		if (written)
			snprintf(summary, sizeof(summary), "fail: a report could not be written "
				 "(see the error above)");
		written = false;
	}
	if (written && (code == GATE_EXIT_PASS || code == GATE_EXIT_REGRESSION) &&
	    options->save_baseline != NULL && save_baseline(session) != 0) {
		snprintf(summary, sizeof(summary), "fail: the baseline was not written (see the "
			 "error above)");
		written = false;
		code = GATE_EXIT_MEASUREMENT;
	} else if (!written) {
		code = GATE_EXIT_USAGE;
	}
	fflush(stderr);
	if (written) {
		table_print(stdout, &verdict, refresh);
	} else {
		table_print_body(stdout, &verdict, refresh);
		printf("%s\n", summary);
	}
	if (written && options->exact && session->have_baseline &&
	    !baseline_is_exact(&verdict, refresh) && code == GATE_EXIT_PASS)
		code = GATE_EXIT_REGRESSION;
	fflush(stdout);
	verdict_release(&verdict);
	return code;
}

int session_run(struct session *session, struct measure_options *measure_options, bool measure)
{
	int code = session_load_acceptance(session);

	if (code == 0)
		code = session_load_baseline(session);
	if (code == 0 && measure)
		code = session_measure(session, measure_options);
	if (code == 0)
		code = session_make_comparable(session, measure_options);
	if (code == 0 && measure)
		code = session_match_messages(session, measure_options);
	if (code == 0 && measure)
		code = second_opinion(session);
	if (code == 0)
		code = session_decide_and_report(session);
	return code;
}

void session_release(struct session *session)
{
	size_t i;

	for (i = 0; session->measurements != NULL && i < session->measurement_count; i++)
		measurement_release(&session->measurements[i]);
	for (i = 0; i < session->selected_count; i++)
		free(session->selected[i]);
	free(session->selected);
	free(session->measurements);
	manifest_release(&session->manifest);
	provenance_release(&session->provenance);
	environment_release(&session->environment);
	acceptance_release(&session->acceptance);
	results_release(&session->baseline);
	results_release(&session->earlier);
	free(session->baseline_source);
	free(session->baseline_commit);
	free(session->baseline_ref);
	free(session->valgrind);
	free(session->root);
	free(session->raw_dir);
	debugview_release(&session->debug_view);
	for (i = 0; i < session->lock_count; i++) {
		if (session->lock_paths[i] != NULL)
			fs_unlock(session->lock_paths[i], session->locks[i]);
		else
			close(session->locks[i]);
		free(session->lock_paths[i]);
	}
	free(session->messages_each);
	free(session->vary_seed);
}

