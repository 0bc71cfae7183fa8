#!/usr/bin/env bash
# action.yml against what people read of it and what it takes: docs/github-actions.md's input
# table lists exactly action.yml's inputs, each with the same default where action.yml gives a
# literal one (an empty default is never shown as a literal); the `packages` input is part of the
# packages' cache key, and a name that is not a Debian package name is refused before apt-get
# sees it; the verify workflow has one name, and every document names that file.
# Usage: test_inputs.sh COSTGATE_SOURCE_DIR
# shellcheck source=tests/lib.sh
source "$(dirname "$0")/../lib.sh"

if [ $# -ne 1 ]; then
  echo "usage: $0 COSTGATE_SOURCE_DIR" >&2
  exit 2
fi
source_dir=$(realpath -- "$1") || exit 2
action_yml=$source_dir/action.yml
doc=$source_dir/docs/github-actions.md
work_dir action-inputs

# action.yml's inputs as "NAME<TAB>DEFAULT" (the default as written, quotes removed; "" for an
# empty one), read by indentation: two spaces for an input, four for its keys.
awk '
  /^inputs:/ { inside = 1; next }
  /^[^ #]/ { inside = 0 }
  inside && /^  [a-z][a-z-]*:$/ { if (name != "") print name "\t" value; name = substr($1, 1, length($1) - 1); value = "" }
  inside && /^    default:/ { value = $0; sub(/^    default: */, "", value); if (value ~ /^".*"$/) value = substr(value, 2, length(value) - 2) }
  END { if (name != "") print name "\t" value }
' "$action_yml" >"$work/inputs"
# The doc's table rows as "NAME<TAB>DEFAULT CELL": those of the table whose header is
# "| input | default | what it is |".
awk -F' [|] ' '
  /^\| input \| default \| what it is \|$/ { inside = 1; next }
  inside && /^\|---/ { next }
  inside && /^\| `/ { name = $1; sub(/^\| `/, "", name); sub(/`$/, "", name); print name "\t" $2; next }
  inside { inside = 0 }
' "$doc" >"$work/rows"

if [ "$(wc -l <"$work/inputs")" -ge 10 ] && [ "$(cut -f1 "$work/inputs" | sort)" = "$(cut -f1 "$work/rows" | sort)" ]; then
  pass "the_docs_should_list_exactly_the_inputs_of_action_yml"
else
  fail "the_docs_should_list_exactly_the_inputs_of_action_yml: $(diff <(cut -f1 "$work/inputs" | sort) <(cut -f1 "$work/rows" | sort) | grep '^[<>]' | tr '\n' ' ')"
fi

wrong=""
while IFS=$'\t' read -r name value; do
  cell=$(awk -F'\t' -v name="$name" '$1 == name { print $2 }' "$work/rows")
  case $value in
    "\${{"*) ;; # an expression: the doc says what it stands for
    '') [[ $cell =~ ^\`[^\`]*\`$ ]] && wrong+=" $name (empty, shown as $cell)" ;;
    *) [ "$cell" = "\`$value\`" ] || wrong+=" $name ('$value', shown as $cell)" ;;
  esac
done <"$work/inputs"
if [ -z "$wrong" ]; then
  pass "the_docs_should_give_each_input_the_default_of_action_yml"
else
  fail "the_docs_should_give_each_input_the_default_of_action_yml:$wrong"
fi

# The packages' cache key follows the `packages` input, in any order and spacing.
key() {
  GITHUB_OUTPUT=$work/output RUNNER_TEMP=$work PACKAGES=$1 "$source_dir/tools/action.sh" keys \
    >/dev/null 2>&1 && sed -n 's/^apt-key=//p' "$work/output"
  : >"$work/output"
}
: >"$work/output"
none=$(key "") one=$(key "zlib1g-dev meson") same=$(key "  meson   zlib1g-dev ")
if [ -n "$none" ] && [ -n "$one" ] && [ "$none" != "$one" ] && [ "$one" = "$same" ]; then
  pass "the_packages_input_should_be_part_of_the_cache_key"
else
  fail "the_packages_input_should_be_part_of_the_cache_key: '$none' '$one' '$same'"
fi

"$source_dir/tools/install-deps.sh" --quiet 'zlib1g-dev;touch' >"$work/out" 2>&1
code=$?
if [ "$code" -eq 2 ] && grep -qF "install-deps: error: 'zlib1g-dev;touch' is not a Debian package name" "$work/out"; then
  pass "a_package_name_that_is_not_debians_should_be_refused"
else
  fail "a_package_name_that_is_not_debians_should_be_refused: exit $code"
  show "$work/out"
fi

# One name for the verify workflow: the file exists and no document names another.
others=$(grep -rhoE '\.github/workflows/costgate-[a-z-]+\.yml|costgate-[a-z-]+\.yml' \
  "$source_dir/docs" "$source_dir/README.md" "$source_dir/.github/workflows" "$source_dir/action.yml" \
  2>/dev/null | sed 's|.*/||' | sort -u | while read -r file; do
  [ -f "$source_dir/.github/workflows/$file" ] || printf '%s ' "$file"
done)
if [ -f "$source_dir/.github/workflows/costgate-verified.yml" ] && [ -z "$others" ]; then
  pass "every_workflow_the_docs_name_should_exist"
else
  fail "every_workflow_the_docs_name_should_exist: $others"
fi

finish
