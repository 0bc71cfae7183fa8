#!/usr/bin/env bash
# A library built with Meson, as one without CMake adopts costgate: examples/base64-meson copied
# into a git repository whose branch is master, set up with dependency('costgate') found by
# pkg-config in the installed prefix, its manifest written by `gate manifest` from a
# custom_target. The baseline is saved and committed on master; a branch that computes each
# character with branches instead of the table fails (exit 1); a branch changing nothing measured
# passes (exit 0).
# Usage: test_meson_host.sh COSTGATE_SOURCE_DIR PREFIX
set -u
here=$(dirname -- "$(realpath -- "$0")")
# shellcheck source=tests/adoption/lib.sh
source "$here/lib.sh"
if [ $# -ne 2 ]; then
  echo "usage: $0 COSTGATE_SOURCE_DIR PREFIX" >&2
  exit 2
fi
example=$(realpath -- "$1")/examples/base64-meson
adoption_setup meson-host "$2"
export PKG_CONFIG_PATH=$prefix/lib/pkgconfig
repo=$work/base64

# shellcheck disable=SC2329 # called by gate_host
rebuild() { quietly "meson compile" meson compile -C "$repo/builddir"; }
# Each character from a chain of comparisons instead of the alphabet's table.
plant_branches() {
  sed -i -e 's/alphabet\[\([^];]\+\)\]/sextet(\1)/g' -e '/^static const char alphabet\[\] = /c\
static char sextet(unsigned long value)\
{\
	if (value < 26)\
		return (char)('"'A'"' + value);\
	if (value < 52)\
		return (char)('"'a'"' + value - 26);\
	if (value < 62)\
		return (char)('"'0'"' + value - 52);\
	return value == 62 ? '"'+'"' : '"'\/'"';\
}' "$1/base64.c" && grep -q 'sextet(v & 63)' "$1/base64.c"
}

if ! new_repo "$repo" "$example"/. || ! rm -rf "$repo/builddir" ||
  ! quietly "meson setup" meson setup "$repo/builddir" "$repo" || ! rebuild; then
  fail "setup: cannot make and build the example's repository"
  finish
  exit
fi
manifest=$repo/builddir/scenarios/manifest.txt
if grep -qx "flags -O2 -g -std=c99" "$manifest" &&
  grep -qx "scenario encode $repo/builddir/scenarios/encode" "$manifest"; then
  pass "meson_should_write_the_manifest_with_gate_manifest"
else
  fail "meson_should_write_the_manifest_with_gate_manifest"
  show "$manifest"
fi
gate_host meson "$repo" builddir rebuild plant_branches

finish
