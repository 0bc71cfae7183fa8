# Shared by the reliability tests (sourced, not run): tests/lib.sh, and the check of a run's exit
# code and message as docs/reliability.md lists them. The sourcing script keeps its runs' output
# in $tmp/NAME.out and $tmp/NAME.err and their exit code in $code.
# shellcheck shell=bash

# shellcheck source=tests/lib.sh
source "$(dirname "$0")/../lib.sh"

# expect NAME CODE PATTERN...: the last run exited CODE and its stdout or stderr matches every
# extended regular expression PATTERN. Prints the message it checked, for docs/reliability.md.
# shellcheck disable=SC2154 # tmp is the sourcing test's
expect() {
  local name=$1 want=$2 pattern message
  shift 2
  for pattern in "$@"; do
    if ! grep -Eq -- "$pattern" "$tmp/$name.out" "$tmp/$name.err"; then
      fail "$name: exit $code (want $want), no match for '$pattern' in: $(cat "$tmp/$name.out" "$tmp/$name.err")"
      return 1
    fi
  done
  message=$(grep -Eh -m 1 -- "$1" "$tmp/$name.out" "$tmp/$name.err" | head -n 1)
  if [ "$code" -ne "$want" ]; then
    fail "$name: exit $code, want $want: $message"
    return 1
  fi
  pass "$name (exit $code: $message)"
}
