# The two commands a newcomer needs: `make run` and `make test` (each installs first).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: install browser run test bench lint clean bench-sets bench-check

$(STAMP): pyproject.toml
	test -d $(VENV) || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet torch==2.14.1 torchvision==0.29.1
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

# headless Chromium for the viewer's browser tests: Debian's package, driven by playwright (which downloads no
# browser); elsewhere install Chromium yourself and set MMTSB_CHROMIUM to its executable
browser:
	@command -v chromium >/dev/null 2>&1 || [ -n "$$MMTSB_CHROMIUM" ] || { \
	  command -v apt-get >/dev/null 2>&1 || { echo "no chromium: install it and set MMTSB_CHROMIUM"; exit 1; }; \
	  SUDO=$$([ "$$(id -u)" = 0 ] || echo sudo); \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq chromium chromium-driver; }

run: install
	$(BIN)/mmtsb run

test: install browser
	$(BIN)/python -m pytest -n 2 tests

bench: install
	$(BIN)/python benchmarks/world_snapshot_diff.py
	$(BIN)/python benchmarks/search_ranking.py
	$(BIN)/python benchmarks/seed_cost.py
	$(BIN)/python benchmarks/sandbox_start.py

# the benchmark sets of issue 12 (scenarios/mmtsb_v1*): regenerate and publish them, or check that the committed
# ones regenerate byte for byte (each set is a fresh `mmtsb generate benchmark=<set>` run)
BENCH_SETS := mmtsb_v1 mmtsb_v1_hard mmtsb_v1_text mmtsb_v1_ui

bench-sets: install
	for s in $(BENCH_SETS); do rm -rf outputs/bench/$$s && \
	  $(BIN)/mmtsb generate benchmark=$$s progress=false hydra.run.dir=outputs/bench/$$s || exit 1; done

bench-check: install
	rm -rf outputs/bench-check
	for s in $(BENCH_SETS); do \
	  $(BIN)/mmtsb generate benchmark=$$s progress=false hydra.run.dir=outputs/bench-check/runs/$$s \
	    design.publish=outputs/bench-check/$$s && diff -r scenarios/$$s outputs/bench-check/$$s || exit 1; done
	@echo "bench-check: every set regenerates byte for byte"

lint: install
	$(BIN)/ruff check mmtsb pipelines tests benchmarks scenarios

clean:
	rm -rf $(VENV) outputs/*
