#!/usr/bin/env bash
# Attribution on a library built here at -O2 (tests/e2e/attribution): measured once as it is, then
# changed and compared with that measurement. Each change is one issue of attribution:
# - work added inside digits_value, which -O2 inlines into fixture_parse, is named
#   "digits_value (inlined into fixture_parse)", first;
# - a strlen added to fixture_count ranks fixture_count first among the project's functions,
#   above fixture_spin whose own instructions grew more than fixture_count's did (ranked by
#   exclusive instructions, __strlen_sse2 and fixture_spin would come first);
# - a malloc added beside another in a file where ten lines were inserted above every site shows
#   exactly one site, changed, and none gone.
# Usage: test_attribution.sh GATE COSTGATE_SOURCE_DIR
# shellcheck source=tests/lib.sh
source "$(dirname "$0")/../lib.sh"
gate=$(realpath -- "$1") source_dir=$(realpath -- "$2")
tmp=$(temp_dir attribution) || exit 2
fixture_baseline "$source_dir/tests/e2e/attribution" "$tmp" "$source_dir" 500

# The changes, at the markers of lib/fixture.c and in the spinning scenario.
library=$project/lib/fixture.c
inserted=$(for i in 1 2 3 4 5 6 7 8 9 10; do printf '/* a line inserted above every site (%d) */\\n' "$i"; done)
sed -i \
  -e "s|^/\\* LINES-ABOVE \\*/\$|$inserted|" \
  -e 's|^\t/\* INLINED-CHANGE \*/$|\tfor (i = 0; i < length; i++)\n\t\tvalue ^= (unsigned)text[i] << (i \& 7);|' \
  -e 's|^\t/\* STRLEN-CHANGE \*/$|\tcount += strlen(text) > 4096;|' \
  -e 's|^\t/\* MALLOC-CHANGE \*/$|\t{\n\t\tchar *extra = malloc(size);\n\n\t\tESCAPE(extra);\n\t\tstatus = extra != NULL ? status : -1;\n\t\tfree(extra);\n\t}|' \
  "$library"
sed -i 's/^#define SPIN_ROUNDS 10$/#define SPIN_ROUNDS 25/' "$project/scenarios/strlen_added.c"
if [ "$(grep -c 'a line inserted above every site' "$library")" -ne 10 ] ||
  ! grep -q 'value ^= ' "$library" || ! grep -q 'strlen(text)' "$library" ||
  ! grep -q 'char \*extra = malloc' "$library" ||
  ! grep -q '^#define SPIN_ROUNDS 25$' "$project/scenarios/strlen_added.c"; then
  setup_fail "the changes did not apply"
fi
fixture_build "$project"
fixture_gate "$tmp" head 500 --baseline-file "$tmp/base.json" --explain --markdown "$tmp/head.md"
out=$tmp/head.out err=$tmp/head.err
check_run changed_library_should_regress 1

row=$(first_row "inlined: project functions")
if [[ $row =~ [[:space:]]digits_value\ \(inlined\ into\ fixture_parse\)$ ]]; then
  pass "change_inside_an_inlined_function_should_be_named_with_inlined_into ($row)"
else
  fail "change_inside_an_inlined_function_should_be_named_with_inlined_into: first row '$row'"
  show "$out"
fi
# shellcheck disable=SC2016 # the backquotes are Markdown's, not a command substitution
check_grep markdown_should_name_the_inlined_function "$tmp/head.md" -F \
  '| `digits_value (inlined into fixture_parse)` |'

row=$(first_row "strlen_added: project functions")
spin=$(table_rows "strlen_added: project functions" | awk '$NF == "fixture_spin" { print $4 }')
count_own=$(table_rows "strlen_added: project functions" | awk '$NF == "fixture_count" { print $4 }')
leaf=$(first_row "strlen_added: system-library functions")
if [[ $row =~ [[:space:]]fixture_count$ ]] && [ -n "$spin" ] && [ -n "$count_own" ] &&
  awk -v spin="$spin" -v own="$count_own" 'BEGIN { exit !(spin > own) }' &&
  [[ $leaf =~ [[:space:]]__strlen[a-z0-9_]*\ +\(new\)$ ]]; then
  pass "added_strlen_should_rank_its_project_function_first (fixture_count first; fixture_spin's own change $spin above fixture_count's $count_own; strlen a leaf)"
else
  fail "added_strlen_should_rank_its_project_function_first: first '$row', leaf '$leaf', spin '$spin', own '$count_own'"
  show "$out"
fi

# The library's file as the compiler named it in the line table: fixture.c from GCC,
# lib/fixture.c, from the project's root, from clang.
sites=$(table_rows "allocates: allocation sites")
file='(lib/)?fixture\.c'
if [ "$(grep -c . <<<"$sites")" -eq 1 ] && ! grep -q '(gone)' <<<"$sites" &&
  grep -Eq "^ +3\.000 +2\.000 +\+1\.000 .* fixture_allocate( < [a-z_]+)* +at head $file:[0-9]+, $file:[0-9]+, $file:[0-9]+, baseline $file:[0-9]+, $file:[0-9]+\$" <<<"$sites"; then
  pass "added_malloc_with_lines_inserted_above_should_be_one_changed_site_and_none_gone"
else
  fail "added_malloc_with_lines_inserted_above_should_be_one_changed_site_and_none_gone: '$sites'"
  show "$out"
fi

finish
