"""The images: a wheelhouse made on the host, a Debian base image made with debootstrap, and the
project image built from ``deploy/docker/Dockerfile`` (``make images``).

* :func:`build_wheelhouse`: ``pip wheel`` of the project's pinned dependencies
  (``constraints.txt``), kept in the cache under a digest of ``pyproject.toml`` and
  ``constraints.txt``, plus a fresh wheel of the project itself;
* :func:`build_base_image`: ``debootstrap`` of Debian bookworm (minbase, with python3,
  python3-venv and redis-server) into a directory, packed into a tar file kept in the cache
  under a digest of the recipe, and ``docker import``-ed;
* :func:`build_project_image`: ``docker build`` of the Dockerfile with the wheelhouse beside it,
  ``--network none``: the build reaches no network.

The cache is ``LONGHOUSE_CONTAINER_CACHE``, else ``$XDG_CACHE_HOME/longhouse`` (default
``~/.cache/longhouse``), so a second build, even in another clone, is quick.

``python -m services.containers.images [--base IMAGE|debootstrap] [--tag TAG]`` builds the
project image (on the engine of ``DOCKER_HOST``, default the local one).
"""

from __future__ import annotations

import argparse
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Callable, Sequence

ROOT = Path(__file__).resolve().parents[2]
"""The source checkout (images are built from a checkout, not from an installed package)."""
DOCKERFILE_DIR = ROOT / "deploy" / "docker"
DEFAULT_BASE = "python:3.11-slim"
"""The base image of ``make images`` (public; pulled by the engine)."""
DEBIAN_SUITE = "bookworm"
DEBIAN_MIRROR = os.environ.get("LONGHOUSE_DEBIAN_MIRROR", "http://deb.debian.org/debian")
BASE_PACKAGES = ("python3", "python3-venv", "redis-server")
"""What the debootstrap base image holds besides Debian's minbase."""
BASE_RECIPE = 1
"""Bump when :func:`build_base_image` changes what it makes, so the cached image is made anew."""
OLDER_PYTHON_WHEELS = ("async-timeout",)
"""Dependencies only of older 3.11 releases than the host's (redis needs async-timeout below
3.11.3, and Debian bookworm's Python is 3.11.2): added to the wheelhouse at their pinned versions."""
DEFAULT_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"

Say = Callable[[str], None]


class ImageError(RuntimeError):
    """An image could not be built (the message says which step and why)."""


def cache_dir() -> Path:
    """Where wheelhouses and base images are kept between runs."""
    explicit = os.environ.get("LONGHOUSE_CONTAINER_CACHE")
    if explicit:
        return Path(explicit)
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "longhouse"


def _digest(*parts: bytes | str) -> str:
    h = hashlib.sha256()
    for part in parts:
        h.update(part.encode() if isinstance(part, str) else part)
        h.update(b"\0")
    return h.hexdigest()[:16]


def _run(argv: Sequence[str], what: str, env: dict[str, str] | None = None, **kwargs) -> subprocess.CompletedProcess:
    """Run ``argv``; ImageError with the tail of its output if it fails."""
    proc = subprocess.run(list(argv), env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, **kwargs)
    if proc.returncode != 0:
        tail = "\n".join(proc.stdout.splitlines()[-30:])
        raise ImageError(f"{what} failed (exit {proc.returncode}):\n{tail}")
    return proc


class Docker:
    """The ``docker`` command line for one engine.

    Args:
        host: the engine's address (``unix:///...``); ``None``: ``DOCKER_HOST`` or the default.
        binary: the client (default: ``docker`` on ``PATH``).
    """

    def __init__(self, host: str | None = None, binary: str | None = None):
        self.host = host
        self.binary = binary or shutil.which("docker") or "docker"

    @property
    def env(self) -> dict[str, str]:
        """The client's environment: this engine, and the classic builder (no buildx needed)."""
        env = {**os.environ, "DOCKER_BUILDKIT": "0"}
        if self.host:
            env["DOCKER_HOST"] = self.host
        return env

    def run(self, *args: str, what: str | None = None, timeout: float | None = None) -> str:
        """``docker ARGS``; its standard output. Raises ImageError if it fails."""
        return _run([self.binary, *args], what or f"docker {' '.join(args[:2])}", env=self.env,
                    timeout=timeout).stdout

    def image_exists(self, tag: str) -> bool:
        """True if the engine has image ``tag``."""
        return subprocess.run([self.binary, "image", "inspect", tag], env=self.env, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL).returncode == 0


# -- the wheelhouse ------------------------------------------------------------------------
def _stage_source(dest: Path) -> Path:
    """A copy of what the project's wheel is built from (the packages, generated gRPC code
    included, and pyproject.toml), so no build output lands in the checkout. The rules compiled in
    place (``make compile``) are left out: the image runs the sources."""
    if not (ROOT / "services" / "api" / ".generated").exists():
        raise ImageError("the gRPC code is not generated; run `make setup` first")
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info", "*.so")  # compiled rules: built per machine
    for package in ("services", "gateway"):
        shutil.copytree(ROOT / package, dest / package, ignore=ignore)
    shutil.copy2(ROOT / "pyproject.toml", dest / "pyproject.toml")
    return dest


def deps_key() -> str:
    """The digest that names a wheelhouse of dependencies: pyproject.toml and constraints.txt."""
    return _digest((ROOT / "pyproject.toml").read_bytes(), (ROOT / "constraints.txt").read_bytes(),
                   f"py{sys.version_info[0]}.{sys.version_info[1]}")


def build_wheelhouse(dest: Path, say: Say = print) -> Path:
    """Fill ``dest`` with ``deps/`` (every pinned runtime dependency as a wheel, from the cache
    or made now with ``pip wheel``) and ``project/`` (a wheel of the checkout). Returns ``dest``.

    Raises:
        ImageError: not Python 3.11 (the images' Python), or pip failed.
    """
    if sys.version_info[:2] != (3, 11):
        raise ImageError(f"the wheelhouse must be made by Python 3.11, the images' Python, not "
                         f"{sys.version_info[0]}.{sys.version_info[1]}")
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check"]
    cached = cache_dir() / f"wheels-{deps_key()}"
    with tempfile.TemporaryDirectory(prefix="longhouse-src-") as tmp:
        src = _stage_source(Path(tmp) / "src")
        if not cached.exists():
            say(f"wheelhouse: pip wheel of the pinned dependencies into {cached}")
            part = cached.with_name(cached.name + ".part")
            shutil.rmtree(part, ignore_errors=True)
            part.mkdir(parents=True)
            _run([*pip, "wheel", "-q", "-c", str(ROOT / "constraints.txt"), "-w", str(part), str(src)],
                 "pip wheel of the dependencies")
            _run([*pip, "wheel", "-q", "--no-deps", "-c", str(ROOT / "constraints.txt"), "-w", str(part),
                  *OLDER_PYTHON_WHEELS], "pip wheel of the older Pythons' dependencies")
            for own in part.glob("longhouse-*.whl"):
                own.unlink()
            part.rename(cached)
            for old in cached.parent.glob("wheels-*"):  # wheelhouses of earlier pins
                if old != cached and not old.name.endswith(".part"):
                    shutil.rmtree(old, ignore_errors=True)
        deps, project = dest / "deps", dest / "project"
        shutil.rmtree(dest, ignore_errors=True)
        deps.mkdir(parents=True)
        project.mkdir()
        for wheel in cached.glob("*.whl"):
            try:
                os.link(wheel, deps / wheel.name)
            except OSError:
                shutil.copy2(wheel, deps / wheel.name)
        _run([*pip, "wheel", "-q", "--no-deps", "--no-build-isolation", "-w", str(project), str(src)],
             "pip wheel of the project")
    return dest


# -- the debootstrap base image ---------------------------------------------------------------
def base_image_tag() -> str:
    """The tag of the debootstrap base image, named by a digest of its recipe."""
    return f"longhouse-base:{DEBIAN_SUITE}-{_digest(DEBIAN_SUITE, 'minbase', *BASE_PACKAGES, str(BASE_RECIPE))}"


def mounts_under(path: Path) -> list[str]:
    """Mount points at or below ``path``, deepest first (from ``/proc/self/mountinfo``)."""
    root = str(path.resolve())
    found = []
    try:
        lines = Path("/proc/self/mountinfo").read_text().splitlines()
    except OSError:
        return []
    for line in lines:
        point = line.split()[4].encode().decode("unicode_escape")
        if point == root or point.startswith(root + "/"):
            found.append(point)
    return sorted(set(found), key=len, reverse=True)


def unmount_under(path: Path) -> None:
    """Unmount (lazily) everything mounted at or below ``path``."""
    for point in mounts_under(path):
        subprocess.run(["umount", "-l", point], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def remove_tree(path: Path) -> None:
    """``rm -rf path``, never into a file system still mounted inside it."""
    if path.exists():
        unmount_under(path)
        shutil.rmtree(path, ignore_errors=True)


def base_tarball(say: Say = print) -> Path:
    """The cached root file system of the base image (a tar file), made with debootstrap if
    missing (about a minute; needs root and deb.debian.org or ``LONGHOUSE_DEBIAN_MIRROR``).

    Raises:
        ImageError: no debootstrap, not root, or debootstrap failed.
    """
    tarball = cache_dir() / f"{base_image_tag().replace(':', '-')}.tar"
    if tarball.exists():
        return tarball
    debootstrap = shutil.which("debootstrap") or shutil.which("debootstrap", path="/usr/sbin:/sbin")
    if not debootstrap:
        raise ImageError("debootstrap is not installed (make setup installs it)")
    if os.geteuid() != 0:
        raise ImageError("debootstrap needs root")
    tarball.parent.mkdir(parents=True, exist_ok=True)
    rootfs = Path(tempfile.mkdtemp(prefix="rootfs-", dir=tarball.parent))
    try:
        say(f"base image: debootstrap {DEBIAN_SUITE} (minbase, {', '.join(BASE_PACKAGES)}), about a minute")
        _run([debootstrap, "--variant=minbase", f"--include={','.join(BASE_PACKAGES)}", DEBIAN_SUITE,
              str(rootfs), DEBIAN_MIRROR], "debootstrap")
        unmount_under(rootfs)
        for junk in ("var/cache/apt/archives", "var/lib/apt/lists"):
            for item in (rootfs / junk).glob("*"):
                if item.is_file():
                    item.unlink()
        part = tarball.with_suffix(".part")
        _run(["tar", "--numeric-owner", "-C", str(rootfs), "-cf", str(part), "."], "tar of the base image")
        part.rename(tarball)
    finally:
        remove_tree(rootfs)
    return tarball


def build_base_image(docker: Docker, say: Say = print) -> str:
    """The debootstrap base image in ``docker``'s engine (imported from the cache if needed).
    Returns its tag."""
    tag = base_image_tag()
    if docker.image_exists(tag):
        return tag
    tarball = base_tarball(say)
    say(f"base image: docker import {tarball.name} as {tag}")
    docker.run("import", "--change", f"ENV PATH={DEFAULT_PATH}", "--change", "ENV LANG=C.UTF-8",
               "--change", 'CMD ["/bin/bash"]', str(tarball), tag, what="docker import")
    return tag


# -- the project image --------------------------------------------------------------------------
def build_project_image(docker: Docker, tag: str = "longhouse:latest", base: str = DEFAULT_BASE,
                        say: Say = print) -> str:
    """``docker build`` of ``deploy/docker/Dockerfile`` on ``base`` with a fresh wheelhouse;
    no network inside the build. Returns ``tag``.

    Raises:
        ImageError: the wheelhouse or the build failed.
    """
    with tempfile.TemporaryDirectory(prefix="longhouse-image-", dir=cache_dir() if cache_dir().exists() else None) as tmp:
        context = Path(tmp)
        build_wheelhouse(context / "wheelhouse", say)
        shutil.copy2(DOCKERFILE_DIR / "Dockerfile", context / "Dockerfile")
        say(f"image: docker build {tag} from {base}")
        docker.run("build", "--force-rm", "--network", "none", "--build-arg", f"BASE_IMAGE={base}", "-t", tag, str(context),
                   what=f"docker build of {tag}")
    subprocess.run([docker.binary, "image", "prune", "-f"], env=docker.env, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)  # the images this tag named before
    return tag


def main(argv: list[str] | None = None) -> int:
    """``make images``: build the project image; 0 on success, 1 on failure."""
    parser = argparse.ArgumentParser(prog="python -m services.containers.images",
                                     description="Build the Longhouse image from a wheelhouse made here.")
    parser.add_argument("--base", default=os.environ.get("LONGHOUSE_BASE_IMAGE", DEFAULT_BASE),
                        help=f"base image (default {DEFAULT_BASE}), or 'debootstrap' for Debian {DEBIAN_SUITE} "
                             "made here with debootstrap (no registry needed)")
    parser.add_argument("--tag", default="longhouse:latest", help="the image's tag (default longhouse:latest)")
    args = parser.parse_args(argv)
    docker = Docker()
    try:
        cache_dir().mkdir(parents=True, exist_ok=True)
        base = build_base_image(docker) if args.base == "debootstrap" else args.base
        build_project_image(docker, args.tag, base)
    except ImageError as exc:
        print(f"images: {exc}", file=sys.stderr)
        return 1
    print(f"built {args.tag} (base {base})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
