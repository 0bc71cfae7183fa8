/* gate's outputs, checked before anything runs (a writable --raw-dir, --json and --markdown in
 * directories that exist) and locked while it runs, so two gates never write one file. */
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
#include "policy.h"
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
#include "table.h"
#include "wall_check.h"
#include "wallclock.h"
#include "worktree.h"

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
		return gate_error_oom(err);
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
		return gate_error_oom(err);
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
		return gate_error_oom(err);
	result = check_output_directory(dirname(copy), err);
	if (result != 0)
		gate_error_prefix(err, "results.json '%s'", path);
	free(copy);
	return result;
}

/* Makes the default results.json's directory (checked at the start). */
int session_make_json_directory(const struct gate_options *options, struct gate_error *err)
{
	char *copy;
	int result;

	if (!options->json_default)
		return 0;
	copy = strdup(options->json_path);
	if (copy == NULL)
		return gate_error_oom(err);
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
int session_lock_outputs(struct session *session)
{
	const char *json = session->options->json_path;
	struct gate_error err = GATE_ERROR_INIT;
	char *path = NULL, *copy = NULL;
	struct stat status;
	int code = GATE_EXIT_USAGE;

	if (asprintf(&path, "%s/.gate.lock", session->raw_dir) < 0) {
		gate_error_oom(&err);
		return session_fail(GATE_EXIT_USAGE, &err);
	}
	code = lock_output(session, path, "the raw directory", session->raw_dir);
	free(path);
	path = NULL;
	if (code != 0 || (stat(json, &status) == 0 && !S_ISREG(status.st_mode)))
		return code;
	copy = strdup(json);
	if (copy == NULL || session_make_json_directory(session->options, &err) != 0 ||
	    asprintf(&path, "%s/.%s.lock", dirname(copy), strrchr(json, '/') ? strrchr(json, '/') + 1
									  : json) < 0) {
		if (err.message[0] == '\0')
			gate_error_oom(&err);
		free(copy);
		return session_fail(GATE_EXIT_USAGE, &err);
	}
	code = lock_output(session, path, "the results file", json);
	free(path);
	free(copy);
	return code;
}
