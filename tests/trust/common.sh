# Shared by the trust tests (sourced, not run): tests/e2e_baseline/common.sh (the demo repository,
# its builds and run_gate), the repository's place, and what most of the hostile changes start
# from. The sourcing script is called as: SCRIPT GATE COSTGATE_SOURCE_DIR
# shellcheck shell=bash

# shellcheck source=tests/e2e_baseline/common.sh
source "$(dirname "$0")/../e2e_baseline/common.sh"

repo=$work/repo

# dearer BRANCH: a new branch BRANCH from main on which `work` is about 3 % dearer per message
# (2,060 steps of its loop for 2,000), not yet committed.
dearer() { git -C "$repo" checkout -q -b "$1" main && set_iterations "$repo" 2060; }
