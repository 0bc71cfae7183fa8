/* gate merge. Shards are refused unless together they are exactly one run: the same count M,
 * every index once, the same fingerprint and selection, no scenario twice, none left out. One
 * results file of a whole run is decided again as it is. With --check-raw, every count is read
 * again from the raw callgrind and DHAT files, so that the decision does not rest on figures
 * written by the code under review (the second opinion of costgate-verified.yml). */
#define _GNU_SOURCE
#include "cmd_merge.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "baseline.h"
#include "command.h"
#include "exit_codes.h"
#include "options.h"
#include "seal.h"
#include "runner.h"
#include "rawcheck.h"
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

/* --check-raw: every count at 1, N and 2N again from the files valgrind wrote. */
static int check_raw(const struct session *session, const char *directory, struct gate_error *err)
{
	size_t i;

	for (i = 0; i < session->measurement_count; i++)
		if (!session->measurements[i].failed &&
		    rawcheck_measurement(&session->measurements[i], directory, err) != 0)
			return -1;
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
		return gate_error_oom(err);
	for (k = 0; k < path_count; k++) {
		if (results_document_read(paths[k], false, &document, err) != 0)
			goto out;
		if (!cJSON_AddItemToArray(documents, document)) {
			cJSON_Delete(document);
			gate_error_oom(err);
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
			gate_error_oom(err);
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
