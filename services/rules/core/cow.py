"""Copy-on-write clones of a game state, for search: a clone shares every part of the state
with the original, and a part is copied only when an event is about to change it.

A game's state is a dataclass whose mutable parts (lists, dicts, players) only its ``evolve``
changes, one event at a time. :class:`CopyOnWrite` is given, per such part, how to copy it (the
same copy the game's deep ``copy_state`` makes of it), and, per event type, which parts its
handler changes in place (an event type not listed may change any part). A clone is a new state
object whose fields hold the very same objects as the original's; both are then marked as sharing
every part (the state's :func:`shared_field`). :meth:`CopyOnWrite.before`, called by ``evolve``
before each event, copies the shared parts that event changes into the state being evolved, and
unmarks them there. So a random playout on a clone copies the players and the hands it touches,
never the board, the decks or the content.

The contract that makes this safe: a clone (and, while a clone lives, its original) is changed
only through ``evolve`` (the forward model's ``apply`` and ``apply_phase`` use it). Code that
changes a state directly, as some tests set positions up, takes the game's deep ``copy``.
The marker is bookkeeping: it is left out of the canonical form (so of every hash) and of
equality. This is the structural sharing of persistent data structures (Driscoll, Sarnak,
Sleator and Tarjan, "Making data structures persistent", 1989), at the granularity of a
state's fields.
"""

from __future__ import annotations

from dataclasses import field, fields
from typing import Any, Callable, Mapping

from .canonical import NOT_STATE

SHARED = "shared"
"""The name of the marker field every copy-on-write state declares (:func:`shared_field`)."""


def shared_field() -> Any:
    """The dataclass field ``shared``: the names of the parts this state may share with another
    (empty for a state that owns all its parts). Not state: no hash, no equality, no repr."""
    return field(default=frozenset(), compare=False, repr=False, metadata={NOT_STATE: True})


class CopyOnWrite:
    """Clones of one game's state class that copy a part only when an event changes it.

    Args:
        cls: the state dataclass (slots or not); it must declare :func:`shared_field`.
        copiers: per mutable field, a function returning an independent copy of its value.
        writes: per event type, the fields its handler changes in place (or replaces); an
            event type absent here is taken to change every field of ``copiers``.
    Raises:
        ValueError: ``cls`` has no ``shared`` field, or a name in ``copiers`` or ``writes``
            is not one of its fields.
    """

    def __init__(self, cls: type, copiers: Mapping[str, Callable[[Any], Any]],
                 writes: Mapping[str, frozenset[str] | set[str] | tuple[str, ...]]) -> None:
        names = [f.name for f in fields(cls)]
        if SHARED not in names:
            raise ValueError(f"{cls.__name__} declares no {SHARED!r} field (core.cow.shared_field)")
        unknown = (set(copiers) | {n for w in writes.values() for n in w}) - set(names)
        if unknown:
            raise ValueError(f"not fields of {cls.__name__}: {', '.join(sorted(unknown))}")
        self.parts = frozenset(copiers)
        self.copiers = dict(copiers)
        self.writes = {t: frozenset(w) & self.parts for t, w in writes.items()}
        self._share = _sharer(cls, [n for n in names if n != SHARED])

    def clone(self, state: Any) -> Any:
        """A new state holding the same objects as ``state``; both now share every part."""
        out = self._share(state)
        state.shared = out.shared = self.parts
        return out

    def before(self, state: Any, event_type: str) -> None:
        """Copy into ``state`` the shared parts an event of ``event_type`` changes (call it just
        before the event's handler runs)."""
        shared = state.shared
        if not shared:
            return
        hit = shared & self.writes.get(event_type, self.parts)
        if hit:
            for name in hit:
                setattr(state, name, self.copiers[name](getattr(state, name)))
            state.shared = shared - hit


def _sharer(cls: type, names: list[str]) -> Callable[[Any], Any]:
    """A function building a ``cls`` whose fields are ``names`` taken from another one, one
    plain attribute store each (no ``__init__``: nothing is built or checked)."""
    body = "\n".join(f"    out.{n} = s.{n}" for n in names)
    namespace: dict[str, Any] = {"new": object.__new__, "cls": cls}
    exec(f"def share(s):\n    out = new(cls)\n{body}\n    return out\n", namespace)  # the names are the fields of cls
    return namespace["share"]


__all__ = ["CopyOnWrite", "SHARED", "shared_field"]
