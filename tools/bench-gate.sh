#!/usr/bin/env bash
# Times gate built from a git ref against the gate of this tree, interleaved in one run, on the
# same scenario executables, and prints the ratio of their wall times and how many valgrind
# processes each started. The counts both measure must be equal, or it fails: a faster gate that
# counts otherwise is not faster. When the two gates count by different methods (the fingerprint's
# method differs), the figures are compared instead: allocations equal, and how far the
# instructions per message and cold are apart, with --within PCT as the bound.
set -euo pipefail

usage() {
  cat <<'EOF'
usage: tools/bench-gate.sh [options]
Builds gate from REF in a temporary worktree, then runs it and this tree's gate in turn
(ref, this, this, ref, ...) on this tree's build, as `make bench` measures (without a baseline
unless --baseline; each side's results file kept from round to round), and prints each run's wall and CPU time and valgrind processes,
the medians and the ratio this / ref.

  --ref REF          the gate to compare with (default: main)
  --rounds R         runs of each gate (default 3)
  --messages N       deliveries, as gate --messages (default 1000)
  --jobs J           valgrind runs at once, as gate -j (default 2)
  --build-dir DIR    this tree's build, with its scenarios (default build)
  --scenario NAME    measure only NAME (may repeat), as gate --scenario
  --max-ratio X      exit 1 when the ratio is above X
  --within PCT       when the methods differ: exit 1 when an instruction figure is further
                     than PCT percent from the ref's (default: report only)
  --baseline         both gates with --baseline=main --baseline-optional, as `make bench`
                     runs (the baseline's figures order the runs); a gate that finds the
                     baseline not comparable measures main again, which its time then holds
  -h, --help         this text

Exit codes: 0 measured (and within --max-ratio), 1 the counts differ or the ratio is above
--max-ratio, 2 usage error or a gate that cannot be built or run.
EOF
}

die() { echo "bench-gate: error: $*" >&2; exit 2; }

ref=main rounds=3 messages=1000 jobs=2 build=build max_ratio='' within=''
scenarios=() baseline=()
while [ $# -gt 0 ]; do
  case $1 in
    --ref) [ $# -ge 2 ] || die "--ref needs a value"; ref=$2; shift 2 ;;
    --rounds) [ $# -ge 2 ] || die "--rounds needs a value"; rounds=$2; shift 2 ;;
    --messages) [ $# -ge 2 ] || die "--messages needs a value"; messages=$2; shift 2 ;;
    --jobs) [ $# -ge 2 ] || die "--jobs needs a value"; jobs=$2; shift 2 ;;
    --build-dir) [ $# -ge 2 ] || die "--build-dir needs a value"; build=$2; shift 2 ;;
    --scenario) [ $# -ge 2 ] || die "--scenario needs a value"; scenarios+=(--scenario "$2"); shift 2 ;;
    --max-ratio) [ $# -ge 2 ] || die "--max-ratio needs a value"; max_ratio=$2; shift 2 ;;
    --within) [ $# -ge 2 ] || die "--within needs a value"; within=$2; shift 2 ;;
    --baseline) baseline=(--baseline=main --baseline-optional); shift ;;
    -h|--help) usage; exit 0 ;;
    *) usage >&2; die "unknown option '$1'" ;;
  esac
done
[[ $rounds =~ ^[1-9][0-9]?$ ]] || die "--rounds must be 1 to 99, not '$rounds'"
[[ $messages =~ ^[1-9][0-9]*$ ]] || die "--messages must be a positive integer, not '$messages'"
[[ $jobs =~ ^[1-9][0-9]*$ ]] || die "--jobs must be a positive integer, not '$jobs'"
[ -z "$max_ratio" ] || [[ $max_ratio =~ ^[0-9]+(\.[0-9]+)?$ ]] ||
  die "--max-ratio must be a number, not '$max_ratio'"
[ -z "$within" ] || [[ $within =~ ^[0-9]+(\.[0-9]+)?$ ]] ||
  die "--within must be a number, not '$within'"
command -v python3 >/dev/null || die "python3 is needed to compare the counts"
# Resolved once: through a version manager's shim (pyenv's) each call costs 0.4 s.
python3_interpreter=$(python3 -c 'import sys; print(sys.executable)') ||
  die "python3 does not start"
python3() { "$python3_interpreter" "$@"; }

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
# Ninja where there is one: about 40 % less CPU than Makefiles for a build of gate alone.
generator=()
command -v ninja >/dev/null 2>&1 && generator=(-G Ninja)
cmake -S "$tmp/ref" -B "$tmp/ref-build" "${generator[@]}" -DCOSTGATE_BUILD_TESTS=OFF \
  >"$tmp/configure.log" 2>&1 ||
  die "cannot configure gate at '$ref' (see below)$(echo; tail -20 "$tmp/configure.log")"
cmake --build "$tmp/ref-build" --target gate -j "$jobs" >"$tmp/build.log" 2>&1 ||
  die "cannot build gate at '$ref'$(echo; tail -20 "$tmp/build.log")"
reference="$tmp/ref-build/gate/gate"

# measure SIDE ROUND: one gate run as `make bench` measures; prints "wall user+sys exit
# processes", processes being the valgrind runs it started (one progress line each). Each side
# writes one results file over its rounds, as `make bench` rewrites build/gate/results.json: a
# gate that orders its runs by its last results (without a baseline) finds them from round 2.
measure() {
  local side=$1 round=$2 program status=0
  if [ "$side" = ref ]; then program=$reference; else program=$current; fi
  local out="$tmp/$side.$round"
  local TIMEFORMAT='%R %U %S'
  { time (cd "$root" && "$program" --build-dir "$build" --messages "$messages" -j "$jobs" \
      "${baseline[@]}" "${scenarios[@]}" --json "$tmp/$side.json" --raw-dir "$out.raw" \
      >"$out.log" 2>&1) ; } \
    2>"$out.time" || status=$?
  if [ "$status" -gt 1 ]; then
    echo "bench-gate: error: the $side gate exited with $status:" >&2
    tail -5 "$out.log" >&2
    exit 2
  fi
  read -r wall user system <"$out.time"
  printf '%s %s %s %s\n' "$wall" "$(python3 -c "print($user + $system)")" "$status" \
    "$(grep -cE '^gate: [a-z0-9_]+ [a-z]+ [0-9]+( \(again\))?: ' "$out.log" || true)"
}

echo "round  side  wall s   cpu s   exit  valgrind processes"
for ((round = 1; round <= rounds; round++)); do
  if ((round % 2)); then order=(ref this); else order=(this ref); fi
  for side in "${order[@]}"; do
    read -r wall cpu status processes < <(measure "$side" "$round")
    printf '%5d  %-4s  %7.2f  %7.2f  %4d  %18d\n' "$round" "$side" "$wall" "$cpu" "$status" \
      "$processes"
    echo "$wall $cpu $processes" >>"$tmp/$side.times"
    cp "$tmp/$side.json" "$tmp/$side.last.json"
  done
done

# The counts of every scenario, from each side's last results.json, must be the same; when the
# two gates count by different methods, the figures are compared.
python3 - "$tmp/ref.last.json" "$tmp/this.last.json" "$within" <<'PY' || exit 1
import json, sys
def load(path):
    document = json.load(open(path))
    method = document["costgate"]["fingerprint"].get("method")
    return method, {s["name"]: s for s in document["code"]}
(ref_method, ref), (this_method, this) = load(sys.argv[1]), load(sys.argv[2])
if set(ref) != set(this):
    sys.exit("bench-gate: the two gates measured different scenarios: %s against %s"
             % (sorted(ref), sorted(this)))
if ref_method == this_method:
    for name in sorted(ref):
        a = (ref[name]["counts"]["instructions"], ref[name]["counts"]["allocations"])
        b = (this[name]["counts"]["instructions"], this[name]["counts"]["allocations"])
        if a != b:
            sys.exit("bench-gate: %s: counted %s at the ref, %s here (instructions, allocations "
                     "at 1, N, 2N)" % (name, a, b))
    print("counts: equal in all %d scenarios (instructions and allocations at 1, N and 2N)"
          % len(ref))
    sys.exit(0)
print("method: the ref counts '%s', this '%s'; the figures, ref -> this:" % (ref_method, this_method))
worst, failed = 0.0, False
def figure(entry, metric, key):
    return entry["metrics"][metric][key]
for name in sorted(ref):
    row = []
    for metric in ("instructions", "allocations"):
        for key in ("per_message", "cold"):
            a, b = figure(ref[name], metric, key), figure(this[name], metric, key)
            change = 0.0 if a == b else (b - a) / a * 100 if a else float("inf")
            row.append("%s %s %s -> %s (%+.4f %%)" % (metric, key.replace("_", " "), a, b, change))
            if metric == "instructions":
                worst = max(worst, abs(change))
            elif a != b:
                failed = True
    print("  %s: %s" % (name, "; ".join(row)))
print("instructions: at most %.4f %% apart; allocations: %s"
      % (worst, "equal" if not failed else "DIFFERENT"))
if failed:
    sys.exit("bench-gate: the allocation figures differ")
if sys.argv[3] and worst > float(sys.argv[3]):
    sys.exit("bench-gate: an instruction figure is %.4f %% from the ref's, above --within %s"
             % (worst, sys.argv[3]))
PY

python3 - "$tmp/ref.times" "$tmp/this.times" "$max_ratio" <<'PY'
import statistics, sys
def load(path):
    rows = [line.split() for line in open(path)]
    return [float(r[0]) for r in rows], [float(r[1]) for r in rows], [int(r[2]) for r in rows]
ref_wall, ref_cpu, ref_processes = load(sys.argv[1])
this_wall, this_cpu, this_processes = load(sys.argv[2])
print("valgrind processes a run: ref %d, this %d" % (ref_processes[-1], this_processes[-1]))
ratio = statistics.median(this_wall) / statistics.median(ref_wall)
print("median wall: ref %.2f s, this %.2f s; median cpu: ref %.2f s, this %.2f s"
      % (statistics.median(ref_wall), statistics.median(this_wall),
         statistics.median(ref_cpu), statistics.median(this_cpu)))
print("ratio (this / ref, wall): %.3f" % ratio)
if sys.argv[3] and ratio > float(sys.argv[3]):
    sys.exit("bench-gate: the ratio %.3f is above --max-ratio %s" % (ratio, sys.argv[3]))
PY
