/* Test-only: a program that describes itself like a scenario and takes its snapshots as the
 * harness does, but does its work without ever calling the measured region (which it has). gate
 * must report that the region collected nothing. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile unsigned long sink;

/* The region exists, so the executable passes gate's checks, but is never called. */
__attribute__((noinline, used)) void costgate_measured_region(void);
__attribute__((noinline, used)) void costgate_measured_region(void)
{
	sink++;
}

int main(int argc, char **argv)
{
	unsigned long count;
	unsigned long i;

	if (argc == 2 && strcmp(argv[1], "--describe") == 0) {
		puts("{\"name\":\"never_enters_region\",\"title\":\"test only: never enters its region\","
		     "\"gated\":true,\"region\":\"costgate_measured_region\",\"snapshots\":true,"
		     "\"floors\":{\"steady_allocations\":0,\"cold_allocations\":0}}");
		return 0;
	}
	if (argc == 4 && strcmp(argv[1], "--snapshots") == 0) {
		const char *next = argv[2];

		/* A snapshot after each phase: a child that exits at once. */
		while (*next != '\0') {
			next += strcspn(next, ",");
			next += *next == ',';
			if (fork() == 0)
				_exit(0);
			wait(NULL);
		}
	} else if (argc != 2) {
		return 2;
	}
	count = strtoul(argv[argc - 1], NULL, 10);
	for (i = 0; i < count * 100; i++)
		sink += i;
	return 0;
}
