#!/usr/bin/env bash
# The metrics beyond instructions and allocations, end to end under real valgrind:
# - list_walk (tests/scenarios) built two ways that run the same instructions, its list in order
#   or scattered over 8 MiB: scattered regresses on estimated cycles (gated: .gate_cycles) with
#   exactly the instructions of the baseline; without .gate_cycles it passes, and a head that
#   drops .gate_cycles against a baseline that had it is a breach;
# - bytes_tenfold built with 64-byte and 640-byte blocks: the same blocks, ten times the bytes,
#   caught by its declared bytes floor, and by a declared cold peak floor; the peak is DHAT's own
#   "At t-gmax";
# - estimated cycles equal L1 + 5 x LL + 35 x RAM of the cache simulation's own totals;
# - the whole process's figures are the callgrind run's even where the cache simulation's run
#   counted other work outside the region;
# - a baseline from before the peak and the cycles: the rest compared, what it lacks named;
# - gate built with one more metric table entry (GATE_TEST_METRIC), gated at a limit, shows that
#   metric in the table, the Markdown and results.json, fails a rise above its limit by its key
#   and accepts one that baselines/accepted.json names by that key: nothing else was written
#   for it.
# Usage: test_metrics.sh GATE GATE_TEST_METRIC BUILD_DIR SOURCE_DIR HARNESS_LIBRARY
# shellcheck source=tests/lib.sh
source "$(dirname "$0")/../lib.sh"
gate=$1 test_gate=$2 build=$3 source=$4 harness=$5

tmp=$(temp_dir metrics) || exit 2

# variant DIR STRIDE GATE_CYCLES BLOCK_BYTES [FLAG [WALK_FLAG]]: both scenarios built one way,
# with a manifest; FLAG is one more -D for bytes_tenfold, WALK_FLAG for list_walk.
variant() {
  local dir=$tmp/$1 extra=${5:--DNO_EXTRA} walk_extra=${6:--DNO_EXTRA}
  mkdir -p "$dir/scenarios"
  gcc -O2 -g -std=gnu11 -I"$source/include" -I"$source/scenarios" -DWALK_STRIDE="$2" -DWALK_GATE_CYCLES="$3" \
    "$walk_extra" \
    "$source/tests/scenarios/list_walk.c" "$harness" -o "$dir/scenarios/list_walk" &&
    gcc -O2 -g -std=gnu11 -I"$source/include" -I"$source/scenarios" -DBLOCK_BYTES="$4" "$extra" \
      "$source/tests/scenarios/bytes_tenfold.c" "$harness" -o "$dir/scenarios/bytes_tenfold" ||
    return 1
  { sed -n '/^costgate /p; /^compiler /p; /^flags /p' "$build/scenarios/manifest.txt"
    echo "scenario list_walk $dir/scenarios/list_walk"
    echo "scenario bytes_tenfold $dir/scenarios/bytes_tenfold"; } >"$dir/scenarios/manifest.txt"
}

run_gate() { # run_gate DIR [options...]: exit code in $status
  local dir=$tmp/$1
  shift
  "$gate" --build-dir "$dir" --messages 200 --quiet --json "$dir/results.json" \
    --markdown "$dir/summary.md" "$@" >"$dir/stdout" 2>"$dir/stderr"
  status=$?
}

if ! variant base 1 1 64 || ! variant scattered 40503 1 640 || ! variant plain_base 1 0 64 ||
  ! variant plain_scattered 40503 0 64; then
  setup_fail "cannot build the scenarios"
fi

run_gate base
check "a baseline of both scenarios measures (exit 0)" test "$status" = 0
check "the cache simulation ran only for list_walk, which opts in" \
  test "$(json_value "$tmp/base/results.json" \
    '[sorted(e["raw"].keys()) for e in sorted(d["code"], key=lambda e: e["name"])]')" = \
  "[['callgrind', 'dhat'], ['cachesim', 'callgrind', 'dhat']]"

run_gate scattered --baseline-file "$tmp/base/results.json"
row="[r for r in d['costgate']['verdict']['rows'] if r['name'] == 'list_walk'][0]"
check "the scattered walk fails the gate (exit 1)" test "$status" = 1
check "its instructions per message equal the baseline's, to the digit" \
  test "$(json_value "$tmp/scattered/results.json" "${row}['instructions']['change_percent']")" = 0
check "it regressed on estimated cycles, and on nothing else per message" \
  test "$(json_value "$tmp/scattered/results.json" "[b for b in ${row}['breaches'] if b != 'cold_cycles']")" = \
  "['cycles']"
check "the table says why: estimated cycles above the limit" \
  grep -q "^list_walk: .* estimated cycles per message against .* above the 2 % limit" \
    "$tmp/scattered/stdout"
tenfold="[r for r in d['costgate']['verdict']['rows'] if r['name'] == 'bytes_tenfold'][0]"
check "ten times the bytes in the same blocks breaks the declared bytes floor" \
  test "$(json_value "$tmp/scattered/results.json" "${tenfold}['breaches']")" = \
  "['steady_bytes', 'cold_bytes']"
check "the same number of blocks per message" \
  test "$(json_value "$tmp/scattered/results.json" \
    "[e['metrics']['allocations']['per_message'] for e in d['code'] if e['name'] == 'bytes_tenfold']")" = \
  "[1]"
check "the table names the floor" \
  grep -q "^bytes_tenfold: 640.000 bytes (heap bytes allocated) per message, above the declared floor of 64" \
    "$tmp/scattered/stdout"

# The peak live heap is DHAT's own figure: its log's "At t-gmax", at 1, N and 2N.
logged=$(for n in 1 200 400; do
  sed -n 's/.*At t-gmax: \([0-9,]*\) bytes.*/\1/p' "$tmp/base/gate/raw/dhat.log.bytes_tenfold.$n" | tr -d ,
done | paste -sd, -)
check "the peak live heap is DHAT's 'At t-gmax' of each run: [$logged]" \
  test "$(json_value "$tmp/base/results.json" \
    "','.join(str(c) for c in [e['counts']['peak_bytes'] for e in d['code'] if e['name'] == 'bytes_tenfold'][0])")" = \
  "$logged"

# A declared cold peak floor: the baseline's own peak passes, the larger block breaks it.
cold_peak=$(json_value "$tmp/base/results.json" \
  "[e['metrics']['peak_bytes']['cold'] for e in d['code'] if e['name'] == 'bytes_tenfold'][0]")
if ! variant peak_base 1 1 64 "-DCOLD_PEAK_FLOOR=$cold_peak" ||
  ! variant peak_tenfold 1 1 640 "-DCOLD_PEAK_FLOOR=$cold_peak"; then
  fail "setup: peak variants"
fi
run_gate peak_base
check "a cold peak floor at the measured peak holds (exit 0)" test "$status" = 0
run_gate peak_tenfold
check "a block ten times larger breaks the cold peak floor" \
  grep -q "^bytes_tenfold: [0-9]* bytes (peak live heap of the process) in the cold run, above the declared floor of $cold_peak ('cold_peak_bytes')" \
  "$tmp/peak_tenfold/stdout"

# Without the opt-in the same change passes: instructions alone cannot see it.
run_gate plain_base
run_gate plain_scattered --baseline-file "$tmp/plain_base/results.json"
check "ungated, the scattered walk passes on instructions (exit 0)" test "$status" = 0
check "and no cycles were simulated for it" \
  test "$(json_value "$tmp/plain_scattered/results.json" "'cycles' in d['code'][1]['metrics']")" = False

# Dropping the opt-in against a baseline that has it is a looser setting: a breach.
run_gate plain_scattered --baseline-file "$tmp/base/results.json"
check "dropping .gate_cycles against a baseline that gates cycles fails (exit 1)" \
  test "$status" = 1
check "as the setting it is" grep -q "^list_walk: estimated cycles not gated, but the baseline gates them" \
  "$tmp/plain_scattered/stdout"

# The figure is the formula applied to callgrind's own totals of the cache simulation.
raw=$tmp/base/gate/raw
expected=$(python3 - "$raw" <<'PY'
import sys
def totals(path):
    events = None
    for line in open(path):
        if line.startswith("events:"):
            events = line.split()[1:]
        if line.startswith("totals:"):
            return dict(zip(events, map(int, line.split()[1:])))
# The simulation's run writes parts (docs/design.md rule 10): each count adds up those before it.
parts = ("start", "0-1", "1-200", "200-400")
counts = []
for upto in (2, 3, 4):
    t = {}
    for part in parts[:upto]:
        for event, value in totals(f"{sys.argv[1]}/cachesim.out.list_walk.{part}").items():
            t[event] = t.get(event, 0) + value
    access = t["Ir"] + t["Dr"] + t["Dw"]
    l1 = t["I1mr"] + t["D1mr"] + t["D1mw"]
    ram = t["ILmr"] + t["DLmr"] + t["DLmw"]
    counts.append((access - l1) + 5 * (l1 - ram) + 35 * ram)
print(counts)
PY
)
check "estimated cycles are L1 + 5 x LL + 35 x RAM of the simulation's totals: $expected" \
  test "$(json_value "$tmp/base/results.json" \
    "[e['counts']['cycles'] for e in d['code'] if e['name'] == 'list_walk'][0]")" = "$expected"

# merge NAME ARGS...: gate merge --quiet ARGS, its output in $tmp/NAME.stdout, exit code in $status.
merge() {
  local name=$1
  shift
  "$gate" merge --quiet "$@" >"$tmp/$name.stdout" 2>&1
  status=$?
}

# A second opinion reads the cycles again from the simulation's files: a forged count is refused.
merge merge --check-raw "$raw" --json "$tmp/again.json" "$tmp/base/results.json"
check "gate merge --check-raw agrees with the cycles it measured (exit 0)" test "$status" = 0
[ "$status" = 0 ] || show "$tmp/merge.stdout"
# The cache simulation is a second callgrind run of the program: the whole process's figures are
# the callgrind run's, whatever the other counted outside the region (work keyed on the process's
# id here), so the check reads them back from callgrind's files.
if variant outside_by_pid 1 1 64 -DNO_EXTRA -DWALK_OUTSIDE_BY_PID; then
  run_gate outside_by_pid
  check "work outside the region that differs from run to run measures (exit 0)" test "$status" = 0
  merge outside_merge --check-raw "$tmp/outside_by_pid/gate/raw" --json "$tmp/outside.json" \
    "$tmp/outside_by_pid/results.json"
  check "and its process figures are the callgrind run's (gate merge --check-raw, exit 0)" \
    test "$status" = 0
  [ "$status" = 0 ] || show "$tmp/outside_merge.stdout"
else
  fail "setup: the variant with work outside the region"
fi
json_edit "$tmp/base/results.json" "$tmp/forged.json" '
for entry in document["code"]:
    if entry["name"] == "list_walk":
        counts, n = entry["counts"]["cycles"], entry["messages"]
        counts[2] -= 100 * n
        entry["metrics"]["cycles"]["per_message"] = (counts[2] - counts[1]) / n'
merge forged --check-raw "$raw" --json "$tmp/again2.json" "$tmp/forged.json"
check "cycles lowered consistently in the document are caught by the raw files (exit 3)" \
  test "$status" = 3
check "naming the file" grep -q "estimated cycles is [0-9]*, but '$raw/cachesim.out.list_walk.200-400' with the parts before it holds" \
  "$tmp/forged.stdout"
grep -q "estimated cycles is [0-9]*, but" "$tmp/forged.stdout" || show "$tmp/forged.stdout"

# The peak is read again from DHAT's files too.
json_edit "$tmp/base/results.json" "$tmp/forged_peak.json" '
for entry in document["code"]:
    if entry["name"] == "bytes_tenfold":
        counts, n = entry["counts"]["peak_bytes"], entry["messages"]
        counts[:] = [c - 10 for c in counts]
        entry["metrics"]["peak_bytes"]["cold"] = counts[0]
        entry["metrics"]["peak_bytes"]["per_message"] = (counts[2] - counts[1]) / n'
merge forged_peak --check-raw "$raw" --json "$tmp/again3.json" "$tmp/forged_peak.json"
check "a lowered peak live heap is caught by DHAT's files (exit 3)" test "$status" = 3
check "naming the file" \
  grep -q "peak live heap of the process is [0-9]*, but '$raw/dhat.out.bytes_tenfold.1' holds" \
  "$tmp/forged_peak.stdout"

# A document that opts in to cycles but leaves their counts out does not get past unchecked.
json_edit "$tmp/base/results.json" "$tmp/no_cycles.json" '
for entry in document["code"]:
    entry["counts"].pop("cycles", None)
    entry["metrics"].pop("cycles", None)'
merge no_cycles --json "$tmp/again4.json" "$tmp/no_cycles.json"
check "a document gating cycles without their counts is refused (exit 2), naming the key" \
  test "$status:$(grep -c "counts.cycles is missing (the scenario gates cycles)" "$tmp/no_cycles.stdout")" = 2:1

# A baseline written before the peak and the cycles were measured: what it has is compared, what
# it lacks is named, and nothing fails for it.
json_edit "$tmp/base/results.json" "$tmp/older.json" '
for entry in document["code"]:
    for key in ("peak_bytes", "cycles"):
        entry["counts"].pop(key, None)
        entry["metrics"].pop(key, None)
    entry["raw"].pop("cachesim", None)
    entry.pop("gate_metrics", None)
for block in (document["costgate"]["fingerprint"], document["costgate"].get("environment", {})):
    block.pop("cache", None)'
run_gate scattered --baseline-file "$tmp/older.json"
check "against an older baseline the scattered walk's cycles are not compared: no breach for it" \
  test "$(json_value "$tmp/scattered/results.json" "${row}['breaches']")" = "[]"
check "the table names what the baseline lacks" \
  grep -q "^list_walk: note: the baseline has no peak_bytes, cycles (the run that made it did not measure them): those are shown, not compared$" \
  "$tmp/scattered/stdout"
check "and so does the verdict in results.json" \
  test "$(json_value "$tmp/scattered/results.json" "${row}['baseline_lacks']")" = "['peak_bytes', 'cycles']"
check "what it has is still compared: ten times the bytes breaks the floor (exit 1)" \
  test "$status:$(json_value "$tmp/scattered/results.json" \
    "[r['breaches'] for r in d['costgate']['verdict']['rows'] if r['name'] == 'bytes_tenfold'][0]")" = \
  "1:['steady_bytes', 'cold_bytes']"

# One more entry in the metric table, nothing else: it shows everywhere.
"$test_gate" --build-dir "$tmp/base" --messages 200 --quiet --json "$tmp/metric.json" \
  --markdown "$tmp/metric.md" >"$tmp/metric.stdout" 2>&1
check "a table entry is a column of the terminal table" grep -q "test bytes" "$tmp/metric.stdout"
check "and of the Markdown" grep -q "heap bytes of the whole process, bytes per message" "$tmp/metric.md"
check "and a metric in results.json with its counts" \
  test "$(json_value "$tmp/metric.json" "sorted(d['code'][0]['metrics']['test_process_bytes'].keys()) + [len(d['code'][0]['counts']['test_process_bytes'])]")" = \
  "['cold', 'per_message', 'unit', 3]"
check "gate without the entry has none of it" \
  test "$(json_value "$tmp/base/results.json" "'test_process_bytes' in d['code'][0]['metrics']")" = False

# The entry is gated at a limit: ten times the bytes, under floors both sides declare high
# enough, is a rise of its figures and nothing else; an acceptance names it by the table's key.
if ! variant limit_base 1 1 64 -DBYTES_FLOOR=640 || ! variant limit_tenfold 1 1 640 -DBYTES_FLOOR=640
then
  fail "setup: the variants with floors that allow ten times the bytes"
fi
"$test_gate" --build-dir "$tmp/limit_base" --messages 200 --quiet --json "$tmp/limit_base.json" \
  >"$tmp/limit_base.stdout" 2>&1
check "the entry's baseline measures (exit 0)" test "$?" = 0
limit_run() { # limit_run NAME [options...]: test_gate on limit_tenfold against limit_base.json
  local name=$1
  shift
  "$test_gate" --build-dir "$tmp/limit_tenfold" --messages 200 --quiet --json "$tmp/$name.json" \
    --baseline-file "$tmp/limit_base.json" "$@" >"$tmp/$name.stdout" 2>&1
  status=$?
}
limit_run limit_regressed --accepted "$tmp/none.json" --markdown "$tmp/limit_regressed.md"
tenfold_row="[r for r in d['costgate']['verdict']['rows'] if r['name'] == 'bytes_tenfold'][0]"
check "a rise above the entry's limit fails the scenario by the entry's key (exit 1)" \
  test "$status:$(json_value "$tmp/limit_regressed.json" "${tenfold_row}['breaches']")" = \
  "1:['test_process_bytes', 'cold_test_process_bytes']"
check "its state names the entry" \
  grep -q "regressed: test process bytes, cold test process bytes\*\*" "$tmp/limit_regressed.md"
check "and says which figure went above the limit" \
  grep -q "^bytes_tenfold: [0-9.]* heap bytes of the whole process per message against [0-9.]* in the baseline: +[0-9.]* %, above the 2 % limit$" \
  "$tmp/limit_regressed.stdout"
python3 - "$tmp/limit_regressed.json" "$tmp/accepted.json" <<'PY'
import json, sys
row = [e for e in json.load(open(sys.argv[1]))["code"] if e["name"] == "bytes_tenfold"][0]
figures = row["metrics"]["test_process_bytes"]
json.dump({"accepted": [
    {"scenario": "bytes_tenfold", "metric": "test_process_bytes",
     "value": figures["per_message"] + 1, "reason": "ten times the bytes, on purpose"},
    {"scenario": "bytes_tenfold", "metric": "cold_test_process_bytes",
     "value": figures["cold"] + 1, "reason": "and so does the cold start"}]},
    open(sys.argv[2], "w"))
PY
limit_run limit_accepted --accepted "$tmp/accepted.json"
check "an acceptance of both figures by the entry's key lets the rise pass (exit 0)" \
  test "$status:$(json_value "$tmp/limit_accepted.json" "${tenfold_row}['state']")" = "0:accepted"
check "and the reason is shown" grep -q "ten times the bytes, on purpose" "$tmp/limit_accepted.stdout"
"$gate" --build-dir "$tmp/limit_tenfold" --messages 200 --quiet --baseline-file \
  "$tmp/limit_base.json" --accepted "$tmp/accepted.json" >"$tmp/plain.out" 2>&1
check "gate without the entry refuses that acceptance as an unknown metric (exit 2)" \
  test "$?:$(grep -c "metric 'test_process_bytes' is not one of" "$tmp/plain.out")" = 2:1

finish
