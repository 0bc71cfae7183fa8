/* Files, the one way gate touches them: a whole file read into memory (bounded), a whole file
 * written so that it is never half there (a temporary file beside it, flushed and renamed), and
 * a directory made with its parents. */
#ifndef GATE_FS_H
#define GATE_FS_H

#include <stddef.h>
#include <sys/types.h>

#include "error.h"

/* The most fs_read_file reads unless told less: the largest results document or DHAT profile
 * gate has a use for. */
#define FS_READ_LIMIT ((size_t)1 << 31)

/* Reads the whole regular file at `path` into *text, NUL-terminated (the
 * NUL not counted in *length); the caller frees it. A file of `limit` bytes or more is refused. Returns 0, or -1 with errno saying why
 * (ENOENT: no such file, EFBIG: above the limit, EISDIR: not a regular file) and *text NULL:
 * each reader says it in its own words ("cannot read results 'F': ..."). */
int fs_read_file(const char *path, size_t limit, char **text, size_t *length);

/* Writes `length` bytes of `text` to `path` whole: a temporary file in `temporary_dir` (NULL:
 * beside `path`), flushed to disk, mode 0644, renamed over `path`. Returns 0; -1 with err set
 * ("cannot write 'F': ..."), the temporary file removed; or 1 when the rename crossed file
 * systems (only with a `temporary_dir`: nothing written, err untouched, write beside instead).
 * A `path` that is a device or a pipe (/dev/stdout) is opened and written in place. */
int fs_write_atomic(const char *path, const char *text, size_t length, const char *temporary_dir,
		    struct gate_error *err);

/* Tidies an absolute or relative path in place by its text alone: "." components and doubled
 * slashes dropped, "DIR/.." taken back ("/repo/builddir/../lib.c" is "/repo/lib.c", the name a
 * Meson build's debug information gives a source beside the build directory). A ".." at the
 * start of a relative path stays; one above "/" is dropped ("/../x" is "/x"); "" stays "".
 * Returns path. */
char *fs_path_tidy(char *path);

/* Makes `path` and every missing parent (mode `mode`); an existing directory is fine. Errors
 * name the directory that could not be made. */
int fs_mkdir_p(const char *path, mode_t mode, struct gate_error *err);

/* Takes an exclusive lock (flock) on the file at `path`, made when missing, and writes this
 * process's pid into it. Returns the descriptor that holds the lock until it is closed or the
 * process ends; -1 with err set, and when another process holds the lock errno EWOULDBLOCK and
 * *holder its pid as it wrote it (0 when it has not yet). */
int fs_lock(const char *path, long *holder, struct gate_error *err);

/* Removes the lock file at `path` and releases the lock fs_lock returned as `fd`: nothing is left
 * beside the outputs. A gate that waits for the lock never sees the removed file held
 * (fs_lock checks the file it locked is still the one at the path). */
void fs_unlock(const char *path, int fd);

#endif
