VENV ?= .venv
PY = $(VENV)/bin/python

.PHONY: setup run test lint bench

$(VENV)/bin/python:
	python3 -m venv $(VENV)

setup: $(VENV)/bin/python
	$(PY) -m pip install -q -e '.[test]'

run: setup
	$(PY) -m alembic upgrade head
	$(PY) -m app.serve --host 127.0.0.1 --port 8000

test: setup
	$(PY) -m pytest

lint: setup
	$(VENV)/bin/ruff check app tests bench
	$(VENV)/bin/mypy --strict app

bench: setup
	$(PY) bench/engine.py
	$(PY) bench/analysis.py
	$(PY) bench/bots.py --games 2
