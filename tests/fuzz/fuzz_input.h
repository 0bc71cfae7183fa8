/* The fuzz targets' shared helper: the parsers that read a path get each input through one memfd,
 * truncated and rewritten per iteration, named by /proc/self/fd/N (no disk, no leftovers). And the
 * invariant check that makes a target abort (a finding) when a parser accepts an input but hands
 * back something its header rules out. */
#ifndef COSTGATE_FUZZ_INPUT_H
#define COSTGATE_FUZZ_INPUT_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#define FUZZ_REQUIRE(condition)                                                              \
	do {                                                                                 \
		if (!(condition)) {                                                          \
			fprintf(stderr, "%s:%d: invariant broken: %s\n", __FILE__, __LINE__, \
				#condition);                                                 \
			abort();                                                             \
		}                                                                            \
	} while (0)

/* Writes the input to the memfd and returns its path (static storage). */
static inline const char *fuzz_input_path(const uint8_t *data, size_t size)
{
	static int fd = -1;
	static char path[64];
	size_t written = 0;

	if (fd < 0) {
		fd = memfd_create("costgate-fuzz", MFD_CLOEXEC);
		FUZZ_REQUIRE(fd >= 0);
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	}
	FUZZ_REQUIRE(ftruncate(fd, 0) == 0);
	while (written < size) {
		ssize_t got = pwrite(fd, data + written, size - written, (off_t)written);

		FUZZ_REQUIRE(got > 0);
		written += (size_t)got;
	}
	return path;
}

#endif
