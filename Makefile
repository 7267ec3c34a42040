# Longhouse: the two commands of the README are `make run` and `make test`.
# Both call `make setup` first; every step of it is safe to run again.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
ARGS ?=
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: setup system venv protos run test bench clean

setup: system venv protos

# The Debian redis-server package, only if the machine lacks it.
system:
	@command -v redis-server >/dev/null 2>&1 || { \
	  echo "setup: installing redis-server"; \
	  $(SUDO) apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends redis-server >/dev/null; }

venv: $(VENV)/.installed
$(VENV)/.installed: pyproject.toml
	@[ -x $(PY) ] || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[dev]'
	@touch $@

protos: services/api/.generated
services/api/.generated: $(wildcard protos/*.proto) $(VENV)/.installed
	$(PY) -m grpc_tools.protoc --proto_path=services/api=protos \
	  --python_out=. --grpc_python_out=. --pyi_out=. $(patsubst protos/%,services/api/%,$(wildcard protos/*.proto))
	@touch $@

run: setup
	$(PY) -m services.launcher $(ARGS)

test: setup
	$(PY) -m pytest -q $(TEST_ARGS)

bench: setup
	$(PY) -m services.bench $(ARGS)

clean:
	rm -rf services/api/*_pb2*.py services/api/.generated var
