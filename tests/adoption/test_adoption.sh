#!/usr/bin/env bash
# Adoption end to end, as another project does it: with costgate installed into a prefix (the
# adoption_install test's), examples/querystring is copied into a temporary git repository and built as a
# project of its own against that prefix (find_package(costgate), nothing else of costgate's),
# the baseline is saved and committed on main, and branches then make the library dearer by about
# 5 %, add one allocation per message, and make it dearer by under 1 %. Last, the example is
# configured again with -DCMAKE_C_FLAGS=-std=c89: the installed harness is not rebuilt and
# measures the same figures, and against main's baseline gate re-measures main in a worktree
# configured the same way. Nothing is written into costgate's own tree.
# Usage: test_adoption.sh COSTGATE_SOURCE_DIR PREFIX
# shellcheck source=tests/adoption/lib.sh
source "$(dirname "$0")/lib.sh"
if [ $# -ne 2 ]; then
  echo "usage: $0 COSTGATE_SOURCE_DIR PREFIX" >&2
  exit 2
fi
source_dir=$(realpath -- "$1") || exit 2
example=$source_dir/examples/querystring
adoption_setup adoption "$2"
repo=$work/repo

# example_repo: the example alone in a git repository on main, one commit, not yet built.
example_repo() {
  mkdir -p "$repo" && cp -R "$example"/. "$repo"/ && rm -rf "$repo/build" &&
    printf 'build/\nbuild-*/\n' >"$repo/.gitignore" &&
    git -C "$repo" init -q -b main &&
    git -C "$repo" config user.name "costgate adoption" &&
    git -C "$repo" config user.email "adoption@costgate.invalid" &&
    git -C "$repo" config commit.gpgsign false &&
    commit "$repo" "the querystring library"
}


# build DIR [CMAKE_ARGS...]: configures the example into $repo/DIR against the prefix, builds it.
build() {
  local dir=$1
  shift
  quietly "configure the example" cmake -S "$repo" -B "$repo/$dir" -DCMAKE_PREFIX_PATH="$prefix" "$@" &&
    quietly "build the example" cmake --build "$repo/$dir" -j 2
}

# gate_example ARGS...: gate from the repository's root, as a user runs it; sets $code, $out, $err.
gate_example() {
  (cd "$repo" && exec "$gate" -j 2 --messages "$messages" "$@") >"$out" 2>"$err"
  code=$?
}


# row SCENARIO: SCENARIO's row of the last run's table, without its state ("ok"); nothing when
# the row is not there or not ok.
row() { awk -v name="$1" '$1 == name && $NF == "ok" { $NF = ""; print; exit }' "$out"; }
# per_message SCENARIO: the instr/msg column of SCENARIO's row in the last run's table.
per_message() { awk -v name="$1" '$1 == name && $2 ~ /^[0-9]+\.[0-9]+$/ { print $2; exit }' "$out"; }
# percent HEAD BASE: the change as gate prints it ("+4.60").
percent() { awk -v h="$1" -v b="$2" 'BEGIN { printf "%+.2f", (h - b) * 100 / b }'; }
# in_range VALUE LOW HIGH: LOW <= VALUE <= HIGH, as numbers.
in_range() { awk -v v="$1" -v lo="$2" -v hi="$3" 'BEGIN { exit !(v != "" && v + 0 >= lo && v + 0 <= hi) }'; }
regex_escape() { printf '%s' "$1" | sed 's/[][\.*^$+?(){}|/]/\\&/g'; }

# The changes the branches make to the library, each a few lines inserted into a function.
library=$repo/querystring.c
# insert_after FUNCTION LINE TEXT: TEXT after the first line equal to LINE in the definition of
# FUNCTION (awk's escapes: \t, \n); fails when there is no such line.
insert_after() {
  awk -v function_name="$1" -v anchor="$2" -v text="$3" '
    /^[^ \t]/ && index($0, function_name "(") { inside = 1 }
    { print }
    inside && !done && $0 == anchor { print text; done = 1 }
    inside && /^}/ { inside = 0 }
    END { exit !done }' "$library" >"$work/library.c" && cp "$work/library.c" "$library"
}
# About +5 % on parse_query, which decodes 18 keys and values a message: qs_decode trims
# encoded spaces around each (measured with gcc 12 -O2: +4.6 %; find_param, one decode, +0.7 %).
trim_spaces() {
  insert_after qs_decode '\tsize_t out = 0;' "\n\t/* Encoded spaces around a key or a value are \
not part of it. */\n\twhile (length > 0 && source[0] == '+') {\n\t\tsource++;\n\t\tlength--;\n\t}\
\n\twhile (length > 0 && source[length - 1] == '+')\n\t\tlength--;"
}
# One more heap block a message, in qs_split, which both scenarios call once per message.
scratch_copy() {
  insert_after qs_split '\tsize_t count = 0;' \
    '\tchar *scratch = malloc(length + 1);\n\n\tif (scratch == NULL)\n\t\treturn -1;\n\tfree(scratch);'
}
# One line, in qs_decode: a counted loop over the value, a few instructions a byte.
one_line() {
  insert_after qs_decode '\tsize_t out = 0;' '\t{ volatile size_t spin; for (spin = 0; spin < length; spin++) continue; }'
}
# Under 1 %: qs_split refuses an overlong query, a compare and a branch a message.
length_limit() {
  insert_after qs_split '\tsize_t count = 0;' '\n\tif (length > 8192)\n\t\treturn -1;'
}
# changed_branch NAME BRANCH CHANGE MESSAGE: a new branch BRANCH from main on which CHANGE (one of
# the functions above) is committed with MESSAGE and built; when it cannot be, fails the case NAME
# and returns 1.
changed_branch() {
  git -C "$repo" checkout -q -b "$2" main
  if ! "$3" || ! commit "$repo" "$4" || ! build build; then
    fail "$1: cannot make or build the change"
    return 1
  fi
}

# 1. The install, and a project of its own built against the prefix.
missing=
for file in bin/gate include/costgate/harness.h include/costgate/queue.h \
  include/costgate/compat/harness.h include/costgate/compat/queue.h lib/pkgconfig/costgate.pc \
  lib/libcostgate_harness.a lib/cmake/costgate/costgateConfig.cmake \
  lib/cmake/costgate/costgateConfigVersion.cmake lib/cmake/costgate/costgate.cmake; do
  [ -e "$prefix/$file" ] || missing="$missing $file"
done
if [ -z "$missing" ]; then
  pass "install_should_put_gate_the_harness_and_the_package_under_the_prefix"
else
  fail "install_should_put_gate_the_harness_and_the_package_under_the_prefix: missing$missing"
fi

if ! example_repo || ! build build; then
  setup_fail "cannot make and build the example's repository"
fi
found=$(sed -n 's/^costgate_DIR:PATH=//p' "$repo/build/CMakeCache.txt")
if [ "$found" = "$prefix/lib/cmake/costgate" ]; then
  pass "example_should_find_costgate_in_the_prefix"
else
  fail "example_should_find_costgate_in_the_prefix: costgate_DIR is '$found'"
fi

# 2. The baseline of main, committed.
gate_example --save-baseline main
if check_run "save_baseline_should_pass_and_write_baselines_main_json" 0 \
  "^find_param +[0-9]+\.[0-9]{3} +0\.000 .* 0/0 +ok\$" \
  "^parse_query +[0-9]+\.[0-9]{3} +1\.000 .* 1/1 +ok\$" &&
  [ -s "$repo/baselines/main.json" ]; then
  commit "$repo" "baseline of main"
else
  setup_fail "no baseline on main"
fi
base_find=$(per_message find_param) base_parse=$(per_message parse_query)
main_find_row=$(row find_param) main_parse_row=$(row parse_query)

# 3a. About 5 % dearer per message in qs_decode: a regression that names the function.
if changed_branch five_percent_dearer_should_regress trim-spaces trim_spaces "trim encoded spaces"; then
  gate_example --baseline=main
  head=$(per_message parse_query)
  change=$(percent "$head" "$base_parse")
  if ! in_range "$change" 3 8; then
    fail "five_percent_dearer_should_regress: the change is '$change' %, not about 5 %"
    show "$out"
  elif check_run "five_percent_dearer_should_regress" 1 \
    "^parse_query: $(regex_escape "$head") instructions per message against $(regex_escape "$base_parse") in the baseline: $(regex_escape "$change") %, above the 2 % limit\$" \
    "^baseline: baselines/main\.json at refs/heads/main \([0-9a-f]{12}\)\$" \
    "^fail: .*parse_query"; then
    check_first_row five_percent_dearer_should_name_qs_decode_first \
      "parse_query: project functions whose instructions per message" \
      '[[:space:]]qs_decode([[:space:]]|$)'
  fi
fi

# 3b. One more allocation per message in qs_split: both floors fail, the site is named.
if changed_branch extra_allocation_should_regress_and_name_the_site scratch-copy scratch_copy \
  "a scratch copy of the query"; then
  gate_example --baseline=main
  line=$(grep -n 'char \*scratch = malloc' "$library" | cut -d: -f1)
  check_run "extra_allocation_should_regress_and_name_the_site" 1 \
    "^find_param: 1\.000 allocations per message, above the declared floor of 0\$" \
    "^parse_query: 2\.000 allocations per message, above the declared floor of 1\$" \
    "^ +1\.000 +0\.000 +\+1\.000 +\+[0-9.]+ +qs_split < handle( < [a-z_]+)*( +\(new\))? +at head querystring\.c:$line\b" \
    "^fail: 2 regressed \(find_param, parse_query\)\$"
fi

# 3c. A regression on one line: the per-line table lists that line first, and inside GitHub
# Actions its annotation carries the file and the line, so it shows on the pull request's diff.
if changed_branch a_regression_on_one_line_should_be_annotated_on_that_line one-line one_line \
  "a loop on one line"; then
  (cd "$repo" && exec env GITHUB_ACTIONS=true GITHUB_STEP_SUMMARY= "$gate" -j 2 \
    --messages "$messages" --baseline=main) >"$out" 2>"$err"
  code=$?
  line=$(grep -n 'volatile size_t spin' "$library" | cut -d: -f1)
  first=$(first_row "parse_query: source lines whose instructions per message")
  if [[ $first =~ ^\ +[0-9.]+\ +[0-9.]+\ +\+[0-9.]+\ +querystring\.c:$line\ \ \(new\)\ \ \{\ volatile\ size_t\ spin ]]; then
    check_run "a_regression_on_one_line_should_be_annotated_on_that_line" 1 \
      "^::error file=querystring\.c,line=$line,title=costgate%3A parse_query costs more here::parse_query: \+[0-9.]+ instructions per message on this line \(" \
      "^fail: "
  else
    fail "a_regression_on_one_line_should_be_listed_first_by_line: '$first' (line $line)"
    show "$out"
  fi
fi

# 3d. Under 1 % dearer: within the limit.
if changed_branch under_one_percent_should_pass length-limit length_limit \
  "refuse overlong queries"; then
  gate_example --baseline=main
  change_find=$(percent "$(per_message find_param)" "$base_find")
  change_parse=$(percent "$(per_message parse_query)" "$base_parse")
  if ! in_range "$change_find" 0 0.99 || ! in_range "$change_parse" 0 0.99; then
    fail "under_one_percent_should_pass: the changes are '$change_find' and '$change_parse' %"
    show "$out"
  else
    check_run "under_one_percent_should_pass" 0 \
      "^find_param .* $(regex_escape "$change_find") % .* ok\$" \
      "^parse_query .* $(regex_escape "$change_parse") % .* ok\$" \
      "^pass: 2 scenarios within their limits\$"
  fi
fi

# 4. The example's own flags: -std=c89 reaches the library and the scenarios and is recorded;
# the installed harness is linked as it is and measures what it measured without the flag.
git -C "$repo" checkout -q main
if build build-c89 -DCMAKE_C_FLAGS=-std=c89; then
  pass "c89_build_should_succeed"
  manifest=$repo/build-c89/scenarios/manifest.txt
  if grep -Eq '^build find_param -std=c89 .*\| querystring: -std=c89 ' "$manifest" &&
    grep -Eq '^build parse_query -std=c89 .*\| querystring: -std=c89 ' "$manifest"; then
    pass "c89_flags_should_be_recorded_in_the_manifest"
  else
    fail "c89_flags_should_be_recorded_in_the_manifest"
    show "$manifest"
  fi
  if [ -z "$(find "$repo/build-c89" -name 'harness.c.o' -print -quit)" ]; then
    pass "c89_build_should_not_compile_the_harness"
  else
    fail "c89_build_should_not_compile_the_harness"
  fi
  gate_example --build-dir build-c89
  if check_run "c89_build_should_measure_within_its_floors" 0 "^pass: 2 scenarios within their limits\$"; then
    if [ -n "$main_find_row" ] && [ -n "$main_parse_row" ] &&
      [ "$(row find_param)" = "$main_find_row" ] && [ "$(row parse_query)" = "$main_parse_row" ]; then
      pass "c89_build_should_measure_what_main_measured"
    else
      fail "c89_build_should_measure_what_main_measured"
      printf '    main: %s\n    main: %s\n' "$main_find_row" "$main_parse_row"
      show "$out"
    fi
  fi
  # Against main's baseline, measured without the flag: a different build, so gate measures main
  # again in a worktree configured like this build, and nothing changed.
  gate_example --build-dir build-c89 --baseline=main
  check_run "c89_build_against_main_should_remeasure_main_and_pass" 0 \
    "^find_param +$(regex_escape "$base_find") +$(regex_escape "$base_find") +\+0\.00 % " \
    "^parse_query +$(regex_escape "$base_parse") +$(regex_escape "$base_parse") +\+0\.00 % " \
    "^baseline: refs/heads/main \([0-9a-f]{12}\) measured here in a temporary worktree" \
    "^pass: 2 scenarios within their limits\$"
else
  fail "c89_build_should_succeed"
fi

finish
