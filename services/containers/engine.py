"""A Docker engine of one's own: ``dockerd`` with its own socket, data root and exec root, no
bridge network and no iptables rules, so its containers can only use host networking (the
container tests bind everything to 127.0.0.1).

:func:`why_no_engine` says why none can run here (not Linux, not root, no ``dockerd``), and
:class:`DockerEngine` starts one, waits for it with a deadline, and in :meth:`DockerEngine.stop`
removes every container left, stops the daemon and unmounts whatever it left mounted.
"""

from __future__ import annotations

import fcntl
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from services.containers.images import Docker, remove_tree, unmount_under

SYSTEM_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"


class EngineError(RuntimeError):
    """The engine did not start (the message has the tail of its log)."""


def _which(name: str) -> str | None:
    return shutil.which(name) or shutil.which(name, path=SYSTEM_PATH)


def _alive(pid: int) -> bool:
    """True while process ``pid`` runs (a zombie has ended)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def why_no_engine() -> str | None:
    """Why no Docker engine of our own can run on this machine, or ``None`` if one can be tried."""
    if not sys.platform.startswith("linux"):
        return f"the container tests need Linux (this is {sys.platform})"
    if os.geteuid() != 0:
        return "the container tests start their own dockerd, which needs root"
    for binary, package in (("dockerd", "docker.io"), ("docker", "docker.io"), ("containerd", "containerd"),
                            ("runc", "runc")):
        if _which(binary) is None:
            return f"no {binary} on this machine (make setup installs {package})"
    return None


class DockerEngine:
    """One ``dockerd``.

    Args:
        data_root: its images, containers and build cache (kept after :meth:`stop` when
            ``keep_data``, so images built once are there next time).
        keep_data: keep ``data_root`` after stopping (else it is removed).

    The socket, pid file and exec root go in a short-named temporary directory (unix socket
    paths are limited to 108 bytes).
    """

    def __init__(self, data_root: Path, keep_data: bool = True):
        self.data_root = Path(data_root)
        self.keep_data = keep_data
        self.run_dir: Path | None = None
        self.proc: subprocess.Popen | None = None
        self.log_path = self.data_root.parent / f"{self.data_root.name}.log"
        self.owner_path = self.data_root.parent / f"{self.data_root.name}.pid"

    @property
    def host(self) -> str:
        """The engine's address, ``unix://<run dir>/docker.sock`` (for ``DOCKER_HOST``)."""
        if self.run_dir is None:
            raise EngineError("the engine is not started")
        return f"unix://{self.run_dir}/docker.sock"

    def docker(self) -> Docker:
        """The ``docker`` command line of this engine."""
        return Docker(self.host, _which("docker"))

    def start(self, timeout: float = 60.0) -> "DockerEngine":
        """Start ``dockerd`` and wait (at most ``timeout`` seconds) until it answers.

        Raises:
            EngineError: it exited or did not answer in time (it is stopped again).
        """
        self.data_root.mkdir(parents=True, exist_ok=True)
        self.stop_leftover()
        self.run_dir = Path(tempfile.mkdtemp(prefix="lh-docker-"))
        argv = [_which("dockerd") or "dockerd", "--bridge=none", "--iptables=false", "--ip6tables=false",
                "--host", self.host, "--data-root", str(self.data_root),
                "--exec-root", str(self.run_dir / "exec"), "--pidfile", str(self.run_dir / "docker.pid")]
        env = {**os.environ, "PATH": os.environ.get("PATH", "") + ":" + SYSTEM_PATH}
        with open(self.log_path, "wb") as log:
            self.proc = subprocess.Popen(argv, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                         env=env, start_new_session=True)
        self.owner_path.write_text(str(self.proc.pid))
        docker = self.docker()
        deadline = time.monotonic() + timeout
        while True:
            if self.proc.poll() is not None:
                tail = self.log_tail()
                self.stop()
                raise EngineError(f"dockerd exited with code {self.proc.returncode}:\n{tail}")
            ping = subprocess.run([docker.binary, "version", "--format", "{{.Server.Version}}"], env=docker.env,
                                  stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, timeout=30)
            if ping.returncode == 0 and ping.stdout.strip():
                self.remove_containers()  # left by an earlier session that was killed
                return self
            if time.monotonic() > deadline:
                tail = self.log_tail()
                self.stop()
                raise EngineError(f"dockerd did not answer within {timeout:.0f} s:\n{tail}")
            time.sleep(0.2)

    def stop_leftover(self, grace: float = 30.0) -> bool:
        """Stop a ``dockerd`` of an earlier session on this data root that outlived it (a
        killed test run): the pid recorded beside the data root, if that process is a
        ``dockerd`` naming this data root. Returns True if there was one."""
        try:
            pid = int(self.owner_path.read_text().strip())
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
        except (OSError, ValueError):
            return False
        if not cmdline or not cmdline[0].endswith(b"dockerd") or str(self.data_root).encode() not in cmdline:
            return False
        os.kill(pid, signal.SIGTERM)
        deadline = time.monotonic() + grace
        while _alive(pid) and time.monotonic() < deadline:
            time.sleep(0.1)
        if _alive(pid):
            os.kill(pid, signal.SIGKILL)
        unmount_under(self.data_root)
        return True

    def log_tail(self, lines: int = 20) -> str:
        """The last ``lines`` lines of the daemon's log."""
        try:
            return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return "(no log)"

    def containers(self) -> list[str]:
        """Ids of every container of this engine, running or not (``docker ps -aq``)."""
        return self.docker().run("ps", "-aq").split()

    def remove_containers(self) -> list[str]:
        """Remove every container of this engine (``docker rm -f -v``); their ids."""
        left = self.containers()
        if left:
            self.docker().run("rm", "-f", "-v", *left, timeout=120)
        return left

    def stop(self, grace: float = 30.0) -> None:
        """Remove every container left, stop the daemon (SIGTERM, SIGKILL after ``grace``),
        unmount what it left mounted and remove its run directory (and data root unless kept)."""
        if self.proc is not None and self.proc.poll() is None:
            try:
                self.remove_containers()
            except Exception:  # the daemon may be half-dead; stopping it matters more
                pass
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(grace)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()
        if self.run_dir is not None:
            unmount_under(self.data_root)
            remove_tree(self.run_dir)
            self.owner_path.unlink(missing_ok=True)
        if not self.keep_data:
            remove_tree(self.data_root)

    def __enter__(self) -> "DockerEngine":
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


class EngineLock:
    """An exclusive lock on a data root, so two test sessions never share one ``dockerd``
    data root; :meth:`acquire` returns False at once if another session holds it."""

    def __init__(self, path: Path):
        self.path = Path(path)
        self.fd: int | None = None

    def acquire(self) -> bool:
        """Take the lock if free (True), else False."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            return False
        self.fd = fd
        return True

    def release(self) -> None:
        """Let the lock go."""
        if self.fd is not None:
            fcntl.flock(self.fd, fcntl.LOCK_UN)
            os.close(self.fd)
            self.fd = None
