# costgate-makefile: make baseline, make bench (gate prints these commands in this tree only)
# For people: `make`, `make test`, `make bench [N]`, `make bench-wall`, `make baseline`. The build
# itself is CMake; this file only installs what is missing, configures build/ once, and runs the
# right command.

BUILD ?= build
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
# One test more than processors: some tests wait more than they compute (a hang that must reach
# its 60 s deadline, builds, git), and a processor stands idle beside them. On this 2-core
# machine the sanitized suite took 0.89 x the wall time at 3 tests at once as at 2.
TEST_JOBS ?= $(shell echo $$(($(JOBS) + 1)))

# `make bench 5000`: the word after `bench` is the message count, not a target.
ifeq (bench,$(firstword $(MAKECMDGOALS)))
  BENCH_MESSAGES := $(word 2,$(MAKECMDGOALS))
  ifneq ($(BENCH_MESSAGES),)
    $(eval $(BENCH_MESSAGES):;@:)
  endif
endif
BENCH_MESSAGES ?=
N ?= $(if $(BENCH_MESSAGES),$(BENCH_MESSAGES),1000)

.PHONY: all deps configure test bench bench-wall bench-gate baseline clean

all: configure
	cmake --build $(BUILD) -j $(JOBS)

deps:
	@tools/install-deps.sh --quiet

# Ninja where there is one (tools/install-deps.sh --tests brings it): this build takes about a
# quarter less wall than with Makefiles. A build keeps the generator it was first configured with.
GENERATOR := $(if $(shell command -v ninja 2>/dev/null),-G Ninja)
configure: deps
	@test -f $(BUILD)/CMakeCache.txt || cmake -S . -B $(BUILD) $(GENERATOR)

test: all
	@tools/install-deps.sh --quiet --tests
	cd $(BUILD) && ctest --output-on-failure -j $(TEST_JOBS)

# Compares with baselines/main.json as committed on the branch main (refs/remotes/origin/main,
# else refs/heads/main; never a tag); when there is none
# yet, gate says so and checks the declared allocation floors only.
bench: all
	$(BUILD)/gate/gate --build-dir $(BUILD) --messages $(N) --baseline=main --baseline-optional

# Wall clock against the raw loops (informational, never gated) into the scenarios section of
# results.json, then the results page beside it (build/gate/results.html), with the history of
# baselines/main.json when the repository has one.
bench-wall: all
	$(BUILD)/gate/gate time --build-dir $(BUILD)
	@if $(BUILD)/gate/gate history --json $(BUILD)/gate/history.json >/dev/null; then \
	  echo "$(BUILD)/gate/gate report $(BUILD)/gate/results.json --history $(BUILD)/gate/history.json"; \
	  $(BUILD)/gate/gate report $(BUILD)/gate/results.json --history $(BUILD)/gate/history.json; \
	else \
	  echo "$(BUILD)/gate/gate report $(BUILD)/gate/results.json"; \
	  $(BUILD)/gate/gate report $(BUILD)/gate/results.json; \
	fi

# gate built from REF (default main) against this tree's, interleaved, as `make bench` runs it:
# `make bench-gate REF=v0.2.0`.
REF ?= main
bench-gate: all
	tools/bench-gate.sh --ref $(REF) --build-dir $(BUILD)

baseline: all
	$(BUILD)/gate/gate --build-dir $(BUILD) --save-baseline main

clean:
	rm -rf $(BUILD)
