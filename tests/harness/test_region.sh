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

# One process or a process per count (docs/design.md rule 10): --snapshots forks a child at the
# end of each phase, --phases forks none, and callgrind's --dump-after on the region writes a part
# each time the region is left. The parts added up are the forked snapshots' counts, to the digit.
valgrind_at() { # valgrind_at NAME [OPTIONS...] -- ARGS...: consume_json's region under callgrind
  local name=$1 options=()
  shift
  while [ "$1" != -- ]; do options+=("$1"); shift; done
  shift
  env -i PATH=/usr/bin:/bin LD_BIND_NOW=1 setarch -R valgrind --tool=callgrind --vgdb=no \
    "${region[@]}" "${options[@]}" --callgrind-out-file="$work/$name.%p" \
    --log-file="$work/$name.log.%p" "$scenarios/consume_json" "$@" 2>/dev/null
}
summary() { sed -n 's/^summary: \([0-9]*\).*/\1/p' "$1"; }
if valgrind_at fork -- --snapshots 1,50,100 100 &&
  valgrind_at parts --dump-after=costgate_measured_region -- --phases 1,50,100 100; then
  check "snapshots_should_fork_a_process_per_count" test "$(find "$work" -name 'fork.log.*' | wc -l)" = 4
  check "phases_should_run_one_process" test "$(find "$work" -name 'parts.log.*' | wc -l)" = 1
  # The forked snapshots' counts in order (the end counts what the 2N snapshot counted).
  forked=$(for file in "$work"/fork.[0-9]*; do summary "$file"; done | sort -n | uniq | paste -sd' ')
  pid=$(basename "$(ls "$work"/parts.log.*)") pid=${pid##*.}
  parts=() sums=() sum=0
  for part in 1 2 3 4; do parts+=("$(summary "$work/parts.$pid.$part")"); done
  # start + to 1, then + to N, then + to 2N
  for upto in 2 3 4; do
    sum=0
    for part in "${parts[@]:0:upto}"; do sum=$((sum + part)); done
    sums+=("$sum")
  done
  echo "forked snapshots: $forked; parts ${parts[*]}, added up: ${sums[*]}"
  check "parts_added_up_should_equal_the_forked_snapshots" test "${sums[*]}" = "$forked"
  check "the_part_after_the_last_drain_should_count_nothing" test "$(summary "$work/parts.$pid")" = 0
  check "phases_should_write_no_fifth_part" test ! -e "$work/parts.$pid.5"
else
  fail "snapshots_and_phases_should_run_under_callgrind: $(cat "$work"/*.log.* | tail -n 5)"
fi

finish
