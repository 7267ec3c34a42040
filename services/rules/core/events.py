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

from dataclasses import MISSING, dataclass, field, fields
from typing import Any, Callable, Iterable

from .canonical import plain_json


@dataclass(frozen=True, slots=True)
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


def slot_init(cls: type, defaults: dict[str, Callable[[], Any]] | None = None) -> type:
    """Give the frozen, slotted dataclass ``cls`` a quicker ``__init__`` with the same
    parameters, defaults and results: each field is stored through its slot's descriptor
    instead of the generated ``object.__setattr__`` calls (about half the cost; events and
    operations are made several times a move in every playout and search).

    Args:
        cls: a ``@dataclass(frozen=True, slots=True)`` class whose fields all take part in
            ``__init__``.
        defaults: per field with a ``default_factory``, that factory (called when the
            argument is left out, as the generated ``__init__`` does). Plain defaults are
            read from the fields.
    Returns:
        ``cls`` (changed in place).
    Raises:
        ValueError: ``cls`` is not such a dataclass, or a field with a factory is missing
            from ``defaults``.
    """
    params = getattr(cls, "__dataclass_params__", None)
    if params is None or not params.frozen or "__slots__" not in cls.__dict__:
        raise ValueError(f"{cls.__name__} is not a frozen, slotted dataclass")
    defaults = dict(defaults or {})
    namespace: dict[str, Any] = {"MISSING": _MISSING}
    args, body = [], []
    for f in fields(cls):
        namespace[f"set_{f.name}"] = cls.__dict__[f.name].__set__
        if f.default is not MISSING:
            namespace[f"default_{f.name}"] = f.default
            args.append(f"{f.name}=default_{f.name}")
            body.append(f"    set_{f.name}(self, {f.name})")
        elif f.default_factory is not MISSING:
            if f.name not in defaults:
                raise ValueError(f"{cls.__name__}.{f.name} has a default factory: pass it in defaults")
            namespace[f"factory_{f.name}"] = defaults[f.name]
            args.append(f"{f.name}=MISSING")
            body.append(f"    set_{f.name}(self, factory_{f.name}() if {f.name} is MISSING else {f.name})")
        else:
            args.append(f.name)
            body.append(f"    set_{f.name}(self, {f.name})")
    exec(f"def __init__(self, {', '.join(args)}):\n" + "\n".join(body) + "\n", namespace)  # the names are cls's fields
    init = namespace["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__doc__ = cls.__init__.__doc__
    cls.__init__ = init
    return cls


class _Missing:
    """The default of a :func:`slot_init` argument whose field has a default factory."""

    def __repr__(self) -> str:
        return "<factory>"


_MISSING = _Missing()
"""An argument left out of a :func:`slot_init` ``__init__`` (whose field has a default factory)."""

slot_init(Event, {"data": dict})


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
