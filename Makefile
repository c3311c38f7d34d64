# Timekeeper — the two commands a new machine needs: `make run` and `make test`.
SHELL := /bin/bash
VENV := .venv
BIN := $(VENV)/bin
PORT ?= 8000
STAMP := $(VENV)/.installed

.PHONY: install run serve test test-fast lint format messages clean bench load lock backup restore

MO := $(patsubst %.po,%.mo,$(wildcard locale/*/LC_MESSAGES/django.po))

install: $(STAMP) $(MO)

# Compiled translations are not committed; rebuilt whenever a .po file changes.
%.mo: %.po $(STAMP)
	$(BIN)/python scripts/sync_messages.py --compile

# Rebuilt only when the lock file (or pyproject) changes, so a second `make install` is instant.
$(STAMP): requirements.lock pyproject.toml
	@py=$$(scripts/find-python.sh) || exit 1; \
	  if [ ! -x $(BIN)/python ]; then echo "Creating $(VENV) with $$py"; "$$py" -m venv $(VENV); fi
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -r requirements.lock
	@touch $(STAMP)

run: install
	PORT=$(PORT) $(BIN)/python scripts/run.py

# For a table or a club: production settings on the local network, HTTP on PORT and HTTPS on
# HTTPS_PORT (8443) with a local CA in var/caddy/ (scripts/serve.py says more).
serve: install
	PORT=$(PORT) $(BIN)/python scripts/serve.py

# A dated backup of the database in var/backups/ (BACKUP_DIR), the newest 14 kept (BACKUP_KEEP).
backup: install
	$(BIN)/python manage.py backup

# make restore FILE=var/backups/timekeeper-….sqlite3 — into an empty database (FORCE=1
# replaces one that holds data), then migrated forward. Stop make run / make serve first.
restore: install
	@if [ -z "$(FILE)" ]; then echo "restore: say which backup, e.g. make restore FILE=var/backups/…" >&2; exit 2; fi
	$(BIN)/python manage.py restore "$(FILE)" $(if $(filter 1 true yes,$(FORCE)),--force)

lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy .

format: install
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

# One pytest per core (at most 4), each with its own test database, var folder and Redis
# database (tests/per_worker.py); a test file stays on one worker, so the module-wide browser
# or server of a file is started once.
test: lint
	$(BIN)/python manage.py makemigrations --check --dry-run -v 1
	TIMEKEEPER_VAR_DIR=$(CURDIR)/var/test $(BIN)/pytest -n auto --maxprocesses 4 --dist loadfile

# The tests a change needs first, in a few minutes: no browser, no live worker, no PostgreSQL
# (tests marked e2e, integration or slow are left out), one pytest-xdist worker per core.
test-fast: install
	$(BIN)/python scripts/test_fast.py

# Refresh the .po files from the code and fill them from locale/src/*.json.
messages: install
	$(BIN)/python scripts/sync_messages.py

bench: install
	$(BIN)/python -m solver.bench_solver
	$(BIN)/python -m solver.core.bench_panel
	$(BIN)/python -m solver.core.bench_panel --exact
	$(BIN)/python -m solver.core.bench_postmortem
	$(BIN)/python -m campaigns.definitions.bench_community
	$(BIN)/python scripts/bench_live.py
	$(BIN)/python -m campaigns.statistics.bench_statistics
	$(BIN)/python -m campaigns.history.bench_import --attempts 2000
	$(BIN)/python -m solver.bench_what_if
	$(BIN)/python scripts/bench_first_hint.py
	$(BIN)/python scripts/bench_plan_book.py
	@if [[ "$$DATABASE_URL" == postgres* && "$$CELERY_BROKER_URL" == redis* ]]; then \
	  $(BIN)/python scripts/topology.py; \
	else echo "topology: skipped (needs DATABASE_URL on PostgreSQL, CELERY_BROKER_URL on Redis)"; fi

# An evening peak (locust) against the production topology on PostgreSQL + Redis; see
# scripts/load.py. LOAD_ARGS="--tables 80 --duration 120" or "--steps 25,50,100" (capacity).
load: install
	nice -n 10 $(BIN)/python scripts/load.py $(LOAD_ARGS)

# Re-pin every dependency (needs network): the full lock for .venv, the production lock for images.
lock: install
	$(BIN)/python -m pip install --quiet uv==0.13.9
	$(BIN)/uv pip compile pyproject.toml --extra dev --python-version 3.12 -o requirements.lock -q
	$(BIN)/uv pip compile pyproject.toml --python-version 3.12 -o requirements-prod.lock -q

clean:
	rm -rf $(VENV) var .mypy_cache .pytest_cache .ruff_cache
