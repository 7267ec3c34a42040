"""A mover rides out a restart of Redis or of a domain service (found by the crash harness,
``services/reliability/crash.py``): any such failure mid-round used to end the mover process,
so every Redis or service kill also took the movers down until the launcher restarted them,
with back-off growing at each death. Now it keeps its games in hand, waits and tries again."""

from __future__ import annotations

import threading
import time

import grpc
import pytest
import redis

from services.coordinator.wire import DomainCallFailed
from services.phases import mover as mover_module
from services.phases.mover import Mover
from tests.support.mover_fakes import BotsOnlyTable


class FlakyRedis:
    """The few Redis calls a mover makes, failing with ConnectionError while :attr:`down`."""

    def __init__(self):
        self.down = True
        self.ready: list[bytes] = []
        self.failures = 0
        self.lock = threading.Lock()

    def _check(self):
        if self.down:
            with self.lock:
                self.failures += 1
            raise redis.ConnectionError("Connection closed by server.")

    def register_script(self, _source):
        def take(keys, args):
            self._check()
            got, self.ready[:] = self.ready[:], []
            return got
        return take

    def set(self, *_args, **_kwargs):
        self._check()

    def scan_iter(self, **_kwargs):
        self._check()
        return iter(())

    def brpop(self, key, timeout):
        self._check()
        if self.ready:
            return (key if isinstance(key, str) else key[0]).encode(), self.ready.pop()
        threading.Event().wait(min(timeout, 0.02))  # nothing more arrives in this double while it waits
        return None

    def lpush(self, *_args):
        self._check()


class FlakyTable(BotsOnlyTable):
    """Records the mover's reads; the first read of each game fails as a dead service would."""

    def __init__(self):
        self.reads: list[str] = []

    def next_job(self, game_id, version=None, deciding=None):
        self.reads.append(game_id)
        if self.reads.count(game_id) == 1:
            raise DomainCallFailed(grpc.StatusCode.UNAVAILABLE, None, "failed to connect to all addresses")
        return None


def _until(condition, what, timeout=10.0):
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            pytest.fail(f"timed out waiting for {what}")
        time.sleep(0.01)


def test_a_mover_rides_out_redis_and_service_outages(monkeypatch):
    requeued = []
    monkeypatch.setattr(mover_module, "requeue_waiting", lambda table, client, **_: requeued.append(1) or 0)
    client, table = FlakyRedis(), FlakyTable()
    mover = Mover(table, client, batch=4, name="outage-test")
    errors: list[BaseException] = []

    def serve():
        try:
            mover.run()
        except BaseException as exc:  # noqa: BLE001 - what the test looks for
            errors.append(exc)

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        _until(lambda: client.failures >= 3 or not thread.is_alive(), "three failed calls while Redis is down")
        assert thread.is_alive() and not errors, errors  # it ended at the first ConnectionError before
        client.ready.append(b"g1")
        client.down = False
        _until(lambda: table.reads.count("g1") >= 2 or not thread.is_alive(),
               "the game read again after the service failure")
        assert thread.is_alive() and not errors, errors
        assert requeued, "after an outage the games waiting for a bot are pushed again"
    finally:
        mover.stopping.set()
        thread.join(10)
    assert not thread.is_alive()


def test_a_mover_still_stops_on_a_real_error(monkeypatch):
    client, table = FlakyRedis(), FlakyTable()
    client.down = False
    client.ready.append(b"g1")
    table.next_job = lambda game_id, version=None, deciding=None: (_ for _ in ()).throw(
        DomainCallFailed(grpc.StatusCode.INTERNAL, "bug", "a bug, not an outage"))
    mover = Mover(table, client, batch=4, name="bug-test")
    with pytest.raises(DomainCallFailed, match="INTERNAL"):
        mover.run()


def test_the_movers_main_makes_its_client_with_mover_client(monkeypatch):
    """The mover process's Redis client is ``mover_client``'s, which sends nothing again after a
    connection error (a lost pop's games are then pushed again by the outage handling:
    ``tests/unit/test_redis_cluster.py``), not a default one."""
    made = []

    class Made(Exception):
        pass

    def record(url, **options):
        made.append(url)
        raise Made

    monkeypatch.setattr(mover_module.logs, "configure", lambda *a, **k: None)
    monkeypatch.setattr(mover_module.tracing, "configure", lambda *a, **k: None)
    monkeypatch.setattr(mover_module.metrics, "serve", lambda *a, **k: None)
    monkeypatch.setattr(mover_module.metrics, "init_agent_decisions", lambda *a, **k: None)
    monkeypatch.setattr(mover_module, "mover_client", record)
    with pytest.raises(Made):
        mover_module.main(["--name", "client-test", "--metrics-port", "0"])
    assert made == [mover_module.settings().redis_url]
