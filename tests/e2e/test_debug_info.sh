#!/usr/bin/env bash
# What the counting runs read of the system's debug files changes no count and no name
# (gate/debugview.h). One scenario is measured three ways:
#   view:   gate's default: symbol-table-only copies of the debug files, in a private mount
#   full:   --full-debug-info: the system's debug files as installed
#   absent: in a mount namespace where /usr/lib/debug is empty (a machine without libc6-dbg)
# The counts are equal in all three; the function names and allocation sites are equal between
# view and full, and a libc-internal function keeps its name when its debug file is installed; the
# environment block says which way the runs went; nothing is left in TMPDIR.
# Usage: test_debug_info.sh GATE BUILD_DIR
# shellcheck source=tests/lib.sh
source "$(dirname "$0")/../lib.sh"
gate=$1 build=$2
setup_gate
selection=(--scenario consume_json --messages 50 --quiet)

tmp=$(temp_dir debug-info) || exit 2
mkdir -p "$tmp/view" "$tmp/full" "$tmp/absent" "$tmp/empty" "$tmp/scratch"

measure() { # measure NAME [gate options...]
  local name=$1
  shift
  TMPDIR="$tmp/scratch" "$gate" --build-dir "$build" "${selection[@]}" "$@" \
    --json "$tmp/$name/results.json" --raw-dir "$tmp/$name/raw" >"$tmp/$name/out" 2>&1
}

status=0
measure view || status=$?
if [ "$status" -eq 0 ]; then
  pass "default_run_should_pass"
else
  fail "default_run_should_pass: exit $status: $(cat "$tmp/view/out")"
fi
status=0
measure full --full-debug-info || status=$?
if [ "$status" -eq 0 ]; then
  pass "full_debug_info_run_should_pass"
else
  fail "full_debug_info_run_should_pass: exit $status: $(cat "$tmp/full/out")"
fi

leftover=$(find "$tmp/scratch" -mindepth 1 | head -3)
if [ -z "$leftover" ]; then
  pass "no_directory_should_be_left_in_tmpdir"
else
  fail "no_directory_should_be_left_in_tmpdir: $leftover"
fi

counts='[(s["name"], s["counts"], s["cold"], s["framework"]) for s in d["code"]]'
names='[(s["name"], [(f["name"], f["exclusive"], f["inclusive"], f["cold_exclusive"]) for f in s["functions"]], [(x["stack"], x["blocks"], x["bytes"]) for x in s["sites"]]) for s in d["code"]]'
view_counts=$(json_value "$tmp/view/results.json" "$counts")
if [ -n "$view_counts" ] && [ "$view_counts" = "$(json_value "$tmp/full/results.json" "$counts")" ]; then
  pass "view_and_full_should_count_the_same"
else
  fail "view_and_full_should_count_the_same: $view_counts against $(json_value "$tmp/full/results.json" "$counts")"
fi
# Sites are compared without the location of libc frames (line numbers exist only in full mode).
strip_lines='import re, sys; print(re.sub(r"\((?:[^()]*\.[ch]|[^()]*\.S):[0-9]+\)", "(...)", sys.stdin.read()))'
view_names=$(json_value "$tmp/view/results.json" "$names" | python3 -c "$strip_lines")
full_names=$(json_value "$tmp/full/results.json" "$names" | python3 -c "$strip_lines")
if [ "$view_names" = "$full_names" ]; then
  pass "view_and_full_should_name_the_same_functions_and_sites"
else
  fail "view_and_full_should_name_the_same_functions_and_sites: $(diff <(echo "$view_names" | tr '(' '\n') <(echo "$full_names" | tr '(' '\n') | head -10)"
fi

full_mode=$(json_value "$tmp/full/results.json" 'd["environment"].get("debug_info")')
if [ "$full_mode" = "full debug files (asked for)" ]; then
  pass "full_mode_should_be_recorded"
else
  fail "full_mode_should_be_recorded: '$full_mode'"
fi

# Where libc's debug file is installed and the system allows a private mount, the view is used
# and libc's internal functions keep their names; else the runs read the files as installed.
libc=$(ldconfig -p | awk '/libc\.so\.6 .*x86-64|libc\.so\.6 .*AArch64/ { print $NF; exit }')
build_id=$(readelf -n "$libc" 2>/dev/null | awk '/Build ID/ { print $3; exit }')
debug_file=/usr/lib/debug/.build-id/${build_id:0:2}/${build_id:2}.debug
view_mode=$(json_value "$tmp/view/results.json" 'd["environment"].get("debug_info")')
if [ -n "$build_id" ] && [ -f "$debug_file" ] && unshare -rm true 2>/dev/null; then
  case $view_mode in
    "symbol tables only ("*" in a private mount namespace)")
      pass "view_mode_should_be_recorded" ;;
    *) fail "view_mode_should_be_recorded: '$view_mode'" ;;
  esac
  internal=$(json_value "$tmp/view/results.json" '[f["name"] for s in d["code"] for f in s["functions"] if f["name"] in ("_int_free", "_int_malloc")]')
  if [ "$internal" != "[]" ]; then
    pass "libc_internal_functions_should_keep_their_names"
  else
    fail "libc_internal_functions_should_keep_their_names: none of _int_free, _int_malloc in $(json_value "$tmp/view/results.json" '[f["name"] for f in d["code"][0]["functions"]][:12]')"
  fi
else
  case $view_mode in
    "full debug files ("*|"as installed (no separate debug files)")
      pass "view_mode_should_say_why_the_files_are_read_whole" ;;
    *) fail "view_mode_should_say_why_the_files_are_read_whole: '$view_mode'" ;;
  esac
fi

# A gate killed with SIGKILL cannot remove its view: the next gate does, and only a dead gate's.
mkdir -p "$tmp/sweep"
sleep 0 &
dead=$!
wait "$dead"
mkdir -p "$tmp/sweep/gate-debug.$dead.abcdef/.build-id/00" "$tmp/sweep/gate-debug.$$.abcdef"
touch "$tmp/sweep/gate-debug.$dead.abcdef/.build-id/00/11.debug"
TMPDIR="$tmp/sweep" "$gate" --build-dir "$build" "${selection[@]}" \
  --json "$tmp/sweep/results.json" --raw-dir "$tmp/sweep/raw" >"$tmp/sweep/out" 2>&1
if [ "$view_mode" = "${view_mode#symbol tables only}" ]; then
  echo "note: no view is made here; the sweep of dead gates' views is not run"
elif [ -e "$tmp/sweep/gate-debug.$dead.abcdef" ]; then
  fail "a_dead_gates_view_should_be_removed: $(ls "$tmp/sweep")"
elif [ ! -d "$tmp/sweep/gate-debug.$$.abcdef" ]; then
  fail "a_live_gates_view_should_be_kept: gate-debug.$$.abcdef was removed"
else
  pass "a_dead_gates_view_should_be_removed_and_a_live_ones_kept"
fi

# Interrupted (Ctrl-C, a cancelled job): the view's directory goes with gate.
mkdir -p "$tmp/interrupted"
TMPDIR="$tmp/interrupted" "$gate" --build-dir "$build" --scenario consume_json --messages 2000 \
  --quiet --json "$tmp/interrupted/results.json" --raw-dir "$tmp/interrupted/raw" \
  >/dev/null 2>&1 &
pid=$!
for _ in $(seq 1 100); do
  compgen -G "$tmp/interrupted/gate-debug.*" >/dev/null && break
  sleep 0.05
done
made=$(compgen -G "$tmp/interrupted/gate-debug.*" | head -1)
kill -INT "$pid" 2>/dev/null
wait "$pid"
status=$?
if [ -z "$made" ] && [ "$view_mode" != "${view_mode#symbol tables only}" ]; then
  fail "interrupted_gate_should_remove_its_view: no view directory appeared while it ran"
elif compgen -G "$tmp/interrupted/gate-debug.*" >/dev/null; then
  fail "interrupted_gate_should_remove_its_view: $(ls "$tmp/interrupted")"
elif [ "$status" -ne 130 ]; then
  fail "interrupted_gate_should_remove_its_view: exit $status, not 130 (SIGINT)"
else
  pass "interrupted_gate_should_remove_its_view"
fi

# A machine without the debug files: gate itself runs where /usr/lib/debug is empty.
if unshare -rm true 2>/dev/null; then
  status=0
  # shellcheck disable=SC2016 # expanded by the inner sh, not here
  TMPDIR="$tmp/scratch" unshare -rm sh -c 'mount --bind "$1" /usr/lib/debug && shift && exec "$@"' \
    sh "$tmp/empty" "$gate" --build-dir "$build" "${selection[@]}" \
    --json "$tmp/absent/results.json" --raw-dir "$tmp/absent/raw" >"$tmp/absent/out" 2>&1 ||
    status=$?
  if [ "$status" -eq 0 ] && [ "$(json_value "$tmp/absent/results.json" "$counts")" = "$view_counts" ]; then
    pass "without_debug_files_the_counts_should_be_the_same"
  else
    fail "without_debug_files_the_counts_should_be_the_same: exit $status: $(cat "$tmp/absent/out")"
  fi
  absent_mode=$(json_value "$tmp/absent/results.json" 'd["environment"].get("debug_info")' 2>/dev/null)
  if [ "$absent_mode" = "as installed (no separate debug files)" ]; then
    pass "without_debug_files_the_mode_should_say_so"
  else
    fail "without_debug_files_the_mode_should_say_so: '$absent_mode'"
  fi
else
  echo "note: this system allows no private mount namespace; the case without debug files is not run"
fi

finish
