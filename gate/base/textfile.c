/* Whole-file writes through a temporary file and a rename. */
#define _GNU_SOURCE
#include "textfile.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int textfile_write(const char *path, const char *text, size_t length, struct gate_error *err)
{
	char *temporary = NULL;
	int fd = -1, status = -1, saved;

	if (asprintf(&temporary, "%s.tmp.XXXXXX", path) < 0)
		return gate_error_set(err, "cannot write '%s': out of memory", path);
	fd = mkstemp(temporary);
	if (fd < 0) {
		saved = errno;
		gate_error_set(err, "cannot write '%s': %s", path, strerror(saved));
		goto out;
	}
	while (length > 0) {
		ssize_t written = write(fd, text, length);

		if (written < 0 && errno == EINTR)
			continue;
		if (written <= 0) {
			saved = written < 0 ? errno : EIO;
			gate_error_set(err, "cannot write '%s': %s", path, strerror(saved));
			goto out;
		}
		text += written;
		length -= (size_t)written;
	}
	if (fsync(fd) != 0 || fchmod(fd, 0644) != 0) {
		saved = errno;
		gate_error_set(err, "cannot write '%s': %s", path, strerror(saved));
		goto out;
	}
	saved = close(fd) != 0 ? errno : 0;
	fd = -1;
	if (saved != 0 || rename(temporary, path) != 0) {
		saved = saved != 0 ? saved : errno;
		gate_error_set(err, "cannot write '%s': %s", path, strerror(saved));
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
