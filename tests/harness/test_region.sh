#!/usr/bin/env bash
# The measured region under real callgrind: collection toggled on the region counts the start and
# the drain, grows with the deliveries, and leaves out the fill (the body generator and publish).
# Usage: test_region.sh SCENARIO_DIR
# shellcheck source=tests/lib.sh
source "$(dirname "$0")/../lib.sh"
scenarios=$1
work=$(temp_dir region) || exit 2

# callgrind_total COUNT [EXTRA VALGRIND OPTIONS...]: the region's instructions for COUNT deliveries.
callgrind() {
  local count=$1
  shift
  env -i PATH=/usr/bin:/bin \
    valgrind --tool=callgrind --vgdb=no "$@" --callgrind-out-file="$work/cg.$count" \
    "$scenarios/consume_json" "$count" 2>"$work/log.$count" || {
    fail "callgrind run at $count: $(tail -n 3 "$work/log.$count")"
    return 1
  }
  sed -n 's/^\(summary\|totals\): \([0-9]*\).*/\2/p' "$work/cg.$count" | head -n 1
}

region=(--collect-atstart=no --toggle-collect=costgate_measured_region)
one=$(callgrind 1 "${region[@]}") || exit 1
thousand=$(callgrind 1000 "${region[@]}") || exit 1
two_thousand=$(callgrind 2000 "${region[@]}") || exit 1
echo "region instructions: 1: $one, 1000: $thousand, 2000: $two_thousand"
if [ "$two_thousand" -gt "$thousand" ] && [ "$thousand" -gt "$one" ] && [ "$one" -gt 0 ]; then
  pass "region_count_should_grow_with_the_deliveries"
else
  fail "region_count_should_grow_with_the_deliveries"
fi

# The fill runs the generator and publish for every message: they must not be in the region's
# profile, while a run collecting everything must show them (else the check could not fail).
if grep -qE '^c?fn=.*(order_body|costgate_queue_publish)' "$work/cg.1000"; then
  fail "fill_should_not_be_counted: the region profile holds the generator or publish"
else
  pass "fill_should_not_be_counted"
fi
everything=$(callgrind 1000) || exit 1
if grep -qE '^c?fn=.*order_body' "$work/cg.1000" && [ "$everything" -gt "$thousand" ]; then
  pass "a_run_without_the_toggle_should_see_the_fill"
else
  fail "a_run_without_the_toggle_should_see_the_fill"
fi

# Exactly one symbol may carry the region's name: the toggle must match one frame.
matches=$(nm "$scenarios/consume_json" | grep -c 'costgate_measured_region')
if [ "$matches" -eq 1 ]; then
  pass "region_name_should_match_exactly_one_symbol"
else
  fail "region_name_should_match_exactly_one_symbol ($matches match)"
fi

finish
