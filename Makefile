# Pyramide — the two commands a new user needs are `make play` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: play test bench replay-examples install clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(STAMP): $(BIN)/python pyproject.toml
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

install: $(STAMP)

play: $(STAMP)
	$(BIN)/pyramide deal -o my-game.yaml --force
	$(BIN)/pyramide play my-game.yaml

test: $(STAMP)
	$(BIN)/python -m coverage erase
	$(BIN)/python -m coverage run -m pytest
	$(BIN)/python -m coverage report --fail-under=90
	$(MAKE) --no-print-directory replay-examples

replay-examples: $(STAMP)
	@for f in examples/*.yaml; do \
		[ -e "$$f" ] || continue; \
		echo "replay $$f"; \
		$(BIN)/pyramide replay "$$f" || exit 1; \
	done

bench: $(STAMP)
	@for f in bench/bench_*.py; do \
		echo "== $$f"; \
		$(BIN)/python "$$f" || exit 1; \
	done

clean:
	rm -rf $(VENV) .coverage htmlcov .pytest_cache .hypothesis
