#!/usr/bin/env bash
# Checks what no compiler checks: every workflow file and action.yml against the GitHub Actions
# schemas (with @action-validator/cli from npm, installed into a cache directory on first use),
# the action's JavaScript with node --check, every shell script with shellcheck, and gate/'s C
# against .clang-format.
set -euo pipefail
cd "$(dirname "$0")/.."

validator_dir=${COSTGATE_TOOLS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/costgate-tools}
validator="$validator_dir/node_modules/.bin/action-validator"
if [ ! -x "$validator" ]; then
  mkdir -p "$validator_dir"
  npm install --prefix "$validator_dir" --no-audit --no-fund --silent \
    @action-validator/cli@0.6.0 @action-validator/core@0.6.0
fi

status=0
# action-validator tells an action from a workflow by its file name.
for workflow in .github/workflows/*.yml action.yml; do
  if "$validator" "$workflow" >/dev/null; then
    echo "ok   workflow $workflow"
  else
    "$validator" "$workflow" || true
    echo "FAIL workflow $workflow"
    status=1
  fi
done

# The JavaScript the action's github-script steps load (tools/verified.js): it must parse.
mapfile -t javascript < <(git ls-files '*.js')
for file in "${javascript[@]}"; do
  if node --check "$file"; then
    echo "ok   javascript $file"
  else
    echo "FAIL javascript $file"
    status=1
  fi
done

# In batches, as many at once as there are processors; any batch that fails fails the step.
mapfile -t scripts < <(git ls-files '*.sh' .ci/run)
if printf '%s\0' "${scripts[@]}" | xargs -0 -n 12 -P "$(nproc)" shellcheck -x; then
  echo "ok   shellcheck (${#scripts[@]} scripts)"
else
  echo "FAIL shellcheck"
  status=1
fi
# The C lines a change adds or alters in gate/, against .clang-format (docs/development.md,
# "Conventions"): the lines since COSTGATE_FORMAT_BASE, else since the branch left main (a pull
# request's own lines; on main itself none). What was written before the format is left as it is.
# Another clang-format than Debian 12's formats some lines otherwise, so it is said, not checked.
format_base=${COSTGATE_FORMAT_BASE:-$(git merge-base HEAD refs/remotes/origin/main 2>/dev/null ||
  git merge-base HEAD refs/heads/main 2>/dev/null || git rev-parse HEAD)}
if ! command -v clang-format-diff >/dev/null 2>&1 || ! command -v clang-format >/dev/null 2>&1; then
  echo "FAIL format: no clang-format (tools/install-deps.sh --tests installs it)"
  status=1
elif ! clang-format --version | grep -q 'version 14\.'; then
  echo "skip format: $(clang-format --version) is not clang-format 14, which .clang-format is checked with"
else
  changes=$(git diff -U0 --no-color "$format_base" -- 'gate/*.c' 'gate/*.h')
  lines=$(grep -c '^+[^+]' <<<"$changes" || true)
  misformatted=$(clang-format-diff -p1 <<<"$changes")
  if [ -z "$misformatted" ]; then
    echo "ok   format ($lines lines of gate/ changed since ${format_base:0:12})"
  else
    head -60 <<<"$misformatted"
    echo "FAIL format: those lines of gate/ are not as .clang-format writes them" \
      "(git diff -U0 ${format_base:0:12} -- gate | clang-format-diff -p1 -i)"
    status=1
  fi
fi
exit "$status"
