/* Baselines from git. git is run with an argv, in the repository's top directory, and its
 * output is the document: the working tree is never read. */
#define _GNU_SOURCE
#include "baseline.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runner.h"

extern char **environ;

/* What git may not take from anywhere a build can write: replace refs (`git replace` planted at
 * configure time would make the base commit's baseline the pull request's), grafts, the system's
 * and the user's configuration, and every GIT_* variable of gate's own environment (GIT_DIR,
 * GIT_OBJECT_DIRECTORY, ...). The repository's own configuration cannot be switched off: the
 * options in git_options neutralise what of it runs commands during gate's calls. */
static const char *const git_settings[] = {
	"GIT_NO_REPLACE_OBJECTS=1", "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null",
	"GIT_GRAFT_FILE=/dev/null", "GIT_ATTR_NOSYSTEM=1", "GIT_TERMINAL_PROMPT=0",
	"GIT_OPTIONAL_LOCKS=0", NULL,
};

static const char *const git_options[] = {
	"--no-replace-objects", "-c", "core.hooksPath=/dev/null", "-c", "core.fsmonitor=false",
	"-c", "core.attributesFile=/dev/null", NULL,
};

char *const *baseline_git_environment(void)
{
	static char **environment;
	size_t count = 0, used = 0, i;

	if (environment != NULL)
		return environment;
	while (environ[count] != NULL)
		count++;
	environment = calloc(count + sizeof(git_settings) / sizeof(git_settings[0]), sizeof(char *));
	if (environment == NULL)
		return NULL;
	for (i = 0; i < count; i++)
		if (strncmp(environ[i], "GIT_", 4) != 0)
			environment[used++] = environ[i];
	for (i = 0; git_settings[i] != NULL; i++)
		environment[used++] = (char *)git_settings[i];
	environment[used] = NULL;
	return environment;
}

int baseline_git(const char *root, const char *const *arguments, char **output,
		 struct gate_error *err)
{
	char *const *environment = baseline_git_environment();
	char *git = runner_find_program("git", getenv("PATH"));
	char *argv[32], *safe = NULL;
	size_t argc = 0, i;
	int status;

	*output = NULL;
	if (git == NULL)
		return gate_error_set(err, "cannot run git: not found on PATH");
	if (environment == NULL || asprintf(&safe, "safe.directory=%s", root) < 0) {
		free(git);
		return gate_error_oom(err);
	}
	argv[argc++] = git;
	for (i = 0; git_options[i] != NULL; i++)
		argv[argc++] = (char *)git_options[i];
	/* Without the user's configuration, the one directory gate reads is named safe here (a
	 * checkout owned by another user, as in a CI container). */
	argv[argc++] = "-c";
	argv[argc++] = safe;
	while (*arguments != NULL && argc < sizeof(argv) / sizeof(argv[0]) - 1)
		argv[argc++] = (char *)*arguments++;
	argv[argc] = NULL;
	status = runner_capture(argv, root, environment, 120, output, err);
	free(safe);
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

/* A full object name: 40 (SHA-1) or 64 (SHA-256) hexadecimal digits, which git takes as the
 * object itself before any ref of that name. */
static bool is_full_hash(const char *text)
{
	size_t length = strspn(text, "0123456789abcdef");

	return text[length] == '\0' && (length == 40 || length == 64);
}

/* The commit `object` names (a full hash, owned), or NULL. */
static char *peel_to_commit(const char *root, const char *object)
{
	struct gate_error err = GATE_ERROR_INIT;
	char *spec = NULL, *output = NULL;
	const char *arguments[] = { "rev-parse", "--verify", "--quiet", "--end-of-options", NULL, NULL };

	if (asprintf(&spec, "%s^{commit}", object) < 0)
		return NULL;
	arguments[4] = spec;
	if (baseline_git(root, arguments, &output, &err) == 0)
		trim_newline(output);
	else if (output != NULL)
		output[0] = '\0';
	if (output != NULL && !is_full_hash(output)) {
		free(output);
		output = NULL;
	}
	free(spec);
	return output;
}

/* One component of a branch name: not empty, no leading '.', no ".lock" ending (git's own
 * check-ref-format rules, within a character set that has no revision syntax). */
static bool is_plain_component(const char *component, size_t length)
{
	return length > 0 && component[0] != '.' &&
	       !(length >= 5 && memcmp(component + length - 5, ".lock", 5) == 0);
}

/* A branch name that can only be read one way: letters, digits, '.', '_', '-' and '/' between
 * components, no leading '-', no "..", not HEAD nor under refs/, at most 200 characters. */
static bool is_plain_branch_name(const char *name)
{
	size_t length = strlen(name), at = 0;

	if (length == 0 || length > 200 || name[0] == '-' || name[length - 1] == '.' ||
	    strspn(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._/-") != length ||
	    strstr(name, "..") != NULL || strcmp(name, "HEAD") == 0 || strncmp(name, "refs/", 5) == 0)
		return false;
	while (at <= length) {
		size_t component = strcspn(name + at, "/");

		if (!is_plain_component(name + at, component))
			return false;
		at += component + 1;
	}
	return true;
}

const char *baseline_branch_of(const char *name)
{
	const char *slash;

	if (strncmp(name, "refs/heads/", 11) == 0)
		return name + 11;
	if (strncmp(name, "refs/remotes/", 13) == 0 && (slash = strchr(name + 13, '/')) != NULL &&
	    slash > name + 13)
		return slash + 1;
	return strncmp(name, "refs/", 5) == 0 ? NULL : name;
}

int baseline_check_branch_name(const char *name, const char *option, bool qualified,
			       struct gate_error *err)
{
	const char *branch = qualified ? baseline_branch_of(name) : name;

	if (strncmp(name, "refs/tags/", 10) == 0)
		return gate_error_set(err, "%s needs a branch, not the tag '%.80s': a tag is never a "
				      "baseline", option, name);
	if (branch == NULL || !is_plain_branch_name(branch))
		return gate_error_set(err, "%s needs a branch name (letters, digits, '.', '_', '-', "
				      "'/' between parts; it becomes baselines/NAME.json%s), not "
				      "'%.80s'", option, qualified ? "; or refs/heads/NAME, "
				      "refs/remotes/REMOTE/NAME" : "", name);
	return 0;
}

/* The refs that could be branch `name`, from `git for-each-ref`: the remote-tracking refs
 * (refs/remotes/R/NAME, origin's kept apart), the local branch, and a tag of that name (never
 * used; it is named in the error so that a planted tag is visible). */
struct ref_candidates {
	char *origin;        /* "HASH refs/remotes/origin/NAME" line's hash, owned */
	char *remotes[8];    /* other remotes' refs/remotes/R/NAME (refnames, owned) */
	char *remote_hashes[8];
	size_t remote_count;
	char *local;         /* refs/heads/NAME's hash, owned */
	bool tag;            /* refs/tags/NAME exists */
};

static void candidates_release(struct ref_candidates *candidates)
{
	size_t i;

	free(candidates->origin);
	free(candidates->local);
	for (i = 0; i < candidates->remote_count; i++) {
		free(candidates->remotes[i]);
		free(candidates->remote_hashes[i]);
	}
}

static void candidates_add(struct ref_candidates *candidates, const char *name, const char *hash,
			   const char *refname)
{
	size_t name_length = strlen(name), ref_length = strlen(refname);
	const char *remote;

	if (strncmp(refname, "refs/heads/", 11) == 0 && strcmp(refname + 11, name) == 0) {
		free(candidates->local);
		candidates->local = strdup(hash);
	} else if (strncmp(refname, "refs/tags/", 10) == 0 && strcmp(refname + 10, name) == 0) {
		candidates->tag = true;
	} else if (strncmp(refname, "refs/remotes/", 13) == 0 && ref_length > 13 + name_length + 1 &&
		   strcmp(refname + ref_length - name_length, name) == 0 &&
		   refname[ref_length - name_length - 1] == '/') {
		remote = refname + 13;
		if ((size_t)(refname + ref_length - name_length - 1 - remote) == 6 &&
		    strncmp(remote, "origin", 6) == 0) {
			free(candidates->origin);
			candidates->origin = strdup(hash);
		} else if (memchr(remote, '/', (size_t)(refname + ref_length - name_length - 1 - remote)) == NULL &&
			   candidates->remote_count < sizeof(candidates->remotes) / sizeof(candidates->remotes[0])) {
			candidates->remotes[candidates->remote_count] = strdup(refname);
			candidates->remote_hashes[candidates->remote_count++] = strdup(hash);
		}
	}
}

static int list_candidates(const char *root, const char *name, struct ref_candidates *candidates,
			   struct gate_error *err)
{
	const char *arguments[] = { "for-each-ref", "--format=%(objectname) %(refname)",
				    "refs/heads/", "refs/remotes/", "refs/tags/", NULL };
	char *output = NULL, *line, *next;

	if (baseline_git(root, arguments, &output, err) != 0) {
		free(output);
		return gate_error_prefix(err, "no baseline: cannot list the refs");
	}
	for (line = output; line != NULL && *line != '\0'; line = next) {
		char *space;

		next = strchr(line, '\n');
		if (next != NULL)
			*next++ = '\0';
		space = strchr(line, ' ');
		if (space == NULL)
			continue;
		*space = '\0';
		candidates_add(candidates, name, line, space + 1);
	}
	free(output);
	return 0;
}

char *baseline_default_branch(const char *root)
{
	static const char *const guesses[] = { "main", "master", NULL };
	const char *symbolic[] = { "symbolic-ref", "--quiet", "refs/remotes/origin/HEAD", NULL };
	struct gate_error ignored = GATE_ERROR_INIT;
	char *output = NULL, *branch = NULL;
	size_t i;

	if (baseline_git(root, symbolic, &output, &ignored) == 0) {
		trim_newline(output);
		if (strncmp(output, "refs/remotes/origin/", 20) == 0 &&
		    baseline_check_branch_name(output + 20, "origin/HEAD", false, &ignored) == 0)
			branch = strdup(output + 20);
	}
	free(output);
	for (i = 0; branch == NULL && guesses[i] != NULL; i++) {
		struct ref_candidates candidates = { 0 };

		if (list_candidates(root, guesses[i], &candidates, &ignored) == 0 &&
		    (candidates.local != NULL || candidates.origin != NULL))
			branch = strdup(guesses[i]);
		candidates_release(&candidates);
	}
	return branch;
}

/* Exactly the ref `refname` (fully qualified), without git's abbreviation rules. */
static char *exact_ref(const char *root, const char *refname)
{
	struct gate_error err = GATE_ERROR_INIT;
	const char *arguments[] = { "show-ref", "--verify", "--hash", "--", refname, NULL };
	char *output = NULL, *commit = NULL;

	if (baseline_git(root, arguments, &output, &err) == 0) {
		trim_newline(output);
		commit = peel_to_commit(root, output);
	}
	free(output);
	return commit;
}

/* How many commits `from`..`to` holds (git rev-list --count), or -1 when git cannot say. */
static long commits_between(const char *root, const char *from, const char *to)
{
	struct gate_error ignored = GATE_ERROR_INIT;
	char *range = NULL, *output = NULL, *end = NULL;
	const char *arguments[] = { "rev-list", "--count", NULL, "--", NULL };
	long count = -1;

	if (asprintf(&range, "%s..%s", from, to) < 0)
		return -1;
	arguments[2] = range;
	if (baseline_git(root, arguments, &output, &ignored) == 0) {
		count = strtol(output, &end, 10);
		if (end == output || count < 0)
			count = -1;
	}
	free(output);
	free(range);
	return count;
}

/* Between the remote's branch and the local one of the same name when they differ: the local
 * one when it has every commit of the remote's and more (committed here, not pushed yet: what
 * the user has), else the remote's (a local branch behind it is one not pulled). *why says
 * which and why (owned). Returns true to read the local one. */
static bool prefer_local(const char *root, const char *name, const char *remote_ref,
			 const char *remote_hash, const char *local_hash, char **why)
{
	long ahead = commits_between(root, remote_hash, local_hash);
	long behind = commits_between(root, local_hash, remote_hash);
	bool local = ahead > 0 && behind == 0;

	if (local) {
		if (asprintf(why, "refs/heads/%s, which has %ld commit%s %s has not (not pushed yet) "
			     "and all of its", name, ahead, ahead == 1 ? "" : "s", remote_ref) < 0)
			*why = NULL;
	} else if (asprintf(why, "%s, not refs/heads/%s, which %s", remote_ref, name,
			    behind > 0 && ahead > 0 ? "has diverged from it"
			    : behind > 0 ? "is behind it" : "differs from it") < 0) {
		*why = NULL;
	}
	return local;
}

/* Branch `name`: refs/remotes/origin/NAME, else the one other remote that has NAME, else
 * refs/heads/NAME; the local branch over the remote's when it is ahead of it (prefer_local).
 * Never a tag, never git's abbreviation rules (under which a tag `main` planted by a build
 * would win over origin/main). */
static int resolve_branch(const char *root, const char *name, char **commit, char **ref,
			  char **why, struct gate_error *err)
{
	struct ref_candidates candidates = { 0 };
	const char *hash = NULL;
	int status = -1;

	if (list_candidates(root, name, &candidates, err) != 0)
		return -1;
	if (candidates.origin != NULL) {
		hash = candidates.origin;
		*ref = NULL;
		if (asprintf(ref, "refs/remotes/origin/%s", name) < 0)
			*ref = NULL;
	} else if (candidates.remote_count > 1) {
		gate_error_set(err, "no baseline: '%s' is ambiguous: refs/remotes/origin/%s does not "
			       "exist and %s and %s both do (pass the base commit: --base-commit SHA)",
			       name, name, candidates.remotes[0], candidates.remotes[1]);
		goto out;
	} else if (candidates.remote_count == 1) {
		hash = candidates.remote_hashes[0];
		*ref = strdup(candidates.remotes[0]);
	} else if (candidates.local != NULL) {
		hash = candidates.local;
		*ref = NULL;
		if (asprintf(ref, "refs/heads/%s", name) < 0)
			*ref = NULL;
	} else {
		gate_error_set(err, "no baseline: no branch '%s' here: looked at refs/remotes/origin/%s, "
			       "refs/remotes/*/%s and refs/heads/%s%s%s%s (create one on that branch "
			       "with: gate --save-baseline %s)", name, name, name, name,
			       candidates.tag ? "; refs/tags/" : "", candidates.tag ? name : "",
			       candidates.tag ? " exists but a tag is never a baseline" : "", name);
		goto out;
	}
	if (*ref == NULL) {
		gate_error_oom(err);
		goto out;
	}
	if (hash != candidates.local && candidates.local != NULL &&
	    strcmp(hash, candidates.local) != 0 &&
	    prefer_local(root, name, *ref, hash, candidates.local, why)) {
		hash = candidates.local;
		free(*ref);
		*ref = NULL;
		if (asprintf(ref, "refs/heads/%s", name) < 0) {
			*ref = NULL;
			gate_error_oom(err);
			goto out;
		}
	}
	*commit = peel_to_commit(root, hash);
	if (*commit == NULL) {
		gate_error_set(err, "no baseline: %s does not name a commit", *ref);
		free(*ref);
		*ref = NULL;
		goto out;
	}
	status = 0;
out:
	candidates_release(&candidates);
	return status;
}

int baseline_resolve(const char *root, const char *name, const char *base_commit, char **commit,
		     char **ref, char **why, struct gate_error *err)
{
	*commit = NULL;
	*ref = NULL;
	*why = NULL;
	if (base_commit != NULL) {
		if (!is_full_hash(base_commit))
			return gate_error_set(err, "no baseline: --base-commit needs a full commit hash "
					      "(40 or 64 lowercase hexadecimal digits), not '%.80s'", base_commit);
		*commit = peel_to_commit(root, base_commit);
		if (*commit == NULL)
			return gate_error_set(err, "no baseline: commit %s is not in this repository "
					      "(fetch it: git fetch origin %s)", base_commit, base_commit);
		*ref = strdup("the base commit");
		if (*ref == NULL) {
			free(*commit);
			*commit = NULL;
			return gate_error_oom(err);
		}
		return 0;
	}
	if (baseline_check_branch_name(name, "--baseline", true, err) != 0)
		return -1;
	if (strncmp(name, "refs/", 5) == 0) {
		*commit = exact_ref(root, name);
		if (*commit == NULL)
			return gate_error_set(err, "no baseline: looked at %s: not a ref here", name);
		*ref = strdup(name);
		if (*ref == NULL) {
			free(*commit);
			*commit = NULL;
			return gate_error_oom(err);
		}
		return 0;
	}
	return resolve_branch(root, name, commit, ref, why, err);
}

/* Whether `object` (COMMIT:PATH) is committed, and small enough to read: a baseline above
 * RUNNER_CAPTURE_MAX is a malformed input (exit 2), not a missing one. */
static enum baseline_status committed_size(const char *root, const char *object,
					   const char *source, struct gate_error *err)
{
	const char *arguments[] = { "cat-file", "-s", "--end-of-options", object, NULL };
	struct gate_error ignored = GATE_ERROR_INIT;
	char *output = NULL, *end = NULL;
	unsigned long long size;
	enum baseline_status status = BASELINE_ABSENT;

	if (baseline_git(root, arguments, &output, &ignored) != 0)
		goto out;
	errno = 0;
	size = strtoull(output, &end, 10);
	status = BASELINE_MALFORMED;
	if (errno != 0 || end == output || (*end != '\n' && *end != '\0'))
		gate_error_set(err, "cannot read the size of %s from git: '%.40s'", source, output);
	else if (size > RUNNER_CAPTURE_MAX)
		gate_error_set(err, "%s is %llu bytes, more than " RUNNER_CAPTURE_LIMIT_TEXT
			       " (gate's limit for a baseline)", source, size);
	else
		status = BASELINE_FOUND;
out:
	free(output);
	return status;
}

enum baseline_status baseline_load_ref(struct results *baseline, const char *root,
				       const char *name, const char *commit, const char *ref,
				       char **source, struct gate_error *err)
{
	char *object = NULL, *text = NULL;
	const char *arguments[] = { "show", NULL, NULL };
	enum baseline_status status = BASELINE_ABSENT;

	*source = NULL;
	*baseline = (struct results)RESULTS_INIT;
	name = baseline_branch_of(name);
	if (name == NULL) {
		gate_error_set(err, "no baseline: '%s' is not a branch", ref);
		return BASELINE_ABSENT;
	}
	if (asprintf(&object, "%s:baselines/%s.json", commit, name) < 0 ||
	    asprintf(source, "baselines/%s.json at %s (%.12s)", name, ref, commit) < 0) {
		*source = NULL;
		gate_error_oom(err);
		status = BASELINE_MALFORMED;
		goto out;
	}
	arguments[1] = object;
	status = committed_size(root, object, *source, err);
	if (status == BASELINE_ABSENT)
		gate_error_set(err, "no baseline: baselines/%s.json is not committed on %s (%.12s) "
			       "(create it on %s with gate --save-baseline %s, and commit it)",
			       name, ref, commit, name, name);
	if (status != BASELINE_FOUND)
		goto out;
	status = BASELINE_MALFORMED; /* it is there: from here on, what fails is the file */
	if (baseline_git(root, arguments, &text, err) != 0) {
		gate_error_prefix(err, "cannot read %s", *source);
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
		gate_error_oom(err);
		return BASELINE_MALFORMED;
	}
	return BASELINE_FOUND;
}
