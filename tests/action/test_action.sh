#!/usr/bin/env bash
# The action's steps, run as GitHub runs them: tools/action.sh (what every run step of action.yml
# calls) with RUNNER_TEMP and the GITHUB_OUTPUT, GITHUB_ENV and GITHUB_STEP_SUMMARY files in a
# temporary directory. It builds and installs costgate for real (then once more, as a cache
# restore would find it), builds examples/querystring in a temporary git repository whose branch
# is master with the environment the install step wrote, and gates it: the outputs exit-code,
# verdict and results for a pass and for a regression; a COSTGATE_GATE, a PATH and a
# LD_PRELOAD planted by the build are ignored; a gate binary overwritten after the install is
# refused (exit 3) and never run. Then the verify mode decides again from the check's results and
# raw files, and refuses forged ones.
# Usage: test_action.sh COSTGATE_SOURCE_DIR
# shellcheck source=tests/lib.sh
source "$(dirname "$0")/../lib.sh"

if [ $# -ne 1 ]; then
  echo "usage: $0 COSTGATE_SOURCE_DIR" >&2
  exit 2
fi
source_dir=$(realpath -- "$1") || exit 2
action=$source_dir/tools/action.sh
messages=200
git_fixed
unset CFLAGS LDFLAGS CMAKE_PREFIX_PATH PKG_CONFIG_PATH COSTGATE_GATE

work_dir action
repo=$work/repo

# The runner: its temporary directory and the files GitHub reads after each step.
export RUNNER_TEMP=$work/runner GITHUB_ACTION_PATH=$source_dir GITHUB_ACTIONS=true
mkdir -p "$RUNNER_TEMP"
export GITHUB_ENV=$work/github_env GITHUB_STEP_SUMMARY=$work/step_summary
: >"$GITHUB_ENV"

# step NAME [VAR=VALUE...]: runs `tools/action.sh NAME` as a step: a fresh GITHUB_OUTPUT, the
# variables earlier steps wrote to GITHUB_ENV, then the step's own env; sets $code, and $log
# holds its stdout and stderr.
log=$work/step.log
step() {
  local name=$1
  shift
  export GITHUB_OUTPUT=$work/output.$name
  : >"$GITHUB_OUTPUT"
  (
    while IFS= read -r line; do
      [ -n "$line" ] && export "${line?}"
    done <"$GITHUB_ENV"
    exec env "$@" "$action" "$name"
  ) >"$log" 2>&1
  code=$?
}

# out NAME: the value of output NAME of the last step.
out() { sed -n "s/^$1=//p" "$GITHUB_OUTPUT" | tail -n 1; }

# expect NAME CODE: the last step exited CODE; else its log is shown.
expect() {
  if [ "$code" -ne "$2" ]; then
    fail "$1: exit $code, expected $2"
    show "$log"
    return 1
  fi
}

# --- install: keys, packages, a real build of gate, then the same step finding it cached --------
step keys
expect keys_should_exit_0 0 &&
  if [[ $(out apt-key) =~ ^costgate-apt-[a-z0-9._-]+-[0-9a-f]{16}$ ]] &&
    [[ $(out gate-key) =~ ^costgate-gate-[a-z0-9._-]+-[0-9a-f]{40}$ ]] &&
    [ "$(out gate-dir)" = "$RUNNER_TEMP/costgate" ]; then
    pass "keys_should_name_the_packages_and_gate_by_its_source"
  else
    fail "keys_should_name_the_packages_and_gate_by_its_source"
    show "$GITHUB_OUTPUT"
  fi

step deps
if expect deps_should_exit_0 0; then
  if [[ $(out downloaded) =~ ^(true|false)$ ]]; then
    pass "deps_should_install_what_is_missing_and_say_whether_it_downloaded"
  else
    fail "deps_should_install_what_is_missing_and_say_whether_it_downloaded: '$(out downloaded)'"
  fi
fi

step install
if ! expect install_should_build_gate 0; then
  finish
  exit
fi
gate=$(out gate) sha=$(out sha256) script_sha=$(out script-sha256)
if [ "$gate" = "$RUNNER_TEMP/costgate/bin/gate" ] && [ -x "$gate" ] &&
  [ "$sha" = "$(sha256sum "$gate" | cut -d' ' -f1)" ] &&
  grep -qx "CMAKE_PREFIX_PATH=$RUNNER_TEMP/costgate" "$GITHUB_ENV"; then
  pass "install_should_output_gate_and_its_sha256_and_set_the_prefix"
else
  fail "install_should_output_gate_and_its_sha256_and_set_the_prefix: gate '$gate' sha '$sha'"
  show "$GITHUB_OUTPUT"
  show "$GITHUB_ENV"
fi
installed=$RUNNER_TEMP/costgate/share
if [ -s "$installed/bash-completion/completions/gate" ] &&
  MANWIDTH=80 man -l "$installed/man/man1/gate.1" 2>&1 | grep -q -- '--messages N'; then
  pass "install_should_put_the_man_page_and_the_completion_under_the_prefix"
else
  fail "install_should_put_the_man_page_and_the_completion_under_the_prefix"
  find "$installed" | show /dev/stdin
fi
step install
expect install_from_the_cache_should_exit_0 0 &&
  if grep -q "gate from the cache" "$log" && [ "$(out sha256)" = "$sha" ]; then
    pass "install_should_reuse_a_restored_build_of_the_same_source"
  else
    fail "install_should_reuse_a_restored_build_of_the_same_source"
    show "$log"
  fi
: >"$GITHUB_ENV"
printf 'CMAKE_PREFIX_PATH=%s\n' "$RUNNER_TEMP/costgate" >>"$GITHUB_ENV"

# --- the project: examples/querystring alone, on master ------------------------------------------
new_repo() {
  mkdir -p "$repo" && cp -R "$source_dir/examples/querystring/." "$repo/" && rm -rf "$repo/build" &&
    printf 'build/\n' >"$repo/.gitignore" && git -C "$repo" init -q -b master &&
    git -C "$repo" config user.name "costgate action" &&
    git -C "$repo" config user.email "action@costgate.invalid" &&
    git -C "$repo" config commit.gpgsign false &&
    git -C "$repo" add -A && git -C "$repo" commit -q -m "querystring"
}
if ! new_repo; then
  setup_fail "cannot make the repository"
fi

build_command='cmake -S . -B build && cmake --build build -j 2'
step build BUILD_COMMAND="$build_command" WORKING_DIRECTORY="$repo"
expect build_should_find_costgate_through_the_prefix_it_was_given 0 || { finish; exit; }

gate_step() {
  step gate COSTGATE_GATE_SHA256="$sha" WORKING_DIRECTORY="$repo" MESSAGES="$messages" "$@"
}

# The Gate step's own lines in action.yml (its run: block), which check this script's SHA-256
# before running it; run with /bin/bash as its shell: line says, from an action directory that
# holds a copy of the script.
awk '/^    - name: Gate$/ { step = 1 } step && /^      run: \|$/ { block = 1; next }
  block && /^    - name:/ { exit } block { sub(/^        /, ""); print }' "$source_dir/action.yml" \
  >"$work/gate-step.sh"
mkdir -p "$work/action/tools" && cp "$action" "$work/action/tools/action.sh"
yml_gate_step() {
  export GITHUB_OUTPUT=$work/output.yml
  : >"$GITHUB_OUTPUT"
  (
    while IFS= read -r line; do
      [ -n "$line" ] && export "${line?}"
    done <"$GITHUB_ENV"
    exec env GITHUB_ACTION_PATH="$work/action" MODE=check COSTGATE_GATE_SHA256="$sha" \
      COSTGATE_SCRIPT_SHA256="$script_sha" WORKING_DIRECTORY="$repo" MESSAGES="$messages" "$@" \
      /bin/bash --noprofile --norc -eo pipefail "$work/gate-step.sh"
  ) >"$log" 2>&1
  code=$?
}

# The baseline of master, saved through `args`, and committed there.
: >"$GITHUB_STEP_SUMMARY"
gate_step BASELINE= ARGS="--save-baseline master -j 2"
if expect save_baseline_through_args 0 && [ -s "$repo/baselines/master.json" ]; then
  git -C "$repo" add baselines && git -C "$repo" commit -q -m "baseline of master"
  pass "args_should_reach_gate"
else
  fail "args_should_reach_gate: no baselines/master.json"
  finish
  exit
fi
base_sha=$(git -C "$repo" rev-parse HEAD)

# A pull request's head, unchanged, against master at its base commit: a pass.
git -C "$repo" checkout -q -b topic
printf '\n' >>"$repo/README.md" && git -C "$repo" commit -q -am "a change that costs nothing"
head_sha=$(git -C "$repo" rev-parse HEAD)
: >"$GITHUB_STEP_SUMMARY"
gate_step BASELINE=master BASE_COMMIT="$base_sha" ARGS="-j 2" PR_NUMBER=7
check_dir=$(out dir)
if expect unchanged_head_should_pass 0 && [ "$(out exit-code)" = 0 ] &&
  [ "$(out verdict)" = "pass: 2 scenarios within their limits" ] &&
  [ "$(out results)" = "$repo/build/gate/results.json" ] && [ -s "$repo/build/gate/results.json" ] &&
  [ "$(cat "$check_dir/pr-number")" = 7 ] && grep -q "find_param" "$GITHUB_STEP_SUMMARY"; then
  pass "outputs_should_say_exit_code_verdict_and_results"
else
  fail "outputs_should_say_exit_code_verdict_and_results"
  show "$GITHUB_OUTPUT"
fi
cp -R "$check_dir" "$work/artifact"

# The action's defaults on a pull request: no messages (the baseline's N, 200) and --vary-n, each
# scenario at its own N from 201 to 400: an unchanged head passes.
gate_step BASELINE=master BASE_COMMIT="$base_sha" ARGS="-j 2" MESSAGES= VARY_N=true \
  EVENT_NAME=pull_request
results=$(out results)
if expect defaults_on_a_pull_request_should_pass 0 &&
  python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
ns = [c["messages"] for c in d["code"]]
sys.exit(not (d["costgate"]["vary_n"]["lowest"] == 201 and d["costgate"]["vary_n"]["highest"] == 400
              and all(201 <= n <= 400 for n in ns)))' "$results"; then
  pass "defaults_should_measure_above_the_baseline_n_with_vary_n"
else
  fail "defaults_should_measure_above_the_baseline_n_with_vary_n"
  show "$log"
fi

# What a build step can leave for the gate step: COSTGATE_GATE, a PATH with its own valgrind and
# git first, LD_PRELOAD. None of them runs.
planted=$work/planted
mkdir -p "$planted"
for program in fake-gate valgrind git sha256sum; do
  printf '#!/bin/sh\ntouch "%s/ran.%s"\necho "pass: planted"\nexit 0\n' "$planted" "$program" \
    >"$planted/$program"
  chmod +x "$planted/$program"
done
printf 'COSTGATE_GATE=%s\nPATH=%s:%s\n' "$planted/fake-gate" "$planted" "$PATH" >>"$GITHUB_ENV"
yml_gate_step BASELINE=master BASE_COMMIT="$base_sha" ARGS="-j 2" LD_PRELOAD="$planted/nothing.so"
if grep -qF "/usr/bin/sha256sum" "$work/gate-step.sh" &&
  expect planted_environment_should_be_ignored 0 &&
  [ "$(out verdict)" = "pass: 2 scenarios within their limits" ] &&
  ! compgen -G "$planted/ran.*" >/dev/null && grep -q "ignoring COSTGATE_GATE='$planted/fake-gate'" "$log"; then
  pass "planted_costgate_gate_path_and_preload_should_be_ignored"
else
  fail "planted_costgate_gate_path_and_preload_should_be_ignored: $(find "$planted" -name 'ran.*')"
  show "$log"
fi
: >"$GITHUB_ENV"
printf 'CMAKE_PREFIX_PATH=%s\n' "$RUNNER_TEMP/costgate" >>"$GITHUB_ENV"

# A build step that rewrites the action's own step script: the Gate step refuses it (exit 3).
printf '#!/bin/bash\necho "pass: rewritten"\nexit 0\n' >"$work/action/tools/action.sh"
yml_gate_step BASELINE=master BASE_COMMIT="$base_sha"
if expect rewritten_step_script_should_exit_3 3 && [ "$(out exit-code)" = 3 ] &&
  grep -q "is not the script the install step hashed" "$log" && ! grep -q "rewritten" "$log"; then
  pass "rewritten_step_script_should_be_refused_and_not_run"
else
  fail "rewritten_step_script_should_be_refused_and_not_run"
  show "$log"
fi

# A build step that overwrites the gate binary: refused, exit 3, and the binary never runs.
cp "$gate" "$work/gate.saved"
cp "$planted/fake-gate" "$gate"
gate_step BASELINE=master BASE_COMMIT="$base_sha"
if expect overwritten_gate_should_exit_3 3 && [ "$(out exit-code)" = 3 ] &&
  grep -q "is not the gate this action built: its SHA-256 is" "$log" &&
  [ ! -e "$planted/ran.fake-gate" ]; then
  pass "overwritten_gate_binary_should_be_refused_and_not_run"
else
  fail "overwritten_gate_binary_should_be_refused_and_not_run"
  show "$log"
fi
cp "$work/gate.saved" "$gate"

# A dearer head: exit 1 and the verdict line names the scenario.
sed -i 's|^\t(void)service;$|\t(void)service;\n\t{ volatile unsigned spin = 0; unsigned k; for (k = 0; k < 400; k++) spin += k; }|' \
  "$repo/scenarios/find_param.c"
grep -q 'volatile unsigned spin' "$repo/scenarios/find_param.c" ||
  fail "setup: find_param.c has no '(void)service;' line to make dearer"
git -C "$repo" commit -q -am "find_param spins"
step build BUILD_COMMAND="$build_command" WORKING_DIRECTORY="$repo"
expect dearer_build 0
gate_step BASELINE=master BASE_COMMIT="$base_sha" ARGS="-j 2"
if expect dearer_head_should_fail 1 && [ "$(out exit-code)" = 1 ] &&
  [[ $(out verdict) == "fail: 1 regressed (find_param)" ]]; then
  pass "regression_should_set_exit_code_1_and_the_verdict_line"
else
  fail "regression_should_set_exit_code_1_and_the_verdict_line: '$(out verdict)'"
  show "$log"
fi

# --- verify: the unchanged head's artifact decided again, then forged ---------------------------
verify_step() {
  step verify COSTGATE_GATE_SHA256="$sha" BASE_CHECKOUT="$repo" BASE_SHA="$base_sha" \
    HEAD_SHA="$head_sha" BASE_BRANCH=master "$@"
}
verify_step ARTIFACT_DIR="$work/artifact"
if expect verify_should_pass_the_unchanged_head 0 && [ "$(out exit-code)" = 0 ] &&
  [ "$(out verdict)" = "pass: 2 scenarios within their limits" ] &&
  grep -qx README.md "$(out changed)" && [ -s "$(out markdown)" ]; then
  pass "verify_should_decide_again_from_the_raw_files"
else
  fail "verify_should_decide_again_from_the_raw_files"
  show "$GITHUB_OUTPUT"
fi
# The base commit's checkout as actions/checkout leaves it: only the base branch, so the head
# is fetched from the pull request's ref on origin.
git -C "$repo" update-ref refs/pull/7/head "$head_sha"
git clone -q --no-local --single-branch --branch master "$repo" "$work/base-checkout" &&
  git -C "$work/base-checkout" checkout -q "$base_sha"
if git -C "$work/base-checkout" cat-file -e "$head_sha^{commit}" 2>/dev/null; then
  fail "setup: the base checkout already has the head commit"
fi
verify_step ARTIFACT_DIR="$work/artifact" BASE_CHECKOUT="$work/base-checkout" PR_NUMBER=7
if expect verify_should_fetch_the_head_from_the_pull_request_s_ref 0; then
  if [ "$(git -C "$work/base-checkout" rev-parse -q --verify refs/costgate/head)" = "$head_sha" ]; then
    pass "verify_should_fetch_the_head_from_the_pull_request_s_ref"
  else
    fail "verify_should_fetch_the_head_from_the_pull_request_s_ref: no refs/costgate/head"
  fi
fi
git -C "$repo" update-ref refs/pull/7/head "$base_sha"
verify_step ARTIFACT_DIR="$work/artifact" BASE_CHECKOUT="$work/base-checkout" PR_NUMBER=7 \
  HEAD_SHA=0123456789abcdef0123456789abcdef01234567
if expect verify_should_refuse_a_head_that_moved 2; then
  if grep -q "is no longer" "$log"; then
    pass "verify_should_refuse_a_pull_request_whose_head_moved"
  else
    fail "verify_should_refuse_a_pull_request_whose_head_moved"
    show "$log"
  fi
fi

cp -R "$work/artifact" "$work/forged"
# find_param's instructions lowered by 100 a message, consistently, as a forger would.
python3 - "$work/forged/results.json" "$messages" <<'PY'
import json, sys
path, n = sys.argv[1], int(sys.argv[2])
document = json.load(open(path))
for entry in document["code"]:
    if entry["name"] == "find_param":
        counts = entry["counts"]["instructions"]
        counts[2] -= 100 * n
        entry["framework"]["instructions"] = (counts[2] - counts[1]) / n
        entry["metrics"]["instructions"]["per_message"] = (counts[2] - counts[1]) / n
json.dump(document, open(path, "w"), indent="\t")
PY
verify_step ARTIFACT_DIR="$work/forged"
if expect verify_should_refuse_forged_results 3; then
  if [ "$(out exit-code)" = 3 ] && grep -q "disagree with the raw files" "$log"; then
    pass "verify_should_refuse_results_that_disagree_with_their_raw_files"
  else
    fail "verify_should_refuse_results_that_disagree_with_their_raw_files"
    show "$log"
  fi
fi

# --- the comment's warning: which changed files it names ---------------------------------------
if command -v node >/dev/null 2>&1; then
  # shellcheck disable=SC2016 # JavaScript, not shell
  if node -e '
    const v = require(process.argv[1]);
    const named = ["CMakeLists.txt", "src/lib/CMakeLists.txt", "cmake/flags.cmake", "Makefile",
      "lib/GNUmakefile", "rules.mk", "meson.build", "sub/meson.build", "meson_options.txt",
      "configure.ac", "tools/bench.sh", "scripts/gen.py", ".github/workflows/ci.yml",
      "action.yml", "scenarios/harness.c", "include/costgate/harness.h", "gate/core/verdict.c",
      "baselines/accepted.json", "baselines/release/2.x.json"];
    const quiet = ["querystring.c", "README.md", "scenarios/find_param.c", "docs/baselines.md"];
    const got = v.sensitiveFiles(named.concat(quiet));
    const missing = named.filter((f) => !got.includes(f));
    const extra = got.filter((f) => !named.includes(f));
    const text = v.warning(["sub/CMakeLists.txt", "a`b.cmake"]);
    if (missing.length || extra.length || !text.includes("`sub/CMakeLists.txt`") || !text.includes("`a?b.cmake`")) {
      console.log("missing", missing, "extra", extra, text); process.exit(1);
    }' "$source_dir/tools/verified.js" >"$log" 2>&1; then
    pass "comment_warning_should_name_build_files_scripts_workflows_harness_and_gate"
  else
    fail "comment_warning_should_name_build_files_scripts_workflows_harness_and_gate"
    show "$log"
  fi
else
  skip "comment_warning_should_name_build_files_scripts_workflows_harness_and_gate: no node"
fi

finish
