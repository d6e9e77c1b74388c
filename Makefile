# Arena Studio — the two commands a new user needs: `make run` and `make test`.
PYTHON ?= python3.11
VENV   ?= .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
# make test runs the suite in JOBS processes (pytest-xdist), one test file per process at a time
JOBS   ?= 2

.PHONY: run test lint typecheck bench docs clean

$(BIN)/python:
	@command -v $(PYTHON) >/dev/null 2>&1 || { echo "make: $(PYTHON) not found; set PYTHON=/path/to/python3.11"; exit 2; }
	$(PYTHON) -m venv $(VENV)

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	@touch $(STAMP)

run: $(STAMP)
	$(BIN)/arena-studio arenas/default.yaml

test: $(STAMP)
	QT_QPA_PLATFORM=offscreen $(BIN)/python -m pytest -n $(JOBS) --dist loadfile

typecheck: $(STAMP)
	$(BIN)/mypy

lint: $(STAMP)
	$(BIN)/lint-imports

# the manual (docs/) as a site in site/, as make test's tests/test_docs.py builds it
docs: $(STAMP)
	$(BIN)/mkdocs build --strict

bench: $(STAMP)
	QT_QPA_PLATFORM=offscreen $(BIN)/python bench/travel.py
	QT_QPA_PLATFORM=offscreen $(BIN)/python bench/validate.py
	QT_QPA_PLATFORM=offscreen $(BIN)/python bench/editor_update.py

clean:
	rm -rf $(VENV) build site *.egg-info .pytest_cache .mypy_cache
