"""A small process supervisor: start children, wait until they are ready, stop them all.

Each child runs in its own process group (so a stop reaches the workers a gunicorn or
Celery master forks), writes stdout and stderr to one log file, and is stopped with
SIGTERM to its whole group, then SIGKILL after a grace period. Readiness is a probe
function polled until a deadline; a child that exits before it is ready fails the start
at once with the tail of its log.

Used by ``python -m services.launcher`` (``make run``) and by the stack test fixture, so
both run the very same code.
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import fcntl
import itertools
import json
import os
import random
import signal
import socket
import stat
import subprocess
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator, Sequence

Probe = Callable[[], bool]
"""Returns True once the child serves; may raise (counted as not ready yet)."""


class LaunchError(RuntimeError):
    """A child could not be started, did not become ready in time, or a port is taken."""


class PortInUse(LaunchError):
    """A port the stack needs is already taken by another process."""


@dataclass
class ChildSpec:
    """How to run one child.

    Attributes:
        name: short name, also the log file's stem (``<logs>/<name>.log``).
        argv: the command line.
        probe: readiness check polled until ``ready_timeout``.
        ports: loopback TCP ports the child will listen on (checked free before start).
        env: the child's complete environment (``None``: the launcher's).
        cwd: working directory (``None``: the launcher's).
        ready_timeout: seconds allowed from start to ready.
        stop_grace: seconds between SIGTERM and SIGKILL.
        kind: what the child is, where several children are one kind (the movers ``mover-0``,
            ``mover-1``, ... are each a ``mover``); ``""``: its name.
    """

    name: str
    argv: Sequence[str]
    probe: Probe
    ports: Sequence[int] = ()
    env: dict[str, str] | None = None
    cwd: str | None = None
    ready_timeout: float = 30.0
    stop_grace: float = 10.0
    kind: str = ""

    @property
    def role(self) -> str:
        """:attr:`kind`, or the name where none was given."""
        return self.kind or self.name


@dataclass
class Child:
    """A started child: its spec, process, log file and process group id."""

    spec: ChildSpec
    proc: subprocess.Popen
    log_path: Path
    pgid: int
    started_at: float = field(default_factory=time.monotonic)
    stopped: bool = False
    ready_at: float | None = None
    """When its probe first passed (monotonic seconds), if it has."""

    def ready(self) -> bool:
        """Its spec's probe, a probe that raises counting as not ready yet; notes :attr:`ready_at`
        the first time it passes."""
        try:
            ok = bool(self.spec.probe())
        except Exception:  # noqa: BLE001 - not serving yet
            ok = False
        if ok and self.ready_at is None:
            self.ready_at = time.monotonic()
        return ok

    @property
    def pid(self) -> int:
        """The child's process id (also its process group id)."""
        return self.proc.pid

    def alive(self) -> bool:
        """True while the child itself has not exited."""
        return self.proc.poll() is None


def port_is_free(port: int, host: str = "127.0.0.1") -> bool:
    """True if nothing listens on ``host:port`` (a listening socket makes the bind fail)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind((host, port))
        except OSError as exc:
            if exc.errno in (errno.EADDRINUSE, errno.EACCES):
                return False
            raise
    return True


FREE_PORTS_FROM = 10000
"""The lowest port :func:`free_port` picks."""
MIN_POOL = 1000
"""Fewer ports than this outside the kernel's range for outgoing connections: :func:`free_port`
takes the kernel's choice instead."""
_port_picker = random.Random()  # seeded by the system: which port a test stack takes, no game's chance
PICKED = Path(tempfile.gettempdir()) / f"longhouse-picked-ports-{os.geteuid()}.json"
"""The ports :func:`free_port` handed out on this machine lately, shared by every process of this
user that picks (``{port: time picked}``, read and written under an exclusive ``flock``; one file
a user, so no other user's file is ever read, written or waited for)."""
PICKED_FOR_S = 600.0
"""Seconds a picked port is passed over by every later pick: two stacks starting at once (the
test workers) each check their ports free before their children bind them, so without the ledger
both could draw the same port and the second child find it taken."""
PICKED_LOCK_S = 2.0
"""Longest wait for the ledger's lock; past it the pick goes on without the ledger."""


def ephemeral_ports() -> tuple[int, int]:
    """The ports the kernel hands out to outgoing connections, ``(low, high)`` inclusive: Linux's
    ``net.ipv4.ip_local_port_range``, else the IANA range 49152-65535 (RFC 6335, section 6)."""
    try:
        low, high = (int(x) for x in Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split())
        return low, high
    except (OSError, ValueError):
        return 49152, 65535


def port_pool() -> list[range]:
    """The ports :func:`free_port` picks from: :data:`FREE_PORTS_FROM` to 65535 without
    :func:`ephemeral_ports` (below and above that range); empty when that leaves fewer than
    :data:`MIN_POOL` ports."""
    low, high = ephemeral_ports()
    pool = [r for r in (range(FREE_PORTS_FROM, min(low, 65536)), range(max(high + 1, FREE_PORTS_FROM), 65536)) if r]
    return pool if sum(len(r) for r in pool) >= MIN_POOL else []


def _ledger_entries(text: str, now: float) -> dict[int, float]:
    """The live picks of a ledger's text: entries ``"<port>": <time>`` picked less than
    :data:`PICKED_FOR_S` seconds ago (and not stamped more than a minute ahead: a clock stepped
    back); anything else in the file, or a file that is not such a map, is dropped."""
    try:
        stored = json.loads(text or "{}")
    except ValueError:
        return {}
    if not isinstance(stored, dict):
        return {}
    picked: dict[int, float] = {}
    for port, at in stored.items():
        try:
            port_n, at_s = int(port), float(at)
        except (TypeError, ValueError):
            continue
        if 0 < port_n <= 65535 and -60.0 < now - at_s < PICKED_FOR_S:
            picked[port_n] = at_s
    return picked


def _locked(fd: int, wait_s: float) -> bool:
    """Take an exclusive ``flock`` on ``fd`` within ``wait_s`` seconds (False if not)."""
    deadline = time.monotonic() + wait_s
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return True
        except BlockingIOError:
            if time.monotonic() >= deadline:
                return False
            time.sleep(0.01)  # polling a held file lock, bounded by wait_s
        except OSError:
            return False


@contextlib.contextmanager
def picked_ports() -> Iterator[dict[int, float]]:
    """The ledger :data:`PICKED`, locked for this process until the block ends: ``{port: time
    picked}`` of the last :data:`PICKED_FOR_S` seconds (:func:`_ledger_entries`); what the block
    adds is written back. The file is opened without following a symbolic link, and used only if
    this user owns it; where it cannot be opened, is not this user's, or stays locked past
    :data:`PICKED_LOCK_S`, the block gets an empty map that nothing shares (the pick goes on
    without the ledger)."""
    try:
        fd = os.open(PICKED, os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0), 0o600)
    except OSError:
        yield {}
        return
    with os.fdopen(fd, "r+", encoding="utf-8", errors="replace") as ledger:
        info = os.fstat(fd)
        if info.st_uid != os.geteuid() or not stat.S_ISREG(info.st_mode) or not _locked(fd, PICKED_LOCK_S):
            yield {}
            return
        picked = _ledger_entries(ledger.read(), time.time())
        yield picked
        ledger.seek(0)
        ledger.truncate()
        json.dump({str(port): at for port, at in picked.items()}, ledger)
        ledger.flush()


def free_port(host: str = "127.0.0.1", avoid: frozenset[int] | set[int] = frozenset()) -> int:
    """A TCP port on ``host`` that nothing is bound to right now, not in ``avoid`` and not picked
    by any process in the last :data:`PICKED_FOR_S` seconds (:func:`picked_ports`, where it is then
    recorded), picked at random from :func:`port_pool`: a port the kernel chose by itself (a bind to
    port 0) lies in the range outgoing connections take their ports from, so a connection made
    meanwhile could hold it when the child binds it (a test stack then found its gateway's port in
    use). Where the pool is empty, or 100 picks find every port taken, the kernel's choice it is."""
    pool = port_pool()
    size = sum(len(r) for r in pool)
    with picked_ports() as picked:
        for _ in range(100 if pool else 0):
            k = _port_picker.randrange(size)
            for r in pool:
                if k < len(r):
                    port = r[k]
                    break
                k -= len(r)
            if port in avoid or port in picked:
                continue
            with socket.socket() as s:
                try:
                    s.bind((host, port))
                except OSError:
                    continue
            picked[port] = time.time()
            return port
        with socket.socket() as s:
            s.bind((host, 0))
            port = s.getsockname()[1]
        picked[port] = time.time()
        return port


def in_pool(port: int) -> bool:
    """True if ``port`` is in :func:`port_pool` (always, where the pool is empty)."""
    pool = port_pool()
    return not pool or any(port in r for r in pool)


def group_exists(pgid: int) -> bool:
    """True if any process is left in process group ``pgid``."""
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _load_prctl():
    """libc's ``prctl``, looked up once in the parent (never dlopen in a forked child)."""
    try:
        return ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):  # not Linux
        return None


_PRCTL = _load_prctl()
_PR_SET_PDEATHSIG = 1


def _die_with_parent() -> None:  # pragma: no cover - runs in the forked child
    """Linux: have the kernel send SIGTERM to the child if the launcher dies (even by SIGKILL)."""
    if _PRCTL is not None:
        _PRCTL(_PR_SET_PDEATHSIG, int(signal.SIGTERM), 0, 0, 0)


_spawner: ThreadPoolExecutor | None = None
_spawner_lock = threading.Lock()


def _popen(*args: Any, **kwargs: Any) -> subprocess.Popen:
    """``subprocess.Popen(*args, **kwargs)``, from the main thread or from one thread kept for the
    process's life.

    Linux sends the parent-death signal (:func:`_die_with_parent`) when the *thread* that forked
    the child exits, not the process (prctl(2), PR_SET_PDEATHSIG). A child started again by a
    thread that then ended (the launcher's healing during a tournament, the crash harness's) was
    sent SIGTERM at that moment. Raises what Popen raises."""
    if _main_thread():
        return subprocess.Popen(*args, **kwargs)
    global _spawner
    with _spawner_lock:
        if _spawner is None:
            _spawner = ThreadPoolExecutor(1, thread_name_prefix="spawner")
    return _spawner.submit(subprocess.Popen, *args, **kwargs).result()


def tail(path: Path, lines: int = 20) -> str:
    """The last ``lines`` lines of a log file (empty if it cannot be read)."""
    try:
        with open(path, "rb") as f:
            f.seek(0, os.SEEK_END)
            size = f.tell()
            f.seek(max(0, size - 8192))
            text = f.read().decode(errors="replace")
    except OSError:
        return ""
    return "\n".join(text.splitlines()[-lines:])


class Supervisor:
    """Starts and stops children; everything it started is stopped by :meth:`stop_all`.

    Args:
        log_dir: where ``<name>.log`` files go (created if missing).
        poll_interval: seconds between readiness probes.

    Use as a context manager: leaving the block (normally, by an exception, by Ctrl-C)
    stops every child in the reverse order of start.
    """

    def __init__(self, log_dir: str | os.PathLike[str], poll_interval: float = 0.1):
        self.log_dir = Path(log_dir)
        self.log_dir.mkdir(parents=True, exist_ok=True)
        self.poll_interval = poll_interval
        self.children: dict[str, Child] = {}
        self.specs: dict[str, ChildSpec] = {}
        self.started: list[tuple[str, int]] = []

    # -- start --------------------------------------------------------------------
    def check_ports(self, specs: Sequence[ChildSpec], variables: dict[int, str] | None = None) -> None:
        """Raise :class:`PortInUse` naming a port that two of ``specs`` (or one, twice) would listen on, or else
        every port of ``specs`` that is already taken (with the variable that moves it, from
        ``variables``: port -> variable name, when known)."""
        named = variables or {}
        owners: dict[int, str] = {}
        for spec in specs:
            for port in spec.ports:
                if port in owners:
                    whom = (f"twice to {spec.name}" if owners[port] == spec.name
                            else f"to both {owners[port]} and {spec.name}")
                    raise PortInUse(f"port {port} is given {whom}; move one with the LONGHOUSE_*_PORT "
                                    f"environment variables (the k-th mover's metrics port is "
                                    f"LONGHOUSE_MOVER_METRICS_PORT + k)")
                owners[port] = spec.name
        taken = [(s.name, p) for s in specs for p in s.ports if not port_is_free(p)]
        if taken:
            what = ", ".join(f"{p} ({name}{': ' + named[p] if p in named else ''})" for name, p in taken)
            raise PortInUse(f"port(s) already in use: {what}; stop whatever listens there or move "
                            f"Longhouse with the LONGHOUSE_*_PORT environment variables")

    def spawn(self, spec: ChildSpec) -> Child:
        """Start one child in its own process group (no readiness wait). Raises LaunchError."""
        if spec.name in self.children and self.children[spec.name].alive():
            raise LaunchError(f"{spec.name} is already running (pid {self.children[spec.name].pid})")
        self.check_ports([spec])
        log_path = self.log_dir / f"{spec.name}.log"
        with open(log_path, "ab") as log:
            log.write(f"--- {time.strftime('%Y-%m-%d %H:%M:%S')} starting: {' '.join(spec.argv)}\n".encode())
            log.flush()
            try:
                proc = _popen(
                    list(spec.argv), stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
                    env=spec.env, cwd=spec.cwd, process_group=0, preexec_fn=_die_with_parent,
                )
            except OSError as exc:
                raise LaunchError(f"cannot start {spec.name} ({spec.argv[0]}): {exc}") from exc
        child = Child(spec, proc, log_path, pgid=proc.pid)
        self.children[spec.name] = child
        self.specs[spec.name] = spec
        self.started.append((spec.name, proc.pid))
        return child

    def wait_ready(self, names: Sequence[str]) -> None:
        """Poll the probes of ``names`` until all pass; each has its own deadline.

        Raises:
            LaunchError: a child exited, or missed its deadline (message has its log tail).
        """
        waiting = {n: self.children[n] for n in names}
        while waiting:
            for name, child in list(waiting.items()):
                if not child.alive():
                    raise LaunchError(f"{name} exited with code {child.proc.returncode} before it was "
                                      f"ready; log {child.log_path}:\n{tail(child.log_path)}")
                if child.ready():
                    del waiting[name]
                elif time.monotonic() - child.started_at > child.spec.ready_timeout:
                    raise LaunchError(f"{name} was not ready within {child.spec.ready_timeout:.0f} s; "
                                      f"log {child.log_path}:\n{tail(child.log_path)}")
            if waiting:
                time.sleep(self.poll_interval)

    def start(self, *specs: ChildSpec) -> None:
        """Start ``specs`` together and wait until all are ready. Raises LaunchError."""
        self.check_ports(specs)
        for spec in specs:
            self.spawn(spec)
        self.wait_ready([s.name for s in specs])

    def restart(self, name: str) -> Child:
        """Start a stopped child again from its spec and wait until it is ready."""
        spec = self.specs[name]
        child = self.spawn(spec)
        self.wait_ready([name])
        return child

    # -- stop ---------------------------------------------------------------------
    def stop(self, name: str) -> int | None:
        """Stop one child's whole process group: SIGTERM, then SIGKILL after its grace.

        Returns the child's exit code (``None`` if it was never started).
        """
        return self.stop_many([name])[name]

    def stop_many(self, names: Sequence[str]) -> dict[str, int | None]:
        """Stop several children together: SIGTERM to each one's process group at once, then
        SIGKILL to each group still there after that child's grace. Returns name -> exit code
        (``None`` for one never started); one already stopped gives its code again."""
        codes: dict[str, int | None] = {}
        stopping: list[tuple[str, Child, float]] = []
        now = time.monotonic()
        for name in names:
            child = self.children.get(name)
            if child is None:
                codes[name] = None
            elif child.stopped:
                codes[name] = child.proc.returncode
            else:
                child.stopped = True
                self._signal_group(child, signal.SIGTERM)
                stopping.append((name, child, now + child.spec.stop_grace))
        for name, child, deadline in stopping:
            try:
                child.proc.wait(timeout=max(0.0, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                pass
            # The leader may be gone while forked workers linger; give them the rest of the grace.
            while group_exists(child.pgid) and time.monotonic() < deadline:
                time.sleep(0.05)
            if group_exists(child.pgid):
                self._signal_group(child, signal.SIGKILL)
            codes[name] = self._reap(child)
        return codes

    @staticmethod
    def _reap(child: Child) -> int:
        """Wait for the child's exit code, then (up to 5 s) for the rest of its process group to go."""
        code = child.proc.wait()
        end = time.monotonic() + 5
        while group_exists(child.pgid) and time.monotonic() < end:
            time.sleep(0.05)
        return code

    def kill(self, name: str) -> int | None:
        """SIGKILL what is left of child ``name``'s process group and reap it, leaving it (or marking
        it again) not stopped: a child whose start failed is then one that died (:meth:`dead`), to be
        started again. Returns its exit code (``None`` if it was never started)."""
        child = self.children.get(name)
        if child is None:
            return None
        self._signal_group(child, signal.SIGKILL)
        code = self._reap(child)
        child.stopped = False  # a child a restart had just stopped, whose new start failed at once
        return code

    def stop_all(self) -> dict[str, int | None]:
        """Stop every child, in the reverse order of start (children of one kind, such as the
        movers, together). Returns name -> exit code.

        Signals (SIGINT, SIGTERM) are held off meanwhile so a second Ctrl-C cannot leave
        children behind.
        """
        codes: dict[str, int | None] = {}
        old = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM}) \
            if _main_thread() else None
        try:
            for _, group in itertools.groupby(reversed(list(self.children)), key=lambda n: self.specs[n].role):
                codes.update(self.stop_many(list(group)))
        finally:
            if old is not None:
                signal.pthread_sigmask(signal.SIG_SETMASK, old)
        return codes

    def pids(self) -> dict[str, int]:
        """name -> pid of every child started (also its process group id)."""
        return {name: child.pid for name, child in self.children.items()}

    def dead(self) -> list[str]:
        """Names of children that have exited although nobody stopped them."""
        return [name for name, child in self.children.items() if not child.alive()]

    @staticmethod
    def _signal_group(child: Child, sig: int) -> None:
        try:
            os.killpg(child.pgid, sig)
        except ProcessLookupError:
            pass

    def __enter__(self) -> "Supervisor":
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop_all()


def _main_thread() -> bool:
    return threading.current_thread() is threading.main_thread()
