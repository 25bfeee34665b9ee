# Two entry points for a fresh clone: `make run` and `make test` (see README.md).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 5000

.PHONY: run run-lan test test-fast lint system-deps clean translations

# The app and its runtime dependencies, in a virtual environment of the project's own.
$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e .
	touch $@

# What the tests need on top: pytest, hypothesis, Playwright (driving Debian's Chromium), ...
$(VENV)/.installed-test: $(VENV)/.installed
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $@

run: $(VENV)/.installed
	$(BIN)/flask --app scorekeeper run --host $(HOST) --port $(PORT)

# The app for the phones of the home network: every interface (or HOST when given), and
# the address phones open, with a QR code of it, printed on start. Ctrl+C stops it.
run-lan: $(VENV)/.installed
	$(BIN)/flask --app scorekeeper serve-lan --port $(PORT) $(if $(filter-out file,$(origin HOST)),--host $(HOST))

system-deps:
	scripts/install-system-deps

lint: $(VENV)/.installed-test
	$(BIN)/ruff check .
	$(BIN)/mypy
	$(BIN)/mypy --strict --follow-imports=silent scorekeeper/rules

# The whole suite in one run, with a throw-away PostgreSQL server: each database test on
# SQLite and on PostgreSQL, every other test once (README.md, Development). Three workers on
# two cores: a browser test waiting on its page leaves a core idle (10:26 against 11:20).
test: $(VENV)/.installed-test system-deps lint
	scripts/with-postgres $(BIN)/pytest -n 3 --dist loadgroup

# The fast part: no browser, no PostgreSQL (a minute or two).
test-fast: $(VENV)/.installed-test
	$(BIN)/pytest -n 2 --dist loadgroup -m "not browser and not postgres"

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache test-results

# After changing strings: extract them and merge into the four catalogues (then translate,
# with the words of tests/glossary/<language>.toml; tests/test_glossary.py checks them).
translations: $(VENV)/.installed
	$(BIN)/pybabel extract -F babel.cfg -k T -k P:1,2 -k N_ -k _l -k lazy_gettext \
		--no-location --sort-output -o scorekeeper/translations/messages.pot .
	$(BIN)/pybabel update -i scorekeeper/translations/messages.pot -d scorekeeper/translations \
		--no-fuzzy-matching --ignore-obsolete
