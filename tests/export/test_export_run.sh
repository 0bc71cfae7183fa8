#!/usr/bin/env bash
# The exports and the page of a real run: gate measures one small scenario under valgrind with
# every metric of the table (--all-metrics), and each export of that results.json is read back by
# a parser of its format: BMF against the JSON schema beside this script (every measure a Bencher
# slug, one for each metric counted, per message and cold), JUnit against the XSD with the
# scenario's source file and the seconds of its runs, CSV one fact a row with its floor; the page
# opens with the verdict.
# Usage: test_export_run.sh GATE BUILD_DIR
# shellcheck source=tests/lib.sh
source "$(dirname "$0")/../lib.sh"
gate=$(realpath -- "$1") build=$(realpath -- "$2")
here=$(cd "$(dirname "$0")" && pwd)
work=$(temp_dir export-run) || exit 2

python=$(python_with jsonschema)
if [ -z "$python" ] || ! command -v xmllint >/dev/null; then
  setup_fail "needs python3 with jsonschema and xmllint (tools/install-deps.sh --tests installs python3-jsonschema and libxml2-utils)"
fi

results=$work/results.json
# From the repository's root, as a user runs it: the source file is named relative to it
# wherever the build directory is.
(cd "$here/../.." && exec "$gate" --build-dir "$build" --scenario consume_raw --all-metrics \
  --messages 200 --quiet --json "$results" --raw-dir "$work/raw") >"$work/run.out" 2>"$work/run.err"
code=$?
if [ "$code" -ne 0 ] || [ ! -s "$results" ]; then
  setup_fail "gate exited $code" "$work/run.err"
fi

"$gate" export --format bmf "$results" >"$work/bmf.json" 2>"$work/bmf.err"
code=$?
if [ "$code" -eq 0 ] && "$python" - "$work/bmf.json" "$here/bmf.schema.json" "$results" >"$work/bmf.check" 2>&1 <<'PY'
import json, sys
import jsonschema
document = json.load(open(sys.argv[1]))
jsonschema.validate(document, json.load(open(sys.argv[2])))
entry = json.load(open(sys.argv[3]))["code"][0]
metrics = set(entry["counts"])
# Every metric of the table, the opt-in cache simulation and the peak included.
assert {"instructions", "allocations", "bytes", "peak_bytes", "cycles"} <= metrics, metrics
slugs = {m.replace("_", "-") for m in metrics}
assert set(document["consume_raw"]) == slugs | {"cold-" + s for s in slugs}, document
for metric in metrics:
    counts = entry["counts"][metric]
    slug = metric.replace("_", "-")
    assert document["consume_raw"]["cold-" + slug]["value"] == counts[0], metric
    assert document["consume_raw"][slug]["value"] == (counts[2] - counts[1]) / entry["messages"], metric
PY
then
  pass "bmf_of_a_real_run_with_every_metric_should_validate_against_the_schema"
else
  fail "bmf_of_a_real_run_with_every_metric_should_validate_against_the_schema: exit $code"
  show "$work/bmf.check"
  show "$work/bmf.err"
fi

"$gate" export --format junit "$results" >"$work/junit.xml" 2>"$work/junit.err"
code=$?
if [ "$code" -eq 0 ] && xmllint --noout --schema "$here/junit.xsd" "$work/junit.xml" 2>"$work/xmllint.err" &&
  "$python" - "$work/junit.xml" "$results" >"$work/junit.check" 2>&1 <<'PY'
import json, sys
import xml.etree.ElementTree as tree
suite = tree.parse(sys.argv[1]).getroot().find("testsuite")
case = suite.find("testcase")
runs = json.load(open(sys.argv[2]))["costgate"]["runs"]
assert case.get("file") == "scenarios/consume_raw.c", case.attrib
assert float(case.get("time")) > 0, case.attrib
assert abs(float(case.get("time")) - runs["consume_raw"]["valgrind_seconds"]) < 0.001, case.attrib
assert suite.get("time") == case.get("time"), suite.attrib
PY
then
  pass "junit_of_a_real_run_should_carry_the_source_file_and_the_valgrind_seconds"
else
  fail "junit_of_a_real_run_should_carry_the_source_file_and_the_valgrind_seconds: exit $code"
  show "$work/xmllint.err"
  show "$work/junit.check"
fi

"$gate" export --format csv "$results" >"$work/export.csv" 2>"$work/csv.err"
code=$?
if [ "$code" -eq 0 ] && "$python" - "$work/export.csv" "$work/bmf.json" >"$work/csv.check" 2>&1 <<'PY'
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
bmf = json.load(open(sys.argv[2]))["consume_raw"]
states = [r for r in rows if r["measure"] == "state"]
assert [(r["scenario"], r["value"]) for r in states] == [("consume_raw", "ok")], states
measures = {r["measure"]: r for r in rows if r["measure"] != "state"}
assert len(measures) == len(rows) - 1 == len(bmf), (len(rows), len(bmf))
for name, row in measures.items():
    assert float(row["value"]) == bmf[name]["value"], row
    assert row["unit"] in ("instructions", "blocks", "bytes", "cycles", "calls"), row
# consume_raw declares 0 allocations per message and cold: the floor is a fact of its own row.
assert measures["allocations"]["floor"] == "0" and measures["cold-allocations"]["floor"] == "0"
assert measures["instructions"]["floor"] == ""
PY
then
  pass "csv_of_a_real_run_should_give_one_fact_a_row_with_the_floors"
else
  fail "csv_of_a_real_run_should_give_one_fact_a_row_with_the_floors: exit $code"
  show "$work/csv.check"
fi

"$gate" report -q "$results" -o "$work/page.html" 2>"$work/page.err"
code=$?
first=$(grep -o -m1 '<section id="[a-z]*"' "$work/page.html")
if [ "$code" -eq 0 ] && [ "$first" = '<section id="verdict"' ] &&
  grep -q '<section id="verdict" class="verdict-pass">' "$work/page.html" &&
  grep -q '<tr class="scenario state-row-ok"><th scope="row">consume_raw' "$work/page.html"; then
  pass "page_of_a_real_run_should_open_with_the_verdict_and_show_the_scenario_state"
else
  fail "page_of_a_real_run_should_open_with_the_verdict_and_show_the_scenario_state: exit $code, first $first"
  show "$work/page.err"
fi

finish
