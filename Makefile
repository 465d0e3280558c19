# The two commands of the README: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
PORT ?= 8000
# The pure parts (no Django): tests/engine/test_purity.py lists the same.
PURE := moderator/rules nights/resolve.py nights/bodyguard.py nights/arson.py votes/count.py cards/catalogue.py \
	cards/dealing.py cards/orders.py

.PHONY: run test lint bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e ".[dev]"
	touch $(STAMP)

# DEBUG=true: the development server, its dev key, plain HTTP and the demo GM (whose password is published).
run: $(STAMP)
	DEBUG=true $(PY) manage.py migrate --noinput
	DEBUG=true PORT=$(PORT) $(PY) manage.py demo
	DEBUG=true PORT=$(PORT) $(PY) manage.py runall 127.0.0.1:$(PORT)

test: $(STAMP)
	$(PY) -m pytest $(PYTEST_ARGS)

lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy --ignore-missing-imports $(PURE)

clean:
	rm -rf $(VENV) var .pytest_cache .ruff_cache .hypothesis
