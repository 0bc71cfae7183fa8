/* Test-only: starting the service writes 32768 numbered lines (1 MB) to stdout and as many to stderr.
 * gate keeps the first and last 64 KiB of a run's output, with a line saying how much it
 * dropped between them, and still measures the scenario. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <costgate/harness.h>

#include "test_only.h"

static void write_lines(int fd, const char *stream)
{
	char line[64];
	unsigned i;

	for (i = 0; i < 32768; i++) { /* 31 bytes a line */
		int length = snprintf(line, sizeof(line), "%-6s line %05u of 32768....\n", stream, i);

		if (write(fd, line, (size_t)length) < 0)
			return;
	}
}

static int start(struct costgate_service *service)
{
	(void)service;
	write_lines(STDOUT_FILENO, "stdout");
	write_lines(STDERR_FILENO, "stderr");
	return 0;
}

TEST_ONLY_SCENARIO("prints_a_lot", "writes 2 MiB of output", .start = start,
		   .handle = keep_message);
