"""Event stores: where a game's event log lives.

The log of a game is a list of entries, one per commit (game creation, a move, a
phase); entry ``v`` has version ``v`` (the first is 1). Committing checks the base
version atomically, so two writers can never both extend the same version
(DESIGN "State, events and consistency"). :class:`MemoryStore` serves the embedded
single-process mode; :class:`services.coordinator.redis_store.RedisStore` the stack.
"""

from __future__ import annotations

import math
import threading
import time
from dataclasses import dataclass, field
from typing import Any, Protocol

from services.rules.core import Event


class VersionConflict(Exception):
    """The game moved on: the commit's base version is not the game's current version."""

    def __init__(self, expected: int, actual: int):
        super().__init__(f"expected version {expected}, but the game is at version {actual}")
        self.expected = expected
        self.actual = actual


class MoveRecorded(Exception):
    """The commit names a client move id that already has a stored result (its first request
    committed before): nothing is written. The caller answers with that first result, or refuses
    a different request that reuses the id (:meth:`services.coordinator.table.Table.play`)."""

    def __init__(self, game_id: str, move_key: tuple[int, str]):
        super().__init__(f"game {game_id!r}: move id {move_key[1]!r} of seat {move_key[0]} has a result already")
        self.game_id = game_id
        self.move_key = move_key


class OverLimit(Exception):
    """A commit's :class:`Counters` went over a limit: nothing of the commit is written.

    Attributes:
        index: which counter (its place in :attr:`Counters.keys`, from 0); the counters after it
            were not counted.
        ttl: whole seconds until that counter's window ends (0 if the store cannot say).
    """

    def __init__(self, index: int, ttl: int):
        super().__init__(f"counter {index} of the commit is over its limit for {ttl} s more")
        self.index = index
        self.ttl = ttl


class GameNotFound(KeyError):
    """No game with that id is stored."""

    def __init__(self, game_id: str):
        super().__init__(game_id)
        self.game_id = game_id

    def __str__(self) -> str:
        return f"no game with id {self.game_id!r}"


@dataclass(frozen=True, slots=True)
class Entry:
    """One commit of the event log.

    Attributes:
        version: the game version this entry creates (1 for the creation entry).
        kind: ``"create"``, ``"setup"``, ``"move"`` or ``"phase"``.
        seat: the seat that moved (``-1`` for create, set-up and phase entries).
        events: what happened, in order.
    """

    version: int
    kind: str
    seat: int
    events: tuple[Event, ...]


@dataclass(slots=True)
class Counters:
    """Fixed-window counters a commit counts before anything else, in one atomic step with it (the
    gateway's rate limit of moves, :mod:`gateway.limits`, so a move is one store round trip).

    Each counter ``keys[i]`` is raised by one; a counter that starts (reaches 1) ends after
    ``windows[i]`` seconds (the ``limits`` library's fixed windows: ``INCRBY`` then ``EXPIRE`` on
    the first hit). The first counter that goes over ``amounts[i]`` stops the counting (the ones
    after it are not counted) and the commit (:class:`OverLimit`: nothing of it is written). The
    counters are counted whatever the commit's own fate: a commit refused for its version or its
    move id has counted them all the same, as a request counted before its view ran would have.

    A commit retried after a refusal does not count them again: the store sets ``counted`` once it
    has counted them. Keys are the store's own names (on a Redis server the limits' keys, next to
    the game's); a store that cannot count them beside the game's keys says so
    (``counts_in_commit`` false, a Redis Cluster) and is not given any.
    """

    keys: tuple[str, ...]
    amounts: tuple[int, ...]
    windows: tuple[int, ...]
    counted: bool = False


@dataclass(slots=True)
class Commit:
    """What one commit writes besides its events.

    Attributes:
        kind: entry kind.
        seat: moving seat or -1.
        status: the game's status after the commit (``active``, ``phase``, ``over``).
        move_key: ``(seat, client_move_id)`` for a move, so a repeat is answered from
            ``result`` instead of being applied twice.
        result: the JSON answer given to the mover.
        counters: counted first, in the same atomic step (:class:`Counters`); ``None``: none.
    """

    kind: str
    seat: int = -1
    status: str = "active"
    move_key: tuple[int, str] | None = None
    result: dict[str, Any] | None = None
    counters: Counters | None = None


class EventStore(Protocol):
    """What the coordinator and the services need from a store.

    ``counts_in_commit``: whether a commit may carry :class:`Counters` (counted in its atomic step).
    """

    counts_in_commit: bool

    def create(self, game_id: str, meta: dict[str, Any], events: list[Event],
               setup: list[Event] | None = None, status: str = "active") -> int: ...
    def meta(self, game_id: str) -> dict[str, Any]: ...
    def version(self, game_id: str) -> int: ...
    def read(self, game_id: str, after: int = 0, upto: int | None = None) -> list[Entry]: ...
    def commit(self, game_id: str, base_version: int, events: list[Event], commit: Commit) -> int: ...
    def commit_many(self, commits: list[tuple[str, int, list[Event], Commit]]) -> list[int | Exception]: ...
    def move_result(self, game_id: str, seat: int, move_id: str) -> dict[str, Any] | None: ...


@dataclass
class _MemGame:
    meta: dict[str, Any]
    entries: list[Entry] = field(default_factory=list)
    results: dict[tuple[int, str], dict[str, Any]] = field(default_factory=dict)


class MemoryStore:
    """In-process event store (thread-safe). Same contract as the Redis store."""

    counts_in_commit = True
    """A commit's :class:`Counters` are counted in it (kept in this process, by the monotonic clock)."""

    def __init__(self) -> None:
        self._games: dict[str, _MemGame] = {}
        self._lock = threading.Lock()
        self._counters: dict[str, tuple[int, float]] = {}

    def _count(self, counters: Counters) -> None:
        """Count ``counters`` (:class:`Counters`); raises OverLimit at the first one over its limit."""
        counters.counted = True
        now = time.monotonic()
        if len(self._counters) > 4096:  # forget windows that ended
            self._counters = {k: v for k, v in self._counters.items() if v[1] > now}
        for i, (k, amount, window) in enumerate(zip(counters.keys, counters.amounts, counters.windows)):
            n, ends = self._counters.get(k, (0, 0.0))
            if ends <= now:
                n, ends = 0, now + window
            self._counters[k] = (n + 1, ends)
            if n + 1 > amount:
                raise OverLimit(i, math.ceil(ends - now))

    def _game(self, game_id: str) -> _MemGame:
        try:
            return self._games[game_id]
        except KeyError:
            raise GameNotFound(game_id) from None

    def create(self, game_id: str, meta: dict[str, Any], events: list[Event],
               setup: list[Event] | None = None, status: str = "active") -> int:
        """Store a new game in one step: entry 1 (``create``) holds ``events`` and, with
        ``setup`` (a list, maybe empty), entry 2 (``setup``) holds the set-up's events, the game
        then being in ``status``. Returns the version stored (2 with ``setup``, else 1).

        Raises:
            ValueError: the id is taken (nothing is written).
        """
        with self._lock:
            if game_id in self._games:
                raise ValueError(f"game {game_id!r} exists")
            entries = [Entry(1, "create", -1, tuple(events))]
            if setup is not None:
                entries.append(Entry(2, "setup", -1, tuple(setup)))
            g = _MemGame(dict(meta, status=status if setup is not None else "active", version=len(entries)))
            g.entries.extend(entries)
            self._games[game_id] = g
            return len(entries)

    def meta(self, game_id: str) -> dict[str, Any]:
        """Game metadata: ``game``, ``players``, ``status``, ``version``, ..."""
        with self._lock:
            return dict(self._game(game_id).meta)

    def version(self, game_id: str) -> int:
        """Current version (number of entries)."""
        with self._lock:
            return len(self._game(game_id).entries)

    def read(self, game_id: str, after: int = 0, upto: int | None = None) -> list[Entry]:
        """Entries with ``after < version <= upto`` (``upto=None``: to the end)."""
        with self._lock:
            entries = self._game(game_id).entries
            return list(entries[after: upto if upto is not None else len(entries)])

    def commit(self, game_id: str, base_version: int, events: list[Event], commit: Commit) -> int:
        """Append one entry if the game is at ``base_version``; returns the new version.

        Raises:
            VersionConflict: the game is at another version (nothing is written).
            MoveRecorded: ``commit.move_key`` already has a stored result (nothing is written).
            OverLimit: one of ``commit.counters`` went over its limit (nothing else is written).
        """
        with self._lock:
            if commit.counters is not None and not commit.counters.counted:
                self._count(commit.counters)
            g = self._game(game_id)
            if len(g.entries) != base_version:
                raise VersionConflict(base_version, len(g.entries))
            if commit.move_key is not None and commit.result is not None and commit.move_key in g.results:
                raise MoveRecorded(game_id, commit.move_key)
            v = base_version + 1
            g.entries.append(Entry(v, commit.kind, commit.seat, tuple(events)))
            g.meta.update(status=commit.status, version=v, moves=g.meta.get("moves", 0) + (commit.kind == "move"))
            if commit.move_key is not None and commit.result is not None:
                g.results[commit.move_key] = commit.result
            return v

    def commit_many(self, commits: list[tuple[str, int, list[Event], Commit]]) -> list[int | Exception]:
        """:meth:`commit` for each; a failed commit's exception is returned in its place."""
        out: list[int | Exception] = []
        for game_id, base, events, commit in commits:
            try:
                out.append(self.commit(game_id, base, events, commit))
            except (VersionConflict, GameNotFound, MoveRecorded, OverLimit) as exc:
                out.append(exc)
        return out

    def move_result(self, game_id: str, seat: int, move_id: str) -> dict[str, Any] | None:
        """The stored first result of ``(seat, move_id)``, or ``None``."""
        with self._lock:
            return self._game(game_id).results.get((seat, move_id))
