"""The whole Longhouse stack as containers of its image, started from the client side.

:class:`ContainerStack` runs Redis, the four gRPC services, the Celery worker, a bus mover and the
gateway, each a container of the Longhouse image (Redis may come from another image) with
``network_mode=host``, bound to 127.0.0.1 on free ports. It needs only this package, testcontainers
and a Docker engine: never the server's packages. Readiness is asked over HTTP alone: Redis and the
gateway start first and the gateway's ``GET /healthz`` says when Redis answers; then the rest start
and ``GET /readyz`` says when every part serves (the gRPC services' health, a mover, a worker).
The gateway accepts the sha256 digest of a fresh operator key (``LONGHOUSE_OPERATOR_KEYS``), and
:meth:`ContainerStack.client` sends that key. :meth:`ContainerStack.stop` removes every container
it started.

Ryuk, testcontainers' reaper container, is switched off (``TESTCONTAINERS_RYUK_DISABLED``): it is
an image from a registry, and this class removes its containers itself.
"""

from __future__ import annotations

import base64
import hashlib
import os
import secrets
import socket
import time
import uuid
from dataclasses import dataclass, field
from typing import Any

import httpx

from ..client import Client
from ..errors import LonghouseError

DEFAULT_IMAGE = "longhouse:latest"
"""The image the server's ``make images`` builds."""
DEFAULT_REDIS_IMAGE = "redis:7.2-bookworm"
"""Redis for the stack when the Longhouse image has no ``redis-server`` (the public image)."""
ROLES = ("decks", "market", "boards", "scoring", "worker", "mover")
"""The containers started once the gateway says Redis answers, in this order."""
PORTS = ("redis_port", "gateway_port", "decks_port", "market_port", "boards_port", "scoring_port")
"""The settings each stack gets a free loopback port for (``LONGHOUSE_<NAME>``)."""
POLL_S = 0.25
"""Seconds between two readiness questions."""


class StackError(RuntimeError):
    """A container did not start or serve in time (the message has the tail of its log)."""


def free_ports(count: int) -> list[int]:
    """``count`` distinct free TCP ports on 127.0.0.1 (asked of the kernel, all held until each is known)."""
    held: list[socket.socket] = []
    try:
        for _ in range(count):
            sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            sock.bind(("127.0.0.1", 0))
            held.append(sock)
        return [sock.getsockname()[1] for sock in held]
    finally:
        for sock in held:
            sock.close()


def new_operator_key() -> str:
    """A fresh operator key, in the server's format: ``lhop_`` and 32 random bytes, URL-safe base64."""
    return "lhop_" + secrets.token_urlsafe(32)


def key_digest(key: str) -> str:
    """The sha256 hex digest of ``key``: what a gateway is configured to accept (``LONGHOUSE_OPERATOR_KEYS``)."""
    return hashlib.sha256(key.strip().encode("utf-8")).hexdigest()


@dataclass
class ContainerStack:
    """The stack in containers.

    Args:
        image: the Longhouse image (the server's ``make images``: ``longhouse:latest``).
        redis_image: the image of Redis; ``None``: ``image`` itself (its ``redis`` role needs
            ``redis-server`` in the image), else e.g. ``redis:7.2-bookworm``.
        env: more ``LONGHOUSE_*`` settings for every container.
        ready_timeout: seconds the stack may take to serve, in each of its two steps.
        docker_client_kw: passed to testcontainers' Docker client (default: ``DOCKER_HOST``).
    """

    image: str = DEFAULT_IMAGE
    redis_image: str | None = None
    env: dict[str, str] = field(default_factory=dict)
    ready_timeout: float = 90.0
    docker_client_kw: dict[str, Any] | None = None
    ports: dict[str, int] = field(init=False)
    operator_key: str = field(init=False, default="")
    containers: dict[str, Any] = field(init=False, default_factory=dict)

    def __post_init__(self) -> None:
        self.ports = dict(zip(PORTS, free_ports(len(PORTS))))
        self.run_id = uuid.uuid4().hex[:8]
        # the stack's own key for secrets at rest (a Fernet key: 32 random bytes, URL-safe base64)
        self.secret_keys = base64.urlsafe_b64encode(os.urandom(32)).decode()

    # -- addresses ---------------------------------------------------------------------------
    @property
    def gateway_url(self) -> str:
        """``http://127.0.0.1:<port>`` of the gateway."""
        return f"http://127.0.0.1:{self.ports['gateway_port']}"

    @property
    def redis_url(self) -> str:
        """The game store's URL (database 0 of the stack's Redis)."""
        return f"redis://127.0.0.1:{self.ports['redis_port']}/0"

    def client(self, timeout: float = 30.0) -> Client:
        """A :class:`~longhouse_client.Client` of the gateway that sends the stack's operator key.
        Close it when done."""
        return Client(self.gateway_url, operator_key=self.operator_key, timeout=timeout)

    @property
    def worker_node(self) -> str:
        """The Celery node name of the worker container."""
        return f"phases.{self.run_id}@longhouse"

    @property
    def mover_name(self) -> str:
        """The name (heartbeat key) of the mover container."""
        return f"mover-{self.run_id}"

    # -- life cycle --------------------------------------------------------------------------
    def environment(self, role: str) -> dict[str, str]:
        """The ``LONGHOUSE_*`` variables of the ``role`` container: loopback, the stack's ports,
        the worker's and mover's names, the gateway's one operator key digest, the stack's own key of
        secrets at rest (``LONGHOUSE_SECRET_KEYS``, made for this stack), then :attr:`env`."""
        env = {"LONGHOUSE_HOST": "127.0.0.1", "LONGHOUSE_BIND_HOST": "127.0.0.1",  # not the image's 0.0.0.0
               "LONGHOUSE_DATA_DIR": "/data", "LONGHOUSE_SECRET_KEYS": self.secret_keys,
               **{f"LONGHOUSE_{name.upper()}": str(port) for name, port in self.ports.items()}}
        if role == "worker":
            env["LONGHOUSE_WORKER_NAME"] = self.worker_node
        if role == "mover":
            env["LONGHOUSE_MOVER_NAME"] = self.mover_name
        if role == "gateway":
            env["LONGHOUSE_OPERATOR_KEYS"] = key_digest(self.operator_key)
            env["LONGHOUSE_OPERATOR_KEYS_FILE"] = ""  # a file of the host's is not in the container
        return {**env, **self.env}

    def _container(self, role: str):
        from testcontainers.core.container import DockerContainer

        image = (self.redis_image or self.image) if role == "redis" else self.image
        box = DockerContainer(image, docker_client_kw=self.docker_client_kw)
        if role == "redis" and self.redis_image:  # a public Redis image: its own redis-server command
            box.with_command(["redis-server", "--port", str(self.ports["redis_port"]), "--bind", "127.0.0.1",
                              "--appendonly", "yes", "--save", "", "--protected-mode", "yes"])
        else:
            box.with_command([role])
        for key, value in self.environment(role).items():
            box.with_env(key, value)
        box.with_name(f"longhouse-{self.run_id}-{role}")
        # host networking, and no network of testcontainers' choosing ("network" set to none)
        box.with_kwargs(network_mode="host", network=None, labels={"org.longhouse.stack": self.run_id})
        return box

    def _exited(self) -> str | None:
        """The role of a container that has exited, if any."""
        for role, box in self.containers.items():
            wrapped = box.get_wrapped_container()
            wrapped.reload()
            if wrapped.status in ("exited", "dead"):
                return role
        return None

    def _wait(self, what: str, ask) -> None:
        """Ask ``ask(client)`` every :data:`POLL_S` until it returns without raising, at most
        :attr:`ready_timeout` seconds; :class:`StackError` if a container exits or time runs out."""
        deadline = time.monotonic() + self.ready_timeout
        with Client(self.gateway_url, timeout=5.0) as client:
            while True:
                try:
                    ask(client)
                    return
                except (LonghouseError, httpx.TransportError) as exc:
                    last = exc.body.get("checks") or exc.reason if isinstance(exc, LonghouseError) else exc
                exited = self._exited()
                if exited:
                    raise StackError(f"the {exited} container exited:\n{self.log_tail(exited)}")
                if time.monotonic() > deadline:
                    raise StackError(f"{what} not within {self.ready_timeout:.0f} s (last: {last}); "
                                     f"the gateway container's log:\n{self.log_tail('gateway')}")
                time.sleep(POLL_S)

    def start(self) -> "ContainerStack":
        """Start Redis and the gateway, wait until ``GET /healthz`` answers 200 (Redis answers the
        gateway), start the rest and wait until ``GET /readyz`` answers 200, each step at most
        :attr:`ready_timeout` seconds. On failure every container started is removed.

        Raises:
            StackError: a container exited or the stack did not serve in time.
        """
        from testcontainers.core.config import testcontainers_config

        os.environ["TESTCONTAINERS_RYUK_DISABLED"] = "true"
        testcontainers_config.ryuk_disabled = True
        self.operator_key = new_operator_key()
        try:
            for role in ("redis", "gateway"):
                self.containers[role] = self._container(role).start()
            self._wait("Redis answering the gateway (GET /healthz)", lambda client: client.health())
            for role in ROLES:
                self.containers[role] = self._container(role).start()
            self._wait("every part serving (GET /readyz)", lambda client: client.ready())
        except BaseException:
            self.stop()
            raise
        return self

    def log_tail(self, role: str, lines: int = 30) -> str:
        """The last ``lines`` lines of the ``role`` container's output."""
        try:
            out, err = self.containers[role].get_logs()
        except Exception as exc:
            return f"(no log: {exc})"
        text = (out + err).decode(errors="replace")
        return "\n".join(text.splitlines()[-lines:])

    def stop(self) -> list[str]:
        """Remove every container this stack started (last started first, Redis last). Returns the
        roles whose container could not be removed (empty when all went)."""
        failed = []
        for role in reversed(list(self.containers)):
            try:
                self.containers[role].stop()
            except Exception:
                failed.append(role)
        self.containers.clear()
        return failed

    def __enter__(self) -> "ContainerStack":
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
