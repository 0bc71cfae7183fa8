#!/usr/bin/env bash
# Attribution by address (tests/e2e/by_address): libraries whose functions a source line cannot
# tell apart, measured as they are, then each with one function made dearer, in its own scenario:
# - sum_b, defined on the same line as sum_a, both inlined into lib_checksum;
# - sum_y, one of two helpers made by one macro, both inlined into lib_macro;
# - shop::Index::add, a C++ member defined on its class's line, inlined into shop_add;
# - lto_sum, inlined by -flto into lto_checksum, another unit's, and that into the scenario's handle;
# - one of two static functions named twin in two files, which callgrind counts as one "twin":
#   each is a row of its own, named with its definition's place.
# Each is named as that function alone, with its own head and baseline figures (the other
# function's unchanged and apart), and the rows add up to the scenario's change.
# Usage: test_by_address.sh GATE COSTGATE_SOURCE_DIR
# shellcheck source=tests/lib.sh disable=SC2016 # the conditions given to eval expand when it runs them
source "$(dirname "$0")/../lib.sh"
gate=$(realpath -- "$1") source_dir=$(realpath -- "$2")
tmp=$(temp_dir by_address) || exit 2
fixture_baseline "$source_dir/tests/e2e/by_address" "$tmp" "$source_dir" 300
sed -i 's/^#define SUM_B_ROUNDS 1$/#define SUM_B_ROUNDS 2/' "$project/lib/one_line.c"
sed -i 's/^#define SUM_Y_ROUNDS 1$/#define SUM_Y_ROUNDS 2/' "$project/lib/macro.c"
sed -i 's/^#define ADD_ROUNDS 1$/#define ADD_ROUNDS 2/' "$project/lib/shop.cpp"
sed -i 's/^#define LTO_ROUNDS 1$/#define LTO_ROUNDS 2/' "$project/lib/lto_sum.c"
sed -i 's/^#define TWIN_ROUNDS 1$/#define TWIN_ROUNDS 2/' "$project/lib/twins_b.c"
[ "$(cat "$project/lib/"*.c "$project/lib/shop.cpp" | grep -c '_ROUNDS 2$')" -eq 5 ] ||
  setup_fail "the changes did not apply"
fixture_build "$project"
fixture_gate "$tmp" head 300 --baseline-file "$tmp/base.json" --explain
out=$tmp/head.out
check "every changed library regresses its scenario (exit $code)" \
  eval '[ "$code" -eq 1 ] && grep -q "^fail: 5 regressed (lto, macro, member, one_line, twins)" "$out"'

# rows SCENARIO: the rows of its table of project functions; total SCENARIO: its "in all".
rows() { table_rows "$1: project functions"; }
total() { sed -n "s/^$1: project functions.*changed most (\\([-+][0-9.]*\\) in all):\$/\\1/p" "$out"; }

# named SCENARIO FUNCTION: the first row is FUNCTION alone, at about twice its baseline (its
# rounds doubled: 1.8 to 2.5 times, where the two functions counted as one would be about 1.6);
# no other row moved by more than 40 instructions; the rows add up to the change.
named() {
  local scenario=$1 function=$2 first head baseline sum all
  first=$(rows "$scenario" | head -n 1)
  read -r head baseline _ <<<"$first"
  sum=$(rows "$scenario" | awk '{ sum += $(NF > 6 && $1 ~ /^[0-9]/ ? 3 : 1) } END { printf "%.3f", sum }')
  all=$(total "$scenario")
  if [[ $first == *"  $function" ]] && [ -n "$baseline" ] &&
    awk -v h="$head" -v b="$baseline" 'BEGIN { exit !(b > 0 && h / b > 1.8 && h / b < 2.5) }' &&
    ! rows "$scenario" | sed 1d | awk '$1 ~ /^[0-9]/ { c = $3 < 0 ? -$3 : $3; if (c > 40) bad = 1 } END { exit !bad }' &&
    awk -v s="$sum" -v a="$all" 'BEGIN { d = s - a; exit !(d < 0.01 && d > -0.01) }'; then
    pass "$scenario: the change is named $function alone, $baseline -> $head, rows adding up to $all"
  else
    fail "$scenario: expected $function first at about twice its baseline, rows adding up to '$all' (sum $sum)"
    rows "$scenario" | sed 's/^/    | /'
  fi
}
named one_line "sum_b (inlined into lib_checksum)"
named macro "sum_y (inlined into lib_macro)"
named member "shop::Index::add (inlined into shop_add)"
if [ "$(cat "$project/build/lto.txt")" = YES ]; then
  named lto "lto_sum (inlined into handle)"
else # no link-time optimisation with this toolchain: lto_sum stays out of line
  named lto "lto_sum"
fi
twin_line=$(grep -n '^static .* twin(' "$project/lib/twins_b.c" | cut -d: -f1)
named twins "twin [twins_b.c:$twin_line]"

# The figures gate gates are those of every run: the change moved only what it changed.
check "the unchanged helpers are not in the tables" \
  eval '! rows one_line | grep -q "sum_a" && ! rows macro | grep -q "sum_x" &&
    ! rows twins | grep -q "twin \[twins_a.c"'
finish
