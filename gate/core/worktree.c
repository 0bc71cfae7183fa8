/* The worktree re-measure. The removal command is prepared when the worktree is created, so a
 * signal handler can run it with fork and execve alone (runner_run_and_wait). */
#define _GNU_SOURCE
#include "worktree.h"

#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "baseline.h"
#include "argv_list.h"
#include "fs.h"
#include "manifest.h"
#include "provenance.h"
#include "runner.h"

extern char **environ;

/* The worktree this process has made and not yet removed. */
static struct {
	char *parent;       /* the temporary directory holding it */
	char *path;         /* parent/tree */
	char *git;
	char *root;
	struct argv_list remove; /* git worktree remove --force PATH, and */
	struct argv_list prune;  /* git worktree prune: made before any signal can come */
	char *const *environment; /* git's (baseline_git_environment), made before any signal */
} active;

static int remove_entry(const char *path, const struct stat *status, int type, struct FTW *walk)
{
	(void)status;
	(void)type;
	(void)walk;
	return remove(path);
}

/* One of the prepared git commands, from the repository's top, in git's environment. */
static void run_git(struct argv_list *argv)
{
	runner_run_and_wait(argv_list_vector(argv), active.root,
			    active.environment != NULL ? active.environment : environ);
}

void worktree_abandon(void)
{
	if (active.path == NULL)
		return;
	run_git(&active.remove);
	rmdir(active.parent);
	run_git(&active.prune);
}

void worktree_cleanup(void)
{
	if (active.path == NULL)
		return;
	run_git(&active.remove);
	nftw(active.parent, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
	run_git(&active.prune);
	free(active.parent);
	free(active.path);
	free(active.git);
	free(active.root);
	argv_list_release(&active.remove);
	argv_list_release(&active.prune);
	memset(&active, 0, sizeof(active));
}

static int create(const char *root, const char *commit, struct gate_error *err)
{
	const char *temporary = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
	char *output = NULL;
	const char *add[] = { "worktree", "add", "--detach", NULL, commit, NULL };

	active.git = runner_find_program("git", getenv("PATH"));
	active.root = strdup(root);
	active.environment = baseline_git_environment();
	if (active.git == NULL || active.root == NULL ||
	    asprintf(&active.parent, "%s/costgate-worktree-XXXXXX", temporary) < 0)
		return gate_error_set(err, "cannot make a worktree: git not found or out of memory");
	if (mkdtemp(active.parent) == NULL || asprintf(&active.path, "%s/tree", active.parent) < 0) {
		int saved = errno;

		return gate_error_set(err, "cannot make a worktree in '%s': %s", temporary, strerror(saved));
	}
	argv_list_add(&active.remove, active.git);
	argv_list_add_all(&active.remove, (const char *const[]){ "worktree", "remove", "--force",
								 active.path, NULL });
	argv_list_add(&active.prune, active.git);
	argv_list_add_all(&active.prune, (const char *const[]){ "worktree", "prune", NULL });
	if (argv_list_vector(&active.remove) == NULL || argv_list_vector(&active.prune) == NULL)
		return gate_error_oom(err);
	add[3] = active.path;
	if (baseline_git(root, add, &output, err) != 0) {
		free(output);
		return gate_error_prefix(err, "cannot make a worktree of %.12s", commit);
	}
	free(output);
	return 0;
}

/* Runs one build command (`step`: "configure", "build") with its output in `log_path` and
 * `environment` (NULL: gate's). `shown` is the command as the error names it. */
static int run_build_step(const char *step, const char *shown, char *const *argv,
			  char *const *environment, const char *log_path, struct gate_error *err)
{
	struct runner_job job = { .argv = argv, .directory = active.path, .log_path = log_path };
	struct runner_options options = { .parallel = 1, .timeout_seconds = 3600,
					   .environment = environment != NULL ? environment
									      : environ };
	char how[200];

	if (runner_run(&job, 1, &options, err) != 0)
		return -1;
	if (runner_job_succeeded(&job))
		return 0;
	runner_describe_end(&job, options.timeout_seconds, how, sizeof(how));
	return gate_error_set(err, "the %s ('%.300s') %s", step, shown, how);
}

/* The generator the head's build was configured with (CMAKE_GENERATOR in its CMakeCache.txt),
 * which its make program (CMAKE_MAKE_PROGRAM among the cache options) belongs to; NULL when the
 * build has no cache or names none. The caller frees it. */
static char *head_generator(const char *head_build_dir)
{
	static const char key[] = "\nCMAKE_GENERATOR:INTERNAL=";
	char *path = NULL, *text = NULL, *found, *end, *generator = NULL;
	size_t length;

	if (asprintf(&path, "%s/CMakeCache.txt", head_build_dir) < 0)
		return NULL;
	if (fs_read_file(path, (size_t)1 << 26, &text, &length) == 0 &&
	    (found = strstr(text, key)) != NULL) {
		found += sizeof(key) - 1;
		end = found + strcspn(found, "\r\n");
		if (end > found)
			generator = strndup(found, (size_t)(end - found));
	}
	free(text);
	free(path);
	return generator;
}

bool worktree_cmake_build(const char *build_dir)
{
	char *path = NULL;
	bool found;

	if (asprintf(&path, "%s/CMakeCache.txt", build_dir) < 0)
		return false;
	found = access(path, R_OK) == 0;
	free(path);
	return found;
}

/* Where the worktree's build goes: at the head's build directory's place relative to the
 * repository's top (`build`, `out/release`), so that a build that names its own directory finds
 * it; beside the worktree when the head's is outside the repository. The caller frees it. */
static char *tree_build_dir(const char *head_build_dir)
{
	char *head = realpath(head_build_dir, NULL), *root = realpath(active.root, NULL);
	char *path = NULL;
	size_t length = root != NULL ? strlen(root) : 0;

	if (head != NULL && length > 0 && strncmp(head, root, length) == 0 && head[length] == '/' &&
	    head[length + 1] != '\0') {
		if (asprintf(&path, "%s/%s", active.path, head + length + 1) < 0)
			path = NULL;
	} else if (asprintf(&path, "%s/build", active.parent) < 0) {
		path = NULL;
	}
	free(head);
	free(root);
	return path;
}

/* A CMake build, configured with the generator and cache options the head's was. */
static int build_with_cmake(const struct measure_options *options, const char *head_build_dir,
			    const char *build_dir, const char *log_path, struct gate_error *err)
{
	char *cmake = runner_find_program("cmake", getenv("PATH"));
	char *jobs = NULL, *script = NULL;
	struct argv_list configure = ARGV_LIST_INIT, compile = ARGV_LIST_INIT;
	char *generator = head_generator(head_build_dir);
	int status = -1;

	if (cmake == NULL) {
		gate_error_set(err, "cmake not found on PATH");
		goto out;
	}
	if (asprintf(&script, "%s/costgate-configure.cmake", head_build_dir) < 0 ||
	    asprintf(&jobs, "%u", options->jobs) < 0) {
		gate_error_oom(err);
		goto out;
	}
	if (access(script, R_OK) != 0) {
		free(script);
		script = NULL;
	} else {
		char *absolute = realpath(script, NULL);

		free(script);
		script = absolute;
	}
	/* The head's generator, not the environment's (CMAKE_GENERATOR) or cmake's default: the
	 * cache options name its make program. */
	argv_list_add_all(&configure, (const char *const[]){ cmake, "-S", active.path, "-B",
							     build_dir, NULL });
	if (generator != NULL)
		argv_list_add_all(&configure, (const char *const[]){ "-G", generator, NULL });
	if (script != NULL)
		argv_list_add_all(&configure, (const char *const[]){ "-C", script, NULL });
	argv_list_add_all(&compile, (const char *const[]){ cmake, "--build", build_dir, "-j", jobs,
							   NULL });
	if (argv_list_vector(&configure) == NULL || argv_list_vector(&compile) == NULL) {
		gate_error_oom(err);
		goto out;
	}
	if (run_build_step("configure", "cmake -S", argv_list_vector(&configure), NULL, log_path,
			   err) != 0 ||
	    run_build_step("build", "cmake --build", argv_list_vector(&compile), NULL, log_path,
			   err) != 0)
		goto out;
	status = 0;
out:
	argv_list_release(&configure);
	argv_list_release(&compile);
	free(cmake);
	free(jobs);
	free(script);
	free(generator);
	return status;
}

/* The command the head's manifest records (gate manifest --build-command), run by /bin/sh from
 * the worktree's top with COSTGATE_BUILD_DIR naming where its build goes. */
static int build_with_command(const char *command, const char *build_dir, const char *log_path,
			      struct gate_error *err)
{
	struct argv_list argv = ARGV_LIST_INIT, environment = ARGV_LIST_INIT;
	char *variable = NULL;
	size_t i;
	int status = -1;

	if (asprintf(&variable, "COSTGATE_BUILD_DIR=%s", build_dir) < 0) {
		variable = NULL;
		gate_error_oom(err);
		goto out;
	}
	for (i = 0; environ[i] != NULL; i++)
		if (strncmp(environ[i], "COSTGATE_BUILD_DIR=", 19) != 0)
			argv_list_add(&environment, environ[i]);
	argv_list_add(&environment, variable);
	argv_list_add_all(&argv, (const char *const[]){ "/bin/sh", "-c", command, NULL });
	if (argv_list_vector(&argv) == NULL || argv_list_vector(&environment) == NULL) {
		gate_error_oom(err);
		goto out;
	}
	status = run_build_step("build command", command, argv_list_vector(&argv),
				argv_list_vector(&environment), log_path, err);
out:
	argv_list_release(&argv);
	argv_list_release(&environment);
	free(variable);
	return status;
}

/* `path` as outputs show it: relative to the current directory when inside it (a path of this
 * machine otherwise, which only the raw directory given outside the tree makes). */
static const char *shown_path(const char *path)
{
	static char directory[4096];
	size_t length;

	if (getcwd(directory, sizeof(directory)) == NULL)
		return path;
	length = strlen(directory);
	if (strncmp(path, directory, length) == 0 && path[length] == '/')
		return path + length + 1;
	return path;
}

/* What to do when the base cannot be built here: build it the way the head's manifest says, or
 * save the baseline again in this image (the stored one came from another toolchain). */
#define WORKTREE_CURE "or save the baseline again on this machine's image (gate --save-baseline " \
		      "BRANCH on that branch, and commit baselines/BRANCH.json)"

/* Builds the worktree into *build_dir (owned): with the build command the head's manifest
 * records, else with CMake when the head's build is a CMake one. */
static int build(const struct measure_options *options, const char *head_build_dir,
		 const char *build_command, char **build_dir, struct gate_error *err)
{
	char *log_path = NULL;
	bool cmake = build_command == NULL && worktree_cmake_build(head_build_dir);
	int status = -1;

	*build_dir = tree_build_dir(head_build_dir);
	if (*build_dir == NULL ||
	    asprintf(&log_path, "%s/worktree-build.log", options->raw_dir) < 0) {
		log_path = NULL;
		gate_error_oom(err);
		goto out;
	}
	if (build_command == NULL && !cmake) {
		gate_error_set(err, "cannot build the baseline's commit here: the head's manifest "
			       "records no build command and its build is not a CMake one (record "
			       "how the scenarios are built: gate manifest --build-command CMD, "
			       "docs/adopting.md), " WORKTREE_CURE);
		goto out;
	}
	if (cmake)
		status = build_with_cmake(options, head_build_dir, *build_dir, log_path, err);
	else
		status = build_with_command(build_command, *build_dir, log_path, err);
	if (status != 0) {
		char said[sizeof(err->message)];

		snprintf(said, sizeof(said), "%s", err->message);
		gate_error_set(err, "cannot build the baseline's commit here: %.500s (its log: %s); "
			       "fix that build, " WORKTREE_CURE, said, shown_path(log_path));
	}
out:
	if (status != 0) {
		free(*build_dir);
		*build_dir = NULL;
	}
	free(log_path);
	return status;
}

static int measure_tree(struct results *baseline, const char *build_dir, bool commanded,
			const struct measure_options *options, const char *valgrind,
			struct gate_error *err)
{
	struct manifest manifest = MANIFEST_INIT;
	struct provenance provenance = PROVENANCE_INIT;
	char *manifest_path = NULL;
	size_t i;
	int status = -1;

	if (asprintf(&manifest_path, "%s/scenarios/manifest.txt", build_dir) < 0) {
		gate_error_oom(err);
		goto out;
	}
	if (commanded && access(manifest_path, F_OK) != 0) {
		gate_error_set(err, "the build command built the baseline's commit but wrote no "
			       "scenarios/manifest.txt in \"$COSTGATE_BUILD_DIR\": it must build "
			       "there (docs/adopting.md, the build command)");
		goto out;
	}
	/* The fingerprint's flags as the programs' DWARF says, as the head's are (session.c). */
	if (manifest_read(&manifest, manifest_path, err) != 0 ||
	    provenance_read(&provenance, &manifest, active.path, err) != 0 ||
	    environment_collect(&baseline->fingerprint, valgrind, manifest.compiler,
				provenance.flags != NULL ? provenance.flags : manifest.flags,
				err) != 0)
		goto out;
	if (manifest.costgate != NULL &&
	    (baseline->fingerprint.costgate = strdup(manifest.costgate)) == NULL) {
		gate_error_oom(err);
		goto out;
	}
	baseline->measurements = calloc(manifest.entry_count + 1, sizeof(*baseline->measurements));
	if (baseline->measurements == NULL) {
		gate_error_oom(err);
		goto out;
	}
	baseline->count = manifest.entry_count;
	baseline->messages = options->messages;
	if (measure_scenarios(baseline->measurements, &manifest, options, err) != 0)
		goto out;
	for (i = 0; i < baseline->count; i++) {
		if (measurement_place_lines(&baseline->measurements[i], active.path) != 0) {
			gate_error_oom(err);
			goto out;
		}
		if (baseline->measurements[i].failed) {
			gate_error_set(err, "the baseline's scenario '%s' failed to measure: %s",
				       baseline->measurements[i].info.name, baseline->measurements[i].failure);
			goto out;
		}
	}
	status = 0;
out:
	free(manifest_path);
	manifest_release(&manifest);
	provenance_release(&provenance);
	return status;
}

int worktree_build(const struct worktree_source *source, const struct measure_options *options,
		   char **build_dir, struct gate_error *err)
{
	*build_dir = NULL;
	if (create(source->root, source->commit, err) != 0 ||
	    build(options, source->head_build_dir, source->build_command, build_dir, err) != 0) {
		worktree_cleanup();
		return -1;
	}
	return 0;
}

int worktree_measure(struct results *baseline, const struct worktree_source *source,
		     const struct measure_options *options, const char *valgrind, char **what,
		     struct gate_error *err)
{
	char *build_dir = NULL;
	int status = -1;

	*baseline = (struct results)RESULTS_INIT;
	*what = NULL;
	if (create(source->root, source->commit, err) != 0 ||
	    build(options, source->head_build_dir, source->build_command, &build_dir, err) != 0 ||
	    measure_tree(baseline, build_dir, source->build_command != NULL, options, valgrind,
			 err) != 0)
		goto out;
	if (asprintf(what, "%s (%.12s) measured here in a temporary worktree", source->ref,
		     source->commit) < 0) {
		*what = NULL;
		gate_error_oom(err);
		goto out;
	}
	status = 0;
out:
	free(build_dir);
	worktree_cleanup();
	if (status != 0)
		results_release(baseline);
	return status;
}
