"""Shared tails of game logs: one Redis reader per watched game in each gateway process.

Each SSE stream used to wait for new entries in an ``XREAD BLOCK`` of its own, on a Redis
connection of its own: 1,000 open streams held 1,000 Redis connections, and a move in a game
with 100 spectators was read from Redis, decoded and filtered 100 times. ``make load-test``'s
lock-out step (1,000 streams, 200 ``/wait`` polls) measured ``/healthz`` and moves at a p99 of
150-350 ms, and py-spy showed the worker spending 40 % of its time in those reads (issue:
reliability, fault 1 and acceptance 1). Now a :class:`FeedHub` per process keeps one
:class:`Feed` per game that has streams open: a thread (a greenlet under gunicorn's gevent
worker) in ``XREAD BLOCK`` on the game's log, which hands each new :class:`Batch` of entries to
every subscribed stream. An entry is decoded once per process and formatted once per seat.
A stream catches up on its own (non-blocking reads from its resume point) after subscribing,
and skips what it already sent, so nothing is lost between the two.
"""

from __future__ import annotations

import json
import queue
import re
import threading
from typing import Any

import redis

from services.coordinator.redis_store import entry_from_fields, entry_id, key
from services.coordinator.store import Entry


def version_of(stream_id: bytes | str) -> int:
    """The version of a log entry's stream id (``b"<version>-0"``)."""
    raw = stream_id.decode() if isinstance(stream_id, bytes) else stream_id
    return int(raw.split("-", 1)[0])


EVENT_ID_PATTERN = r"^([A-Za-z0-9_-]{1,64}):(0|[1-9][0-9]{0,17})-0$"
"""An SSE message id, ``<game_id>:<version>-0``: the game (its ids are letters, digits, ``_`` and
``-``, never ``:``) and the log entry's Redis stream id, so an id names one entry of one game
(issue 27, "Stream ids carry the game")."""
_EVENT_ID = re.compile(EVENT_ID_PATTERN)


def event_id(game_id: str, version: int) -> str:
    """The SSE id of ``game_id``'s log entry at ``version``: ``"<game_id>:<version>-0"``."""
    return f"{game_id}:{entry_id(version)}"


def parse_event_id(raw: str) -> tuple[str, int] | None:
    """``(game_id, version)`` of an SSE id made by :func:`event_id` (surrounding blanks ignored),
    or ``None`` if ``raw`` is not one."""
    match = _EVENT_ID.match(raw.strip())
    return (match.group(1), int(match.group(2))) if match else None


def sse_message(game_id: str, entry: Entry, seat: int | None) -> bytes:
    """One SSE message (UTF-8) for ``game_id``'s log entry, with only the events ``seat`` may see;
    its id is :func:`event_id`."""
    data = {
        "version": entry.version,
        "kind": entry.kind,
        "seat": entry.seat,
        "events": [e.to_json() for e in entry.events if e.visible_to(seat)],
    }
    return (f"id: {event_id(game_id, entry.version)}\nevent: commit\n"
            f"data: {json.dumps(data, separators=(',', ':'), sort_keys=True)}\n\n").encode("utf-8")


class Batch:
    """New entries of one game's log, read once and shared by every stream of the game.

    Attributes:
        game_id: the game.
        rows: ``(version, raw fields)`` in log order.
    """

    def __init__(self, game_id: str, rows: list[tuple[int, dict[Any, Any]]]):
        self.game_id = game_id
        self.rows = rows
        self._entries: list[Any] | None = None
        self._messages: dict[int | None, list[bytes]] = {}
        self._lock = threading.Lock()

    def messages(self, seat: int | None) -> list[tuple[int, bytes]]:
        """``(version, SSE message bytes)`` of every row, with only the events ``seat`` may see
        (``None``: a spectator); decoded once per batch and formatted once per seat."""
        with self._lock:
            if self._entries is None:
                self._entries = [entry_from_fields(fields) for _, fields in self.rows]
            if seat not in self._messages:
                self._messages[seat] = [sse_message(self.game_id, entry, seat) for entry in self._entries]
            return [(v, m) for (v, _), m in zip(self.rows, self._messages[seat])]


class Subscription:
    """One stream's place in a :class:`Feed`: the batches that arrive after it subscribed."""

    def __init__(self, hub: "FeedHub", game_id: str):
        self.hub = hub
        self.game_id = game_id
        self.queue: queue.SimpleQueue[Batch | BaseException] = queue.SimpleQueue()

    def get(self, timeout: float) -> Batch | None:
        """The next batch, or ``None`` after ``timeout`` seconds without one.

        Raises:
            redis.RedisError (or OSError): the feed's read failed; the stream should end (its
            client resumes with ``Last-Event-ID``).
        """
        try:
            item = self.queue.get(timeout=max(0.0, timeout))
        except queue.Empty:
            return None
        if isinstance(item, BaseException):
            raise item
        return item

    def close(self) -> None:
        """Leave the feed (its reader stops once no stream is left)."""
        self.hub.unsubscribe(self)


class Feed:
    """The reader of one game's log: its subscriptions and the last stream id it read."""

    def __init__(self, game_id: str, cursor: bytes | str):
        self.game_id = game_id
        self.cursor = cursor
        self.subscribers: set[Subscription] = set()


class FeedHub:
    """Every :class:`Feed` of one gateway process.

    Args:
        client: the gateway's Redis client (each feed holds one of its pool's connections
            while it blocks).
        block_seconds: longest ``XREAD BLOCK`` of a feed; a feed left without streams stops
            within it.
    """

    def __init__(self, client: redis.Redis, block_seconds: float):
        self.client = client
        self.block_ms = max(1, int(block_seconds * 1000))
        self.lock = threading.Lock()
        self.feeds: dict[str, Feed] = {}

    def subscribe(self, game_id: str) -> Subscription:
        """Subscribe to ``game_id``'s new entries, starting its feed if it has none.

        Every entry committed after this returns reaches the subscription (entries before it
        may too; the stream skips what it already sent). Raises redis.RedisError if Redis does
        not answer when a feed has to start.
        """
        sub = Subscription(self, game_id)
        with self.lock:
            feed = self.feeds.get(game_id)
            if feed is not None:
                feed.subscribers.add(sub)
                return sub
        last = self.client.xrevrange(key(game_id, "log"), count=1)  # where a new feed starts
        cursor = last[0][0] if last else "0-0"
        with self.lock:
            feed = self.feeds.get(game_id)
            if feed is None:  # still none: start it (otherwise one started meanwhile)
                feed = self.feeds[game_id] = Feed(game_id, cursor)
                threading.Thread(target=self._run, args=(feed,), name=f"feed-{game_id}", daemon=True).start()
            feed.subscribers.add(sub)
        return sub

    def unsubscribe(self, sub: Subscription) -> None:
        """Remove ``sub`` from its feed."""
        with self.lock:
            feed = self.feeds.get(sub.game_id)
            if feed is not None:
                feed.subscribers.discard(sub)

    def _run(self, feed: Feed) -> None:
        """The feed's loop: read new entries, hand them to every subscription; stop when none is
        left, or on a Redis error (told to every subscription)."""
        log_key = key(feed.game_id, "log")
        while True:
            with self.lock:
                if not feed.subscribers:
                    if self.feeds.get(feed.game_id) is feed:
                        del self.feeds[feed.game_id]
                    return
            try:
                rows = self.client.xread({log_key: feed.cursor}, count=100, block=self.block_ms)
            except (redis.RedisError, OSError) as exc:
                with self.lock:
                    self.feeds.pop(feed.game_id, None)
                    subscribers = list(feed.subscribers)
                for sub in subscribers:
                    sub.queue.put(exc)
                return
            if not rows:
                continue
            entries = rows[0][1]
            feed.cursor = entries[-1][0]
            batch = Batch(feed.game_id, [(version_of(stream_id), fields) for stream_id, fields in entries])
            with self.lock:
                subscribers = list(feed.subscribers)
            for sub in subscribers:
                sub.queue.put(batch)
