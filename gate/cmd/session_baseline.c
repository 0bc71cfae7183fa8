/* The session's baseline steps: the acceptances, the baseline read (from the branch, the
 * local branch, or a file), measured again in a worktree when it is not comparable, the head
 * measured again at its N when the two Ns do not compare, and --save-baseline. */
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

int session_load_acceptance(struct session *session)
{
	struct gate_error err = GATE_ERROR_INIT;
	char *path = NULL;
	int status;

	if (session->options->accepted_path != NULL)
		path = strdup(session->options->accepted_path);
	else if (asprintf(&path, "%s/baselines/accepted.json", session->root ? session->root : ".") < 0)
		path = NULL;
	if (path == NULL) {
		gate_error_oom(&err);
		return session_fail(GATE_EXIT_USAGE, &err);
	}
	status = acceptance_read(&session->acceptance, path, metric_acceptance_figures(), &err);
	free(path);
	return status == 0 ? 0 : session_fail(GATE_EXIT_USAGE, &err);
}

/* The remote's branch has no baseline file: the local branch of the name, when it has one (a
 * baseline committed here and not pushed yet). BASELINE_ABSENT with `err` as it was otherwise. */
static enum baseline_status load_local_instead(struct session *session, char **why,
					       struct gate_error *err)
{
	const char *branch = baseline_branch_of(session->options->baseline_ref);
	char *local = NULL, *commit = NULL, *ref = NULL, *ignored_why = NULL, *source = NULL;
	struct gate_error ignored = GATE_ERROR_INIT;
	struct results found = RESULTS_INIT;
	enum baseline_status status = BASELINE_ABSENT;

	if (branch == NULL || session->options->base_commit != NULL ||
	    strncmp(session->baseline_ref, "refs/remotes/", 13) != 0 ||
	    asprintf(&local, "refs/heads/%s", branch) < 0)
		return BASELINE_ABSENT;
	if (baseline_resolve(session->root, local, NULL, &commit, &ref, &ignored_why, &ignored) == 0 &&
	    baseline_load_ref(&found, session->root, branch, commit, ref, &source, &ignored) ==
		    BASELINE_FOUND) {
		free(*why);
		if (asprintf(why, "%s, as %s has no baselines/%s.json", ref, session->baseline_ref,
			     branch) < 0)
			*why = NULL;
		results_release(&session->baseline);
		session->baseline = found;
		found = (struct results)RESULTS_INIT;
		free(session->baseline_commit);
		free(session->baseline_ref);
		session->baseline_commit = commit;
		session->baseline_ref = ref;
		session->baseline_source = source;
		commit = ref = source = NULL;
		status = BASELINE_FOUND;
		*err = (struct gate_error)GATE_ERROR_INIT;
	}
	results_release(&found);
	free(local);
	free(commit);
	free(ref);
	free(ignored_why);
	free(source);
	return status;
}

int session_load_baseline(struct session *session)
{
	const struct gate_options *options = session->options;
	struct gate_error err = GATE_ERROR_INIT;
	enum baseline_status status;
	char *why = NULL;

	if (options->baseline_ref == NULL && options->baseline_file == NULL)
		return 0;
	if (options->baseline_file != NULL) {
		status = baseline_load_file(&session->baseline, options->baseline_file,
					    &session->baseline_source, &err);
	} else if (session->root == NULL) {
		gate_error_set(&err, "no baseline: the current directory is not in a git repository");
		status = BASELINE_ABSENT;
	} else if (baseline_resolve(session->root, options->baseline_ref, options->base_commit,
				    &session->baseline_commit, &session->baseline_ref, &why,
				    &err) != 0) {
		status = BASELINE_ABSENT;
	} else {
		status = baseline_load_ref(&session->baseline, session->root, options->baseline_ref,
					   session->baseline_commit, session->baseline_ref,
					   &session->baseline_source, &err);
		if (status == BASELINE_ABSENT)
			status = load_local_instead(session, &why, &err);
	}
	if (why != NULL && status == BASELINE_FOUND)
		fprintf(stderr, "gate: baseline: read %s\n", why);
	free(why);
	if (status == BASELINE_MALFORMED)
		return session_fail(GATE_EXIT_USAGE, &err);
	if (status == BASELINE_ABSENT) {
		if (!options->baseline_optional)
			return session_fail(GATE_EXIT_NO_BASELINE, &err);
		fprintf(stderr, "gate: %s; checking floors only\n", err.message);
		return 0;
	}
	session->have_baseline = true;
	return 0;
}

/* The same environment (fingerprint) and every scenario built alike (policy_builds_equal). */
static int comparable(const struct session *session, const struct results *baseline,
		      char *difference, size_t size)
{
	return environment_fingerprint_equal(&session->environment, &baseline->fingerprint,
					     difference, size) &&
	       policy_builds_equal(session->measurements, session->measurement_count, baseline,
				  difference, size);
}

/* A stored baseline from another toolchain is not compared: the ref is measured here instead. */
int session_make_comparable(struct session *session, const struct measure_options *measure_options)
{
	struct gate_error err = GATE_ERROR_INIT;
	char difference[2048];
	char *raw_dir = NULL;
	struct measure_options baseline_options = *measure_options;
	int status;

	if (!session->have_baseline ||
	    comparable(session, &session->baseline, difference, sizeof(difference)))
		return 0;
	if (session->baseline_commit == NULL) {
		gate_error_set(&err, "no comparable baseline: '%s' was measured with another toolchain "
			       "(%s)", session->baseline_source, difference);
		return session_fail(GATE_EXIT_NO_BASELINE, &err);
	}
	fprintf(stderr, "gate: the stored baseline is not comparable (%s): measuring %s here in a "
		"temporary worktree\n", difference, session->baseline_ref);
	results_release(&session->baseline);
	free(session->baseline_source);
	session->baseline_source = NULL;
	session->have_baseline = false;
	if (asprintf(&raw_dir, "%s/baseline", session->raw_dir) < 0 || session_make_directories(raw_dir, &err) != 0) {
		free(raw_dir);
		return session_fail(GATE_EXIT_NO_BASELINE, &err);
	}
	baseline_options.raw_dir = raw_dir;
	baseline_options.estimates = NULL; /* the baseline they came from is gone */
	baseline_options.unoptimised = NULL; /* built as the head was: its flags are compared */
	baseline_options.messages_each = NULL; /* drawn for the head's scenarios; slopes compare */
	baseline_options.estimate_count = 0;
	status = worktree_measure(&session->baseline,
				  &(struct worktree_source){ session->root, session->baseline_commit,
							     session->baseline_ref,
							     session->options->build_dir,
							     session->manifest.build_command },
				  &baseline_options, session->valgrind, &session->baseline_source,
				  &err);
	free(raw_dir);
	if (status != 0)
		return session_fail(GATE_EXIT_NO_BASELINE, &err);
	if (!comparable(session, &session->baseline, difference, sizeof(difference))) {
		gate_error_set(&err, "no comparable baseline: %s built here still differs (%s)",
			       session->baseline_ref, difference);
		return session_fail(GATE_EXIT_NO_BASELINE, &err);
	}
	session->have_baseline = true;
	session->remeasured = true;
	return 0;
}

int session_match_messages(struct session *session, struct measure_options *measure_options)
{
	const char *name;
	double percent;
	size_t i;

	if (!session->have_baseline ||
	    policy_measure_again_at(session->measurements, session->measurement_count,
				   session->messages, &session->baseline, &name, &percent) == 0)
		return 0;
	fprintf(stderr, "gate: head measured at N = %llu, the baseline at N = %llu, and '%s' is "
		"linear only within %.2f %% (the limit for comparing across N is %g %%): measuring "
		"the head again at N = %llu\n", (unsigned long long)session->messages,
		(unsigned long long)session->baseline.messages, name, percent,
		SLOPE_COMPARABLE_LINEARITY_PERCENT, (unsigned long long)session->baseline.messages);
	for (i = 0; i < session->measurement_count; i++)
		measurement_release(&session->measurements[i]);
	session->messages_first = session->messages;
	session->messages = session->baseline.messages;
	measure_options->messages = session->messages;
	return session_measure_scenarios(session, measure_options);
}

int session_save_baseline(struct session *session)
{
	const struct gate_options *options = session->options;
	struct gate_error err = GATE_ERROR_INIT;
	char *directory = NULL, *path = NULL;
	cJSON *document = NULL;
	size_t i;
	int code = GATE_EXIT_USAGE;

	for (i = 0; i < session->measurement_count; i++) {
		if (session->measurements[i].failed) {
			gate_error_set(&err, "baseline not written: '%s' failed to measure",
				       session->measurements[i].info.name);
			return session_fail(GATE_EXIT_MEASUREMENT, &err);
		}
	}
	/* A branch release/2.x keeps its baseline in baselines/release/2.x.json. */
	if (asprintf(&path, "%s/baselines/%s.json", session->root ? session->root : ".",
		     options->save_baseline) < 0 ||
	    (directory = strndup(path, (size_t)(strrchr(path, '/') - path))) == NULL) {
		gate_error_oom(&err);
		goto out;
	}
	document = results_document(session->measurements, session->measurement_count,
				    &session->environment, NULL);
	if (document == NULL) {
		gate_error_oom(&err);
		goto out;
	}
	/* The temporary file goes to the raw directory (in the build), so a write killed half way
	 * leaves nothing in baselines/ for `git add` to pick up. */
	if (session_make_directories(directory, &err) != 0 ||
	    results_write_file_via(document, path, session->raw_dir, &err) != 0)
		goto out;
	fprintf(stderr, "gate: wrote the baseline baselines/%s.json (commit it on %s)\n",
		options->save_baseline, options->save_baseline);
	code = 0;
out:
	cJSON_Delete(document);
	free(directory);
	free(path);
	return code == 0 ? 0 : session_fail(code, &err);
}
