/* Writing a whole text file (a page, an export, a chart) so that it is never half there: a
 * temporary file beside the destination, flushed and renamed into place. */
#ifndef GATE_TEXTFILE_H
#define GATE_TEXTFILE_H

#include <stddef.h>

#include "error.h"

/* Writes `length` bytes of `text` to `path`. Returns 0, or -1 with err naming the path; the
 * previous file, if any, is then left whole and no temporary file remains. */
int textfile_write(const char *path, const char *text, size_t length, struct gate_error *err);

#endif
