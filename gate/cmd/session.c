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

#include "array.h"
#include "baseline.h"
#include "command.h"
#include "crosscheck.h"
#include "debuginfo.h"
#include "exit_codes.h"
#include "flamegraph.h"
#include "fs.h"
#include "manifest.h"
#include "native_runs.h"
#include "policy.h"
#include "report.h"
#include "runner.h"
#include "table.h"
#include "telltales.h"
#include "wall_check.h"
#include "wallclock.h"
#include "worktree.h"

int session_fail(int code, const struct gate_error *err)
{
	fprintf(stderr, "gate: error: %s\n", err->message);
	return code;
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
const char *session_shown_build_dir(const struct session *session, char *text, size_t size)
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
			 session_shown_build_dir(session, build_dir, sizeof(build_dir)));
}

/* What makes this host's build optimise, in its own terms: Meson's build type, CMake's, or the
 * compile flags of any other build. */
static void unoptimised_fix(struct session *session)
{
	const char *command = session->manifest.build_command;
	char build_dir[PATH_MAX];

	session_shown_build_dir(session, build_dir, sizeof(build_dir));
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
		gate_error_oom(&err);
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
		gate_error_oom(&err);
		return session_fail(GATE_EXIT_MEASUREMENT, &err);
	}
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
					    .verbosity = options->verbosity, .say = COMMAND_SAY };
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

/* N: --messages when given, else the baseline's, else the default (policy_messages). */
static uint64_t messages_to_measure(const struct session *session)
{
	return policy_messages(session->options->messages, session->options->messages_given,
			      session->have_baseline ? &session->baseline : NULL);
}

/* Each scenario's source file, from its executable's DWARF, for the exports (JUnit's `file`):
 * relative to the repository when it is inside it, so the name means the same on every
 * checkout. A scenario whose executable says nothing has none. */
int session_find_sources(struct session *session, struct gate_error *err)
{
	size_t root_length = session->root != NULL ? strlen(session->root) : 0, i;

	for (i = 0; i < session->measurement_count; i++) {
		struct measurement *measurement = &session->measurements[i];
		char *file;

		/* Its lines named in the repository, with their text (measurement.h). */
		if (measurement_place_lines(measurement, session->root) != 0)
			return gate_error_oom(err);
		if (measurement->info.path == NULL)
			continue;
		if (debuginfo_variable_file(measurement->info.path, "costgate_scenario", &file) != 0)
			return gate_error_oom(err);
		if (file != NULL && root_length > 0 && strncmp(file, session->root, root_length) == 0 &&
		    file[root_length] == '/')
			memmove(file, file + root_length + 1, strlen(file + root_length + 1) + 1);
		free(measurement->source);
		measurement->source = file;
	}
	return 0;
}

/* --vary-n: each scenario's N, drawn above --messages from the head commit and its name
 * (policy_vary_draw): a program cannot know its N in advance, and a rerun of the same commit
 * draws the same. The figures are slopes over N and 2N, so a scenario whose work does not depend
 * on N measures the same. */
static int draw_messages(struct session *session, struct gate_error *err)
{
	const char *arguments[] = { "rev-parse", "--verify", "HEAD^{commit}", NULL };
	size_t i;

	if (policy_vary_range(session->messages, &session->vary_lowest, &session->vary_highest,
			     err) != 0)
		return -1;
	if (session->root == NULL ||
	    baseline_git(session->root, arguments, &session->vary_seed, err) != 0)
		return gate_error_prefix(err, "--vary-n needs the head commit as its seed");
	session->vary_seed[strcspn(session->vary_seed, "\n")] = '\0';
	session->messages_each = calloc(session->manifest.entry_count + 1, sizeof(uint64_t));
	if (session->messages_each == NULL)
		return gate_error_oom(err);
	for (i = 0; i < session->manifest.entry_count; i++)
		session->messages_each[i] = policy_vary_draw(session->vary_seed,
							    session->manifest.entries[i].name,
							    session->vary_lowest, session->vary_highest);
	return 0;
}

int session_measure_scenarios(struct session *session, const struct measure_options *measure_options)
{
	struct gate_error err = GATE_ERROR_INIT;
	size_t i;

	if (measure_scenarios(session->measurements, &session->manifest, measure_options, &err) != 0 ||
	    session_find_sources(session, &err) != 0)
		return session_fail(GATE_EXIT_MEASUREMENT, &err);
	for (i = 0; i < session->measurement_count; i++) {
		if (session->measurements[i].refused) {
			gate_error_set(&err, "%s", session->measurements[i].failure);
			return session_fail(GATE_EXIT_USAGE, &err);
		}
	}
	return 0;
}

int session_measure(struct session *session, struct measure_options *measure_options)
{
	const struct gate_options *options = session->options;
	struct gate_error err = GATE_ERROR_INIT;
	struct timespec started;
	int code;

	if (session_make_directories(options->raw_dir, &err) != 0)
		return session_fail(GATE_EXIT_USAGE, &err);
	session->raw_dir = realpath(options->raw_dir, NULL);
	if (session->raw_dir == NULL) {
		int saved = errno;

		gate_error_set(&err, "cannot use '%s': %s", options->raw_dir, strerror(saved));
		return session_fail(GATE_EXIT_USAGE, &err);
	}
	if (session_lock_outputs(session) != 0)
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
		.say = COMMAND_SAY,
	};
	if (options->vary_n && draw_messages(session, &err) != 0)
		return session_fail(GATE_EXIT_USAGE, &err);
	measure_options->messages_each = session->messages_each;
	measure_options->unoptimised = session->provenance.unoptimised;
	measure_options->unoptimised_fix = session->unoptimised_fix;
	session->measurement_count = session->manifest.entry_count;
	session->measurements = calloc(session->manifest.entry_count + 1, sizeof(*session->measurements));
	if (session->measurements == NULL) {
		gate_error_oom(&err);
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
	code = session_measure_scenarios(session, measure_options);
	if (code != 0)
		return code;
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
	ARRAY_RELEASE(session->measurements, session->measurement_count, measurement_release);
	array_free_strings(session->selected, session->selected_count);
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
	for (size_t i = 0; i < session->lock_count; i++) {
		if (session->lock_paths[i] != NULL)
			fs_unlock(session->lock_paths[i], session->locks[i]);
		else
			close(session->locks[i]);
		free(session->lock_paths[i]);
	}
	free(session->messages_each);
	free(session->vary_seed);
}
