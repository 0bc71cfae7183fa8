#!/usr/bin/env bash
# The second opinion decides again from an uploaded results.json and its raw valgrind files:
# gate merge --check-raw reads every count again from the raw files, so figures lowered in
# results.json (by an edited gate or script in the pull request) are exit 3 naming the file.
# Usage: test_second_opinion.sh GATE BUILD_DIR
# shellcheck source=tests/lib.sh
source "$(dirname "$0")/../lib.sh"
gate=$1 build=$2

tmp=$(temp_dir second-opinion) || exit 2
messages=100

"$gate" --build-dir "$build" --scenario consume_raw --scenario reply --messages "$messages" -j 2 \
  --json "$tmp/results.json" --raw-dir "$tmp/raw" >/dev/null 2>"$tmp/stderr"
code=$?
if [ "$code" -ne 0 ]; then
  echo "FAIL setup: gate exited $code"
  sed 's/^/    | /' "$tmp/stderr"
  exit 1
fi

"$gate" merge --check-raw "$tmp/raw" --json "$tmp/again.json" "$tmp/results.json" >"$tmp/stdout" 2>&1
code=$?
if [ "$code" -eq 0 ] && grep -q '^pass: 2 scenarios within their limits$' "$tmp/stdout"; then
  pass "the_run_s_own_results_should_agree_with_its_raw_files"
else
  fail "the_run_s_own_results_should_agree_with_its_raw_files: exit $code"
  sed 's/^/    | /' "$tmp/stdout"
fi

# The same document with reply's instructions per message lowered by 1000, consistently (counts
# and the figure computed from them), as a forger would.
python3 - "$tmp/results.json" "$tmp/forged.json" "$messages" <<'PY'
import json, sys
source, target, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
document = json.load(open(source))
for entry in document["code"]:
    if entry["name"] == "reply":
        counts = entry["counts"]["instructions"]
        counts[2] -= 1000 * n
        entry["framework"]["instructions"] = (counts[2] - counts[1]) / n
        entry["metrics"]["instructions"]["per_message"] = (counts[2] - counts[1]) / n
json.dump(document, open(target, "w"), indent="\t")
PY
"$gate" merge --check-raw "$tmp/raw" --json "$tmp/again.json" "$tmp/forged.json" >"$tmp/stdout" 2>&1
code=$?
if [ "$code" -eq 3 ] &&
  grep -qE "^gate: error: results of 'reply' disagree with the raw files: instructions is [0-9]+, but '$tmp/raw/callgrind\.out\.reply\.200' holds [0-9]+\$" "$tmp/stdout"; then
  pass "lowered_counts_should_exit_3_naming_the_raw_file"
else
  fail "lowered_counts_should_exit_3_naming_the_raw_file: exit $code"
  sed 's/^/    | /' "$tmp/stdout"
fi

# Without --check-raw the forged document passes: the raw files are what makes it a check.
"$gate" merge --json "$tmp/again.json" "$tmp/forged.json" >"$tmp/stdout" 2>&1
code=$?
if [ "$code" -eq 0 ]; then
  pass "the_forged_document_alone_should_still_read_as_valid"
else
  fail "the_forged_document_alone_should_still_read_as_valid: exit $code (the forgery is wrong)"
  sed 's/^/    | /' "$tmp/stdout"
fi

finish
