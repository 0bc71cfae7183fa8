#!/usr/bin/env bash
# A second region under a name or a table the function-symbol walk would miss is refused before
# any run (exit 3, naming both addresses): a data-typed symbol of the region's name in the code, a
# versioned name (costgate_measured_region@V1), and one in the separate debug file the executable
# links to (.gnu_debuglink), whose symbol table valgrind reads too. The same executable with an
# honest debug file measures as usual.
# Usage: test_region_names.sh GATE BUILD_DIR
# shellcheck source=tests/lib.sh
source "$(dirname "$0")/../lib.sh"
gate=$1 build=$2

tmp=$(temp_dir region-names) || exit 2
region=costgate_measured_region

# variant NAME: a build directory of one scenario, a copy of consume_raw, in $tmp/NAME.
variant() {
  mkdir -p "$tmp/$1/scenarios"
  cp "$build/scenarios/consume_raw" "$tmp/$1/scenarios/"
  {
    grep -E '^(costgate|compiler|flags|build consume_raw) ' "$build/scenarios/manifest.txt"
    echo "scenario consume_raw $tmp/$1/scenarios/consume_raw"
  } >"$tmp/$1/scenarios/manifest.txt"
}

# expect NAME CODE PATTERN: gate on $tmp/NAME exits CODE and its stdout matches PATTERN.
expect() {
  "$gate" --build-dir "$tmp/$1" --messages 50 -j 2 --json "$tmp/$1.json" --raw-dir "$tmp/$1.raw" \
    >"$tmp/stdout" 2>"$tmp/stderr"
  local code=$?
  if [ "$code" -eq "$2" ] && grep -qE -- "$3" "$tmp/stdout"; then
    pass "$1"
  else
    fail "$1: exit $code, expected $2 and /$3/"
    sed 's/^/    | /' "$tmp/stdout" "$tmp/stderr"
  fi
}

two="^consume_raw: failed to measure: 2 functions are named '$region' \(0x[0-9a-f]+ in '[^']*', 0x[0-9a-f]+ in '[^']*'\)"

variant data_symbol
objcopy --add-symbol "$region=.text:0x10,object,global" "$tmp/data_symbol/scenarios/consume_raw"
expect data_symbol 3 "$two"

variant versioned
objcopy --add-symbol "$region@V1=.text:0x10,function,global" "$tmp/versioned/scenarios/consume_raw"
expect versioned 3 "$two"

variant debug_file
(
  cd "$tmp/debug_file/scenarios" &&
    objcopy --only-keep-debug consume_raw consume_raw.debug &&
    objcopy --add-symbol "$region=.text:0x10,function,global" consume_raw.debug &&
    objcopy --strip-debug --strip-symbol "$region" --add-gnu-debuglink=consume_raw.debug consume_raw
)
expect debug_file 3 "$two"

variant honest_debug_file
(
  cd "$tmp/honest_debug_file/scenarios" &&
    objcopy --only-keep-debug consume_raw consume_raw.debug &&
    objcopy --strip-debug --add-gnu-debuglink=consume_raw.debug consume_raw
)
expect honest_debug_file 0 "^pass: 1 scenario within its limits"

finish
