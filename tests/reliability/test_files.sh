#!/usr/bin/env bash
# Files gate reads and writes, end to end through the real gate binary and real valgrind: output
# paths that cannot be written (exit 2 for --raw-dir and --json, naming the path), a full disk
# while writing results.json or saving a baseline (the old file stays byte-identical and nothing
# is left beside it), raw files on a full disk (exit 3), paths with spaces and quotes (they work:
# the same bytes as anywhere else), two gates at once in one tree (each results.json whole and the
# same as a lone run's; two on one results.json: the second exits 2 naming the first), and baseline and acceptance files that are truncated, not JSON, of the
# wrong schema or with values of the wrong type (exit 2, naming the file and the key), or that
# carry keys gate does not know (ignored: the readers look up the keys they need, so a newer
# writer's additions do not break an older reader).
#
# The full-disk cases need a 64 KiB tmpfs; where mount is not permitted they are skipped with a
# line saying so, and the test ends as skipped (exit 77; docs/reliability.md). Every measured run is consume_raw at N = 2: what is
# tested is gate's handling of files, not the counts.
# Usage: test_files.sh GATE BUILD_DIR
# shellcheck source=tests/reliability/common.sh
source "$(dirname "$0")/common.sh"
gate=$1 build=$2
setup_gate

# same_results A B: the two results documents are the same, but for the whole process's counts
# (costgate.process_instructions), which start-up and exit move by a few instructions between
# runs, and the seconds the runs took (costgate.runs); every count of the code section must be
# the same to the digit. The sealed programs' paths are left out too: relative inside the build,
# absolute outside it.
same_results() {
  cmp -s <(grep -vP '^\t\t\t"[a-z0-9_]+":\t\[[0-9]+, [0-9]+, [0-9]+\]$|"valgrind_seconds":|^\t+"path":\t"' "$1") \
    <(grep -vP '^\t\t\t"[a-z0-9_]+":\t\[[0-9]+, [0-9]+, [0-9]+\]$|"valgrind_seconds":|^\t+"path":\t"' "$2")
}

tmp=$(mktemp -d)
mounts=()
cleanup() {
  local mount
  for mount in "${mounts[@]}"; do umount "$mount" 2>/dev/null; done
  rm -rf "$tmp"
}
trap cleanup EXIT
cd "$tmp" || exit 2

selection=(--build-dir "$build" --scenario consume_raw --messages 10 --jobs 2 --quiet)

# run_gate NAME ARGS...: gate with output in $tmp/NAME.out and .err, exit code in $code.
run_gate() {
  local name=$1
  shift
  "$gate" "$@" >"$tmp/$name.out" 2>"$tmp/$name.err"
  code=$?
}

# The reference: a lone run. Its results.json is the same bytes on every run of this tree.
run_gate reference "${selection[@]}" --json "$tmp/reference.json" --raw-dir "$tmp/reference.raw"
if [ "$code" -ne 0 ] || [ ! -s "$tmp/reference.json" ]; then
  setup_fail "the reference run exited $code: $(cat "$tmp/reference.err")"
fi

# --- output paths that cannot be written. A regular file stands in the way: that stops root too.
printf 'a regular file\n' >"$tmp/file"
run_gate raw_dir_under_a_file "${selection[@]}" --json "$tmp/unused.json" --raw-dir "$tmp/file/raw"
expect raw_dir_under_a_file 2 "^gate: error: --raw-dir '$tmp/file/raw': cannot create it: '$tmp/file' is not a directory$"
run_gate json_under_a_file "${selection[@]}" --json "$tmp/file/results.json" --raw-dir "$tmp/json.raw"
expect json_under_a_file 2 "^gate: error: --json '$tmp/file/results\.json': '$tmp/file' is not a directory$"
# Found before anything was measured: no table.
if [ ! -s "$tmp/json_under_a_file.out" ]; then
  pass "json_under_a_file_should_be_found_before_anything_is_measured"
else
  fail "json_under_a_file_should_be_found_before_anything_is_measured: $(cat "$tmp/json_under_a_file.out")"
fi

# tmpfs DIR SIZE [OPTIONS]: mounts a tmpfs at DIR; false where mounting is not permitted.
tmpfs() {
  mkdir -p "$1" && mount -t tmpfs -o "size=$2${3:+,$3}" costgate-test "$1" 2>/dev/null &&
    mounts+=("$1")
}
# fill DIR: writes to DIR until the file system is full.
fill() { dd if=/dev/zero of="$1/filler" bs=4k 2>/dev/null; true; }

# A read-only file system for --raw-dir and --json (root ignores permission bits, not this).
if tmpfs "$tmp/readonly" 64k && mkdir "$tmp/readonly/raw" && cp "$tmp/reference.json" "$tmp/readonly/" &&
  mount -o remount,ro "$tmp/readonly" 2>/dev/null; then
  run_gate json_on_a_read_only_file_system "${selection[@]}" --json "$tmp/readonly/reference.json" \
    --raw-dir "$tmp/readonly.raw"
  expect json_on_a_read_only_file_system 2 \
    "^gate: error: --json '$tmp/readonly/reference\.json': the file cannot be written: Read-only file system$"
  run_gate raw_dir_on_a_read_only_file_system "${selection[@]}" --json "$tmp/readonly.json" \
    --raw-dir "$tmp/readonly/raw"
  expect raw_dir_on_a_read_only_file_system 2 \
    "^gate: error: --raw-dir '$tmp/readonly/raw': cannot write into directory '$tmp/readonly/raw': Read-only file system$"
else
  skip "json_on_a_read_only_file_system: cannot mount a read-only tmpfs here"
  skip "raw_dir_on_a_read_only_file_system: cannot mount a read-only tmpfs here"
fi

# --- a full disk
if tmpfs "$tmp/full" 64k; then
  # results.json: the old one stays whole, no temporary file is left beside it.
  mkdir -p "$tmp/full/out"
  cp "$tmp/reference.json" "$tmp/full/out/results.json"
  sed -i 's/"schema":\t3,/"schema":\t3, "note": "the old file",/' "$tmp/full/out/results.json"
  cp "$tmp/full/out/results.json" "$tmp/old-results.json"
  fill "$tmp/full"
  run_gate json_on_a_full_disk "${selection[@]}" --json "$tmp/full/out/results.json" \
    --raw-dir "$tmp/full-json.raw"
  expect json_on_a_full_disk 2 \
    "^gate: error: cannot write '$tmp/full/out/results\.json': No space left on device$"
  if cmp -s "$tmp/old-results.json" "$tmp/full/out/results.json" &&
    [ "$(ls -A "$tmp/full/out")" = results.json ]; then
    pass "json_on_a_full_disk_should_leave_the_old_file_whole_and_nothing_beside_it"
  else
    fail "json_on_a_full_disk_should_leave_the_old_file_whole_and_nothing_beside_it: $(ls -A "$tmp/full/out")"
  fi

  # --save-baseline from a directory outside git writes ./baselines/NAME.json. The temporary
  # file goes to the raw directory first (another file system here), then beside the baseline.
  rm -f "$tmp/full/filler"
  mkdir -p "$tmp/full/tree/baselines"
  cp "$tmp/old-results.json" "$tmp/full/tree/baselines/main.json"
  fill "$tmp/full"
  (cd "$tmp/full/tree" && run_gate save_baseline_on_a_full_disk "${selection[@]}" \
    --json "$tmp/save.json" --raw-dir "$tmp/save.raw" --save-baseline main
    echo "$code" >"$tmp/save.code")
  code=$(cat "$tmp/save.code")
  expect save_baseline_on_a_full_disk 3 \
    "^gate: error: cannot write '\./baselines/main\.json': No space left on device$"
  if cmp -s "$tmp/old-results.json" "$tmp/full/tree/baselines/main.json" &&
    [ "$(ls -A "$tmp/full/tree/baselines")" = main.json ] &&
    [ -z "$(find "$tmp/save.raw" -name '*.tmp.*')" ]; then
    pass "save_baseline_on_a_full_disk_should_leave_the_old_baseline_whole_and_nothing_beside_it"
  else
    fail "save_baseline_on_a_full_disk_should_leave_the_old_baseline_whole_and_nothing_beside_it: $(ls -A "$tmp/full/tree/baselines" "$tmp/save.raw")"
  fi
  # The run's own results.json was written (another file system): the measurement is kept.
  if same_results "$tmp/reference.json" "$tmp/save.json"; then
    pass "save_baseline_on_a_full_disk_should_still_write_results_json"
  else
    fail "save_baseline_on_a_full_disk_should_still_write_results_json"
  fi

  # The raw files themselves on the full disk: valgrind cannot write them whole.
  run_gate raw_dir_on_a_full_disk "${selection[@]}" --json "$tmp/full-raw.json" \
    --raw-dir "$tmp/full/raw"
  expect raw_dir_on_a_full_disk 3 "^consume_raw: failed to measure: "
else
  skip "json_on_a_full_disk: cannot mount a 64 KiB tmpfs here (needs root or CAP_SYS_ADMIN)"
  skip "save_baseline_on_a_full_disk: cannot mount a 64 KiB tmpfs here"
  skip "raw_dir_on_a_full_disk: cannot mount a 64 KiB tmpfs here"
fi

# --- paths with spaces and quotes: the build directory, the scenario's directory, the outputs
# and the working directory. They must simply work, with the same bytes as the reference.
odd="$tmp/it's a \"dir\" with spaces"
mkdir -p "$odd/build dir/scenarios/native" "$odd/bin 'x'/native" "$odd/cwd here"
cp "$build/scenarios/consume_raw" "$odd/bin 'x'/"
cp "$build/scenarios/native/consume_raw" "$odd/bin 'x'/native/"
{
  grep -E '^(costgate|compiler|flags|build consume_raw) ' "$build/scenarios/manifest.txt"
  echo "scenario consume_raw $odd/bin 'x'/consume_raw"
} >"$odd/build dir/scenarios/manifest.txt"
# And its native variant, for the second opinion (its request and output among those paths too).
{
  grep -E '^(costgate|compiler|flags) ' "$build/scenarios/native/manifest.txt"
  echo "scenario consume_raw $odd/bin 'x'/native/consume_raw"
} >"$odd/build dir/scenarios/native/manifest.txt"
(cd "$odd/cwd here" && "$gate" --build-dir "$odd/build dir" --scenario consume_raw --messages 10 \
  --quiet --json "$odd/out \"1\".json" --raw-dir "$odd/raw 'dir'" >"$tmp/odd.out" 2>"$tmp/odd.err")
code=$?
if [ "$code" -eq 0 ] && same_results "$tmp/reference.json" "$odd/out \"1\".json" &&
  [ -s "$odd/raw 'dir'/callgrind.out.consume_raw.10-20" ] &&
  [ -s "$odd/raw 'dir'/native.consume_raw.out" ]; then
  pass "paths_with_spaces_and_quotes_should_work_and_give_the_same_results"
else
  fail "paths_with_spaces_and_quotes_should_work_and_give_the_same_results: exit $code: $(cat "$tmp/odd.err")"
fi

# --- two gates at once in the same tree
"$gate" "${selection[@]}" --json "$tmp/first.json" --raw-dir "$tmp/first.raw" >/dev/null 2>&1 &
first=$!
"$gate" "${selection[@]}" --json "$tmp/second.json" --raw-dir "$tmp/second.raw" >/dev/null 2>&1 &
second=$!
wait "$first"
first_code=$?
wait "$second"
second_code=$?
if [ "$first_code" -eq 0 ] && [ "$second_code" -eq 0 ] && same_results "$tmp/reference.json" "$tmp/first.json" &&
  same_results "$tmp/reference.json" "$tmp/second.json"; then
  pass "two_gates_with_their_own_outputs_should_not_touch_each_others_files"
else
  fail "two_gates_with_their_own_outputs_should_not_touch_each_others_files: exit $first_code and $second_code"
fi
# Two gates that would write one results.json: the second to lock it exits 2 at once, naming the
# first's pid (or, when the first is done before the second starts, both pass). One whole
# document is left, and nothing beside it (the lock file is removed with its lock).
mkdir -p "$tmp/shared"
outcome=""
for run in 1 2 3; do
  "$gate" "${selection[@]}" --json "$tmp/shared/results.json" --raw-dir "$tmp/one.raw" >/dev/null 2>"$tmp/one.err" &
  first=$!
  "$gate" "${selection[@]}" --json "$tmp/shared/results.json" --raw-dir "$tmp/two.raw" >/dev/null 2>"$tmp/two.err" &
  second=$!
  wait "$first"
  first_code=$?
  wait "$second"
  second_code=$?
  case "$first_code $second_code" in
  "0 0") outcome=ok ;;
  "0 2") grep -q "is in use by another gate (pid $first)" "$tmp/two.err" && outcome=ok || outcome=bad ;;
  "2 0") grep -q "is in use by another gate (pid $second)" "$tmp/one.err" && outcome=ok || outcome=bad ;;
  *) outcome=bad ;;
  esac
  if [ "$outcome" != ok ] || ! same_results "$tmp/reference.json" "$tmp/shared/results.json" ||
    [ "$(ls -A "$tmp/shared")" != results.json ]; then
    outcome=bad
    break
  fi
done
if [ "$outcome" = ok ]; then
  pass "two_gates_writing_one_json_should_leave_one_whole_document (3 rounds)"
else
  fail "two_gates_writing_one_json_should_leave_one_whole_document: round $run, exit $first_code and $second_code, $(ls -A "$tmp/shared") $(cat "$tmp/one.err" "$tmp/two.err")"
fi

# --- every core busy with other work: the same counts to the digit (docs/design.md: counts, not
# seconds). consume_json at N = 100, so that the runs are long enough to be preempted.
heavier=(--build-dir "$build" --scenario consume_json --messages 100 --jobs 2 --quiet)
run_gate quiet_machine "${heavier[@]}" --json "$tmp/quiet.json" --raw-dir "$tmp/quiet.raw"
quiet_code=$code
spinners=()
for _ in $(seq "$(nproc)"); do
  (while :; do :; done) &
  spinners+=($!)
done
run_gate busy_machine "${heavier[@]}" --json "$tmp/busy.json" --raw-dir "$tmp/busy.raw"
kill "${spinners[@]}" 2>/dev/null
wait "${spinners[@]}" 2>/dev/null
if [ "$quiet_code" -eq 0 ] && [ "$code" -eq 0 ] && same_results "$tmp/quiet.json" "$tmp/busy.json" &&
  cmp -s "$tmp/quiet_machine.out" "$tmp/busy_machine.out"; then
  pass "busy_cores_should_not_change_the_counts ($(nproc) busy loops)"
else
  fail "busy_cores_should_not_change_the_counts: exit $quiet_code and $code: $(diff "$tmp/quiet.json" "$tmp/busy.json" | head -n 20)"
fi

# --- baselines given with --baseline-file: read before anything is measured.
# edited NAME SED_SCRIPT: $tmp/NAME.json is the reference edited with `sed -E`.
edited() { sed -E "$2" "$tmp/reference.json" >"$tmp/$1.json"; }
# refused NAME PROBLEM: gate refuses $tmp/NAME.json as a baseline, naming the file and PROBLEM.
refused() {
  if cmp -s "$tmp/$1.json" "$tmp/reference.json"; then
    fail "$1: the edit changed nothing"
    return
  fi
  run_gate "$1" "${selection[@]}" --baseline-file "$tmp/$1.json" --json "$tmp/$1.results.json" \
    --raw-dir "$tmp/$1.raw"
  expect "$1" 2 "^gate: error: cannot read results '$tmp/$1\.json': $2" &&
    if [ -e "$tmp/$1.raw" ]; then fail "$1: gate measured before refusing the baseline"; fi
}
head -c 1000 "$tmp/reference.json" >"$tmp/baseline_truncated.json"
refused baseline_truncated "not JSON \(at byte [0-9]+\)$"
printf '\001\002\003 binary\n' >"$tmp/baseline_not_json.json"
refused baseline_not_json "not JSON \(at byte [0-9]+\)$"
edited baseline_wrong_schema '0,/"schema":/ s/("schema":[[:space:]]*)3,/\12,/'
refused baseline_wrong_schema "schema is not 3$"
edited baseline_gated_string 's/("gated":[[:space:]]*)true/\1"yes"/'
refused baseline_gated_string "code\[0\]\.gated is not a boolean$"
edited baseline_name_number '0,/"name":/ s/("name":[[:space:]]*)"consume_raw"/\17/'
refused baseline_name_number "code\[0\]\.name is not a string$"
edited baseline_messages_string '0,/"messages":/ s/("messages":[[:space:]]*)10,/\1"10",/'
refused baseline_messages_string "code\[0\]\.messages is not a non-negative integer below 2\^53$"
edited baseline_floor_negative 's/("steady_allocations":[[:space:]]*)0,/\1-1,/'
refused baseline_floor_negative "code\[0\]\.floors\.steady_allocations is not a non-negative number$"
edited baseline_fingerprint_number 's/^(\t\t\t"valgrind":[[:space:]]*)"3[^"]*"/\13.19/'
refused baseline_fingerprint_number "costgate\.fingerprint .*valgrind"
edited baseline_failures_object 's/("failures":[[:space:]]*)\[\]/\1{}/'
refused baseline_failures_object "costgate\.failures is not an array$"

# --- acceptance files given with --accepted: read before anything is measured.
# rejected NAME TEXT PROBLEM: gate refuses TEXT as the acceptance file, naming it and PROBLEM.
rejected() {
  printf '%s' "$2" >"$tmp/$1.json"
  run_gate "$1" "${selection[@]}" --accepted "$tmp/$1.json" --json "$tmp/$1.results.json" \
    --raw-dir "$tmp/$1.raw"
  expect "$1" 2 "^gate: error: cannot read acceptances '$tmp/$1\.json': $3" &&
    if [ -e "$tmp/$1.raw" ]; then fail "$1: gate measured before refusing the acceptances"; fi
}
entry='{"scenario": "consume_raw", "metric": "instructions", "value": 50, "reason": "one more branch per message"}'
rejected accepted_truncated "{ \"accepted\": [ ${entry:0:40}" "not JSON \\(at byte [0-9]+\\)"
rejected accepted_not_json 'accepted: consume_raw' "not JSON \\(at byte 0\\)"
rejected accepted_wrong_schema "{ \"acceptances\": [ $entry ] }" "'accepted' is missing or not an array"
rejected accepted_value_string "{ \"accepted\": [ ${entry/50/\"50\"} ] }" "accepted\[0\]\.value is not a"
rejected accepted_value_negative "{ \"accepted\": [ ${entry/50/-50} ] }" "accepted\[0\]\.value is not a"
rejected accepted_scenario_number "{ \"accepted\": [ ${entry/\"consume_raw\"/7} ] }" "accepted\[0\]\.scenario is"

# --- keys gate does not know are ignored, in a baseline and in an acceptance file alike.
edited baseline_unknown_keys 's/^(\t"schema":[[:space:]]*3,)/\1 "written_by": "a newer gate",/;
  0,/^\t\t\t"name":/ s/^(\t\t\t"name":[[:space:]]*"consume_raw",)/\1 "owner": {"team": "queue"},/;
  s/^(\t\t"schema":[[:space:]]*1,)/\1 "future": [1, 2],/;
  s/^(\t\t\t"schema":[[:space:]]*1,)/\1 "kernel": "6.1",/;
  s/("steady_allocations":[[:space:]]*0,)/\1 "per_core": 3,/'
printf '{ "accepted": [ %s ], "comment": "reviewed by the queue team" }' \
  "${entry/\"reason\"/\"ticket\": 42, \"reason\"}" >"$tmp/accepted_unknown_keys.json"
run_gate unknown_keys "${selection[@]}" --baseline-file "$tmp/baseline_unknown_keys.json" \
  --accepted "$tmp/accepted_unknown_keys.json" --json "$tmp/unknown_keys.results.json" \
  --raw-dir "$tmp/unknown_keys.raw"
# The baseline is the reference run: its figure per message, as results.json writes it (GCC 12
# -O2: 50.4; clang 14: 49.7) and as the table prints it.
figure=$(python3 -c 'import json, sys
print(json.load(open(sys.argv[1]))["code"][0]["framework"]["instructions"])' "$tmp/reference.json")
printed=$(awk -v figure="$figure" 'BEGIN { printf "%.3f", figure }')
if [ "$(grep -c '"\(written_by\|owner\|future\|kernel\|per_core\)"' "$tmp/baseline_unknown_keys.json")" -eq 5 ] &&
  expect unknown_keys 0 "^consume_raw +${printed//./\\.} .* ok$"; then
  # Compared, not merely measured: the row holds the baseline's figure.
  if python3 -c 'import json, sys
row = json.load(open(sys.argv[1]))["costgate"]["verdict"]["rows"][0]
sys.exit(row["instructions"]["baseline"] != float(sys.argv[2]))' \
    "$tmp/unknown_keys.results.json" "$figure"; then
    pass "unknown_keys_should_still_compare_with_the_baseline"
  else
    fail "unknown_keys_should_still_compare_with_the_baseline"
  fi
  # The acceptance was read: unused, it is reported as stale.
  if grep -q "stale" "$tmp/unknown_keys.out"; then
    pass "unknown_keys_should_still_read_the_acceptance"
  else
    fail "unknown_keys_should_still_read_the_acceptance: $(cat "$tmp/unknown_keys.out")"
  fi
else
  fail "unknown_keys: the edit did not add the five keys, or gate refused them"
fi

finish
