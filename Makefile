# Two commands on a fresh machine: `make demo` and `make test`.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
# axe-core (the accessibility check the browser tests run inside each page), from npm
AXE    := $(VENV)/npm/node_modules/axe-core/axe.min.js
AXE_VERSION := 4.10.3
# pytest-xdist's workers: one more than the CPUs, as many tests wait on a server, a
# subprocess or an fsync (on 2 cores: 3 workers, 202 s against 250 s with 2)
WORKERS ?= $(shell echo $$(( $$(nproc 2>/dev/null || echo 1) + 1 )))

.PHONY: demo test bench lint clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test]'
	$(BIN)/python -m gametape.catalogues compile
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/gametape demo

$(AXE):
	@if command -v npm >/dev/null; then \
		npm install --silent --no-audit --no-fund --prefix $(VENV)/npm axe-core@$(AXE_VERSION); \
	else \
		echo "npm not found: the browser tests' accessibility check is skipped (.ci/run installs npm)"; \
	fi

test: $(STAMP) $(AXE)
	$(BIN)/ruff check gametape tests bench
	$(BIN)/ruff format --check gametape tests bench
	$(BIN)/mypy gametape tests/plugins
	@# on every CPU (pytest-xdist, WORKERS; a file's tests on one worker, in order), then the tests
	@# that drive Chromium on their own: a page's timing is what they measure. Each run names
	@# its 20 slowest tests and what each buys (tests/conftest.py).
	$(BIN)/pytest -n $(WORKERS) --dist loadfile -m "not browser"
	$(BIN)/pytest -m browser

bench: $(STAMP)
	$(BIN)/python -m bench

lint: $(STAMP)
	$(BIN)/ruff check gametape tests bench
	$(BIN)/ruff format --check gametape tests bench

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis .ruff_cache
