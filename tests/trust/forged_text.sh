#!/usr/bin/env bash
# Text a pull request writes reaches stdout, the Markdown summary and the annotations: an
# acceptance reason that forges a workflow command or holds terminal escapes is exit 2 naming the
# file; a legal reason full of Markdown and HTML is shown escaped; a scenario whose name is not
# [a-z0-9_]{1,64} is exit 2 naming the manifest. Real gate, real valgrind, a real git repository.
# Usage: forged_text.sh GATE COSTGATE_SOURCE_DIR
# shellcheck source=tests/trust/common.sh
source "$(dirname "$0")/common.sh"

repo_with_baseline "$repo"
{ dearer change && build "$repo"; } || setup_fail "cannot build the dearer change"
accepted=$repo/baselines/accepted.json

# accept REASON_JSON: an acceptance of the change's cost with that reason (a JSON string body).
accept() {
  printf '{"accepted":[{"scenario":"work","metric":"instructions","value":99999,"reason":"%s"}]}\n' \
    "$1" >"$accepted"
}

# stdout_commands: the lines of the last stdout that GitHub would read as workflow commands.
stdout_commands() { grep -c '^::' "$out"; }

accept 'a faster parser\n::notice::forged\n::stop-commands::token'
GITHUB_ACTIONS=true run_gate "$repo" --baseline=main --scenario work
check_run "reason_forging_a_workflow_command_should_exit_2_naming_the_file" 2 \
  "err:cannot read acceptances '.*baselines/accepted\.json': accepted\[0\]\.reason is more than one line" \
  "!."

accept '\u001b]0;owned\u0007\u001b[2Jall fine'
run_gate "$repo" --baseline=main --scenario work
check_run "reason_with_terminal_escapes_should_exit_2_naming_the_file" 2 \
  "err:accepted\[0\]\.reason holds a control character" "!."

accept "$(printf '%0201d' 0)"
run_gate "$repo" --baseline=main --scenario work
check_run "reason_above_200_characters_should_exit_2" 2 "err:accepted\[0\]\.reason is too long" "!."

# A legal one-line reason that is Markdown and HTML: accepted, and shown as text everywhere.
accept 'ok <!-- **hidden** [x](https://example.invalid) @someone'
GITHUB_ACTIONS=true run_gate "$repo" --baseline=main --scenario work --markdown "$work/summary.md"
check_run "markdown_and_html_in_a_reason_should_be_accepted_as_text" 0 \
  "^work: accepted up to 99999 instructions per message: ok <!-- \*\*hidden\*\* " "^pass: "
if grep -q '<!--' "$work/summary.md" || ! grep -qF '&lt;\!-- \*\*hidden\*\* \[x\](https://example.invalid) \@someone' "$work/summary.md"; then
  fail "markdown_summary_should_escape_the_reason"
  show "$work/summary.md"
else
  pass "markdown_summary_should_escape_the_reason"
fi
if [ "$(stdout_commands)" -ne 0 ]; then
  fail "an_accepted_row_should_print_no_workflow_command"
  show "$out"
else
  pass "an_accepted_row_should_print_no_workflow_command"
fi
rm -f "$accepted"

# A manifest naming a scenario outside [a-z0-9_] (a build may write its own manifest): gate says
# so, naming the manifest, exit 2.
manifest=$repo/build/scenarios/manifest.txt
if build "$repo" && sed -i -E 's/^(scenario|build) steady /\1 Steady-Two /' "$manifest" &&
  grep -q '^scenario Steady-Two ' "$manifest"; then
  run_gate "$repo" --baseline=main
  check_run "scenario_name_outside_the_alphabet_should_exit_2_naming_the_manifest" 2 \
    "err:cannot read manifest '.*/scenarios/manifest\.txt': line [0-9]+: scenario name 'Steady-Two' is not \[a-z0-9_\]\{1,64\}" \
    "!."
else
  fail "scenario_name_outside_the_alphabet_should_exit_2_naming_the_manifest: cannot build it"
fi

# costgate_add_scenarios() refuses such a scenario file before anything is built.
cp "$repo/scenarios/steady.c" "$repo/scenarios/Steady-Two.c"
add_scenarios "$repo" Steady-Two
if ! cmake -S "$repo" -B "$repo/build" >"$work/configure.log" 2>&1 &&
  grep -q "scenario 'Steady-Two' (scenarios/Steady-Two.c)" "$work/configure.log"; then
  pass "a_scenario_file_outside_the_alphabet_should_stop_the_configure"
else
  fail "a_scenario_file_outside_the_alphabet_should_stop_the_configure"
  show "$work/configure.log"
fi

finish
