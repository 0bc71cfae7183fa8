#!/usr/bin/env bash
# gate report end to end: the page of a committed results document, opened in headless Chromium
# (Debian's chromium, installed by tools/install-deps.sh): the charts are in the rendered DOM, the
# browser reports no console message (the page's Content-Security-Policy turns any reference to
# the network into one, and a control page proves the check sees it), and a screenshot is kept
# as a test artifact in the build directory.
# Usage: test_report.sh GATE RESULTS_FIXTURE ARTIFACT_DIR RESULTS_CHECK
# shellcheck source=tests/report/common.sh
source "$(dirname "$0")/common.sh"
gate=$(realpath -- "$1") fixture=$(realpath -- "$2") artifacts=$3 check=$(realpath -- "$4")
mkdir -p "$artifacts"
artifacts=$(realpath -- "$artifacts")
work=$(temp_dir report) || exit 2

if [ -z "$browser" ]; then
  setup_fail "no chromium on PATH (tools/install-deps.sh installs Debian's chromium)"
fi

page=$artifacts/report.html
"$gate" report -q "$fixture" -o "$page"
code=$?
if [ "$code" -eq 0 ] && [ -s "$page" ]; then
  pass "report_should_write_the_page"
else
  fail "report_should_write_the_page: exit $code"
fi

chrome --enable-logging=stderr --v=0 --dump-dom "file://$page" >"$work/dom.html" 2>"$work/dom.err"
# count PATTERN: how often PATTERN occurs in the rendered DOM.
count() { grep -o -- "$1" "$work/dom.html" | wc -l; }
pairs=$("$check" count "$fixture" scenarios) rows=$("$check" count "$fixture" code)
loops=$("$check" loops "$fixture")
if [ "$pairs" -ge 1 ] && [ "$(count '<svg class="wall-chart"')" -eq "$pairs" ] &&
  [ "$(count '<g class="loop raw"')" -eq "$loops" ] && [ "$(count '<g class="loop harness"')" -eq "$loops" ] &&
  [ "$(count '<circle class="best')" -eq $((2 * loops)) ] &&
  [ "$(count '<line class="notch"')" -eq $((2 * loops)) ] &&
  [ "$(count '<rect class="spread"')" -eq "$pairs" ]; then
  pass "wall_charts_should_render_a_bar_dot_and_notch_per_loop ($pairs pairs, $loops loops a side)"
else
  fail "wall_charts_should_render_a_bar_dot_and_notch_per_loop: $pairs pairs, $loops loops; DOM has $(count '<svg class="wall-chart"') charts, $(count '<g class="loop') loops"
fi
if [ "$rows" -ge 1 ] && [ "$(count '<svg class="bar"')" -eq $((2 * rows)) ] &&
  grep -q '<table class="wall-table">' "$work/dom.html" &&
  grep -q '<table class="machine">' "$work/dom.html"; then
  pass "code_table_should_render_its_bars_and_every_chart_a_table ($rows rows)"
else
  fail "code_table_should_render_its_bars_and_every_chart_a_table: $rows rows, $(count '<svg class="bar"') bars"
fi
# The rendered page opens with the verdict, then lists every scenario of the code section and of
# the verdict, the failed one first and the regressed one next, each with its state.
first=$(grep -o '<section id="[a-z]*" class="[a-z-]*"' "$work/dom.html" | head -n 1)
order=$(grep -o '<tr class="scenario state-row-[a-z]*"><th scope="row">[a-z_]*' "$work/dom.html" |
  sed 's/.*state-row-\([a-z]*\)"><th scope="row">/\1 /' | tr '\n' ',')
if [ "$first" = '<section id="verdict" class="verdict-fail"' ] &&
  grep -q '<p><strong>measurement failure: 1 failed (segfaults), 1 regressed (reply)</strong> (exit 3)' "$work/dom.html" &&
  [ "${order%%,ok *}" = "failed segfaults,regressed reply" ] &&
  [ "$(echo "$order" | tr ',' '\n' | grep -c .)" -eq $((rows + 1)) ]; then
  pass "page_should_open_with_the_verdict_and_show_every_scenario_failed_first ($order)"
else
  fail "page_should_open_with_the_verdict_and_show_every_scenario_failed_first: first $first; rows $order"
fi
if [ -s "$work/dom.err" ] && ! console "$work/dom.err" >/dev/null; then
  pass "page_should_load_without_a_console_message"
else
  fail "page_should_load_without_a_console_message: $(console "$work/dom.err" | head -n 5)"
fi

# The control: the same page with one image from the network must be caught.
sed 's|<h1>|<img src="http://example.invalid/pixel.png" alt=""><h1>|' "$page" >"$work/control.html"
chrome --enable-logging=stderr --v=0 --dump-dom "file://$work/control.html" >/dev/null 2>"$work/control.err"
if console "$work/control.err" | grep -q 'Content Security Policy'; then
  pass "console_check_should_catch_a_page_that_reaches_the_network"
else
  fail "console_check_should_catch_a_page_that_reaches_the_network: $(tail -n 3 "$work/control.err")"
fi

rm -f "$artifacts/report.png"
chrome --screenshot="$artifacts/report.png" --window-size=1000,2000 --hide-scrollbars \
  "file://$page" >/dev/null 2>"$work/shot.err"
if [ "$(head -c 8 "$artifacts/report.png" 2>/dev/null | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] &&
  [ "$(wc -c <"$artifacts/report.png")" -gt 20000 ]; then
  pass "screenshot_should_be_kept_as_an_artifact ($artifacts/report.png)"
else
  fail "screenshot_should_be_kept_as_an_artifact: $(tail -n 3 "$work/shot.err")"
fi

# The command line.
cp "$fixture" "$work/copy.json"
"$gate" report -q "$work/copy.json"
if [ -s "$work/copy.html" ]; then
  pass "report_should_default_to_the_results_name_with_html"
else
  fail "report_should_default_to_the_results_name_with_html"
fi
report_refuses report_should_refuse_a_missing_results_file_with_exit_2 "$work/absent.html" \
  "gate: error: cannot read '$work/absent.json': No such file" "$work/absent.json"
echo '{"schema": 3, "code": [{"name": "x"}]}' >"$work/bad.json"
report_refuses report_should_refuse_a_malformed_document_and_write_no_page "$work/bad.html" \
  "code\[0\].framework is missing" "$work/bad.json" -o "$work/bad.html"

finish
