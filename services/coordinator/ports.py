"""Ports: how the coordinator reaches the four domains, and the embedded adapters.

A port has one call, :meth:`Port.apply`: ``(game_id, base_version, pending_events,
ops) -> events``. The domain applies the move's pending events to a scratch copy of
the game at ``base_version``, runs the operations in order and returns the new events;
it never commits (DESIGN "State, events and consistency"). The embedded adapter runs
:class:`DomainEngine` in-process; the gRPC adapter
(:mod:`services.coordinator.grpc_ports`) calls the service that runs the same engine.
"""

from __future__ import annotations

import threading
from functools import partial
from typing import Any, Protocol

from services.rules.core import DOMAINS, Chance, Event, Op, new_seed

from .projection import Projections
from .store import EventStore


class SeedStore(Protocol):
    """Where the deck domain keeps each game's secret seed."""

    def put(self, game_id: str, seed: str) -> None: ...
    def get(self, game_id: str) -> str: ...


class MemorySeeds:
    """Seeds held in the process (embedded mode)."""

    def __init__(self) -> None:
        self._seeds: dict[str, str] = {}
        self._lock = threading.Lock()

    def put(self, game_id: str, seed: str) -> None:
        """Remember ``seed`` for ``game_id`` (first write wins)."""
        with self._lock:
            self._seeds.setdefault(game_id, seed)

    def get(self, game_id: str) -> str:
        """The seed of ``game_id``. Raises KeyError if none was stored."""
        with self._lock:
            return self._seeds[game_id]


def creation_start(pending: list[Event]) -> tuple[Any, Any]:
    """``(rules, empty state)`` of a game whose creation event (``GameCreated``, carrying its
    config) is the first of ``pending``: a set-up resolved before the game is stored.
    Raises ValueError if it is not there; UnknownGame for a game this process does not know."""
    from services.rules.core import get_rules

    if not pending or pending[0].type != "GameCreated" or not isinstance(pending[0].data.get("config"), dict):
        raise ValueError("a call at base version 0 (a game's set-up) starts with its GameCreated event")
    rules = get_rules(str(pending[0].data["config"].get("game")))
    return rules, rules.new_state()


class DomainEngine:
    """Runs one domain's operations for any game; shared by embedded and gRPC adapters.

    Args:
        domain: one of :data:`services.rules.core.DOMAINS`.
        projections: the process's state cache.
        seeds: the seed store; required for (and only given to) the deck domain.
    """

    def __init__(self, domain: str, projections: Projections, seeds: SeedStore | None = None):
        if domain not in DOMAINS:
            raise ValueError(f"unknown domain {domain!r}")
        if (domain == "deck") != (seeds is not None):
            raise ValueError("the deck domain, and only it, holds the seeds")
        self.domain = domain
        self.projections = projections
        self.seeds = seeds

    def open_game(self, game_id: str, seed: str | None) -> None:
        """Deck only: store the secret seed of a new game (a fresh one if ``None``)."""
        if self.seeds is None:
            raise ValueError(f"the {self.domain} domain holds no seeds")
        self.seeds.put(game_id, seed if seed else new_seed())

    def apply(self, game_id: str, base_version: int, pending: list[Event], ops: list[Op],
              recent: list[tuple[int, list[Event]]] | None = None) -> list[Event]:
        """Run ``ops`` on the state at ``base_version`` plus ``pending``; return new events.
        ``recent``: the caller's last committed entries up to ``base_version`` (catch-up hint).
        Base version 0 is a game's set-up before anything of it is stored: ``pending`` then
        starts with its ``GameCreated`` event, and the store is not read.

        Raises:
            ValueError: an operation belongs to another domain; base version 0 without the
                creation event first in ``pending``.
            GameNotFound, VersionConflict: from the projection.
            RulesError: from the rules.
        """
        if base_version == 0:  # a game being created: nothing is stored yet (Table.create)
            rules, state = creation_start(pending)
        else:
            rules, state, _ = self.projections.state_at(game_id, base_version, recent)
        for event in pending:
            rules.evolve(state, event)
        chance = partial(Chance, self.seeds.get(game_id)) if self.seeds is not None else None

        out: list[Event] = []
        for op in ops:
            if op.domain != self.domain:
                raise ValueError(f"operation {op.name!r} belongs to {op.domain}, not {self.domain}")
            events = rules.handle(state, op, chance)
            for event in events:
                rules.evolve(state, event)
            out.extend(events)
        return out

    def apply_batch(self, calls: list["BatchCall"]) -> list[list[Event] | Exception]:
        """Many games' calls: each call's events, or the exception it raised."""
        return apply_each(self, calls)


BatchCall = tuple[str, int, list[Event], list[Op], list[tuple[int, list[Event]]]]
"""One call of a batch: ``(game_id, base_version, pending, ops, recent)``."""


def apply_each(port: Any, calls: list[BatchCall]) -> list[list[Event] | Exception]:
    """Run each call on ``port.apply``; an exception is returned in its place, not raised."""
    out: list[list[Event] | Exception] = []
    for game_id, base, pending, ops, recent in calls:
        try:
            out.append(port.apply(game_id, base, pending, ops, recent=recent))
        except Exception as exc:  # noqa: BLE001 - each call answers for itself
            out.append(exc)
    return out


class Port(Protocol):
    """What the coordinator calls for one domain."""

    domain: str

    def apply(self, game_id: str, base_version: int, pending: list[Event], ops: list[Op],
              recent: list[tuple[int, list[Event]]] | None = None) -> list[Event]: ...


class DeckPort(Port, Protocol):
    """The deck port also opens games (stores their secret seed)."""

    def open_game(self, game_id: str, seed: str | None) -> None: ...


def embedded_ports(store: EventStore, seeds: SeedStore | None = None,
                   projections: Projections | None = None) -> dict[str, Any]:
    """The four embedded adapters over ``store``, sharing one projection cache.

    Pass the Table's own ``projections`` so the process keeps one cache, not two.
    """
    projections = projections if projections is not None else Projections(store)
    seeds = seeds if seeds is not None else MemorySeeds()
    return {d: DomainEngine(d, projections, seeds if d == "deck" else None) for d in DOMAINS}
