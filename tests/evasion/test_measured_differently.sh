#!/usr/bin/env bash
# A program keyed on being measured is caught by the second opinion: each scenario of keyed/
# skips a second parse of every message (two heap blocks) on a channel that marks a measured run
# (its first argument, address randomisation off, LD_BIND_NOW, a full queue). Measured it is
# within its floors; its native run, which differs in all of those, allocates, and gate fails it
# (exit 3, "behaves differently when measured"), with and without --vary-n. gate merge decides
# again from a results document what the run decided: native figures that disagree with the
# measured ones fail there too. Honest scenarios agree, and the run says what it compared.
# Usage: test_measured_differently.sh GATE BUILD_DIR
# shellcheck source=tests/lib.sh
source "$(dirname "$0")/../lib.sh"
gate=$1 build=$2
keyed=$build/tests/evasion/keyed

tmp=$(temp_dir measured-differently) || exit 2
out=$tmp/stdout err=$tmp/stderr

# run_gate ARGS...: gate on the keyed build; sets code and fills $out and $err.
run_gate() {
  "$gate" --build-dir "$keyed" --messages 200 -j 2 --raw-dir "$tmp/raw" --json "$tmp/results.json" \
    -v "$@" >"$out" 2>"$err"
  code=$?
}

differently() {
  printf '^%s: failed to measure: behaves differently when measured: 2\\.000 heap blocks per message and 2 cold natively \\(address randomisation on, no pins, N on stdin, at most 3 messages waiting\\), against 0\\.000 and 0 measured' "$1"
}
backlog_differently='^keyed_on_backlog: failed to measure: behaves differently when measured: 2\.000 heap blocks per message and 2 cold natively \(address randomisation on, no pins, N on stdin, at most 3 messages waiting\), against 0\.110 and 2 measured'

for vary in "" --vary-n; do
  suffix=${vary:+_with_vary_n}
  # shellcheck disable=SC2086 # no option is no word
  run_gate $vary
  if [ -n "$vary" ]; then
    backlog='^keyed_on_backlog: failed to measure: behaves differently when measured: 2\.000 heap blocks per message and 2 cold natively \(address randomisation on, no pins, N on stdin, at most 3 messages waiting\), against 0\.[0-9]{3} and 2 measured'
  else
    backlog=$backlog_differently
  fi
  check_run "programs_keyed_on_being_measured_should_fail_to_measure$suffix" 3 \
    "$(differently keyed_on_argv)" "$(differently keyed_on_aslr)" \
    "$(differently keyed_on_bind_now)" "$backlog" \
    "^fail: 4 failed to measure \(keyed_on_argv, keyed_on_aslr, keyed_on_backlog, keyed_on_bind_now\)\$" \
    "err:^gate: second opinion: 0 of 4 scenarios behave alike natively\$" \
    "^keyed_on_aslr: warning: code that can tell a measured run apart, for the review \(never a failure alone\): keyed_on_aslr imports personality\$" \
    "^keyed_on_bind_now: warning: code that can tell a measured run apart, for the review \(never a failure alone\): keyed_on_bind_now holds \"LD_BIND_NOW\"\$"
  # The run's own requests and outputs are kept beside valgrind's files.
  if [ -z "$vary" ]; then
    if grep -qx 'phases 1,200,400 400 backlog 3' "$tmp/raw/native.keyed_on_argv.request" &&
      grep -qx 'allocations 2 400 800' "$tmp/raw/native.keyed_on_argv.out"; then
      pass "the_second_opinion_s_request_and_output_should_be_kept_in_the_raw_directory"
    else
      fail "the_second_opinion_s_request_and_output_should_be_kept_in_the_raw_directory"
    fi
  fi
done

# Honest scenarios agree, and their native figures are in results.json for gate merge.
"$gate" --build-dir "$build" --scenario consume_json --scenario reply --messages 100 -j 2 \
  --raw-dir "$tmp/honest.raw" --json "$tmp/honest.json" -v >"$out" 2>"$err"
code=$?
check_run "honest_scenarios_should_behave_alike_natively" 0 \
  "err:^gate: second opinion: 2 of 2 scenarios behave alike natively\$" \
  "!warning: code that can tell" "^pass: 2 scenarios within their limits\$"
if tr -d ' \t\n' <"$tmp/honest.json" |
  grep -qE '"native":\{"consume_json":\{"allocations":\[19,1900,3800\](,"instructions":\[[0-9,]+\])?,"backlog":3\}'; then
  pass "results_json_should_hold_the_native_figures"
else
  fail "results_json_should_hold_the_native_figures"
fi

# gate merge decides again: the document as written passes; native figures that disagree fail.
"$gate" merge --json "$tmp/again.json" "$tmp/honest.json" >"$out" 2>"$err"
code=$?
check_run "merge_should_pass_the_document_as_written" 0 "^pass: 2 scenarios within their limits\$"
json_edit "$tmp/honest.json" "$tmp/edited.json" '
document["costgate"]["native"]["reply"]["allocations"][2] += 100'
"$gate" merge --json "$tmp/again.json" "$tmp/edited.json" >"$out" 2>"$err"
code=$?
check_run "merge_should_fail_native_figures_that_disagree" 3 \
  "^reply: failed to measure: behaves differently when measured: 2[0-9]\.000 heap blocks per message and 20 cold natively .* against 19\.000 and 20 measured" \
  "^fail: 1 failed to measure \(reply\)\$"


# --check-raw reads the second opinion's figures again from what its run printed.
"$gate" merge --check-raw "$tmp/honest.raw" --json "$tmp/again.json" "$tmp/honest.json" >"$out" 2>"$err"
code=$?
check_run "check_raw_should_agree_with_the_native_run_s_own_output" 0
json_edit "$tmp/honest.json" "$tmp/lowered.json" '
for key in ("reply",):
    document["costgate"]["native"][key]["allocations"][0] -= 1'
"$gate" merge --check-raw "$tmp/honest.raw" --json "$tmp/again.json" "$tmp/lowered.json" >"$out" 2>"$err"
code=$?
check_run "check_raw_should_refuse_native_figures_unlike_the_native_run_s_output" 3 \
  "err:^gate: error: results of 'reply' disagree with the raw files: the second opinion's figures are not those of '[^']*/native\.reply\.out'\$"

finish
