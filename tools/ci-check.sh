#!/usr/bin/env bash
# The steps of costgate's pull-request check, in one place: the GitHub workflows call them one
# by one, and `tools/ci-check.sh all` runs the same steps in order on this machine.
#
#   tools/ci-check.sh deps              install what the machine lacks
#   tools/ci-check.sh build             configure and build into build/
#   tools/ci-check.sh gate [K/M]        gate --baseline=main (one shard of M when K/M is given)
#   tools/ci-check.sh merge FILE...     gate merge --baseline=main over shard results, their
#                                       programs compared with this build's (--check-build)
#   tools/ci-check.sh baseline-current  fail when baselines/main.json is not what this tree measures
#   tools/ci-check.sh all               deps, build, gate, then the same as two shards and a merge
#
# Outputs land in build/gate/ (results.json, summary.md, raw/): what the workflow uploads.
# BASE_SHA, when set (the workflows set it to the pull request's base commit), is the commit the
# baseline is read from, instead of the branch main.
set -euo pipefail
cd "$(dirname "$0")/.."

BUILD=${BUILD:-build}
GATE="$BUILD/gate/gate"
OUT="$BUILD/gate"

BASE_SHA=${BASE_SHA:-}
baseline_args=(--baseline=main)
if [ -n "$BASE_SHA" ]; then
  baseline_args+=(--base-commit "$BASE_SHA")
fi

# The commit the baseline is read from must exist locally: the base commit when given, else the
# branch main (gate reads refs/remotes/origin/main, else refs/heads/main, never a tag).
ensure_main_ref() {
  if [ -n "$BASE_SHA" ]; then
    git cat-file -e "$BASE_SHA^{commit}" 2>/dev/null ||
      git fetch --no-tags --depth=1 origin "$BASE_SHA"
  elif ! git show-ref --verify --quiet refs/remotes/origin/main &&
    ! git show-ref --verify --quiet refs/heads/main; then
    git fetch --no-tags --depth=1 origin main:refs/remotes/origin/main
  fi
}

step_deps() {
  tools/install-deps.sh
}

step_build() {
  cmake -S . -B "$BUILD" -DCOSTGATE_WERROR=ON
  cmake --build "$BUILD" -j "$(nproc)"
}

step_gate() {
  local shard=${1:-}
  ensure_main_ref
  mkdir -p "$OUT"
  if [ -n "$shard" ]; then
    local name=${shard/\//-of-}
    "$GATE" --build-dir "$BUILD" "${baseline_args[@]}" --shard "$shard" \
      --json "$OUT/shard-$name.json" --raw-dir "$OUT/raw-$name" --markdown "$OUT/shard-$name.md"
  else
    "$GATE" --build-dir "$BUILD" "${baseline_args[@]}" --json "$OUT/results.json" \
      --raw-dir "$OUT/raw" --markdown "$OUT/summary.md"
  fi
}

# The merge job builds the same sources at the same path (step_build): the programs the shards
# measured must be the programs it built (--check-build compares their SHA-256).
step_merge() {
  ensure_main_ref
  mkdir -p "$OUT"
  "$GATE" merge "${baseline_args[@]}" --check-build "$BUILD" --json "$OUT/results.json" \
    --markdown "$OUT/summary.md" "$@"
}

step_baseline_current() {
  "$GATE" --build-dir "$BUILD" --baseline-file baselines/main.json --exact \
    --json "$OUT/results.json" --raw-dir "$OUT/raw"
}

step_all() {
  step_deps
  step_build
  step_gate
  step_gate 1/2
  step_gate 2/2
  step_merge "$OUT/shard-1-of-2.json" "$OUT/shard-2-of-2.json"
}

command=${1:-}
[ $# -gt 0 ] && shift
case "$command" in
  deps) step_deps ;;
  build) step_build ;;
  gate) step_gate "$@" ;;
  merge) step_merge "$@" ;;
  baseline-current) step_baseline_current ;;
  all) step_all ;;
  *)
    echo "usage: tools/ci-check.sh deps|build|gate [K/M]|merge FILE...|baseline-current|all" >&2
    exit 2
    ;;
esac
