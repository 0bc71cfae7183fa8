#!/usr/bin/env bash
# The layers of gate/ (docs/design.md, "Layers of gate/"): tools/check-layers.sh passes on the
# tree as it is, and names an upward include, a loop between files and a header no layer has in
# copies of gate/ given one each; a copy of the project given an upward include does not build.
# Usage: test_layers.sh SOURCE_DIR
# shellcheck source=tests/lib.sh
source "$(dirname "$0")/../lib.sh"

source_dir=$(realpath -- "${1:?usage: test_layers.sh SOURCE_DIR}")
check_layers="$source_dir/tools/check-layers.sh"
work=$(temp_dir layers) || setup_fail "cannot make a temporary directory"

# copy NAME: a copy of gate/ at $work/NAME/gate.
copy() {
  mkdir -p "$work/$1" && cp -R "$source_dir/gate" "$work/$1/gate"
}

# add_include FILE HEADER: FILE (relative to the copy's gate/) includes HEADER after its first
# include.
add_include() {
  sed -i "0,/^#include \"/s//#include \"$2\"\n#include \"/" "$1"
}

# expect NAME STATUS PATTERN DIR: check-layers on DIR exits STATUS and prints PATTERN.
expect() {
  local name=$1 status=$2 pattern=$3 dir=$4 got=0
  "$check_layers" "$dir" >"$work/$name.out" 2>&1 || got=$?
  if [ "$got" -eq "$status" ] && grep -qE -- "$pattern" "$work/$name.out"; then
    pass "$name"
  else
    fail "$name: exit $got (wanted $status), or no line like '$pattern':"
    show "$work/$name.out"
  fi
}

expect the_tree_has_no_upward_include_and_no_loop 0 \
  '^check-layers: 6 layers \(base parse run core render cmd\), [0-9]+ includes, no upward include, no loop$' \
  "$source_dir/gate"

copy upward
add_include "$work/upward/gate/base/fs.c" measure.h
expect an_upward_include_is_named 1 \
  '^base/fs\.c:[0-9]+: includes core/measure\.h: base/ may include only its own layer and those before it \(base\)$' \
  "$work/upward/gate"

copy loop
add_include "$work/loop/gate/parse/dhat.h" callgrind.h
add_include "$work/loop/gate/parse/callgrind.h" dhat.h
expect a_loop_between_two_files_is_named 1 '^a loop between files: (callgrind dhat|dhat callgrind) ' \
  "$work/loop/gate"

copy longer_loop
add_include "$work/longer_loop/gate/core/slope.h" verdict.h
expect a_loop_round_three_files_is_named 1 '^a loop between files: .*slope' "$work/longer_loop/gate"

copy unknown
add_include "$work/unknown/gate/render/page.c" nowhere.h
expect a_header_no_layer_has_is_named 1 '^render/page\.c:[0-9]+: includes "nowhere\.h", a header no layer has$' \
  "$work/unknown/gate"

mkdir -p "$work/nolayers/gate" && echo 'project(x)' >"$work/nolayers/gate/CMakeLists.txt"
expect a_tree_without_layers_is_a_usage_error 2 "has no line 'set\(GATE_LAYERS \.\.\.\)'" \
  "$work/nolayers/gate"

# The build itself: base/ is a library that sees no later layer's directory, so the same upward
# include stops the compile.
mkdir -p "$work/project"
(cd "$source_dir" && git ls-files -z --cached --others --exclude-standard |
  xargs -0 tar -cf - 2>/dev/null) | tar -xf - -C "$work/project" 2>/dev/null
if [ ! -f "$work/project/gate/base/fs.c" ]; then
  fail "the_build_refuses_an_upward_include: cannot copy the project"
else
  add_include "$work/project/gate/base/fs.c" measure.h
  if ! cmake -S "$work/project" -B "$work/project-build" -DCOSTGATE_BUILD_TESTS=OFF \
      >"$work/configure.log" 2>&1; then
    fail "the_build_refuses_an_upward_include: the copy does not configure:"
    show "$work/configure.log"
  elif cmake --build "$work/project-build" --target gate_base >"$work/build.log" 2>&1; then
    fail "the_build_refuses_an_upward_include: gate_base built with base/fs.c including measure.h"
  # The compiler's word for a header not found: GCC's, then clang's.
  elif grep -Eq "measure\.h: No such file or directory|'measure\.h' file not found" \
      "$work/build.log"; then
    pass "the_build_refuses_an_upward_include"
  else
    fail "the_build_refuses_an_upward_include: the build failed otherwise:"
    show "$work/build.log"
  fi
fi

finish
