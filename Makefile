# Pyramide — the two commands a new user needs are `make play` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
TEST_STAMP := $(VENV)/.installed-test

.PHONY: play test lint typecheck bench mutations reliability replay-examples install clean catalogs

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

# The game alone (make play), then the test extras on top (make test; the cluster and gym extras for their tests).
$(STAMP): $(BIN)/python pyproject.toml
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e .
	touch $(STAMP)

$(TEST_STAMP): $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[test,cluster,gym]'
	touch $(TEST_STAMP)

install: $(TEST_STAMP)

# Goes on with my-game.yaml when there is one, else deals it; a finished game there is kept (games
# folder of the data folder, counted in the statistics) and a new deal takes its place.
play: $(STAMP)
	@[ -e my-game.yaml ] || $(BIN)/pyramide deal -o my-game.yaml --quiet
	$(BIN)/pyramide play my-game.yaml --new-if-finished

# Lint and the type check first (seconds), then the suite on every core (pytest-xdist) under coverage: the workers'
# data are combined and must cover 90 % of the lines; the 10 slowest tests are listed at the end.
test: lint typecheck
	$(BIN)/python -m coverage erase
	$(BIN)/python -m coverage run -m pytest -n auto --dist worksteal --durations=10
	$(BIN)/python -m coverage combine --quiet
	$(BIN)/python -m coverage report --fail-under=90
	$(MAKE) --no-print-directory replay-examples

# ruff, configured in pyproject.toml (line length 120, a few rule families); fails on any finding.
lint: $(TEST_STAMP)
	$(BIN)/python -m ruff check .

# Every save in examples/ replays to the outcome and score written beside it (CI regression tests);
# the last line replays the folder as a batch, each save against its own "# pyramide-expect" lines.
# stuck-n.yaml is a save of format 1 (its status says playing, by that format's end rule): read
# today its game is lost, dead since its last removal (docs/cli.md, "Format 1 and its migration").
replay-examples: $(STAMP)
	$(BIN)/pyramide replay examples/r24-worked-example.yaml --expect playing --expect-score 30
	$(BIN)/pyramide replay examples/won-n.yaml --expect won --expect-score 280
	$(BIN)/pyramide replay examples/stuck-n.yaml --expect lost --expect-score 70
	$(BIN)/pyramide replay examples/stuck-n.yaml --expect dead > /dev/null
	$(BIN)/pyramide replay examples/lost-o.yaml --expect lost --expect-score 60
	$(BIN)/pyramide show examples/r24-layout.yaml --ascii > /dev/null
	$(BIN)/pyramide replay examples

# mypy --strict over the public API (pyramide_cli/__init__.py, api.py) and the engine ([tool.mypy] in
# pyproject.toml); fails on any finding.
typecheck: $(TEST_STAMP)
	$(BIN)/python -m mypy

# Every bench runs, even after one fails (a target it reports as not met, or an error); the failed
# ones are listed at the end and the exit status is then 1.
bench: $(TEST_STAMP)
	@failed=""; for f in bench/bench_*.py; do \
		echo "== $$f"; \
		$(BIN)/python "$$f" || failed="$$failed $$f"; \
	done; \
	if [ -n "$$failed" ]; then echo "make bench: failed:$$failed"; exit 1; fi

# Breaks one rule at a time in a copy of the package (the rules kernel, the dead-end test, solver pruning rules)
# and checks that the tests fail; lists the failing tests (bench/mutations.py; a few minutes, not part of make bench).
mutations: $(TEST_STAMP)
	$(BIN)/python bench/mutations.py $(ARGS)

# Adds new messages to the translations (po/*.po) and compiles them (locale/*/LC_MESSAGES/*.mo).
catalogs: $(STAMP)
	$(BIN)/python -m pyramide_cli.i18n.extract

# Kill, concurrency and lock-order figures and the hostile inputs of docs/reliability.md (Linux, a few
# minutes; not part of `make test`).  Options: make reliability ARGS="--kills 300 --fuzz-examples 3000"
reliability: $(TEST_STAMP)
	$(BIN)/python bench/reliability.py $(ARGS)

clean:
	rm -rf $(VENV) .coverage htmlcov .pytest_cache .hypothesis .mypy_cache
