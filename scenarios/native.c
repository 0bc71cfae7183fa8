/* The native modes of a scenario executable (see native.h). The clock is read, the counter
 * switched and the profiler started only around the region's entries, so a mode measures what
 * valgrind measures: the drain, and for the counter the service start too. */
#define _GNU_SOURCE
#include "native.h"

#include <errno.h>
#include <gperftools/profiler.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "alloc_counter.h"

enum native_mode { MODE_NONE, MODE_TIME, MODE_COUNT, MODE_PROFILE };

static enum native_mode mode;
static const char *profile_path;
static struct timespec drain_started;
static uint64_t drain_nanoseconds;
static bool profiling;
static bool profile_failed;
static uint64_t blocks_drained; /* --count-allocations: the count when the last drain ended */

static int parse_count(const char *text, uint64_t count_max, uint64_t *count)
{
	char *end = NULL;
	unsigned long long value;

	if (text[0] < '0' || text[0] > '9')
		return -1;
	errno = 0;
	value = strtoull(text, &end, 10);
	if (errno != 0 || *end != '\0' || value == 0 || value > count_max)
		return -1;
	*count = value;
	return 0;
}

int costgate_native_parse(int argc, char **argv, uint64_t count_max, uint64_t *count, char *problem,
		 size_t problem_size)
{
	int expected;

	if (argc < 2)
		return 0;
	if (strcmp(argv[1], "--time") == 0)
		mode = MODE_TIME, expected = 3;
	else if (strcmp(argv[1], "--count-allocations") == 0)
		mode = MODE_COUNT, expected = 3;
	else if (strcmp(argv[1], "--profile") == 0)
		mode = MODE_PROFILE, expected = 4;
	else
		return 0;
	if (argc != expected) {
		snprintf(problem, problem_size, "%s expects %s", argv[1],
			 mode == MODE_PROFILE ? "FILE COUNT" : "COUNT");
		return -1;
	}
	if (parse_count(argv[argc - 1], count_max, count) != 0) {
		snprintf(problem, problem_size, "COUNT must be a positive integer up to %llu, not '%s'",
			 (unsigned long long)count_max, argv[argc - 1]);
		return -1;
	}
	if (mode == MODE_PROFILE)
		profile_path = argv[2];
	if (mode == MODE_COUNT && costgate_alloc_counter_install() != 0) {
		snprintf(problem, problem_size, "cannot install the allocation counter's hooks");
		return -1;
	}
	return 1;
}

void costgate_native_region_enter(bool drain)
{
	if (mode == MODE_COUNT)
		costgate_alloc_counter_enable(true);
	if (!drain)
		return;
	if (mode == MODE_PROFILE) {
		profiling = ProfilerStart(profile_path) != 0;
		profile_failed = !profiling;
	}
	if (mode == MODE_TIME)
		clock_gettime(CLOCK_MONOTONIC, &drain_started);
}

void costgate_native_region_leave(bool drain)
{
	struct timespec now;

	if (mode == MODE_TIME && drain) {
		clock_gettime(CLOCK_MONOTONIC, &now);
		drain_nanoseconds = (uint64_t)(now.tv_sec - drain_started.tv_sec) * 1000000000u +
				    (uint64_t)now.tv_nsec - (uint64_t)drain_started.tv_nsec;
	}
	if (mode == MODE_PROFILE && drain && profiling) {
		ProfilerStop();
		profiling = false;
	}
	if (mode == MODE_COUNT) {
		costgate_alloc_counter_enable(false);
		/* What DHAT's snapshot after the last delivery counts: nothing of the teardown, even
		 * a realloc there of a block born in the region (docs/design.md rule 10). */
		if (drain)
			blocks_drained = costgate_alloc_counter_blocks();
	}
}

int costgate_native_report(const char *name)
{
	switch (mode) {
	case MODE_TIME:
		printf("drain_ns %llu\n", (unsigned long long)drain_nanoseconds);
		break;
	case MODE_COUNT:
		if (costgate_alloc_counter_overflowed()) {
			fprintf(stderr, "%s: error: more blocks born in the region were live at once than "
				"the allocation counter can follow\n", name);
			return 1;
		}
		printf("allocations %llu\n", (unsigned long long)blocks_drained);
		break;
	case MODE_PROFILE:
		if (profile_failed) {
			fprintf(stderr, "%s: error: the CPU profiler did not start ('%s')\n", name,
				profile_path);
			return 1;
		}
		printf("profile %s\n", profile_path);
		break;
	case MODE_NONE:
		break;
	}
	return fflush(stdout) == 0 ? 0 : 1;
}

bool costgate_native_timing(void)
{
	return mode == MODE_TIME;
}

void costgate_native_usage(FILE *out, const char *name)
{
	fprintf(out,
		"       %s --time COUNT                print the drain's wall time (drain_ns N)\n"
		"       %s --count-allocations COUNT   print the heap blocks allocated under the region\n"
		"       %s --profile FILE COUNT        write a CPU profile of the drain to FILE\n",
		name, name, name);
}
