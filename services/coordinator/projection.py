"""Projections: a process's cached game states, caught up from the event log by version.

Every service and the coordinator keep one. A projection is only a cache: it can be
rebuilt from the log at any time, and a request for an older version than the cached
one rebuilds from the start (DESIGN "a service keeps a projection of its domain per
game as a cache; it catches up from the log by version"), or from the last earlier version read
of that game when it is not past the one asked for: a replay stepping forward reads one entry a
step, not the whole log again.
"""

from __future__ import annotations

import threading
from collections import OrderedDict, deque
from dataclasses import dataclass
from typing import Any

from services.rules.core import Rules, get_rules

from .store import EventStore, VersionConflict


RECENT = 4
"""Committed entries per game kept as catch-up hints for domain calls."""
EARLIER = 64
"""Games whose last state read at an earlier version than the cache's (a replay's step) is kept."""


def _keep(cache: OrderedDict[str, Any], game_id: str, entry: Any, limit: int) -> None:
    """Put ``entry`` as ``game_id``'s, the most recently used, dropping the least recently used
    beyond ``limit`` (the caller holds the lock)."""
    cache[game_id] = entry
    cache.move_to_end(game_id)
    while len(cache) > limit:
        cache.popitem(last=False)


@dataclass(frozen=True, slots=True)
class _Known:
    """A committed entry known from a hint (the shape of a read entry that catch-up needs)."""

    version: int
    events: list[Any]


class Projections:
    """Per-game ``(version, state)`` cache over an :class:`EventStore`.

    Args:
        store: where the logs are.
        capacity: how many games to keep cached (least recently used are dropped).
    """

    def __init__(self, store: EventStore, capacity: int = 1024):
        self.store = store
        self.capacity = capacity
        self._cache: OrderedDict[str, tuple[int, Rules, Any]] = OrderedDict()
        self._recent: dict[str, deque[tuple[int, list[Any]]]] = {}
        self._earlier: OrderedDict[str, tuple[int, Rules, Any]] = OrderedDict()
        self._lock = threading.Lock()

    def rules_of(self, game_id: str) -> Rules:
        """The rules of a stored game. Raises GameNotFound."""
        return get_rules(self.store.meta(game_id)["game"])

    def state_at(self, game_id: str, version: int | None = None,
                 recent: list[tuple[int, list[Any]]] | None = None, cow: bool = False) -> tuple[Rules, Any, int]:
        """A private copy of the game's state at ``version`` (``None`` = latest).

        ``recent``: committed entries ``(version, events)`` the caller knows, ending at
        ``version``; when they join the cache to ``version`` the log is not read at all.
        ``cow``: the caller changes the state only through ``rules.evolve``, so a copy-on-write
        :meth:`~services.rules.core.game.Rules.clone` of the cached state will do (a deep copy
        otherwise; the cache's own states are never changed either way).

        Returns:
            ``(rules, state, version)``; the caller may change ``state`` freely.
        Raises:
            GameNotFound: unknown id.
            VersionConflict: ``version`` is beyond what the log holds.
        """
        with self._lock:
            cached = self._cache.get(game_id)
            if cached is not None and version is not None and cached[0] > version:
                earlier = self._earlier.get(game_id)
                cached = earlier if earlier is not None and earlier[0] <= version else None
            latest = cached is not None and cached is self._cache.get(game_id)
        if cached is None:
            rules = self.rules_of(game_id)
            cached = (0, rules, rules.new_state())
        have, rules, state = cached
        if have:
            state = rules.clone(state) if cow else rules.copy(state)
        if version is not None and have == version:
            return rules, state, have  # the cache is at that very version: nothing to read
        known = [(v, ev) for v, ev in (recent or []) if v > have]
        if version is not None and have and known and known[0][0] == have + 1 and known[-1][0] == version:
            entries = [_Known(v, ev) for v, ev in known]
        else:
            entries = self.store.read(game_id, after=have, upto=version)
        for entry in entries:
            for event in entry.events:
                rules.evolve(state, event)
            have = entry.version
            self.remember(game_id, entry.version, list(entry.events))
        if version is not None and have != version:
            raise VersionConflict(version, have)
        if latest and have == cached[0]:
            with self._lock:  # nothing new: the cache holds this very state already, no second copy
                if self._cache.get(game_id) is cached:
                    self._cache.move_to_end(game_id)
            return rules, state, have
        with self._lock:
            prev = self._cache.get(game_id)
            if prev is None or prev[0] <= have:
                _keep(self._cache, game_id, (have, rules, rules.copy(state)), self.capacity)
            else:  # an earlier version than the cache's: where the next step of a replay starts
                _keep(self._earlier, game_id, (have, rules, rules.copy(state)), EARLIER)
        return rules, state, have

    def version(self, game_id: str) -> int:
        """The version of the game's cached state; 0 when none is cached."""
        cached = self._cache.get(game_id)
        return cached[0] if cached is not None else 0

    def peek(self, game_id: str) -> tuple[Rules, Any, int] | None:
        """The cached ``(rules, state, version)`` of a game itself, not a copy, or ``None`` if none
        is cached; nothing is read. For reading only (who moves, the legal moves, a view): the
        cache never changes a state it holds (it stores copies and replaces them whole), and the
        caller must not change it either. Its version may be behind the store's."""
        with self._lock:
            cached = self._cache.get(game_id)
        if cached is None:
            return None
        have, rules, state = cached
        return rules, state, have

    def recent(self, game_id: str, version: int) -> list[tuple[int, list[Any]]]:
        """The last entries up to ``version`` this process committed or read (a hint for
        domain calls), oldest first; empty if it knows none ending there."""
        with self._lock:
            entries = list(self._recent.get(game_id, ()))
        out = [(v, ev) for v, ev in entries if v <= version]
        return out if out and out[-1][0] == version else []

    def remember(self, game_id: str, version: int, events: list[Any]) -> None:
        """Keep a committed entry for :meth:`recent` (the last :data:`RECENT` per game)."""
        with self._lock:
            q = self._recent.setdefault(game_id, deque(maxlen=RECENT))
            if not q or q[-1][0] < version:
                q.append((version, list(events)))
            if len(self._recent) > self.capacity:
                self._recent.pop(next(iter(self._recent)))

    def put(self, game_id: str, version: int, rules: Rules, state: Any, owned: bool = False) -> None:
        """Cache ``state`` as the game at ``version`` (a state this process just committed:
        the next read needs no catch-up from the log). Kept only if newer than the cache.
        ``owned``: the caller hands ``state`` over and will not change it (no copy)."""
        with self._lock:
            prev = self._cache.get(game_id)
            if prev is None or prev[0] < version:
                _keep(self._cache, game_id, (version, rules, state if owned else rules.copy(state)), self.capacity)

    def forget(self, game_id: str) -> None:
        """Drop a game from the cache."""
        with self._lock:
            self._cache.pop(game_id, None)
            self._earlier.pop(game_id, None)

