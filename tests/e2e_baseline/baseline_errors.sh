#!/usr/bin/env bash
# Baselines that cannot be used, end to end in a real git repository: none committed on main
# (exit 4, saying how to make one), malformed ones committed on a ref or given as a file (exit 2,
# naming the file and the problem), and `--save-baseline` SIGKILLed at several points: the
# committed baselines/main.json stays byte-identical and no temporary file is left beside it.
# Usage: baseline_errors.sh GATE COSTGATE_SOURCE_DIR
# shellcheck source=tests/e2e_baseline/common.sh
source "$(dirname "$0")/common.sh"

repo=$work/repo

built_repo "$repo"

# 6. No baseline: none committed on main (a copy in the working tree does not count), no ref.
started=$(date +%s%N)
run_gate "$repo" --save-baseline main
save_ms=$((($(date +%s%N) - started) / 1000000))
if [ "$code" -ne 0 ] || [ ! -s "$repo/baselines/main.json" ]; then
  setup_fail "--save-baseline main exited $code" "$err"
fi
valid=$work/valid.json
cp "$repo/baselines/main.json" "$valid"
run_gate "$repo" --baseline=main
check_run "baseline_not_committed_on_main_should_exit_4_saying_how_to_make_one" 4 \
  "err:baselines/main\.json is not committed on refs/heads/main" \
  "err:gate --save-baseline main, and commit it" \
  "!."
git -C "$repo" branch -m main trunk
run_gate "$repo" --baseline=main
git -C "$repo" branch -m trunk main
check_run "baseline_ref_missing_should_exit_4_saying_how_to_make_one" 4 \
  "err:no branch 'main' here: looked at refs/remotes/origin/main, refs/remotes/\*/main and refs/heads/main" \
  "err:create one on that branch with: gate --save-baseline main" "!."
run_gate "$repo" --baseline-file "$work/nowhere.json"
check_run "baseline_file_missing_should_exit_4" 4 "err:no baseline: cannot read '.*nowhere\.json'"
mkdir -p "$work/outside"
if git -C "$work/outside" rev-parse --git-dir >/dev/null 2>&1; then
  skip "baseline_outside_git_should_exit_4: $work is inside a git repository"
else
  (cd "$work/outside" && exec "$gate" --build-dir "$repo/build" -j 2 --baseline=main) >"$out" 2>"$err"
  code=$?
  check_run "baseline_outside_git_should_exit_4" 4 "err:not in a git repository"
fi
commit "$repo" "baseline of main"

# commit_on_ref NAME FILE: commits FILE as baselines/NAME.json on a new branch NAME made from
# main, without touching the working tree or the index.
commit_on_ref() {
  local name=$1 file=$2 blob tree commit_id index=$work/index.$1
  blob=$(git -C "$repo" hash-object -w "$file") &&
    GIT_INDEX_FILE=$index git -C "$repo" read-tree main &&
    GIT_INDEX_FILE=$index git -C "$repo" update-index --add --cacheinfo "100644,$blob,baselines/$name.json" &&
    tree=$(GIT_INDEX_FILE=$index git -C "$repo" write-tree) &&
    commit_id=$(git -C "$repo" commit-tree "$tree" -p main -m "broken baseline: $name") &&
    git -C "$repo" update-ref "refs/heads/$name" "$commit_id"
}

# malformed NAME PROBLEM_PATTERN: the file $work/NAME.json, committed as baselines/NAME.json on
# ref NAME, makes `gate --baseline=NAME` exit 2 naming the file and the problem.
malformed() {
  local name=$1 problem=$2
  if cmp -s "$work/$name.json" "$valid"; then
    fail "malformed_baseline_should_exit_2 ($name): the edit changed nothing"
    return
  fi
  if ! commit_on_ref "$name" "$work/$name.json"; then
    fail "malformed_baseline_should_exit_2 ($name): cannot commit it"
    return
  fi
  run_gate "$repo" --baseline="$name"
  check_run "malformed_baseline_should_exit_2 ($name)" 2 \
    "err:baselines/$name\.json at refs/heads/$name \([0-9a-f]{12}\)" "err:$problem" "!."
}

# edit NAME SED_SCRIPT: $work/NAME.json is the valid baseline edited with `sed -E`.
edit() { sed -E "$2" "$valid" >"$work/$1.json"; }

head -c "$(($(wc -c <"$valid") / 2))" "$valid" >"$work/truncated.json"
malformed truncated "not JSON \(at byte [0-9]+\)"
printf 'this is not JSON\n' >"$work/not-json.json"
malformed not-json "not JSON \(at byte 0\)"
: >"$work/empty.json"
malformed empty "not JSON"
printf '[]\n' >"$work/array.json"
malformed array "the document is not a JSON object"
edit wrong-schema '0,/"schema":/ s/("schema":[[:space:]]*)3,/\14,/'
malformed wrong-schema "schema is not 3"
edit wrong-gate-schema '/"costgate":/,/"schema":/ s/("schema":[[:space:]]*)[0-9]+,/\199,/'
malformed wrong-gate-schema "costgate\.schema is not [0-9]+"
edit no-code 's/"code":/"kode":/'
malformed no-code "code is missing or not an array"
edit negative-count '0,/"instructions":[[:space:]]*\[/ s/("instructions":[[:space:]]*\[)([0-9])/\1-\2/'
malformed negative-count "code\[0\]\.counts\.instructions\[0\] is not a non-negative integer"
edit string-count '0,/"instructions":[[:space:]]*\[/ s/("instructions":[[:space:]]*\[)([0-9]+)/\1"\2"/'
malformed string-count "code\[0\]\.counts\.instructions\[0\] is not a non-negative integer"
edit huge-count '0,/"allocations":[[:space:]]*\[/ s/("allocations":[[:space:]]*\[)([0-9]+)/\11e30/'
malformed huge-count "code\[0\]\.counts\.allocations\[0\] is not a non-negative integer below 2\^53"
edit fraction-count '0,/"bytes":[[:space:]]*\[/ s/("bytes":[[:space:]]*\[)([0-9]+)/\1\2.5/'
malformed fraction-count "code\[0\]\.counts\.bytes\[0\] is not a non-negative integer"
edit duplicate 's/("name":[[:space:]]*)"work",/\1"steady",/'
malformed duplicate "scenario 'steady' appears twice"
edit figure '/"framework":/,/"instructions":/ s/("instructions":[[:space:]]*)([0-9]+)/\1\21/'
malformed figure "code\[[0-9]\]\.framework\.instructions is [0-9.]+ but its counts give [0-9.]+"
edit no-valgrind '/"fingerprint":/,/}/ { /"valgrind":/d }'
malformed no-valgrind "costgate\.fingerprint .*'valgrind'"

# The same checks on --baseline-file: the message names the path.
for name in truncated duplicate negative-count; do
  run_gate "$repo" --baseline-file "$work/$name.json"
  check_run "malformed_baseline_file_should_exit_2 ($name)" 2 "err:'$(regex_escape "$work/$name.json")'" "!."
done

# 8. --save-baseline SIGKILLed at several points. The change makes a complete save differ.
baselines=$repo/baselines
before=$work/before.json
cp "$baselines/main.json" "$before"
# intact POINT: after the kill at POINT, baselines/ holds only main.json, byte-identical.
intact() {
  local name="interrupted_save_baseline_should_leave_main_json_intact ($1)" listing
  listing=$(find "$baselines" -mindepth 1 -maxdepth 1 -printf "%f ")
  if [ "$code" -ne 137 ]; then
    fail "$name: gate was not killed (exit $code)"
    show "$err"
  elif ! cmp -s "$baselines/main.json" "$before"; then
    fail "$name: baselines/main.json changed"
  elif [ "$listing" != "main.json " ]; then
    fail "$name: baselines/ holds more than main.json: $listing"
    git -C "$repo" status --porcelain --untracked-files=all -- baselines | show /dev/stdin
  else
    pass "$name"
  fi
  # Put back what a failure left, so that each point starts from the same state.
  cp "$before" "$baselines/main.json"
  find "$baselines" -mindepth 1 ! -name main.json -exec rm -rf {} +
}

if ! set_iterations "$repo" 2060 || ! build "$repo"; then
  fail "interrupted_save_baseline: cannot build the change"
  finish
  exit
fi
# Timed kills while it measures, at a tenth, four tenths and seven tenths of how long a save
# took above; when gate is done before the kill (a faster run), again with half the delay.
for tenths in 1 4 7; do
  delay=$(awk -v ms="$save_ms" -v t="$tenths" 'BEGIN { printf "%.2f", ms * t / 10000 }')
  for _ in 1 2 3; do
    kill_gate_after "$delay" "$repo" --save-baseline main
    [ "$code" -eq 137 ] && break
    cp "$before" "$baselines/main.json"
    delay=$(awk -v d="$delay" 'BEGIN { printf "%.2f", d / 2 }')
  done
  intact "SIGKILL at $tenths/10 of the run"
done

# Kill points inside the write itself, reached exactly: a preloaded shim that SIGKILLs gate in
# the middle of its first write to the file that becomes baselines/main.json (its temporary copy,
# wherever gate keeps it), before its fsync, or before the rename into baselines/.
cat >"$work/kill_at.c" <<'EOF'
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int armed(const char *point)
{
	const char *wanted = getenv("KILL_AT");

	return wanted != NULL && strcmp(wanted, point) == 0;
}

/* Is the directory part of `path` the directory KILL_AT_DIR (both resolved)? */
static int in_directory(const char *path)
{
	const char *directory = getenv("KILL_AT_DIR");
	char copy[PATH_MAX], resolved[PATH_MAX], *slash;

	if (directory == NULL || path == NULL || strlen(path) >= sizeof(copy))
		return 0;
	strcpy(copy, path);
	slash = strrchr(copy, '/');
	if (slash == NULL)
		strcpy(copy, ".");
	else if (slash == copy)
		copy[1] = '\0';
	else
		*slash = '\0';
	return realpath(copy, resolved) != NULL && strcmp(resolved, directory) == 0;
}

/* Is fd the baseline being written: a file in KILL_AT_DIR, or a temporary copy of main.json? */
static int fd_in_directory(int fd)
{
	char link[64], target[PATH_MAX];
	const char *name;
	ssize_t length;

	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	length = readlink(link, target, sizeof(target) - 1);
	if (length <= 0)
		return 0;
	target[length] = '\0';
	name = strrchr(target, '/') ? strrchr(target, '/') + 1 : target;
	return in_directory(target) || strstr(name, "main.json.tmp") != NULL;
}

ssize_t write(int fd, const void *buffer, size_t count)
{
	ssize_t (*real)(int, const void *, size_t) =
		(ssize_t (*)(int, const void *, size_t))dlsym(RTLD_NEXT, "write");

	if (armed("write") && fd_in_directory(fd)) {
		if (count > 1)
			real(fd, buffer, count / 2);
		raise(SIGKILL);
	}
	return real(fd, buffer, count);
}

int fsync(int fd)
{
	int (*real)(int) = (int (*)(int))dlsym(RTLD_NEXT, "fsync");

	if (armed("fsync") && fd_in_directory(fd))
		raise(SIGKILL);
	return real(fd);
}

int rename(const char *from, const char *to)
{
	int (*real)(const char *, const char *) =
		(int (*)(const char *, const char *))dlsym(RTLD_NEXT, "rename");

	if (armed("rename") && in_directory(to))
		raise(SIGKILL);
	return real(from, to);
}

static int at_in_directory(int directory_fd, const char *path)
{
	char full[PATH_MAX], link[64], base[PATH_MAX];
	ssize_t length;

	if (path[0] == '/' || directory_fd == AT_FDCWD)
		return in_directory(path);
	snprintf(link, sizeof(link), "/proc/self/fd/%d", directory_fd);
	length = readlink(link, base, sizeof(base) - 1);
	if (length <= 0)
		return 0;
	base[length] = '\0';
	snprintf(full, sizeof(full), "%s/%s", base, path);
	return in_directory(full);
}

int renameat(int from_fd, const char *from, int to_fd, const char *to)
{
	int (*real)(int, const char *, int, const char *) =
		(int (*)(int, const char *, int, const char *))dlsym(RTLD_NEXT, "renameat");

	if (armed("rename") && at_in_directory(to_fd, to))
		raise(SIGKILL);
	return real(from_fd, from, to_fd, to);
}

int renameat2(int from_fd, const char *from, int to_fd, const char *to, unsigned int flags)
{
	int (*real)(int, const char *, int, const char *, unsigned int) =
		(int (*)(int, const char *, int, const char *, unsigned int))dlsym(RTLD_NEXT, "renameat2");

	if (armed("rename") && at_in_directory(to_fd, to))
		raise(SIGKILL);
	return real(from_fd, from, to_fd, to, flags);
}
EOF
shim=$work/kill_at.so
compiler=$(command -v cc || command -v gcc)
if [ -z "$compiler" ] ||
  ! "$compiler" -shared -fPIC -O2 -o "$shim" "$work/kill_at.c" -ldl >"$work/shim.log" 2>&1; then
  fail "interrupted_save_baseline: cannot build the kill shim"
  show "$work/shim.log"
else
  physical_baselines=$(cd -P "$baselines" && pwd)
  for point in write fsync rename; do
    {
      (cd "$repo" && KILL_AT=$point KILL_AT_DIR=$physical_baselines LD_PRELOAD=$shim \
        ASAN_OPTIONS=verify_asan_link_order=0 \
        exec "$gate" --build-dir build -j 2 --messages "$messages" --save-baseline main) >"$out" 2>"$err"
      code=$?
    } 2>/dev/null
    intact "SIGKILL at the baseline's $point"
  done
fi

# The control: an uninterrupted save does replace main.json, with nothing beside it.
run_gate "$repo" --save-baseline main
listing=$(find "$baselines" -mindepth 1 -maxdepth 1 -printf "%f ")
if [ "$code" -ne 0 ]; then
  fail "uninterrupted_save_baseline_should_replace_main_json: exit $code"
  show "$err"
elif cmp -s "$baselines/main.json" "$before" || [ "$listing" != "main.json " ]; then
  fail "uninterrupted_save_baseline_should_replace_main_json: unchanged, or baselines/ holds: $listing"
else
  pass "uninterrupted_save_baseline_should_replace_main_json"
fi

finish
