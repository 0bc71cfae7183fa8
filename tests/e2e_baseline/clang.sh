#!/usr/bin/env bash
# A clang host, with no flag of its own: the demo project built with CC=clang measures (costgate
# gives what it builds for measuring a DWARF version valgrind reads, and clang's producer records
# the flags); against a baseline saved from a GCC build, gate measures main again with clang in a
# worktree (whose configure takes a generator and a cache script: the argv that once ran off its
# end) and passes, and a planted +3 % fails. A build whose DWARF 5 this valgrind cannot read
# (-gdwarf-5 on purpose, every unit) fails to measure, naming DWARF 5, clang and the flag that
# fixes it. Real clang, gate, valgrind and git. Skipped (77) where there is no clang.
# Usage: clang.sh GATE COSTGATE_SOURCE_DIR
# shellcheck source=tests/e2e_baseline/common.sh
source "$(dirname "$0")/common.sh"

if ! command -v clang >/dev/null 2>&1; then
  echo "skip: clang is not installed (tools/install-deps.sh --tests installs it)"
  exit 77
fi
repo=$work/repo

# rebuild DIR CC [CMAKE_ARGS...]: DIR/build configured anew with compiler CC, and built.
rebuild() {
  local dir=$1 compiler=$2
  shift 2
  rm -rf "$dir/build"
  if ! { CC=$compiler cmake -S "$dir" -B "$dir/build" -DCOSTGATE_NATIVE_VARIANTS=OFF "$@" &&
    cmake --build "$dir/build" -j 2; } >"$work/build.log" 2>&1; then
    echo "    build of $dir with $compiler failed:"
    show "$work/build.log"
    return 1
  fi
}

# dwarf_versions FILE: the DWARF version of every compile unit of FILE, sorted and counted.
dwarf_versions() { readelf --debug-dump=info "$1" 2>/dev/null | awk '$1 == "Version:" { print $2 }' | sort | uniq -c | tr -s ' ' | sed 's/^ //'; }

if ! new_repo "$repo" || ! rebuild "$repo" gcc; then
  setup_fail "cannot make and build the demo repository with gcc"
fi
baseline_of_main "$repo" "baseline of main, from gcc"

# 1. Built with clang and nothing else: DWARF 4 in every unit, clang's flags recorded.
if rebuild "$repo" clang; then
  manifest=$repo/build/scenarios/manifest.txt
  versions=$(dwarf_versions "$repo/build/scenarios/work")
  if grep -q '^compiler Clang ' "$manifest" && grep -q '^flags -O2 -g -gdwarf-4 -grecord-command-line$' "$manifest" &&
    [[ $versions =~ ^[0-9]+\ 4$ ]] &&
    readelf --debug-dump=info "$repo/build/scenarios/work" | grep -q 'DW_AT_producer.*clang.* -gdwarf-4'; then
    pass "a_clang_build_should_get_dwarf_4_and_record_its_flags"
  else
    fail "a_clang_build_should_get_dwarf_4_and_record_its_flags: units '$versions'"
    show "$manifest"
  fi
  # 2. Against the baseline gcc made: main measured again with clang, in a worktree.
  run_gate "$repo" --baseline=main
  check_run "an_unchanged_clang_head_should_pass_against_main_measured_again_with_clang" 0 \
    "err:not comparable \(compiler: Clang [0-9.]+ here, GNU [0-9.]+ in the baseline\)" \
    "^baseline: refs/heads/main \([0-9a-f]{12}\) measured here in a temporary worktree" \
    "^work +([0-9.]+) +([0-9.]+) +[-+]0\.00 % " "^pass: 2 scenarios within their limits\$"
else
  fail "a_clang_build_should_get_dwarf_4_and_record_its_flags: cannot build with clang"
fi

# 3. A planted +3 %, built with clang: fails against main measured with clang.
git -C "$repo" checkout -q -b dearer main
if set_iterations "$repo" 2060 && rebuild "$repo" clang; then
  run_gate "$repo" --baseline=main
  check_run "a_planted_regression_built_with_clang_should_fail" 1 \
    "^work: [0-9.]+ instructions per message against [0-9.]+ in the baseline: \+[23]\.[0-9]{2} %, above the 2 % limit" \
    "^fail: 1 regressed \(work\)\$"
else
  fail "a_planted_regression_built_with_clang_should_fail: cannot build the change"
fi
git -C "$repo" checkout -q -f main

# 4. DWARF 5 on purpose, every unit: valgrind 3.19 cannot read it, and gate says what to do.
valgrind_version=$(valgrind --version 2>/dev/null | sed -n 's/^valgrind-//p')
if rebuild "$repo" clang -DCMAKE_C_FLAGS=-gdwarf-5; then
  run_gate "$repo"
  case $valgrind_version in
  3.1[0-9].* | 3.[0-9].*)
    check_run "clang_dwarf_5_should_fail_to_measure_naming_the_fix" 3 \
      "^work: failed to measure: callgrind run at [0-9]+ exited with 1: valgrind $(regex_escape "$valgrind_version"): .*Possibly corrupted debuginfo file.*; the objects hold DWARF 5 written by clang \(work [0-9]+ of [0-9]+ units; [^)]*clang version [0-9.]+\), which valgrind $(regex_escape "$valgrind_version") cannot read \(3\.20 can\): build them with -gdwarf-4" \
      "^fail: 2 failed to measure \(steady, work\)\$"
    ;;
  *)
    # A valgrind that reads it measures: a readable build is never refused.
    check_run "clang_dwarf_5_should_measure_with_a_valgrind_that_reads_it" 0
    ;;
  esac
else
  fail "clang_dwarf_5_should_fail_to_measure_naming_the_fix: cannot build with -gdwarf-5"
fi

finish
