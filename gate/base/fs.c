/* Whole-file reads and writes, and directories with their parents. */
#define _GNU_SOURCE
#include "fs.h"

#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

int fs_read_file(const char *path, size_t limit, char **text, size_t *length)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	size_t used = 0, capacity = 0;
	struct stat info;
	char *buffer = NULL;
	int saved = 0;

	*text = NULL;
	*length = 0;
	if (fd < 0)
		return -1;
	if (fstat(fd, &info) != 0) {
		saved = errno;
		goto out;
	}
	if (!S_ISREG(info.st_mode)) {
		saved = S_ISDIR(info.st_mode) ? EISDIR : EINVAL;
		goto out;
	}
	/* Read to the end, not to st_size: a file that grows or shrinks meanwhile is read as it is. */
	for (;;) {
		ssize_t got;

		if (used + 1 >= capacity) {
			size_t grown_capacity = capacity == 0 ? (size_t)info.st_size + 4096 : capacity * 2;
			char *grown;

			if (grown_capacity > limit + 1)
				grown_capacity = limit + 1;
			if (grown_capacity <= used + 1) {
				saved = EFBIG;
				goto out;
			}
			grown = realloc(buffer, grown_capacity);
			if (grown == NULL) {
				saved = ENOMEM;
				goto out;
			}
			buffer = grown;
			capacity = grown_capacity;
		}
		got = read(fd, buffer + used, capacity - used - 1);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			saved = errno;
			goto out;
		}
		if (got == 0)
			break;
		used += (size_t)got;
	}
	buffer[used] = '\0';
	*text = buffer;
	*length = used;
	buffer = NULL;
out:
	free(buffer);
	close(fd);
	if (saved != 0) {
		errno = saved;
		return -1;
	}
	return 0;
}

static int write_all(int fd, const char *text, size_t length)
{
	while (length > 0) {
		ssize_t written = write(fd, text, length);

		if (written < 0 && errno == EINTR)
			continue;
		if (written <= 0) {
			if (written == 0)
				errno = EIO;
			return -1;
		}
		text += written;
		length -= (size_t)written;
	}
	return 0;
}

static int write_in_place(const char *path, const char *text, size_t length, struct gate_error *err)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC | O_NOCTTY);

	if (fd < 0 || write_all(fd, text, length) != 0) {
		int saved = errno;

		if (fd >= 0)
			close(fd);
		return gate_error_set(err, "cannot write '%s': %s", path, strerror(saved));
	}
	if (close(fd) != 0)
		return gate_error_set(err, "cannot write '%s': %s", path, strerror(errno));
	return 0;
}

int fs_write_atomic(const char *path, const char *text, size_t length, const char *temporary_dir,
		    struct gate_error *err)
{
	const char *name = strrchr(path, '/') != NULL ? strrchr(path, '/') + 1 : path;
	char *temporary = NULL;
	int fd = -1, status = -1, made;
	struct stat existing;

	/* A device or a pipe (/dev/stdout, /dev/full) is written in place: renaming a file over it
	 * would replace the device. */
	if (stat(path, &existing) == 0 && !S_ISREG(existing.st_mode) && !S_ISDIR(existing.st_mode))
		return write_in_place(path, text, length, err);
	made = temporary_dir != NULL
		       ? asprintf(&temporary, "%s/.%s.tmp.XXXXXX", temporary_dir, name)
		       : asprintf(&temporary, "%s.tmp.XXXXXX", path);
	if (made < 0)
		return gate_error_set(err, "cannot write '%s': out of memory", path);
	fd = mkstemp(temporary);
	if (fd < 0 || write_all(fd, text, length) != 0 || fsync(fd) != 0 || fchmod(fd, 0644) != 0) {
		gate_error_set(err, "cannot write '%s': %s", path, strerror(errno));
		goto out;
	}
	if (close(fd) != 0) {
		fd = -1;
		gate_error_set(err, "cannot write '%s': %s", path, strerror(errno));
		goto out;
	}
	fd = -1;
	if (rename(temporary, path) != 0) {
		if (errno == EXDEV && temporary_dir != NULL) {
			status = 1;
			goto out;
		}
		gate_error_set(err, "cannot write '%s': %s", path, strerror(errno));
		goto out;
	}
	status = 0;
out:
	if (fd >= 0)
		close(fd);
	if (status != 0)
		unlink(temporary);
	free(temporary);
	return status;
}

int fs_mkdir_p(const char *path, mode_t mode, struct gate_error *err)
{
	char *copy = strdup(path);
	char *slash;
	int status = 0;

	if (copy == NULL)
		return gate_error_oom(err);
	for (slash = strchr(copy + 1, '/');; slash = strchr(slash + 1, '/')) {
		if (slash != NULL)
			*slash = '\0';
		if (copy[0] != '\0' && mkdir(copy, mode) != 0 && errno != EEXIST) {
			status = gate_error_set(err, "cannot create directory '%s': %s", copy,
						strerror(errno));
			break;
		}
		if (slash == NULL)
			break;
		*slash = '/';
	}
	free(copy);
	return status;
}

/* The pid written in a lock file, 0 when there is none yet (its holder is about to write it). */
static long lock_holder(int fd)
{
	char text[32];
	ssize_t got;
	int tries;

	for (tries = 0; tries < 50; tries++) {
		got = pread(fd, text, sizeof(text) - 1, 0);
		if (got > 0) {
			text[got] = '\0';
			return strtol(text, NULL, 10);
		}
		usleep(10000);
	}
	return 0;
}

/* Whether `fd` is still the file at `path`: a holder that ended may have removed it between the
 * open and the lock (fs_unlock), and a lock on a removed file guards nothing. */
static bool still_there(int fd, const char *path)
{
	struct stat opened, named;

	return fstat(fd, &opened) == 0 && lstat(path, &named) == 0 &&
	       opened.st_dev == named.st_dev && opened.st_ino == named.st_ino;
}

int fs_lock(const char *path, long *holder, struct gate_error *err)
{
	char text[32];
	int fd = -1, length, tries;

	*holder = 0;
	for (tries = 0; tries < 8; tries++) {
		fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
		if (fd < 0)
			return gate_error_set(err, "cannot lock '%s': %s", path, strerror(errno));
		if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
			int saved = errno;

			if (saved == EWOULDBLOCK)
				*holder = lock_holder(fd);
			close(fd);
			gate_error_set(err, "cannot lock '%s': %s", path, strerror(saved));
			errno = saved;
			return -1;
		}
		if (still_there(fd, path))
			break;
		close(fd);
		fd = -1;
	}
	if (fd < 0)
		return gate_error_set(err, "cannot lock '%s': it keeps being removed", path);
	/* The pid is for the message of a gate that finds the lock held; on a full disk it is not
	 * written, and the lock holds all the same. */
	length = snprintf(text, sizeof(text), "%ld\n", (long)getpid());
	if (ftruncate(fd, 0) == 0 && pwrite(fd, text, (size_t)length, 0) != length) {
		int emptied = ftruncate(fd, 0); /* a part of a pid would name another process */

		(void)emptied;
	}
	return fd;
}

void fs_unlock(const char *path, int fd)
{
	if (fd < 0)
		return;
	unlink(path);
	close(fd);
}

char *fs_path_tidy(char *path)
{
	bool absolute = path[0] == '/';
	size_t read = 0, written = 0, kept = 0; /* kept: components written that ".." may take back */

	if (path[0] == '\0')
		return path;
	while (path[read] != '\0') {
		size_t length;

		while (path[read] == '/')
			read++;
		length = strcspn(path + read, "/");
		if (length == 0)
			break;
		if (length == 1 && path[read] == '.') {
			read += length;
			continue;
		}
		if (length == 2 && path[read] == '.' && path[read + 1] == '.') {
			if (kept > 0) {
				/* Back over the last component and the slash before it. */
				while (written > 0 && path[written - 1] != '/')
					written--;
				if (written > (absolute ? 1u : 0u))
					written--;
				kept--;
				read += length;
				continue;
			}
			if (absolute) {
				read += length;
				continue;
			}
		} else {
			kept++;
		}
		if (written > 0 && !(absolute && written == 1))
			path[written++] = '/';
		else if (absolute && written == 0)
			path[written++] = '/';
		memmove(path + written, path + read, length);
		written += length;
		read += length;
	}
	if (absolute && written == 0)
		path[written++] = '/';
	if (!absolute && written == 0)
		path[written++] = '.';
	path[written] = '\0';
	return path;
}
