/* The seal of a built program: the SHA-256 of a scenario executable and of every object it loads
 * from outside the system's directories (the project's libraries), taken when the build is read
 * and checked again before its --describe, before each of its runs and after the last, so the
 * program measured is the program built and checked (a scenario that rewrites its own file, or
 * a library's, while it runs is a measurement failure). The hashes go into results.json, where a
 * trusted build of the same sources can be compared with them (gate merge --check-build). */
#ifndef GATE_SEAL_H
#define GATE_SEAL_H

#include <stddef.h>

#include <cjson/cJSON.h>
#include "error.h"
#include "sha256.h"

struct seal_file {
	char *path;                    /* real path; owned */
	char sha256[SHA256_HEX_SIZE];
};

struct seal {
	struct seal_file *files; /* the executable first, then its project libraries */
	size_t count;
};

#define SEAL_INIT { 0 }

/* Hashes `executable` and every object it loads (packages_objects) or could dlopen from its run
 * path (program_objects) that is not installed under /usr or /lib. Returns 0, or -1 with err. */
int seal_make(struct seal *seal, const char *executable, struct gate_error *err);

/* Hashes every sealed file again. Returns 0 when each is as sealed; -1 with err naming the first
 * that changed or went, and `moment` ("before its --describe"). */
int seal_check(const struct seal *seal, const char *moment, struct gate_error *err);

/* Adds the directory of every sealed file to `directories` (absolute, owned, each once; the
 * array grows, NULL-terminated), but for / and the temporary directory (TMPDIR, /tmp), which
 * valgrind writes in. Returns 0, or -1 when out of memory. */
int seal_directories(const struct seal *seal, char ***directories, size_t *count);

/* The files as JSON, [{ "path": ..., "sha256": ... }, ...]: a path inside `build_dir` (real,
 * absolute) relative to it, so that another build of the same sources can be compared; NULL when
 * out of memory. */
cJSON *seal_to_json(const struct seal *seal, const char *build_dir);

/* Compares a seal as seal_to_json wrote it (`files`, for scenario `name`) with the files of the
 * build in `build_dir`. Returns 0 when every file inside the build hashes the same there; -1
 * with err naming the first that differs or is missing, or a malformed entry. */
int seal_compare(const cJSON *files, const char *name, const char *build_dir,
		 struct gate_error *err);

void seal_release(struct seal *seal); /* NULL-safe */

#endif
