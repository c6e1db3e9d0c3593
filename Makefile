# Two commands on a fresh machine: `make demo` and `make test`.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
COMPILED := $(VENV)/.compiled
# axe-core (the accessibility check the browser tests run inside each page), from npm
AXE    := $(VENV)/npm/node_modules/axe-core/axe.min.js
AXE_VERSION := 4.10.3
# pytest-xdist's workers: one more than the CPUs, as many tests wait on a server, a
# subprocess or an fsync (on 2 cores: 3 workers, 202 s against 250 s with 2)
WORKERS ?= $(shell echo $$(( $$(nproc 2>/dev/null || echo 1) + 1 )))

.PHONY: demo test bench lint clean

$(STAMP): pyproject.toml setup.py
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip 'setuptools>=77'
	$(BIN)/pip install --quiet -e '.[test]'
	$(BIN)/python -m gametape.catalogues compile
	touch $(STAMP) $(COMPILED)

# The compiled modules (setup.py: C, and mypyc from the typed source), built in place beside
# their sources by the install above, and again whenever a source changes. GAMETAPE_PURE=1
# runs the pure-Python build instead (docs/architecture.md, "Compiled where it pays").
$(COMPILED): $(STAMP) gametape/events/_chain.c gametape/games/hanabi/quick.py \
		gametape/games/hanabi/cards.py gametape/games/hanabi/tally.py
	$(BIN)/pip install --quiet --no-build-isolation --no-deps -e .
	touch $(COMPILED)

demo: $(COMPILED)
	$(BIN)/gametape demo

$(AXE):
	@if command -v npm >/dev/null; then \
		npm install --silent --no-audit --no-fund --prefix $(VENV)/npm axe-core@$(AXE_VERSION); \
	else \
		echo "npm not found: the browser tests' accessibility check is skipped (.ci/run installs npm)"; \
	fi

# the differential tests, run again on the pure-Python build (the compiled one ran them above)
DIFFERENTIAL := tests/test_compiled.py tests/test_log.py tests/test_hanabi_quick.py \
	tests/test_index_bulk.py tests/test_differential_hle.py tests/test_hanablive.py

test: $(COMPILED) $(AXE)
	$(BIN)/ruff check gametape tests bench
	$(BIN)/ruff format --check gametape tests bench
	$(BIN)/mypy gametape tests/plugins
	@# on every CPU (pytest-xdist, WORKERS; a file's tests on one worker, in order), then the tests
	@# that drive Chromium on their own: a page's timing is what they measure. Each run names
	@# its 20 slowest tests and what each buys (tests/conftest.py).
	$(BIN)/pytest -n $(WORKERS) --dist loadfile -m "not browser"
	GAMETAPE_PURE=1 $(BIN)/pytest -n $(WORKERS) --dist loadfile $(DIFFERENTIAL)
	$(BIN)/pytest -m browser

bench: $(COMPILED)
	$(BIN)/python -m bench

lint: $(STAMP)
	$(BIN)/ruff check gametape tests bench
	$(BIN)/ruff format --check gametape tests bench

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis .ruff_cache
