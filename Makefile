# `make run` runs the table (mock hardware by default); `make test` runs the whole suite.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test soak bench docs clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test]'
	touch $(STAMP)

# The demo table: mock hardware, Secret Hitler; prints the URL and the host PIN. DATA=dir keeps the database there,
# PORT=n serves on that port, HOST=0.0.0.0 listens on the LAN so phones can join (the default is this machine only).
run: $(STAMP)
	$(BIN)/companion run $(if $(DATA),--data $(DATA)) $(if $(PORT),--port $(PORT)) $(if $(HOST),--host $(HOST))

# The suite runs in TEST_JOBS processes, a test file per process at a time (a file's tests share one table).
TEST_JOBS ?= 2
test: $(STAMP)
	@bash scripts/install-test-deps.sh
	$(BIN)/python -m pytest -q -n $(TEST_JOBS) --dist loadfile

soak: $(STAMP)
	@bash scripts/install-test-deps.sh
	$(BIN)/python -m pytest -q -m soak

# The builder's drawings (hardware/drawings/*.svg) from their text sources, and the docs' lists of games (companion/catalogue.py); tests/hal/test_drawings.py fails when a
# drawing and its source disagree, or a drawn pin disagrees with the code's pin map.
docs: $(STAMP)
	@bash scripts/install-test-deps.sh
	$(BIN)/python hardware/drawings/make.py
	$(BIN)/python -m companion.bench.hardware hardware/README.md
	$(BIN)/python -m companion.catalogue

bench: $(STAMP)
	$(BIN)/companion bench

clean:
	rm -rf $(VENV) build *.egg-info
