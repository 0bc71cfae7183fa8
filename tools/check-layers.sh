#!/usr/bin/env bash
# Checks the layers of gate/ (docs/design.md, "Layers of gate/"): every #include "NAME" of a
# file in a layer's directory names a header of that layer or of one before it in GATE_LAYERS
# (gate/CMakeLists.txt), and no two files depend on each other through their headers, directly
# or round a longer loop. The build refuses an upward include too (each layer is a library that
# sees only the directories below it); this names every one at once, and the loops, which the
# build allows inside a layer.
set -euo pipefail

usage() {
  cat <<'EOF'
usage: tools/check-layers.sh [DIR]
Checks the layering of DIR (default: gate/ of this repository): DIR/CMakeLists.txt names the
layers in order (set(GATE_LAYERS ...)), DIR/LAYER/ holds each layer's files.

Prints one line per problem: an upward include, a header no layer has or two layers have, a loop
between files. Exit codes: 0 no problem, 1 problems found, 2 usage error or no layers to read.
EOF
}

case ${1:-} in
  -h | --help) usage; exit 0 ;;
  -*) usage >&2; echo "check-layers: error: unknown option '$1'" >&2; exit 2 ;;
esac
[ $# -le 1 ] || { usage >&2; exit 2; }
root=${1:-$(cd "$(dirname "$0")/.." && pwd)/gate}
lists="$root/CMakeLists.txt"
[ -f "$lists" ] || { echo "check-layers: error: no '$lists'" >&2; exit 2; }
read -r -a layers < <(sed -n 's/^set(GATE_LAYERS \(.*\))$/\1/p' "$lists") || true
[ "${#layers[@]}" -gt 0 ] ||
  { echo "check-layers: error: '$lists' has no line 'set(GATE_LAYERS ...)'" >&2; exit 2; }

export LC_ALL=C
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Each header with its layer's rank: "NAME RANK LAYER".
for rank in "${!layers[@]}"; do
  layer=${layers[$rank]}
  [ -d "$root/$layer" ] || { echo "check-layers: error: no directory '$root/$layer'" >&2; exit 2; }
  for header in "$root/$layer"/*.h; do
    [ -e "$header" ] && echo "${header##*/} $rank $layer"
  done
done | sort >"$work/headers"

# Each include: "FILE LINE RANK LAYER NAME", the including file's layer (one awk a layer).
for rank in "${!layers[@]}"; do
  layer=${layers[$rank]}
  files=("$root/$layer"/*.[ch])
  [ -e "${files[0]}" ] || continue
  awk -v rank="$rank" -v layer="$layer" '
    /^[[:space:]]*#[[:space:]]*include[[:space:]]*"/ {
      name = $0; sub(/^[^"]*"/, "", name); sub(/".*$/, "", name)
      file = FILENAME; sub(/^.*\//, "", file)
      print layer "/" file, FNR, rank, layer, name
    }' "${files[@]}"
done >"$work/includes"

# Each include against the header's owner, in one pass: "headers" first, then "includes".
awk -v order="${layers[*]}" '
  NR == FNR { owners[$1]++; rank[$1] = $2; owner[$1] = $3; next }
  {
    file = $1; line = $2; from = $3; layer = $4; name = $5
    if (!(name in owners)) {
      print file ":" line ": includes \"" name "\", a header no layer has"
    } else if (owners[name] > 1) {
      print file ":" line ": includes \"" name "\", a header of more than one layer"
    } else if (rank[name] > from) {
      split(order, names, " ")
      allowed = names[1]
      for (i = 2; i <= from + 1; i++) allowed = allowed " " names[i]
      print file ":" line ": includes " owner[name] "/" name ": " layer "/ may include only " \
        "its own layer and those before it (" allowed ")"
    }
  }' "$work/headers" "$work/includes" >"$work/upward"

problems=0
report() { echo "$*"; problems=$((problems + 1)); }

while read -r problem; do
  report "$problem"
done <"$work/upward"

# The files' graph: a file (its name without .c or .h) depends on each header it includes that
# is not its own; tsort names a loop when there is one, one loop at a time.
awk '{ from = $1; sub(/^.*\//, "", from); sub(/\.[ch]$/, "", from)
       to = $5; sub(/\.h$/, "", to)
       if (from != to) print from, to }' "$work/includes" | sort -u >"$work/edges"
cp "$work/edges" "$work/left"
while ! tsort "$work/left" >/dev/null 2>"$work/loops"; do
  # tsort writes each loop it finds as a line "...: input contains a loop:" and then its members.
  awk '/input contains a loop:/ { if (loop != "") print loop; loop = ""; next }
       { sub(/^tsort: /, ""); loop = loop (loop == "" ? "" : " ") $0 }
       END { if (loop != "") print loop }' "$work/loops" >"$work/found"
  [ -s "$work/found" ] || { report "a loop between files that tsort did not name"; break; }
  while read -r loop; do
    report "a loop between files: $loop (through their includes)"
  done <"$work/found"
  # Drop the loops' edges and look again, for loops that shared a file with them.
  awk 'NR == FNR { for (i = 1; i <= NF; i++) member[$i] = 1; next }
       !($1 in member && $2 in member)' "$work/found" "$work/left" >"$work/next"
  mv "$work/next" "$work/left"
done

if [ "$problems" -gt 0 ]; then
  echo "check-layers: $problems problems in $root"
  exit 1
fi
echo "check-layers: ${#layers[@]} layers (${layers[*]}), $(wc -l <"$work/includes") includes, no upward include, no loop"
