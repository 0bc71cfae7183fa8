#!/usr/bin/env bash
# A library that carries a valgrind client request is read however the scenario loads it: opened
# with dlopen by file name through the run path, or linked by an absolute DT_NEEDED path (both
# refused before any run), or opened with dlopen by absolute path (read once valgrind reports the
# object, after the runs). Each is exit 3 naming the library.
# Usage: test_loaded_objects.sh GATE BUILD_DIR
# shellcheck source=tests/lib.sh
source "$(dirname "$0")/../lib.sh"
gate=$1 build=$2

tmp=$(temp_dir loaded-objects) || exit 2
out=$tmp/stdout err=$tmp/stderr
loaded=$build/tests/evasion/loaded
library=$(realpath "$loaded/lib/libevasion_skip.so")

# expect WAY RUNS: gate on the build of WAY exits 3 naming the library's client request; RUNS
# says whether valgrind ran first (yes: caught in what it reported; no: refused before).
expect() {
  local way=$1 runs=$2 code
  "$gate" --build-dir "$loaded/$way" --messages 100 -j 2 --json "$tmp/$way.json" \
    --raw-dir "$tmp/$way" >"$out" 2>"$err"
  code=$?
  check_run "${way}_should_exit_3_naming_the_library" 3 \
    "^$way: failed to measure: (scenario '$way': )?'$library' holds a valgrind client request \(the preamble of valgrind\.h\) at 0x[0-9a-f]+ in 'evasion_skip'"
  if [ "$runs" = yes ] && ! ls "$tmp/$way"/callgrind.out.* >/dev/null 2>&1; then
    fail "$way: expected its runs to have run"
  elif [ "$runs" = no ] && ls "$tmp/$way"/callgrind.out.* >/dev/null 2>&1; then
    fail "$way: refused, yet it ran under valgrind"
  fi
}

if readelf -d "$loaded/linked_by_path/scenarios/linked_by_path" | grep -qF "[$library]" ||
  readelf -d "$loaded/linked_by_path/scenarios/linked_by_path" |
  grep -qF "[$loaded/lib/libevasion_skip.so]"; then
  pass "setup_linked_by_path_has_an_absolute_dt_needed"
else
  fail "setup: linked_by_path has no absolute DT_NEEDED"
  show <(readelf -d "$loaded/linked_by_path/scenarios/linked_by_path")
fi

expect dlopens_by_name no
expect linked_by_path no
expect dlopens_by_path yes

finish
