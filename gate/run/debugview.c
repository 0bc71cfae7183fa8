/* Symbol-only copies of the system's debug files, seen by counting runs in place of
 * /usr/lib/debug (debugview.h says why). */
#define _GNU_SOURCE
#include "debugview.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <ftw.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "packages.h"
#include "runner.h"

#define DEBUGVIEW_COPY_SECONDS 120.0

/* The directory made, for debugview_abandon: a signal handler cannot follow pointers safely. */
static char abandon_path[4096];

/* Async-signal-safe: writes `text` into an existing file (the /proc/self maps). */
static int write_text(const char *path, const char *text, size_t length)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	ssize_t wrote;
	int saved;

	if (fd < 0)
		return -1;
	wrote = write(fd, text, length);
	saved = errno;
	close(fd);
	errno = saved;
	return wrote == (ssize_t)length ? 0 : -1;
}

/* Async-signal-safe: "ID ID 1\n", the map of one id onto itself. */
static size_t identity_map(char *text, unsigned id)
{
	char digits[16];
	size_t count = 0, length = 0, copy;

	do {
		digits[count++] = (char)('0' + id % 10);
		id /= 10;
	} while (id != 0);
	for (copy = 0; copy < 2; copy++) {
		size_t k;

		for (k = count; k > 0; k--)
			text[length++] = digits[k - 1];
		text[length++] = ' ';
	}
	text[length++] = '1';
	text[length++] = '\n';
	return length;
}

/* Async-signal-safe: `directory` mounted over itself read-only, what is mounted below it as it
 * was (MS_REC), so a writable directory bound inside stays writable. */
static int bind_read_only(const char *directory)
{
	if (mount(directory, directory, "none", MS_BIND | MS_REC, NULL) != 0)
		return -1;
	return mount("none", directory, "none", MS_BIND | MS_REMOUNT | MS_RDONLY, NULL);
}

int debugview_enter(const char *directory, const struct debugview_sealed *sealed, unsigned uid,
		    unsigned gid)
{
	char map[48];
	size_t i;

	if (unshare(CLONE_NEWUSER | CLONE_NEWNS) != 0)
		return -1;
	/* An unprivileged process must give up setgroups before it may map its group. */
	if (write_text("/proc/self/setgroups", "deny", 4) != 0 && errno != ENOENT)
		return -1;
	if (write_text("/proc/self/uid_map", map, identity_map(map, uid)) != 0 ||
	    write_text("/proc/self/gid_map", map, identity_map(map, gid)) != 0)
		return -1;
	/* Private first, so that the bind mount cannot travel back to the system's namespace. The
	 * kernel ignores the type of both; "none" rather than NULL keeps memcheck quiet. */
	if (mount("none", "/", "none", MS_REC | MS_PRIVATE, NULL) != 0 ||
	    (directory != NULL &&
	     mount(directory, DEBUGVIEW_SYSTEM_DIRECTORY, "none", MS_BIND | MS_REC, NULL) != 0))
		return -1;
	if (sealed == NULL)
		return 0;
	/* The writable directory (the raw files) is a mount of its own before the directories
	 * around it become read-only, so it stays writable inside them. */
	if (sealed->writable != NULL &&
	    mount(sealed->writable, sealed->writable, "none", MS_BIND, NULL) != 0)
		return -1;
	for (i = 0; sealed->read_only != NULL && sealed->read_only[i] != NULL; i++)
		if (bind_read_only(sealed->read_only[i]) != 0)
			return -1;
	return 0;
}

int debugview_child_enter(const void *child)
{
	const struct debugview_child *enter = child;

	if (enter->directory == NULL && enter->sealed == NULL)
		return 0;
	return debugview_enter(enter->directory, enter->sealed, enter->uid, enter->gid);
}

static int set_mode(struct debugview *view, struct gate_error *err, const char *format, ...)
	__attribute__((format(printf, 3, 4)));

static int set_mode(struct debugview *view, struct gate_error *err, const char *format, ...)
{
	va_list arguments;
	char *mode = NULL;
	int status;

	va_start(arguments, format);
	status = vasprintf(&mode, format, arguments);
	va_end(arguments);
	if (status < 0)
		return gate_error_oom(err);
	free(view->mode);
	view->mode = mode;
	return 0;
}

static void remove_tree(const char *directory);

/* A directory of the view, made when missing. */
static int make_directory(const char *path)
{
	return mkdir(path, 0700) == 0 || errno == EEXIST ? 0 : -1;
}

struct probe_request {
	const char *directory;
	const struct debugview_sealed *sealed;
};

static int enter_view(void *context)
{
	const struct probe_request *request = context;

	return debugview_enter(request->directory, request->sealed, (unsigned)getuid(),
			       (unsigned)getgid()) != 0 ? errno : 0;
}

/* Does a child manage to enter the namespaces with the view mounted? errno of the failure. */
static int probe(const char *directory, const struct debugview_sealed *sealed)
{
	struct probe_request request = { directory, sealed };

	return runner_call_in_child(enter_view, &request);
}

/* Removes the views of gates that ended without removing theirs (SIGKILL): a view's name holds
 * the pid of the gate that made it. */
static void sweep_stale(const char *base)
{
	DIR *entries = opendir(base);
	struct dirent *entry;

	while (entries != NULL && (entry = readdir(entries)) != NULL) {
		char path[4096];
		char *end = NULL;
		long pid;

		if (strncmp(entry->d_name, "gate-debug.", 11) != 0)
			continue;
		pid = strtol(entry->d_name + 11, &end, 10);
		if (end == entry->d_name + 11 || *end != '.' || pid <= 0 || pid == (long)getpid() ||
		    kill((pid_t)pid, 0) == 0 || errno != ESRCH)
			continue;
		if ((size_t)snprintf(path, sizeof(path), "%s/%s", base, entry->d_name) < sizeof(path))
			remove_tree(path);
	}
	if (entries != NULL)
		closedir(entries);
}

/* Makes the view's directory and checks the runs can see it; a failure leaves it NULL, said in
 * the mode. */
static int open_view(struct debugview *view, struct gate_error *err)
{
	const char *base = getenv("TMPDIR");
	char *directory = NULL;
	int failure;

	if (base == NULL || base[0] != '/')
		base = "/tmp";
	sweep_stale(base);
	if (asprintf(&directory, "%s/gate-debug.%ld.XXXXXX", base, (long)getpid()) < 0)
		return gate_error_oom(err);
	if (mkdtemp(directory) == NULL) {
		int saved = errno;

		free(directory);
		view->disabled = true;
		return set_mode(view, err, "full debug files (cannot make a directory in %s: %s)", base,
				strerror(saved));
	}
	failure = probe(directory, NULL);
	if (failure != 0) {
		remove_tree(directory);
		free(directory);
		view->disabled = true;
		return set_mode(view, err, "full debug files (no private mount namespace: %s)",
				strerror(failure));
	}
	view->directory = directory;
	if (strlen(directory) < sizeof(abandon_path))
		memcpy(abandon_path, directory, strlen(directory) + 1);
	return 0;
}

int debugview_probe_sealed(const struct debugview_sealed *sealed)
{
	return probe(NULL, sealed);
}

void debugview_abandon(void)
{
	static char rm[] = "/bin/rm", force[] = "-rf", end[] = "--";
	char *argv[] = { rm, force, end, abandon_path, NULL };
	char *environment[] = { NULL };

	if (abandon_path[0] != '\0')
		runner_run_and_wait(argv, NULL, environment);
}

/* Copies the symbol table of `source` to `target` through a temporary name. */
static int copy_symbols(const char *objcopy, const char *source, const char *target,
			struct gate_error *err)
{
	char *temporary = NULL, *output = NULL;
	int status = -1;

	if (asprintf(&temporary, "%s.tmp", target) < 0)
		return gate_error_oom(err);
	{
		char strip[] = "--strip-debug";
		char *argv[] = { (char *)objcopy, strip, (char *)source, temporary, NULL };
		char *environment[] = { NULL };

		if (runner_capture(argv, "/", environment, DEBUGVIEW_COPY_SECONDS, &output, err) != 0)
			goto out;
	}
	if (rename(temporary, target) != 0) {
		gate_error_set(err, "cannot rename '%s': %s", temporary, strerror(errno));
		goto out;
	}
	status = 0;
out:
	if (status != 0)
		unlink(temporary);
	free(temporary);
	free(output);
	return status;
}

/* Copies the debug file of one object into the view when the system has one. 1 when copied, 0
 * when there was nothing to copy, -1 when the copy failed (err says why). */
static int add_object(struct debugview *view, const char *objcopy,
		      const struct packages_object *object, struct gate_error *err)
{
	char *source = NULL, *subdirectory = NULL, *target = NULL;
	struct stat info;
	int status = 0;

	if (strlen(object->build_id) < 3)
		return 0;
	if (asprintf(&source, DEBUGVIEW_SYSTEM_DIRECTORY "/.build-id/%.2s/%s.debug", object->build_id,
		     object->build_id + 2) < 0) {
		source = NULL;
		status = gate_error_oom(err);
		goto out;
	}
	if (stat(source, &info) != 0 || !S_ISREG(info.st_mode))
		goto out;
	if (view->directory == NULL && open_view(view, err) != 0) {
		status = -1;
		goto out;
	}
	if (view->directory == NULL)
		goto out; /* the view cannot work here: said in the mode */
	if (asprintf(&subdirectory, "%s/.build-id/%.2s", view->directory, object->build_id) < 0 ||
	    asprintf(&target, "%s/%s.debug", subdirectory, object->build_id + 2) < 0) {
		status = gate_error_oom(err);
		goto out;
	}
	if (access(target, F_OK) == 0)
		goto out;
	{
		char *build_ids = strndup(subdirectory, strlen(subdirectory) - 3);

		if (build_ids == NULL) {
			status = gate_error_oom(err);
			goto out;
		}
		if (make_directory(build_ids) != 0 || make_directory(subdirectory) != 0) {
			gate_error_set(err, "cannot make '%s': %s", subdirectory, strerror(errno));
			free(build_ids);
			status = -1;
			goto out;
		}
		free(build_ids);
	}
	if (copy_symbols(objcopy, source, target, err) != 0) {
		gate_error_prefix(err, "cannot copy the symbols of '%s'", source);
		status = -1;
		goto out;
	}
	view->files++;
	status = 1;
out:
	free(source);
	free(subdirectory);
	free(target);
	return status;
}

/* Gives up the view: runs read the system's files, for the reason given. */
static int abandon(struct debugview *view, const char *reason, struct gate_error *err)
{
	if (view->directory != NULL) {
		remove_tree(view->directory);
		free(view->directory);
		view->directory = NULL;
	}
	view->files = 0;
	view->disabled = true;
	return set_mode(view, err, "full debug files (%s)", reason);
}

int debugview_add(struct debugview *view, char *const *executables, size_t count,
		  struct gate_error *err)
{
	char *objcopy = NULL;
	size_t i, k;
	int status = 0;

	if (view->disabled)
		return view->mode != NULL ? 0 : set_mode(view, err, "full debug files (asked for)");
	objcopy = runner_find_program("objcopy", getenv("PATH"));
	if (objcopy == NULL)
		return abandon(view, "no objcopy on PATH", err);
	for (i = 0; i < count && !view->disabled; i++) {
		struct packages_object *objects = NULL;
		size_t object_count = 0;
		struct gate_error ignored = GATE_ERROR_INIT;

		/* A scenario whose objects cannot be read fails where it is described. */
		if (packages_objects(executables[i], &objects, &object_count, &ignored) != 0)
			continue;
		for (k = 0; k < object_count && !view->disabled && status == 0; k++) {
			struct gate_error failure = GATE_ERROR_INIT;

			if (add_object(view, objcopy, &objects[k], &failure) >= 0)
				continue;
			if (gate_error_is_oom(&failure))
				status = gate_error_oom(err);
			else
				status = abandon(view, failure.message, err);
		}
		packages_objects_release(objects, object_count);
		if (status != 0)
			break;
	}
	free(objcopy);
	if (status != 0 || view->disabled)
		return status;
	if (view->directory != NULL)
		return set_mode(view, err, "symbol tables only (%zu debug file%s without DWARF, in a "
				"private mount namespace)", view->files, view->files == 1 ? "" : "s");
	return set_mode(view, err, "as installed (no separate debug files)");
}

/* Removes one entry of the view's tree, deepest first. */
static int remove_entry(const char *path, const struct stat *info, int type, struct FTW *walk)
{
	(void)info;
	(void)walk;
	if (type == FTW_DP)
		rmdir(path);
	else
		unlink(path);
	return 0;
}

static void remove_tree(const char *directory)
{
	(void)nftw(directory, remove_entry, 8, FTW_DEPTH | FTW_PHYS);
	if (strcmp(directory, abandon_path) == 0)
		abandon_path[0] = '\0';
}

void debugview_release(struct debugview *view)
{
	if (view == NULL)
		return;
	if (view->directory != NULL)
		remove_tree(view->directory);
	free(view->directory);
	free(view->mode);
	*view = (struct debugview)DEBUGVIEW_INIT;
}
