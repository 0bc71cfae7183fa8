#!/usr/bin/env bash
# gate(1) and the bash completion that the build writes from gate's option tables: the page
# renders with man -l (no roff warnings), names every option each command's --help lists, and
# the completion offers exactly those options, the subcommands, files after a FILE option, the
# built scenarios after --scenario, and nothing after a value such as N.
# Usage: test_docs.sh GATE MAN_PAGE COMPLETION
# shellcheck source=tests/lib.sh
source "$(dirname "$0")/../lib.sh"
gate=$1 page=$2 completion=$3

tmp=$(temp_dir docs) || exit 2

# The page renders, and roff has nothing to say about it.
if MANWIDTH=100 man -l "$page" >"$tmp/page.txt" 2>"$tmp/man.err" && [ ! -s "$tmp/man.err" ] &&
  groff -man -ww -z "$page" 2>"$tmp/groff.err" && [ ! -s "$tmp/groff.err" ] &&
  grep -q '^GATE(1)' "$tmp/page.txt" && grep -q '^EXIT STATUS' "$tmp/page.txt" &&
  grep -q "^costgate $("$gate" --version | cut -d' ' -f2) " "$tmp/page.txt"; then
  pass "man_page_should_render_without_warnings"
else
  fail "man_page_should_render_without_warnings"
  cat "$tmp/man.err" "$tmp/groff.err"
fi

# complete WORD...: the completion's replies for the command line WORD... (the last one being
# completed), one a line.
complete_words() {
  # shellcheck disable=SC2016 # the words are the completion's, expanded in its shell
  (cd "$tmp" && bash -c 'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _gate
    printf "%s\n" "${COMPREPLY[@]}"' _ "$completion" "$@")
}

# long_options COMMAND...: the long options `gate COMMAND --help` lists.
long_options() {
  "$gate" "$@" --help | grep -oE '^  (-[a-zA-Z], |    )--[a-z-]+' | grep -oE -- '--[a-z-]+' | sort -u
}

# The subcommands as gate --help lists them (its table, gate/cmd/main.c), so a new one is checked
# without a change here.
mapfile -t subcommands < <("$gate" --help | sed -n 's/^  gate \([a-z]*\) .*/\1/p')
if [ "${#subcommands[@]}" -ge 7 ]; then
  pass "help_should_list_the_subcommands (${subcommands[*]})"
else
  fail "help_should_list_the_subcommands: ${subcommands[*]}"
fi
for command in "" "${subcommands[@]}"; do
  name=${command:-gate}
  # shellcheck disable=SC2086 # no command: gate itself
  mapfile -t listed < <(long_options $command)
  if [ "${#listed[@]}" -lt 3 ]; then
    fail "options_of_$name: --help lists ${#listed[@]} options"
    continue
  fi
  # shellcheck disable=SC2086
  offered=$(complete_words gate $command -- | sort -u)
  missing=()
  for option in "${listed[@]}"; do
    grep -qF -- "${option//-/\\-}" "$page" || missing+=("page:$option")
    grep -qxF -- "$option" <<<"$offered" || missing+=("completion:$option")
  done
  extra=$(comm -13 <(printf '%s\n' "${listed[@]}") <(grep -- '^--' <<<"$offered"))
  if [ "${#missing[@]}" -eq 0 ] && [ -z "$extra" ]; then
    pass "page_and_completion_should_name_every_option_of_$name"
  else
    fail "page_and_completion_should_name_every_option_of_$name: missing ${missing[*]} extra $extra"
  fi
done

# expect_completion NAME EXPECTED WORD...: the replies, joined by spaces, are EXPECTED.
expect_completion() {
  local name=$1 expected=$2 got
  shift 2
  got=$(complete_words "$@" | sort | tr '\n' ' ' | sed 's/ $//')
  if [ "$got" = "$expected" ]; then
    pass "$name"
  else
    fail "$name: got '$got', expected '$expected'"
  fi
}
touch "$tmp/results.json" "$tmp/results.md"
mkdir -p "$tmp/resultsdir"
expect_completion completion_should_finish_an_option --messages gate --mes
expect_completion completion_should_offer_subcommands time gate ti
expect_completion completion_should_offer_a_subcommand_s_options "--check-build --check-raw" gate merge --che
expect_completion completion_should_offer_files_after_a_file_option "results.json results.md resultsdir" gate --json res
expect_completion completion_should_offer_directories_after_a_dir_option resultsdir gate --raw-dir res
expect_completion completion_should_offer_nothing_after_a_count "" gate --messages 1
mkdir -p "$tmp/build/scenarios" "$tmp/other/scenarios"
printf 'compiler GNU 12\nscenario consume_json %s/a\nscenario consume_raw %s/b\nscenario reply %s/c\n' \
  "$tmp" "$tmp" "$tmp" >"$tmp/build/scenarios/manifest.txt"
printf 'scenario consume_other %s/d\n' "$tmp" >"$tmp/other/scenarios/manifest.txt"
expect_completion completion_should_offer_the_built_scenarios "consume_json consume_raw" gate --scenario con
expect_completion completion_should_read_the_build_dir_given "consume_other" \
  gate --build-dir other -s con
expect_completion completion_should_offer_scenarios_to_profile reply gate profile re

finish
