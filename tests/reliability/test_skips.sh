#!/usr/bin/env bash
# A case that cannot run is a skip to ctest, never a pass: tests/lib.sh's finish ends a test whose
# cases passed or were skipped with 77 (SKIP_RETURN_CODE of every test), one with a failure with
# 1 whatever was skipped, and one whose every case passed with 0; the summary counts the skips.
# shellcheck source=tests/lib.sh disable=SC2016 # the conditions given to eval expand when it runs them
source "$(dirname "$0")/../lib.sh"
library=$(realpath -- "$(dirname "$0")/../lib.sh")

# ends CASES...: the exit status and last line of a test made of CASES (pass, fail or skip).
ends() {
  local script="source '$library'" step
  for step in "$@"; do script+="; $step case_$step"; done
  bash -c "$script; finish" 2>&1 | tail -n 1
  echo "status ${PIPESTATUS[0]}"
}
check "passed and skipped ends as skipped (77)" \
  eval '[ "$(ends pass skip | tr "\n" " ")" = "1 passed, 0 failed, 1 skipped status 77 " ]'
check "a failure wins over a skip (1)" \
  eval '[ "$(ends pass skip fail | tr "\n" " ")" = "1 passed, 1 failed, 1 skipped status 1 " ]'
check "every case passed ends as passed (0)" \
  eval '[ "$(ends pass pass | tr "\n" " ")" = "2 passed, 0 failed status 0 " ]'
finish
