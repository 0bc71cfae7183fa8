#!/usr/bin/env bash
# A library built with plain Make, as one without CMake adopts costgate: examples/crc32-make
# copied into a git repository whose branch is master and which tracks a build/ folder of its
# own, built by its Makefile into out/ against the installed pkg-config module (no CMake
# anywhere in it), its manifest written by `gate manifest` with the command that builds it.
# The baseline is saved and committed on master; a branch that computes the CRC bit by bit fails
# (exit 1); a branch changing nothing measured passes (exit 0), also against a remote that has
# not got the baseline yet; a branch that changes CFLAGS in the Makefile has the base built by
# that make in a worktree and judged alike; a build at -O0 is refused naming CFLAGS; no output
# names the test's directory; with costgate-native, make builds the native scenarios too and the
# regression gets its wall-clock line. Also: the harness's installed names cannot clash with a
# library's.
# Usage: test_make_host.sh COSTGATE_SOURCE_DIR PREFIX
set -u
here=$(dirname -- "$(realpath -- "$0")")
# shellcheck source=tests/adoption/lib.sh
source "$here/lib.sh"
adoption_host make-host crc32-make "$@"
repo=$work/crc32

# The module gives the installed harness and the gate beside it.
flags=$(pkg-config --cflags --libs costgate 2>"$err")
module_gate=$(pkg-config --variable=gate costgate 2>>"$err")
if [[ $flags =~ ^-I([^ ]+)/include\ +-L([^ ]+)/lib\ +-lcostgate_harness\ *$ ]] &&
  [ "$(realpath -- "${BASH_REMATCH[1]}")" = "$prefix" ] &&
  [ "$(realpath -- "${BASH_REMATCH[2]}")" = "$prefix" ] &&
  [ "$(realpath -- "$module_gate")" = "$prefix/bin/gate" ]; then
  pass "pkg_config_should_give_the_installed_harness_and_gate"
else
  fail "pkg_config_should_give_the_installed_harness_and_gate: '$flags', gate '$module_gate'"
  show "$err"
fi

# With gperftools, the native harness too: its own module, never the measured harness beside it.
if [ -f "$prefix/lib/libcostgate_harness_native.a" ]; then
  native_flags=$(pkg-config --cflags --libs costgate-native 2>"$err")
  if [[ $native_flags =~ ^-I([^ ]+)/include\ +-DCOSTGATE_NATIVE\ +-L([^ ]+)/lib\ +-lcostgate_harness_native\ .*-ltcmalloc ]] &&
    [[ $native_flags != *-lcostgate_harness\ * ]] && [ "$(realpath -- "${BASH_REMATCH[1]}")" = "$prefix" ]; then
    pass "pkg_config_should_give_the_native_harness_alone"
  else
    fail "pkg_config_should_give_the_native_harness_alone: '$native_flags'"
    show "$err"
  fi
else
  skip "pkg_config_should_give_the_native_harness_alone: costgate was installed without gperftools"
fi

# The harness's names cannot clash with a library's: a scenario whose library has its own
# struct scenario, struct service, harness_main and cq_queue builds and runs, and the installed
# objects define nothing global outside costgate_ but main (and realloc, the native counter's).
mkdir -p "$work/clash"
cat >"$work/clash/clash.c" <<'C'
#include <costgate/harness.h>

/* The library's own names, as the 0.2 harness declared them. */
struct scenario { int steps; };
struct service { const char *host; };
struct cq_queue { int depth; };
int harness_main(const struct scenario *scenario);

int harness_main(const struct scenario *scenario)
{
	return scenario->steps;
}

static size_t body(unsigned char *buffer, size_t capacity)
{
	(void)capacity;
	buffer[0] = 1;
	return 1;
}

static int handle(struct costgate_service *service, const unsigned char *message, size_t length)
{
	struct scenario own = { 0 };
	struct cq_queue queue = { 0 };

	(void)service;
	(void)message;
	(void)length;
	return harness_main(&own) + queue.depth;
}

const struct costgate_scenario costgate_scenario = {
	.name = "clash", .title = "the library's own names", .gated = true,
	.body = body, .handle = handle,
};
C
# shellcheck disable=SC2046 # pkg-config's words are separate arguments
if cc -std=c99 -pedantic -Wall -Wextra -Werror $(pkg-config --cflags costgate) "$work/clash/clash.c" \
  $(pkg-config --libs costgate) -o "$work/clash/clash" >"$log" 2>&1 &&
  "$work/clash/clash" --describe >/dev/null 2>>"$log"; then
  pass "a_librarys_own_scenario_service_and_queue_names_should_not_clash"
else
  fail "a_librarys_own_scenario_service_and_queue_names_should_not_clash"
  show "$log"
fi
native_archive=()
[ ! -f "$prefix/lib/libcostgate_harness_native.a" ] || native_archive=("$prefix/lib/libcostgate_harness_native.a")
unprefixed=$(nm -g --defined-only "$prefix/lib/libcostgate_harness.a" "${native_archive[@]}" \
  2>/dev/null | awk 'NF == 3 && $3 !~ /^(costgate_|COSTGATE_)/ && $3 != "main" && $3 != "realloc" { print $3 }')
if [ -z "$unprefixed" ] && nm -g --defined-only "$prefix/lib/libcostgate_harness.a" | grep -q ' T costgate_harness_main$'; then
  pass "the_installed_harness_should_define_only_prefixed_names"
else
  fail "the_installed_harness_should_define_only_prefixed_names: $unprefixed"
fi

# shellcheck disable=SC2329 # called by gate_host
rebuild() { quietly "make" make -C "$repo"; }
# -O3 for -O2 in the Makefile; make does not rebuild for a changed Makefile: clean.
# shellcheck disable=SC2329 # called by gate_host
change_flags() {
  sed -i 's/^CFLAGS ?= -O2 /CFLAGS ?= -O3 /' "$1/Makefile" && grep -q '^CFLAGS ?= -O3 ' "$1/Makefile" &&
    make -C "$1" clean >/dev/null
}
# A build without optimisation, as `make CFLAGS=-g` gives, in its own folder.
# shellcheck disable=SC2329 # called by gate_host
build_unoptimised() {
  quietly "make at -O0" make -C "$1" BUILD=debug CFLAGS=-g >&2 && echo debug
}
# Bit by bit instead of the table: about eight times the instructions per byte.
plant_bitwise() {
  sed -i 's/^\t\tcrc = table\[(crc ^ byte\[i\]) & 0xff\] ^ (crc >> 8);$/\t{\n\t\tint bit;\n\n\t\tcrc ^= byte[i];\n\t\tfor (bit = 0; bit < 8; bit++)\n\t\t\tcrc = crc \& 1 ? 0xedb88320UL ^ (crc >> 1) : crc >> 1;\n\t}/' \
    "$1/crc32.c" && grep -q 'crc ^= byte\[i\]' "$1/crc32.c"
}

# The project's own build/ folder, tracked (gate must neither need nor touch it).
mkdir -p "$repo/build" && printf 'the project keeps its own files here\n' >"$repo/build/NOTES"
if ! new_repo "$repo" "$example"/. || ! git -C "$repo" add -f build/NOTES ||
  ! commit "$repo" "a tracked build folder" || ! rebuild; then
  setup_fail "cannot make and build the example's repository"
fi
check_lines make_should_write_the_manifest_with_gate_manifest "$repo/out/scenarios/manifest.txt" \
  "flags -O2 -g -Wall -Wextra" "scenario checksum $repo/out/scenarios/checksum" \
  "build checksum -O2 -g -Wall -Wextra | link:" \
  "build-command make BUILD=\"\${COSTGATE_BUILD_DIR:-out}\" CC='cc' CFLAGS='-O2 -g -Wall -Wextra' LDFLAGS=''"
gate_host make "$repo" out rebuild plant_bitwise change_flags build_unoptimised \
  "compile it with -O2 \(in the flags the build passes the compiler: CFLAGS for make\)"

# A source newer than the program built from it (a make that failed, or none since a checkout):
# refused before anything runs, with the build's own command.
touch "$repo/crc32.c"
run_gate "$repo" --build-dir out --baseline="$base_branch"
check_run "a_build_older_than_its_sources_should_be_refused_with_the_command_that_builds_it" 2 \
  "err:^gate: error: the build is older than its sources: 'checksum' is older than its source crc32\.c .*; build it again: make BUILD=\"\\\$\{COSTGATE_BUILD_DIR:-out\}\" CC='cc' CFLAGS='-O3 -g -Wall -Wextra' LDFLAGS=''\$"

finish
