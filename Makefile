# The two commands of the README: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
PORT ?= 8000
# What mypy checks, with django-stubs (pyproject.toml [tool.mypy]: the pure parts stricter, what is left out and why).
TYPED := moderator nights votes cards tables

.PHONY: help run test lint clean clean-db lock

help:  ## this list of targets
	@awk 'BEGIN {FS = ":.*## "} /^[a-z][a-z-]*:.*## / {printf "  make %-9s %s\n", $$1, $$2}' $(MAKEFILE_LIST)

# The versions CI tested: requirements/dev.txt is the lock (uv pip compile of pyproject.toml; `make lock` renews it).
$(STAMP): pyproject.toml requirements/dev.txt
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements/dev.txt
	$(PY) -m pip install --quiet --no-deps -e .
	touch $(STAMP)

# After a change of pyproject.toml's dependencies: pin them again (requirements/base.txt: production, the image).
lock: $(STAMP)  ## pin pyproject.toml's dependencies again (requirements/*.txt)
	$(VENV)/bin/uv pip compile pyproject.toml --python-version 3.11 --quiet -o requirements/base.txt
	$(VENV)/bin/uv pip compile pyproject.toml --extra dev --python-version 3.11 --quiet -o requirements/dev.txt

# DEBUG=true: the development server, its dev key, plain HTTP and the demo GM (whose password is published).
run: $(STAMP)  ## install, migrate, load the demo game, serve http://127.0.0.1:8000 (PORT=…) with the phase clock
	DEBUG=true $(PY) manage.py migrate --noinput
	DEBUG=true PORT=$(PORT) $(PY) manage.py demo
	DEBUG=true PORT=$(PORT) $(PY) manage.py runall 127.0.0.1:$(PORT)

# Three worker processes (pytest-xdist) on CI's two cores: with two, the cores were idle half the time, tests waiting for
# a deadline, a restarted Redis or a browser; the third runs while they wait. Each has its own test database,
# redis-server, live server and Chromium, and a worker that runs out of tests takes another's. PYTEST_ARGS naming
# tests (tests/…) runs them in this process unless PYTEST_WORKERS is given too; options alone
# (PYTEST_ARGS=--durations=30) keep the three workers.
PYTEST_WORKERS ?= $(if $(findstring tests/,$(PYTEST_ARGS)),0,3)
test: $(STAMP)  ## run the suite (PYTEST_ARGS=tests/x.py for one file)
	$(PY) -m pytest -n $(PYTEST_WORKERS) --dist worksteal $(PYTEST_ARGS)

lint: $(STAMP)  ## ruff check, ruff format --check, mypy, the layout (import-linter: .importlinter), vulture, complexity, names
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy $(TYPED)
	$(VENV)/bin/lint-imports --no-cache
	$(VENV)/bin/vulture moderator nights votes cards tables bench vulture_whitelist.py --min-confidence 60 \
	  --exclude "*/migrations/*,*/settings.py"
	$(PY) -m bench.complexity --max 15 moderator/parser
	$(PY) -m bench.complexity --max 10 --name forms tables/rules
	$(PY) -m bench.names $(TYPED)

# Caches and the virtualenv; never the games: var/db.sqlite3 is kept (`make clean-db` deletes it after asking).
clean:  ## remove .venv and the caches; your games in var/db.sqlite3 are kept
	rm -rf $(VENV) .pytest_cache .ruff_cache .mypy_cache .hypothesis
	@if [ -d var ]; then find var -mindepth 1 -maxdepth 1 ! -name 'db.sqlite3*' -exec rm -rf {} +; fi
	@if [ -e var/db.sqlite3 ]; then echo "var/db.sqlite3 (your games) is kept; make clean-db deletes it after asking"; fi

clean-db:  ## delete var/db.sqlite3 (every game) after you type yes
	@if [ ! -e var/db.sqlite3 ]; then echo "no var/db.sqlite3"; exit 0; fi; \
	printf 'Delete var/db.sqlite3 and every game in it (make backup first: manage.py backup FILE)? Type yes: '; \
	read answer || answer=; \
	if [ "$$answer" = yes ]; then rm -f var/db.sqlite3 var/db.sqlite3-journal var/db.sqlite3-wal var/db.sqlite3-shm; \
	echo deleted; else echo "kept var/db.sqlite3"; fi
