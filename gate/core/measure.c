/* Measuring: describe, then every valgrind run of every scenario in one pool (longest first),
 * then parse and compute. A failed scenario is recorded and the rest are still measured
 * (docs/design.md rule 8); nothing that failed to measure is ever reported as a figure. */
#define _GNU_SOURCE
#include "measure.h"

#include "packages.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <inttypes.h>
#include <libgen.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "argv_list.h"
#include "array.h"
#include "callgrind.h"
#include "debuginfo.h"
#include "dhat.h"
#include "environment.h"
#include "fs.h"
#include "ownership.h"
#include "program.h"
#include "runner.h"

#define tool_names(tool) (tool_table[tool].name)

/* The processes of one run: a snapshot after 1, N and 2N deliveries (by slope_run), and the
 * run itself at its end (MEASURE_END): its exit and what came before it, for the whole
 * process's figure. */
#define MEASURE_END SLOPE_RUNS
#define MEASURE_PROCESSES (SLOPE_RUNS + 1)

/* A callgrind run of a harness that takes --phases (scenario_info.phases) is one process that
 * counts everything (--collect-atstart=yes) and writes a file a part, PREFIX<pid>.K, each time
 * the region is entered (--dump-before) and each time it is left (--dump-after), with the counts
 * since the part before. The region's visits are the service start (region part 0), the drain to
 * 1 delivery, to N and to 2N (region part `which` + 1); before each, the part outside it since
 * the one before (the process's start, then each fill); at the program's end PREFIX<pid>, the
 * part after the last drain: the exit (docs/design.md rules 9 and 10). The whole process is
 * then callgrind's own count, of the same program as the region's. */
#define MEASURE_PART_REGION(visit) (2 * (visit) + 1)
#define MEASURE_PART_OUTSIDE(visit) (2 * (visit))
#define MEASURE_PART_START MEASURE_PART_REGION(0)
#define MEASURE_PART_END (2 * (SLOPE_RUNS + 1))
#define MEASURE_PARTS (MEASURE_PART_END + 1)
/* With phases callgrind keeps each thread's counts apart (--separate-threads=yes): the parts are
 * the thread that runs the region's, PREFIX<pid>.K-01, and at the end each thread writes its
 * own, PREFIX<pid>-TT: the other threads' whole work is in their ends. */
#define MEASURE_THREADS_MAX 64
#define MEASURE_FILES (MEASURE_PARTS + MEASURE_THREADS_MAX) /* the most outputs one run writes */

/* The one run of one tool: 2N deliveries drained in phases, a snapshot after each count
 * (docs/design.md rule 10). Each of its processes writes an output, read in the order of their
 * counts. */
struct run {
	struct measurement *measurement;
	enum metric_tool tool;
	bool again;      /* --verify's second run */
	int clear_error; /* errno when an earlier run's output file could not be removed */
	struct argv_list argv; /* valgrind's command line, built when the run is about to start */
	bool phases;     /* one callgrind process, its parts dumped (MEASURE_PARTS) */
	char *output_paths[MEASURE_PROCESSES]; /* each process's output once read, by slope_run;
						* with phases the part that ends at that count */
	char *part_paths[MEASURE_PARTS];       /* the parts' names with phases, in order:
						* .outside-start, .start, .outside-0-1, .0-1,
						* .outside-1-N, .1-N, .outside-N-2N, .N-2N and
						* the end's */
	char *written[MEASURE_FILES];          /* the outputs as valgrind named them (PREFIX<pid>,
						* with phases PREFIX<pid>.K-01 in order, then the ends:
						* the region's thread's, then the others') */
	long pids[MEASURE_FILES];              /* their pids */
	size_t written_count;
	size_t part_count; /* with phases: the PREFIX<pid>.K-01 files the one process wrote */
	bool has_end;      /* with phases: and its PREFIX<pid>-01, the end */
	size_t thread_count; /* with phases: the threads that wrote an end, PREFIX<pid>-TT */
	char *empty_end;   /* with phases: the PREFIX<pid> callgrind leaves empty; removed */
	long log_pids[MEASURE_PROCESSES]; /* valgrind's own logs not yet put in place (settle_logs) */
	size_t log_count;
	char *log_paths[MEASURE_PROCESSES]; /* valgrind's log of each process (settle_logs) */
	char *log_path;      /* log_paths[SLOPE_TWICE_N]: also what the program printed */
	char *output_prefix; /* basename before the pid: valgrind writes PREFIX<pid> (%p) */
	char *log_prefix;    /* likewise valgrind's own log, one per process */
	char *directory;
	struct runner_job job;
};

/* What the harness prints on stderr once a snapshot is taken (scenarios/harness.c): each one
 * moves the run's deadline (run_budget). */
#define MEASURE_SNAPSHOT_MARK "costgate: snapshot at "

/* LD_BIND_NOW: the dynamic linker resolves every symbol at load time, outside the region. Lazy
 * binding would resolve each function at its first call, inside the region, in the cold run and
 * in whichever run first calls it there: a one-off of a thousand instructions that the slope from
 * 1 to N sees and the slope from N to 2N does not. */
char *const *measure_environment(void)
{
	static char *environment[] = { "PATH=/usr/bin:/bin", "LC_ALL=C", "LANG=C",
				       "GLIBC_TUNABLES=" GATE_TUNABLES, "LD_BIND_NOW=1", NULL };

	return environment;
}

static void record_failure(struct measurement *measurement, const char *format, ...)
	__attribute__((format(printf, 2, 3)));

static void record_failure(struct measurement *measurement, const char *format, ...)
{
	va_list args;

	if (measurement->failed)
		return;
	measurement->failed = true;
	va_start(args, format);
	vsnprintf(measurement->failure, sizeof(measurement->failure), format, args);
	va_end(args);
}

static uint64_t count_of(const struct measurement *measurement, enum slope_run which)
{
	return which == SLOPE_ONE ? 1 : which == SLOPE_N ? measurement->messages
							 : 2 * measurement->messages;
}

/* The names in the raw directory, sorted: one listing answers every run's "which PREFIX<pid>
 * files are there", where a directory read per run would cost time growing with the square of
 * the number of scenarios. */
struct listing {
	char **names;
	size_t count;
};

static int compare_names(const void *left, const void *right)
{
	return strcmp(*(char *const *)left, *(char *const *)right);
}

static void listing_release(struct listing *listing)
{
	array_free_strings(listing->names, listing->count);
	*listing = (struct listing){ 0 };
}

/* Returns 0, or -1 with errno set (the directory cannot be read, or out of memory). */
static int listing_read(struct listing *listing, const char *directory)
{
	DIR *entries = opendir(directory);
	struct dirent *entry;
	size_t capacity = 0;

	*listing = (struct listing){ 0 };
	if (entries == NULL)
		return -1;
	while ((entry = readdir(entries)) != NULL) {
		if (entry->d_name[0] == '.')
			continue;
		if (ARRAY_GROW(listing->names, capacity, listing->count, 256) != 0)
			goto failed;
		listing->names[listing->count] = strdup(entry->d_name);
		if (listing->names[listing->count] == NULL)
			goto failed;
		listing->count++;
	}
	closedir(entries);
	if (listing->count > 1)
		qsort(listing->names, listing->count, sizeof(*listing->names), compare_names);
	return 0;
failed:
	closedir(entries);
	listing_release(listing);
	errno = ENOMEM;
	return -1;
}

/* The index of the first listed name not below `prefix`: where the names that start with it
 * begin. */
static size_t listing_first(const struct listing *listing, const char *prefix)
{
	size_t low = 0, high = listing->count;

	while (low < high) {
		size_t middle = low + (high - low) / 2;

		if (strcmp(listing->names[middle], prefix) < 0)
			low = middle + 1;
		else
			high = middle;
	}
	return low;
}

/* Whether `text` is a non-empty run of at most `most` digits followed by `end` ('\0' or '.'),
 * with *after set past it. */
static bool digits_then(const char *text, size_t most, char end, const char **after)
{
	size_t digits = strspn(text, "0123456789");

	*after = text + digits;
	return digits > 0 && digits <= most && **after == end;
}

/* The pids of the listed files named PREFIX<digits>, at most `max` (the count is exact). */
static size_t pid_files(const struct listing *listing, const char *prefix, long *pids, size_t max)
{
	size_t length = strlen(prefix), i, count = 0;
	const char *after;

	for (i = listing_first(listing, prefix);
	     i < listing->count && strncmp(listing->names[i], prefix, length) == 0; i++) {
		if (!digits_then(listing->names[i] + length, 9, '\0', &after))
			continue;
		if (count < max)
			pids[count] = strtol(listing->names[i] + length, NULL, 10);
		count++;
	}
	return count;
}

/* How many listed files are named PREFIX<pid>.<digits>-<digits>: the parts one callgrind process
 * dumped, of any thread (only the region's thread dumps; another's part is an error). */
static size_t part_files(const struct listing *listing, const char *prefix, long pid)
{
	char stem[PATH_MAX];
	size_t length, i, count = 0;
	const char *after;

	snprintf(stem, sizeof(stem), "%s%ld.", prefix, pid);
	length = strlen(stem);
	for (i = listing_first(listing, stem);
	     i < listing->count && strncmp(listing->names[i], stem, length) == 0; i++)
		count += digits_then(listing->names[i] + length, 9, '-', &after) &&
			 digits_then(after + 1, 9, '\0', &after);
	return count;
}

/* The listed files named PREFIX<pid>-<digits>, the threads' ends, in order (the region's thread,
 * 01, first), at most `most` into names (pointers into the listing); returns how many there are. */
static size_t thread_end_files(const struct listing *listing, const char *prefix, long pid,
			       const char **names, size_t most)
{
	char stem[PATH_MAX];
	size_t length, i, count = 0;
	const char *after;

	snprintf(stem, sizeof(stem), "%s%ld-", prefix, pid);
	length = strlen(stem);
	for (i = listing_first(listing, stem);
	     i < listing->count && strncmp(listing->names[i], stem, length) == 0; i++) {
		if (!digits_then(listing->names[i] + length, 9, '\0', &after))
			continue;
		if (count < most)
			names[count] = listing->names[i];
		count++;
	}
	return count;
}

/* Removes an earlier run's PREFIX<pid> files and its parts, PREFIX<pid>.<digits>: a file left by
 * a run that failed must never be counted as this run's, whose pid may be the same. */
static int remove_pid_files(const struct listing *listing, const char *directory,
			    const char *prefix)
{
	size_t length = strlen(prefix), i;
	char path[PATH_MAX];
	const char *after;

	for (i = listing_first(listing, prefix);
	     i < listing->count && strncmp(listing->names[i], prefix, length) == 0; i++) {
		const char *rest = listing->names[i] + length;

		/* PREFIX<pid>, PREFIX<pid>.K, and a thread's: PREFIX<pid>-TT, PREFIX<pid>.K-TT. */
		if (!digits_then(rest, 9, '\0', &after) &&
		    !(digits_then(rest, 9, '.', &after) && digits_then(after + 1, 9, '\0', &after)) &&
		    !(digits_then(rest, 9, '-', &after) && digits_then(after + 1, 9, '\0', &after)) &&
		    !(digits_then(rest, 9, '.', &after) && digits_then(after + 1, 9, '-', &after) &&
		      digits_then(after + 1, 9, '\0', &after)))
			continue;
		snprintf(path, sizeof(path), "%s/%s", directory, listing->names[i]);
		if (unlink(path) != 0 && errno != ENOENT)
			return -1;
	}
	return 0;
}

/* Appends valgrind's log of the one process to the run's log (which holds what the program
 * printed), so one file tells what happened. */
static void merge_log(const char *from, const char *into)
{
	FILE *in = fopen(from, "r"), *out = in ? fopen(into, "a") : NULL;
	char buffer[4096];
	size_t got;

	while (in != NULL && out != NULL && (got = fread(buffer, 1, sizeof(buffer), in)) > 0)
		fwrite(buffer, 1, got, out);
	if (out != NULL && fclose(out) == 0)
		unlink(from);
	if (in != NULL)
		fclose(in);
}

/* Puts valgrind's log of each of a run's processes in place: the one whose output was read as
 * `which` under its name (log_paths), the 2N snapshot's into the run's log (which holds what the
 * program printed), and with which = MEASURE_PROCESSES every one left into the run's log, so one
 * file per count tells what happened. */
static void settle_logs(struct run *run, long pid, size_t which,
			const struct measure_options *options)
{
	char from[PATH_MAX];
	size_t i = 0;

	while (i < run->log_count) {
		if (which < MEASURE_PROCESSES && run->log_pids[i] != pid) {
			i++;
			continue;
		}
		snprintf(from, sizeof(from), "%s/%s%ld", options->raw_dir, run->log_prefix,
			 run->log_pids[i]);
		if (which == MEASURE_PROCESSES || which == SLOPE_TWICE_N ||
		    rename(from, run->log_paths[which]) != 0)
			merge_log(from, run->log_path);
		run->log_pids[i] = run->log_pids[--run->log_count];
	}
}

/* After a run: the harness makes MEASURE_PROCESSES processes (a snapshot at each count and the
 * run); more is a process the scenario forked, a measurement failure, and every file stays as
 * evidence. The outputs are kept by their names for read_outputs; a run that failed has every
 * log appended to its own at once. */
static void collect_outputs(struct run *run, const struct listing *listing,
			    const struct measure_options *options)
{
	struct measurement *measurement = run->measurement;
	long logs[MEASURE_PROCESSES + 1] = { 0 }, outputs[MEASURE_PROCESSES + 1] = { 0 };
	size_t log_count = pid_files(listing, run->log_prefix, logs, MEASURE_PROCESSES + 1);
	size_t output_count = pid_files(listing, run->output_prefix, outputs, MEASURE_PROCESSES + 1);
	size_t processes = run->phases ? 1 : MEASURE_PROCESSES, i;

	if (log_count > processes || output_count > processes) {
		bool by_log = log_count > processes;
		const long *pids = by_log ? logs : outputs;
		size_t found = by_log ? log_count : output_count, listed = 0, shown;
		char list[160];

		/* "pids 10, 11 and 12", at most the first processes + 1 of them. */
		shown = found < processes + 1 ? found : processes + 1;
		for (i = 0; i < shown; i++)
			listed += (size_t)snprintf(list + listed, sizeof(list) - listed, "%s%ld",
						   i == 0 ? "" : i + 1 == shown ? " and " : ", ",
						   pids[i]);
		record_failure(measurement, "%s run at %" PRIu64 ": scenario forked: %zu processes ran "
			       "under valgrind where the harness makes %zu (pids %s%s; their logs and "
			       "outputs are %s/%s<pid> and %s/%s<pid>)",
			       tool_names(run->tool), count_of(measurement, SLOPE_TWICE_N), found,
			       processes, list, found > shown ? ", ..." : "", options->raw_dir,
			       run->log_prefix, options->raw_dir, run->output_prefix);
		return;
	}
	memcpy(run->log_pids, logs, log_count * sizeof(*logs));
	run->log_count = log_count;
	/* The one process's parts, by its pid (its end's, else its log's). */
	if (run->phases && (output_count == 1 || log_count == 1)) {
		long pid = output_count == 1 ? outputs[0] : logs[0];
		size_t part;

		const char *ends[MEASURE_THREADS_MAX];
		char first[PATH_MAX];

		run->part_count = part_files(listing, run->output_prefix, pid);
		run->thread_count = thread_end_files(listing, run->output_prefix, pid, ends,
						     MEASURE_THREADS_MAX);
		snprintf(first, sizeof(first), "%s%ld-01", run->output_prefix, pid);
		run->has_end = run->thread_count > 0 && run->thread_count <= MEASURE_THREADS_MAX &&
			       strcmp(ends[0], first) == 0;
		for (part = 1; part < MEASURE_PARTS && part <= run->part_count; part++) {
			if (asprintf(&run->written[run->written_count], "%s/%s%ld.%zu-01",
				     options->raw_dir, run->output_prefix, pid, part) < 0)
				return;
			run->pids[run->written_count++] = pid;
		}
		for (part = 0; run->has_end && part < run->thread_count; part++) {
			if (asprintf(&run->written[run->written_count], "%s/%s", options->raw_dir,
				     ends[part]) < 0)
				return;
			run->pids[run->written_count++] = pid;
		}
		if (output_count == 1 &&
		    asprintf(&run->empty_end, "%s/%s%ld", options->raw_dir, run->output_prefix,
			     outputs[0]) < 0)
			run->empty_end = NULL;
		output_count = 0;
	}
	for (i = 0; i < output_count; i++) {
		if (asprintf(&run->written[run->written_count], "%s/%s%ld", options->raw_dir,
			     run->output_prefix, outputs[i]) < 0)
			continue;
		run->pids[run->written_count++] = outputs[i];
	}
	if (!runner_job_succeeded(&run->job))
		settle_logs(run, 0, MEASURE_PROCESSES, options);
}

/* The run's files, known before its scenario has described itself. */
static int plan_paths(struct run *run, const struct manifest_entry *entry,
		      const struct measure_options *options)
{
	size_t which;

	/* The run's end: its 2N's names and ".end". */
	for (which = 0; which < MEASURE_PROCESSES; which++) {
		enum slope_run count = which == MEASURE_END ? SLOPE_TWICE_N : (enum slope_run)which;

		if (asprintf(&run->output_paths[which], "%s/%s.out.%s.%" PRIu64 "%s%s",
			     options->raw_dir, tool_names(run->tool), entry->name,
			     count_of(run->measurement, count), run->again ? ".again" : "",
			     which == MEASURE_END ? ".end" : "") < 0 ||
		    asprintf(&run->log_paths[which], "%s/%s.log.%s.%" PRIu64 "%s%s", options->raw_dir,
			     tool_names(run->tool), entry->name, count_of(run->measurement, count),
			     run->again ? ".again" : "", which == MEASURE_END ? ".end" : "") < 0)
			return -1;
	}
	/* With phases, callgrind's parts by what they hold: each visit of the region, .start,
	 * .0-1, .1-N, .N-2N, each after the part outside it before it (.outside-start, ...), and
	 * the end's name as above. */
	if (tool_table[run->tool].parser == TOOL_PARSE_CALLGRIND) {
		for (which = 0; which < MEASURE_PART_END; which++) {
			size_t visit = which / 2;
			uint64_t from = visit <= 1 ? 0 : count_of(run->measurement, visit - 2);
			uint64_t to = visit == 0 ? 0 : count_of(run->measurement, visit - 1);
			const char *outside = which % 2 == 0 ? "outside-" : "";

			if ((visit == 0
				     ? asprintf(&run->part_paths[which], "%s/%s.out.%s.%sstart%s",
						options->raw_dir, tool_names(run->tool), entry->name,
						outside, run->again ? ".again" : "")
				     : asprintf(&run->part_paths[which],
						"%s/%s.out.%s.%s%" PRIu64 "-%" PRIu64 "%s",
						options->raw_dir, tool_names(run->tool), entry->name,
						outside, from, to, run->again ? ".again" : "")) < 0)
				return -1;
		}
		if ((run->part_paths[MEASURE_PART_END] = strdup(run->output_paths[MEASURE_END])) == NULL)
			return -1;
	}
	run->log_path = run->log_paths[SLOPE_TWICE_N];
	if (asprintf(&run->output_prefix, "%s.", basename(run->output_paths[SLOPE_TWICE_N])) < 0 ||
	    asprintf(&run->log_prefix, "%s.", basename(run->log_path)) < 0 ||
	    (run->directory = strdup(entry->path)) == NULL)
		return -1;
	return 0;
}

/* An earlier run's file must never pass for this run's: a tool that fails to write its output
 * (DHAT exits 0 then) leaves nothing to read. */
static void clear_outputs(struct run *run, const struct listing *listing,
			  const struct measure_options *options)
{
	size_t which;

	for (which = 0; which < MEASURE_PROCESSES; which++)
		if ((unlink(run->output_paths[which]) != 0 && errno != ENOENT) ||
		    (which != SLOPE_TWICE_N && unlink(run->log_paths[which]) != 0 && errno != ENOENT))
			run->clear_error = errno;
	for (which = 0; which < MEASURE_PARTS; which++)
		if (run->part_paths[which] != NULL && unlink(run->part_paths[which]) != 0 &&
		    errno != ENOENT)
			run->clear_error = errno;
	if (remove_pid_files(listing, options->raw_dir, run->output_prefix) != 0 ||
	    remove_pid_files(listing, options->raw_dir, run->log_prefix) != 0)
		run->clear_error = run->clear_error ? run->clear_error : errno;
}

/* The run's command, once its scenario's declaration (the region) is known. */
static int build_run(struct run *run, const struct measure_options *options)
{
	struct measurement *measurement = run->measurement;
	struct argv_list *argv = &run->argv;
	uint64_t count = count_of(measurement, SLOPE_TWICE_N);
	bool callgrind = tool_table[run->tool].parser == TOOL_PARSE_CALLGRIND;
	size_t i;

	argv_list_add(argv, options->valgrind);
	/* The tool's own options (metrics.h); callgrind's --compress-pos=no gives absolute lines in
	 * the raw file, as ownership reads a line per cost. */
	argv_list_add_all(argv, tool_table[run->tool].options);
	/* Files named by pid (%p): each snapshot's process writes its own, and so would a process
	 * the scenario forks (one too many: collect_outputs); valgrind opens a child's log at the
	 * fork, so a fork shows before the child ends. */
	run->phases = callgrind && measurement->info.phases;
	if (callgrind && run->phases) {
		argv_list_add(argv, "--collect-atstart=yes");
		argv_list_addf(argv, "--callgrind-out-file=%s.%%p", run->output_paths[SLOPE_TWICE_N]);
	} else if (callgrind) {
		argv_list_add(argv, "--collect-atstart=no");
		argv_list_addf(argv, "--toggle-collect=%s", measurement->info.region);
		argv_list_addf(argv, "--callgrind-out-file=%s.%%p", run->output_paths[SLOPE_TWICE_N]);
	} else {
		argv_list_addf(argv, "--num-callers=%d", MEASURE_NUM_CALLERS);
		argv_list_addf(argv, "--dhat-out-file=%s.%%p", run->output_paths[SLOPE_TWICE_N]);
	}
	argv_list_addf(argv, "--log-file=%s.%%p", run->log_path);
	/* One process, a part dumped each time the region is entered and each time it is left: no
	 * forked snapshot, whose fork and exit cost a valgrind process a third again. */
	if (run->phases) {
		argv_list_add(argv, "--separate-threads=yes");
		argv_list_addf(argv, "--dump-before=%s", measurement->info.region);
		argv_list_addf(argv, "--dump-after=%s", measurement->info.region);
	}
	argv_list_add_all(argv, (const char *const[]){ "--vgdb=no", "--trace-children=no", NULL });
	/* Fixed argv: run from the executable's directory as ./NAME, so the path a checkout
	 * lives at never reaches the program's stack. */
	argv_list_addf(argv, "./%s", basename(run->directory));
	argv_list_add(argv, run->phases ? "--phases" : "--snapshots");
	argv_list_addf(argv, "%" PRIu64 ",%" PRIu64 ",%" PRIu64, count_of(measurement, SLOPE_ONE),
		       count_of(measurement, SLOPE_N), count);
	argv_list_addf(argv, "%" PRIu64, count);
	if (argv_list_vector(argv) == NULL)
		return -1;
	/* With phases each count's output is the region's part that ends there. */
	for (i = 0; run->phases && i < SLOPE_RUNS; i++) {
		char *swap = run->output_paths[i];

		run->output_paths[i] = run->part_paths[MEASURE_PART_REGION(i + 1)];
		run->part_paths[MEASURE_PART_REGION(i + 1)] = swap;
	}
	run->job.argv = argv_list_vector(argv);
	run->job.directory = dirname(run->directory);
	run->job.log_path = run->log_path;
	return 0;
}

static void release_run(struct run *run)
{
	size_t i;

	argv_list_release(&run->argv);
	for (i = 0; i < MEASURE_PROCESSES; i++) {
		free(run->output_paths[i]);
		free(run->log_paths[i]);
	}
	for (i = 0; i < MEASURE_FILES; i++)
		free(run->written[i]);
	for (i = 0; i < MEASURE_PARTS; i++)
		free(run->part_paths[i]);
	free(run->output_prefix);
	free(run->log_prefix);
	free(run->directory);
	free(run->empty_end);
}

/* For -v: the run as a person would retype it (display only; runs never go through a shell). */
static void print_command(const struct run *run, const struct measure_options *options)
{
	char *const *environment = measure_environment();
	char *text = NULL;
	size_t size = 0, i;
	FILE *line = open_memstream(&text, &size);

	if (line == NULL)
		return;
	fprintf(line, "gate: run: cd '%s' && env -i", run->job.directory);
	for (i = 0; environment[i] != NULL; i++)
		fprintf(line, " '%s'", environment[i]);
	fprintf(line, " setarch -R");
	for (i = 0; i < run->argv.count; i++)
		fprintf(line, " %s", run->argv.items[i]);
	if (fclose(line) == 0)
		say_line(&options->say, "%s", text);
	free(text);
}

/* The deadline of a run, from its start (MEASURE_BUDGET_*), asked again at each snapshot the
 * harness reports (job->marks): the floor until the first delivery is done, the ceiling for the
 * phase to N, then what that phase took, times the factor, for the phase to 2N. */
static double run_budget(const struct runner_job *job, void *context)
{
	const struct measure_options *options = context;
	double budget, phase;

	if (!options->scaled_timeouts)
		return options->timeout_seconds;
	if (job->marks == 0)
		return MEASURE_BUDGET_FLOOR;
	if (job->marks == 1)
		return options->timeout_seconds;
	phase = job->mark_seconds[1] - job->mark_seconds[0];
	budget = MEASURE_BUDGET_FACTOR * phase;
	if (budget < MEASURE_BUDGET_FLOOR)
		budget = MEASURE_BUDGET_FLOOR;
	budget = ceil(budget + job->mark_seconds[1]);
	if (options->timeout_seconds > 0 && budget > options->timeout_seconds)
		budget = options->timeout_seconds;
	return budget;
}

static void report_progress(const struct runner_job *job, size_t remaining, void *context)
{
	const struct measure_options *options = context;
	const struct run *run = job->context;
	char how[200];

	if (options->verbosity < 1 ||
	    (job->skipped && !metric_tool_wanted(run->tool, &run->measurement->info,
						 options->every_metric)))
		return;
	runner_describe_end(job, options->timeout_seconds, how, sizeof(how));
	say_line(&options->say, "gate: %s %s %" PRIu64 "%s: %s in %.1f s, %zu to go",
		run->measurement->info.name, tool_names(run->tool),
		count_of(run->measurement, SLOPE_TWICE_N), run->again ? " (again)" : "", how,
		job->seconds, remaining);
}

/* A count's slope from 1 to N (slope.h's per_message_early): (count(N) - count(1)) / (N - 1). */
static double early_per_message(uint64_t at_one, uint64_t at_n, uint64_t messages)
{
	return ((double)at_n - (double)at_one) / (double)(messages - 1);
}

/* Exclusive, inclusive and own-plus-library per message of every owner (ownership.h) seen in
 * the N or 2N run. */
static int compute_owned(struct measurement *measurement, const struct ownership *owned)
{
	const struct ownership *n = &owned[SLOPE_N], *twice = &owned[SLOPE_TWICE_N];
	size_t capacity = n->count + twice->count, i;
	uint64_t messages = measurement->messages;

	measurement->functions = calloc(capacity ? capacity : 1, sizeof(*measurement->functions));
	if (measurement->functions == NULL)
		return -1;
	for (i = 0; i < capacity; i++) {
		const struct owned_cost *in_twice = i < twice->count ? &twice->costs[i] : NULL;
		const struct owned_cost *in_n, *cold, *any;
		const char *name;
		bool project, harness;
		struct function_cost *cost;

		if (in_twice == NULL) { /* owners of the N run that the 2N run lacks */
			name = n->costs[i - twice->count].name;
			project = n->costs[i - twice->count].project;
			harness = n->costs[i - twice->count].harness;
			if (ownership_find(twice, name, project, harness) != NULL)
				continue;
		} else {
			name = in_twice->name;
			project = in_twice->project;
			harness = in_twice->harness;
		}
		in_n = ownership_find(n, name, project, harness);
		cold = ownership_find(&owned[SLOPE_ONE], name, project, harness);
		any = in_twice ? in_twice : in_n;
		cost = &measurement->functions[measurement->function_count];
		cost->exclusive = slope_per_message(in_n ? in_n->exclusive : 0,
						    in_twice ? in_twice->exclusive : 0, messages);
		cost->inclusive = slope_per_message(in_n ? in_n->inclusive : 0,
						    in_twice ? in_twice->inclusive : 0, messages);
		cost->with_library = slope_per_message(in_n ? in_n->with_library : 0,
						       in_twice ? in_twice->with_library : 0, messages);
		cost->with_library_early = early_per_message(cold ? cold->with_library : 0,
							     in_n ? in_n->with_library : 0, messages);
		cost->syscalls = slope_per_message(in_n ? in_n->syscalls : 0,
						   in_twice ? in_twice->syscalls : 0, messages);
		cost->cold_exclusive = cold ? cold->exclusive : 0;
		cost->cold_syscalls = cold ? cold->syscalls : 0;
		cost->project = any->project;
		cost->harness = harness;
		if (cost->exclusive == 0 && cost->inclusive == 0 && cost->cold_exclusive == 0 &&
		    cost->syscalls == 0 && cost->cold_syscalls == 0)
			continue;
		cost->name = strdup(name);
		if (cost->name == NULL)
			return -1;
		measurement->function_count++;
	}
	return 0;
}

static int compute_functions(struct measurement *measurement, const struct cg_profile *profiles)
{
	struct ownership owned[SLOPE_RUNS] = { OWNERSHIP_INIT, OWNERSHIP_INIT, OWNERSHIP_INIT };
	struct ownership_objects objects = { 0 };
	size_t which;
	int status = -1;

	for (which = 0; which < SLOPE_RUNS; which++)
		if (ownership_compute(&owned[which], &profiles[which], &objects) != 0)
			goto out;
	status = compute_owned(measurement, owned);
out:
	for (which = 0; which < SLOPE_RUNS; which++)
		ownership_release(&owned[which]);
	ownership_objects_release(&objects);
	return status;
}

/* One line's cost in one of the N and 2N runs, while they are gathered. */
struct line_entry {
	const char *file;     /* points into the profile */
	uint64_t line;
	char *function;       /* recursion level dropped; owned */
	uint64_t cost[2];     /* at N and at 2N */
};

static int compare_line_entries(const void *left, const void *right)
{
	const struct line_entry *a = left, *b = right;
	int order = strcmp(a->file, b->file);

	if (order != 0)
		return order;
	if (a->line != b->line)
		return a->line < b->line ? -1 : 1;
	return strcmp(a->function, b->function);
}

/* The project's source lines per message (measurement.h): every line callgrind counts under a
 * function outside the system's libraries, at N and at 2N, own instructions and system-library
 * callees' but the allocator's, as ownership.h counts a function. The file names are callgrind's
 * (absolute); measurement_place_lines names them in the repository. */
static void line_entry_release(struct line_entry *entry)
{
	free(entry->function);
}

static int compute_lines(struct measurement *measurement, const struct cg_profile *profiles)
{
	const struct cg_profile *runs[2] = { &profiles[SLOPE_N], &profiles[SLOPE_TWICE_N] };
	struct line_entry *entries = NULL;
	size_t count = 0, capacity = 0, run, f, l, i;
	int status = -1;

	for (run = 0; run < 2; run++) {
		for (f = 0; f < runs[run]->function_count; f++) {
			const struct cg_function *function = &runs[run]->functions[f];

			if (cg_object_is_system(function->object))
				continue;
			for (l = 0; l < function->line_count; l++) {
				const struct cg_line *line = &function->lines[l];
				struct line_entry *entry;

				if (line->line == 0 || line->file >= runs[run]->file_count ||
				    runs[run]->files[line->file][0] != '/')
					continue;
				if (ARRAY_GROW(entries, capacity, count, 256) != 0)
					goto out;
				entry = &entries[count];
				entry->file = runs[run]->files[line->file];
				entry->line = line->line;
				entry->function = strndup(function->name,
							  strcspn(function->name, "'"));
				if (entry->function == NULL)
					goto out;
				entry->cost[run] = line->exclusive + line->library_calls -
						   line->allocator_calls;
				entry->cost[1 - run] = 0;
				count++;
			}
		}
	}
	if (count > 1)
		qsort(entries, count, sizeof(*entries), compare_line_entries);
	measurement->lines = calloc(count ? count : 1, sizeof(*measurement->lines));
	if (measurement->lines == NULL)
		goto out;
	for (i = 0; i < count;) {
		uint64_t at[2] = { 0, 0 };
		size_t j;
		double per_message;
		struct line_cost *cost;

		for (j = i; j < count && compare_line_entries(&entries[i], &entries[j]) == 0; j++) {
			at[0] += entries[j].cost[0];
			at[1] += entries[j].cost[1];
		}
		per_message = slope_per_message(at[0], at[1], measurement->messages);
		if (per_message != 0) {
			cost = &measurement->lines[measurement->line_count];
			cost->file = strdup(entries[i].file);
			cost->function = strdup(entries[i].function);
			cost->line = entries[i].line;
			cost->instructions = per_message;
			if (cost->file == NULL || cost->function == NULL) {
				free(cost->file);
				free(cost->function);
				goto out;
			}
			measurement->line_count++;
		}
		i = j;
	}
	status = 0;
out:
	ARRAY_RELEASE(entries, count, line_entry_release);
	return status;
}

static int compare_functions(const void *left, const void *right)
{
	const struct function_cost *a = left, *b = right;

	if (a->exclusive != b->exclusive)
		return a->exclusive > b->exclusive ? -1 : 1;
	return strcmp(a->name, b->name);
}

static const struct dhat_site *find_site(const struct dhat_profile *profile,
					 const struct dhat_site *like)
{
	size_t i;

	for (i = 0; i < profile->site_count; i++)
		if (strcmp(profile->sites[i].location, like->location) == 0 &&
		    strcmp(profile->sites[i].stack, like->stack) == 0)
			return &profile->sites[i];
	return NULL;
}

/* Blocks and bytes per message of every allocation site of the three runs. */
static int compute_sites(struct measurement *measurement, const struct dhat_profile *profiles)
{
	size_t capacity = 0, run, i;
	uint64_t messages = measurement->messages;

	for (run = 0; run < SLOPE_RUNS; run++)
		capacity += profiles[run].site_count;
	measurement->sites = calloc(capacity ? capacity : 1, sizeof(*measurement->sites));
	if (measurement->sites == NULL)
		return -1;
	for (run = 0; run < SLOPE_RUNS; run++) {
		for (i = 0; i < profiles[run].site_count; i++) {
			const struct dhat_site *site = &profiles[run].sites[i], *other, *in_n;
			struct site_cost *cost = &measurement->sites[measurement->site_count];
			size_t earlier;
			bool seen = false;

			for (earlier = 0; earlier < run && !seen; earlier++)
				seen = find_site(&profiles[earlier], site) != NULL;
			if (seen)
				continue;
			other = find_site(&profiles[SLOPE_TWICE_N], site);
			in_n = find_site(&profiles[SLOPE_N], site);
			cost->blocks = slope_per_message(in_n ? in_n->blocks : 0,
							 other ? other->blocks : 0, messages);
			cost->bytes = slope_per_message(in_n ? in_n->bytes : 0,
							other ? other->bytes : 0, messages);
			other = find_site(&profiles[SLOPE_ONE], site);
			cost->cold_blocks = other ? other->blocks : 0;
			cost->cold_bytes = other ? other->bytes : 0;
			cost->location = strdup(site->location);
			cost->stack = strdup(site->stack);
			if (cost->location == NULL || cost->stack == NULL)
				return -1;
			measurement->site_count++;
		}
	}
	return 0;
}

static int compare_sites(const void *left, const void *right)
{
	const struct site_cost *a = left, *b = right;
	int order;

	if (a->blocks != b->blocks)
		return a->blocks > b->blocks ? -1 : 1;
	if (a->cold_blocks != b->cold_blocks)
		return a->cold_blocks > b->cold_blocks ? -1 : 1;
	order = strcmp(a->location, b->location);
	return order != 0 ? order : strcmp(a->stack, b->stack);
}

/* The runs must have ended well and their files must parse; the region must have been entered.
 * Returns -1 after recording the failure in the measurement. */
/* What valgrind said before it gave up, from a run's log: the lines it starts with "Valgrind: "
 * (after its "==PID== ") or "valgrind: ", joined into `text` ("" when none), and its version from
 * the log's banner ("Using Valgrind-3.19.0") into `version` ("" when none). The log also holds
 * what the program printed: the text is quoted as a reason, never acted on. */
static void valgrind_fatal(const char *log_path, char *text, size_t size, char *version,
			   size_t version_size)
{
	char *log = NULL, *line, *saved = NULL;
	size_t length = 0, used = 0;

	text[0] = version[0] = '\0';
	if (log_path == NULL || fs_read_file(log_path, 4 * RUNNER_LOG_KEEP, &log, &length) != 0)
		return;
	for (line = strtok_r(log, "\n", &saved); line != NULL; line = strtok_r(NULL, "\n", &saved)) {
		const char *said = line, *banner = strstr(line, "Using Valgrind-");

		if (banner != NULL && version[0] == '\0')
			snprintf(version, version_size, "%.*s", (int)strcspn(banner + 15, " \t"),
				 banner + 15);
		if (said[0] == '=' && said[1] == '=' && (said = strstr(said + 2, "== ")) != NULL)
			said += 3;
		else
			said = line;
		if (strncmp(said, "Valgrind: ", 10) != 0 && strncmp(said, "valgrind: ", 10) != 0)
			continue;
		said += 10;
		said += strspn(said, " ");
		if (*said != '\0' && used + 1 < size)
			used += (size_t)snprintf(text + used, size - used, "%s%s", used > 0 ? " " : "",
						 said);
	}
	free(log);
}

/* After valgrind gave up on its debug reader: which of the scenario's objects hold DWARF that
 * clang wrote at version 5 (valgrind before 3.20 cannot read it), and the flag that fixes it,
 * into `text`; "" when none does. */
static void explain_debuginfo(const struct measurement *measurement, const char *version,
			      char *text, size_t size)
{
	char objects[512] = "", producer[sizeof(((struct debuginfo_units *)0)->producer)] = "";
	size_t used = 0, i;
	struct debuginfo_units units;

	text[0] = '\0';
	for (i = 0; i < measurement->seal.count; i++) {
		const char *path = measurement->seal.files[i].path, *name = strrchr(path, '/');

		if (debuginfo_units_read(path, &units) != 0 || units.clang_dwarf5 == 0)
			continue;
		/* "Debian clang version 14.0.6", without the command line -grecord-command-line
		 * appends to it. */
		if (producer[0] == '\0')
			snprintf(producer, sizeof(producer), "%.*s",
				 (int)(strstr(units.producer, " /") != NULL
					       ? strstr(units.producer, " /") - units.producer
					       : (ptrdiff_t)strlen(units.producer)),
				 units.producer);
		if (used + 1 < sizeof(objects))
			used += (size_t)snprintf(objects + used, sizeof(objects) - used,
						 "%s%s %zu of %zu units", used > 0 ? ", " : "",
						 name != NULL ? name + 1 : path, units.clang_dwarf5,
						 units.units);
	}
	if (used > 0)
		snprintf(text, size, "the objects hold DWARF 5 written by clang (%s; %s), which "
			 "valgrind %s cannot read (3.20 can): build them with -gdwarf-4 "
			 "(docs/adopting.md, clang)", objects, producer,
			 version[0] != '\0' ? version : "before 3.20");
}

static int check_run(struct measurement *measurement, const struct run *run,
		     const struct measure_options *options)
{
	char how[200], fatal[400], version[32], why[900];

	if (runner_job_succeeded(&run->job) && run->clear_error == 0)
		return 0;
	if (runner_job_succeeded(&run->job)) {
		record_failure(measurement, "%s run at %" PRIu64 ": cannot remove an earlier output "
			       "file in %s: %s", tool_names(run->tool),
			       count_of(measurement, SLOPE_TWICE_N), run->log_path,
			       strerror(run->clear_error));
		return -1;
	}
	runner_describe_end(&run->job, options->timeout_seconds, how, sizeof(how));
	valgrind_fatal(run->log_path, fatal, sizeof(fatal), version, sizeof(version));
	if (fatal[0] != '\0' && strstr(fatal, "debuginfo") != NULL)
		explain_debuginfo(measurement, version, why, sizeof(why));
	else
		why[0] = '\0';
	if (run->log_path != NULL && fatal[0] != '\0')
		record_failure(measurement, "%s run at %" PRIu64 " %s: valgrind%s%s: %s%s%s (log: %s)",
			       tool_names(run->tool), count_of(measurement, SLOPE_TWICE_N), how,
			       version[0] != '\0' ? " " : "", version, fatal, why[0] != '\0' ? "; " : "",
			       why, run->log_path);
	else if (run->log_path != NULL)
		record_failure(measurement, "%s run at %" PRIu64 " %s (log: %s)", tool_names(run->tool),
			       count_of(measurement, SLOPE_TWICE_N), how, run->log_path);
	else
		record_failure(measurement, "%s run at %" PRIu64 " %s", tool_names(run->tool),
			       count_of(measurement, SLOPE_TWICE_N), how);
	return -1;
}

/* check_run on each of `runs`, the ones that ran first: a run that failed is named before the
 * runs skipped because of it. */
static int check_runs(struct measurement *measurement, struct run *const *runs, size_t count,
		      const struct measure_options *options)
{
	size_t pass, i;

	for (pass = 0; pass < 2; pass++)
		for (i = 0; i < count; i++)
			if ((pass == 1 || !runs[i]->job.skipped) &&
			    check_run(measurement, runs[i], options) != 0)
				return -1;
	return 0;
}

/* One run's output, parsed by its tool's reader. */
struct parsed_run {
	struct cg_profile callgrind;
	struct dhat_profile dhat;
};

static void parsed_release(struct parsed_run *parsed)
{
	cg_profile_release(&parsed->callgrind);
	dhat_profile_release(&parsed->dhat);
}

/* Parses a run's file by its tool's reader. Returns -1 after recording the failure. */
static int parse_output(struct measurement *measurement, const struct run *run, const char *path,
			struct parsed_run *parsed)
{
	struct gate_error err = GATE_ERROR_INIT;
	int status = tool_table[run->tool].parser == TOOL_PARSE_CALLGRIND
			     ? cg_profile_parse(&parsed->callgrind, path, &err)
			     : dhat_profile_parse(&parsed->dhat, path, measurement->info.region, &err);

	if (status != 0)
		record_failure(measurement, "%s run at %" PRIu64 ": %s", tool_names(run->tool),
			       count_of(measurement, SLOPE_TWICE_N), err.message);
	return status;
}

/* Checks what every run of its tool must show in a parsed output (`path` names it); then reads
 * every metric of the tool into counts[metric] (others untouched). Returns -1 after recording
 * the failure. */
static int read_run(struct measurement *measurement, const struct run *run, const char *path,
		    struct parsed_run *parsed, uint64_t counts[METRIC_COUNT])
{
	struct tool_output output = { &parsed->callgrind, &parsed->dhat, measurement->info.region };
	const char *name = tool_names(run->tool);
	uint64_t count = count_of(measurement, SLOPE_TWICE_N);
	size_t metric;

	if (tool_table[run->tool].parser == TOOL_PARSE_CALLGRIND) {
		if (parsed->callgrind.total == 0 ||
		    cg_profile_find(&parsed->callgrind, measurement->info.region) == NULL) {
			record_failure(measurement, "%s run at %" PRIu64 ": the region '%s' "
				       "was never entered (%" PRIu64 " instructions collected, file %s)",
				       name, count, measurement->info.region, parsed->callgrind.total,
				       path);
			return -1;
		}
	} else {
		const struct dhat_profile *dhat = &parsed->dhat;

		if (dhat->deepest_stack >= MEASURE_NUM_CALLERS) {
			record_failure(measurement, "%s run at %" PRIu64 ": a stack reached %d frames, "
				       "so the region frame may have been cut off (file %s)", name,
				       count, MEASURE_NUM_CALLERS, path);
			return -1;
		}
		/* The harness allocates its queue whatever the scenario does: a profile without a
		 * single allocation did not come from this run. */
		if (dhat->all_blocks == 0) {
			record_failure(measurement, "%s run at %" PRIu64 ": the profile records no "
				       "allocation at all, not even the queue's (file %s)", name, count,
				       path);
			return -1;
		}
		if (dhat->instructions == 0) {
			record_failure(measurement, "%s run at %" PRIu64 ": the profile counts no "
				       "instructions of the process ('te' in 'instrs') (file %s)", name,
				       count, path);
			return -1;
		}
	}
	for (metric = 0; metric < METRIC_COUNT; metric++) {
		const char *why = "";

		if (metric_table[metric].tool != run->tool)
			continue;
		if (metric_table[metric].read(&output, &counts[metric], &why) != 0) {
			record_failure(measurement, "%s run at %" PRIu64 ": no %s: %s (file %s)", name,
				       count, metric_table[metric].title, why, path);
			return -1;
		}
	}
	return 0;
}

/* The process's count that grows with every phase: what orders the snapshots. */
static uint64_t progress_of(const struct run *run, const struct parsed_run *parsed)
{
	return tool_table[run->tool].parser == TOOL_PARSE_CALLGRIND ? parsed->callgrind.total
								     : parsed->dhat.instructions;
}

/* One message's call tree (flame.h) from the region's N..2N part, which holds N messages. */
static int read_flame(struct measurement *measurement, const struct cg_profile *part)
{
	struct flame flame;

	if (flame_from_profile(&flame, part, measurement->info.region, measurement->messages) != 0) {
		record_failure(measurement, "out of memory");
		return -1;
	}
	flame_frames_release(measurement->frames, measurement->frame_count);
	measurement->frames = flame.frames;
	measurement->frame_count = flame.count;
	return 0;
}

static int compare_fill(const void *left, const void *right)
{
	const struct function_cost *a = left, *b = right;

	if (a->with_library != b->with_library)
		return a->with_library > b->with_library ? -1 : 1;
	return strcmp(a->name, b->name);
}

/* The fill before the last drain: the outside part before N..2N (the body generator making N
 * messages, the harness queueing them), per message, and the project's functions in it, the
 * harness's own apart, the dearest MEASUREMENT_FILL_ROWS (measurement.h). */
static int compute_fill(struct measurement *measurement, const struct cg_profile *outside)
{
	struct ownership owned = OWNERSHIP_INIT;
	struct ownership_objects objects = { 0 };
	double messages = (double)measurement->messages;
	size_t i, count = 0;
	int status = -1;

	measurement->fill_per_message = (double)outside->total / messages;
	measurement->has_fill = true;
	if (ownership_compute(&owned, outside, &objects) != 0)
		goto out;
	measurement->fill_functions = calloc(owned.count ? owned.count : 1,
					     sizeof(*measurement->fill_functions));
	if (measurement->fill_functions == NULL)
		goto out;
	for (i = 0; i < owned.count; i++) {
		const struct owned_cost *cost = &owned.costs[i];
		struct function_cost *fill = &measurement->fill_functions[count];

		if (!cost->project || cost->harness || cost->with_library == 0)
			continue;
		fill->name = strdup(cost->name);
		if (fill->name == NULL)
			goto out;
		fill->exclusive = (double)cost->exclusive / messages;
		fill->inclusive = (double)cost->inclusive / messages;
		fill->with_library = (double)cost->with_library / messages;
		fill->with_library_early = fill->with_library;
		fill->project = true;
		count++;
	}
	qsort(measurement->fill_functions, count, sizeof(*measurement->fill_functions),
	      compare_fill);
	for (i = MEASUREMENT_FILL_ROWS; i < count; i++)
		free(measurement->fill_functions[i].name);
	measurement->fill_function_count = count < MEASUREMENT_FILL_ROWS ? count
									 : MEASUREMENT_FILL_ROWS;
	count = measurement->fill_function_count;
	status = 0;
out:
	if (status != 0) {
		for (i = 0; i < count; i++)
			free(measurement->fill_functions[i].name);
		free(measurement->fill_functions);
		measurement->fill_functions = NULL;
		measurement->fill_function_count = 0;
	}
	ownership_release(&owned);
	ownership_objects_release(&objects);
	return status;
}

/* read_outputs for a run with phases: its parts, each parsed; the region's visits summed up to
 * each count (the service start and the drain to 1, then to N, then to 2N) into parsed[which],
 * read as one output would be; the end into *end. The whole process up to each count, every
 * part before it summed, and its exit (the end's part) into the measurement's process figures:
 * callgrind's count of the program whose region it counted. Each part then takes its name
 * (part_paths, output_paths). Returns -1 after recording the failure. */
static int read_parts(struct measurement *measurement, struct run *run,
		      struct parsed_run parsed[SLOPE_RUNS], uint64_t counts[SLOPE_RUNS][METRIC_COUNT],
		      struct parsed_run *end, const struct measure_options *options)
{
	struct parsed_run read[MEASURE_PARTS];
	struct gate_error err = GATE_ERROR_INIT;
	const char *name = tool_names(run->tool);
	uint64_t count = count_of(measurement, SLOPE_TWICE_N), process = 0, exit_instructions;
	/* The process's figures and the call tree are the callgrind run's (gate merge --check-raw
	 * reads them back from its files): the cache simulation's run of the same program must match
	 * it inside the region only, and --verify's second run is compared, not recorded. */
	bool counts_process = run->tool == TOOL_CALLGRIND && !run->again;
	size_t i, which;
	int status = -1;

	memset(read, 0, sizeof(read));
	if (run->part_count != MEASURE_PARTS - 1 || !run->has_end ||
	    run->written_count != MEASURE_PARTS - 1 + run->thread_count) {
		settle_logs(run, 0, MEASURE_PROCESSES, options);
		if (run->part_count != MEASURE_PARTS - 1)
			record_failure(measurement, "%s run at %" PRIu64 ": %zu parts where the harness's "
				       "phases make %d: the region was entered and left %s often than "
				       "the harness enters and leaves it (log: %s)", name, count,
				       run->part_count, MEASURE_PARTS - 1,
				       run->part_count < MEASURE_PARTS - 1 ? "less" : "more",
				       run->log_path);
		else
			record_failure(measurement, "%s run at %" PRIu64 ": %d parts and no end: "
				       "callgrind did not write the program's end (log: %s)", name,
				       count, MEASURE_PARTS - 1, run->log_path);
		return -1;
	}
	for (i = 0; i < MEASURE_PARTS; i++)
		if (parse_output(measurement, run, run->written[i], &read[i]) != 0)
			goto out;
	process = read[MEASURE_PART_OUTSIDE(0)].callgrind.total + read[MEASURE_PART_START].callgrind.total;
	for (which = 0; which < SLOPE_RUNS; which++) {
		const struct cg_profile *before = which == 0 ? &read[MEASURE_PART_START].callgrind
							     : &parsed[which - 1].callgrind;
		size_t part = MEASURE_PART_REGION(which + 1);

		if (cg_profile_add(&parsed[which].callgrind, before, &err) != 0 ||
		    cg_profile_add(&parsed[which].callgrind, &read[part].callgrind, &err) != 0) {
			record_failure(measurement, "%s run at %" PRIu64 ": %s (files %s, %s)", name,
				       count, err.message, run->written[part - 2],
				       run->written[part]);
			goto out;
		}
		if (read_run(measurement, run, run->written[part], &parsed[which],
			     counts[which]) != 0)
			goto out;
		process += read[part - 1].callgrind.total + read[part].callgrind.total;
		if (counts_process)
			measurement->process_instructions[which] = process;
	}
	if (counts_process &&
	    compute_fill(measurement, &read[MEASURE_PART_OUTSIDE(SLOPE_RUNS)].callgrind) != 0) {
		record_failure(measurement, "out of memory");
		goto out;
	}
	if (counts_process &&
	    read_flame(measurement, &read[MEASURE_PART_REGION(SLOPE_RUNS)].callgrind) != 0)
		goto out;
	/* The exit: the region's thread's end, and every other thread's whole work, which only
	 * its end holds. */
	exit_instructions = read[MEASURE_PART_END].callgrind.total;
	for (i = MEASURE_PARTS; i < run->written_count; i++) {
		struct parsed_run thread;

		memset(&thread, 0, sizeof(thread));
		if (parse_output(measurement, run, run->written[i], &thread) != 0)
			goto out;
		exit_instructions += thread.callgrind.total;
		parsed_release(&thread);
	}
	if (counts_process) {
		measurement->process_exit = exit_instructions;
		measurement->process_counted = true;
	}
	for (i = 0; i < MEASURE_PARTS; i++) {
		const char *to = i == MEASURE_PART_END ? run->output_paths[MEASURE_END]
			       : i % 2 == 1 && i != MEASURE_PART_START
				       ? run->output_paths[(i - 1) / 2 - 1]
				       : run->part_paths[i];

		if (rename(run->written[i], to) != 0) {
			record_failure(measurement, "%s run at %" PRIu64 ": cannot rename '%s': %s",
				       name, count, run->written[i], strerror(errno));
			goto out;
		}
	}
	/* Every other thread's end beside the run's, ".end-thread-TT". */
	for (i = MEASURE_PARTS; i < run->written_count; i++) {
		char *to = NULL;
		const char *thread = strrchr(run->written[i], '-');

		if (thread == NULL ||
		    asprintf(&to, "%s-thread%s", run->output_paths[MEASURE_END], thread) < 0 ||
		    rename(run->written[i], to) != 0) {
			record_failure(measurement, "%s run at %" PRIu64 ": cannot rename '%s'", name,
				       count, run->written[i]);
			free(to);
			goto out;
		}
		free(to);
	}
	if (run->empty_end != NULL)
		unlink(run->empty_end);
	if (end != NULL) {
		*end = read[MEASURE_PART_END];
		memset(&read[MEASURE_PART_END], 0, sizeof(read[MEASURE_PART_END]));
	}
	status = 0;
out:
	settle_logs(run, 0, MEASURE_PROCESSES, options);
	for (i = 0; i < MEASURE_PARTS; i++)
		parsed_release(&read[i]);
	if (status != 0)
		for (which = 0; which < SLOPE_RUNS; which++)
			parsed_release(&parsed[which]);
	return status;
}

/* Reads the outputs of a run's processes (read_run on each) into parsed[which] and
 * counts[which], in the order of their counts: each phase adds deliveries, so the snapshot at 1,
 * the one at N and the one at 2N count strictly more, whichever pid each got, and the run's end
 * counts no less than the last (the same region, and its exit). The end goes to *end (may be
 * NULL). Each file then takes its name (output_paths). Returns -1 after recording the failure. */
static int read_outputs(struct measurement *measurement, struct run *run,
			struct parsed_run parsed[SLOPE_RUNS], uint64_t counts[SLOPE_RUNS][METRIC_COUNT],
			struct parsed_run *end, const struct measure_options *options)
{
	size_t order[MEASURE_PROCESSES], i, j;
	struct parsed_run read[MEASURE_PROCESSES];
	uint64_t read_counts[MEASURE_PROCESSES][METRIC_COUNT];
	int status = -1;

	if (run->phases)
		return read_parts(measurement, run, parsed, counts, end, options);
	memset(read, 0, sizeof(read));
	memset(read_counts, 0, sizeof(read_counts));
	if (run->written_count != MEASURE_PROCESSES) {
		settle_logs(run, 0, MEASURE_PROCESSES, options);
		record_failure(measurement, "%s run at %" PRIu64 ": %zu of its processes wrote an "
			       "output where the harness makes %d, a snapshot at %" PRIu64 ", %" PRIu64
			       " and %" PRIu64 " deliveries and the run (a harness without "
			       "--snapshots? log: %s)", tool_names(run->tool),
			       count_of(measurement, SLOPE_TWICE_N), run->written_count,
			       MEASURE_PROCESSES, count_of(measurement, SLOPE_ONE),
			       count_of(measurement, SLOPE_N), count_of(measurement, SLOPE_TWICE_N),
			       run->log_path);
		return -1;
	}
	for (i = 0; i < MEASURE_PROCESSES; i++) {
		order[i] = i;
		if (parse_output(measurement, run, run->written[i], &read[i]) != 0 ||
		    read_run(measurement, run, run->written[i], &read[i], read_counts[i]) != 0)
			goto out;
	}
	for (i = 1; i < MEASURE_PROCESSES; i++)
		for (j = i; j > 0 && progress_of(run, &read[order[j]]) <
					     progress_of(run, &read[order[j - 1]]); j--) {
			size_t swap = order[j];

			order[j] = order[j - 1];
			order[j - 1] = swap;
		}
	for (i = 1; i < SLOPE_RUNS; i++) {
		if (progress_of(run, &read[order[i]]) == progress_of(run, &read[order[i - 1]])) {
			record_failure(measurement, "%s run at %" PRIu64 ": two of its processes counted "
				       "the same %" PRIu64 " instructions, so they are not snapshots at "
				       "two counts of %" PRIu64 ", %" PRIu64 " and %" PRIu64 " (%s, %s)",
				       tool_names(run->tool), count_of(measurement, SLOPE_TWICE_N),
				       progress_of(run, &read[order[i]]), count_of(measurement, SLOPE_ONE),
				       count_of(measurement, SLOPE_N), count_of(measurement, SLOPE_TWICE_N),
				       run->written[order[i - 1]], run->written[order[i]]);
			goto out;
		}
	}
	for (i = 0; i < MEASURE_PROCESSES; i++) {
		if (rename(run->written[order[i]], run->output_paths[i]) != 0) {
			record_failure(measurement, "%s run at %" PRIu64 ": cannot rename '%s': %s",
				       tool_names(run->tool), count_of(measurement, SLOPE_TWICE_N),
				       run->written[order[i]], strerror(errno));
			goto out;
		}
		settle_logs(run, run->pids[order[i]], i, options);
		if (i == MEASURE_END) {
			if (end != NULL) {
				*end = read[order[i]];
				memset(&read[order[i]], 0, sizeof(read[order[i]]));
			}
			continue;
		}
		parsed[i] = read[order[i]];
		memcpy(counts[i], read_counts[order[i]], sizeof(counts[i]));
		memset(&read[order[i]], 0, sizeof(read[order[i]]));
	}
	status = 0;
out:
	settle_logs(run, 0, MEASURE_PROCESSES, options);
	for (i = 0; i < MEASURE_PROCESSES; i++)
		parsed_release(&read[i]);
	return status;
}

/* Fails closed when the slope from 1 to N and the one from N to 2N disagree beyond the limit:
 * the per-message figure would then depend on N and is not the steady state (rule 7). */
static int check_linearity(struct measurement *measurement, const struct slope *slope,
			   const char *what)
{
	double limit = measurement->info.linearity_percent > 0 ? measurement->info.linearity_percent
							       : SLOPE_LINEARITY_LIMIT_PERCENT;

	if (slope->linearity_percent <= limit)
		return 0;
	record_failure(measurement, "not linear: %s per message are %.3f from 1 to N and %.3f from N "
		       "to 2N (N = %" PRIu64 "), %.2f %% apart, above the %g %% limit", what,
		       slope->per_message_early, slope->per_message, measurement->messages,
		       slope->linearity_percent, limit);
	return -1;
}

static int compute_slopes(struct measurement *measurement)
{
	struct gate_error err = GATE_ERROR_INIT;

	if (measurement_compute(measurement, &err) != 0) {
		record_failure(measurement, "%s", err.message);
		return -1;
	}
	if (!measurement->process_counted)
		return 0;
	if (slope_compute(&measurement->process_slope, measurement->process_instructions,
			  measurement->messages, true, &err) != 0) {
		record_failure(measurement, "the process's instructions are implausible: %s", err.message);
		return -1;
	}
	measurement->has_process = true;
	return 0;
}

/* The cache simulation runs the same program under callgrind: it must count the instructions
 * the callgrind run counted, to the digit, or its cycles are not of the same run. */
static int check_cache_instructions(struct measurement *measurement,
				    struct parsed_run parsed[TOOL_COUNT][SLOPE_RUNS])
{
	size_t which;

	for (which = 0; which < SLOPE_RUNS; which++) {
		uint64_t again = parsed[TOOL_CACHE][which].callgrind.total;
		uint64_t first = parsed[TOOL_CALLGRIND][which].callgrind.total;

		if (again != first) {
			record_failure(measurement, "not deterministic: at %" PRIu64 " the callgrind run "
				       "counted %" PRIu64 " instructions and the cache simulation %" PRIu64,
				       count_of(measurement, which), first, again);
			return -1;
		}
	}
	return 0;
}

/* Turns the finished runs of one scenario (one a tool) into its figures. Returns -1 only when
 * out of memory; a measurement failure is recorded and returns 0. */
static int conclude(struct measurement *measurement, struct run *runs[TOOL_COUNT],
		    const struct measure_options *options)
{
	struct parsed_run parsed[TOOL_COUNT][SLOPE_RUNS], ends[TOOL_COUNT];
	struct run *checked[TOOL_COUNT];
	uint64_t counts[TOOL_COUNT][SLOPE_RUNS][METRIC_COUNT];
	bool wanted[TOOL_COUNT];
	size_t checked_count = 0, tool, which, metric;
	int status = 0;

	memset(parsed, 0, sizeof(parsed));
	memset(ends, 0, sizeof(ends));
	memset(counts, 0, sizeof(counts));
	for (tool = 0; tool < TOOL_COUNT; tool++) {
		wanted[tool] = metric_tool_wanted(tool, &measurement->info, options->every_metric);
		if (!wanted[tool])
			continue;
		measurement->valgrind_seconds += runs[tool]->job.seconds;
		measurement->valgrind_cpu_seconds += runs[tool]->job.cpu_seconds;
		for (which = 0; which < SLOPE_RUNS; which++) {
			measurement->raw_files[tool][which] = strdup(basename(runs[tool]->output_paths[which]));
			if (measurement->raw_files[tool][which] == NULL)
				status = -1;
		}
		checked[checked_count++] = runs[tool];
	}
	if (check_runs(measurement, checked, checked_count, options) != 0)
		goto out;
	for (tool = 0; tool < TOOL_COUNT; tool++)
		if (wanted[tool] &&
		    read_outputs(measurement, runs[tool], parsed[tool], counts[tool], &ends[tool],
				 options) != 0)
			goto out;
	for (metric = 0; metric < METRIC_COUNT; metric++) {
		measurement->has[metric] = wanted[metric_table[metric].tool];
		for (which = 0; which < SLOPE_RUNS; which++)
			measurement->counts[metric][which] = counts[metric_table[metric].tool][which][metric];
	}
	/* The whole process at each count, and its exit, are callgrind's parts' (read_parts): of
	 * the program whose region it counted. A harness without phases has none (DHAT's count is
	 * not the program's: it replaces glibc's string functions with its own). */
	if (wanted[TOOL_CACHE] && check_cache_instructions(measurement, parsed) != 0)
		goto out;
	if (compute_slopes(measurement) != 0)
		goto out;
	{
		struct cg_profile callgrind[SLOPE_RUNS];
		struct dhat_profile dhat[SLOPE_RUNS];

		for (which = 0; which < SLOPE_RUNS; which++) {
			callgrind[which] = parsed[TOOL_CALLGRIND][which].callgrind;
			dhat[which] = parsed[TOOL_DHAT][which].dhat;
		}
		if (compute_functions(measurement, callgrind) != 0 ||
		    compute_lines(measurement, callgrind) != 0 ||
		    compute_sites(measurement, dhat) != 0) {
			status = -1;
			goto out;
		}
	}
	qsort(measurement->functions, measurement->function_count, sizeof(*measurement->functions),
	      compare_functions);
	qsort(measurement->sites, measurement->site_count, sizeof(*measurement->sites), compare_sites);
out:
	for (tool = 0; tool < TOOL_COUNT; tool++) {
		for (which = 0; which < SLOPE_RUNS; which++)
			parsed_release(&parsed[tool][which]);
		parsed_release(&ends[tool]);
	}
	return status;
}

/* How a scenario was built: its flags as the manifest gives them (else the suite's), then the
 * system packages behind the libraries it loads. Part of what makes two measurements comparable. */
static int describe_build(struct measurement *measurement, const struct manifest_entry *entry,
			  const char *suite_flags, struct packages_cache *packages,
			  struct gate_error *err)
{
	char *libraries = NULL;
	int status;

	if (packages_describe(packages, entry->path, &libraries, err) != 0)
		return -1;
	status = asprintf(&measurement->build, "%s | libraries: %s",
			  entry->build != NULL ? entry->build : suite_flags != NULL ? suite_flags : "",
			  libraries[0] != '\0' ? libraries : "(none)");
	free(libraries);
	if (status < 0) {
		measurement->build = NULL;
		return gate_error_oom(err);
	}
	return 0;
}

void measure_prefetch_packages(const struct manifest *manifest)
{
	char **executables = calloc(manifest->entry_count + 1, sizeof(*executables));
	size_t i;

	for (i = 0; executables != NULL && i < manifest->entry_count; i++)
		executables[i] = manifest->entries[i].path;
	if (executables != NULL)
		packages_prefetch(packages_shared_cache(), executables, manifest->entry_count);
	free(executables);
}

/* A scenario's `--describe`, run by the runner beside the others (its stdout to a file): the
 * scenario's 1-delivery runs come after it. */
struct describe {
	struct measurement *measurement;
	const struct manifest_entry *entry;
	const char *manifest_flags; /* the suite's flags, for a scenario the manifest gives none */
	const char *unoptimised;    /* its first project unit compiled at -O0, or NULL */
	const char *unoptimised_fix;
	char *argv[3];
	char *directory;
	char *output_path;
	char *log_path;
	bool concluded;          /* conclude_describe ran */
	struct runner_job *job;  /* the runner's copy, once planned */
};

static int plan_describe(struct describe *describe, struct measurement *measurement,
			 const struct manifest *manifest, size_t index,
			 const struct measure_options *options)
{
	const struct manifest_entry *entry = &manifest->entries[index];

	describe->measurement = measurement;
	describe->entry = entry;
	describe->manifest_flags = manifest->flags;
	describe->unoptimised = options->unoptimised != NULL ? options->unoptimised[index] : NULL;
	describe->unoptimised_fix = options->unoptimised_fix;
	memset(measurement, 0, sizeof(*measurement));
	measurement->messages = options->messages_each != NULL ? options->messages_each[index]
							       : options->messages;
	describe->argv[0] = entry->path;
	describe->argv[1] = "--describe";
	describe->directory = strdup(entry->path);
	if (describe->directory == NULL ||
	    asprintf(&describe->output_path, "%s/describe.%s.json", options->raw_dir, entry->name) < 0 ||
	    asprintf(&describe->log_path, "%s/describe.%s.log", options->raw_dir, entry->name) < 0)
		return -1;
	return 0;
}

static void release_describe(struct describe *describe)
{
	free(describe->directory);
	free(describe->output_path);
	free(describe->log_path);
}

/* "'PATH' exited with 1", "cannot run 'PATH': No such file or directory": how a --describe run
 * ended, in the words runner_capture uses. */
static void describe_end(const struct runner_job *job, const char *path, char *text, size_t size)
{
	char how[200];

	if (job->started || job->skipped) {
		runner_describe_end(job, job->timeout_seconds, how, sizeof(how));
		snprintf(text, size, "'%s' %s", path, how);
	} else {
		snprintf(text, size, "cannot run '%s': %s", path, strerror(job->spawn_error));
	}
}

/* Once its --describe has ended: reads the declaration, describes the build and checks the
 * executable (program.h). A scenario that fails any of it is recorded and never run. */
static void conclude_describe(struct describe *describe)
{
	struct measurement *measurement = describe->measurement;
	const struct manifest_entry *entry = describe->entry;
	struct gate_error err = GATE_ERROR_INIT;
	char how[PATH_MAX + 200];

	if (describe->concluded)
		return;
	describe->concluded = true;
	if (describe->job == NULL || !runner_job_succeeded(describe->job)) {
		if (describe->job != NULL)
			describe_end(describe->job, entry->path, how, sizeof(how));
		else
			snprintf(how, sizeof(how), "'%s' was not run", entry->path);
		gate_error_set(&err, "scenario '%s': --describe failed: %s", entry->name, how);
	} else if (scenario_info_from_output(&measurement->info, entry->name, entry->path,
					     describe->output_path, &err) == 0 &&
		   metric_check_declarations(&measurement->info, &err) == 0 &&
		   describe_build(measurement, entry, describe->manifest_flags,
				  packages_shared_cache(), &err) == 0 &&
		   program_check(entry->path, measurement->info.region, &err) == 0) {
		if (describe->unoptimised == NULL || measurement->info.unoptimised)
			return;
		/* Measured at -O0, the figures say little of the code users run (a debug build's
		 * cost is mostly its loads and stores) and a regression there is seldom one in
		 * the optimised code. */
		record_failure(measurement, "scenario '%s': its project code was compiled without "
			       "optimisation: %s; %s, or declare it intended (.unoptimised = true in "
			       "its struct costgate_scenario)", entry->name, describe->unoptimised,
			       describe->unoptimised_fix != NULL ? describe->unoptimised_fix
								 : "compile it with -O2");
		measurement->refused = true;
		return;
	}
	/* A second region or a client request: nothing it measures could be trusted. */
	if (measurement->info.name == NULL) {
		scenario_info_release(&measurement->info);
		measurement->info.name = strdup(entry->name);
		measurement->info.path = strdup(entry->path);
	}
	record_failure(measurement, "%s", err.message);
}

/* --verify: the second run of every tool must give the same region counts of every metric at
 * every count, to the digit. */
static void verify_repeats(struct measurement *measurement, struct run *again[TOOL_COUNT],
			   const struct measure_options *options)
{
	size_t tool, which, metric;

	for (tool = 0; tool < TOOL_COUNT && !measurement->failed; tool++) {
		struct parsed_run parsed[SLOPE_RUNS];
		uint64_t counts[SLOPE_RUNS][METRIC_COUNT];

		if (!metric_tool_wanted(tool, &measurement->info, options->every_metric))
			continue;
		if (check_runs(measurement, &again[tool], 1, options) != 0)
			return;
		memset(parsed, 0, sizeof(parsed));
		memset(counts, 0, sizeof(counts));
		if (read_outputs(measurement, again[tool], parsed, counts, NULL, options) != 0)
			return;
		for (which = 0; which < SLOPE_RUNS && !measurement->failed; which++) {
			for (metric = 0; metric < METRIC_COUNT; metric++) {
				if (metric_table[metric].tool != tool ||
				    counts[which][metric] == measurement->counts[metric][which])
					continue;
				record_failure(measurement, "not deterministic: the %s run at %" PRIu64
					       " counted %" PRIu64 " and then %" PRIu64 " %s (%s)",
					       tool_names(tool), count_of(measurement, which),
					       measurement->counts[metric][which], counts[which][metric],
					       metric_table[metric].key, again[tool]->output_paths[which]);
				break;
			}
		}
		for (which = 0; which < SLOPE_RUNS; which++)
			parsed_release(&parsed[which]);
	}
}

/* The runs of every scenario that described itself: [scenario][repeat][tool]. */
typedef struct run *run_table[2][TOOL_COUNT];

/* The instructions valgrind runs a microsecond, every tool alike within a factor of two
 * (measured on the suite); its start-up is in tool_table. */
#define MEASURE_INSTRUCTIONS_PER_MICROSECOND 100
/* What a scenario without an earlier figure is taken to cost: a typical JSON decode. */
#define MEASURE_TYPICAL_COLD 25000
#define MEASURE_TYPICAL_PER_MESSAGE 20000

static int compare_estimate(const void *key, const void *element)
{
	return strcmp(key, ((const struct measurement *)element)->info.name);
}

/* A run's expected cost in microseconds, the order runs start in (heaviest first): valgrind's
 * start-up plus the instructions the earlier measurement counted for the scenario at this count.
 * The longest runs then start first, and no long run is left alone on one core at the end. */
static uint64_t run_weight(const struct measure_options *options, const char *name,
			   enum metric_tool tool, uint64_t count)
{
	const struct measurement *earlier =
		options->estimates == NULL ? NULL
					   : bsearch(name, options->estimates, options->estimate_count,
						     sizeof(*options->estimates), compare_estimate);
	double instructions = MEASURE_TYPICAL_COLD + MEASURE_TYPICAL_PER_MESSAGE * (double)(count - 1);

	if (earlier != NULL && !earlier->failed)
		instructions = (double)earlier->counts[METRIC_INSTRUCTIONS][SLOPE_ONE] +
			       earlier->slopes[METRIC_INSTRUCTIONS].per_message * (double)(count - 1);
	if (instructions < 0)
		instructions = 0;
	return tool_table[tool].start_microseconds +
	       (uint64_t)(instructions / MEASURE_INSTRUCTIONS_PER_MICROSECOND);
}

/* Plans every scenario's runs; their argv is built when they are about to start (prepare),
 * once the scenario has described itself. */
static int plan_runs(struct run *runs, size_t *run_count, run_table *table,
		     struct measurement *measurements, const struct manifest *manifest,
		     const struct measure_options *options)
{
	size_t count = manifest->entry_count;
	size_t i, repeat, tool;

	for (i = 0; i < count; i++) {
		for (repeat = 0; repeat < (options->verify ? 2u : 1u); repeat++) {
			for (tool = 0; tool < TOOL_COUNT; tool++) {
				struct run *run = &runs[(*run_count)++];

				run->measurement = &measurements[i];
				run->tool = tool;
				run->again = repeat == 1;
				table[i][repeat][tool] = run;
				run->job.weight = run_weight(options, manifest->entries[i].name, tool,
							     count_of(&measurements[i], SLOPE_TWICE_N));
				run->job.context = run;
				if (plan_paths(run, &manifest->entries[i], options) != 0)
					return -1;
			}
		}
	}
	return 0;
}

/* What measure_scenarios hands the runner's callbacks. */
struct measure_context {
	const struct measure_options *options;
	struct describe *describes;
	struct measurement *measurements;
	size_t count; /* scenarios */
};

/* The seal (seal.h) before a run, or after the last when `run` is NULL: a scenario whose files
 * changed is a measurement failure, and its other runs are not started. */
static int check_seal(struct measurement *measurement, const struct run *run)
{
	struct gate_error err = GATE_ERROR_INIT;
	char moment[128] = "after its runs";

	if (run != NULL)
		snprintf(moment, sizeof(moment), "before its %s run at %" PRIu64 "%s",
			 tool_names(run->tool), count_of(measurement, SLOPE_TWICE_N),
			 run->again ? " (again)" : "");
	if (seal_check(&measurement->seal, moment, &err) == 0)
		return 0;
	record_failure(measurement, "scenario '%s': %s", measurement->info.name, err.message);
	return -1;
}

/* A --describe starts only when its scenario is sealed, and its files are as sealed. */
static int prepare_describe(const struct measure_context *measuring, struct runner_job *job)
{
	size_t i = 0;
	struct measurement *measurement;
	struct gate_error err = GATE_ERROR_INIT;

	while (i < measuring->count && measuring->describes[i].job != job)
		i++;
	if (i == measuring->count)
		return 0;
	measurement = &measuring->measurements[i];
	if (measurement->failed)
		return -1;
	if (seal_check(&measurement->seal, "before its --describe", &err) == 0)
		return 0;
	record_failure(measurement, "scenario '%s': %s", measuring->describes[i].entry->name,
		       err.message);
	return -1;
}

/* The runner's prepare: a run's scenario is concluded (declaration read, build described,
 * executable checked) before its first run starts, while the runs of others go on. */
static int prepare_run(struct runner_job *job, void *context)
{
	const struct measure_context *measuring = context;
	struct run *run = job->context;
	struct measurement *measurement;

	if (run == NULL)
		return prepare_describe(measuring, job);
	measurement = run->measurement;
	conclude_describe(&measuring->describes[measurement - measuring->measurements]);
	if (measurement->failed || check_seal(measurement, run) != 0)
		return -1;
	/* An opt-in tool's runs (the cache simulation) only for the scenarios that want them: the
	 * first is dropped here, and the others follow it. */
	if (!metric_tool_wanted(run->tool, &measurement->info, measuring->options->every_metric))
		return 1;
	if (build_run(run, measuring->options) != 0) {
		record_failure(measurement, "out of memory");
		return -1;
	}
	if (measuring->options->verbosity >= 2)
		print_command(run, measuring->options);
	job->argv = run->job.argv;
	job->directory = run->job.directory;
	job->log_path = run->job.log_path;
	return 0;
}

static double measure_budget(const struct runner_job *job, void *context)
{
	const struct measure_context *measuring = context;

	if (job->context == NULL) /* a --describe: as long as a 1-delivery run gets */
		return measuring->options->scaled_timeouts ? MEASURE_BUDGET_FLOOR
							   : measuring->options->timeout_seconds;
	return run_budget(job, (void *)measuring->options);
}

static void measure_progress(const struct runner_job *job, size_t remaining, void *context)
{
	const struct measure_context *measuring = context;
	const struct run *run = job->context;

	if (run == NULL)
		return;
	/* A run skipped because its --describe failed is reported under the scenario's name:
	 * concluding (once) records the failure and the name from the manifest. */
	conclude_describe(&measuring->describes[run->measurement - measuring->measurements]);
	report_progress(job, remaining, (void *)measuring->options);
}

/* Every object the runs' outputs say was loaded is checked as the executable was (program.h):
 * a library opened with dlopen is read once valgrind has seen it. */
static void check_reported_objects(struct measurement *measurement, run_table runs,
				   const struct measure_options *options)
{
	const char *outputs[2 * TOOL_COUNT * MEASURE_FILES];
	struct gate_error err = GATE_ERROR_INIT;
	size_t count = 0, repeat, tool, i;

	for (repeat = 0; repeat < (options->verify ? 2u : 1u); repeat++)
		for (tool = 0; tool < TOOL_COUNT; tool++)
			for (i = 0; runs[repeat][tool]->job.started && i < runs[repeat][tool]->written_count; i++)
				if (access(runs[repeat][tool]->written[i], R_OK) == 0)
					outputs[count++] = runs[repeat][tool]->written[i];
	if (program_check_reported(measurement->info.path, outputs, count, measurement->info.region,
				   &err) != 0)
		record_failure(measurement, "scenario '%s': %s", measurement->info.name, err.message);
}

/* Seals every scenario (seal.h) and, where the system lets a run have its own mount namespace,
 * gives the runs the sealed files' directories read-only (sealed->read_only; NULL otherwise,
 * and the hashes alone hold). A scenario that cannot be sealed has failed. */
static int seal_scenarios(struct measurement *measurements, const struct manifest *manifest,
			  struct debugview_sealed *sealed, const struct measure_options *options,
			  struct gate_error *err)
{
	char **directories = NULL;
	size_t count = 0, i;
	int refused;

	for (i = 0; i < manifest->entry_count; i++) {
		struct gate_error failure = GATE_ERROR_INIT;

		/* A missing executable fails as its --describe would have, in the same words. */
		if (access(manifest->entries[i].path, F_OK) != 0)
			record_failure(&measurements[i], "scenario '%s': --describe failed: cannot run "
				       "'%s': %s", manifest->entries[i].name, manifest->entries[i].path,
				       strerror(errno));
		else if (seal_make(&measurements[i].seal, manifest->entries[i].path, &failure) != 0)
			record_failure(&measurements[i], "scenario '%s': %s", manifest->entries[i].name,
				       failure.message);
		else if (seal_directories(&measurements[i].seal, &directories, &count) != 0)
			goto no_memory;
	}
	if (directories == NULL)
		return 0;
	sealed->read_only = directories;
	refused = debugview_probe_sealed(sealed);
	if (refused != 0) {
		sealed->read_only = NULL;
		array_free_strings(directories, count);
	}
	for (i = 0; i < manifest->entry_count; i++)
		measurements[i].sealed_read_only = refused == 0;
	if (options->verbosity > 0 && refused == 0)
		say_line(&options->say, "gate: the build: %zu director%s read-only to the runs, its "
			 "files hashed around every run", count, count == 1 ? "y" : "ies");
	else if (options->verbosity > 0)
		say_line(&options->say, "gate: the build: writable to the runs (no private mount "
			 "namespace: %s), its files hashed around every run", strerror(refused));
	return 0;
no_memory:
	array_free_strings(directories, count);
	return gate_error_oom(err);
}

int measure_scenarios(struct measurement *measurements, const struct manifest *manifest,
		      const struct measure_options *options, struct gate_error *err)
{
	size_t count = manifest->entry_count, run_count = 0, job_count, i, metric;
	size_t most = count * 2 * TOOL_COUNT + 1;
	struct run *runs = calloc(most, sizeof(*runs));
	struct runner_job *jobs = calloc(most + count, sizeof(*jobs));
	struct describe *describes = calloc(count + 1, sizeof(*describes));
	run_table *table = calloc(count + 1, sizeof(*table));
	struct measure_context measuring = { options, describes, measurements, count };
	struct listing listing = { 0 };
	struct debugview_sealed sealed = { NULL, options->raw_dir };
	struct debugview_child child = { NULL, NULL, (unsigned)getuid(), (unsigned)getgid() };
	struct runner_options runner = {
		.parallel = options->jobs,
		.timeout_seconds = options->timeout_seconds,
		.environment = measure_environment(),
		.no_randomize = options->no_randomize,
		.progress = measure_progress,
		.progress_context = &measuring,
		.budget = measure_budget,
		.prepare = prepare_run,
		.mark = MEASURE_SNAPSHOT_MARK,
		.child_enter = debugview_child_enter,
		.child_context = &child,
	};
	int status = -1;

	if (runs == NULL || jobs == NULL || describes == NULL || table == NULL) {
		gate_error_oom(err);
		goto out;
	}
	/* The packages behind the libraries, for the builds' descriptions: one batch, not a query
	 * per library while the runs go on. */
	measure_prefetch_packages(manifest);
	for (i = 0; i < count; i++) {
		if (plan_describe(&describes[i], &measurements[i], manifest, i, options) != 0) {
			gate_error_oom(err);
			goto out;
		}
	}
	if (seal_scenarios(measurements, manifest, &sealed, options, err) != 0)
		goto out;
	if (sealed.read_only != NULL)
		child.sealed = &sealed;
	/* What the runs see of the system's debug files: before the first run starts. */
	if (options->debug_view != NULL) {
		char **executables = calloc(count + 1, sizeof(*executables));

		for (i = 0; executables != NULL && i < count; i++)
			executables[i] = manifest->entries[i].path;
		if (executables == NULL || debugview_add(options->debug_view, executables, count, err) != 0) {
			free(executables);
			gate_error_oom(err);
			goto out;
		}
		free(executables);
		child.directory = options->debug_view->directory;
	}
	if (plan_runs(runs, &run_count, table, measurements, manifest, options) != 0) {
		gate_error_oom(err);
		goto out;
	}
	if (listing_read(&listing, options->raw_dir) != 0) {
		gate_error_set(err, "cannot read '%s': %s", options->raw_dir, strerror(errno));
		goto out;
	}
	for (i = 0; i < run_count; i++)
		clear_outputs(&runs[i], &listing, options);
	listing_release(&listing);
	/* The runner sorts what it is given; jobs are copied out and back around the call. The
	 * describes go after the runs, heaviest of all: they start first, as many at once as runs
	 * would, and each scenario's runs come after its own. */
	for (i = 0; i < run_count; i++) {
		jobs[i] = runs[i].job;
		jobs[i].after[0] = &jobs[run_count + (size_t)(runs[i].measurement - measurements)];
	}
	for (i = 0; i < count; i++) {
		struct runner_job *job = &jobs[run_count + i];

		*job = (struct runner_job){
			.argv = describes[i].argv,
			.directory = dirname(describes[i].directory),
			.log_path = describes[i].log_path,
			.output_path = describes[i].output_path,
			.weight = UINT64_MAX,
		};
		describes[i].job = job;
	}
	job_count = run_count + count;
	if (runner_run(jobs, job_count, &runner, err) != 0)
		goto out;
	for (i = 0; i < count; i++) {
		conclude_describe(&describes[i]);
		if (!measurements[i].failed)
			check_seal(&measurements[i], NULL);
	}
	if (listing_read(&listing, options->raw_dir) != 0) {
		gate_error_set(err, "cannot read '%s': %s", options->raw_dir, strerror(errno));
		goto out;
	}
	for (i = 0; i < run_count; i++) {
		runs[i].job = jobs[i];
		if (runs[i].job.argv != NULL)
			collect_outputs(&runs[i], &listing, options);
	}
	for (i = 0; i < count; i++) {
		if (measurements[i].failed)
			continue;
		check_reported_objects(&measurements[i], table[i], options);
		if (measurements[i].failed)
			continue;
		if (conclude(&measurements[i], table[i][0], options) != 0) {
			gate_error_oom(err);
			goto out;
		}
		if (options->verify && !measurements[i].failed)
			verify_repeats(&measurements[i], table[i][1], options);
		/* After --verify: a count that does not repeat is the failure to name first. */
		for (metric = 0; metric < METRIC_COUNT && !measurements[i].failed; metric++)
			if (metric_table[metric].linearity && measurements[i].has[metric])
				check_linearity(&measurements[i], &measurements[i].slopes[metric],
						metric_table[metric].key);
	}
	status = 0;
out:
	listing_release(&listing);
	for (i = 0; i < run_count; i++)
		release_run(&runs[i]);
	for (i = 0; describes != NULL && i < count; i++)
		release_describe(&describes[i]);
	free(runs);
	free(jobs);
	free(describes);
	free(table);
	for (i = 0; sealed.read_only != NULL && sealed.read_only[i] != NULL; i++)
		free(sealed.read_only[i]);
	free((char **)sealed.read_only);
	return status;
}
