"""The whole stack as containers of one image, started with testcontainers on host networking.

:class:`ContainerStack` runs Redis, the four gRPC services, the Celery worker, a bus mover and
the gateway, each a container of the Longhouse image (Redis may come from another image)
with ``network_mode=host``, bound to 127.0.0.1 on free ports, and waits for each with the
launcher's own probes and a deadline. The gateway is given the sha256 digest of a fresh
operator key (``LONGHOUSE_OPERATOR_KEYS``) and :meth:`ContainerStack.client` sends that key.
:meth:`ContainerStack.stop` removes every container it started.

Ryuk, testcontainers' reaper container, is switched off (``TESTCONTAINERS_RYUK_DISABLED``): it
is an image from a registry, and this class removes its containers itself.
"""

from __future__ import annotations

import os
import time
import uuid
from dataclasses import dataclass, field
from typing import Any, Callable

from services.common.config import Settings
from services.launcher import stack as launcher
from services.launcher.stack import free_port_settings, settings_env

DEFAULT_IMAGE = "longhouse:latest"
"""The image ``make images`` builds."""
DEFAULT_REDIS_IMAGE = "redis:7.2-bookworm"
"""Redis for the stack when the Longhouse image has no ``redis-server`` (the public image)."""
ROLES = ("decks", "market", "boards", "scoring", "worker", "mover", "gateway")
"""The containers started once Redis answers, in this order."""


class StackError(RuntimeError):
    """A container did not start or serve in time (the message has the tail of its log)."""


@dataclass
class ContainerStack:
    """The stack in containers.

    Args:
        image: the Longhouse image (``make images``: ``longhouse:latest``).
        redis_image: the image of Redis; ``None``: ``image`` itself (its ``redis`` role needs
            ``redis-server`` in the image, as in the test image), else e.g. ``redis:7.2``.
        env: more ``LONGHOUSE_*`` settings for every container.
        ready_timeout: seconds each container may take to serve.
        docker_client_kw: passed to testcontainers' Docker client (default: ``DOCKER_HOST``).
    """

    image: str = DEFAULT_IMAGE
    redis_image: str | None = None
    env: dict[str, str] = field(default_factory=dict)
    ready_timeout: float = 90.0
    docker_client_kw: dict[str, Any] | None = None
    settings: Settings = field(init=False)
    operator_key: str = field(init=False, default="")
    containers: dict[str, Any] = field(init=False, default_factory=dict)

    def __post_init__(self) -> None:
        self.settings = free_port_settings(Settings(host="127.0.0.1", bind_host="", redis_host="", decks_host="",
                                                    market_host="", boards_host="", scoring_host=""))
        self.run_id = uuid.uuid4().hex[:8]

    # -- addresses ---------------------------------------------------------------------------
    @property
    def gateway_url(self) -> str:
        """``http://127.0.0.1:<port>`` of the gateway."""
        return f"http://127.0.0.1:{self.settings.gateway_port}"

    @property
    def redis_url(self) -> str:
        """The game store's URL (database ``LONGHOUSE_REDIS_DB`` of the stack's Redis)."""
        return self.settings.redis_url

    def client(self, timeout: float = 30.0):
        """A :class:`~services.bots.client.GatewayClient` of the gateway that sends the
        stack's operator key (``X-Longhouse-Operator-Key``). Close it when done."""
        import inspect

        from services.bots.client import GatewayClient

        if "operator_key" in inspect.signature(GatewayClient).parameters:
            return GatewayClient(self.gateway_url, timeout=timeout, operator_key=self.operator_key)
        client = GatewayClient(self.gateway_url, timeout=timeout)  # a client that predates operator keys
        for session in (client.session, client.once):
            session.headers["X-Longhouse-Operator-Key"] = self.operator_key
        return client

    # -- life cycle --------------------------------------------------------------------------
    def _environment(self, role: str) -> dict[str, str]:
        env = {**settings_env(self.settings), "LONGHOUSE_DATA_DIR": "/data", **self.env}
        env["LONGHOUSE_BIND_HOST"] = "127.0.0.1"  # loopback, not the image's 0.0.0.0
        if role == "worker":
            env["LONGHOUSE_WORKER_NAME"] = self.worker_node
        if role == "mover":
            env["LONGHOUSE_MOVER_NAME"] = self.mover_name
        if role == "gateway":
            from gateway.operators import digest

            env["LONGHOUSE_OPERATOR_KEYS"] = digest(self.operator_key)
            env["LONGHOUSE_OPERATOR_KEYS_FILE"] = ""  # a file of the host's is not in the container
        return env

    @property
    def worker_node(self) -> str:
        """The Celery node name of the worker container."""
        return f"phases.{self.run_id}@longhouse"

    @property
    def mover_name(self) -> str:
        """The name (heartbeat key) of the mover container."""
        return f"mover-{self.run_id}"

    def _probe(self, role: str) -> Callable[[], bool]:
        s = self.settings
        if role == "redis":
            return launcher.redis_probe("127.0.0.1", s.redis_port)
        if role == "gateway":
            return launcher.http_probe(f"{self.gateway_url}/healthz")
        if role == "worker":
            return launcher.celery_probe(s.celery_broker_url, self.worker_node)
        if role == "mover":
            return launcher.redis_key_probe(s.redis_url, f"longhouse:mover:{self.mover_name}")
        return launcher.grpc_health_probe(f"127.0.0.1:{getattr(s, f'{role}_port')}")

    def _container(self, role: str):
        from testcontainers.core.container import DockerContainer

        image = (self.redis_image or self.image) if role == "redis" else self.image
        box = DockerContainer(image, docker_client_kw=self.docker_client_kw)
        if role == "redis" and self.redis_image:  # a public Redis image: its own redis-server command
            box.with_command(["redis-server", "--port", str(self.settings.redis_port), "--bind", "127.0.0.1",
                              "--appendonly", "yes", "--save", "", "--protected-mode", "yes"])
        else:
            box.with_command([role])
        for key, value in self._environment(role).items():
            box.with_env(key, value)
        box.with_name(f"longhouse-{self.run_id}-{role}")
        # host networking, and no network of testcontainers' choosing ("network" set to none)
        box.with_kwargs(network_mode="host", network=None, labels={"org.longhouse.stack": self.run_id})
        return box

    def _wait(self, roles: list[str]) -> None:
        """Poll every role's probe until all serve; StackError names the first that did not."""
        probes = {role: self._probe(role) for role in roles}
        waiting = set(roles)
        deadline = time.monotonic() + self.ready_timeout
        while waiting:
            for role in sorted(waiting):
                box = self.containers[role]
                box.get_wrapped_container().reload()
                if box.get_wrapped_container().status in ("exited", "dead"):
                    raise StackError(f"the {role} container exited:\n{self.log_tail(role)}")
                try:
                    if probes[role]():
                        waiting.discard(role)
                except Exception:  # not serving yet
                    pass
            if waiting and time.monotonic() > deadline:
                first = sorted(waiting)[0]
                raise StackError(f"{', '.join(sorted(waiting))} did not serve within {self.ready_timeout:.0f} s; "
                                 f"the {first} container's log:\n{self.log_tail(first)}")
            if waiting:
                time.sleep(0.2)

    def start(self) -> "ContainerStack":
        """Start Redis, wait for it, then the rest together and wait for each (at most
        ``ready_timeout`` seconds). On failure every container started is removed.

        Raises:
            StackError: a container exited or did not serve in time.
        """
        from gateway.operators import new_key
        from testcontainers.core.config import testcontainers_config

        os.environ["TESTCONTAINERS_RYUK_DISABLED"] = "true"
        testcontainers_config.ryuk_disabled = True
        self.operator_key = new_key()
        try:
            self.containers["redis"] = self._container("redis").start()
            self._wait(["redis"])
            for role in ROLES:
                self.containers[role] = self._container(role).start()
            self._wait(list(ROLES))
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
        """Remove every container this stack started (gateway first, Redis last). Returns the
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
