"""The hosted stack on one machine: which processes, how each is started and probed.

Children (each its own process group, log ``<data_dir>/logs/<name>.log``):

============  ==============================================================  ======================
name          command                                                         ready when
============  ==============================================================  ======================
``redis``     ``redis-server`` on ``LONGHOUSE_REDIS_PORT``, data in             ``PING`` answers
              ``<data_dir>/redis``, append-only file on, bound to loopback
``decks``     ``python -m services.decks`` (also ``market``, ``boards``,        gRPC health: SERVING
              ``scoring``) on their ``LONGHOUSE_*_PORT``
``worker``    ``python -m celery -A services.phases.worker worker``             Celery control ping
``mover-0``   ``python -m services.phases.mover`` (bots' moves on the bus;      its heartbeat key
              one child a mover: ``mover-1``, ... with ``LONGHOUSE_MOVERS``)
``gateway``   ``gunicorn -k gevent 'gateway.app:create_app()'``                 ``GET /healthz`` = 200
============  ==============================================================  ======================

Every child gets the launcher's environment plus every setting written out as a
``LONGHOUSE_*`` variable, so all processes agree on ports and addresses.

Metrics (README, "Metrics"): the gateway serves ``GET /metrics`` (its gunicorn workers count in
prometheus-client's multiprocess mode, in ``<data_dir>/metrics/gateway``, with the hooks of
:mod:`gateway.gunicorn_conf`); each gRPC service, the worker and each mover serve theirs on the
``LONGHOUSE_*_METRICS_PORT`` of :class:`Settings` (the ``k``-th mover on
``mover_metrics_port + k``), checked free before anything starts like every other port.

Operator keys (README, "Operator keys"): before it starts anything the stack makes its own key,
``<data_dir>/operator.key`` (mode 0600), if the file is not there, and makes sure the gateway
accepts it: the key's digest goes into the file of digests the gateway reads
(``LONGHOUSE_OPERATOR_KEYS_FILE``, by default ``<data_dir>/operator_keys``) unless that file or
``LONGHOUSE_OPERATOR_KEYS`` lists it already. The key itself is never passed to a child.

The secret key (README, "Rotating the secret key"): without ``LONGHOUSE_SECRET_KEYS`` the stack
makes a Fernet key of its own, ``<data_dir>/secret.key`` (mode 0600; kept if the file is there),
and gives it to every child as ``LONGHOUSE_SECRET_KEYS``, so agent secrets and game seeds are
encrypted in Redis with a key of this run, not the development key
(:mod:`services.common.sealing`).

With ``LONGHOUSE_STORE_URL`` the game store is a Redis elsewhere (a Redis Cluster with
``redis+cluster://``); the ``redis`` child then serves only as the Celery broker, and with
``LONGHOUSE_BROKER_URL`` too it is not started at all (:attr:`Settings.own_redis`).
"""

from __future__ import annotations

import json
import os
import socket
import sys
import time
from pathlib import Path
from typing import Any

from services.common.config import Settings

from .supervisor import ChildSpec, LaunchError, Supervisor, free_port, in_pool, picked_ports, port_is_free

MAX_RESTARTS = 10
"""Restarts of one child before the launcher gives up on it (:meth:`Stack.heal`)."""
RESTART_FORGIVEN = 30.0
"""Seconds a child must have served (from its first ready probe) before it died for its restart
count to start afresh (one that never got ready is not forgiven): back-off
and :data:`MAX_RESTARTS` are for a child that keeps dying, not for deaths far apart (the crash
harness found a stack that gave up on its tenth kill, however far apart the kills were)."""
GATEWAY_CONNECTIONS = 4096
"""Open connections one gateway worker serves at once (gunicorn ``--worker-connections``):
room for 1,000 SSE streams and 200 ``/wait`` long-polls beside ordinary requests."""
GATEWAY_KEEPALIVE = 75
"""Seconds the gateway keeps an idle client connection open (gunicorn ``--keep-alive``; its own
default is 2). A server that closes an idle connection races a client sending its next request
on it: the request meets a reset, which a client that does not retry reports as an error (the
load test found two in ten minutes at 2 s). 75 s is the common proxy default, far above the idle
time of a playing client."""

GATEWAY_WORKERS_MAX = 8
"""Most gateway processes :func:`gateway_workers` starts by default, however many cores there are."""


def gateway_workers(environ: dict[str, str] | None = None) -> int:
    """gunicorn processes of the gateway (``-w``): ``LONGHOUSE_GATEWAY_WORKERS`` if set, else one per
    core this process may run on (at most :data:`GATEWAY_WORKERS_MAX`). A process runs its Python on
    one core at a time, and one gateway process was the first to saturate under clients over HTTP
    (docs/benchmarks.md); each process serves many connections at once with gevent.

    Raises:
        ValueError: ``LONGHOUSE_GATEWAY_WORKERS`` is not a whole number of at least 1.
    """
    env = os.environ if environ is None else environ
    raw = (env.get("LONGHOUSE_GATEWAY_WORKERS") or "").strip()
    if raw:
        if not raw.isdigit() or int(raw) < 1:
            raise ValueError(f"LONGHOUSE_GATEWAY_WORKERS must be a whole number of at least 1, not {raw!r}")
        return int(raw)
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        cores = os.cpu_count() or 1
    return max(1, min(GATEWAY_WORKERS_MAX, cores))


GATEWAY_CONFIG = "python:gateway.gunicorn_conf"
"""gunicorn's configuration module of the gateway: the hooks of its multiprocess metrics."""
WORKER_QUEUES = ("longhouse.phases", "longhouse.agents", "longhouse.tournaments")
"""The broker queues the Celery worker consumes: phases, agent decisions, tournament steps."""
OPERATOR_KEY_FILE = "operator.key"
"""The stack's own operator key, in its data directory (mode 0600; made when absent)."""
SECRET_KEY_FILE = "secret.key"
"""The stack's own secret key (a Fernet key) in its data directory, made when
``LONGHOUSE_SECRET_KEYS`` is unset (mode 0600; kept if the file is there)."""
OPERATOR_DIGESTS_FILE = "operator_keys"
"""The file of accepted key digests in the data directory, when ``LONGHOUSE_OPERATOR_KEYS_FILE``
names no other."""
SERVICES = (("decks", "decks_port"), ("market", "market_port"), ("boards", "boards_port"),
            ("scoring", "scoring_port"))
"""The four gRPC services: (module under ``services``, settings field of its port)."""


def settings_env(settings: Settings) -> dict[str, str]:
    """Every setting as a ``LONGHOUSE_<FIELD>`` environment variable."""
    return {f"LONGHOUSE_{name.upper()}": str(getattr(settings, name)) for name in type(settings).model_fields}


def free_port_settings(base: Settings | None = None) -> Settings:
    """``base`` (default: from the environment) with every port moved to a free loopback port
    (:func:`~services.launcher.supervisor.free_port`), none of them a default port of
    :class:`Settings` (so a ``make run`` started later still finds its own).

    For test stacks that must not collide with a running ``make run`` or each other.
    """
    base = base or Settings()
    names = ["redis_port", "gateway_port", "decks_port", "market_port", "boards_port", "scoring_port",
             *(f"{name}_metrics_port" for name in ("decks", "market", "boards", "scoring", "worker"))]
    avoid = default_ports()
    ports: set[int] = set()
    while len(ports) < len(names):
        ports.add(free_port(avoid=avoid))
    movers = free_port_block(mover_count(), avoid=ports | avoid)
    return base.model_copy(update={**dict(zip(names, sorted(ports))), "mover_metrics_port": movers})


def default_ports(movers: int = 64) -> frozenset[int]:
    """The ports :class:`Settings` uses by default: each ``*_port`` field's default, and ``movers``
    movers' metrics ports from ``mover_metrics_port`` on."""
    fields = Settings.model_fields
    ports = {f.default for name, f in fields.items() if name.endswith("_port") and isinstance(f.default, int)}
    first = fields["mover_metrics_port"].default
    return frozenset(ports | set(range(first, first + movers)))


def mover_count() -> int:
    """How many movers the stack runs (``LONGHOUSE_MOVERS``, default 2). Raises LaunchError if it is
    not a whole number of at least 1 (0 was taken for 1 without a word)."""
    given = os.environ.get("LONGHOUSE_MOVERS", "2")
    try:
        count = int(given)
    except ValueError:
        count = 0
    if count < 1:
        raise LaunchError(f"LONGHOUSE_MOVERS must be a whole number of movers, at least 1, not {given!r}")
    return count


def free_port_block(count: int, avoid: frozenset[int] | set[int] = frozenset(), attempts: int = 100) -> int:
    """The first of ``count`` consecutive loopback ports that are free now, not in ``avoid``, none
    picked lately by another process (:func:`~services.launcher.supervisor.picked_ports`, where the
    block is then recorded) and all in the pool :func:`~services.launcher.supervisor.free_port`
    picks from (the movers' metrics ports). Raises LaunchError if ``attempts`` tries find none."""
    for _ in range(attempts):
        first = free_port(avoid=avoid)
        block = range(first, first + count)
        with picked_ports() as picked:
            if (block[-1] <= 65535 and not avoid & set(block) and not picked.keys() & set(block[1:])
                    and all(in_pool(p) for p in block) and all(port_is_free(p) for p in block)):
                picked.update(dict.fromkeys(block, time.time()))
                return first
    raise LaunchError(f"no {count} consecutive free ports found in {attempts} tries")


def redis_probe(host: str, port: int):
    """A probe that is True once ``redis-server`` at ``host:port`` answers PING."""
    from services.common.redis_client import connect

    client = connect(f"redis://{host}:{port}/0", socket_connect_timeout=1, socket_timeout=1)

    def probe() -> bool:
        return bool(client.ping())

    return probe


def grpc_health_probe(address: str):
    """A probe that is True once the gRPC health service at ``address`` says SERVING.

    Uses the standard ``grpc.health.v1`` client stub (overall server status, service "").
    """
    import grpc
    from grpc_health.v1 import health_pb2, health_pb2_grpc

    def probe() -> bool:
        with grpc.insecure_channel(address) as channel:
            reply = health_pb2_grpc.HealthStub(channel).Check(health_pb2.HealthCheckRequest(service=""),
                                                              timeout=1.0)
        return reply.status == health_pb2.HealthCheckResponse.SERVING

    return probe


def http_probe(url: str):
    """A probe that is True once ``GET url`` answers 200."""
    import requests

    def probe() -> bool:
        return requests.get(url, timeout=1.0).status_code == 200

    return probe


def heartbeat_probe(url: str, name: str):
    """A probe that is True once key ``name`` in the Redis at ``url`` holds the heartbeat of a live
    process of this machine (a mover's: its pid, then ``.`` and a token of its own;
    :data:`services.phases.mover.HEARTBEAT`; not while it ends in ``.starting``, before the mover's
    start-up push is done). The key alone is not enough: a mover killed outright
    leaves it for 15 s, and the launcher called the mover started again at once ready before it
    served. Its client is made at the first call (a Redis Cluster's client connects when it is made)."""
    from services.common.redis_client import connect

    clients: list = []

    def probe() -> bool:
        if not clients:
            clients.append(connect(url, socket_connect_timeout=1, socket_timeout=1))
        value = clients[0].get(name)
        if value is None or value.endswith(b".starting"):
            return False  # none, or a mover still making its start-up push (services.phases.mover.STARTING)
        try:
            os.kill(int(value.split(b".")[0]), 0)
        except ValueError:
            return False
        except ProcessLookupError:
            return False  # the heartbeat of a mover gone
        except PermissionError:
            return True
        return True

    return probe


def celery_probe(broker_url: str, node: str):
    """A probe that is True once the Celery worker named ``node`` answers a control ping."""
    from celery import Celery

    app = Celery("longhouse-launcher", broker=broker_url)

    def probe() -> bool:
        replies = app.control.ping(destination=[node], timeout=0.5)
        return any(node in reply for reply in replies)

    return probe


def _gunicorn_extra() -> list[str]:
    """Options of newer gunicorn releases: no shared control socket in the home directory
    (two stacks on one machine would fight over it)."""
    try:
        from gunicorn.config import KNOWN_SETTINGS
    except ImportError:  # pragma: no cover - gunicorn is a dependency
        return []
    if any(s.name == "control_socket_disable" for s in KNOWN_SETTINGS):
        return ["--no-control-socket"]
    return []


class Stack:
    """The whole stack as children of one :class:`Supervisor`.

    Args:
        settings: ports and addresses (children get them as ``LONGHOUSE_*`` variables).
        data_dir: this run's directory: ``redis/`` (Redis data), ``logs/`` (child logs),
            ``children.json`` (name -> pid of every child started).
        extra_env: more environment for every child (e.g. ``LONGHOUSE_EXTRA_GAMES``).
        python: the interpreter for the Python children (default: this one).

    Use as a context manager; leaving the block stops every child.
    """

    def __init__(self, settings: Settings, data_dir: str | os.PathLike[str],
                 extra_env: dict[str, str] | None = None, python: str = sys.executable):
        self.settings = settings.model_copy(update={"data_dir": str(Path(data_dir).resolve())})
        self.data_dir = Path(self.settings.data_dir)
        if not self.settings.operator_keys_file:
            self.settings = self.settings.model_copy(
                update={"operator_keys_file": str(self.data_dir / OPERATOR_DIGESTS_FILE)})
        if not self.settings.secret_keys:
            self.settings = self.settings.model_copy(update={"secret_keys": self._own_secret_key()})
        else:  # the configured keys become the data directory's: a later run of it without them
            self._keep_secret_keys(self.settings.secret_keys)  # opens what this one seals
        self.python = python
        self.env = {**os.environ, **(extra_env or {}), **settings_env(self.settings), "PYTHONUNBUFFERED": "1"}
        self.env.pop("PROMETHEUS_MULTIPROC_DIR", None)  # the gateway's alone (gateway_spec), never inherited
        self.supervisor = Supervisor(self.data_dir / "logs")
        self._restarts: dict[str, int] = {}
        self._due: dict[str, float] = {}
        self._told: set[str] = set()
        self._starting: dict[str, float] = {}  # children started again by heal -> their ready deadline
        self.worker_node = f"phases.{os.getpid()}@{socket.gethostname()}"
        self.mover_node = f"mover.{os.getpid()}"
        self.root = str(Path(__file__).resolve().parents[2])

    # -- addresses ----------------------------------------------------------------
    @property
    def gateway_url(self) -> str:
        """``http://host:port`` of the gateway."""
        return f"http://{self.settings.host}:{self.settings.gateway_port}"

    @property
    def redis_url(self) -> str:
        """URL of the game store (``LONGHOUSE_STORE_URL``, or database ``LONGHOUSE_REDIS_DB`` of the
        stack's own Redis)."""
        return self.settings.redis_url

    @property
    def log_dir(self) -> Path:
        """Where the children's logs go."""
        return self.supervisor.log_dir

    def _own_secret_key(self) -> str:
        """The stack's own secret key, ``<data_dir>/secret.key``, made (mode 0600) if absent.
        Raises LaunchError if the file cannot be made or holds no Fernet key."""
        from gateway.operators import read_key_file, write_key_file
        from services.common.sealing import generate_key, parse_keys

        path = self.data_dir / SECRET_KEY_FILE
        try:
            if not path.exists():
                self.data_dir.mkdir(parents=True, exist_ok=True)
                write_key_file(path, generate_key())
            key = read_key_file(path)
            parse_keys(key)
        except (OSError, ValueError) as exc:
            raise LaunchError(f"secret key: {exc}") from None
        return key

    def _keep_secret_keys(self, keys: str) -> None:
        """Write the configured keys (``LONGHOUSE_SECRET_KEYS``) to ``<data_dir>/secret.key`` (mode
        0600) when they differ from it, so that after a rotation (README, "Rotating the secret key")
        the directory's file never holds keys that no longer open its data.
        Raises LaunchError if the keys are no Fernet keys or the file cannot be written."""
        from gateway.operators import read_key_file, write_key_file
        from services.common.sealing import parse_keys

        path = self.data_dir / SECRET_KEY_FILE
        try:
            parse_keys(keys)
            if not path.exists() or read_key_file(path) != keys:
                self.data_dir.mkdir(parents=True, exist_ok=True)
                write_key_file(path, keys)
        except (OSError, ValueError) as exc:
            raise LaunchError(f"secret key: {exc}") from None

    # -- the operator key ---------------------------------------------------------
    @property
    def operator_key_path(self) -> Path:
        """The stack's own operator key file, ``<data_dir>/operator.key``."""
        return self.data_dir / OPERATOR_KEY_FILE

    @property
    def operator_key(self) -> str:
        """The stack's own operator key (read from :attr:`operator_key_path`; made by :meth:`start`).

        Raises:
            OSError / ValueError: the file is missing or holds no key.
        """
        from gateway.operators import read_key_file

        return read_key_file(self.operator_key_path)

    def ensure_operator_key(self) -> Path:
        """Make :attr:`operator_key_path` (mode 0600) if it does not exist, and add its digest to the
        digests file the gateway reads (``operator_keys_file``; made if absent) unless that file or
        ``operator_keys`` lists it already. Returns the key file's path.

        Raises:
            LaunchError: the key file holds no key, or a digests file or setting is malformed.
        """
        from gateway.operators import digest, ensure_key_file, parse_digests

        self.data_dir.mkdir(parents=True, exist_ok=True)
        path = Path(self.settings.operator_keys_file)
        try:
            mine = digest(ensure_key_file(self.operator_key_path))
            known = parse_digests(self.settings.operator_keys, "LONGHOUSE_OPERATOR_KEYS")
            text = path.read_text() if path.exists() else ""
            known += parse_digests(text, str(path))
        except (OSError, ValueError) as exc:
            raise LaunchError(f"operator key: {exc}") from None
        if mine not in known:
            with path.open("a") as out:
                if not text:
                    out.write("# sha256 digests of the operator keys the gateway accepts, one a line "
                              "(README, Operator keys)\n")
                elif not text.endswith("\n"):
                    out.write("\n")
                out.write(f"{mine}  # {self.operator_key_path.name} of {self.data_dir.name}\n")
        return self.operator_key_path

    # -- the children -------------------------------------------------------------
    def redis_spec(self) -> ChildSpec:
        """``redis-server`` with its own port and data directory, append-only file on, synced to
        disk as ``LONGHOUSE_REDIS_APPENDFSYNC`` says (``always`` by default: no acknowledged
        move is lost even on power failure; README, Durability)."""
        s = self.settings
        redis_dir = self.data_dir / "redis"
        redis_dir.mkdir(parents=True, exist_ok=True)
        redis_dir.chmod(0o700)  # it holds every game's secret seed and the agents' secrets
        argv = ["redis-server", "--port", str(s.redis_port), "--bind", s.host, "--dir", str(redis_dir),
                "--appendonly", "yes", "--appendfsync", s.redis_appendfsync, "--save", "",
                "--protected-mode", "yes", "--daemonize", "no", "--logfile", ""]
        return ChildSpec("redis", argv, redis_probe(s.host, s.redis_port), ports=[s.redis_port],
                         env=self.env, cwd=self.root, ready_timeout=20)

    def service_specs(self) -> list[ChildSpec]:
        """The four gRPC services (each also serves its metrics on its ``*_metrics_port``)."""
        out = []
        for module, field in SERVICES:
            port = getattr(self.settings, field)
            ports = [port, *self._metrics_ports(self.settings.metrics_port(module))]
            out.append(ChildSpec(module, [self.python, "-m", f"services.{module}"],
                                 grpc_health_probe(f"{self.settings.host}:{port}"), ports=ports,
                                 env=self.env, cwd=self.root, ready_timeout=60))
        return out

    def worker_spec(self) -> ChildSpec:
        """The Celery worker (node name :attr:`worker_node`): phases, agent decisions and
        tournament steps, on a pool of threads (agent calls wait on the network)."""
        argv = [self.python, "-m", "celery", "-A", "services.phases.worker", "worker",
                "--loglevel", "INFO", "--pool", "threads", "--concurrency", "8", "-n", self.worker_node,
                "-Q", ",".join(WORKER_QUEUES),
                "--without-gossip", "--without-mingle"]
        return ChildSpec("worker", argv, celery_probe(self.settings.celery_broker_url, self.worker_node),
                         ports=self._metrics_ports(self.settings.worker_metrics_port),
                         env=self.env, cwd=self.root, ready_timeout=60, stop_grace=15)

    def mover_specs(self) -> list[ChildSpec]:
        """The bus movers: play built-in bots' moves for many games at once, one process per
        core (``LONGHOUSE_MOVERS``), each its own child ``mover-<k>`` (kind ``mover``), so that
        one that dies is started again alone (:meth:`heal`) while the others serve on.

        Before, one shell ran them all and ended only once every mover had ended: a mover that
        died stayed dead, unannounced, with its share of the machine unused, until the last one
        died too. Ending the shell at the first death instead stopped every mover at each death
        of one (tried and backed out: a crash-looping mover then stalled every game)."""
        n = mover_count()
        base = self.settings.mover_metrics_port
        specs = []
        for k in range(n):
            name = f"{self.mover_node}.{k}"  # its heartbeat key's name
            port = base + k if base else 0  # the k-th mover's metrics port (0: none)
            argv = [self.python, "-m", "services.phases.mover", "--name", name, "--metrics-port", str(port)]
            specs.append(ChildSpec(f"mover-{k}", argv, heartbeat_probe(self.settings.redis_url, f"longhouse:mover:{name}"),
                                   ports=[port] if port else [], env=self.env, cwd=self.root, ready_timeout=60,
                                   stop_grace=10, kind="mover"))
        return specs

    def mover_names(self) -> list[str]:
        """The movers' child names (``mover-0``, ``mover-1``, ...)."""
        return [spec.name for spec in self.mover_specs()]

    def gateway_spec(self) -> ChildSpec:
        """The Flask gateway under gunicorn's gevent worker: a greenlet per request, so open
        SSE streams and ``/wait`` long-polls never hold what other requests need (issue:
        reliability, fault 1); up to ``GATEWAY_CONNECTIONS`` open connections a process, idle ones
        kept ``GATEWAY_KEEPALIVE`` seconds; :func:`gateway_workers` processes (one per core)."""
        s = self.settings
        argv = [self.python, "-m", "gunicorn", "-c", GATEWAY_CONFIG, "-k", "gevent", "-w", str(gateway_workers(self.env)),
                "--worker-connections", str(GATEWAY_CONNECTIONS), "-b", f"{s.host}:{s.gateway_port}",
                "--graceful-timeout", "5", "--keep-alive", str(GATEWAY_KEEPALIVE), *_gunicorn_extra(),
                "gateway.app:create_app()"]
        # the workers' metrics files (multiprocess mode), in the run's directory; gunicorn's hooks
        # clear them at each start (gateway.gunicorn_conf)
        env = {**self.env, "PROMETHEUS_MULTIPROC_DIR": str(self.data_dir / "metrics" / "gateway")}
        # No gunicorn access log: it would write query strings, and an EventSource client
        # sends its seat token as ?token=. The app logs each request itself, without them.
        return ChildSpec("gateway", argv, http_probe(f"{self.gateway_url}/healthz"), ports=[s.gateway_port],
                         env=env, cwd=self.root, ready_timeout=60)

    def port_variables(self) -> dict[int, str]:
        """Each port of the stack -> the variable that moves it (``LONGHOUSE_DECKS_METRICS_PORT``; the
        k-th mover's metrics port is ``LONGHOUSE_MOVER_METRICS_PORT`` + k)."""
        s = self.settings
        out = {getattr(s, f): f"LONGHOUSE_{f.upper()}" for f in type(s).model_fields
               if f.endswith("_port") and getattr(s, f)}
        if s.mover_metrics_port:
            for k in range(1, mover_count()):
                out.setdefault(s.mover_metrics_port + k, f"LONGHOUSE_MOVER_METRICS_PORT + {k}")
        return out

    @staticmethod
    def _metrics_ports(port: int) -> list[int]:
        """``[port]``, or none when it is 0 (metrics off)."""
        return [port] if port else []

    def specs(self) -> list[ChildSpec]:
        """All children, in start order (``redis`` first, unless both the store and the broker are
        elsewhere)."""
        own = [self.redis_spec()] if self.settings.own_redis else []
        return [*own, *self.service_specs(), self.worker_spec(), *self.mover_specs(), self.gateway_spec()]

    # -- life cycle ---------------------------------------------------------------
    def start(self) -> None:
        """Check every port, start Redis (if the stack has its own), then the rest together; wait
        for each to be ready.

        Raises:
            PortInUse: a port is taken (nothing was started).
            LaunchError: a child failed or missed its deadline (all started ones are stopped), or
                the operator key cannot be made (:meth:`ensure_operator_key`; nothing was started).
        """
        specs = self.specs()
        self.supervisor.check_ports(specs, self.port_variables())
        self.ensure_operator_key()
        first, rest = (specs[:1], specs[1:]) if specs[0].name == "redis" else ([], specs)
        try:
            for spec in first:
                self.supervisor.start(spec)
            self._record()
            for spec in rest:
                self.supervisor.spawn(spec)
            self._record()
            self.supervisor.wait_ready([spec.name for spec in rest])
        except BaseException:
            self._record()
            self.stop()
            raise

    def stop(self) -> dict[str, int | None]:
        """Stop every child (gateway first, Redis last). Returns name -> exit code."""
        return self.supervisor.stop_all()

    def stop_worker(self) -> int | None:
        """Stop the Celery worker (its whole process group). Returns its exit code."""
        return self.supervisor.stop("worker")

    def stop_mover(self) -> int | None:
        """Stop every bus mover (each one's whole process group), together. Returns the first
        non-zero exit code among them, else 0 (``None`` if none was started)."""
        names = [name for name in self.mover_names() if name in self.supervisor.children]
        if not names:
            return None
        codes = self.supervisor.stop_many(names)
        return next((code for code in codes.values() if code), 0)

    def start_mover(self) -> None:
        """Start every bus mover again, together, and wait until all serve."""
        self.supervisor.start(*(self.supervisor.specs[name] for name in self.mover_names()))

    def start_worker(self) -> None:
        """Start the Celery worker again and wait until it answers a ping."""
        self.supervisor.restart("worker")
        self._record()

    def pids(self) -> dict[str, int]:
        """name -> pid (= process group id) of every child started."""
        return self.supervisor.pids()

    def heal(self, say: Any = None) -> list[str]:
        """Start again every child that exited without being stopped, with back-off: a child's
        k-th restart waits 2**(k-1) seconds (at most 30) after its death was noticed, and a
        child that needs more than :data:`MAX_RESTARTS` restarts is given up (LaunchError).
        ``say(text)`` is told each death and restart (the launcher prints it; the log gets it
        too). A child that served (was ready) :data:`RESTART_FORGIVEN` seconds or more before it
        died starts again from the first back-off. Returns the names that were started again and
        became ready since the last call.

        A restart is not waited for here: the call starts it and a later call looks at its probe,
        so one child slow to start (up to its ``ready_timeout``) holds up no other's restart (a
        trial: a mover stopped while starting kept another mover's death unnoticed for 55 s). One
        that exits before it is ready, or misses its deadline (then killed), is one more death."""
        now = time.monotonic()
        restarted = []
        for name, deadline in list(self._starting.items()):
            child = self.supervisor.children[name]
            if child.alive() and not child.ready():
                if now <= deadline:
                    continue
                self.supervisor.kill(name)
                why = f"not ready within {child.spec.ready_timeout:.0f} s"
            elif child.alive():
                del self._starting[name]
                restarted.append(name)
                if say:
                    say(f"{name} restarted (pid {child.proc.pid})")
                continue
            else:
                why = f"exited with code {child.proc.returncode} before the launcher saw it ready"
            del self._starting[name]
            if say:
                say(f"{name} did not start again: {why} (log {child.log_path})")
        for name in self.supervisor.dead():
            child = self.supervisor.children[name]
            if child.stopped or name in self._starting:
                continue
            if name not in self._due and child.ready_at is not None and now - child.ready_at >= RESTART_FORGIVEN:
                self._restarts[name] = 0  # it served a while: a new death, not a crash loop
            count = self._restarts.get(name, 0)
            if count >= MAX_RESTARTS:
                raise LaunchError(f"{name} died {count + 1} times; giving up (log {child.log_path})")
            due = self._due.setdefault(name, now + min(30.0, 2.0 ** count))
            if name not in self._told:
                self._told.add(name)
                if say:
                    say(f"{name} exited with code {child.proc.returncode}; restarting it in {due - now:.0f} s "
                        f"(restart {count + 1}, log {child.log_path})")
            if now < due:
                continue
            self.supervisor.stop(name)  # reap it and whatever is left of its process group
            self._restarts[name] = count + 1
            self._due.pop(name, None)
            self._told.discard(name)
            try:
                child = self.supervisor.spawn(self.supervisor.specs[name])
            except LaunchError as exc:  # its port is taken meanwhile, say: a death like any other
                self.supervisor.kill(name)
                if say:
                    say(f"{name} did not start again: {exc}")
                continue
            self._starting[name] = child.started_at + child.spec.ready_timeout
            self._record()
        return restarted

    def check_alive(self) -> None:
        """Raise LaunchError if a child has exited without being stopped."""
        dead = [n for n in self.supervisor.dead() if not self.supervisor.children[n].stopped]
        if dead:
            child = self.supervisor.children[dead[0]]
            raise LaunchError(f"{dead[0]} exited with code {child.proc.returncode}; "
                              f"log {child.log_path}")

    def _record(self) -> None:
        """Write ``children.json``: ``[{"name", "pid"}]`` of every child ever started, in order."""
        rows = [{"name": name, "pid": pid} for name, pid in self.supervisor.started]
        (self.data_dir / "children.json").write_text(json.dumps(rows, indent=2) + "\n")

    def __enter__(self) -> "Stack":
        self.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.stop()
