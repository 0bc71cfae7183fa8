/* The session's last step: the verdict decided, then written everywhere it goes (the table,
 * results.json, the Markdown, the annotations, the flame graphs), --exact, the wall clock
 * beside a regression, and the commands the reports print. */
#define _GNU_SOURCE
#include "session.h"

#include <errno.h>
#include <inttypes.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "baseline.h"
#include "policy.h"
#include "crosscheck.h"
#include "telltales.h"
#include "debuginfo.h"
#include "exit_codes.h"
#include "flamegraph.h"
#include "fs.h"
#include "manifest.h"
#include "native_runs.h"
#include "report.h"
#include "runner.h"
#include "table.h"
#include "wall_check.h"
#include "wallclock.h"
#include "worktree.h"

/* costgate's own Makefile says so on a line of its own; in any other repository the reports print
 * gate's commands, which work whatever the project's build is. */
static bool own_makefile(const char *root)
{
	char *path = NULL, *line = NULL;
	size_t capacity = 0;
	bool found = false;
	FILE *file;

	if (asprintf(&path, "%s/Makefile", root != NULL ? root : ".") < 0)
		return false;
	file = fopen(path, "r");
	free(path);
	while (file != NULL && !found && getline(&line, &capacity, file) >= 0)
		found = strncmp(line, "# costgate-makefile: make baseline, make bench", 46) == 0;
	free(line);
	if (file != NULL)
		fclose(file);
	return found;
}

/* What refreshes the baseline here (policy_refresh_command): the build directory as shown, the
 * baseline's N (the head's when there is none), the branch it was read from. */
static void refresh_command(const struct session *session, char *text, size_t size)
{
	char build_dir[PATH_MAX];

	policy_refresh_command(text, size, own_makefile(session->root),
			      session_shown_build_dir(session, build_dir, sizeof(build_dir)),
			      session->have_baseline ? session->baseline.messages : session->messages,
			      session->options->baseline_ref);
}

/* The local command that repeats this run, for the Markdown report (policy_reproduce_command). */
static void reproduce_command(const struct session *session, char *text, size_t size)
{
	const struct gate_options *options = session->options;
	char build[1024], build_dir[PATH_MAX];

	session_build_command(session, build, sizeof(build));
	policy_reproduce_command(text, size, &(struct policy_run_words){
		.own_makefile = own_makefile(session->root),
		.build_command = build,
		.build_dir = session_shown_build_dir(session, build_dir, sizeof(build_dir)),
		.messages = session->messages != 0 ? session->messages : options->messages,
		.vary_n = options->vary_n,
		.baseline_ref = options->baseline_ref,
		.scenarios = options->scenarios,
		.scenario_count = options->scenario_count });
}

static int append_markdown(const char *path, const char *mode, const struct verdict *verdict,
			   const struct environment *environment, const char *reproduce)
{
	FILE *out = fopen(path, mode);
	int saved;

	if (out != NULL) {
		report_markdown(out, verdict, environment, reproduce);
		if (fclose(out) == 0)
			return 0;
	}
	saved = errno;
	fprintf(stderr, "gate: error: cannot write the Markdown report '%s': %s\n", path,
		strerror(saved));
	return -1;
}

/* Markdown for --markdown and the GitHub job summary; annotations inside GitHub Actions. */
static int write_pull_request_reports(struct session *session, const struct verdict *verdict)
{
	const char *summary = getenv("GITHUB_STEP_SUMMARY");
	const char *actions = getenv("GITHUB_ACTIONS");
	struct gate_error err = GATE_ERROR_INIT;
	char reproduce[1024];
	int status = 0;

	reproduce_command(session, reproduce, sizeof(reproduce));
	if (session->options->markdown_path != NULL &&
	    append_markdown(session->options->markdown_path, "w", verdict, &session->environment,
			    reproduce) != 0)
		status = -1;
	if (summary != NULL && summary[0] != '\0' &&
	    append_markdown(summary, "a", verdict, &session->environment, reproduce) != 0)
		status = -1;
	if (actions != NULL && strcmp(actions, "true") == 0)
		report_annotations(stdout, verdict);
	if (session->raw_dir != NULL && flamegraph_write_files(verdict, session->raw_dir, &err) < 0) {
		session_fail(GATE_EXIT_USAGE, &err);
		status = -1;
	}
	return status;
}

/* --exact: every figure of every row must be the baseline's to the last instruction; each row
 * that is not says why. */
static bool baseline_is_exact(const struct verdict *verdict, const char *refresh)
{
	char why[1024];
	bool exact = true;
	size_t i;

	for (i = 0; i < verdict->row_count; i++) {
		if (policy_row_exact(&verdict->rows[i], why, sizeof(why)))
			continue;
		printf("%s\n", why);
		exact = false;
	}
	if (!exact)
		printf("the baseline is out of date: refresh it (%s)\n", refresh);
	return exact;
}

/* The wall clock beside every instruction regression, unless --no-wall-check: measured here
 * only, never by gate merge, which has no build of its own. */
static int time_regressions(const struct session *session, struct verdict *verdict,
			    struct gate_error *err)
{
	const struct gate_options *options = session->options;
	struct wall_check_options wall = {
		.root = session->root,
		.commit = session->baseline_commit,
		.head_build_dir = options->build_dir,
		.build_command = session->manifest.build_command,
		.measure = &session->measure_options,
		.timeout_seconds = options->timeout_seconds,
		.verbosity = options->verbosity,
	};

	if (options->no_wall_check || !session->measured_here || session->root == NULL)
		return 0;
	if (wall_check_run(verdict, &wall) != 0)
		return gate_error_oom(err);
	return 0;
}

/* costgate.sealed: each scenario's programs as hashed when the build was read (seal.h), and
 * whether the runs saw them read-only. Nothing when no scenario was sealed (merged shards). */
static int add_seals(const struct session *session, cJSON *document)
{
	cJSON *block = cJSON_GetObjectItemCaseSensitive(document, "costgate"), *sealed, *scenarios;
	char *build_dir = realpath(session->options->build_dir, NULL);
	bool read_only = true, any = false;
	size_t i;
	int status = -1;

	for (i = 0; i < session->measurement_count; i++) {
		any = any || session->measurements[i].seal.count > 0;
		read_only = read_only && session->measurements[i].sealed_read_only;
	}
	if (!any) {
		free(build_dir);
		return 0;
	}
	sealed = cJSON_AddObjectToObject(block, "sealed");
	if (sealed == NULL || cJSON_AddBoolToObject(sealed, "read_only", read_only) == NULL ||
	    (scenarios = cJSON_AddObjectToObject(sealed, "scenarios")) == NULL)
		goto out;
	for (i = 0; i < session->measurement_count; i++) {
		const struct measurement *measurement = &session->measurements[i];
		cJSON *files;

		if (measurement->seal.count == 0)
			continue;
		files = seal_to_json(&measurement->seal, build_dir);
		if (files == NULL || !cJSON_AddItemToObject(scenarios, measurement->info.name, files)) {
			cJSON_Delete(files);
			goto out;
		}
	}
	status = 0;
out:
	free(build_dir);
	return status;
}

/* costgate.vary_n: the seed and the range each scenario's N (code[].messages) was drawn from. */
static int add_vary_n(const struct session *session, cJSON *document)
{
	cJSON *block = cJSON_GetObjectItemCaseSensitive(document, "costgate"), *vary;

	if (session->messages_each == NULL)
		return 0;
	/* costgate.messages stays --messages, the N a merge of shards compares and re-measures a
	 * baseline at; each scenario's own is code[].messages. */
	if (!cJSON_ReplaceItemInObjectCaseSensitive(
		    block, "messages", cJSON_CreateNumber((double)session->options->messages)))
		return -1;
	vary = cJSON_AddObjectToObject(block, "vary_n");
	return vary != NULL && cJSON_AddStringToObject(vary, "seed", session->vary_seed) != NULL &&
			       cJSON_AddNumberToObject(vary, "lowest", (double)session->vary_lowest) != NULL &&
			       cJSON_AddNumberToObject(vary, "highest", (double)session->vary_highest) != NULL
		       ? 0 : -1;
}

/* results.json with the verdict: 0, or -1 with err saying what could not be written. */
static int write_results(struct session *session, const struct verdict *verdict,
			 struct gate_error *err)
{
	const struct gate_options *options = session->options;
	cJSON *verdict_json = verdict_to_json(verdict), *document;
	int status = -1;

	document = verdict_json == NULL ? NULL
					: results_document(session->measurements,
							   session->measurement_count,
							   &session->environment, verdict_json);
	if (document != NULL && options->shard_count > 1 &&
	    results_add_shard(document, options->shard_index, options->shard_count,
			      (const char *const *)session->selected, session->selected_count,
			      options->scenario_count > 0) != 0) {
		cJSON_Delete(document);
		document = NULL;
	}
	if (document != NULL && (add_seals(session, document) != 0 || add_vary_n(session, document) != 0)) {
		cJSON_Delete(document);
		document = NULL;
	}
	if (document != NULL && results_keep_scenarios(document, options->json_path) != 0) {
		cJSON_Delete(document);
		document = NULL;
	}
	if (document == NULL)
		gate_error_oom(err);
	else if (session_make_json_directory(options, err) == 0 &&
		 results_write_file(document, options->json_path, err) == 0)
		status = 0;
	cJSON_Delete(document);
	return status;
}

/* Every file is written before the verdict line is printed, so no "pass" stands above an error:
 * when one cannot be written, the verdict line says that instead, and the exit code is 2. */
int session_decide_and_report(struct session *session)
{
	const struct gate_options *options = session->options;
	struct gate_error err = GATE_ERROR_INIT;
	struct verdict verdict = VERDICT_INIT;
	bool whole_suite = !session->partial, written = true;
	char refresh[1024], summary[sizeof(err.message) + 64];
	size_t i;
	int code;

	/* The second opinion's figures against the measured ones, also as a results document holds
	 * them (gate merge decides again from the check's artifact). */
	for (i = 0; i < session->measurement_count; i++)
		crosscheck_compare(&session->measurements[i]);
	if (verdict_decide(&verdict, session->measurements, session->measurement_count,
			   session->have_baseline ? &session->baseline : NULL, &session->acceptance,
			   whole_suite, &err) != 0)
		return session_fail(GATE_EXIT_MEASUREMENT, &err);
	verdict.baseline_source = session->baseline_source;
	verdict.remeasured = session->remeasured;
	verdict.messages_first = session->messages_first;
	refresh_command(session, refresh, sizeof(refresh));
	verdict.refresh_command = refresh;
	if (verdict_explain(&verdict, options->explain, &err) != 0 ||
	    time_regressions(session, &verdict, &err) != 0) {
		verdict_release(&verdict);
		return session_fail(GATE_EXIT_MEASUREMENT, &err);
	}
	code = verdict.exit_code;
	if (write_results(session, &verdict, &err) != 0) {
		session_fail(GATE_EXIT_USAGE, &err);
		snprintf(summary, sizeof(summary), "fail: results not written: %s", err.message);
		written = false;
	}
	if (write_pull_request_reports(session, &verdict) != 0) {
		if (written)
			snprintf(summary, sizeof(summary), "fail: a report could not be written "
				 "(see the error above)");
		written = false;
	}
	if (written && (code == GATE_EXIT_PASS || code == GATE_EXIT_REGRESSION) &&
	    options->save_baseline != NULL && session_save_baseline(session) != 0) {
		snprintf(summary, sizeof(summary), "fail: the baseline was not written (see the "
			 "error above)");
		written = false;
		code = GATE_EXIT_MEASUREMENT;
	} else if (!written) {
		code = GATE_EXIT_USAGE;
	}
	fflush(stderr);
	if (written) {
		table_print(stdout, &verdict, refresh);
	} else {
		table_print_body(stdout, &verdict, refresh);
		printf("%s\n", summary);
	}
	if (written && options->exact && session->have_baseline &&
	    !baseline_is_exact(&verdict, refresh) && code == GATE_EXIT_PASS)
		code = GATE_EXIT_REGRESSION;
	fflush(stdout);
	verdict_release(&verdict);
	return code;
}
