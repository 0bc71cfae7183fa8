/* gate merge --check-raw's reading of the raw files (rawcheck.h). */
#define _GNU_SOURCE
#include "rawcheck.h"

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "callgrind.h"
#include "crosscheck.h"
#include "dhat.h"
#include "fs.h"
#include "metrics.h"

/* The harness's region: a results file does not say which function a run toggled on, and the
 * second opinion takes nothing from the run but counts to check. */
#define HARNESS_REGION "costgate_measured_region"

/* Compares one count of the document with the raw file's (`parts`: that file and the parts
 * before it, added up). */
static int same_count(const char *name, const char *what, uint64_t stated, uint64_t raw,
		      const char *file, bool parts, struct gate_error *err)
{
	if (stated == raw)
		return 0;
	return gate_error_set(err, "results of '%s' disagree with the raw files: %s is %llu, but "
			      "'%s'%s holds %llu", name, what, (unsigned long long)stated, file,
			      parts ? " with the parts before it" : "", (unsigned long long)raw);
}

/* A raw file name from the document: a plain name in `directory`. */
static int raw_path(const char *directory, const char *name, const char *prefix, char *path,
		    size_t size, struct gate_error *err)
{
	if (name == NULL || strncmp(name, prefix, strlen(prefix)) != 0 || strchr(name, '/') != NULL)
		return gate_error_set(err, "results name no raw file of the form %s...", prefix);
	snprintf(path, size, "%s/%s", directory, name);
	return 0;
}

/* callgrind's profile at count `which` from the raw files into *profile. A run in parts
 * (docs/design.md rule 10: names ending in a range, "NAME.0-1") is the service start's part
 * ("NAME.start", beside the first) and the parts up to that count, added up, and sets *parts;
 * otherwise it is the one file `path`. Returns 0, or -1 with err. */
static int parse_callgrind(const struct measurement *measurement, const char *directory,
			   enum metric_tool tool, size_t which, const char *prefix, const char *path,
			   struct cg_profile *profile, bool *parts, struct gate_error *err)
{
	const char *first = measurement->raw_files[tool][0];
	char part_path[4096], start[4096];
	size_t length = first != NULL ? strlen(first) : 0, i;

	*parts = length >= 4 && strcmp(first + length - 4, ".0-1") == 0;
	if (!*parts)
		return cg_profile_parse(profile, path, err);
	snprintf(start, sizeof(start), "%.*sstart", (int)(length - 3), first);
	for (i = 0; i <= which + 1; i++) {
		struct cg_profile part = CG_PROFILE_INIT;
		int status;

		if (raw_path(directory, i == 0 ? start : measurement->raw_files[tool][i - 1], prefix,
			     part_path, sizeof(part_path), err) != 0 ||
		    cg_profile_parse(&part, part_path, err) != 0)
			return -1;
		status = cg_profile_add(profile, &part, err);
		cg_profile_release(&part);
		if (status != 0)
			return gate_error_prefix(err, "'%s'", part_path), -1;
	}
	return 0;
}

/* The total of one raw callgrind file (its first event) into *total. */
static int callgrind_total(const char *directory, const char *name, const char *prefix,
			   uint64_t *total, struct gate_error *err)
{
	struct cg_profile profile = CG_PROFILE_INIT;
	char path[4096];

	if (raw_path(directory, name, prefix, path, sizeof(path), err) != 0 ||
	    cg_profile_parse(&profile, path, err) != 0)
		return -1;
	*total = profile.total;
	cg_profile_release(&profile);
	return 0;
}

/* The whole process from callgrind's parts: every part up to count `which`, the region's and
 * those outside it before each (".outside-start", ".outside-0-1", ...), and at 2N the exit: the
 * end (".2N.end") and every other thread's (".2N.end-thread-TT"). */
static int check_raw_process(const struct measurement *measurement, const char *directory,
			     size_t which, struct gate_error *err)
{
	const char *first = measurement->raw_files[TOOL_CALLGRIND][0];
	const char *name = measurement->info.name;
	size_t stem = strlen(first) - 3, i; /* "callgrind.out.NAME." */
	uint64_t process = 0, part, exit_instructions = 0;
	char region[4096], outside[4096], end[4096];
	DIR *listing;
	struct dirent *entry;

	for (i = 0; i <= which + 1; i++) {
		const char *range = i == 0 ? "start" : measurement->raw_files[TOOL_CALLGRIND][i - 1] + stem;

		snprintf(region, sizeof(region), "%.*s%s", (int)stem, first, range);
		snprintf(outside, sizeof(outside), "%.*soutside-%s", (int)stem, first, range);
		if (callgrind_total(directory, region, "callgrind.out.", &part, err) != 0)
			return -1;
		process += part;
		if (callgrind_total(directory, outside, "callgrind.out.", &part, err) != 0)
			return -1;
		process += part;
	}
	if (process != measurement->process_instructions[which])
		return gate_error_set(err, "results of '%s' disagree with the raw files: the process's "
				      "instructions is %" PRIu64 ", but callgrind's parts up to '%s' "
				      "hold %" PRIu64, name, measurement->process_instructions[which],
				      region, process);
	if (which != SLOPE_TWICE_N)
		return 0;
	snprintf(end, sizeof(end), "%.*s%" PRIu64 ".end", (int)stem, first,
		 2 * measurement->messages);
	if (callgrind_total(directory, end, "callgrind.out.", &exit_instructions, err) != 0)
		return -1;
	listing = opendir(directory);
	while (listing != NULL && (entry = readdir(listing)) != NULL) {
		if (strncmp(entry->d_name, end, strlen(end)) != 0 ||
		    strncmp(entry->d_name + strlen(end), "-thread-", 8) != 0)
			continue;
		if (callgrind_total(directory, entry->d_name, "callgrind.out.", &part, err) != 0) {
			closedir(listing);
			return -1;
		}
		exit_instructions += part;
	}
	if (listing != NULL)
		closedir(listing);
	if (exit_instructions != measurement->process_exit)
		return gate_error_set(err, "results of '%s' disagree with the raw files: the process's "
				      "exit instructions is %" PRIu64 ", but '%s' and the other "
				      "threads' ends hold %" PRIu64, name, measurement->process_exit,
				      end, exit_instructions);
	return 0;
}

/* One run of one tool again from the file valgrind wrote: every metric the document has from
 * that tool (metric_table says which), and from callgrind's parts the whole process's
 * instructions. A document with a metric and no such file is refused. */
static int check_raw_tool(const struct measurement *measurement, const char *directory,
			  enum metric_tool tool, size_t which, struct gate_error *err)
{
	struct cg_profile callgrind = CG_PROFILE_INIT;
	struct dhat_profile dhat = DHAT_PROFILE_INIT;
	struct tool_output output = { &callgrind, &dhat, HARNESS_REGION };
	const char *name = measurement->info.name;
	char path[4096], prefix[32];
	bool wanted = false, parts = false;
	size_t metric;
	int status = 0;

	for (metric = 0; metric < METRIC_COUNT; metric++)
		wanted = wanted || (metric_table[metric].tool == tool && measurement->has[metric]);
	if (!wanted)
		return 0;
	snprintf(prefix, sizeof(prefix), "%s.out.", tool_table[tool].name);
	if (raw_path(directory, measurement->raw_files[tool][which], prefix, path, sizeof(path),
		     err) != 0)
		return -1;
	if ((tool_table[tool].parser == TOOL_PARSE_CALLGRIND
		     ? parse_callgrind(measurement, directory, tool, which, prefix, path, &callgrind,
				       &parts, err)
		     : dhat_profile_parse(&dhat, path, HARNESS_REGION, err)) != 0)
		status = -1;
	for (metric = 0; status == 0 && metric < METRIC_COUNT; metric++) {
		const char *why = "";
		uint64_t count = 0;

		if (metric_table[metric].tool != tool || !measurement->has[metric])
			continue;
		if (metric_table[metric].read(&output, &count, &why) != 0)
			status = gate_error_set(err, "cannot read '%s': %s", path, why);
		else
			status = same_count(name, metric_table[metric].title,
					    measurement->counts[metric][which], count, path, parts, err);
	}
	/* The whole process at each snapshot, and at 2N its exit: the run's end, in the file beside
	 * the snapshot's (".end"), less the snapshot (docs/design.md rule 10). */
	if (status == 0 && tool == TOOL_CALLGRIND && parts && measurement->has_process)
		status = check_raw_process(measurement, directory, which, err);
	cg_profile_release(&callgrind);
	dhat_profile_release(&dhat);
	return status;
}

/* The second opinion's figures again from what its native run printed (native.NAME.out). */
static int check_raw_native(const struct measurement *measurement, const char *directory,
			    struct gate_error *err)
{
	struct measurement again;
	char path[4096], *text = NULL;
	size_t length = 0, which;
	int status;

	if (!measurement->has_native)
		return 0;
	snprintf(path, sizeof(path), "%s/native.%s.out", directory, measurement->info.name);
	if (fs_read_file(path, 4096, &text, &length) != 0)
		return gate_error_set(err, "results of '%s' hold the second opinion's figures, but "
				      "'%s' cannot be read: %s", measurement->info.name, path,
				      strerror(errno));
	memset(&again, 0, sizeof(again));
	status = crosscheck_parse(text, &again, NULL, 0, err);
	free(text);
	if (status != 0)
		return gate_error_prefix(err, "'%s'", path);
	for (which = 0; which < SLOPE_RUNS; which++)
		if (again.native_allocations[which] != measurement->native_allocations[which] ||
		    again.has_native_instructions != measurement->has_native_instructions ||
		    (again.has_native_instructions &&
		     again.native_instructions[which] != measurement->native_instructions[which]))
			return gate_error_set(err, "results of '%s' disagree with the raw files: the "
					      "second opinion's figures are not those of '%s'",
					      measurement->info.name, path);
	return 0;
}

int rawcheck_measurement(const struct measurement *measurement, const char *directory,
			 struct gate_error *err)
{
	size_t which, tool;

	if (check_raw_native(measurement, directory, err) != 0)
		return -1;
	for (which = 0; which < SLOPE_RUNS; which++)
		for (tool = 0; tool < TOOL_COUNT; tool++)
			if (check_raw_tool(measurement, directory, (enum metric_tool)tool, which,
					   err) != 0)
				return -1;
	return 0;
}
