#!/usr/bin/env bash
# Writes a synthetic suite of K scenarios into DIR and builds it there with costgate's own
# cmake/costgate.cmake (costgate_add_scenarios), as a project that adopted costgate would.
# Scenario i hashes a 16-byte body (i % 13) + 1 times: each has its own cost, none allocates; it
# declares itself as the test-only scenarios do (tests/scenarios/test_only.h, copied beside it).
# The measured executables only (no native variants): the scale tests measure, never time.
# Usage: make_suite.sh COSTGATE_SOURCE_DIR K DIR  (then: gate --build-dir DIR/build)
set -euo pipefail
source_dir=$(cd "$1" && pwd) count=$2 dir=$3

mkdir -p "$dir/src"
cp "$source_dir/tests/scenarios/test_only.h" "$dir/src/"
sources=()
for ((i = 1; i <= count; i++)); do
  name=$(printf 's%05d' "$i")
  sources+=("$name.c")
  cat >"$dir/src/$name.c" <<SCENARIO
/* Synthetic scenario $i of $count. */
#include "test_only.h"

static size_t body(unsigned char *buffer, size_t capacity)
{
	size_t i;

	for (i = 0; i < 16 && i < capacity; i++)
		buffer[i] = (unsigned char)('a' + i);
	return i;
}

static int handle(struct costgate_service *service, const unsigned char *message, size_t length)
{
	unsigned hash = 2166136261u;
	size_t round, i;

	(void)service;
	for (round = 0; round < $((i % 13 + 1)); round++)
		for (i = 0; i < length; i++)
			hash = (hash ^ message[i]) * 16777619u;
	COSTGATE_KEEP(hash);
	return 0;
}

TEST_ONLY_DECLARATION("$name", "synthetic scenario $i", .gated = true, .steady_allocations = 0,
		      .cold_allocations = 0, .body = body, .handle = handle);
SCENARIO
done

cat >"$dir/src/CMakeLists.txt" <<CMAKE
cmake_minimum_required(VERSION 3.18)
project(synthetic_suite LANGUAGES C)
set(COSTGATE_NATIVE_VARIANTS OFF)
include($source_dir/cmake/costgate.cmake)
costgate_add_scenarios(
  MANIFEST \${CMAKE_BINARY_DIR}/scenarios/manifest.txt
  OUTPUT_DIR \${CMAKE_BINARY_DIR}/scenarios
  SOURCES ${sources[*]})
CMAKE

# Ninja where there is one: far fewer processes than Makefiles for hundreds of small targets.
command -v ninja >/dev/null 2>&1 && export CMAKE_GENERATOR=Ninja
cmake -S "$dir/src" -B "$dir/build" -DCMAKE_BUILD_TYPE= >"$dir/configure.log" 2>&1 ||
  { cat "$dir/configure.log" >&2; exit 1; }
cmake --build "$dir/build" -j "${COSTGATE_BUILD_JOBS:-2}" >"$dir/build.log" 2>&1 ||
  { tail -n 40 "$dir/build.log" >&2; exit 1; }
