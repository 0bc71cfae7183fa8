#!/usr/bin/env bash
# Installs what costgate needs on a Debian or Ubuntu machine, and only what is missing.
# Without root or apt-get it prints the exact command to run and stops (exit 1).
set -euo pipefail

# Usage: install-deps.sh [--quiet] [--tests] [PACKAGE...]
#   --quiet  say nothing when everything is there
#   PACKAGE  also these Debian packages (what a project's own build needs: the action's
#            `packages` input)
#   --tests  also what only the test suite needs (chromium, for the results page's test;
#            xmllint and python3-jsonschema, for the exports' tests; libc6-dbg, the C
#            library's debug file valgrind's recommendation brings, for the test of what the
#            runs read of it; meson and ninja-build, for the Meson host's adoption test; man-db,
#            to render gate(1) in its test; clang, for the clang host's tests; g++, for the
#            attribution test's C++ library; clang-format, for tools/lint.sh's format check)
# COSTGATE_APT_ARCHIVES=DIR keeps the downloaded packages in DIR (the action caches it), so a
# later install finds them there instead of downloading them again.

packages=(valgrind cmake gcc make pkg-config git libcjson-dev libgoogle-perftools-dev google-perftools
  libdw-dev libelf-dev)
quiet=false
for argument in "$@"; do
  case "$argument" in
    --quiet) quiet=true ;;
    --tests) packages+=(chromium libxml2-utils python3-jsonschema libc6-dbg meson ninja-build man-db
      clang g++ clang-format) ;;
    -*)
      echo "install-deps: error: unknown argument '$argument' (usage: install-deps.sh [--quiet] [--tests] [PACKAGE...])" >&2
      exit 2
      ;;
    *)
      # Debian's rule for a package name; anything else never reaches apt-get's command line.
      if [[ ! $argument =~ ^[a-z0-9][a-z0-9+.-]+$ ]]; then
        echo "install-deps: error: '$argument' is not a Debian package name ([a-z0-9][a-z0-9+.-]+)" >&2
        exit 2
      fi
      packages+=("$argument")
      ;;
  esac
done

missing=()
for package in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$package")
  fi
done

if [ "${#missing[@]}" -eq 0 ]; then
  "$quiet" || echo "install-deps: everything is installed"
  exit 0
fi

command_line="apt-get update && apt-get install -y --no-install-recommends ${missing[*]}"
if ! command -v apt-get >/dev/null 2>&1; then
  echo "install-deps: error: missing packages (${missing[*]}) and no apt-get on this machine" >&2
  echo "install-deps: install the equivalents of: ${missing[*]}" >&2
  exit 1
fi

sudo=()
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    sudo=(sudo -n)
  else
    echo "install-deps: error: missing packages: ${missing[*]}" >&2
    echo "install-deps: run as root: $command_line" >&2
    exit 1
  fi
fi

echo "install-deps: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
archives=()
if [ -n "${COSTGATE_APT_ARCHIVES:-}" ]; then
  mkdir -p "$COSTGATE_APT_ARCHIVES/partial"
  archives=(-o "Dir::Cache::Archives=$COSTGATE_APT_ARCHIVES")
fi
"${sudo[@]}" apt-get update -q
"${sudo[@]}" apt-get install -y -q --no-install-recommends "${archives[@]}" "${missing[@]}"
