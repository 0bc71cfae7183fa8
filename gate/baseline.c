/* Baselines from git. git is run with an argv, in the repository's top directory, and its
 * output is the document: the working tree is never read. */
#define _GNU_SOURCE
#include "baseline.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runner.h"

extern char **environ;

int baseline_git(const char *root, const char *const *arguments, char **output,
		 struct gate_error *err)
{
	char *git = runner_find_program("git", getenv("PATH"));
	char *argv[16];
	size_t argc = 0;
	int status;

	*output = NULL;
	if (git == NULL)
		return gate_error_set(err, "cannot run git: not found on PATH");
	argv[argc++] = git;
	while (*arguments != NULL && argc < sizeof(argv) / sizeof(argv[0]) - 1)
		argv[argc++] = (char *)*arguments++;
	argv[argc] = NULL;
	status = runner_capture(argv, root, environ, 120, output, err);
	free(git);
	return status;
}

static void trim_newline(char *text)
{
	size_t length = strlen(text);

	while (length > 0 && (text[length - 1] == '\n' || text[length - 1] == '\r'))
		text[--length] = '\0';
}

char *baseline_repository_root(void)
{
	const char *arguments[] = { "rev-parse", "--show-toplevel", NULL };
	struct gate_error err = GATE_ERROR_INIT;
	char *output = NULL;

	if (baseline_git(".", arguments, &output, &err) != 0)
		return NULL;
	trim_newline(output);
	return output;
}

char *baseline_resolve_ref(const char *root, const char *name)
{
	static const char *const prefixes[] = { "", "origin/" };
	size_t i;

	for (i = 0; i < 2; i++) {
		struct gate_error err = GATE_ERROR_INIT;
		char *spec = NULL, *output = NULL;
		const char *arguments[] = { "rev-parse", "--verify", "--quiet", NULL, NULL };

		if (asprintf(&spec, "%s%s^{commit}", prefixes[i], name) < 0)
			return NULL;
		arguments[3] = spec;
		if (baseline_git(root, arguments, &output, &err) == 0) {
			free(spec);
			trim_newline(output);
			return output;
		}
		free(spec);
	}
	return NULL;
}

enum baseline_status baseline_load_ref(struct results *baseline, const char *root,
				       const char *name, char **source, struct gate_error *err)
{
	char *commit = baseline_resolve_ref(root, name);
	char *object = NULL, *text = NULL;
	const char *arguments[] = { "show", NULL, NULL };
	enum baseline_status status = BASELINE_ABSENT;

	*source = NULL;
	*baseline = (struct results)RESULTS_INIT;
	if (commit == NULL) {
		gate_error_set(err, "no baseline: neither '%s' nor 'origin/%s' is a git ref here "
			       "(create one on that branch with: gate --save-baseline %s)", name, name, name);
		return BASELINE_ABSENT;
	}
	if (asprintf(&object, "%s:baselines/%s.json", commit, name) < 0 ||
	    asprintf(source, "baselines/%s.json at %s (%.12s)", name, name, commit) < 0) {
		*source = NULL;
		gate_error_set(err, "out of memory");
		status = BASELINE_MALFORMED;
		goto out;
	}
	arguments[1] = object;
	if (baseline_git(root, arguments, &text, err) != 0) {
		gate_error_set(err, "no baseline: baselines/%s.json is not committed on %s (%.12s) "
			       "(create it on %s with gate --save-baseline %s, and commit it)",
			       name, name, commit, name, name);
		goto out;
	}
	status = results_parse(baseline, text, strlen(text), *source, err) == 0 ? BASELINE_FOUND
										: BASELINE_MALFORMED;
out:
	if (status != BASELINE_FOUND) {
		free(*source);
		*source = NULL;
	}
	free(text);
	free(object);
	free(commit);
	return status;
}

enum baseline_status baseline_load_file(struct results *baseline, const char *path,
					char **source, struct gate_error *err)
{
	*source = NULL;
	if (access(path, F_OK) != 0) {
		int saved = errno;

		*baseline = (struct results)RESULTS_INIT;
		gate_error_set(err, "no baseline: cannot read '%s': %s", path, strerror(saved));
		return BASELINE_ABSENT;
	}
	if (results_read_file(baseline, path, err) != 0)
		return BASELINE_MALFORMED;
	*source = strdup(path);
	if (*source == NULL) {
		results_release(baseline);
		gate_error_set(err, "out of memory");
		return BASELINE_MALFORMED;
	}
	return BASELINE_FOUND;
}
