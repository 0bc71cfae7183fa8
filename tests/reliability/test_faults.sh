#!/usr/bin/env bash
# Faults gate must fail closed on, end to end through the real gate binary (docs/design.md rule 7):
# callgrind and DHAT output that is truncated, empty, garbage, overflowing, not JSON, missing or
# mistyped keys, negative or huge counts, an empty pps; valgrind killed by SIGKILL mid-run, exiting
# non-zero, unable to say its version, or unable to write its output; scenarios that abort, exit 1,
# or whose --describe prints garbage, an incomplete object, or fails. Each case must end in exit 3
# with a message naming the scenario, the run and the problem; none may pass.
#
# The faults come from a stand-in `valgrind` put first on PATH (gate looks valgrind up on PATH;
# the runs themselves get a sealed environment, so the stand-in reads its orders from a file
# beside it). For output damage it replays the real output of one live measurement, recorded at the
# start, and damages one run's copy: the bytes gate parses are real valgrind output, and the cases
# take a fraction of a second each. A replay without damage must give the live figures exactly.
# Process faults (SIGKILL, exit status, a missing output file) run the real valgrind.
# Usage: test_faults.sh GATE BUILD_DIR C_COMPILER
# shellcheck source=tests/reliability/common.sh
source "$(dirname "$0")/common.sh"
gate=$1 build=$2 compiler=$3
gate=$(realpath -- "$gate") build=$(realpath -- "$build")
if [ ! -x "$gate" ] || [ ! -f "$build/scenarios/manifest.txt" ] ||
  [ ! -x "$build/tests/scenarios/steals_during_fill" ]; then
  setup_fail "no gate at '$gate' or no scenarios in '$build' (build first)"
fi
real_valgrind=$(command -v valgrind) || {
  setup_fail "no valgrind on PATH"
}

tmp=$(temp_dir faults) || exit 2
cd "$tmp" || exit 2

# run_gate NAME ARGS...: runs gate (with the stand-in valgrind when $tmp/bin/valgrind exists),
# output in $tmp/NAME.out and .err, results in $tmp/NAME.json, raw files in $tmp/NAME.raw; the
# exit code in $code.
run_gate() {
  local name=$1
  shift
  PATH="$tmp/bin:$PATH" "$gate" --messages 2 --jobs 2 --quiet --json "$tmp/$name.json" \
    --raw-dir "$tmp/$name.raw" "$@" >"$tmp/$name.out" 2>"$tmp/$name.err"
  code=$?
}

# --- the stand-in valgrind. Orders in $tmp/bin/fault: "KIND TARGET", TARGET a glob matched
# against the name of a count's output (e.g. dhat.out.consume_json.2, the snapshot at N = 2 of
# the DHAT run); every other output is replayed undamaged. KIND is one of the damage functions
# below, or a process fault, which then hits the whole run that has TARGET among its outputs.
mkdir -p "$tmp/bin"
cat >"$tmp/bin/valgrind" <<EOF
#!/bin/bash
# Stand-in valgrind written by test_faults.sh.
real='$real_valgrind'
recorded='$tmp/recorded'
EOF
cat >>"$tmp/bin/valgrind" <<'EOF'
read -r kind target <"$(dirname "$0")/fault"
output="" snapshots="" count=${!#} previous=""
for argument in "$@"; do
  case $argument in
    --version) [ "$kind" = no-version ] && exit 1
               exec "$real" --version ;;
    --callgrind-out-file=* | --dhat-out-file=*) output=${argument#*=} ;;
  esac
  [ "$previous" = --snapshots ] && snapshots=$argument
  [ "$previous" = --phases ] && snapshots=$argument phases=yes
  previous=$argument
done
# With --snapshots a run writes an output per process, named by pid (%p): the snapshots at 1, N
# and 2N, and the run's end. With --phases (callgrind) one process writes its parts of its one
# thread, PREFIX<pid>.K-01, its end, PREFIX<pid>-01, and PREFIX<pid> empty. The recording has
# them under the names gate gives them: the counts (dhat.out.NAME.2), the parts
# (callgrind.out.NAME.outside-start, .start, .outside-0-1, .0-1, ...), the end's in .end.
base=${output%.%p}
stem=${base##*/}
stem=${stem%.*}
names=() files=() targeted="" from=0
if [ -n "${phases:-}" ]; then
  names+=(outside-start start)
  for to in ${snapshots//,/ }; do names+=("outside-$from-$to" "$from-$to"); from=$to; done
else
  names+=(${snapshots//,/ })
fi
names+=("$count.end")
for i in "${!names[@]}"; do
  names[i]=$stem.${names[$i]}
  if [ -z "${phases:-}" ]; then
    files+=("$base.$(($$ * 10 + i))")
  elif [ $((i + 1)) -lt "${#names[@]}" ]; then
    files+=("$base.$$.$((i + 1))-01")
  else
    files+=("$base.$$-01")
  fi
  # shellcheck disable=SC2053 # the target is a glob
  [[ ${names[$i]} == $target ]] && targeted=yes
done
# replay: the recorded files under valgrind's names (and with phases the empty PREFIX<pid>).
replay() {
  if [ -n "${phases:-}" ]; then : >"$base.$$"; fi
}
if [ -z "$targeted" ]; then
  replay
  for i in "${!names[@]}"; do cp "$recorded/${names[$i]}" "${files[$i]}"; done
  exit
fi
case $kind in
  killed) # the real valgrind, SIGKILLed once its tool (callgrind-amd64-linux, ...) has taken
    # over this process: it is running then, and writes its output only at the end.
    (for _ in $(seq 500); do
       case $(readlink "/proc/$$/exe") in */valgrind/*-linux) break ;; esac
       sleep 0.01
     done
     kill -KILL $$) &
    exec "$real" "$@" ;;
  exits-1) # the real valgrind, refusing an option: it prints why and exits 1
    exec "$real" --no-such-option "$@" ;;
  no-output) # the real valgrind, unable to open its output files (it says so, exits 0)
    exec "$real" "${@/#--dhat-out-file=*/--dhat-out-file=/nonexistent/costgate/out}" ;;
  truncated) # the real valgrind; then each of its outputs loses its second half
    "$real" "$@" || exit
    for file in "$base".*; do
      head -c "$(($(wc -c <"$file") / 2))" "$file" >"$file.cut" && mv "$file.cut" "$file"
    done
    exit ;;
esac
replay
for i in "${!names[@]}"; do
  file=${files[$i]}
  cp "$recorded/${names[$i]}" "$file"
  # shellcheck disable=SC2053 # the target is a glob
  [[ ${names[$i]} == $target ]] || continue
  # A cost line's positions: one 0 for each the file names ("positions: instr line": two).
  positions=$(sed -n 's/^positions: *//p' "$file" | head -n 1)
  # shellcheck disable=SC2086 # a word a position
  zeros=$(printf '0 %.0s' ${positions:-line})
  case $kind in
    empty) : >"$file" ;;
    garbage) printf '\177ELF\002\001\001\000\000\000\000\000\000\000\000\000\003\000>\000\001\000\000\000\220\033\000\000\000\000\000\000@\000\n\377\376\375' >"$file" ;;
    count-above-64-bits) printf 'fn=(9999) appended\n%s18446744073709551616\n' "$zeros" >>"$file" ;;
    sum-overflows) printf 'fn=(9999) appended\n%s18446744073709551615\n' "$zeros" >>"$file" ;;
    not-json) printf 'this is not JSON\n' >"$file" ;;
    missing-key) sed -i 's/"pps":/"ppz":/' "$file" ;;
    string-count) sed -i -E '0,/"tbk":[0-9]+/ s/"tbk":([0-9]+)/"tbk":"\1"/' "$file" ;;
    negative-count) sed -i -E '0,/"tbk":[0-9]+/ s/"tbk":([0-9]+)/"tbk":-\1/' "$file" ;;
    huge-count) sed -i -E '0,/"tbk":[0-9]+/ s/"tbk":([0-9]+)/"tbk":1e300/' "$file" ;;
    empty-pps) sed -i -E 's/^,"pps":$/,"pps":[],"dropped":/' "$file" ;;
  esac
done
EOF
chmod +x "$tmp/bin/valgrind"
fault() { echo "$1 $2" >"$tmp/bin/fault"; }
# damaged NAME KIND TARGET PATTERN: consume_json measured with the stand-in's fault KIND at TARGET
# must fail to measure (exit 3) saying PATTERN.
damaged() {
  fault "$2" "$3"
  run_gate "$1" "${scenario[@]}"
  expect "$1" 3 "$4"
}

# --- the recording: one live measurement of consume_json, its raw files kept for the replays
scenario=(--build-dir "$build" --scenario consume_json)
mv "$tmp/bin" "$tmp/bin.off" # the real valgrind
run_gate recorded "${scenario[@]}"
mv "$tmp/bin.off" "$tmp/bin"
mv "$tmp/recorded.raw" "$tmp/recorded"
if [ "$code" -ne 0 ] || ! grep -q '^consume_json .* ok$' "$tmp/recorded.out"; then
  setup_fail "the live measurement of consume_json exited $code: $(cat "$tmp/recorded.out" "$tmp/recorded.err")"
fi

fault replay none
run_gate replay "${scenario[@]}"
if [ "$code" -eq 0 ] && cmp -s "$tmp/recorded.out" "$tmp/replay.out"; then
  pass "replayed_output_should_give_the_live_figures_exactly"
else
  fail "replayed_output_should_give_the_live_figures_exactly: exit $code: $(diff "$tmp/recorded.out" "$tmp/replay.out")"
fi

# --- callgrind output, damaged in the part that ends at N = 2 (the file keeps the name valgrind
# gave it)
at="consume_json: failed to measure: callgrind run at 4: cannot parse '[^']*/callgrind\.out\.consume_json\.4\.[0-9]+\.[1-8]-01'"
damaged callgrind_truncated truncated callgrind.out.consume_json.1-2 "$at: "
damaged callgrind_empty empty callgrind.out.consume_json.1-2 "$at: empty file"
damaged callgrind_binary_garbage garbage callgrind.out.consume_json.1-2 "$at: line 1: "
damaged callgrind_count_above_64_bits count-above-64-bits callgrind.out.consume_json.1-2 \
  "$at: line [0-9]+: count '18446744073709551616' is above 18446744073709551615"
damaged callgrind_sum_overflows sum-overflows callgrind.out.consume_json.1-2 \
  "$at: line [0-9]+: total cost overflows"

# --- DHAT output, damaged in the snapshot at N = 2
at="consume_json: failed to measure: dhat run at 4: cannot parse '[^']*/dhat\.out\.consume_json\.4\.[0-9]+'"
damaged dhat_not_json not-json dhat.out.consume_json.2 "$at: not JSON"
damaged dhat_missing_pps missing-key dhat.out.consume_json.2 "$at: missing key 'pps'"
damaged dhat_string_count string-count dhat.out.consume_json.2 \
  "$at: pps\[0\]\.tbk is not a non-negative integer"
damaged dhat_negative_count negative-count dhat.out.consume_json.2 \
  "$at: pps\[0\]\.tbk is not a non-negative integer"
damaged dhat_huge_count huge-count dhat.out.consume_json.2 \
  "$at: pps\[0\]\.tbk is not a non-negative integer"
# An empty pps in the 2N run only: a profile without a single allocation, not even the queue's.
damaged dhat_empty_pps_at_2n empty-pps dhat.out.consume_json.4 \
  "consume_json: failed to measure: dhat run at 4: the profile records no allocation at all"
# An empty pps in every run: DHAT recorded no allocation at all, not even the harness's own
# queue (allocated outside the region in every scenario). Nothing was measured.
damaged dhat_empty_pps_everywhere empty-pps 'dhat.out.*' \
  "consume_json: failed to measure: dhat run at 4: the profile records no allocation at all"

# --- valgrind itself
damaged valgrind_killed killed callgrind.out.consume_json.1-2 \
  "consume_json: failed to measure: callgrind run at 4 was killed by signal 9 \(Killed\) \(log: [^)]*/callgrind\.log\.consume_json\.4\)"
# What valgrind said last is quoted in the failure, as well as kept in the log.
damaged valgrind_exits_1 exits-1 dhat.out.consume_json.4 \
  "consume_json: failed to measure: dhat run at 4 exited with 1: valgrind: Unknown option: --no-such-option [^(]*\(log: [^)]*/dhat\.log\.consume_json\.4\)"
if grep -q 'no-such-option' "$tmp/valgrind_exits_1.raw/dhat.log.consume_json.4"; then
  pass "valgrind_exits_1_should_keep_what_valgrind_said_in_the_log"
else
  fail "valgrind_exits_1_should_keep_what_valgrind_said_in_the_log"
fi
damaged valgrind_without_version no-version none "^gate: error: .*valgrind.*--version"
if [ ! -s "$tmp/valgrind_without_version.out" ]; then
  pass "valgrind_without_version_should_print_no_table"
else
  fail "valgrind_without_version_should_print_no_table: $(cat "$tmp/valgrind_without_version.out")"
fi
# DHAT that cannot open its output file says so in its log and exits 0. The raw directory still
# holds that file from the run before (the default raw directory is reused by every run): gate
# must not take the old file for this run's output.
mkdir -p "$tmp/dhat_output_not_written.raw"
cp "$tmp/recorded/"* "$tmp/dhat_output_not_written.raw/"
damaged dhat_output_not_written no-output dhat.out.consume_json.2 \
  "consume_json: failed to measure: dhat run at 4: 0 of its processes wrote an output where the harness makes 4"

# --- scenarios that fail under the real valgrind (no stand-in)
mv "$tmp/bin" "$tmp/bin.off"

mkdir -p "$tmp/programs"
bare_scenario "$tmp/programs/aborts.c" aborts aborts "abort();"
if "$compiler" -O1 -o "$tmp/programs/aborts" "$tmp/programs/aborts.c" 2>"$tmp/compile.err"; then
  manifest "$tmp/aborting" "aborts=$tmp/programs/aborts"
  run_gate scenario_aborts --build-dir "$tmp/aborting"
  expect scenario_aborts 3 \
    "aborts: failed to measure: (callgrind|dhat) run at 4 was killed by signal 6 \(Aborted\) \(log: "
else
  fail "scenario_aborts: cannot compile: $(cat "$tmp/compile.err")"
fi
# steals_during_fill: a real harness scenario whose fill check fails, so it exits 1.
manifest "$tmp/exiting" "steals_during_fill=$build/tests/scenarios/steals_during_fill"
run_gate scenario_exits_1 --build-dir "$tmp/exiting"
expect scenario_exits_1 3 "steals_during_fill: failed to measure: (callgrind|dhat) run at 4 exited with 1 \(log: "

# describe NAME STATUS TEXT: a scenario executable, a shell script, whose --describe prints TEXT
# (and anything else too) and exits STATUS.
describe() {
  printf '#!/bin/sh\ncat <<"END"\n%s\nEND\nexit %s\n' "$3" "$2" >"$tmp/programs/$1"
  chmod +x "$tmp/programs/$1"
  manifest "$tmp/$1.build" "$1=$tmp/programs/$1"
  run_gate "$1" --build-dir "$tmp/$1.build"
}
# declaration NAME: a valid --describe of NAME.
declaration() {
  printf '{"name":"%s","title":"test only","gated":true,"region":"costgate_measured_region",%s}' \
    "$1" '"snapshots":true,"floors":{"steady_allocations":0,"cold_allocations":0}'
}
named="failed to measure: scenario '([a-z0-9_]+)': --describe"
describe describe_garbage 0 "$(printf '\377\376 Segmentation fault (core dumped)')"
expect describe_garbage 3 "describe_garbage: $named: not JSON \\(at byte 0\\)"
whole=$(declaration describe_incomplete)
describe describe_incomplete 0 "${whole:0:70}"
expect describe_incomplete 3 "describe_incomplete: $named: not JSON \\(at byte [0-9]+\\)"
whole=$(declaration describe_without_floors)
describe describe_without_floors 0 "${whole%,\"floors\"*}}"
expect describe_without_floors 3 "describe_without_floors: $named has no object 'floors'"
whole=$(declaration describe_wrong_type)
describe describe_wrong_type 0 "${whole/true/\"yes\"}"
expect describe_wrong_type 3 "describe_wrong_type: $named has no boolean 'gated'"
describe describe_exits_1 1 "$(declaration describe_exits_1)"
expect describe_exits_1 3 "describe_exits_1: $named failed: '[^']*/describe_exits_1' exited with 1"
describe describe_names_another 0 "$(declaration consume_json)"
expect describe_names_another 3 "describe_names_another: $named names another scenario"

# Every failed scenario is a row that says so, never a figure.
for entry in scenario_aborts:aborts scenario_exits_1:steals_during_fill describe_garbage \
  describe_incomplete describe_without_floors describe_wrong_type describe_exits_1 \
  describe_names_another; do
  name=${entry%%:*} row=${entry#*:}
  if grep -qE "^$row +(- +)+failed$" "$tmp/$name.out" 2>/dev/null; then
    pass "${name}_should_be_a_failed_row_in_the_table"
  else
    fail "${name}_should_be_a_failed_row_in_the_table: $(cat "$tmp/$name.out" 2>/dev/null)"
  fi
done

finish
