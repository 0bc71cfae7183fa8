#!/usr/bin/env bash
# Times gate built from a git ref against the gate of this tree, interleaved in one run, on the
# same scenario executables, and prints the ratio of their wall times. The counts both measure
# must be equal, or it fails: a faster gate that counts otherwise is not faster.
set -euo pipefail

usage() {
  cat <<'EOF'
usage: tools/bench-gate.sh [options]
Builds gate from REF in a temporary worktree, then runs it and this tree's gate in turn
(ref, this, this, ref, ...) on this tree's build, as `make bench` does, and prints each run's
wall and CPU time, the medians and the ratio this / ref.

  --ref REF          the gate to compare with (default: main)
  --rounds R         runs of each gate (default 3)
  --messages N       deliveries, as gate --messages (default 1000)
  --jobs J           valgrind runs at once, as gate -j (default 2)
  --build-dir DIR    this tree's build, with its scenarios (default build)
  --scenario NAME    measure only NAME (may repeat), as gate --scenario
  --max-ratio X      exit 1 when the ratio is above X
  -h, --help         this text

Exit codes: 0 measured (and within --max-ratio), 1 the counts differ or the ratio is above
--max-ratio, 2 usage error or a gate that cannot be built or run.
EOF
}

die() { echo "bench-gate: error: $*" >&2; exit 2; }

ref=main rounds=3 messages=1000 jobs=2 build=build max_ratio=
scenarios=()
while [ $# -gt 0 ]; do
  case $1 in
    --ref) [ $# -ge 2 ] || die "--ref needs a value"; ref=$2; shift 2 ;;
    --rounds) [ $# -ge 2 ] || die "--rounds needs a value"; rounds=$2; shift 2 ;;
    --messages) [ $# -ge 2 ] || die "--messages needs a value"; messages=$2; shift 2 ;;
    --jobs) [ $# -ge 2 ] || die "--jobs needs a value"; jobs=$2; shift 2 ;;
    --build-dir) [ $# -ge 2 ] || die "--build-dir needs a value"; build=$2; shift 2 ;;
    --scenario) [ $# -ge 2 ] || die "--scenario needs a value"; scenarios+=(--scenario "$2"); shift 2 ;;
    --max-ratio) [ $# -ge 2 ] || die "--max-ratio needs a value"; max_ratio=$2; shift 2 ;;
    -h|--help) usage; exit 0 ;;
    *) usage >&2; die "unknown option '$1'" ;;
  esac
done
[[ $rounds =~ ^[1-9][0-9]?$ ]] || die "--rounds must be 1 to 99, not '$rounds'"
[[ $messages =~ ^[1-9][0-9]*$ ]] || die "--messages must be a positive integer, not '$messages'"
[[ $jobs =~ ^[1-9][0-9]*$ ]] || die "--jobs must be a positive integer, not '$jobs'"
[ -z "$max_ratio" ] || [[ $max_ratio =~ ^[0-9]+(\.[0-9]+)?$ ]] ||
  die "--max-ratio must be a number, not '$max_ratio'"
command -v python3 >/dev/null || die "python3 is needed to compare the counts"

root=$(git rev-parse --show-toplevel 2>/dev/null) || die "not in a git repository"
commit=$(git -C "$root" rev-parse --verify --quiet "$ref^{commit}") || die "no commit '$ref'"
build=$(cd "$build" 2>/dev/null && pwd) || die "no build directory '$build' (run make first)"
[ -f "$build/scenarios/manifest.txt" ] || die "no scenarios in '$build' (run make first)"
current="$build/gate/gate"
[ -x "$current" ] || die "no gate at '$current' (run make first)"

tmp=$(mktemp -d)
cleanup() {
  git -C "$root" worktree remove --force "$tmp/ref" >/dev/null 2>&1 || true
  rm -rf "$tmp"
}
trap cleanup EXIT

echo "bench-gate: building gate at $ref (${commit:0:12})"
git -C "$root" worktree add --detach --quiet "$tmp/ref" "$commit" || die "cannot check out '$ref'"
cmake -S "$tmp/ref" -B "$tmp/ref-build" -DCOSTGATE_BUILD_TESTS=OFF >"$tmp/configure.log" 2>&1 ||
  die "cannot configure gate at '$ref' (see below)$(echo; tail -20 "$tmp/configure.log")"
cmake --build "$tmp/ref-build" --target gate -j "$jobs" >"$tmp/build.log" 2>&1 ||
  die "cannot build gate at '$ref'$(echo; tail -20 "$tmp/build.log")"
reference="$tmp/ref-build/gate/gate"

# measure SIDE ROUND: one gate run as `make bench` makes it; prints "wall user+sys exit".
measure() {
  local side=$1 round=$2 program status=0
  if [ "$side" = ref ]; then program=$reference; else program=$current; fi
  local out="$tmp/$side.$round"
  local TIMEFORMAT='%R %U %S'
  { time (cd "$root" && "$program" --build-dir "$build" --messages "$messages" -j "$jobs" \
      --baseline=main --baseline-optional "${scenarios[@]}" --quiet --json "$out.json" \
      --raw-dir "$out.raw" >"$out.log" 2>&1) ; } 2>"$out.time" || status=$?
  if [ "$status" -gt 1 ]; then
    echo "bench-gate: error: the $side gate exited with $status:" >&2
    tail -5 "$out.log" >&2
    exit 2
  fi
  read -r wall user system <"$out.time"
  printf '%s %s %s\n' "$wall" "$(python3 -c "print($user + $system)")" "$status"
}

echo "round  side  wall s   cpu s   exit"
for ((round = 1; round <= rounds; round++)); do
  if ((round % 2)); then order=(ref this); else order=(this ref); fi
  for side in "${order[@]}"; do
    read -r wall cpu status < <(measure "$side" "$round")
    printf '%5d  %-4s  %7.2f  %7.2f  %4d\n' "$round" "$side" "$wall" "$cpu" "$status"
    echo "$wall $cpu" >>"$tmp/$side.times"
    cp "$tmp/$side.$round.json" "$tmp/$side.last.json"
  done
done

# The counts of every scenario, from each side's last results.json, must be the same.
python3 - "$tmp/ref.last.json" "$tmp/this.last.json" <<'PY' || exit 1
import json, sys
def counts(path):
    document = json.load(open(path))
    return {s["name"]: (s["counts"]["instructions"], s["counts"]["allocations"])
            for s in document["code"]}
ref, this = counts(sys.argv[1]), counts(sys.argv[2])
if set(ref) != set(this):
    sys.exit("bench-gate: the two gates measured different scenarios: %s against %s"
             % (sorted(ref), sorted(this)))
for name in sorted(ref):
    if ref[name] != this[name]:
        sys.exit("bench-gate: %s: counted %s at the ref, %s here (instructions, allocations at "
                 "1, N, 2N)" % (name, ref[name], this[name]))
print("counts: equal in all %d scenarios (instructions and allocations at 1, N and 2N)"
      % len(ref))
PY

python3 - "$tmp/ref.times" "$tmp/this.times" "$max_ratio" <<'PY'
import statistics, sys
def load(path):
    rows = [line.split() for line in open(path)]
    return [float(r[0]) for r in rows], [float(r[1]) for r in rows]
ref_wall, ref_cpu = load(sys.argv[1])
this_wall, this_cpu = load(sys.argv[2])
ratio = statistics.median(this_wall) / statistics.median(ref_wall)
print("median wall: ref %.2f s, this %.2f s; median cpu: ref %.2f s, this %.2f s"
      % (statistics.median(ref_wall), statistics.median(this_wall),
         statistics.median(ref_cpu), statistics.median(this_cpu)))
print("ratio (this / ref, wall): %.3f" % ratio)
if sys.argv[3] and ratio > float(sys.argv[3]):
    sys.exit("bench-gate: the ratio %.3f is above --max-ratio %s" % (ratio, sys.argv[3]))
PY
