/* Inside the results module only (results.c, results_view.c): the one way its readers name a
 * value that is wrong, by the document it came from and the value's path in it:
 * "cannot read results 'F': code[2].messages is below 2". */
#ifndef GATE_RESULTS_READER_H
#define GATE_RESULTS_READER_H

#include "error.h"

struct results_reader {
	const char *source; /* the path, or "main:baselines/main.json" */
	struct gate_error *err;
};

/* Sets the reader's error for the value at `path`; returns -1. */
int results_reader_bad(const struct results_reader *reader, const char *path, const char *problem);

#endif
