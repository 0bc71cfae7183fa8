/* gate merge. Shards are refused unless together they are exactly one run: the same count M,
 * every index once, the same fingerprint and selection, no scenario twice, none left out. One
 * results file of a whole run is decided again as it is. With --check-raw, every count is read
 * again from the raw callgrind and DHAT files, so that the decision does not rest on figures
 * written by the code under review (the second opinion of costgate-verified.yml). */
#define _GNU_SOURCE
#include "cmd_merge.h"

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "baseline.h"
#include "callgrind.h"
#include "command.h"
#include "crosscheck.h"
#include "dhat.h"
#include "exit_codes.h"
#include "fs.h"
#include "options.h"
#include "seal.h"
#include "runner.h"
#include "session.h"

static int check_shard_set(struct results *shards, char *const *paths, size_t count,
			   struct gate_error *err)
{
	char difference[512];
	size_t i, j;

	for (i = 0; i < count; i++) {
		if (shards[i].shard_count == 0)
			return gate_error_set(err, "cannot merge '%s': not a shard (make it with gate --shard K/M)",
					      paths[i]);
		if (shards[i].shard_count != shards[0].shard_count || shards[i].messages != shards[0].messages)
			return gate_error_set(err, "cannot merge '%s' with '%s': different shard counts or "
					      "message counts", paths[i], paths[0]);
		if (!environment_fingerprint_equal(&shards[i].fingerprint, &shards[0].fingerprint, difference,
						   sizeof(difference)))
			return gate_error_set(err, "cannot merge '%s' with '%s': mismatched fingerprints (%s)",
					      paths[i], paths[0], difference);
		for (j = 0; j < i; j++)
			if (shards[j].shard_index == shards[i].shard_index)
				return gate_error_set(err, "cannot merge: shard %u/%u is given twice ('%s' and '%s')",
						      shards[i].shard_index, shards[i].shard_count, paths[j], paths[i]);
	}
	if (count != shards[0].shard_count) {
		for (i = 1; i <= shards[0].shard_count; i++) {
			for (j = 0; j < count && shards[j].shard_index != i; j++)
				;
			if (j == count)
				return gate_error_set(err, "cannot merge: shard %zu/%u is missing", i,
						      shards[0].shard_count);
		}
	}
	return 0;
}

/* Which shard holds `name`, measured or failed; -1 when none. Sets *twice when two do. */
static int holder(const struct results *shards, size_t count, const char *name, size_t *second)
{
	int found = -1;
	size_t i, j;

	for (i = 0; i < count; i++) {
		bool here = results_find(&shards[i], name) != NULL;

		for (j = 0; j < shards[i].failure_count && !here; j++)
			here = strcmp(shards[i].failures[j].info.name, name) == 0;
		if (here && found >= 0) {
			*second = i;
			return -2 - found;
		}
		if (here)
			found = (int)i;
	}
	return found;
}

static int check_coverage(const struct results *shards, char *const *paths, size_t count,
			  struct gate_error *err)
{
	size_t i, j, held = 0, second = 0;

	for (i = 0; i < count; i++) {
		bool same = shards[i].selected_count == shards[0].selected_count &&
			    shards[i].filtered == shards[0].filtered;

		for (j = 0; same && j < shards[i].selected_count; j++)
			same = strcmp(shards[i].selected[j], shards[0].selected[j]) == 0;
		if (!same)
			return gate_error_set(err, "cannot merge '%s' with '%s': they split different "
					      "selections of scenarios", paths[i], paths[0]);
		held += shards[i].count + shards[i].failure_count;
	}
	for (i = 0; i < shards[0].selected_count; i++) {
		int at = holder(shards, count, shards[0].selected[i], &second);

		if (at == -1)
			return gate_error_set(err, "cannot merge: no shard has scenario '%s'",
					      shards[0].selected[i]);
		if (at < -1)
			return gate_error_set(err, "cannot merge: scenario '%s' is in both '%s' and '%s'",
					      shards[0].selected[i], paths[-2 - at], paths[second]);
	}
	if (held != shards[0].selected_count)
		return gate_error_set(err, "cannot merge: the shards hold %zu scenarios, the selection "
				      "has %zu", held, shards[0].selected_count);
	return 0;
}

static int compare_names(const void *left, const void *right)
{
	return strcmp(((const struct measurement *)left)->info.name,
		      ((const struct measurement *)right)->info.name);
}

/* Moves every shard's measurements (and failures) into the session, sorted by name, and the
 * first shard's environment with them. */
static int combine(struct session *session, struct results *shards, size_t count)
{
	size_t total = 0, i, j;

	for (i = 0; i < count; i++)
		total += shards[i].count + shards[i].failure_count;
	session->measurements = calloc(total + 1, sizeof(*session->measurements));
	if (session->measurements == NULL)
		return -1;
	for (i = 0; i < count; i++) {
		for (j = 0; j < shards[i].count; j++)
			session->measurements[session->measurement_count++] = shards[i].measurements[j];
		for (j = 0; j < shards[i].failure_count; j++)
			session->measurements[session->measurement_count++] = shards[i].failures[j];
		shards[i].count = 0;
		shards[i].failure_count = 0;
	}
	qsort(session->measurements, session->measurement_count, sizeof(*session->measurements),
	      compare_names);
	session->environment = shards[0].fingerprint;
	memset(&shards[0].fingerprint, 0, sizeof(shards[0].fingerprint));
	session->partial = shards[0].filtered;
	return 0;
}

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

/* --check-raw: every count at 1, N and 2N again from the files valgrind wrote. */
static int check_raw(const struct session *session, const char *directory, struct gate_error *err)
{
	size_t i, which, tool;

	for (i = 0; i < session->measurement_count; i++) {
		const struct measurement *measurement = &session->measurements[i];

		if (measurement->failed)
			continue;
		if (check_raw_native(measurement, directory, err) != 0)
			return -1;
		for (which = 0; which < SLOPE_RUNS; which++)
			for (tool = 0; tool < TOOL_COUNT; tool++)
				if (check_raw_tool(measurement, directory, (enum metric_tool)tool, which,
						   err) != 0)
					return -1;
	}
	return 0;
}

/* costgate.sealed.scenarios[name] of a results document, or NULL. */
static const cJSON *sealed_files(const cJSON *document, const char *name)
{
	const cJSON *costgate = cJSON_GetObjectItemCaseSensitive(document, "costgate");
	const cJSON *sealed = cJSON_GetObjectItemCaseSensitive(costgate, "sealed");

	return cJSON_GetObjectItemCaseSensitive(
		cJSON_GetObjectItemCaseSensitive(sealed, "scenarios"), name);
}

/* --check-build: the programs the run (or its shards) measured, costgate.sealed of each results
 * file (the first that has a scenario), are the programs of the build in `build_dir`, made from
 * the same sources. */
static int check_build(const struct session *session, char *const *paths, size_t path_count,
		       const char *build_dir, struct gate_error *err)
{
	cJSON *documents = cJSON_CreateArray(), *document = NULL;
	size_t i, k;
	int status = -1;

	if (documents == NULL)
		return gate_error_set(err, "out of memory");
	for (k = 0; k < path_count; k++) {
		if (results_document_read(paths[k], false, &document, err) != 0)
			goto out;
		if (!cJSON_AddItemToArray(documents, document)) {
			cJSON_Delete(document);
			gate_error_set(err, "out of memory");
			goto out;
		}
	}
	for (i = 0; i < session->measurement_count; i++) {
		const char *name = session->measurements[i].info.name;
		const cJSON *files = NULL;

		if (session->measurements[i].failed)
			continue;
		cJSON_ArrayForEach(document, documents)
			if (files == NULL)
				files = sealed_files(document, name);
		if (seal_compare(files, name, build_dir, err) != 0)
			goto out;
	}
	status = 0;
out:
	cJSON_Delete(documents);
	return status;
}

static int read_shards(struct results *shards, const struct gate_options *options,
		       struct gate_error *err)
{
	size_t i;

	for (i = 0; i < options->input_count; i++)
		if (results_read_file(&shards[i], options->inputs[i], err) != 0)
			return -1;
	if (options->input_count == 1 && shards[0].shard_count == 0)
		return 0; /* a whole run, decided again */
	if (check_shard_set(shards, options->inputs, options->input_count, err) != 0 ||
	    check_coverage(shards, options->inputs, options->input_count, err) != 0)
		return -1;
	return 0;
}

static int merge(void *own, struct gate_error *err)
{
	const struct gate_options *options = own;
	struct session session = { .options = options };
	struct measure_options measure_options = { .messages = options->messages, .jobs = options->jobs,
						   .timeout_seconds = options->timeout_seconds,
						   .scaled_timeouts = true,
						   .no_randomize = true, .verbosity = options->verbosity };
	struct results *shards = calloc(options->input_count + 1, sizeof(*shards));
	int code = session_check_outputs(options);
	size_t i;

	if (code != 0)
		goto out;
	code = GATE_EXIT_USAGE;
	if (shards == NULL || read_shards(shards, options, err) != 0 ||
	    combine(&session, shards, options->input_count) != 0) {
		if (shards == NULL || err->message[0] == '\0')
			gate_error_set(err, "out of memory");
		goto out;
	}
	measure_options.messages = shards[0].messages;
	session.root = baseline_repository_root();
	session.valgrind = runner_find_program("valgrind", getenv("PATH"));
	if (session_make_directories(options->raw_dir, err) != 0)
		goto out;
	session.raw_dir = realpath(options->raw_dir, NULL);
	if (session.raw_dir == NULL) {
		gate_error_set(err, "cannot use directory '%s': %s", options->raw_dir,
			       strerror(errno));
		goto out;
	}
	measure_options.raw_dir = session.raw_dir;
	measure_options.valgrind = session.valgrind;
	code = GATE_EXIT_MEASUREMENT;
	if ((options->check_raw != NULL && check_raw(&session, options->check_raw, err) != 0) ||
	    (options->check_build != NULL &&
	     check_build(&session, options->inputs, options->input_count, options->check_build,
			 err) != 0))
		goto out;
	code = session_run(&session, &measure_options, false);
out:
	for (i = 0; shards != NULL && i < options->input_count; i++)
		results_release(&shards[i]);
	free(shards);
	session_release(&session);
	return code;
}

static void start(void *own, struct common_targets *common)
{
	options_start(own, common);
}

static int finish(void *own, char **operands, size_t operand_count, struct gate_error *err)
{
	return options_finish_merge(own, operands, operand_count, err);
}

static void release(void *own)
{
	options_release(own);
}

const struct command merge_command = {
	.spec = &merge_spec, .size = sizeof(struct gate_options), .start = start, .finish = finish,
	.run = merge, .release = release,
};
