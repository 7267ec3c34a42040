"""The image's entrypoint: ``python -m services.containers.roles ROLE [ARGS...]`` runs one process
of the stack in the foreground (it replaces itself with it, so it gets the container's signals).

========== ==================================================================================
role       process (the same commands as the launcher's, :mod:`services.launcher.stack`)
========== ==================================================================================
gateway    gunicorn's gevent worker serving ``gateway.app:create_app()`` on
           ``LONGHOUSE_BIND_HOST`` (else ``LONGHOUSE_HOST``) : ``LONGHOUSE_GATEWAY_PORT``;
           ``LONGHOUSE_GATEWAY_WORKERS`` processes (1), metrics at ``/metrics`` (multiprocess
           mode: :mod:`gateway.gunicorn_conf`)
decks      ``python -m services.decks`` (likewise ``market``, ``boards``, ``scoring``)
worker     the Celery worker on the stack's queues, node name ``LONGHOUSE_WORKER_NAME``
           (default ``phases.<random>@<hostname>``), ``LONGHOUSE_WORKER_CONCURRENCY`` threads (8)
mover      one bus mover, named ``LONGHOUSE_MOVER_NAME`` (default ``mover-<random>``); run
           more containers for more movers
redis      ``redis-server`` (where the image has it), data in ``LONGHOUSE_DATA_DIR``,
           append-only file on
health     the container's health check (:mod:`services.containers.health`)
========== ==================================================================================

The services, the worker and the mover serve their Prometheus metrics on their
``LONGHOUSE_*_METRICS_PORT`` (:class:`services.common.config.Settings`).

Any other first word is run as a command (``docker run IMAGE python -c ...``). The chosen
role and node name are written to :data:`services.containers.health.STATE_FILE`, where the health
check finds them.
"""

from __future__ import annotations

import json
import os
import socket
import sys
import uuid
from pathlib import Path

from services.containers import health

ROLES = ("gateway", "decks", "market", "boards", "scoring", "worker", "mover", "redis")
"""Every process of the stack an image can run."""


def node_name(role: str) -> str:
    """The Celery node name (``worker``) or mover name (``mover``) this container uses."""
    if role == "worker":
        name = os.environ.get("LONGHOUSE_WORKER_NAME") or f"phases.{uuid.uuid4().hex[:8]}@%h"
        return name.replace("%h", socket.gethostname())
    if role == "mover":
        return os.environ.get("LONGHOUSE_MOVER_NAME") or f"mover-{uuid.uuid4().hex[:8]}"
    return ""


def argv_for(role: str, node: str = "", extra: list[str] | None = None) -> list[str]:
    """The command line of ``role`` under the process's settings (``LONGHOUSE_*``).

    Raises:
        ValueError: ``role`` is not one of :data:`ROLES`.
    """
    from services.common.config import Settings
    from services.launcher.stack import GATEWAY_CONFIG, GATEWAY_CONNECTIONS, WORKER_QUEUES, _gunicorn_extra

    s = Settings()
    extra = list(extra or [])
    bind = s.bind_host or s.host
    py = sys.executable
    if role in ("decks", "market", "boards", "scoring"):
        return [py, "-m", f"services.{role}", *extra]
    if role == "worker":
        return [py, "-m", "celery", "-A", "services.phases.worker", "worker", "--loglevel", "INFO",
                "--pool", "threads", "--concurrency", os.environ.get("LONGHOUSE_WORKER_CONCURRENCY", "8"),
                "-n", node, "-Q", ",".join(WORKER_QUEUES), "--without-gossip", "--without-mingle", *extra]
    if role == "mover":
        return [py, "-m", "services.phases.mover", "--name", node, *extra]
    if role == "gateway":
        return [py, "-m", "gunicorn", "-c", GATEWAY_CONFIG, "-k", "gevent",
                "--worker-connections", str(GATEWAY_CONNECTIONS), "-w", os.environ.get("LONGHOUSE_GATEWAY_WORKERS", "1"), "-b", f"{bind}:{s.gateway_port}",
                "--graceful-timeout", "5", *_gunicorn_extra(), *extra, "gateway.app:create_app()"]
    if role == "redis":
        data = Path(s.data_dir)
        return ["redis-server", "--port", str(s.redis_port), "--bind", bind, "--dir", str(data),
                "--appendonly", "yes", "--appendfsync", s.redis_appendfsync, "--save", "",
                "--protected-mode", os.environ.get("LONGHOUSE_REDIS_PROTECTED_MODE", "yes"),
                "--daemonize", "no", "--logfile", "", *extra]
    raise ValueError(f"unknown role {role!r}; roles: {', '.join(ROLES)}")


def main(args: list[str] | None = None) -> int:
    """Run the role named by the first argument (default ``gateway``); never returns on success."""
    args = list(sys.argv[1:] if args is None else args) or ["gateway"]
    role, rest = args[0], args[1:]
    if role == "health":
        return health.main(rest)
    if role not in ROLES:
        os.execvp(role, [role, *rest])  # any other command, e.g. python -c '...'
    node = node_name(role)
    try:
        health.STATE_FILE.write_text(json.dumps({"role": role, "node": node}))
    except OSError as exc:  # a read-only file system: the health check then needs LONGHOUSE_ROLE
        print(f"longhouse: cannot write {health.STATE_FILE}: {exc}", file=sys.stderr)
    argv = argv_for(role, node, rest)
    os.environ["LONGHOUSE_ROLE"] = role
    os.environ["PYTHONUNBUFFERED"] = "1"
    os.execvp(argv[0], argv)
    return 127  # pragma: no cover - execvp does not return


if __name__ == "__main__":
    raise SystemExit(main())
