"""The containers' health check: ``python -m services.containers.health [--live] [ROLE]`` exits 0
if the process of ``ROLE`` serves (with ``--live``: is alive), 1 if not (the reason on standard
error).

The role comes from the argument, else ``LONGHOUSE_ROLE``, else the file the entrypoint
(:mod:`services.containers.roles`) wrote, :data:`STATE_FILE`. Each role is probed as the launcher probes it
(:mod:`services.launcher.stack`), on the container's own address (``LONGHOUSE_BIND_HOST``, where
``0.0.0.0`` means loopback, else ``LONGHOUSE_HOST``):

* ``decks``, ``market``, ``boards``, ``scoring``: gRPC health (``grpc.health.v1``) says SERVING;
* ``gateway``: ``GET /readyz`` answers 200 (Redis, the services, a mover and a worker serve);
* ``worker``: the container's Celery node answers a control ping through the broker;
* ``mover``: its heartbeat key is in the game store, not marked as starting;
* ``redis``: ``PING`` answers.

Those are readiness checks, and all but Redis's own go through Redis. ``--live`` checks liveness
instead, which never touches Redis, so that an orchestrator that restarts what is not alive
never restarts the stack for a Redis outage: the services' health service ``liveness``
(:data:`LIVENESS_SERVICE`) says SERVING, the gateway's ``GET /livez`` answers 200, Redis answers
``PING``. The worker and the mover have no liveness check (their process exits when it fails, and
the container with it); ``--live`` refuses them.

Docker and Kubernetes run it every few seconds in every container, so it reads the
``LONGHOUSE_*`` variables itself (:data:`DEFAULTS`, the defaults of
:class:`services.common.config.Settings`) and speaks to Redis and HTTP with the standard
library: a check costs a Python start and little more (the worker's imports Celery).
"""

from __future__ import annotations

import json
import os
import socket
import sys
import urllib.request
from pathlib import Path
from typing import Callable

STATE_FILE = Path(os.environ.get("LONGHOUSE_ROLE_FILE", "/tmp/longhouse-role.json"))
"""Where the entrypoint records ``{"role", "node"}`` for the health check."""
DEFAULTS = {"host": "127.0.0.1", "redis_port": "6479", "redis_db": "0", "celery_db": "1", "gateway_port": "8470",
            "decks_port": "29151", "market_port": "29152", "boards_port": "29153", "scoring_port": "29154"}
"""The settings' defaults (a test keeps them equal to :class:`~services.common.config.Settings`'s)."""
TIMEOUT = 3.0
"""Seconds one probe may take."""
LIVENESS_SERVICE = "liveness"
"""The gRPC health service name of the services' liveness
(:data:`services.coordinator.grpc_server.LIVENESS_SERVICE`; a test keeps them equal)."""
LIVE_FLAG = "--live"
"""The option that asks for liveness instead of readiness."""


def setting(name: str) -> str:
    """``LONGHOUSE_<NAME>``, or its default (empty if it has none)."""
    return os.environ.get(f"LONGHOUSE_{name.upper()}") or DEFAULTS.get(name, "")


def local_host() -> str:
    """Where this container's own server is reached from inside it."""
    bind = setting("bind_host")
    if bind in ("0.0.0.0", "::", "[::]"):
        return "127.0.0.1"
    return bind or setting("host")


def store_url() -> str:
    """The game store's URL, as :attr:`Settings.redis_url` makes it."""
    host = setting("redis_host") or setting("host")
    return setting("store_url") or f"redis://{host}:{setting('redis_port')}/{setting('redis_db')}"


def broker_url() -> str:
    """The Celery broker's URL, as :attr:`Settings.celery_broker_url` makes it."""
    host = setting("redis_host") or setting("host")
    return setting("broker_url") or f"redis://{host}:{setting('redis_port')}/{setting('celery_db')}"


def redis_command(host: str, port: int, *commands: tuple[str, ...]) -> list[bytes]:
    """Send each command to the Redis at ``host:port`` and return the first line of each reply
    (``+PONG``, ``:1``, ``-ERR ...``): enough for PING, SELECT and an EVAL that returns a number."""
    payload = b"".join(b"*%d\r\n" % len(cmd) + b"".join(b"$%d\r\n%s\r\n" % (len(p.encode()), p.encode()) for p in cmd)
                       for cmd in commands)
    replies: list[bytes] = []
    with socket.create_connection((host, port), timeout=TIMEOUT) as sock:
        sock.sendall(payload)
        buffer = b""
        while len(replies) < len(commands):
            chunk = sock.recv(4096)
            if not chunk:
                raise ConnectionError("Redis closed the connection")
            buffer += chunk
            while b"\r\n" in buffer and len(replies) < len(commands):
                line, buffer = buffer.split(b"\r\n", 1)
                replies.append(line)
    return replies


def _plain_redis(url: str) -> tuple[str, int, int] | None:
    """``(host, port, db)`` of a ``redis://host:port/db`` URL without a password, else None."""
    from urllib.parse import urlsplit

    parts = urlsplit(url)
    if parts.scheme != "redis" or parts.password or parts.username:
        return None
    return parts.hostname or "127.0.0.1", parts.port or 6379, int((parts.path or "/0").strip("/") or 0)


HEARTBEAT_SERVES = ("local v = redis.call('GET', KEYS[1]) "
                    "if v and not string.find(v, '%.starting$') then return 1 end return 0")
"""1 if the mover heartbeat KEYS[1] is there and not marked as starting
(:data:`services.phases.mover.STARTING`: its start-up push is not done), else 0."""


def heartbeat_serves(url: str, key: str) -> bool:
    """True if the mover heartbeat ``key`` in the Redis (or Redis Cluster) at ``url`` says its mover
    serves (:data:`HEARTBEAT_SERVES`)."""
    plain = _plain_redis(url)
    if plain is None:  # a password or a cluster: the project's own client
        from services.common.redis_client import connect

        return connect(url, socket_timeout=TIMEOUT).eval(HEARTBEAT_SERVES, 1, key) == 1
    host, port, db = plain
    select, serves = redis_command(host, port, ("SELECT", str(db)), ("EVAL", HEARTBEAT_SERVES, "1", key))
    if not select.startswith(b"+OK"):
        raise ConnectionError(select.decode(errors="replace"))
    return serves == b":1"


def probe_for(role: str, node: str = "", live: bool = False) -> Callable[[], bool]:
    """The readiness probe of ``role``, or with ``live`` its liveness probe (a callable returning
    True when it serves, or is alive).

    Raises:
        ValueError: an unknown role, a worker or mover without a node name, or ``live`` for a
            worker or a mover (they have no liveness check).
    """
    here = local_host()
    if role in ("decks", "market", "boards", "scoring"):
        address = f"{here}:{setting(f'{role}_port')}"
        service = LIVENESS_SERVICE if live else ""

        def grpc_serving() -> bool:
            import grpc
            from grpc_health.v1 import health_pb2, health_pb2_grpc

            with grpc.insecure_channel(address) as channel:
                reply = health_pb2_grpc.HealthStub(channel).Check(health_pb2.HealthCheckRequest(service=service),
                                                                  timeout=TIMEOUT)
            return reply.status == health_pb2.HealthCheckResponse.SERVING

        return grpc_serving
    if role == "gateway":
        url = f"http://{here}:{setting('gateway_port')}/{'livez' if live else 'readyz'}"

        def gateway_ok() -> bool:
            with urllib.request.urlopen(url, timeout=TIMEOUT) as answer:
                return answer.status == 200

        return gateway_ok
    if role == "redis":
        return lambda: redis_command(here, int(setting("redis_port")), ("PING",)) == [b"+PONG"]
    if role in ("worker", "mover") and live:
        raise ValueError(f"the {role} has no liveness check (its process exits when it fails)")
    if role in ("worker", "mover") and not node:
        raise ValueError(f"no node name for the {role}; is this the container the entrypoint started?")
    if role == "worker":
        def worker_answers() -> bool:
            from celery import Celery

            app = Celery("longhouse-health", broker=broker_url())
            return any(node in reply for reply in app.control.ping(destination=[node], timeout=1.0))

        return worker_answers
    if role == "mover":
        return lambda: heartbeat_serves(store_url(), f"longhouse:mover:{node}")
    raise ValueError(f"unknown role {role!r}")


def main(args: list[str] | None = None) -> int:
    """Probe once; 0 if the role serves (with ``--live`` first: is alive), 1 if not."""
    args = list(sys.argv[1:] if args is None else args)
    live = LIVE_FLAG in args
    args = [arg for arg in args if arg != LIVE_FLAG]
    recorded = {}
    try:
        recorded = json.loads(STATE_FILE.read_text())
    except (OSError, ValueError):
        pass
    role = (args[0] if args else "") or os.environ.get("LONGHOUSE_ROLE") or recorded.get("role", "")
    node = recorded.get("node", "") if recorded.get("role") == role else ""
    try:
        ok = bool(probe_for(role, node, live)())
    except Exception as exc:  # any failure to probe is "not healthy", with its reason
        print(f"{role or 'unknown role'}: not serving: {exc.__class__.__name__}: {exc}", file=sys.stderr)
        return 1
    if not ok:
        print(f"{role}: {'not alive' if live else 'not serving yet'}", file=sys.stderr)
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
