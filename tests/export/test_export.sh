#!/usr/bin/env bash
# gate export, each format read back by a real parser of that format: BMF validated against a
# JSON schema (python3-jsonschema) and its values compared with the results, JUnit validated by
# xmllint against the JUnit XSD beside this script and its cases read with an XML parser, CSV
# read with Python's csv module. Then the command line: -o, bad formats, malformed results.
# Usage: test_export.sh GATE
# shellcheck source=tests/lib.sh
source "$(dirname "$0")/../lib.sh"
gate=$(realpath -- "$1")
here=$(cd "$(dirname "$0")" && pwd)
results=$here/results.json
work=$(temp_dir export) || exit 2

python=$(python_with jsonschema)
if [ -z "$python" ] || ! command -v xmllint >/dev/null; then
  setup_fail "needs python3 with jsonschema and xmllint (tools/install-deps.sh --tests installs python3-jsonschema and libxml2-utils)"
fi

"$gate" export --format bmf "$results" >"$work/bmf.json" 2>"$work/bmf.err"
code=$?
if [ "$code" -eq 0 ] && "$python" - "$work/bmf.json" "$here/bmf.schema.json" "$results" >"$work/bmf.check" 2>&1 <<'EOF'
import json, sys
import jsonschema
document = json.load(open(sys.argv[1]))
jsonschema.validate(document, json.load(open(sys.argv[2])))
results = json.load(open(sys.argv[3]))
expected = {}
for entry in results["code"]:
    expected[entry["name"]] = {
        "instructions": entry["framework"]["instructions"],
        "allocations": entry["framework"]["allocations"],
        "cold-instructions": entry["cold"]["instructions"],
        "cold-allocations": entry["cold"]["allocations"],
    }
    # Every other metric the entry has counts of, per message and cold (bytes: its own object).
    for metric in entry["counts"]:
        if metric not in ("instructions", "allocations"):
            counts = entry["counts"][metric]
            slug = metric.replace("_", "-")  # a Bencher slug: [a-z][a-z0-9-]*
            expected[entry["name"]][slug] = (counts[2] - counts[1]) / entry["messages"]
            expected[entry["name"]]["cold-" + slug] = counts[0]
got = {name: {measure: metric["value"] for measure, metric in measures.items()}
       for name, measures in document.items()}
assert got == expected, (got, expected)
EOF
then
  pass "bmf_should_validate_against_the_schema_and_carry_every_figure"
else
  fail "bmf_should_validate_against_the_schema_and_carry_every_figure: exit $code"
  show "$work/bmf.check"
  show "$work/bmf.err"
fi
# The schema check is not vacuous: a measure without a value is refused.
sed 's/"value"/"valeur"/' "$work/bmf.json" >"$work/bmf-broken.json"
if ! "$python" -c 'import json,sys,jsonschema; jsonschema.validate(json.load(open(sys.argv[1])), json.load(open(sys.argv[2])))' \
  "$work/bmf-broken.json" "$here/bmf.schema.json" 2>/dev/null; then
  pass "bmf_schema_should_refuse_a_measure_without_a_value"
else
  fail "bmf_schema_should_refuse_a_measure_without_a_value"
fi

"$gate" export --format junit "$results" >"$work/junit.xml" 2>"$work/junit.err"
code=$?
if [ "$code" -eq 0 ] && xmllint --noout --schema "$here/junit.xsd" "$work/junit.xml" 2>"$work/xmllint.err" &&
  "$python" - "$work/junit.xml" >"$work/junit.check" 2>&1 <<'EOF'
import sys
import xml.etree.ElementTree as tree
suites = tree.parse(sys.argv[1]).getroot()
suite = suites.find("testsuite")
cases = {case.get("name"): case for case in suite.findall("testcase")}
assert sorted(cases) == ["consume_json", "reply", "segfaults"], sorted(cases)
assert (suite.get("tests"), suite.get("failures"), suite.get("errors")) == ("3", "1", "1"), suite.attrib
failure = cases["reply"].find("failure")
assert failure is not None and failure.get("type") == "regression", failure
assert failure.get("message") == ("instructions per message 20000 against 18000 on the baseline "
                                  "(+11.11 %, limit 5 %); allocations per message 2 above the "
                                  "declared floor 1; estimated cycles per message 30600 against "
                                  "28000 on the baseline (+9.29 %, limit 5 %)"), failure.get("message")
assert cases["consume_json"].find("failure") is None
assert cases["consume_json"].find("system-out").text == (
    'accepted: validate the symbol field: one strlen & one "copy" per message')
error = cases["segfaults"].find("error")
assert error is not None and error.get("message").endswith("<see raw/callgrind.out.segfaults.1>")
EOF
then
  pass "junit_should_validate_against_the_schema_with_a_case_per_scenario_failed_by_its_breach"
else
  fail "junit_should_validate_against_the_schema_with_a_case_per_scenario_failed_by_its_breach: exit $code"
  show "$work/xmllint.err"
  show "$work/junit.check"
fi
sed 's/<testcase classname="costgate" name="reply"/<testcase classname="costgate"/' "$work/junit.xml" >"$work/junit-broken.xml"
if ! xmllint --noout --schema "$here/junit.xsd" "$work/junit-broken.xml" 2>/dev/null; then
  pass "junit_schema_should_refuse_a_test_case_without_a_name"
else
  fail "junit_schema_should_refuse_a_test_case_without_a_name"
fi

"$gate" export --format csv "$results" >"$work/export.csv" 2>"$work/csv.err"
code=$?
if [ "$code" -eq 0 ] && "$python" - "$work/export.csv" "$results" >"$work/csv.check" 2>&1 <<'EOF'
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
results = json.load(open(sys.argv[2]))
assert list(rows[0]) == ["scenario", "measure", "value", "unit", "baseline", "change_percent",
                         "limit_percent", "floor"], list(rows[0])
keys = {"instructions": ("framework", "instructions"), "allocations": ("framework", "allocations"),
        "cold-instructions": ("cold", "instructions"), "cold-allocations": ("cold", "allocations"),
        "bytes": ("bytes", "per_message"), "cold-bytes": ("bytes", "cold")}
facts = [r for r in rows if r["measure"] != "state"]
states = {r["scenario"]: r["value"] for r in rows if r["measure"] == "state"}
# One fact a row: each scenario's state once (the failed one too), then per message and cold for
# each metric it has counts of.
assert len(states) == len([r for r in rows if r["measure"] == "state"])
assert states == {"reply": "regressed", "consume_json": "accepted", "segfaults": "failed"}, states
assert len(facts) == sum(2 * len(e["counts"]) for e in results["code"]), len(facts)
seen = set()
for row in facts:
    entry = next(e for e in results["code"] if e["name"] == row["scenario"])
    if row["measure"] in keys:
        section, key = keys[row["measure"]]
        figure = entry[section][key]
    else:  # another metric: from its counts
        metric = row["measure"].removeprefix("cold-").replace("-", "_")
        counts = entry["counts"][metric]
        figure = counts[0] if row["measure"].startswith("cold-") else \
            (counts[2] - counts[1]) / entry["messages"]
    assert float(row["value"]) == figure, row
    floor = {"allocations": "steady_allocations", "cold-allocations": "cold_allocations"}.get(row["measure"])
    assert row["floor"] == ("%g" % entry["floors"][floor] if floor else ""), row
    seen.add((row["scenario"], row["measure"]))
assert len(seen) == len(facts)
reply = next(r for r in facts if r["scenario"] == "reply" and r["measure"] == "instructions")
assert (reply["baseline"], reply["change_percent"], reply["limit_percent"], reply["unit"]) == \
    ("18000", "11.11", "5", "instructions"), reply
cycles = next(r for r in facts if r["scenario"] == "reply" and r["measure"] == "cycles")
assert (cycles["value"], cycles["baseline"], cycles["change_percent"]) == ("30600", "28000", "9.29"), cycles
EOF
then
  pass "csv_should_read_back_one_fact_a_row_with_its_figure_and_floor"
else
  fail "csv_should_read_back_one_fact_a_row_with_its_figure_and_floor: exit $code"
  show "$work/csv.check"
fi

# A name a spreadsheet would take for a formula never gets that far: results with a name outside
# [a-z0-9_]{1,64} are refused (exit 2) and nothing is written. The writer escapes such names all
# the same (the export unit test).
sed -e 's/"name": "reply"/"name": "=HYPERLINK(1)"/' "$results" >"$work/odd.json"
"$gate" export --format csv "$work/odd.json" -o "$work/odd.csv" >/dev/null 2>"$work/odd.err"
code=$?
if [ "$code" -eq 2 ] && [ ! -e "$work/odd.csv" ] &&
  grep -q "is not a scenario name" "$work/odd.err"; then
  pass "export_should_refuse_results_whose_name_could_be_a_formula"
else
  fail "export_should_refuse_results_whose_name_could_be_a_formula: exit $code"
  show "$work/odd.err"
fi

# The command line.
"$gate" export -f bmf -o "$work/out.json" "$results" >"$work/stdout" 2>&1
code=$?
if [ "$code" -eq 0 ] && [ ! -s "$work/stdout" ] && cmp -s "$work/out.json" "$work/bmf.json"; then
  pass "export_should_write_the_output_file_instead_of_stdout"
else
  fail "export_should_write_the_output_file_instead_of_stdout: exit $code"
fi
expect() { # expect NAME PATTERN ARGS...: exit 2 with PATTERN on stderr, nothing written
  local name=$1 pattern=$2
  shift 2
  rm -f "$work/never"
  "$gate" export "$@" >"$work/$name.out" 2>"$work/$name.err"
  code=$?
  if [ "$code" -eq 2 ] && grep -q -- "$pattern" "$work/$name.err" && [ ! -e "$work/never" ]; then
    pass "$name"
  else
    fail "$name: exit $code"
    show "$work/$name.err"
  fi
}
expect export_without_a_format_should_exit_2 "gate: error: --format is required" "$results"
expect export_with_an_unknown_format_should_exit_2 "'xml' is not bmf, junit or csv" --format xml "$results"
expect export_of_a_missing_file_should_exit_2 "cannot read results '$work/absent.json'" \
  --format csv -o "$work/never" "$work/absent.json"
printf '{"schema": 3, "code": [' >"$work/truncated.json"
expect export_of_malformed_results_should_exit_2_and_write_nothing "not JSON" \
  --format junit -o "$work/never" "$work/truncated.json"

finish
