"""Events: the facts a move or phase caused, named in the past tense.

An event is ``Event(type, data, to)``: ``type`` is a CamelCase past-tense name
(``FishCaught``), ``data`` a JSON-safe dict of ints, strings, bools, lists and dicts
(no floats, so the serialisation is canonical), and ``to`` the seat allowed to see it
(``None`` = public, :data:`SEALED` = no client at all: hidden facts the rules services
need later, such as the identity of a card lying face down). Replaying a game's events through its ``evolve`` rebuilds the state,
so chance outcomes are always written into events and a replay never needs the seed.
"""

from __future__ import annotations

import orjson

from dataclasses import dataclass, field
from typing import Any, Iterable

from .canonical import plain_json


class _FromFactory:
    """The default of an argument whose field has a default factory (left out: the factory's)."""

    def __repr__(self) -> str:
        return "<factory>"


FROM_FACTORY = _FromFactory()
"""The default of :class:`Event`'s and :class:`Op`'s arguments with a factory (``data``, ``args``):
left out, a new empty dict; given (``None`` included), the value given, as the dataclass's own
``__init__`` does."""


@dataclass(frozen=True, slots=True, init=False)
class Event:
    """One fact in a game's event log.

    Attributes:
        type: past-tense name, e.g. ``"NogsPlaced"``.
        data: JSON-safe payload (no floats).
        to: ``None`` for a public event, the seat index that alone may see it, or
            :data:`SEALED` (-1) for an event no client may see.
    """

    type: str
    data: dict[str, Any] = field(default_factory=dict)
    to: int | None = None

    def __init__(self, type: str, data: Any = FROM_FACTORY, to: int | None = None) -> None:
        # the dataclass's generated __init__ (frozen: object.__setattr__ a field) with each field
        # stored through its slot's descriptor instead (events are made several times a move)
        _EVENT_TYPE(self, type)
        _EVENT_DATA(self, {} if data is FROM_FACTORY else data)
        _EVENT_TO(self, to)

    def to_json(self) -> dict[str, Any]:
        """Return the event as ``{"type", "data", "to"}``."""
        return {"type": self.type, "data": self.data, "to": self.to}

    @classmethod
    def from_json(cls, obj: dict[str, Any]) -> "Event":
        """Build an event from :meth:`to_json` output. Raises ``KeyError`` if ``type`` is missing."""
        return cls(type=obj["type"], data=dict(obj.get("data") or {}), to=obj.get("to"))

    def visible_to(self, seat: int | None) -> bool:
        """True if a client holding ``seat`` (``None`` = spectator) may see this event."""
        return self.to is None or (seat is not None and seat >= 0 and self.to == seat)


_EVENT_TYPE, _EVENT_DATA, _EVENT_TO = (Event.__dict__[name].__set__ for name in ("type", "data", "to"))
"""The slots' setters :meth:`Event.__init__` stores the fields with."""


SEALED = -1
"""``Event.to`` of a sealed event: it is in the log for the rules services but no seat or
spectator ever sees it (a card's hidden side, a reshuffled deck's contents)."""


def sealed(type_: str, **data: Any) -> Event:
    """Shorthand for a sealed event (visible to no client)."""
    return Event(type_, data, SEALED)


def public(type_: str, **data: Any) -> Event:
    """Shorthand for a public event."""
    return Event(type_, data)


def private(seat: int, type_: str, **data: Any) -> Event:
    """Shorthand for an event only ``seat`` may see."""
    return Event(type_, data, seat)


def events_to_json(events: Iterable[Event]) -> str:
    """Canonical JSON of a list of events (the form stored in the event log)."""
    return plain_json([e.to_json() for e in events])


def events_from_json(text: str | bytes) -> list[Event]:
    """Inverse of :func:`events_to_json`."""

    return [Event.from_json(o) for o in orjson.loads(text)]


def visible(events: Iterable[Event], seat: int | None) -> list[Event]:
    """The events among ``events`` that ``seat`` (``None`` = spectator) may see."""
    return [e for e in events if e.visible_to(seat)]
