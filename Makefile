# Timekeeper — the two commands a new machine needs: `make run` and `make test`.
SHELL := /bin/bash
VENV := .venv
BIN := $(VENV)/bin
PORT ?= 8000
STAMP := $(VENV)/.installed
# The solver's numba kernels, built at install, not during the first evening: compiled once
# into numba's cache (__pycache__ beside each kernel's source, numba's default), which every
# process of this checkout then loads — make run, make serve, the worker, the commands and
# the tests — with no setting to forget. (The Docker image sets NUMBA_CACHE_DIR: /app is
# read-only there.) Rebuilt when the solver's core changes; the stamp lives in the cache's
# own directory, so clearing the caches clears it too.
KERNELS := solver/core/__pycache__/kernels.warm

.PHONY: install run serve test test-fast lint format messages clean bench load lock backup restore

MO := $(patsubst %.po,%.mo,$(wildcard locale/*/LC_MESSAGES/django.po))

install: $(STAMP) $(MO) $(KERNELS)

# Compiled translations are not committed; rebuilt whenever a .po file changes.
%.mo: %.po $(STAMP)
	$(BIN)/python scripts/sync_messages.py --compile

# Rebuilt only when the lock file (or pyproject) changes, so a second `make install` is instant.
$(STAMP): requirements.lock pyproject.toml
	@py=$$(scripts/find-python.sh) || exit 1; \
	  if [ ! -x $(BIN)/python ]; then echo "Creating $(VENV) with $$py"; "$$py" -m venv $(VENV); fi
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -r requirements.lock
	@touch $(STAMP)

$(KERNELS): $(STAMP) $(wildcard solver/core/*.py solver/core/*/*.py)
	$(BIN)/python -m solver.core.warm
	@mkdir -p $(dir $(KERNELS)) && touch $(KERNELS)

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
# replaces one that holds data, kept first in var/backups/), then migrated forward. Stop make
# run / make serve first. A refusal is one line and exit code 2: the command runs while make
# expands the recipe, and its refusal becomes make's own error line (a failing recipe line
# would print make's "*** … Error 2" after the command's words). What it says on success
# goes to the terminal as it runs.
restore: install
	$(if $(FILE),,$(error restore: say which backup, e.g. make restore FILE=var/backups/…))
	$(eval RESTORE_REFUSAL := $(shell { { $(BIN)/python manage.py restore "$(FILE)" \
	  $(if $(filter 1 true yes,$(FORCE)),--force) 2>&1 1>&3 3>&-; } 3>&2; }))
	$(if $(filter-out 0,$(.SHELLSTATUS)),$(error $(filter-out CommandError:,$(RESTORE_REFUSAL))))
	@:

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
	$(BIN)/python -m bench.bench_compile
	$(BIN)/python -m bench.bench_solver
	$(BIN)/python -m bench.bench_panel
	$(BIN)/python -m bench.bench_panel --exact
	$(BIN)/python -m bench.bench_table_rate
	$(BIN)/python -m bench.bench_postmortem
	$(BIN)/python -m bench.bench_community
	$(BIN)/python bench/bench_live.py
	$(BIN)/python -m bench.bench_poll
	$(BIN)/python -m bench.bench_statistics
	$(BIN)/python -m bench.bench_import --attempts 2000
	$(BIN)/python -m bench.bench_what_if
	$(BIN)/python bench/bench_first_hint.py
	$(BIN)/python bench/bench_plan_book.py
	@if [[ "$$DATABASE_URL" == postgres* && "$$CELERY_BROKER_URL" == redis* ]]; then \
	  $(BIN)/python scripts/topology.py && $(BIN)/python bench/bench_killed_worker.py; \
	else echo "topology, bench_killed_worker: skipped (needs DATABASE_URL on PostgreSQL, CELERY_BROKER_URL on Redis)"; fi

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
