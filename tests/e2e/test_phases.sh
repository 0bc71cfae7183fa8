#!/usr/bin/env bash
# callgrind's counts from one process (docs/design.md rule 10). gate runs a scenario whose harness
# says "phases" once under callgrind (--phases, --dump-after on the region) and once under DHAT
# (--snapshots): two valgrind processes, and callgrind's parts kept under what they hold (.start,
# .0-1, .1-N, .N-2N, .2N.end). The same scenario built against a harness that does not say
# "phases" (one from an earlier costgate: the harness's source without that member) is run with
# forked snapshots under callgrind too, and every count of both tools is the same, to the digit.
# Parts an earlier run left under a pid are removed before the run.
# Usage: test_phases.sh GATE BUILD_DIR SOURCE_DIR C_COMPILER
# shellcheck source=tests/lib.sh
source "$(dirname "$0")/../lib.sh"
gate=$1 build=$2 source=$3 cc=$4

tmp=$(temp_dir phases) || exit 2

# The flags the build's manifest says its scenarios were measured at (-O2 -g, and with clang the
# debug format valgrind reads: cmake/costgate.cmake, _costgate_debug_options).
read -ra flags <<<"$(sed -n 's/^flags //p' "$build/scenarios/manifest.txt")"

# build DIR HARNESS_SOURCE: consume_raw built against that harness, with its manifest.
build_with() {
  mkdir -p "$tmp/$1/scenarios"
  "$cc" "${flags[@]}" -std=gnu11 -I"$source/include" -I"$source/scenarios" "$2" \
    "$source/scenarios/queue.c" "$source/scenarios/order.c" "$source/scenarios/consume_raw.c" \
    -lcjson -o "$tmp/$1/scenarios/consume_raw" || return 1
  { grep -E '^(costgate|compiler|flags) ' "$build/scenarios/manifest.txt"
    echo "scenario consume_raw $tmp/$1/scenarios/consume_raw"; } >"$tmp/$1/scenarios/manifest.txt"
}
# The harness of an earlier costgate: this one without the "phases" member of --describe.
sed '/put_key(out, "phases");/{N;d}' "$source/scenarios/harness.c" >"$tmp/older_harness.c"
if grep -q '"phases"' "$tmp/older_harness.c" || ! build_with now "$source/scenarios/harness.c" ||
  ! build_with older "$tmp/older_harness.c"; then
  setup_fail "cannot build consume_raw against both harnesses"
fi

run() { # run NAME: gate -v on build NAME at N = 50
  "$gate" --build-dir "$tmp/$1" --messages 50 -v -j 2 --json "$tmp/$1.json" \
    --raw-dir "$tmp/$1.raw" >"$tmp/$1.out" 2>"$tmp/$1.err"
  code=$?
}
out=$tmp/now.out err=$tmp/now.err
# Files an earlier run left under a pid, as one that failed before gate read them does: a run
# whose process gets that pid again must not count them, so gate removes them first.
mkdir -p "$tmp/now.raw"
for stale in 12345 12345.3 12345.5; do
  echo stale >"$tmp/now.raw/callgrind.out.consume_raw.100.$stale"
done
run now
check_run "a_scenario_whose_harness_takes_phases_should_pass" 0 '^consume_raw .* ok$'
check "two_valgrind_processes_should_measure_it" test "$(grep -c '^gate: run: ' "$tmp/now.err")" = 2
check_run "callgrind_should_dump_its_parts_on_leaving_the_region" 0 \
  "err:^gate: run: .* --tool=callgrind .* --dump-after=costgate_measured_region .* \./consume_raw --phases 1,50,100 100$" \
  "err:^gate: run: .* --tool=dhat .* \./consume_raw --snapshots 1,50,100 100$"
missing=""
for part in start 0-1 1-50 50-100 100.end; do
  [ -s "$tmp/now.raw/callgrind.out.consume_raw.$part" ] || missing="$missing $part"
done
check "the_parts_should_be_kept_under_what_they_hold${missing:+: missing$missing}" test -z "$missing"
check "no_part_should_stay_under_its_pid" test -z "$(find "$tmp/now.raw" -name 'callgrind.out.*.[0-9]*.[0-9]*')"
check "an_earlier_run_s_parts_should_be_gone" test -z "$(find "$tmp/now.raw" -name '*12345*')"

out=$tmp/older.out err=$tmp/older.err
run older
check_run "a_harness_without_phases_should_still_be_measured" 0 '^consume_raw .* ok$'
check_run "its_callgrind_run_should_fork_snapshots" 0 \
  "err:^gate: run: .* --tool=callgrind .* \./consume_raw --snapshots 1,50,100 100$"
check "without_a_dump_of_its_parts" test "$(grep -c -- --dump-after "$tmp/older.err")" = 0
counts() { python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["code"][0]["counts"])' "$1"; }
now_counts=$(counts "$tmp/now.json") older_counts=$(counts "$tmp/older.json")
echo "counts with phases: $now_counts"
echo "counts with forked snapshots: $older_counts"
# Counts there must be: two runs that both failed to measure count the same nothing.
same_counts() { [ -n "$now_counts" ] && [ "$now_counts" = "$older_counts" ]; }
check "both_ways_should_count_the_same_to_the_digit" same_counts

# A second opinion reads every count again from either kind of raw file: parts added up, or one
# file a count.
for way in now older; do
  "$gate" merge --quiet --check-raw "$tmp/$way.raw" --json "$tmp/$way.again.json" "$tmp/$way.json" \
    >"$tmp/$way.merge" 2>&1
  status=$?
  check "check_raw_should_agree_with_the_${way}_run (exit $status)" test "$status" = 0
done

finish
