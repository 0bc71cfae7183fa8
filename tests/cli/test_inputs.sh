#!/usr/bin/env bash
# Input errors come first and end in exit 2: every output path (--json, --markdown, --raw-dir)
# is checked before anything runs, naming the path and why; a key given twice in any JSON object
# gate reads (a baseline, a shard, an acceptance file) is refused naming the key and the file.
# No case here may reach valgrind: a stand-in on PATH records it if one does.
# Usage: test_inputs.sh GATE BUILD_DIR MAKE_RESULTS
# shellcheck source=tests/lib.sh
source "$(dirname "$0")/../lib.sh"
gate=$(realpath -- "$1") build=$(realpath -- "$2") make_results=$(realpath -- "$3")
unset GITHUB_ACTIONS GITHUB_STEP_SUMMARY
tmp=$(temp_dir inputs) || exit 2
cd "$tmp" || exit 2

mkdir -p "$tmp/fakebin"
printf '#!/bin/sh\ntouch %s/valgrind-was-run\nexit 99\n' "$tmp" >"$tmp/fakebin/valgrind"
chmod +x "$tmp/fakebin/valgrind"
touch "$tmp/a-file"

# refused NAME PATTERN ARGS...: gate exits 2 before any run, stderr matching PATTERN.
refused() {
  local name=$1 pattern=$2 stderr code
  shift 2
  rm -f "$tmp/valgrind-was-run"
  stderr=$(PATH="$tmp/fakebin:/usr/bin:/bin" "$gate" "$@" 2>&1 >/dev/null)
  code=$?
  if [ "$code" -eq 2 ] && grep -qE -- "$pattern" <<<"$stderr" && [ ! -e "$tmp/valgrind-was-run" ]; then
    pass "$name"
  else
    fail "$name: exit $code, valgrind run: $([ -e "$tmp/valgrind-was-run" ] && echo yes || echo no), stderr: $stderr"
  fi
}

refused json_in_a_missing_directory_should_be_refused_before_any_run \
  "^gate: error: --json '$tmp/missing/r.json': the directory '$tmp/missing' does not exist$" \
  --build-dir "$build" --json "$tmp/missing/r.json" --raw-dir "$tmp/raw"
refused markdown_in_a_missing_directory_should_be_refused_before_any_run \
  "^gate: error: --markdown '$tmp/missing/r.md': the directory '$tmp/missing' does not exist$" \
  --build-dir "$build" --markdown "$tmp/missing/r.md" --json "$tmp/r.json" --raw-dir "$tmp/raw"
refused json_naming_a_directory_should_be_refused_before_any_run \
  "^gate: error: --json '$tmp': is a directory$" --build-dir "$build" --json "$tmp" --raw-dir "$tmp/raw"
refused json_under_a_file_should_be_refused_before_any_run \
  "^gate: error: --json '$tmp/a-file/r.json': '$tmp/a-file' is not a directory$" \
  --build-dir "$build" --json "$tmp/a-file/r.json" --raw-dir "$tmp/raw"
refused raw_dir_naming_a_file_should_be_refused_before_any_run \
  "^gate: error: --raw-dir '$tmp/a-file': '$tmp/a-file' exists and is not a directory$" \
  --build-dir "$build" --json "$tmp/r.json" --raw-dir "$tmp/a-file"
refused raw_dir_under_a_file_should_be_refused_before_any_run \
  "^gate: error: --raw-dir '$tmp/a-file/raw': cannot create it: '$tmp/a-file' is not a directory$" \
  --build-dir "$build" --json "$tmp/r.json" --raw-dir "$tmp/a-file/raw"
if [ "$(id -u)" -ne 0 ]; then
  mkdir -p "$tmp/read-only" && chmod 555 "$tmp/read-only"
  refused json_in_a_read_only_directory_should_be_refused_before_any_run \
    "^gate: error: --json '$tmp/read-only/r.json': the directory '$tmp/read-only' cannot be written: Permission denied$" \
    --build-dir "$build" --json "$tmp/read-only/r.json" --raw-dir "$tmp/raw"
fi
refused merge_should_check_its_outputs_before_reading_shards \
  "^gate: error: --json '$tmp/missing/m.json': the directory '$tmp/missing' does not exist$" \
  merge --json "$tmp/missing/m.json" --raw-dir "$tmp/raw" "$tmp/no-such-shard.json"

# Duplicate keys: a shard set of 3 scenarios, then one key given twice in each kind of file.
mkdir -p "$tmp/results"
if ! "$make_results" "$tmp/results" 3 1000 2 0; then
  fail "make_results_should_write_the_shards"
fi
twice() { # twice KEY FILE OUT: the first "KEY": line repeated with another value
  awk -v key="\"$1\":" '!done && index($0, key) { print; sub(/:.*/, ": 123456789,"); done = 1 } { print }' "$2" >"$3"
}
twice instructions "$tmp/results/baseline.json" "$tmp/baseline-twice.json"
twice instructions "$tmp/results/shard-2-of-2.json" "$tmp/shard-twice.json"
printf '{ "accepted": [ { "scenario": "s00001", "metric": "instructions", "value": 1, "value": 2, "reason": "r" } ] }\n' \
  >"$tmp/accepted-twice.json"
merge_args=(--json "$tmp/m.json" --raw-dir "$tmp/raw" --accepted "$tmp/none.json")
refused a_baseline_with_a_key_given_twice_should_be_an_input_error \
  "^gate: error: cannot read results '$tmp/baseline-twice.json': the key 'instructions' appears twice in one object$" \
  merge "${merge_args[@]}" --baseline-file "$tmp/baseline-twice.json" "$tmp/results"/shard-*-of-2.json
refused a_shard_with_a_key_given_twice_should_be_an_input_error \
  "^gate: error: cannot read results '$tmp/shard-twice.json': the key 'instructions' appears twice in one object$" \
  merge "${merge_args[@]}" "$tmp/results/shard-1-of-2.json" "$tmp/shard-twice.json"
refused acceptances_with_a_key_given_twice_should_be_an_input_error \
  "^gate: error: cannot read acceptances '$tmp/accepted-twice.json': the key 'value' appears twice in one object$" \
  merge --json "$tmp/m.json" --raw-dir "$tmp/raw" --accepted "$tmp/accepted-twice.json" \
  "$tmp/results"/shard-*-of-2.json
# The same files without the second key are accepted: the refusals above are about the key.
if PATH="$tmp/fakebin:/usr/bin:/bin" "$gate" merge -q "${merge_args[@]}" \
  --baseline-file "$tmp/results/baseline.json" "$tmp/results"/shard-*-of-2.json >/dev/null 2>"$tmp/err"; then
  pass the_same_files_without_a_repeated_key_should_merge
else
  fail "the_same_files_without_a_repeated_key_should_merge: $(cat "$tmp/err")"
fi

finish
