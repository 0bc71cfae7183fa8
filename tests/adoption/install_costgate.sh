#!/usr/bin/env bash
# The adoption tests' one costgate install: costgate built without its tests and installed into
# PREFIX (emptied first), as a user installs it. The host tests (CMake, Make, Meson) share it.
# Usage: install_costgate.sh COSTGATE_SOURCE_DIR WORK_DIR  (installs into WORK_DIR/prefix)
set -u
if [ $# -ne 2 ]; then
  echo "usage: $0 COSTGATE_SOURCE_DIR WORK_DIR" >&2
  exit 2
fi
source_dir=$(realpath -- "$1") || exit 2
work=$2
unset CFLAGS LDFLAGS CMAKE_PREFIX_PATH
rm -rf "$work/prefix" "$work/costgate-build" && mkdir -p "$work" || exit 2
log=$work/install.log
if cmake -S "$source_dir" -B "$work/costgate-build" -DCOSTGATE_BUILD_TESTS=OFF >"$log" 2>&1 &&
  cmake --build "$work/costgate-build" -j 2 >>"$log" 2>&1 &&
  cmake --install "$work/costgate-build" --prefix "$work/prefix" >>"$log" 2>&1; then
  echo "ok   costgate installed into $work/prefix"
  rm -rf "$work/costgate-build"
else
  echo "FAIL cannot build and install costgate from $source_dir:"
  sed 's/^/    | /' "$log"
  rm -rf "$work/prefix"
  exit 1
fi
