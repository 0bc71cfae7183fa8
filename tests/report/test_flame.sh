#!/usr/bin/env bash
# The differential flame graph end to end: the attribution fixture's library (tests/e2e/attribution)
# measured as it is, then with a strlen added to fixture_count, which only the strlen_added
# scenario calls. gate fails it and writes its graph beside the raw files (raw/flame.SCENARIO.svg,
# in the check's artifact), and none for the scenarios that did not regress; the graph's region
# is exactly the figures gate prints (the program's and the allocator's instructions per message,
# which callgrind_annotate reads from the N..2N part); gate report draws it on the page, where
# headless Chromium finds the changed frame drawn and labelled with its change. Screenshots of the
# page and of the file stay in ARTIFACT_DIR (flame-page.png, flame.png).
# Usage: test_flame.sh GATE COSTGATE_SOURCE_DIR ARTIFACT_DIR
# shellcheck source=tests/report/common.sh disable=SC2016 # the conditions given to eval expand when it runs them
source "$(dirname "$0")/common.sh"
gate=$(realpath -- "$1") source_dir=$(realpath -- "$2") artifacts=$3
mkdir -p "$artifacts"
artifacts=$(realpath -- "$artifacts")
work=$(temp_dir flame) || exit 2
messages=400

if [ -z "$browser" ]; then
  setup_fail "no chromium on PATH (tools/install-deps.sh installs Debian's chromium)"
fi
fixture_baseline "$source_dir/tests/e2e/attribution" "$work" "$source_dir" "$messages"
sed -i 's|^\t/\* STRLEN-CHANGE \*/$|\tcount += strlen(text) > 4096;|' "$project/lib/fixture.c"
grep -q 'strlen(text)' "$project/lib/fixture.c" || setup_fail "the change did not apply"
fixture_build "$project"
fixture_gate "$work" head "$messages" --baseline-file "$work/base.json"
raw=$work/raw-head
states=$(python3 -c 'import json, sys
print(" ".join(row["name"] + ":" + row["state"]
               for row in json.load(open(sys.argv[1]))["costgate"]["verdict"]["rows"]))' "$work/head.json")
check "the strlen added regresses strlen_added alone (exit $code: $states)" \
  eval '[ "$code" -eq 1 ] && [ "$states" = "allocates:ok inlined:ok strlen_added:regressed" ]'
check "its graph is written beside the raw files" test -s "$raw/flame.strlen_added.svg"
check "and none for a scenario that did not regress, nor without a baseline" \
  eval '[ ! -e "$raw/flame.inlined.svg" ] && [ ! -e "$raw/flame.allocates.svg" ] &&
    [ -z "$(find "$work/raw-base" -name "flame.*")" ]'

# The region's frame against gate's figures and callgrind_annotate's count of the N..2N part.
figures=$(python3 -c 'import json, sys
for entry in json.load(open(sys.argv[1]))["code"]:
    if entry["name"] == "strlen_added":
        metrics = entry["metrics"]
        print("%.6f %.6f %s" % (entry["frames"][0]["instructions"],
              metrics["instructions"]["per_message"] + metrics["allocator_instructions"]["per_message"],
              entry["frames"][0]["name"]))' "$work/head.json")
read -r region figure region_name <<<"$figures"
part=$(program_total "$raw/callgrind.out.strlen_added.$messages-$((2 * messages))")
check "the graph's region is gate's instructions and allocator's per message ($region = $figure)" \
  awk -v a="$region" -v b="$figure" 'BEGIN { exit !(a - b < 0.0005 && b - a < 0.0005) }'
check "and callgrind_annotate's total of the N..2N part over N ($part / $messages)" \
  awk -v a="$region" -v t="$part" -v n="$messages" 'BEGIN { exit !(a - t / n < 0.0005 && t / n - a < 0.0005) }'
check "rooted at the measured region ($region_name)" test "$region_name" = costgate_measured_region

# gate files: where the files are, the per-message profile first, the graph among them.
"$gate" files --raw-dir "$raw" -s strlen_added "$work/head.json" >"$work/files.out" 2>&1
code=$?
first=$(sed -n '2p' "$work/files.out" | awk '{ print $1 }')
check "gate files lists the per-message profile first (exit $code: $first)" \
  eval '[ "$code" -eq 0 ] && [ "$(sed -n 1p "$work/files.out")" = strlen_added ] &&
    [ "$first" = "$raw/callgrind.out.strlen_added.$messages-$((2 * messages))" ]'
check "and the flame graph, with what each file holds" \
  grep -Eq "^  $raw/flame\.strlen_added\.svg +the call tree of one message against the baseline" \
  "$work/files.out"
check "every file it lists is there" \
  eval 'sed -n "2,\$p" "$work/files.out" | awk "{ print \$1 }" | xargs ls >/dev/null'
"$gate" files --raw-dir "$raw" -s absent "$work/head.json" >"$work/absent.out" 2>&1
code=$?
check "a scenario the results do not hold is a usage error (exit $code)" \
  eval '[ "$code" -eq 2 ] && grep -q "holds no scenario '"'"'absent'"'"'" "$work/absent.out"'

# The page, as Chromium renders it.
"$gate" report -q "$work/head.json" -o "$work/page.html"
chrome --enable-logging=stderr --v=0 --dump-dom "file://$work/page.html" >"$work/dom.html" 2>"$work/dom.err"
# frame KIND NAME: the text of the label of NAME's frame of that kind in the rendered page.
frame() {
  grep -o "<g class=\"frame $1\"><title>$2: [^<]*</title>.*</g>" "$work/dom.html" |
    sed -n 's/.*<text[^>]*>\([^<]*\)<\/text><\/g>.*/\1/p' | head -n 1
}
label=$(frame grew fixture_count)
check "the page draws the changed function's frame, labelled with its change ($label)" \
  eval '[[ $label =~ ^fixture_count\ \+[0-9]+\.[0-9]\ %$ ]]'
check "the function the change calls is a new frame below it" \
  eval 'grep -Eq "<g class=\"frame new\"><title>__strlen[a-z0-9_]*: [0-9.]+ instructions per message, a path the baseline did not take</title>" "$work/dom.html"'
check "a scenario that did not regress has no graph on the page" \
  eval '[ "$(grep -o "<svg [^>]*class=\"flamegraph\"" "$work/dom.html" | wc -l)" -eq 1 ]'
check "the page loads without a console message" eval '! console "$work/dom.err" >/dev/null'

# The page fits a 1280-pixel window: the document no wider, and no table scrolling inside its
# box. Measured in a copy that runs one script (the page itself runs none); the same copy in a
# 700-pixel window is the control, which must overflow.
sed -e 's|<meta http-equiv="Content-Security-Policy"[^>]*>||' \
  -e 's|</body>|<script>document.title = document.documentElement.scrollWidth + " " + Math.max(0, ...Array.from(document.querySelectorAll(".wide")).map(e => e.scrollWidth - e.clientWidth));</script></body>|' \
  "$work/page.html" >"$work/measured.html"
# widths WIDTH: "DOCUMENT_WIDTH OVERFLOW" of the copy in a window WIDTH pixels wide.
widths() {
  chrome --window-size="$1,1000" --dump-dom "file://$work/measured.html" 2>/dev/null |
    sed -n 's|.*<title>\([0-9]* [0-9]*\)</title>.*|\1|p'
}
wide=$(widths 1280) narrow=$(widths 700)
check "the page fits a 1280-pixel window (width and overflow inside: $wide; at 700: $narrow)" \
  eval '[ -n "$wide" ] && [ "${wide%% *}" -le 1280 ] && [ "${wide##* }" -eq 0 ] &&
    [ -n "$narrow" ] && [ "${narrow##* }" -gt 0 ]'

# The file of its own, opened as an image document: it parses, and draws the same frame.
chrome --dump-dom "file://$raw/flame.strlen_added.svg" >"$work/svg-dom.html" 2>/dev/null
check "the file parses as SVG and draws the same frame" \
  eval 'grep -q "<g class=\"frame grew\"><title>fixture_count: " "$work/svg-dom.html" &&
    ! grep -q "error on line" "$work/svg-dom.html"'

rm -f "$artifacts/flame-page.png" "$artifacts/flame.png"
chrome --screenshot="$artifacts/flame-page.png" --window-size=1280,1600 --hide-scrollbars \
  "file://$work/page.html" >/dev/null 2>&1
chrome --screenshot="$artifacts/flame.png" --window-size=980,200 --hide-scrollbars \
  "file://$raw/flame.strlen_added.svg" >/dev/null 2>&1
check "screenshots are kept as artifacts ($artifacts/flame-page.png, flame.png)" \
  eval '[ -s "$artifacts/flame-page.png" ] && [ -s "$artifacts/flame.png" ]'
finish
