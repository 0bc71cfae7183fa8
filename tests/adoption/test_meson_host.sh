#!/usr/bin/env bash
# A library built with Meson, as one without CMake adopts costgate: examples/base64-meson copied
# into a git repository whose branch is master, set up with dependency('costgate') found by
# pkg-config in the installed prefix, its manifest written by `gate manifest` from a
# custom_target with the command that builds it. The baseline is saved and committed on master;
# a branch that computes each character with branches instead of the table fails (exit 1); a
# branch changing nothing measured passes (exit 0), also against a remote that has not got the
# baseline yet; a branch that changes the optimization in meson.build has the base built by
# meson in a worktree and judged alike; Meson's debug build type (-O0) is refused naming the
# build type to set; no output names the test's directory. costgate is an optional feature of
# the project: without it the library builds as ever.
# Usage: test_meson_host.sh COSTGATE_SOURCE_DIR PREFIX
set -u
here=$(dirname -- "$(realpath -- "$0")")
# shellcheck source=tests/adoption/lib.sh
source "$here/lib.sh"
adoption_host meson-host base64-meson "$@"
repo=$work/base64

# shellcheck disable=SC2329 # called by gate_host
rebuild() { quietly "meson compile" meson compile -C "$repo/builddir"; }
# -O3 for -O2 by the project's default options; they apply to a new setup only (as in CI).
# shellcheck disable=SC2329 # called by gate_host
change_flags() {
  sed -i "s/default_options: \['buildtype=debugoptimized'/default_options: ['buildtype=debugoptimized', 'optimization=3'/" \
    "$1/meson.build" && grep -q "'optimization=3'" "$1/meson.build" && rm -rf "$1/builddir" &&
    quietly "meson setup" meson setup "$1/builddir" "$1"
}
# Meson's default build type, debug (-O0 -g), in its own build directory.
# shellcheck disable=SC2329 # called by gate_host
build_unoptimised() {
  quietly "meson setup debug" meson setup --buildtype=debug "$1/builddir-debug" "$1" >&2 &&
    quietly "meson compile debug" meson compile -C "$1/builddir-debug" >&2 && echo builddir-debug
}
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
  setup_fail "cannot make and build the example's repository"
fi
check_lines meson_should_write_the_manifest_with_gate_manifest \
  "$repo/builddir/scenarios/manifest.txt" "flags -O2 -g -std=c99" \
  "scenario encode $repo/builddir/scenarios/encode" \
  "build-command CC='cc' meson setup \"\${COSTGATE_BUILD_DIR:-builddir}\" -Doptimization=2 -Ddebug=true -Dc_std=c99 -Dcostgate=enabled && meson compile -C \"\${COSTGATE_BUILD_DIR:-builddir}\""
# An optional feature: a machine where pkg-config finds no costgate builds the library alone.
if PKG_CONFIG_PATH=/nonexistent quietly "meson setup without costgate" meson setup "$work/plain" "$repo" &&
  quietly "meson compile without costgate" meson compile -C "$work/plain" &&
  [ ! -e "$work/plain/scenarios" ] && grep -q "Run-time dependency costgate found: NO" "$work/plain/meson-logs/meson-log.txt"; then
  pass "meson_should_build_the_library_without_costgate"
else
  fail "meson_should_build_the_library_without_costgate"
fi
gate_host meson "$repo" builddir rebuild plant_branches change_flags build_unoptimised \
  "set a build type that optimises \(meson configure builddir-debug -Dbuildtype=debugoptimized\)"

finish
