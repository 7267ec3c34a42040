"""Canonical serialisation and the state hash.

The canonical form is JSON with sorted keys, no spaces and no floats; the state hash is
the sha256 of that text. Dataclasses are serialised field by field, tuples as lists and
sets as sorted lists, so two equal states always hash the same on every machine.
"""

from __future__ import annotations

import dataclasses
import hashlib
from typing import Any

import orjson


OMIT_IF_NONE = "omit_if_none"
"""Dataclass field metadata key: a field marked with it is left out of the plain form while it
is ``None`` (a field added later, such as a state's match record, then changes no earlier hash)."""
NOT_STATE = "not_state"
"""Dataclass field metadata key: a field marked with it is bookkeeping, not game state (the parts
a copy-on-write clone shares, :mod:`.cow`); it is never in the plain form, so never in a hash."""


def to_plain(obj: Any) -> Any:
    """Convert dataclasses, tuples, sets and dicts with int keys to plain JSON data.

    Each dataclass's fields in the plain form (their names, and which are left out while
    ``None``) are worked out once per class (:func:`_fields_of`); plain values of the exact
    built-in types are taken first. The same output as walking ``dataclasses.fields`` at every
    value, two to four times as fast (docs/benchmarks.md, "The plain form of a state").

    Raises:
        TypeError: on a float or any type JSON cannot carry (state must be ints and strings).
    """
    kind = type(obj)
    if kind is int or kind is str or kind is bool or obj is None:
        return obj
    if kind is list or kind is tuple:
        return [to_plain(v) for v in obj]
    if kind is dict:
        return {str(k): to_plain(v) for k, v in obj.items()}
    fields = _FIELDS.get(kind)
    if fields is not None:
        out = {}
        for name, omit_if_none in fields:
            value = getattr(obj, name)
            if value is not None:
                out[name] = to_plain(value)
            elif not omit_if_none:
                out[name] = None
        return out
    if isinstance(obj, (bool, int, str)):  # a subclass (an enum of ints or strings)
        return obj
    if isinstance(obj, float):
        raise TypeError("floats are not allowed in canonical state; use integers")
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        _FIELDS[kind] = _fields_of(kind)
        return to_plain(obj)
    if isinstance(obj, dict):
        return {str(k): to_plain(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [to_plain(v) for v in obj]
    if isinstance(obj, (set, frozenset)):
        return sorted(to_plain(v) for v in obj)
    raise TypeError(f"cannot serialise {type(obj).__name__} canonically")


_FIELDS: dict[type, tuple[tuple[str, bool], ...]] = {}
"""Dataclass -> its fields in the plain form (:func:`_fields_of`), filled as classes are met (a
dataclass's fields are fixed when its class is made; nothing here makes or changes classes at run
time, so it holds one entry per state class)."""


def _fields_of(kind: type) -> tuple[tuple[str, bool], ...]:
    """``(name, omit_if_none)`` of each field of dataclass ``kind`` in its plain form, in field
    order: every field but those marked :data:`NOT_STATE`; ``omit_if_none`` for those marked
    :data:`OMIT_IF_NONE`."""
    return tuple((f.name, bool(f.metadata.get(OMIT_IF_NONE))) for f in dataclasses.fields(kind)
                 if not f.metadata.get(NOT_STATE))


def canonical_json(obj: Any) -> str:
    """Canonical JSON text of ``obj`` (sorted keys, compact separators, no floats)."""
    return orjson.dumps(to_plain(obj), option=orjson.OPT_SORT_KEYS).decode()


def plain_json(obj: Any) -> str:
    """The canonical JSON text of data that is already plain (dicts with string keys, lists,
    ints, strings, bools, None: events, operation arguments), without :func:`to_plain`'s
    walk: the same text :func:`canonical_json` gives for such data. It does not look for
    floats (the rules never put one in an event; the state hash, over the state events
    build, refuses them)."""
    return orjson.dumps(obj, option=orjson.OPT_SORT_KEYS).decode()


def state_hash(state: Any) -> str:
    """sha256 hex digest of the canonical serialisation of ``state``."""
    return hashlib.sha256(canonical_json(state).encode("utf-8")).hexdigest()
