# Two set-up commands: `make run` (serve on 127.0.0.1:8000 with SQLite) and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: run serve worker test test-fast test-postgres lint bench bench-load bench-stream bench-ratings schema install install-dev

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.runtime: requirements.txt | $(BIN)/python
	$(BIN)/pip install --quiet -r requirements.txt
	touch $@

$(VENV)/.dev: requirements.txt requirements-dev.txt | $(BIN)/python
	$(BIN)/pip install --quiet -r requirements-dev.txt
	touch $(VENV)/.runtime $@

install: $(VENV)/.runtime
install-dev: $(VENV)/.dev

# The development server on 127.0.0.1:$(PORT) (PORT=8002 make run, or make run PORT=8002), with
# a worker beside it for the bots' moves and the turns' clocks, and the stream tier on
# 127.0.0.1:$(STREAM_PORT), which the games name as their streams' server (manage.py run; one
# Ctrl-C stops all three).
PORT ?= 8000
STREAM_PORT ?= 8001
run: install
	$(BIN)/python manage.py migrate --noinput
	STREAM_BASE_URL=http://127.0.0.1:$(STREAM_PORT) \
		$(BIN)/python manage.py run 127.0.0.1:$(PORT) --stream-tier 127.0.0.1:$(STREAM_PORT)

# Production server: gunicorn with threaded WSGI workers (skyjo_service/gunicorn.conf.py; the
# docs/PERFORMANCE.md compares them with uvicorn's ASGI and gevent workers), and beside it the
# stream tier (skyjo_service/stream_tier.py: the game streams as coroutines) on STREAM_BIND,
# which the games name to clients as STREAM_BASE_URL (docs/SCALING.md). Settings from the
# environment (at least SECRET_KEY; see docs/OPERATIONS.md). WORKERS (default: one per CPU),
# THREADS (requests at once, 8), LIVE_MAX_STREAMS (1000 per worker, a thread each), BIND.
BIND ?= 127.0.0.1:8000
STREAM_BIND ?= 127.0.0.1:8001
STREAM_BASE_URL ?= http://$(STREAM_BIND)
serve: install
	DEBUG=false $(BIN)/python manage.py migrate --noinput
	DEBUG=false $(BIN)/python manage.py collectstatic --noinput --verbosity 0
	DEBUG=false $(BIN)/python manage.py check --deploy --fail-level WARNING
	DEBUG=false BIND=$(BIND) STREAM_BIND=$(STREAM_BIND) STREAM_BASE_URL=$(STREAM_BASE_URL) \
		$(BIN)/gunicorn --config skyjo_service/gunicorn.conf.py

# A worker for the bots' moves and the turns' clocks, beside `make serve` (run one or more, on
# any host that reaches the database; settings from the environment as for serve).
worker: install
	DEBUG=false $(BIN)/python manage.py worker

test: install-dev
	$(BIN)/python -m pytest

# Engine and API tests without servers, SDK generation or long property runs: under a minute.
test-fast: install-dev
	$(BIN)/python -m pytest -m "not server and not slow"

# The whole suite again on PostgreSQL (this machine kind runs it on 127.0.0.1:5432), but the
# tests that never touch PostgreSQL, which would only run again as `make test` ran them
# (tests/conftest.py): those marked sqlite_only (the browser tests, the benchmarks' smoke runs,
# the servers and commands started on an SQLite file of their own) and no_db (every test that
# opens no database: the engine's, the schema's, the docs' and other pure code's).
POSTGRES_URL ?= postgres://postgres@127.0.0.1:5432/test
test-postgres: install-dev
	$(BIN)/python -c "import psycopg, sys; psycopg.connect('$(POSTGRES_URL)', connect_timeout=5).close()" \
		|| { echo "PostgreSQL is not reachable at $(POSTGRES_URL)" >&2; exit 1; }
	DATABASE_URL=$(POSTGRES_URL) $(BIN)/python -m pytest -m "not sqlite_only and not no_db"

# vulture: dead code, with the paths and ignore lists of pyproject.toml ([tool.vulture]);
# lint-imports: the rooms' import rules (docs/ARCHITECTURE.md), contracts in pyproject.toml.
lint: install-dev
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy
	$(BIN)/vulture
	$(BIN)/lint-imports

bench: install-dev
	$(BIN)/python -m engine.bench

# 32 concurrent games against the production server (docs/PERFORMANCE.md); BENCH_DB=sqlite|postgres
BENCH_DB ?= postgres
bench-load: install-dev
	$(BIN)/python manage.py bench_load --db $(BENCH_DB)

# 1,000 live streams over 50 games against the production server, then actions/s with and
# without them (docs/PERFORMANCE.md); BENCH_DB=sqlite|postgres
bench-stream: install-dev
	$(BIN)/python manage.py bench_stream --db $(BENCH_DB)

# Rating updates a second (the model and the job's full path, 2 and 8 seats) and the delay of
# rating_changed after a rated game's last action (docs/PERFORMANCE.md), in a throwaway
# database of the configured kind (DATABASE_URL=postgres://... for PostgreSQL)
bench-ratings: install-dev
	$(BIN)/python manage.py bench_ratings

schema: install-dev
	$(BIN)/python manage.py spectacular --validate --fail-on-warn --file openapi.yaml
