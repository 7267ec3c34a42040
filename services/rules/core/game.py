"""The game interface every rules package implements, and the game registry.

A game is one :class:`Rules` object. Its state is plain data (dataclasses, ints,
strings, lists, dicts) that only :meth:`Rules.evolve` changes, one event at a time.
A move is a JSON dict with a ``"type"``; resolving it is split into operations
(:class:`Op`), each owned by one domain (``deck``, ``market``, ``board``, ``score``)
so the coordinator can send each to the port (embedded or gRPC) of that domain:

* :meth:`Rules.plan` turns a checked move into operations;
* :meth:`Rules.handle` runs one operation against a scratch state and returns events
  (only the deck domain is given a chance source);
* :meth:`Rules.follow_up` returns the operations still owed by the rules after a move
  or phase (final scoring, say) until it returns nothing;
* :meth:`Rules.pending_phase` names a phase (change of season) that must run between
  moves; the coordinator hands it to the phase worker.

The turn model: :meth:`Rules.to_move` lists the seats whose decision it is now. More
than one seat means simultaneous decisions (sealed orders or bids); the list is
recomputed from the state after every event, so turn orders that change after every
move (Noggin's Step track, the gnome timer stack) need nothing special.
"""

from __future__ import annotations

import copy
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any, Callable, ClassVar, Iterable

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from .chance import Chance
from .errors import BadConfig, IllegalMove, MalformedMove, NotYourTurn, UnknownGame
from .events import FROM_FACTORY, Event

DOMAINS = ("deck", "market", "board", "score")
"""The four domains, each served by one port and one gRPC service."""

ChanceFactory = Callable[[str], Chance]
"""Given a label, returns the chance source for that draw (deck domain only)."""


@dataclass(frozen=True, slots=True, init=False)
class Op:
    """One operation for one domain.

    Attributes:
        domain: one of :data:`DOMAINS`.
        name: the operation, e.g. ``"move"`` or ``"draw_fishing_tokens"``.
        args: JSON-safe arguments.
    """

    domain: str
    name: str
    args: dict[str, Any] = field(default_factory=dict)

    def __init__(self, domain: str, name: str, args: Any = FROM_FACTORY) -> None:
        # as Event.__init__: the generated __init__'s fields, stored through the slots' setters
        _OP_DOMAIN(self, domain)
        _OP_NAME(self, name)
        _OP_ARGS(self, {} if args is FROM_FACTORY else args)

    def to_json(self) -> dict[str, Any]:
        """``{"domain", "name", "args"}``."""
        return {"domain": self.domain, "name": self.name, "args": self.args}

    @classmethod
    def from_json(cls, obj: dict[str, Any]) -> "Op":
        """Inverse of :meth:`to_json`."""
        return cls(obj["domain"], obj["name"], dict(obj.get("args") or {}))


_OP_DOMAIN, _OP_NAME, _OP_ARGS = (Op.__dict__[name].__set__ for name in ("domain", "name", "args"))
"""The slots' setters :meth:`Op.__init__` stores the fields with."""


class GameConfig(BaseModel):
    """What a game is created with; stored (without any secret) in its first event.

    Attributes:
        game: registered game name, e.g. ``"noggin"``.
        players: number of seats taken by players (bots or people).
        options: game-specific switches (variants); empty for the base game.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    game: str = Field(min_length=1, max_length=64)
    players: int
    options: dict[str, Any] = Field(default_factory=dict)


class Rules(ABC):
    """One game's rules. Subclasses are stateless; all state lives in the state object."""

    name: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    option_names: ClassVar[frozenset[str]] = frozenset()
    option_help: ClassVar[dict[str, str]] = {}
    """One line per option (variant) in the rulebook's words, for the game catalog."""

    # -- set-up -------------------------------------------------------------------
    def validate_config(self, config: GameConfig) -> None:
        """Raise :class:`BadConfig` if ``config`` does not fit this game."""
        if not self.min_players <= config.players <= self.max_players:
            raise BadConfig(
                f"{self.title} takes {self.min_players} to {self.max_players} players, "
                f"not {config.players}"
            )
        unknown = set(config.options) - set(self.option_names)
        if unknown:
            raise BadConfig(f"unknown option(s) for {self.name}: {', '.join(sorted(unknown))}")

    @abstractmethod
    def new_state(self) -> Any:
        """The empty state before the ``GameCreated`` event."""

    def created_event(self, config: GameConfig) -> Event:
        """The first event of every game: ``GameCreated`` with the public config."""
        return Event("GameCreated", {"config": config.model_dump()})

    def setup_ops(self, config: GameConfig) -> list[Op]:
        """Operations run once after ``GameCreated`` (shuffles, first turn order); none by default."""
        return []

    # -- state --------------------------------------------------------------------
    @abstractmethod
    def evolve(self, state: Any, event: Event) -> None:
        """Apply one event to ``state`` in place. Must accept every event this game emits."""

    def copy(self, state: Any) -> Any:
        """A deep copy for scratch work and search, which its holder may change in any way."""
        return copy.deepcopy(state)

    def clone(self, state: Any) -> Any:
        """A copy for search that is changed only through :meth:`evolve` (the forward model's
        ``apply``): a game may share the parts no event has changed yet with ``state``
        (copy-on-write, :mod:`.cow`), so while the clone lives ``state`` too is changed only
        through :meth:`evolve`. A plain :meth:`copy` unless the game says otherwise."""
        return self.copy(state)

    # -- turns --------------------------------------------------------------------
    @abstractmethod
    def to_move(self, state: Any) -> list[int]:
        """Seats whose decision it is now (empty while a phase runs or after the end)."""

    @abstractmethod
    def candidates(self, state: Any, seat: int) -> Iterable[dict[str, Any]]:
        """Every move worth checking for ``seat`` now; :meth:`legal_moves` filters them."""

    @abstractmethod
    def check(self, state: Any, seat: int, move: dict[str, Any]) -> None:
        """Raise :class:`IllegalMove` (with a readable reason) unless ``move`` is legal now."""

    def parse_move(self, obj: Any) -> dict[str, Any]:
        """Validate the shape of a move and return it normalised.

        Raises:
            MalformedMove: the object is not a move of this game.
        """
        model = self.move_model()
        if model is None:
            if not isinstance(obj, dict) or not isinstance(obj.get("type"), str):
                raise MalformedMove('a move is a JSON object with a string "type"')
            where = _first_bool(obj)
            if where is not None:
                # the loose check of a game without a move model would take true for 1
                # (bool is an int in Python); no such game has a yes/no field
                raise MalformedMove(f"{where}: true and false are not numbers; this game's moves hold no booleans")
            return obj
        try:
            parsed = model.validate_python(obj)
        except ValidationError as exc:
            raise MalformedMove(validation_reason(exc)) from None
        # by alias: a field named ``from_`` in Python is ``from`` in the move
        return parsed.model_dump(exclude_none=True, by_alias=True) if hasattr(parsed, "model_dump") else parsed

    def move_model(self) -> Any:
        """A pydantic ``TypeAdapter`` for this game's moves, or ``None`` for a loose check."""
        return None

    def legal_moves(self, state: Any, seat: int) -> list[dict[str, Any]]:
        """All legal moves for ``seat`` now, in a stable order (empty if not its decision)."""
        if seat not in self.to_move(state):
            return []
        out = []
        for move in self.candidates(state, seat):
            try:
                self.check(state, seat, move)
            except IllegalMove:
                continue
            out.append(move)
        return out

    def require_turn(self, state: Any, seat: int) -> None:
        """Raise :class:`NotYourTurn` unless ``seat`` is among :meth:`to_move`."""
        active = self.to_move(state)
        if seat not in active:
            if self.outcome(state) is not None:
                raise NotYourTurn("the game is over; no seat may move")
            if not active:
                raise NotYourTurn("no seat may move now: a phase (such as a change of season) is running")
            raise NotYourTurn(f"seat {seat} may not move now; waiting for seat(s) {active}")

    # -- resolution -----------------------------------------------------------------
    @abstractmethod
    def plan(self, state: Any, seat: int, move: dict[str, Any]) -> list[Op]:
        """Operations that resolve a checked move, in order."""

    @abstractmethod
    def handle(self, state: Any, op: Op, chance: ChanceFactory | None) -> list[Event]:
        """Run one operation on a scratch ``state`` (not changed here) and return its events."""

    def follow_up(self, state: Any) -> list[Op]:
        """Operations the rules still owe after a move or phase; empty when nothing is owed."""
        return []

    def pending_phase(self, state: Any) -> str | None:
        """Name of the phase that must run before anyone moves again, or ``None``."""
        return None

    def phase_ops(self, state: Any, phase: str) -> list[Op]:
        """Operations of phase ``phase``. Raises ValueError for an unknown phase."""
        raise ValueError(f"{self.name} has no phase {phase!r}")

    # -- views --------------------------------------------------------------------
    def table_view(self, state: Any, seat: int | None) -> dict[str, Any]:
        """The start of every game's player view: the state as plain data without its ``secret``
        part, and ``seat``, ``to_move``, ``phase`` and ``outcome``."""
        from .canonical import to_plain

        out = to_plain(state)
        out.pop("secret", None)
        out.update(seat=seat, to_move=self.to_move(state), phase=self.pending_phase(state),
                   outcome=self.outcome(state))
        return out

    @abstractmethod
    def view(self, state: Any, seat: int | None) -> dict[str, Any]:
        """The player view of ``seat`` (public state plus its own secrets); ``None`` = spectator."""

    @abstractmethod
    def outcome(self, state: Any) -> dict[str, Any] | None:
        """``None`` while the game runs; at the end ``{"reason", "scores", "winners"}``."""

    def hash_view(self, state: Any) -> Any:
        """What the state hash covers (the whole state unless a game says otherwise)."""
        return state

    # -- search -------------------------------------------------------------------
    def determinise(self, state: Any, seat: int | None, seed: str) -> Any:
        """A copy of ``state`` in which everything ``seat`` may not see is replaced by a sample
        drawn with ``seed`` from what it could be (information-set search). Games whose state
        holds no hidden information return a plain copy; undrawn piles are never in a state,
        so a search that draws with its own chance never reads their true order."""
        return self.copy(state)

    def state_from_view(self, view: dict[str, Any], seed: str) -> Any:
        """A full state rebuilt from a player view (its hidden parts sampled with ``seed``), for
        bots that only see what a client sees. Raises NotImplementedError if the game cannot."""
        raise NotImplementedError(f"{self.name} cannot rebuild a state from a view")


def _first_bool(obj: Any, path: str = "move") -> str | None:
    """The path of the first boolean inside ``obj`` (a move's JSON data), or None."""
    if isinstance(obj, bool):
        return path
    if isinstance(obj, dict):
        items: Iterable[tuple[Any, Any]] = obj.items()
    elif isinstance(obj, list):
        items = enumerate(obj)
    else:
        return None
    for key, value in items:
        found = _first_bool(value, f"{path}.{key}")
        if found is not None:
            return found
    return None


def validation_reason(exc: ValidationError) -> str:
    """A readable reason from a pydantic error: its first three problems, each as
    ``<field path>: <message>``."""
    parts = []
    for err in exc.errors()[:3]:
        loc = ".".join(str(p) for p in err.get("loc", ()))
        parts.append(f"{loc}: {err.get('msg')}" if loc else str(err.get("msg")))
    return "; ".join(parts)


_REGISTRY: dict[str, Rules] = {}


def register(rules: Rules) -> Rules:
    """Add a game to the registry (idempotent for the same object). Returns it."""
    existing = _REGISTRY.get(rules.name)
    if existing is not None and type(existing) is not type(rules):
        raise ValueError(f"a different game is already registered as {rules.name!r}")
    _REGISTRY[rules.name] = rules
    return rules


def get_rules(name: str) -> Rules:
    """The registered rules of game ``name``.

    Raises:
        UnknownGame: no such game (the message lists the known ones).
    """
    _load_builtin()
    try:
        return _REGISTRY[name]
    except KeyError:
        raise UnknownGame(f"unknown game {name!r}; known games: {', '.join(sorted(_REGISTRY))}") from None


def game_names() -> list[str]:
    """Names of all registered games."""
    _load_builtin()
    return sorted(_REGISTRY)


_WARMED: set[str] = set()


def warm_up() -> list[str]:
    """Load every game and what its first move needs (its move model, its content files), so
    that a process pays this at start-up rather than in its first game's first request.
    Returns the game names. Idempotent: a process that calls it again (the gateway builds its
    Table after its app) pays nothing more."""
    names = game_names()
    for name in names:
        if name in _WARMED:
            continue
        _WARMED.add(name)
        rules = _REGISTRY[name]
        rules.move_model()
        state = rules.new_state()
        rules.evolve(state, rules.created_event(GameConfig(game=name, players=rules.min_players)))
    return names


def builtin_game_names() -> list[str]:
    """Names of the games every Longhouse process offers (:data:`BUILTIN_GAMES`), without the
    extra ones of ``LONGHOUSE_EXTRA_GAMES``."""
    _load_builtin()
    return sorted(n for n, r in _REGISTRY.items()
                  if any(type(r).__module__.startswith(m + ".") for m in BUILTIN_GAMES))


_BUILTIN_LOADED = False


def _load_builtin() -> None:
    """Import the built-in games and any listed in ``LONGHOUSE_EXTRA_GAMES``.

    ``LONGHOUSE_EXTRA_GAMES`` is a comma-separated list of importable modules that call
    :func:`register` (used by the test suite to host its tiny test-only games).
    """
    global _BUILTIN_LOADED
    if _BUILTIN_LOADED:
        return
    import importlib
    import os

    for module in BUILTIN_GAMES + tuple(
        m.strip() for m in os.environ.get("LONGHOUSE_EXTRA_GAMES", "").split(",") if m.strip()
    ):
        importlib.import_module(module)
    _BUILTIN_LOADED = True


BUILTIN_GAMES: tuple[str, ...] = ("services.rules.noggin", "services.rules.gnomes", "services.rules.resource_hog")
"""Modules of the games every Longhouse process offers."""
