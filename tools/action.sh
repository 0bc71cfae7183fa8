#!/usr/bin/env bash
# The steps of the costgate action (action.yml), one subcommand each, so that the action and its
# test run the same code. Every step reads its inputs from the environment the action gives it
# and writes GitHub's files (GITHUB_OUTPUT, GITHUB_ENV); gate itself appends to
# GITHUB_STEP_SUMMARY.
#
#   tools/action.sh keys      the cache keys: Debian packages, and gate by its source
#   tools/action.sh deps      install the Debian packages gate needs (downloads kept for the cache)
#   tools/action.sh install   build gate from this checkout into RUNNER_TEMP/costgate, unless the
#                             cache restored that build; outputs its path and its SHA-256, and
#                             this script's (the gate step checks both before running them)
#   tools/action.sh build     the project's build command, in the working directory
#   tools/action.sh gate      run gate: outputs exit-code, verdict, results
#   tools/action.sh verify    decide again from a check's uploaded results and raw files
#
# The project's build runs between `install` and `gate`, with the pull request's code: it may
# write GITHUB_ENV, GITHUB_PATH or the gate binary itself. So `gate` finds gate from RUNNER_TEMP
# (which GITHUB_ENV cannot set), never from COSTGATE_GATE or PATH, checks its SHA-256 against the
# one `install` output, and runs it with a system PATH and no preloads.
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
system_path=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin

die() {
  echo "costgate: error: $*" >&2
  exit "${exit_code:-2}"
}

need() {
  local name
  for name in "$@"; do
    [ -n "${!name:-}" ] || die "$name is not set (the action sets it)"
  done
}

# output NAME VALUE: one line of GITHUB_OUTPUT (values here never hold a newline).
output() {
  case $2 in *$'\n'*) die "output $1 holds a newline" ;; esac
  printf '%s=%s\n' "$1" "$2" >>"$GITHUB_OUTPUT"
}

prefix() { printf '%s/costgate' "$RUNNER_TEMP"; }

# The identity of the machine gate is built for: distribution, release and architecture.
machine() {
  local id=unknown version=unknown
  if [ -r /etc/os-release ]; then
    # shellcheck source=/dev/null
    id=$(. /etc/os-release && printf '%s' "${ID:-unknown}")
    # shellcheck source=/dev/null
    version=$(. /etc/os-release && printf '%s' "${VERSION_ID:-unknown}")
  fi
  printf '%s-%s-%s' "$id" "$version" "$(uname -m)"
}

# What gate is built from: every file of the build, gate and the harness, hashed by content (the
# action's checkout is a copy without git, so this stands for the commit it was pinned at).
source_hash() {
  (cd "$here" && find CMakeLists.txt cmake gate scenarios tools/install-deps.sh -type f \
    -print0 | LC_ALL=C sort -z | xargs -0 sha256sum | sha256sum | cut -c1-40)
}

# The project's own Debian packages (the `packages` input), one name a line, sorted.
project_packages() {
  local name
  for name in ${PACKAGES:-}; do printf '%s\n' "$name"; done | LC_ALL=C sort -u
}

step_keys() {
  need GITHUB_OUTPUT RUNNER_TEMP
  local deps_hash
  deps_hash=$({ cat "$here/tools/install-deps.sh"; project_packages; } | sha256sum | cut -c1-16)
  output apt-key "costgate-apt-$(machine)-$deps_hash"
  output apt-dir "$RUNNER_TEMP/costgate-apt"
  output gate-key "costgate-gate-$(machine)-$(source_hash)"
  output gate-dir "$(prefix)"
}

step_deps() {
  need GITHUB_OUTPUT RUNNER_TEMP
  local archives=$RUNNER_TEMP/costgate-apt
  mkdir -p "$archives/partial" || die "cannot make the package cache directory"
  local -a extra
  mapfile -t extra < <(project_packages)
  COSTGATE_APT_ARCHIVES=$archives "$here/tools/install-deps.sh" "${extra[@]}" ||
    die "cannot install the packages"
  if compgen -G "$archives/*.deb" >/dev/null; then
    output downloaded true
  else
    output downloaded false
  fi
}

# The build a cache restored: whole (its stamp names the same source) and runnable.
cached_build_usable() {
  local directory=$1
  [ -x "$directory/bin/gate" ] && [ -f "$directory/share/costgate/source" ] &&
    [ "$(cat "$directory/share/costgate/source")" = "$(source_hash)" ] &&
    "$directory/bin/gate" --version >/dev/null 2>&1
}

step_install() {
  need GITHUB_OUTPUT GITHUB_ENV RUNNER_TEMP
  local directory build sha
  directory=$(prefix)
  build=$RUNNER_TEMP/costgate-build
  if cached_build_usable "$directory"; then
    echo "costgate: gate from the cache, built from source $(source_hash)"
  else
    rm -rf "$directory" "$build"
    cmake -S "$here" -B "$build" -DCOSTGATE_BUILD_TESTS=OFF || die "cannot configure costgate"
    cmake --build "$build" -j "$(nproc)" || die "cannot build costgate"
    cmake --install "$build" --prefix "$directory" || die "cannot install costgate"
    if ! mkdir -p "$directory/share/costgate" || ! source_hash >"$directory/share/costgate/source"; then
      die "cannot write the build's source stamp"
    fi
  fi
  sha=$(sha256sum "$directory/bin/gate" | cut -d' ' -f1) || die "cannot hash the gate binary"
  output gate "$directory/bin/gate"
  output sha256 "$sha"
  output script-sha256 "$(sha256sum "$here/tools/action.sh" | cut -d' ' -f1)"
  printf 'CMAKE_PREFIX_PATH=%s%s\n' "$directory" "${CMAKE_PREFIX_PATH:+:$CMAKE_PREFIX_PATH}" \
    >>"$GITHUB_ENV"
  printf 'PKG_CONFIG_PATH=%s/lib/pkgconfig%s\n' "$directory" \
    "${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}" >>"$GITHUB_ENV"
}

step_build() {
  need BUILD_COMMAND
  cd "${WORKING_DIRECTORY:-.}" || die "cannot enter the working directory '${WORKING_DIRECTORY:-}'"
  exec bash -euo pipefail -c "$BUILD_COMMAND"
}

# What gate and verify run with: the system's programs only, nothing preloaded (a build step can
# put its own directory first on PATH, or LD_PRELOAD, through GITHUB_ENV or GITHUB_PATH).
seal_environment() {
  export PATH=$system_path
  unset LD_PRELOAD LD_LIBRARY_PATH LD_AUDIT BASH_ENV ENV
}

# The gate this action built, found here and checked: never COSTGATE_GATE nor PATH. A binary
# that is not the one built is a measurement failure (exit 3): what would run is not gate.
trusted_gate() {
  local gate actual
  gate=$(prefix)/bin/gate
  exit_code=3
  if [ -n "${COSTGATE_GATE:-}" ] && [ "$COSTGATE_GATE" != "$gate" ]; then
    echo "costgate: warning: ignoring COSTGATE_GATE='$COSTGATE_GATE' from the environment; running $gate" >&2
  fi
  [ -f "$gate" ] || die "no gate at '$gate': the install step did not run"
  [ -n "${COSTGATE_GATE_SHA256:-}" ] || die "no SHA-256 of the gate the install step built"
  actual=$(sha256sum "$gate" | cut -d' ' -f1) || die "cannot hash '$gate'"
  [ "$actual" = "$COSTGATE_GATE_SHA256" ] ||
    die "'$gate' is not the gate this action built: its SHA-256 is $actual, the build's was $COSTGATE_GATE_SHA256 (a step between the install and the gate step replaced it)"
  exit_code=2
  printf '%s' "$gate"
}

meaning() {
  case $1 in
  0) echo "every gated scenario is within its limits" ;;
  1) echo "a regression: a limit or a floor was exceeded" ;;
  2) echo "a usage or input error" ;;
  3) echo "a measurement failure" ;;
  4) echo "no comparable baseline" ;;
  *) echo "gate did not finish" ;;
  esac
}

# verdict STDOUT CODE: gate's verdict line ("pass: ...", "fail: ..."), else the exit code's
# meaning.
verdict() {
  local line
  line=$(grep -E '^(pass|fail): ' "$1" 2>/dev/null | tail -n 1 | cut -c1-300)
  [ -n "$line" ] || line="exit $2: $(meaning "$2")"
  printf '%s' "$line"
}

step_gate() {
  need GITHUB_OUTPUT RUNNER_TEMP
  local gate out results code=0 stdout
  local -a baseline=() extra=()
  seal_environment
  if ! gate=$(trusted_gate); then
    code=3
    output exit-code "$code"
    output verdict "exit $code: the gate binary is not the one this action built"
    exit "$code"
  fi
  cd "${WORKING_DIRECTORY:-.}" || die "cannot enter the working directory '${WORKING_DIRECTORY:-}'"
  results=${RESULTS:-build/gate/results.json}
  out=$(dirname "$results")
  mkdir -p "$out" || die "cannot make '$out'"
  out=$(cd "$out" && pwd)
  results=$out/$(basename "$results")
  if [ -n "${BASELINE:-}" ]; then
    baseline=(--baseline="$BASELINE")
    [ -z "${BASE_COMMIT:-}" ] || baseline+=(--base-commit "$BASE_COMMIT")
  fi
  # `args`: more options, split at white space (no quoting, no globbing).
  read -r -a extra <<<"${ARGS:-}"
  [ -z "${PR_NUMBER:-}" ] || printf '%s\n' "$PR_NUMBER" >"$out/pr-number"
  output dir "$out"
  output results "$results"
  stdout=$out/stdout.txt
  # No messages: gate measures at the baseline's N. A pull request's N is drawn (--vary-n).
  [ -z "${MESSAGES:-}" ] || extra=(--messages "$MESSAGES" "${extra[@]}")
  case "${VARY_N:-true}:${EVENT_NAME:-}" in
  true:pull_request | true:pull_request_target) extra=(--vary-n "${extra[@]}") ;;
  esac
  env -u COSTGATE_GATE "$gate" --build-dir "${BUILD_DIR:-build}" "${baseline[@]}" \
    --json "$results" --markdown "$out/summary.md" --raw-dir "$out/raw" "${extra[@]}" \
    >"$stdout" || code=$?
  cat "$stdout"
  output exit-code "$code"
  output verdict "$(verdict "$stdout" "$code")"
  exit "$code"
}

# verify: in BASE_CHECKOUT (the repository at the base commit), with the check's artifact in
# ARTIFACT_DIR, decide again: gate merge --check-raw against baselines/BASE_BRANCH.json at
# BASE_SHA, with the head's baselines/accepted.json read from git as data. Outputs exit-code,
# verdict, results, and the files holding the Markdown and the changed files' names. The pull
# request's code is never run: its commits are read as data.
step_verify() {
  need GITHUB_OUTPUT RUNNER_TEMP ARTIFACT_DIR BASE_CHECKOUT BASE_SHA HEAD_SHA BASE_BRANCH
  local gate out code=3
  seal_environment
  if ! gate=$(trusted_gate); then
    output exit-code 3
    output verdict "exit 3: the gate binary is not the one this action built"
    exit 3
  fi
  cd "$BASE_CHECKOUT" || die "cannot enter the base commit's checkout '$BASE_CHECKOUT'"
  out=$RUNNER_TEMP/costgate-verify
  mkdir -p "$out" || die "cannot make '$out'"
  # The checkout may belong to another user than the container's: trust it for these commands
  # (and gate's), without writing any git configuration.
  export GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=safe.directory GIT_CONFIG_VALUE_0="$PWD"
  if ! git cat-file -e "$HEAD_SHA^{commit}" 2>/dev/null; then
    [[ ${PR_NUMBER:-} =~ ^[0-9]{1,10}$ ]] || die "the head commit $HEAD_SHA is not here and no pull request number says where it is"
    # The checkout kept no credentials; a private repository's pull request needs the token,
    # given to this one git command through its environment (not an argv).
    (
      if [ -n "${FETCH_TOKEN:-}" ] && [ -n "${GITHUB_SERVER_URL:-}" ]; then
        export GIT_CONFIG_COUNT=2 GIT_CONFIG_KEY_1="http.$GITHUB_SERVER_URL/.extraheader"
        GIT_CONFIG_VALUE_1="AUTHORIZATION: basic $(printf 'x-access-token:%s' "$FETCH_TOKEN" | base64 -w0)"
        export GIT_CONFIG_VALUE_1
      fi
      exec git fetch --no-tags origin "+refs/pull/$PR_NUMBER/head:refs/costgate/head"
    ) ||
      die "cannot fetch pull request #$PR_NUMBER"
    [ "$(git rev-parse refs/costgate/head)" = "$HEAD_SHA" ] ||
      die "pull request #$PR_NUMBER's head is no longer $HEAD_SHA"
  fi
  git diff --name-only "$BASE_SHA...$HEAD_SHA" >"$out/changed.txt" ||
    die "cannot list the files the pull request changes"
  if git cat-file -e "$HEAD_SHA:baselines/accepted.json" 2>/dev/null; then
    git show "$HEAD_SHA:baselines/accepted.json" >"$out/accepted.json" || die "cannot read the acceptances"
  else
    printf '{ "accepted": [] }\n' >"$out/accepted.json"
  fi
  output changed "$out/changed.txt"
  output markdown "$out/verified.md"
  if [ -f "$ARTIFACT_DIR/results.json" ]; then
    code=0
    env -u COSTGATE_GATE "$gate" merge --baseline="$BASE_BRANCH" --base-commit "$BASE_SHA" \
      --accepted "$out/accepted.json" --check-raw "$ARTIFACT_DIR/raw" --json "$out/verified.json" \
      --markdown "$out/verified.md" "$ARTIFACT_DIR/results.json" >"$out/stdout.txt" || code=$?
    cat "$out/stdout.txt"
  else
    printf 'costgate: the check uploaded no results.json; see its run.\n' | tee "$out/verified.md"
    printf 'fail: the check uploaded no results\n' >"$out/stdout.txt"
  fi
  output exit-code "$code"
  output verdict "$(verdict "$out/stdout.txt" "$code")"
  output results "$out/verified.json"
  exit "$code"
}

case ${1:-} in
keys | deps | install | build | gate | verify)
  step=$1
  shift
  [ $# -eq 0 ] || die "unexpected argument '$1'"
  "step_$step"
  ;;
*)
  die "usage: tools/action.sh keys|deps|install|build|gate|verify"
  ;;
esac
