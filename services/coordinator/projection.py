"""Projections: a process's cached game states, caught up from the event log by version.

Every service and the coordinator keep one. A projection is only a cache: it can be
rebuilt from the log at any time, and a request for an older version than the cached
one rebuilds from the start (DESIGN "a service keeps a projection of its domain per
game as a cache; it catches up from the log by version").
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any

from services.rules.core import Rules, get_rules

from .store import EventStore, VersionConflict


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
        self._lock = threading.Lock()

    def rules_of(self, game_id: str) -> Rules:
        """The rules of a stored game. Raises GameNotFound."""
        return get_rules(self.store.meta(game_id)["game"])

    def state_at(self, game_id: str, version: int | None = None) -> tuple[Rules, Any, int]:
        """A private copy of the game's state at ``version`` (``None`` = latest).

        Returns:
            ``(rules, state, version)``; the caller may change ``state`` freely.
        Raises:
            GameNotFound: unknown id.
            VersionConflict: ``version`` is beyond what the log holds.
        """
        with self._lock:
            cached = self._cache.get(game_id)
        if cached is None or (version is not None and cached[0] > version):
            rules = self.rules_of(game_id)
            cached = (0, rules, rules.new_state())
        have, rules, state = cached
        state = rules.copy(state) if have else state
        entries = self.store.read(game_id, after=have, upto=version)
        for entry in entries:
            for event in entry.events:
                rules.evolve(state, event)
            have = entry.version
        if version is not None and have != version:
            raise VersionConflict(version, have)
        with self._lock:
            prev = self._cache.get(game_id)
            if prev is None or prev[0] <= have:
                self._cache[game_id] = (have, rules, rules.copy(state))
                self._cache.move_to_end(game_id)
                while len(self._cache) > self.capacity:
                    self._cache.popitem(last=False)
        return rules, state, have

    def forget(self, game_id: str) -> None:
        """Drop a game from the cache."""
        with self._lock:
            self._cache.pop(game_id, None)

