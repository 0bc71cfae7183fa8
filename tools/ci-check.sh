#!/usr/bin/env bash
# The steps of costgate's pull-request check, in one place: the GitHub workflows call them one
# by one, and `tools/ci-check.sh all` runs the same steps in order on this machine.
#
#   tools/ci-check.sh deps              install what the machine lacks
#   tools/ci-check.sh build             configure and build into build/
#   tools/ci-check.sh gate [K/M]        gate --baseline=main (one shard of M when K/M is given)
#   tools/ci-check.sh merge FILE...     gate merge --baseline=main over shard results
#   tools/ci-check.sh baseline-current  fail when baselines/main.json is not what this tree measures
#   tools/ci-check.sh all               deps, build, gate, then the same as two shards and a merge
#
# Outputs land in build/gate/ (results.json, summary.md, raw/): what the workflow uploads.
set -euo pipefail
cd "$(dirname "$0")/.."

BUILD=${BUILD:-build}
GATE="$BUILD/gate/gate"
OUT="$BUILD/gate"

# The target branch's ref must exist locally: gate reads baselines/main.json from it.
ensure_main_ref() {
  if ! git rev-parse --verify --quiet 'main^{commit}' >/dev/null &&
    ! git rev-parse --verify --quiet 'origin/main^{commit}' >/dev/null; then
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
    "$GATE" --build-dir "$BUILD" --baseline=main --shard "$shard" \
      --json "$OUT/shard-$name.json" --raw-dir "$OUT/raw-$name" --markdown "$OUT/shard-$name.md"
  else
    "$GATE" --build-dir "$BUILD" --baseline=main --json "$OUT/results.json" \
      --raw-dir "$OUT/raw" --markdown "$OUT/summary.md"
  fi
}

step_merge() {
  ensure_main_ref
  mkdir -p "$OUT"
  "$GATE" merge --baseline=main --json "$OUT/results.json" --markdown "$OUT/summary.md" "$@"
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
