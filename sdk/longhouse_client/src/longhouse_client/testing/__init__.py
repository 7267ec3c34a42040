"""pytest plugin of ``longhouse_client[containers]``: the whole Longhouse stack in containers for
users' own tests, with no server package installed.

Installed with the ``containers`` extra (``pip install 'longhouse_client[containers]'``:
testcontainers, docker, pytest), pytest loads it by itself (entry point ``pytest11``,
``longhouse_client.testing``); ``pytest -p longhouse_client.testing`` loads it explicitly.

Fixtures:

* ``longhouse_stack`` (session): a started :class:`~longhouse_client.testing.stack.ContainerStack`,
  every container on host networking at free 127.0.0.1 ports, ready by the gateway's
  ``GET /readyz``; every container is removed at the end of the session;
* ``longhouse_client`` (per test): a :class:`~longhouse_client.Client` of that stack's gateway,
  sending the stack's operator key.

Options (or environment variables): ``--longhouse-image`` (``LONGHOUSE_IMAGE``, default
``longhouse:latest``, what the server's ``make images`` builds), ``--longhouse-redis-image``
(``LONGHOUSE_REDIS_IMAGE``, default ``redis:7.2-bookworm``; ``same`` runs Redis from the
Longhouse image, which needs ``redis-server`` in it). The Docker engine is the one of
``DOCKER_HOST`` (default: the local one).
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Iterator

import pytest

if TYPE_CHECKING:
    from ..client import Client
    from .stack import ContainerStack


def pytest_addoption(parser: pytest.Parser) -> None:
    """The plugin's options."""
    group = parser.getgroup("longhouse", "Longhouse stack in containers")
    group.addoption("--longhouse-image", default=None,
                    help="Longhouse image for the longhouse_stack fixture (env LONGHOUSE_IMAGE, default longhouse:latest)")
    group.addoption("--longhouse-redis-image", default=None,
                    help="Redis image (env LONGHOUSE_REDIS_IMAGE, default redis:7.2-bookworm; "
                         "'same': the Longhouse image's own redis-server)")


def stack_options(config: pytest.Config) -> tuple[str, str | None]:
    """``(image, redis_image)`` from the options, else the environment, else the defaults
    (``redis_image`` ``None`` means the Longhouse image's own Redis)."""
    from .stack import DEFAULT_IMAGE, DEFAULT_REDIS_IMAGE

    image = config.getoption("--longhouse-image") or os.environ.get("LONGHOUSE_IMAGE") or DEFAULT_IMAGE
    redis_image = (config.getoption("--longhouse-redis-image") or os.environ.get("LONGHOUSE_REDIS_IMAGE")
                   or DEFAULT_REDIS_IMAGE)
    return image, None if redis_image == "same" else redis_image


@pytest.fixture(scope="session")
def longhouse_stack(pytestconfig: pytest.Config) -> Iterator["ContainerStack"]:
    """The whole Longhouse stack in containers (started once per session, removed after it)."""
    try:
        import testcontainers  # noqa: F401
    except ImportError as exc:  # pragma: no cover - without the extra
        pytest.fail(f"longhouse_stack needs testcontainers: pip install 'longhouse_client[containers]' ({exc})")
    from .stack import ContainerStack

    image, redis_image = stack_options(pytestconfig)
    stack = ContainerStack(image=image, redis_image=redis_image)
    stack.start()
    try:
        yield stack
    finally:
        left = stack.stop()
        if left:
            pytest.fail(f"containers not removed: {', '.join(left)}")


@pytest.fixture
def longhouse_client(longhouse_stack: "ContainerStack") -> Iterator["Client"]:
    """A :class:`~longhouse_client.Client` of :func:`longhouse_stack` (with its operator key), closed after the test."""
    client = longhouse_stack.client()
    try:
        yield client
    finally:
        client.close()
