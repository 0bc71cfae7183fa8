# Shared by the report tests (sourced, not run): tests/lib.sh, headless Chromium (Debian's
# chromium, installed by tools/install-deps.sh) and the check of a page gate report refuses to
# write. The sourcing script sets $gate and $work.
# shellcheck shell=bash

# shellcheck source=tests/lib.sh
source "$(dirname "$0")/../lib.sh"

browser=$(command -v chromium || command -v chromium-browser || true)

# chrome FLAGS... URL: one headless run, sealed from the network and from any profile.
# shellcheck disable=SC2154 # work is the sourcing test's
chrome() {
  timeout 120 "$browser" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync \
    --user-data-dir="$(mktemp -d -p "$work")" "$@"
}

# console FILE: the console messages chromium logged to stderr (FILE), one a line.
console() { grep -E ':CONSOLE[:(]|Uncaught' "$1"; }

# report_refuses NAME PAGE PATTERN ARGS...: gate report ARGS exits 2 saying PATTERN (a basic
# regular expression) and writes no PAGE.
# shellcheck disable=SC2154 # gate is the sourcing test's
report_refuses() {
  local name=$1 page=$2 pattern=$3 err code
  shift 3
  err=$("$gate" report "$@" 2>&1)
  code=$?
  if [ "$code" -eq 2 ] && grep -q -- "$pattern" <<<"$err" && [ ! -e "$page" ]; then
    pass "$name"
  else
    fail "$name: exit $code: $err"
  fi
}
