/* The native modes of a scenario executable (see native.h). The clock is read, the counter
 * switched and the profiler started only around the region's entries, so a mode measures what
 * valgrind measures: the drain, and for the counter the service start too. */
#define _GNU_SOURCE
#include "native.h"

#include <errno.h>
#include <gperftools/profiler.h>
#include <linux/perf_event.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "alloc_counter.h"

enum native_mode { MODE_NONE, MODE_TIME, MODE_COUNT, MODE_PROFILE, MODE_OPINION };

/* The second opinion's phases: the most it takes, and its counts at each phase's end. */
#define OPINION_PHASES 8
static uint64_t phase_blocks[OPINION_PHASES], phase_instructions[OPINION_PHASES];
static size_t phases_ended;
static int instructions_fd = -1;  /* the CPU's counter of user-space instructions, or -1 */
static int instructions_errno;   /* why it could not be opened */

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

/* The CPU's instruction counter for this process's user space, off until the region enables
 * it; -1 with instructions_errno set where the machine has none (a virtual machine often). */
static void open_instruction_counter(void)
{
	struct perf_event_attr attribute;

	memset(&attribute, 0, sizeof(attribute));
	attribute.size = sizeof(attribute);
	attribute.type = PERF_TYPE_HARDWARE;
	attribute.config = PERF_COUNT_HW_INSTRUCTIONS;
	attribute.disabled = 1;
	attribute.exclude_kernel = 1;
	attribute.exclude_hv = 1;
	instructions_fd = (int)syscall(SYS_perf_event_open, &attribute, 0, -1, -1, 0);
	if (instructions_fd < 0)
		instructions_errno = errno;
}

/* "phases 1,1000,2000 2000 backlog 3" */
int costgate_native_request(int argc, FILE *input, uint64_t count_max, uint64_t *snapshots,
			    size_t max, size_t *used, uint64_t *count, uint64_t *backlog,
			    char *problem, size_t problem_size)
{
	char line[256], phases[200], *cursor, *end;
	unsigned long long value;

	if (argc != 1)
		return 0;
	*used = 0;
	if (fgets(line, sizeof(line), input) == NULL ||
	    sscanf(line, "phases %199s %llu backlog %llu", phases, (unsigned long long *)count,
		   (unsigned long long *)backlog) != 3 ||
	    *count == 0 || *count > count_max || max > OPINION_PHASES) {
		snprintf(problem, problem_size, "without arguments the native harness reads 'phases "
			 "K1,K2,K3 COUNT backlog B' on stdin");
		return -1;
	}
	for (cursor = phases; *cursor != '\0' && *used < max; cursor = end + (*end == ',')) {
		errno = 0;
		value = strtoull(cursor, &end, 10);
		if (errno != 0 || end == cursor || value == 0 || value > *count ||
		    (*used > 0 && value <= snapshots[*used - 1]) || (*end != ',' && *end != '\0'))
			break;
		snapshots[(*used)++] = value;
	}
	if (*used == 0 || *cursor != '\0') {
		snprintf(problem, problem_size, "bad phases '%.60s'", phases);
		return -1;
	}
	if (costgate_alloc_counter_install() != 0) {
		snprintf(problem, problem_size, "cannot install the allocation counter's hooks");
		return -1;
	}
	mode = MODE_OPINION;
	open_instruction_counter();
	return 1;
}

void costgate_native_phase_end(void)
{
	uint64_t instructions = 0;

	if (mode != MODE_OPINION || phases_ended == OPINION_PHASES)
		return;
	if (instructions_fd >= 0 &&
	    read(instructions_fd, &instructions, sizeof(instructions)) != sizeof(instructions)) {
		instructions_errno = errno != 0 ? errno : EIO;
		close(instructions_fd);
		instructions_fd = -1;
	}
	phase_blocks[phases_ended] = costgate_alloc_counter_blocks();
	phase_instructions[phases_ended++] = instructions;
}

void costgate_native_region_enter(bool drain)
{
	if (mode == MODE_OPINION) {
		costgate_alloc_counter_enable(true);
		if (instructions_fd >= 0)
			ioctl(instructions_fd, PERF_EVENT_IOC_ENABLE, 0);
		return;
	}
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

	if (mode == MODE_OPINION) {
		if (instructions_fd >= 0)
			ioctl(instructions_fd, PERF_EVENT_IOC_DISABLE, 0);
		costgate_alloc_counter_enable(false);
		return;
	}

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

/* The second opinion's counts at each phase's end. */
static int report_opinion(const char *name)
{
	size_t i;

	if (costgate_alloc_counter_overflowed()) {
		fprintf(stderr, "%s: error: more blocks born in the region were live at once than the "
			"allocation counter can follow\n", name);
		return 1;
	}
	fputs("allocations", stdout);
	for (i = 0; i < phases_ended; i++)
		printf(" %llu", (unsigned long long)phase_blocks[i]);
	if (instructions_fd >= 0) {
		fputs("\ninstructions", stdout);
		for (i = 0; i < phases_ended; i++)
			printf(" %llu", (unsigned long long)phase_instructions[i]);
		putchar('\n');
	} else {
		printf("\ninstructions unavailable: %s\n", strerror(instructions_errno));
	}
	return fflush(stdout) == 0 ? 0 : 1;
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
	case MODE_OPINION:
		return report_opinion(name);
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
