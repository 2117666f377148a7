# Two commands for a newcomer:  `make run`  (the whole service on embedded defaults)
#                               `make test` (install everything the tests need, then run them)
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test install bench clean

$(STAMP): pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

# Web + worker (with embedded beat) + local mail sink, SQLite and the embedded SQLite broker.
# honcho hands each Procfile process its own PORT (web the base, the worker +100...), so the
# emailed links' BASE_URL is fixed here from the base port, once, for every process.
run: $(STAMP)
	$(BIN)/flask --app service db-upgrade
	BASE_URL="$${BASE_URL:-http://127.0.0.1:$${PORT:-5000}}" PATH="$(CURDIR)/$(BIN):$$PATH" $(BIN)/honcho start

# Debian's Chromium is what the browser tests drive (Playwright never downloads a browser here).
# Two xdist workers: the suite (engines + service end-to-end games) stays well under 15 minutes
# on 2 cores.  PYTEST_WORKERS=0 runs it in one process.
PYTEST_WORKERS ?= 2
test: $(STAMP)
	@command -v chromium >/dev/null 2>&1 || (apt-get update -qq && apt-get install -y -qq chromium >/dev/null)
	$(BIN)/python -m pytest -n $(PYTEST_WORKERS) $(PYTEST_ARGS)

bench: $(STAMP)
	for b in bench/*.py; do $(BIN)/python $$b; done

clean:
	rm -rf $(VENV) instance .pytest_cache
