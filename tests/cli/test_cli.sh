#!/usr/bin/env bash
# gate's command line, golden: --help and --version, every usage error (exit 2 and one stderr
# line, compared with tests/cli/expected/NAME.stderr), an unknown scenario and a missing manifest.
# No case here runs valgrind: where gate looks for it first, a stand-in that is never run is put
# on PATH. COSTGATE_UPDATE_GOLDEN=1 rewrites the expected files from what gate prints.
# Usage: test_cli.sh GATE BUILD_DIR SOURCE_DIR PROJECT_VERSION
# shellcheck source=tests/lib.sh
source "$(dirname "$0")/../lib.sh"
gate=$1 build=$2 source=$3 version=$4
# Absolute: the cases run from a temporary directory.
source=$(realpath -- "$source")
setup_gate
expected=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/expected

tmp=$(temp_dir cli) || exit 2
# gate runs from here: outside any git checkout, so nothing of the repository is read.
cd "$tmp" || exit 2

# A valgrind that gate finds but these cases never reach (it fails loudly if they do).
mkdir -p "$tmp/fakebin" "$tmp/empty"
printf '#!/bin/sh\necho "stand-in valgrind was run" >&2\nexit 99\n' >"$tmp/fakebin/valgrind"
chmod +x "$tmp/fakebin/valgrind"
fake_path="$tmp/fakebin:/usr/bin:/bin"

# A build dir with a hand-written manifest: the names are fixed, so the golden line is too.
mkdir -p "$tmp/hand/scenarios"
cat >"$tmp/hand/scenarios/manifest.txt" <<EOF
compiler GNU 0.0.0
flags -O2 -g
scenario zeta $tmp/hand/scenarios/zeta
scenario alpha $tmp/hand/scenarios/alpha
scenario consume_one $tmp/hand/scenarios/consume_one
EOF

# run_gate ARGS...: runs gate with the stand-in valgrind; sets out, err and code.
run_gate() {
  PATH=$fake_path "$gate" "$@" >"$tmp/stdout" 2>"$tmp/stderr"
  code=$?
  out=$(cat "$tmp/stdout")
  err=$(sed "s|$tmp|TMP|g" "$tmp/stderr")
}

# golden NAME TEXT: TEXT equals expected/NAME (or becomes it when updating); prints the difference.
golden() {
  local name=$1 text=$2
  if [ "${COSTGATE_UPDATE_GOLDEN:-}" = 1 ]; then
    printf '%s\n' "$text" >"$expected/$name"
  fi
  if [ ! -f "$expected/$name" ]; then
    echo "missing golden file $expected/$name"
    return 1
  fi
  diff -u "$expected/$name" - <<<"$text"
}

# usage_error NAME ARGS...: exit 2, nothing on stdout, stderr is one line equal to the golden.
usage_error() {
  local name=$1 difference
  shift
  run_gate "$@"
  if [ "$code" -ne 2 ]; then
    fail "$name: exit $code, expected 2 (stderr: $err)"
  elif [ -n "$out" ]; then
    fail "$name: printed on stdout: $out"
  elif [ "$(wc -l <"$tmp/stderr")" -ne 1 ]; then
    fail "$name: stderr is not one line: $err"
  elif ! difference=$(golden "$name.stderr" "$err"); then
    fail "$name: stderr differs from expected/$name.stderr: $difference"
  else
    pass "$name"
  fi
}

# --help and --version
run_gate --help
if [ "$code" -ne 0 ]; then
  fail "help_should_exit_0: exit $code ($err)"
elif [ -n "$err" ]; then
  fail "help_should_exit_0: printed on stderr: $err"
else
  pass "help_should_exit_0"
fi
help_text=$(cat "$tmp/stdout")
if difference=$(golden help.stdout "$help_text"); then
  pass "help_should_equal_the_golden_text"
else
  fail "help_should_equal_the_golden_text: $difference"
fi
# gate check is gate: an entry of the command table like the others, its help and its refusals
# gate's own.
run_gate check --help
if [ "$code" -eq 0 ] && [ "$(cat "$tmp/stdout")" = "$help_text" ]; then
  pass "gate_check_help_should_be_gates"
else
  fail "gate_check_help_should_be_gates: exit $code"
fi
run_gate --messages 1
plain="$code:$err"
run_gate check --messages 1
if [ "$code:$err" = "$plain" ] && [ "$code" -eq 2 ]; then
  pass "gate_check_should_refuse_as_gate_does"
else
  fail "gate_check_should_refuse_as_gate_does: '$code:$err' against '$plain'"
fi
# Every long option gate's parser knows (read from its option definitions: gate's own, gate
# merge's and the shared ones) must be in gate's help or gate merge's.
options=$(grep -ohE '"[a-z][a-z-]*", ('"'"'.'"'"'|0), ' "$source/gate/cmd/options.c" \
  "$source/gate/cmd/optlayer.c" | sed 's/^"\([^"]*\)".*/\1/' | sort -u)
missing=""
every_help=$(printf '%s\n' "$help_text"; "$gate" merge --help)
for option in $options; do
  grep -qE -- "(^|[ ,])--$option( |$)" <<<"$every_help" || missing="$missing --$option"
done
if [ -z "$options" ]; then
  fail "help_should_list_every_option: no options read from $source/gate/cmd"
elif [ -n "$missing" ]; then
  fail "help_should_list_every_option: missing$missing"
else
  pass "help_should_list_every_option ($(wc -w <<<"$options") options)"
fi
codes=$(grep -cE '^  [0-4]  [a-z]' <<<"$help_text")
if [ "$codes" -eq 5 ] && grep -q '^Exit codes:$' <<<"$help_text"; then
  pass "help_should_list_the_five_exit_codes"
else
  fail "help_should_list_the_five_exit_codes: found $codes exit code lines"
fi
run_gate -h
if [ "$code" -eq 0 ] && [ "$out" = "$help_text" ]; then
  pass "short_help_should_print_the_same_text"
else
  fail "short_help_should_print_the_same_text: exit $code"
fi

run_gate --version
if [ "$code" -ne 0 ]; then
  fail "version_should_exit_0: exit $code ($err)"
elif ! grep -qxE 'gate [0-9]+\.[0-9]+\.[0-9]+' <<<"$out"; then
  fail "version_should_print_gate_x_y_z: '$out'"
elif [ "$out" != "gate $version" ]; then
  fail "version_should_be_the_project_version: '$out', project $version"
else
  pass "version_should_print_gate_and_the_project_version"
fi
# The version lives in CMakeLists.txt; the changelog has an entry for it, and the licence is there.
if grep -qE "^## \[${version//./\\.}\] - [0-9]{4}-[0-9]{2}-[0-9]{2}\$" "$source/CHANGELOG.md" &&
  grep -q '^MIT License$' "$source/LICENSE" &&
  grep -q '^Copyright (c) [0-9]* costgate authors$' "$source/LICENSE"; then
  pass "changelog_should_have_the_project_version_and_the_licence_should_be_mit"
else
  fail "changelog_should_have_the_project_version_and_the_licence_should_be_mit: no '## [$version] - DATE' in CHANGELOG.md, or LICENSE is not MIT"
fi

# Usage errors: each names the problem on one line and exits 2 before anything is measured.
usage_error unknown_long_option_should_be_named --bogus
usage_error unknown_short_option_should_be_named -x
usage_error messages_0_should_be_rejected --messages 0
usage_error messages_abc_should_be_rejected --messages abc
usage_error messages_1_should_be_rejected --messages 1
usage_error messages_with_a_suffix_should_be_rejected --messages 10k
usage_error messages_above_the_limit_should_be_rejected --messages 100001
usage_error jobs_0_should_be_rejected --jobs 0
usage_error timeout_minus_1_should_be_rejected --timeout -1
usage_error missing_value_should_be_named --messages
usage_error missing_short_value_should_be_named -s
usage_error stray_positional_argument_should_be_rejected --build-dir "$tmp/hand" stray
usage_error baseline_and_baseline_file_should_be_exclusive --baseline x --baseline-file y
usage_error save_baseline_should_need_a_plain_name --save-baseline ../main

usage_error shard_out_of_range_should_be_rejected --shard 3/2

# An unknown option inside a cluster of short options must be named, not argv[0] or a neighbour.
run_gate -xv
if [ "$code" -eq 2 ] && grep -q "^gate: error: unknown option '-x" <<<"$err"; then
  pass "unknown_short_option_in_a_cluster_should_be_named"
else
  fail "unknown_short_option_in_a_cluster_should_be_named: exit $code, stderr: $err"
fi

# Scenarios: an unknown name lists the known ones; a missing manifest says to build.
usage_error unknown_scenario_should_list_the_known_ones --build-dir "$tmp/hand" --scenario nope
usage_error unmatched_glob_should_list_the_known_ones --build-dir "$tmp/hand" -s alpha -s 'x*'
run_gate --build-dir "$build" --scenario nope --json "$tmp/r.json" --raw-dir "$tmp/raw"
known=$(sed -n 's/^scenario \([^ ]*\) .*/\1/p' "$build/scenarios/manifest.txt")
unlisted=""
for name in $known; do
  grep -qE "[ (]$name(,|\))" <<<"$err" || unlisted="$unlisted $name"
done
if [ "$code" -ne 2 ]; then
  fail "unknown_scenario_should_list_every_built_scenario: exit $code ($err)"
elif [ -z "$known" ] || [ -n "$unlisted" ]; then
  fail "unknown_scenario_should_list_every_built_scenario: not listed:${unlisted:- (no manifest)}: $err"
elif [ -e "$tmp/r.json" ] || [ -e "$tmp/raw" ]; then
  fail "unknown_scenario_should_list_every_built_scenario: wrote results or raw files"
else
  pass "unknown_scenario_should_list_every_built_scenario"
fi
usage_error missing_manifest_should_say_how_to_build --build-dir "$tmp/empty"

# Did you mean: the nearest command, option or scenario to a mistyped one, only when it is near.
usage_error unknown_option_should_suggest_the_nearest --mesages 1
usage_error unknown_option_with_a_value_should_suggest_the_nearest --scenarios=alpha
usage_error unknown_command_should_suggest_the_nearest tiem
usage_error unknown_subcommand_option_should_suggest_the_nearest merge --chek-raw x y.json
usage_error unknown_scenario_should_suggest_the_nearest --build-dir "$tmp/hand" --scenario alpah
usage_error far_word_should_suggest_nothing compile
run_gate --build-dir "$build" --scenario consume_jsn --json "$tmp/r.json" --raw-dir "$tmp/raw"
if [ "$code" -eq 2 ] && grep -q "^gate: error: unknown scenario 'consume_jsn': did you mean 'consume_json'? (known: " "$tmp/stderr"; then
  pass "unknown_built_scenario_should_suggest_the_nearest"
else
  fail "unknown_built_scenario_should_suggest_the_nearest: exit $code, stderr: $err"
fi

# gate merge: its own help, and usage errors before any file is read.
run_gate merge --help
if [ "$code" -ne 0 ]; then
  fail "merge_help_should_exit_0: exit $code ($err)"
elif ! difference=$(golden merge_help.stdout "$out"); then
  fail "merge_help_should_equal_the_golden_text: $difference"
else
  pass "merge_help_should_exit_0_and_equal_the_golden_text"
fi
usage_error merge_without_files_should_be_rejected merge
usage_error merge_with_a_missing_file_should_be_an_input_error merge "$tmp/none.json"
# A measuring option is refused by its name, whether its value is separate, attached or short.
for args in "--messages 5" "--messages=5" "-n 5" "--timeout 5" "--shard 1/2"; do
  option=${args%%[ =]*}
  # shellcheck disable=SC2086 # split into the option and its value on purpose
  run_gate merge $args "$tmp/none.json"
  if [ "$code" -eq 2 ] && grep -q "^gate: error: '${option}[ =']" <<<"$err"; then
    pass "merge_should_refuse_a_measuring_option_by_name ($args)"
  else
    fail "merge_should_refuse_a_measuring_option_by_name ($args): exit $code, stderr: $err"
  fi
done

finish
