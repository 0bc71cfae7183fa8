#!/usr/bin/env bash
# gate manifest, for builds without CMake: it writes the lines costgate_add_scenarios() writes
# (the compiler named as CMake names it, the flags recorded for every scenario), gate reads them
# from BUILD/scenarios/manifest.txt, and every refusal is exit 2 with nothing written. Runs no
# valgrind: the executables are costgate's own scenarios, copied. The compiler is the build's,
# C_COMPILER, named as the build's manifest names it.
# Usage: test_manifest.sh GATE BUILD_DIR C_COMPILER
# shellcheck source=tests/lib.sh
source "$(dirname "$0")/../lib.sh"
gate=$(realpath -- "$1") build=$(realpath -- "$2") cc=$3
unset CC
tmp=$(temp_dir manifest) || exit 2
cd "$tmp" || exit 2

mkdir -p b/scenarios other
cp "$build/scenarios/batch" "$build/scenarios/reply" b/scenarios/
cp "$build/scenarios/batch" other/
touch b/scenarios/not_executable

"$gate" manifest --quiet --output-dir b/scenarios --cc "$cc" --cflags '-O2  -g -std=c99' \
  --ldflags -static b/scenarios/reply b/scenarios/batch 2>"$tmp/stderr"
code=$?
compiler=$(sed -n 's/^compiler //p' "$build/scenarios/manifest.txt")
version=$(sed -n 's/^costgate //p' "$build/scenarios/manifest.txt")
cat >expected <<EOF
# costgate scenario manifest: written by gate manifest, read by gate
costgate $version
compiler $compiler
flags -O2  -g -std=c99
scenario reply $tmp/b/scenarios/reply
build reply -O2  -g -std=c99 | link: -static
scenario batch $tmp/b/scenarios/batch
build batch -O2  -g -std=c99 | link: -static
EOF
if [ "$code" -eq 0 ] && [ ! -s "$tmp/stderr" ] && diff -u expected b/scenarios/manifest.txt; then
  pass "manifest_should_list_each_executable_by_name_with_the_flags_and_cmakes_compiler_name"
else
  fail "manifest_should_list_each_executable_by_name_with_the_flags_and_cmakes_compiler_name: exit $code"
  sed 's/^/    | /' "$tmp/stderr"
fi

# gate reads it where it reads a CMake build's: a scenario it does not list is named with those
# it does.
stderr=$("$gate" --build-dir b --scenario nosuch 2>&1 >/dev/null)
if [ $? -eq 2 ] && [ "$stderr" = "gate: error: unknown scenario 'nosuch' (known: batch, reply)" ]; then
  pass "gate_should_read_the_manifest_from_the_build_dir"
else
  fail "gate_should_read_the_manifest_from_the_build_dir: $stderr"
fi

# refused NAME PATTERN ARGS...: gate manifest exits 2, stderr matching PATTERN, and the manifest
# written above is untouched.
refused() {
  local name=$1 pattern=$2 stderr code
  shift 2
  stderr=$("$gate" manifest "$@" 2>&1 >/dev/null)
  code=$?
  if [ "$code" -eq 2 ] && grep -qE -- "$pattern" <<<"$stderr" && cmp -s expected b/scenarios/manifest.txt; then
    pass "$name"
  else
    fail "$name: exit $code, stderr: $stderr"
  fi
}
refused a_name_outside_the_scenario_alphabet_should_be_refused \
  "^gate: error: cannot list 'b/scenarios/Batch': a scenario's name \(its file name\) is \[a-z0-9_\]\{1,64\}$" \
  -o b/scenarios --cflags '' b/scenarios/batch b/scenarios/Batch
refused the_same_name_twice_should_be_refused \
  "^gate: error: cannot list 'other/batch': scenario 'batch' is 'b/scenarios/batch' already$" \
  -o b/scenarios --cflags '' b/scenarios/batch other/batch
refused a_missing_executable_should_be_refused \
  "^gate: error: cannot list 'b/scenarios/missing': no such file \(build it first\)$" \
  -o b/scenarios --cflags '' b/scenarios/missing
refused a_file_that_is_not_executable_should_be_refused \
  "^gate: error: cannot list 'b/scenarios/not_executable': not an executable file$" \
  -o b/scenarios --cflags '' b/scenarios/not_executable
refused march_native_should_be_refused \
  "^gate: error: cannot record --cflags '-O2 -march=native': scenarios must not be built with -march=native" \
  -o b/scenarios --cflags '-O2 -march=native' b/scenarios/batch
refused missing_cflags_should_be_refused \
  "^gate: error: gate manifest needs --cflags TEXT" -o b/scenarios b/scenarios/batch
refused missing_output_dir_should_be_refused \
  "^gate: error: gate manifest needs --output-dir DIR" --cflags '' b/scenarios/batch
refused no_executables_should_be_refused \
  "^gate: error: gate manifest needs the scenario executables to list" -o b/scenarios --cflags ''
refused an_unknown_compiler_should_be_refused \
  "^gate: error: cannot run the compiler 'no-such-cc': not found on PATH \(see --cc\)$" \
  -o b/scenarios --cflags '' --cc no-such-cc b/scenarios/batch
refused a_flag_with_a_newline_should_be_refused \
  "^gate: error: cannot record --cflags: it " -o b/scenarios --cflags $'-O2\n-g' b/scenarios/batch

# --native lists the native builds (the native harness, gperftools) in BUILD/scenarios/native,
# where gate time, the wall clock and the second opinion look; a measured build is refused there,
# and so is a native list anywhere else, which would take the measured manifest's place.
refused native_should_refuse_a_measured_build \
  "^gate: error: cannot list 'b/scenarios/batch' with --native: it is not linked with the native harness" \
  --native -o b/scenarios/native --cflags '' b/scenarios/batch
refused native_should_write_only_into_a_native_directory \
  "^gate: error: with --native, --output-dir is BUILD/scenarios/native, where gate looks for the native builds, not 'b/scenarios'$" \
  --native -o b/scenarios --cflags '' b/scenarios/batch
if [ -x "$build/scenarios/native/batch" ]; then
  mkdir -p b/scenarios/native && cp "$build/scenarios/native/batch" b/scenarios/native/
  refused a_native_build_should_be_refused_as_a_measured_scenario \
    "^gate: error: cannot list 'b/scenarios/native/batch': it is linked with the native harness" \
    -o b/scenarios --cflags '' b/scenarios/native/batch
  if "$gate" manifest -q --native -o b/scenarios/native/ --cc "$cc" --cflags '-O2' b/scenarios/native/batch &&
    grep -qx "scenario batch $tmp/b/scenarios/native/batch" b/scenarios/native/manifest.txt &&
    cmp -s expected b/scenarios/manifest.txt; then
    pass "native_should_list_the_native_builds_beside_the_measured_manifest"
  else
    fail "native_should_list_the_native_builds_beside_the_measured_manifest"
  fi
else
  skip "native_should_list_the_native_builds_beside_the_measured_manifest: no native scenarios here (gperftools)"
fi

# A new directory is made; --help names the command.
if "$gate" manifest -q -o new/scenarios --cflags '' b/scenarios/batch && [ -s new/scenarios/manifest.txt ] &&
  "$gate" manifest --help | grep -q '^usage: gate manifest --output-dir DIR'; then
  pass "manifest_should_make_its_directory_and_have_help"
else
  fail "manifest_should_make_its_directory_and_have_help"
fi

finish
