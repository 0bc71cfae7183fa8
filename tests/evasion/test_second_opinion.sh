#!/usr/bin/env bash
# The second opinion decides again from an uploaded results.json and its raw valgrind files:
# gate merge --check-raw reads every count again from the raw files, so figures lowered in
# results.json (by an edited gate or script in the pull request) are exit 3 naming the file.
# Usage: test_second_opinion.sh GATE BUILD_DIR
# shellcheck source=tests/lib.sh
source "$(dirname "$0")/../lib.sh"
gate=$1 build=$2

tmp=$(temp_dir second-opinion) || exit 2
out=$tmp/stdout err=$tmp/stderr

"$gate" --build-dir "$build" --scenario consume_raw --scenario reply --messages 100 -j 2 \
  --json "$tmp/results.json" --raw-dir "$tmp/raw" >/dev/null 2>"$err" ||
  setup_fail "gate exited $?: $(cat "$err")"

# merge ARGS...: gate merge ARGS; sets code and fills $out and $err.
merge() {
  "$gate" merge "$@" >"$out" 2>"$err"
  code=$?
}

merge --check-raw "$tmp/raw" --json "$tmp/again.json" "$tmp/results.json"
check_run "the_run_s_own_results_should_agree_with_its_raw_files" 0 \
  '^pass: 2 scenarios within their limits$'

# The same document with reply's instructions per message lowered by 1000, consistently (counts
# and the figure computed from them), as a forger would.
json_edit "$tmp/results.json" "$tmp/forged.json" '
for entry in document["code"]:
    if entry["name"] == "reply":
        counts, n = entry["counts"]["instructions"], entry["messages"]
        counts[2] -= 1000 * n
        entry["framework"]["instructions"] = (counts[2] - counts[1]) / n
        entry["metrics"]["instructions"]["per_message"] = (counts[2] - counts[1]) / n'
merge --check-raw "$tmp/raw" --json "$tmp/again.json" "$tmp/forged.json"
check_run "lowered_counts_should_exit_3_naming_the_raw_file" 3 \
  "err:^gate: error: results of 'reply' disagree with the raw files: instructions is [0-9]+, but '$tmp/raw/callgrind\.out\.reply\.100-200' with the parts before it holds [0-9]+\$"

# Without --check-raw the forged document passes: the raw files are what makes it a check.
merge --json "$tmp/again.json" "$tmp/forged.json"
check_run "the_forged_document_alone_should_still_read_as_valid" 0

finish
