# Longhouse: the two commands of the README are `make run` and `make test`.
# Both call `make setup` first; every step of it is safe to run again.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
ARGS ?=
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: setup compile compile-clean system containers-setup images venv protos sdk docs run test batch tournament-demo balance bench bench-interop bench-bots bench-people bench-venv bench-peers node rules-coverage crash-test load-test fuzz schema-fuzz clean

setup: system venv protos compile

# Debian packages the machine lacks: redis-server, Python's venv module (Debian ships ensurepip
# separately) and chromium, the browser the browser tests drive (Playwright never downloads one).
# Nothing is installed when all are there.
system:
	@missing=""; \
	command -v redis-server >/dev/null 2>&1 || missing="$$missing redis-server"; \
	[ -x /usr/bin/chromium ] || missing="$$missing chromium"; \
	command -v $(PYTHON) >/dev/null 2>&1 || missing="$$missing python3"; \
	{ command -v $(PYTHON) >/dev/null 2>&1 && $(PYTHON) -c 'import ensurepip, venv' >/dev/null 2>&1; } \
	  || missing="$$missing python3-venv"; \
	if [ -n "$$missing" ]; then \
	  echo "setup: installing$$missing"; \
	  $(SUDO) apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends $$missing >/dev/null; \
	fi

# What the container tests and `make images` need (Debian packages): the Docker engine and client
# (docker.io), docker-compose, and debootstrap for the tests' base image. Nothing is installed
# when all are there. The tests start their own dockerd (README, Containers).
containers-setup:
	@missing=""; \
	PATH="$$PATH:/usr/sbin:/sbin"; \
	command -v dockerd >/dev/null 2>&1 || missing="$$missing docker.io"; \
	command -v docker-compose >/dev/null 2>&1 || missing="$$missing docker-compose"; \
	command -v debootstrap >/dev/null 2>&1 || missing="$$missing debootstrap"; \
	if [ -n "$$missing" ]; then \
	  echo "setup: installing$$missing"; \
	  $(SUDO) apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends $$missing >/dev/null; \
	fi

# The image of every process (deploy/docker/Dockerfile) from a wheelhouse made here, on the engine
# of DOCKER_HOST: make images [ARGS="--base python:3.11-slim --tag longhouse:latest"]; --base
# debootstrap builds on Debian bookworm made here with debootstrap (no registry needed).
images: setup containers-setup
	$(PY) -m services.containers.images $(ARGS)

venv: $(VENV)/.installed
$(VENV)/.installed: pyproject.toml constraints.txt sdk/longhouse_client/pyproject.toml sdk/longhouse_agent/pyproject.toml
	@[ -x $(PY) ] || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -c constraints.txt -e '.[dev,interop]' -e 'sdk/longhouse_client[containers]' -e sdk/longhouse_agent
	@touch $@

protos: services/api/.generated
services/api/.generated: $(wildcard protos/*.proto) $(VENV)/.installed
	$(PY) -m grpc_tools.protoc --proto_path=services/api=protos \
	  --python_out=. --grpc_python_out=. --pyi_out=. $(patsubst protos/%,services/api/%,$(wildcard protos/*.proto))
	@touch $@

# The rules compiled in place with Cython (services/rules/compile.py): extension modules beside the
# sources (ignored by git), built only where a module's source changed; an optional speed-up, the same
# logs (tests/rules/test_compiled.py). Skipped, saying why, without a C compiler or Python's headers,
# or with LONGHOUSE_PURE_PYTHON=1, which also makes any process run the sources where they are built.
# make compile-clean removes them.
RULES_SOURCES := $(wildcard $(addprefix services/rules/,$(addsuffix /*.py,core noggin gnomes resource_hog)))
compile: services/rules/.compiled
services/rules/.compiled: $(RULES_SOURCES) services/rules/compile.py $(VENV)/.installed
	@PYTHONPATH=. $(PY) -m services.rules.compile --stamp $@

compile-clean:
	rm -rf services/rules/*/*.so services/rules/.compiled build/cython

# The two client-side distributions as wheels in dist/: longhouse_client (the typed HTTP client, and with
# its containers extra the users' pytest fixture of the stack in containers, README "Containers") and
# longhouse_agent (serve a function as an agent).
sdk: setup
	$(PY) -m build --wheel --outdir dist sdk/longhouse_client
	$(PY) -m build --wheel --outdir dist sdk/longhouse_agent

# The docs site (mkdocs.yml, MkDocs Material) into site/, strict: a warning fails the build. Each
# game's table of moves is generated from its move schema (docs/_hooks/moves.py); tests/docs and
# tests/stack/test_docs_samples.py run every code sample of it.
docs: setup
	NO_MKDOCS_2_WARNING=1 PYTHONPATH=. $(VENV)/bin/mkdocs build --strict

run: setup
	$(PY) -m services.launcher $(ARGS)

# lint-imports checks the layers of pyproject.toml ([tool.importlinter], docs/ARCHITECTURE.md)
# first: a broken contract fails the target before the tests run. The tests run in TEST_WORKERS
# processes (pytest-xdist, one a core), a file's tests together in one (its fixtures set up once);
# TEST_WORKERS=0 runs them in this process. The seeded bot batches play their covers here (make batch:
# all 300 games of each).
TEST_WORKERS ?= $(shell nproc 2>/dev/null || echo 2)
test: setup containers-setup
	PYTHONPATH=. $(VENV)/bin/lint-imports
	$(PY) -m pytest -q -rs -n $(TEST_WORKERS) --dist loadfile $(TEST_ARGS)

# The seeded batches of 300 bot games of every game, whole (make test plays a cover of each: the
# games that together see every part the batch sees; see services/bots/batch.py, cover).
batch: setup
	LONGHOUSE_BATCH=full $(PY) -m pytest -q -p no:cacheprovider tests/rules/noggin/test_batch.py \
	  tests/rules/gnomes/test_batch.py tests/rules/resource_hog/test_batch.py $(ARGS)

# A tournament of built-in bots and the two sample agents over every game, through the stack it
# starts and stops itself: make tournament-demo ARGS="--out DIR" writes DIR/standings.json,
# DIR/standings.csv and DIR/ratings.png.
tournament-demo: setup
	$(PY) -m services.launcher.demo $(ARGS)

# Benchmarks: the engine against OpenSpiel (installed in its own .venv-bench), the stack, memory.
# (--no-engine: the stack alone, no OpenSpiel venv needed, so none is built)
bench: setup $(if $(findstring --no-engine,$(ARGS)),,bench-venv)
	$(PY) -m services.bench $(ARGS)

# The research adapters' speed alone (target 5): random games through the OpenSpiel adapter against
# the engine's, alternated round by round (ARGS: --rounds N (5) --seconds S (2) --game G --write).
bench-interop: setup
	$(PY) -m services.bench.interop $(ARGS)

# The bot ladder: per game a round robin of random, greedy, scripted, ismcts and expert (seats
# rotated, OpenSkill ratings averaged over orders), Noggin's and Gnomes' own cells, and the bots' targets, met or not
# (ARGS: --games N (30) --game G --workers K (2) --iterations expert=N,ismcts=N --quick --write
#  --records FILE --from-records FILE).
bench-bots: setup
	$(PY) -m services.bench.ladder $(ARGS)

# A person's wait for their turn while the movers play games of slow search bots, and those games'
# moves a minute (ARGS: --search-games N (12) --people N (6) --seconds S (180) --warmup S (30) --seed S).
bench-people: setup
	$(PY) -m services.bench.people $(ARGS)

# Balance: seeded games of every game between the experts, and single-strategy probes against them;
# make balance ARGS="--write" records docs/balance.md (long: 100 games a measure).
balance: setup
	$(PY) -m services.bench.balance $(ARGS)

bench-venv: .venv-bench/.installed
.venv-bench/.installed:
	@[ -x .venv-bench/bin/python ] || $(PYTHON) -m venv .venv-bench
	.venv-bench/bin/python -m pip install -q open_spiel==2.0.2
	@touch $@

# The hosted path beside boardgame.io's server (Node and npm from Debian; boardgame.io from npm).
BGIO_DIR ?= ../shared/bench/boardgameio
bench-peers: setup node
	$(PY) -m services.bench.peers --bgio-dir $(BGIO_DIR) $(ARGS)

node:
	@if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then \
	  echo "setup: installing nodejs npm"; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends nodejs npm >/dev/null; \
	fi

# The crash harness: seeded games through the stack while a random process of it is killed
# (SIGKILL) and restarted, every game's log then compared with its uncrashed run; it ends with
# "crash harness: <kills> kills, <lost> lost, <twice> applied twice, <unfinished> unfinished".
# ARGS: --kills N (100) --games G (12) --seed S (1) --parallel K (3); see docs/reliability.md.
crash-test: setup
	$(PY) -m services.reliability.crash $(ARGS)

# The load test: the lock-out figure (1,000 SSE streams and 200 /wait polls held while /healthz and
# moves are timed), then 64 games at once for 10 minutes through the gateway, on a stack of its
# own; errors, moves/s and latency percentiles. ARGS: --games N (64) --minutes M (10) --seed S (1)
# --no-lockout --lockout-only; see docs/reliability.md, "Lock-out" and "Load".
load-test: setup
	$(PY) -m services.reliability.load $(ARGS)

# The rule fuzzers (tests/fuzz) at length: FUZZ_EXAMPLES fuzzed games of each game (make test
# plays a few), each step a legal or an illegal move, invariants checked after every step.
# Each test may take up to FUZZ_TIMEOUT seconds (make test's 300 s is too short for 100 Noggin games).
FUZZ_EXAMPLES ?= 100
FUZZ_TIMEOUT ?= 3600
fuzz: setup
	FUZZ_EXAMPLES=$(FUZZ_EXAMPLES) $(PY) -m pytest -q -p no:cacheprovider --timeout=$(FUZZ_TIMEOUT) tests/fuzz $(ARGS)

# schemathesis against the gateway's /openapi.json at length (make test runs 10 examples per
# operation and mode): SCHEMA_FUZZ_EXAMPLES per operation and mode, the tally printed.
SCHEMA_FUZZ_EXAMPLES ?= 100
schema-fuzz: setup
	LONGHOUSE_LOG_LEVEL=WARNING LONGHOUSE_SCHEMA_FUZZ_EXAMPLES=$(SCHEMA_FUZZ_EXAMPLES) $(PY) -m pytest -q -s -p no:cacheprovider \
	  --timeout=$(FUZZ_TIMEOUT) tests/gateway/test_schemathesis.py $(ARGS)

# Which entries of each game's rules index (services/rules/<game>/RULES.yaml) have a passing test.
rules-coverage: setup
	$(PY) -m services.rules.coverage $(ARGS)

clean: compile-clean
	rm -rf services/api/*_pb2*.py services/api/*_pb2*.pyi services/api/.generated var .venv-bench
