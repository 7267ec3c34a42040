"""A Redis Cluster of three masters on loopback, for tests: three ``redis-server --cluster-enabled
yes`` children in a directory of their own, joined by ``redis-cli --cluster create``.

Every wait has a deadline; :meth:`LoopbackCluster.stop` ends every process it started.
"""

from __future__ import annotations

import socket
import subprocess
import time
from pathlib import Path

import redis

START_TIMEOUT_S = 30.0
"""Longest wait for the nodes to answer and for the cluster to say ``cluster_state:ok``."""


def cluster_ports(count: int) -> list[int]:
    """``count`` free loopback ports ``p`` whose cluster bus port ``p + 10000`` is free too (and
    below 65536). Raises RuntimeError if 200 tries find too few."""
    found: list[int] = []
    for _ in range(200):
        with socket.socket() as a:
            a.bind(("127.0.0.1", 0))
            port = a.getsockname()[1]
            if port + 10000 > 65535 or port in found or port + 10000 in found:
                continue
            with socket.socket() as b:
                try:
                    b.bind(("127.0.0.1", port + 10000))
                except OSError:
                    continue
        found.append(port)
        if len(found) == count:
            return found
    raise RuntimeError(f"found only {len(found)} of {count} free port pairs for a Redis Cluster")


class LoopbackCluster:
    """A three-master Redis Cluster on 127.0.0.1 (no replicas), started by the constructor.

    Args:
        workdir: an empty directory; each node gets ``<port>/`` (its ``nodes.conf``) and
            ``<port>.log``.
        masters: how many masters (3 is the smallest cluster ``redis-cli`` creates).

    Raises:
        RuntimeError: a node did not answer, ``redis-cli --cluster create`` failed, or the cluster
            did not reach ``cluster_state:ok`` within :data:`START_TIMEOUT_S` (everything started
            is stopped first).
    """

    def __init__(self, workdir: Path, masters: int = 3):
        self.workdir = Path(workdir)
        self.ports = cluster_ports(masters)
        self.procs: list[subprocess.Popen] = []
        try:
            self._start()
        except BaseException:
            self.stop()
            raise

    @property
    def url(self) -> str:
        """``redis+cluster://127.0.0.1:<p1>,127.0.0.1:<p2>,...``: what ``LONGHOUSE_STORE_URL`` takes."""
        return "redis+cluster://" + ",".join(f"127.0.0.1:{p}" for p in self.ports)

    def node(self, port: int) -> redis.Redis:
        """A plain client of the node on ``port`` (answers only for its own slots)."""
        return redis.Redis(host="127.0.0.1", port=port, socket_timeout=5)

    def port_of_slot(self, slot: int) -> int:
        """The port of the master that serves hash slot ``slot``. Raises KeyError if none does."""
        for start, end, master, *_ in self.node(self.ports[0]).execute_command("CLUSTER", "SLOTS"):
            if int(start) <= slot <= int(end):
                return int(master[1])
        raise KeyError(slot)

    def keys_by_node(self, pattern: str) -> dict[int, list[str]]:
        """port -> the keys matching ``pattern`` that node holds (``SCAN`` on each node)."""
        return {port: sorted(k.decode() for k in self.node(port).scan_iter(match=pattern, count=1000))
                for port in self.ports}

    def _start(self) -> None:
        for port in self.ports:
            data = self.workdir / str(port)
            data.mkdir(parents=True)
            with open(self.workdir / f"{port}.log", "wb") as out:
                self.procs.append(subprocess.Popen(
                    ["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--dir", str(data),
                     "--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf",
                     "--cluster-node-timeout", "5000", "--save", "", "--appendonly", "no",
                     "--protected-mode", "yes", "--daemonize", "no"],
                    stdout=out, stderr=subprocess.STDOUT))
        deadline = time.monotonic() + START_TIMEOUT_S
        for port, proc in zip(self.ports, self.procs):
            self._until(deadline, lambda: self.node(port).ping(), f"node {port} did not answer", proc)
        created = subprocess.run(
            ["redis-cli", "--cluster", "create", *(f"127.0.0.1:{p}" for p in self.ports),
             "--cluster-replicas", "0", "--cluster-yes"],
            capture_output=True, text=True, timeout=START_TIMEOUT_S)
        if created.returncode != 0:
            raise RuntimeError(f"redis-cli --cluster create failed: {created.stdout[-2000:]}{created.stderr[-2000:]}")
        for port in self.ports:
            self._until(deadline, lambda: self._ok(port), f"node {port} never said cluster_state:ok")

    def _ok(self, port: int) -> bool:
        info = self.node(port).execute_command("CLUSTER", "INFO").decode()
        fields = dict(line.split(":", 1) for line in info.split() if ":" in line)
        return fields.get("cluster_state") == "ok" and fields.get("cluster_slots_ok") == "16384" \
            and fields.get("cluster_known_nodes") == str(len(self.ports))

    def _until(self, deadline: float, check, what: str, proc: subprocess.Popen | None = None) -> None:
        """Poll ``check`` until it is true (a node's own state; nothing to be told by), at most until
        ``deadline``."""
        while True:
            try:
                if check():
                    return
            except redis.RedisError:
                pass
            if time.monotonic() > deadline or (proc is not None and proc.poll() is not None):
                raise RuntimeError(f"{what} within {START_TIMEOUT_S:.0f} s (logs in {self.workdir})")
            time.sleep(0.05)

    def stop(self) -> None:
        """Stop every node (SIGTERM, then SIGKILL after 10 s) and wait for each."""
        for proc in self.procs:
            if proc.poll() is None:
                proc.terminate()
        for proc in self.procs:
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
