"""Container fixtures: a Docker engine of the tests' own and the images built on it.

:func:`docker_engine` starts ``dockerd`` itself (no bridge, no iptables, its own socket and
data root; :mod:`services.containers.engine`) and skips the container tests, with the reason,
where none can run: not root, no ``dockerd``, or a daemon that does not start. Its data root
is kept in the container cache (``LONGHOUSE_CONTAINER_CACHE``, default ``~/.cache/longhouse``)
so that images built once are there next time; a second session while one holds it gets a
temporary data root. :func:`test_image` builds the Debian base image (debootstrap, cached)
and the project image from it (``longhouse:test``).
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Iterator

import pytest

from services.containers.engine import DockerEngine, EngineError, EngineLock, why_no_engine
from services.containers.images import ImageError, build_base_image, build_project_image, cache_dir

ROOT = Path(__file__).resolve().parents[2]
TEST_IMAGE = "longhouse:test"
"""The project image the container tests build (FROM the debootstrap base image)."""


@pytest.fixture(scope="package")
def docker_engine(tmp_path_factory) -> Iterator[DockerEngine]:
    """A running ``dockerd`` for the tests of this package; ``DOCKER_HOST`` points at it meanwhile. Every
    container left is removed, the daemon stopped and its mounts undone at the end."""
    reason = why_no_engine()
    if reason:
        pytest.skip(f"no Docker engine can run here: {reason}")
    cache = cache_dir()
    lock = EngineLock(cache / "docker.lock")
    if lock.acquire():
        engine = DockerEngine(cache / "docker", keep_data=True)
    else:  # another session uses the cached data root
        engine = DockerEngine(tmp_path_factory.mktemp("docker") / "root", keep_data=False)
    started = time.monotonic()
    try:
        engine.start()
    except EngineError as exc:
        lock.release()
        pytest.skip(f"dockerd did not start here: {exc}")
    print(f"\ndockerd ready in {time.monotonic() - started:.1f} s ({engine.data_root})")
    patch = pytest.MonkeyPatch()
    patch.setenv("DOCKER_HOST", engine.host)
    patch.setenv("TESTCONTAINERS_RYUK_DISABLED", "true")
    try:
        yield engine
    finally:
        patch.undo()
        engine.stop()
        lock.release()


@pytest.fixture(scope="package")
def test_image(docker_engine: DockerEngine) -> str:
    """The project image built on the debootstrap base image (both cached between runs)."""
    docker = docker_engine.docker()
    started = time.monotonic()
    try:
        base = build_base_image(docker)
        tag = build_project_image(docker, TEST_IMAGE, base)
    except ImageError as exc:
        pytest.fail(f"the images could not be built: {exc}")
    print(f"\nimages {base} and {tag} ready in {time.monotonic() - started:.1f} s")
    return tag
