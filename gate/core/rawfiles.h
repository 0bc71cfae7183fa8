/* Where a scenario's files are: every file of the raw directory gate wrote for it (valgrind's
 * outputs and logs, the --describe and native runs, the flame graph), each with what it holds in
 * words, the per-message profile first. Read from the directory, so what is listed is there. */
#ifndef GATE_RAWFILES_H
#define GATE_RAWFILES_H

#include <stdbool.h>
#include <stddef.h>

#include "error.h"
#include "measurement.h"

struct rawfile {
	char *name; /* inside the raw directory; owned */
	char *what; /* what it holds, e.g. "one message x 200: the N..2N part of the callgrind
		     * run (callgrind_annotate, KCachegrind)"; owned */
	bool per_message; /* callgrind's N..2N part: one message's profile, N times over */
};

struct rawfiles {
	struct rawfile *files; /* the per-message profile first, then by name; owned */
	size_t count;
};

/* The files of `measurement` (its name, N and the raw file names it records) in `directory`.
 * Returns 0 (no file is no error: *files empty), or -1 with err ("cannot read the raw directory
 * 'D': ...", "out of memory"). */
int rawfiles_list(struct rawfiles *files, const char *directory,
		  const struct measurement *measurement, struct gate_error *err);

void rawfiles_release(struct rawfiles *files); /* NULL-safe, leaves it empty */

#endif
