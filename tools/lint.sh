#!/usr/bin/env bash
# Checks what no compiler checks: every workflow file and action.yml against the GitHub Actions
# schemas (with @action-validator/cli from npm, installed into a cache directory on first use),
# the action's JavaScript with node --check, and every shell script with shellcheck.
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
exit "$status"
