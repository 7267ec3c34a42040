"""Per-process shared clients of the gateway, reached through small accessors.

Nothing connects at import or at ``create_app``: the Redis client and the Table are
built on first use in the serving process (so gunicorn workers never share a socket
with their parent) and kept in ``app.extensions["longhouse"]``.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any, Generic, Hashable, TypeVar

import redis
from flask import Flask, current_app

from services.common.redis_client import connect
from services.coordinator.redis_store import RedisStore
from services.coordinator.table import Table

from .feeds import FeedHub

REDIS_MAX_CONNECTIONS = 8192
"""Most Redis connections the gateway's pool opens in one process. Each open SSE stream and
``/wait`` long-poll holds one while it blocks in ``XREAD``, so the pool must be larger than the
requests a worker serves at once (gunicorn's ``--worker-connections``, 4,096 in the launcher).
redis-py 8's default pool stops at 100: the 101st held request and everything after it got
a 503 ``MaxConnectionsError``, ``/healthz`` too (found by ``make load-test``'s lock-out step;
issue: reliability, fault 1). Override with the config key ``REDIS_MAX_CONNECTIONS``."""

STORE_TIMEOUT_S = 5.0
"""Seconds the game store's client waits for Redis to answer a command (other than the blocking
reads of :meth:`Clients.blocking_redis`): a Redis that stops answering (SIGSTOP, a hung host)
makes a request a 503 ``unavailable`` this soon instead of after the long-poll read timeout
(40 s: a trial saw reads answer after 40 s and a move after 50). Override with the config key
``REDIS_TIMEOUT_SECONDS``; the rate limits' counters use it too (:mod:`gateway.limits`)."""

PROBE_TIMEOUT_S = 0.5
"""Seconds a probe's Redis command may take to connect and to answer (``GET /healthz``,
``GET /readyz``): a Redis that is stopped (SIGSTOP, a hung host) accepts connections but never
answers, and the probes must say so within a second instead of waiting on the store client's
long read timeout. Override with the config key ``PROBE_TIMEOUT_SECONDS``."""


K = TypeVar("K", bound=Hashable)
V = TypeVar("V")

KNOWN_GAMES = 4096
"""Games whose fixed facts (name, seats) one gateway process keeps (:meth:`Clients.game_facts`)."""
KNOWN_TOKENS = 16384
"""Seat tokens (by digest) one gateway process keeps with their seat (:meth:`Clients.seat_tokens`)."""


class Lru(Generic[K, V]):
    """A small bounded mapping that drops its least recently used entry beyond ``limit``.

    Args:
        limit: the most entries kept (at least 1).
    """

    def __init__(self, limit: int):
        self.limit = max(1, int(limit))
        self._items: OrderedDict[K, V] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: K) -> V | None:
        """The value of ``key`` (now the most recently used), or ``None``."""
        with self._lock:
            value = self._items.get(key)
            if value is not None:
                self._items.move_to_end(key)
            return value

    def put(self, key: K, value: V) -> None:
        """Keep ``value`` for ``key``, dropping the least recently used entry beyond the limit."""
        with self._lock:
            self._items[key] = value
            self._items.move_to_end(key)
            while len(self._items) > self.limit:
                self._items.popitem(last=False)

    def __len__(self) -> int:
        return len(self._items)


class Clients:
    """Lazily built shared clients of one app in one process.

    Args:
        config: the app's config (``REDIS_URL``, ``PORTS_MODE``, ``PHASE_MODE``,
            ``CELERY_BROKER_URL``).
    """

    def __init__(self, config: dict[str, Any]):
        self.config = config
        self._lock = threading.Lock()
        self._redis: redis.Redis | None = None
        self._blocking_redis: redis.Redis | None = None
        self._probe_redis: redis.Redis | None = None
        self._table: Table | None = None
        self._feeds: FeedHub | None = None
        self.game_facts: Lru[str, dict[str, Any]] = Lru(int(config.get("KNOWN_GAMES", KNOWN_GAMES)))
        """game id -> ``{"game", "players"}``: facts of a stored game that never change (a game's
        record is never deleted), so a move or a read does not fetch its meta hash again."""
        self.seat_tokens: Lru[tuple[str, str], int] = Lru(int(config.get("KNOWN_TOKENS", KNOWN_TOKENS)))
        """``(game id, sha256 of a seat token)`` -> its seat, for tokens this process has checked:
        a seat is claimed once (``HSETNX``) and never given to another token, so a token that held a
        seat holds it for good (:func:`gateway.auth.seat_of`)."""

    def redis(self) -> redis.Redis:
        """The Redis client of the game store (bytes responses): each command's answer waited for
        :data:`STORE_TIMEOUT_S` at most (``redis.TimeoutError``, a 503, after that). Never for a
        blocking read: :meth:`blocking_redis`."""
        if self._redis is None:
            with self._lock:
                if self._redis is None:
                    self._redis = self._store_client(store_timeout(self.config))
        return self._redis

    def blocking_redis(self) -> redis.Redis:
        """A client of the game store with a pool of its own for the blocking reads (``XREAD
        BLOCK`` of ``/wait`` and of the SSE feeds): its read timeout outlasts the longest block
        (``WAIT_MAX_SECONDS`` or ``SSE_KEEPALIVE_SECONDS``, and 10 s more), or it would time out a
        healthy wait."""
        if self._blocking_redis is None:
            with self._lock:
                if self._blocking_redis is None:
                    longest_block = max(float(self.config.get("WAIT_MAX_SECONDS", 30)),
                                        float(self.config.get("SSE_KEEPALIVE_SECONDS", 15)))
                    self._blocking_redis = self._store_client(longest_block + 10)
        return self._blocking_redis

    def _store_client(self, read_timeout_s: float) -> redis.Redis:
        """A client of the game store with a pool of its own, its commands' answers waited for
        ``read_timeout_s`` (:meth:`redis` and :meth:`blocking_redis` differ only in that)."""
        return connect(self.config["REDIS_URL"], socket_connect_timeout=5, socket_keepalive=True,
                       socket_timeout=read_timeout_s, health_check_interval=30,
                       max_connections=int(self.config.get("REDIS_MAX_CONNECTIONS", REDIS_MAX_CONNECTIONS)))

    def probe_redis(self) -> redis.Redis:
        """A second client of the game store for the probes only: connect and read timeouts of
        :data:`PROBE_TIMEOUT_S` (config ``PROBE_TIMEOUT_SECONDS``) and a pool of its own, so a
        probe neither waits behind the streams' long reads nor waits long on a Redis that does not
        answer (raises ``redis.TimeoutError`` then)."""
        if self._probe_redis is None:
            with self._lock:
                if self._probe_redis is None:
                    timeout = float(self.config.get("PROBE_TIMEOUT_SECONDS", PROBE_TIMEOUT_S))
                    self._probe_redis = connect(self.config["REDIS_URL"], socket_connect_timeout=timeout,
                                                socket_timeout=timeout, max_connections=64)
        return self._probe_redis

    def feeds(self) -> FeedHub:
        """The shared tails of game logs that SSE streams subscribe to (:mod:`gateway.feeds`)."""
        if self._feeds is None:
            client = self.blocking_redis()
            with self._lock:
                if self._feeds is None:
                    self._feeds = FeedHub(client, float(self.config.get("SSE_KEEPALIVE_SECONDS", 15)))
        return self._feeds

    def table(self) -> Table:
        """The coordinator Table over the Redis store (ports and phases per config)."""
        if self._table is None:
            client = self.redis()
            with self._lock:
                if self._table is None:
                    from services.phases.hosting import build_table

                    self._table = build_table(
                        client, ports_mode=self.config["PORTS_MODE"],
                        phase_mode=self.config["PHASE_MODE"],
                        broker_url=self.config.get("CELERY_BROKER_URL"))
        return self._table

    def store(self) -> RedisStore:
        """The Table's event store."""
        return self.table().store  # type: ignore[return-value]


def init_clients(app: Flask) -> None:
    """Attach an (empty, lazy) :class:`Clients` to ``app``."""
    app.extensions["longhouse"] = Clients(app.config)


def clients() -> Clients:
    """The current app's :class:`Clients`."""
    return current_app.extensions["longhouse"]


def get_redis() -> redis.Redis:
    """The current app's Redis client."""
    return clients().redis()


def get_blocking_redis() -> redis.Redis:
    """The current app's Redis client for blocking reads (:meth:`Clients.blocking_redis`)."""
    return clients().blocking_redis()


def store_timeout(config: Any) -> float:
    """Seconds a store command may take before it is a ``redis.TimeoutError`` (config
    ``REDIS_TIMEOUT_SECONDS``, default :data:`STORE_TIMEOUT_S`)."""
    return float(config.get("REDIS_TIMEOUT_SECONDS", STORE_TIMEOUT_S))


def get_probe_redis() -> redis.Redis:
    """The current app's Redis client for probes (short timeouts, :meth:`Clients.probe_redis`)."""
    return clients().probe_redis()


def get_feeds() -> FeedHub:
    """The current app's :class:`~gateway.feeds.FeedHub`."""
    return clients().feeds()


def get_table() -> Table:
    """The current app's Table."""
    return clients().table()
