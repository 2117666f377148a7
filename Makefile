# Two commands for a newcomer:  `make run`  (the whole service on embedded defaults)
#                               `make test` (install everything the tests need, then run them)
# Installs come from the lock files in requirements/ (pip-tools; `make lock` refreshes them).
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
RUN_STAMP := $(VENV)/.installed-run
DEV_STAMP := $(VENV)/.installed-dev

.PHONY: run test test-fast lint install bench lock clean i18n-extract i18n-update i18n-compile

# The gettext catalogs (issue #26, docs/i18n.md): the .po files are the source, kept in the repository;
# each .mo is compiled from its .po here (not committed), before anything that runs the app.
CATALOGS := service/translations
POT := $(CATALOGS)/messages.pot
# The games' own domains (docs/i18n.md "Game messages"): one per game whose engine speaks in messages.
GAME_DOMAINS := riftwalker riftforce beyond_the_rift
PO := $(wildcard $(CATALOGS)/*/LC_MESSAGES/*.po)
MO := $(PO:.po=.mo)

$(VENV)/bin/python:
	$(PY) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip

$(RUN_STAMP): requirements/run.txt pyproject.toml | $(VENV)/bin/python
	$(BIN)/pip install --quiet -r requirements/run.txt
	$(BIN)/pip install --quiet --no-deps -e .
	touch $@

$(DEV_STAMP): requirements/dev.txt pyproject.toml | $(VENV)/bin/python
	$(BIN)/pip install --quiet -r requirements/dev.txt
	$(BIN)/pip install --quiet --no-deps -e .
	touch $@ $(RUN_STAMP)

install: $(DEV_STAMP) $(MO)

# Web + worker + beat + local mail sink, SQLite and the embedded SQLite broker.
# honcho hands each Procfile process its own PORT (web the base, the worker +100...), so the
# emailed links' BASE_URL is fixed here from the base port, once, for every process.
run: $(RUN_STAMP) $(MO)
	$(BIN)/flask --app service db-upgrade
	BASE_URL="$${BASE_URL:-http://127.0.0.1:$${PORT:-5000}}" PATH="$(CURDIR)/$(BIN):$$PATH" $(BIN)/honcho start

# The layer contracts (import-linter), ruff and mypy, configured in pyproject.toml.
lint: $(DEV_STAMP) $(MO)
	$(BIN)/lint-imports
	$(BIN)/ruff check .
	$(BIN)/mypy
	$(BIN)/python tools/check_catalogs.py

# Debian's Chromium is what the browser tests drive (Playwright never downloads a browser here).
# Two xdist workers: the suite (engines + service end-to-end games) stays well under 15 minutes
# on 2 cores.  PYTEST_WORKERS=0 runs it in one process.  The lint runs first: a broken layer
# contract fails the build like a failing test.
PYTEST_WORKERS ?= 2
# Debian's SpamAssassin (spamd and spamc) scores every email in tests/service/test_email_wire.py.
test: $(DEV_STAMP) $(MO) lint
	@command -v chromium >/dev/null 2>&1 || (apt-get update -qq && apt-get install -y -qq chromium >/dev/null)
	@(command -v spamd && command -v spamc) >/dev/null 2>&1 || (apt-get update -qq && apt-get install -y -qq spamassassin spamd spamc >/dev/null)
	@# Two lanes at once: the drills (real waits: outages, leases, locks; marker `drill`) in one process
	@# of their own beside the rest on $(PYTEST_WORKERS) workers; they mostly wait, so they cost the
	@# other lane little CPU.  Their own Redis databases (base + 7); the build fails if either lane does.
	@set -u; drills=$$(mktemp); \
	RIFTPOST_TEST_REDIS_DB_BASE=$$(( $${RIFTPOST_TEST_REDIS_DB_BASE:-0} + 7 )) \
	  $(BIN)/python -m pytest -p no:cacheprovider -m drill $(PYTEST_ARGS) >"$$drills" 2>&1 & pid=$$!; \
	$(BIN)/python -m pytest -n $(PYTEST_WORKERS) -m "not drill" $(PYTEST_ARGS); rest=$$?; \
	wait $$pid; drill=$$?; echo "---- the drill lane (pytest -m drill) ----"; cat "$$drills"; rm -f "$$drills"; \
	test $$rest -eq 0 && { test $$drill -eq 0 || test $$drill -eq 5; }  # 5: the selection held no drill

# The quick loop while working: no slow playouts or end-to-end games, no browser.
test-fast: $(DEV_STAMP) $(MO)
	$(BIN)/python -m pytest -n $(PYTEST_WORKERS) -m "not slow and not browser" $(PYTEST_ARGS)

bench: $(DEV_STAMP)
	for b in bench/*.py; do $(BIN)/python $$b; done

# A catalog's compiled form, whenever its .po changed (Babel is a run dependency, so the run venv has pybabel).
$(CATALOGS)/%.mo: $(CATALOGS)/%.po | $(RUN_STAMP)
	$(BIN)/pybabel compile -l $(word 1,$(subst /, ,$*)) -i $< -o $@

i18n-compile: $(MO)

# Every message of the code and the templates into the template catalog (the .pot, committed: the lint
# compares it with the code), then into each language's .po (new entries come untranslated: the lint
# fails until they are translated).
# The games' templates (<domain>.pot) are written from their English catalogs by tools/game_catalogs.py.
i18n-extract: $(RUN_STAMP)
	$(BIN)/pybabel extract -F babel.cfg --no-location --sort-output --omit-header -k N_ -k Nf_ -k Nn_:1,2 -o $(POT) .
	$(BIN)/python tools/game_catalogs.py

i18n-update: i18n-extract
	$(BIN)/pybabel update -i $(POT) -d $(CATALOGS) --ignore-obsolete --width 100
	for domain in $(GAME_DOMAINS); do \
	  $(BIN)/pybabel update -D $$domain -i $(CATALOGS)/$$domain.pot -d $(CATALOGS) --ignore-obsolete --width 100; done

# Refresh the lock files after changing the dependencies in pyproject.toml.
lock: | $(VENV)/bin/python
	$(BIN)/pip install --quiet pip-tools
	$(BIN)/pip-compile -q --strip-extras --no-emit-index-url --no-emit-find-links --extra local -o requirements/run.txt pyproject.toml
	$(BIN)/pip-compile -q --allow-unsafe --strip-extras --no-emit-index-url --no-emit-find-links --extra dev -o requirements/dev.txt pyproject.toml

clean:
	rm -rf $(VENV) instance .pytest_cache .mypy_cache .ruff_cache
