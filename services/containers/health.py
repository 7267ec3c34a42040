"""The containers' health check: ``python -m services.containers.health [ROLE]`` exits 0 if the
process of ``ROLE`` serves, 1 if not (the reason on standard error).

The role comes from the argument, else ``LONGHOUSE_ROLE``, else the file the entrypoint wrote
(:data:`services.containers.roles.STATE_FILE`). Each role is probed as the launcher probes it
(:mod:`services.launcher.stack`), on the container's own address (``LONGHOUSE_BIND_HOST``, where
``0.0.0.0`` means loopback, else ``LONGHOUSE_HOST``):

* ``decks``, ``market``, ``boards``, ``scoring``: gRPC health (``grpc.health.v1``) says SERVING;
* ``gateway``: ``GET /healthz`` answers 200 (Redis answers the gateway);
* ``worker``: the container's Celery node answers a control ping through the broker;
* ``mover``: its heartbeat key is in Redis;
* ``redis``: ``PING`` answers.
"""

from __future__ import annotations

import json
import os
import sys

from services.containers.roles import STATE_FILE


def _local_host(bind: str, host: str) -> str:
    """Where this container's own server is reached from inside it."""
    if bind in ("0.0.0.0", "::", "[::]"):
        return "127.0.0.1"
    return bind or host


def probe_for(role: str, node: str = ""):
    """The readiness probe of ``role`` (a callable returning True when it serves).

    Raises:
        ValueError: an unknown role, or a worker or mover without a node name.
    """
    from services.common.config import Settings
    from services.launcher import stack

    s = Settings()
    here = _local_host(s.bind_host, s.host)
    if role in ("decks", "market", "boards", "scoring"):
        return stack.grpc_health_probe(f"{here}:{getattr(s, f'{role}_port')}")
    if role == "gateway":
        return stack.http_probe(f"http://{here}:{s.gateway_port}/healthz")
    if role == "redis":
        return stack.redis_probe(here, s.redis_port)
    if role in ("worker", "mover") and not node:
        raise ValueError(f"no node name for the {role}; is this the container the entrypoint started?")
    if role == "worker":
        return stack.celery_probe(s.celery_broker_url, node)
    if role == "mover":
        from services.phases.mover import HEARTBEAT

        return stack.redis_key_probe(s.redis_url, HEARTBEAT.format(name=node))
    raise ValueError(f"unknown role {role!r}")


def main(args: list[str] | None = None) -> int:
    """Probe once; 0 if the role serves, 1 if not."""
    args = list(sys.argv[1:] if args is None else args)
    recorded = {}
    try:
        recorded = json.loads(STATE_FILE.read_text())
    except (OSError, ValueError):
        pass
    role = (args[0] if args else "") or os.environ.get("LONGHOUSE_ROLE") or recorded.get("role", "")
    node = recorded.get("node", "") if recorded.get("role") == role else ""
    try:
        ok = bool(probe_for(role, node)())
    except Exception as exc:  # any failure to probe is "not healthy", with its reason
        print(f"{role or 'unknown role'}: not serving: {exc.__class__.__name__}: {exc}", file=sys.stderr)
        return 1
    if not ok:
        print(f"{role}: not serving yet", file=sys.stderr)
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
