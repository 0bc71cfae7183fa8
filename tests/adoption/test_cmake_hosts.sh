#!/usr/bin/env bash
# CMake hosts as old C libraries write them: a CMakeLists.txt that says
# cmake_minimum_required(VERSION 2.8.12), 3.0 or 3.5 (so costgate's functions run under the
# host's policies unless they set their own), a C89 library built with -std=c89 -pedantic -Werror
# and no build type, and the scenarios written three ways: the deprecated "harness.h" and
# `struct scenario` in C89 (2.8.12), <costgate/harness.h> in C89 (3.0), and designated
# initializers with COMPILE_OPTIONS -std=c99 (3.5). Each host is gated end to end on a
# repository whose branch is master: baseline saved, a planted regression fails (exit 1), an
# unchanged head passes (exit 0). First, find_package's components: one that does not exist,
# and native where gperftools cannot be had, fail saying which and why.
# Usage: test_cmake_hosts.sh PREFIX  (the costgate install the adoption_install test makes)
set -u
here=$(dirname -- "$(realpath -- "$0")")
# shellcheck source=tests/adoption/lib.sh
source "$here/lib.sh"
if [ $# -ne 1 ]; then
  echo "usage: $0 PREFIX" >&2
  exit 2
fi
adoption_setup cmake-hosts "$1"

# The library: words in a text, C89.
write_library() {
  local dir=$1
  mkdir -p "$dir/scenarios"
  cat >"$dir/words.h" <<'C'
/* Counting the words of a text. */
#ifndef WORDS_H
#define WORDS_H

#include <stddef.h>

size_t words_count(const char *text, size_t length);

#endif
C
  cat >"$dir/words.c" <<'C'
#include "words.h"

static int is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n';
}

size_t words_count(const char *text, size_t length)
{
	size_t count = 0, i;
	int inside = 0;

	for (i = 0; i < length; i++) {
		if (is_space(text[i])) {
			inside = 0;
		} else if (!inside) {
			inside = 1;
			count++;
		}
	}
	return count;
}
C
  printf '# words\n\nCounts the words of a text.\n' >"$dir/README.md"
}

# write_scenario DIR STYLE: scenarios/count_words.c, STYLE old (the deprecated "harness.h",
# C89), c89 (<costgate/harness.h>, C89) or c99 (designated initializers).
write_scenario() {
  local dir=$1 style=$2 include=' <costgate/harness.h>' scenario=costgate_scenario
  local service=costgate_service
  if [ "$style" = old ]; then
    include=' "harness.h"' scenario=scenario service=service
  fi
  {
    cat <<C
/* One message: a sentence, its words counted. */
#include <string.h>

#include$include

#include "words.h"

static const char sentence[] = "The quick brown fox jumps over the lazy dog while the cat, "
	"which has seen all of this before, sleeps on in the warm afternoon sun by the door.";

static size_t body(unsigned char *buffer, size_t capacity)
{
	size_t length = sizeof(sentence) - 1;

	if (length > capacity)
		length = capacity;
	memcpy(buffer, sentence, length);
	return length;
}

static int handle(struct $service *service, const unsigned char *message, size_t length)
{
	(void)service;
	COSTGATE_KEEP(words_count((const char *)message, length));
	return 0;
}

C
    if [ "$style" = c99 ]; then
      cat <<C
const struct $scenario costgate_scenario = {
	.name = "count_words",
	.title = "the words of a 150-byte sentence",
	.gated = true,
	.steady_allocations = 0,
	.cold_allocations = 0,
	.body = body,
	.handle = handle,
};
C
    else
      cat <<C
/* C89 has no designated initializers: every field up to handle, in order. */
const struct $scenario costgate_scenario = {
	"count_words", "the words of a 150-byte sentence", 1,
	0, 0,       /* steady and cold allocations */
	0, 0, 0, 0, /* no byte or peak floors */
	0, 0, 0,    /* gate_cycles, limit_percent, linearity_percent: the defaults */
	0, 0,       /* batch_size, raw */
	body, NULL, handle
};
C
    fi
  } >"$dir/scenarios/count_words.c"
}

# write_cmakelists DIR VERSION [ARGUMENTS...]: the host's CMakeLists.txt; ARGUMENTS go to
# costgate_add_scenarios.
write_cmakelists() {
  local dir=$1 version=$2
  shift 2
  cat >"$dir/CMakeLists.txt" <<CMAKE
cmake_minimum_required(VERSION $version)
project(words C)

add_library(words STATIC words.c)
target_include_directories(words PUBLIC \${CMAKE_CURRENT_SOURCE_DIR})

find_package(costgate 0.2 CONFIG REQUIRED)
costgate_add_scenarios(SOURCES scenarios/count_words.c LIBRARIES words $*)
CMAKE
}

# A second pass over the text, for a NUL byte: more instructions per message.
plant_nul_check() {
  sed -i 's/^\tint inside = 0;$/&\n\n\tfor (i = 0; i < length; i++)\n\t\tif (text[i] == 0)\n\t\t\treturn 0;/' \
    "$1/words.c" && grep -q 'text\[i\] == 0' "$1/words.c"
}

# 1. Components.
components=$work/components
mkdir -p "$components"
# components_configure COMPONENTS [CMAKE_ARGS...]: configures a host asking for COMPONENTS.
components_configure() {
  local wanted=$1
  shift
  cat >"$components/CMakeLists.txt" <<CMAKE
cmake_minimum_required(VERSION 3.5)
project(components C)
find_package(costgate 0.2 CONFIG REQUIRED COMPONENTS $wanted)
if(NOT TARGET costgate::harness_native)
  message(FATAL_ERROR "no costgate::harness_native")
endif()
CMAKE
  rm -rf "$components/build"
  cmake -S "$components" -B "$components/build" -DCMAKE_PREFIX_PATH="$prefix" "$@" >"$log" 2>&1
}
if components_configure nosuch; then
  fail "an_unknown_component_should_fail_naming_it_and_the_components: configured"
elif grep -q "costgate has no component 'nosuch' (its components: harness, gate, native)" "$log"; then
  pass "an_unknown_component_should_fail_naming_it_and_the_components"
else
  fail "an_unknown_component_should_fail_naming_it_and_the_components"
  show "$log"
fi
if pkg-config --exists libtcmalloc libprofiler && [ -d "$prefix/lib/costgate/native" ]; then
  if components_configure "native gate harness"; then
    pass "the_native_component_should_be_found_with_gperftools"
  else
    fail "the_native_component_should_be_found_with_gperftools"
    show "$log"
  fi
  # Without a working pkg-config the package cannot find gperftools: native is missing, and why.
  if components_configure native -DPKG_CONFIG_EXECUTABLE=/bin/false; then
    fail "a_missing_native_component_should_fail_saying_why: configured"
  elif tr -s ' \n' ' ' <"$log" | grep -q "costgate's component 'native' is missing: pkg-config finds no gperftools here"; then
    pass "a_missing_native_component_should_fail_saying_why"
  else
    fail "a_missing_native_component_should_fail_saying_why"
    show "$log"
  fi
fi

# 2. The hosts.
for host in 2.8.12:old 3.0:c89 3.5:c99; do
  version=${host%%:*} style=${host#*:}
  name=cmake_$(tr . _ <<<"$version")
  dir=$work/$name
  extra=()
  [ "$style" = c99 ] && extra=(COMPILE_OPTIONS -std=c99)
  if ! write_library "$dir" || ! write_scenario "$dir" "$style" ||
    ! write_cmakelists "$dir" "$version" "${extra[@]}" || ! new_repo "$dir"; then
    fail "setup: cannot write the $name host"
    continue
  fi
  # shellcheck disable=SC2329 # called by gate_host
  rebuild() { quietly "build $name" cmake --build "$dir/build"; }
  if ! quietly "configure $name" cmake -S "$dir" -B "$dir/build" -DCMAKE_PREFIX_PATH="$prefix" \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo "-DCMAKE_C_FLAGS=-std=c89 -pedantic -Werror" || ! rebuild; then
    fail "${name}_should_configure_and_build_with_c89_pedantic_werror"
    continue
  fi
  pass "${name}_should_configure_and_build_with_c89_pedantic_werror"
  # The scenario's own -std=c99 comes after the host's flags, and wins.
  own=
  [ "$style" = c99 ] && own=".* -std=c99"
  if grep -Eq "^build count_words -std=c89 -pedantic -Werror $own.*\| words: -std=c89 -pedantic -Werror " \
    "$dir/build/scenarios/manifest.txt"; then
    pass "${name}_should_record_the_host_flags_in_the_manifest"
  else
    fail "${name}_should_record_the_host_flags_in_the_manifest"
    show "$dir/build/scenarios/manifest.txt"
  fi
  if [ "$style" = c99 ]; then
    # CMake's Debug build type compiles the library at -O0 (-g), which gate refuses. (Without
    # a build type it is -O0 without -g: no DWARF says how it was compiled.)
    # shellcheck disable=SC2329 # called by gate_host
    build_unoptimised() {
      quietly "configure a debug build" cmake -S "$1" -B "$1/build-debug" \
        -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_BUILD_TYPE=Debug >&2 &&
        quietly "build a debug build" cmake --build "$1/build-debug" >&2 && echo build-debug
    }
    gate_host "$name" "$dir" build rebuild plant_nul_check "" build_unoptimised \
      "configure a build type that optimises \(cmake -DCMAKE_BUILD_TYPE=RelWithDebInfo build-debug\)"
  else
    gate_host "$name" "$dir" build rebuild plant_nul_check
  fi
done

finish
