#!/usr/bin/env bash
# A metric of each shape beyond "gated at a limit" is one entry in the metric table and its reader,
# proven under real valgrind with gate built with one more entry (tests/CMakeLists.txt):
# - gated on request (GATE_TEST_OPT_IN_METRIC, "test_asked_bytes": every heap byte of the process):
#   a scenario that asks for it by key (.gate_metrics) fails a rise above the limit; one that does
#   not ask is shown the figure and passes; dropping the request against a baseline that had it is
#   a looser setting, accepted as "gate_test_asked_bytes" with value 0; gate without the entry
#   refuses a scenario that asks for it;
# - gated by floors (GATE_TEST_FLOOR_METRIC, "test_floored_bytes"): a floor declared by key
#   (.floors) holds the figure, with or without a baseline; a raised floor is a setting accepted
#   as "steady_test_floored_bytes_floor"; gate without the entry refuses the floor;
# - neither define appears in gate/ outside gate/core/metrics.h and gate/core/metrics.c.
# The scenario is bytes_tenfold (tests/scenarios): one heap block a message, 64 or 640 bytes.
# Usage: test_metric_shapes.sh GATE GATE_TEST_OPT_IN GATE_TEST_FLOOR BUILD_DIR SOURCE_DIR HARNESS
# shellcheck source=tests/lib.sh
source "$(dirname "$0")/../lib.sh"
gate=$1 opt_in_gate=$2 floor_gate=$3 build=$4 source=$5 harness=$6

tmp=$(temp_dir metric_shapes) || exit 2

# scenario DIR BLOCK_BYTES [-DFLAG...]: bytes_tenfold built into DIR with its manifest; its bytes
# floors allow ten times the bytes, so that only the metric under test can fail it.
scenario() {
  local dir=$tmp/$1 block=$2
  shift 2
  mkdir -p "$dir/scenarios"
  gcc -O2 -g -std=gnu11 -I"$source/include" -I"$source/scenarios" -DBLOCK_BYTES="$block" \
    -DBYTES_FLOOR=640 "$@" "$source/tests/scenarios/bytes_tenfold.c" "$harness" \
    -o "$dir/scenarios/bytes_tenfold" || return 1
  { sed -n '/^costgate /p; /^compiler /p; /^flags /p' "$build/scenarios/manifest.txt"
    echo "scenario bytes_tenfold $dir/scenarios/bytes_tenfold"; } >"$dir/scenarios/manifest.txt"
}

# run GATE DIR NAME [options...]: GATE on DIR's build, results in $tmp/NAME.json, its output in
# $tmp/NAME.stdout, its exit code in $status.
run() {
  local run_gate=$1 dir=$tmp/$2 name=$3
  shift 3
  "$run_gate" --build-dir "$dir" --messages 200 --quiet --json "$tmp/$name.json" \
    --accepted "$tmp/none.json" "$@" >"$tmp/$name.stdout" 2>&1
  status=$?
}

row="[r for r in d['costgate']['verdict']['rows'] if r['name'] == 'bytes_tenfold'][0]"

# accepted GATE DIR BASELINE METRIC VALUE: GATE on DIR's build against the baseline BASELINE
# (a name run gave), with one acceptance of METRIC up to VALUE: it must pass, as accepted.
accepted() {
  local run_gate=$1 dir=$2 baseline=$3 metric=$4 value=$5
  printf '{ "accepted": [ { "scenario": "bytes_tenfold", "metric": "%s", "value": %s, "reason": "%s" } ] }\n' \
    "$metric" "$value" "on purpose, in this test" >"$tmp/accept_$metric.json"
  run "$run_gate" "$dir" "accepted_$metric" --baseline-file "$tmp/$baseline.json" \
    --accepted "$tmp/accept_$metric.json"
  check "accepted by the key $metric, it passes (exit 0)" \
    test "$status:$(json_value "$tmp/accepted_$metric.json" "${row}['state']")" = "0:accepted"
}
asked=-DGATE_METRICS='"test_asked_bytes"'
if ! scenario asked_base 64 "$asked" || ! scenario asked_tenfold 640 "$asked" ||
  ! scenario plain_base 64 || ! scenario plain_tenfold 640; then
  setup_fail "cannot build the scenarios"
fi

# Gated on request.
run "$opt_in_gate" asked_base asked_base
check "a scenario asking for the metric measures (exit 0)" test "$status" = 0
check "results.json says what it asks for" \
  test "$(json_value "$tmp/asked_base.json" "d['code'][0]['gate_metrics']")" = "['test_asked_bytes']"
run "$opt_in_gate" asked_tenfold asked_regressed --baseline-file "$tmp/asked_base.json"
check "ten times the bytes fails it by the metric's key (exit 1)" \
  test "$status:$(json_value "$tmp/asked_regressed.json" "${row}['breaches']")" = \
  "1:['test_asked_bytes', 'cold_test_asked_bytes']"
check "and the table says which figure rose above the limit" \
  grep -q "^bytes_tenfold: [0-9.]* heap bytes of the whole process per message against [0-9.]* in the baseline: +[0-9.]* %, above the 2 % limit$" \
  "$tmp/asked_regressed.stdout"

run "$opt_in_gate" plain_base plain_base
run "$opt_in_gate" plain_tenfold plain_tenfold --baseline-file "$tmp/plain_base.json"
check "a scenario that does not ask passes the same rise (exit 0)" test "$status" = 0
check "its figure is still shown in results.json" \
  test "$(json_value "$tmp/plain_tenfold.json" "d['code'][0]['metrics']['test_asked_bytes']['per_message'] > 600")" = True
check "and it asks for nothing" \
  test "$(json_value "$tmp/plain_tenfold.json" "'gate_metrics' in d['code'][0]")" = False

run "$opt_in_gate" plain_base dropped --baseline-file "$tmp/asked_base.json"
check "dropping the request against a baseline that had it is a breach (exit 1)" \
  test "$status:$(json_value "$tmp/dropped.json" "${row}['breaches']")" = "1:['test_asked_bytes_ungated']"
check "named as the setting it is" \
  grep -q "^bytes_tenfold: heap bytes of the whole process not gated, but the baseline gates them: .*(metric 'gate_test_asked_bytes', value 0)$" \
  "$tmp/dropped.stdout"
accepted "$opt_in_gate" plain_base asked_base gate_test_asked_bytes 0

run "$gate" asked_base stock_asked
check "gate without the entry refuses a scenario asking for it (exit 3), naming the key" \
  test "$status:$(grep -c "asks to gate 'test_asked_bytes', which is not a metric of this gate gated on request (those are: 'cycles')" "$tmp/stock_asked.stdout")" = 3:1
[ "$status" = 3 ] || show "$tmp/stock_asked.stdout"

# Gated by floors. A message allocates 64 bytes, or 640: a floor of 100 per message holds the one
# and breaks the other, with no baseline at all.
floor_key=-DFLOOR_KEY='"steady_test_floored_bytes"'
if ! scenario floor_base 64 "$floor_key" -DFLOOR_VALUE=100 ||
  ! scenario floor_tenfold 640 "$floor_key" -DFLOOR_VALUE=100 ||
  ! scenario floor_raised 64 "$floor_key" -DFLOOR_VALUE=700; then
  setup_fail "cannot build the floored scenarios"
fi
run "$floor_gate" floor_base floor_base
check "a floor above the figure holds (exit 0)" test "$status" = 0
check "results.json keeps the floor by its key" \
  test "$(json_value "$tmp/floor_base.json" "d['code'][0]['floors']['steady_test_floored_bytes']")" = 100
run "$floor_gate" floor_tenfold floor_over
check "ten times the bytes breaks the floor declared by key (exit 1)" \
  test "$status:$(json_value "$tmp/floor_over.json" "${row}['breaches']")" = \
  "1:['steady_test_floored_bytes']"
check "and the table names the floor" \
  grep -q "^bytes_tenfold: $(json_value "$tmp/floor_over.json" "'%.3f' % d['code'][0]['metrics']['test_floored_bytes']['per_message']") bytes (heap bytes of the whole process) per message, above the declared floor of 100 ('steady_test_floored_bytes')$" \
  "$tmp/floor_over.stdout"

run "$floor_gate" floor_raised raised --baseline-file "$tmp/floor_base.json"
check "a floor raised above the baseline's is a breach (exit 1)" \
  test "$status:$(json_value "$tmp/raised.json" "${row}['breaches']")" = \
  "1:['steady_test_floored_bytes_floor_raised']"
accepted "$floor_gate" floor_raised floor_base steady_test_floored_bytes_floor 700

run "$gate" floor_base stock_floor
check "gate without the entry refuses the floor (exit 3), naming it" \
  test "$status:$(grep -c "declares the floor 'steady_test_floored_bytes', which no metric of this gate takes" "$tmp/stock_floor.stdout")" = 3:1
[ "$status" = 3 ] || show "$tmp/stock_floor.stdout"

# Each shape is its table entry: the defines appear nowhere else in gate/.
for define in GATE_TEST_OPT_IN_METRIC GATE_TEST_FLOOR_METRIC; do
  check "$define is in gate/core/metrics.h and metrics.c only" \
    test "$(grep -rl "$define" "$source/gate" | sed "s|^$source/||" | sort | paste -sd' ')" = \
    "gate/core/metrics.c gate/core/metrics.h"
done

finish
