# `make run` runs the table (mock hardware by default); `make test` runs the whole suite.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test soak bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/companion simulate secret_hitler --seats 7 --games 200 --seed 1

test: $(STAMP)
	@bash scripts/install-test-deps.sh
	$(BIN)/python -m pytest -q

soak: $(STAMP)
	@bash scripts/install-test-deps.sh
	$(BIN)/python -m pytest -q -m soak

bench: $(STAMP)
	$(BIN)/companion bench

clean:
	rm -rf $(VENV) build *.egg-info
