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

    Raises:
        TypeError: on a float or any type JSON cannot carry (state must be ints and strings).
    """
    if obj is None or isinstance(obj, (bool, int, str)):
        return obj
    if isinstance(obj, float):
        raise TypeError("floats are not allowed in canonical state; use integers")
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return {f.name: to_plain(v) for f in dataclasses.fields(obj) if not f.metadata.get(NOT_STATE)
                and ((v := getattr(obj, f.name)) is not None or not f.metadata.get(OMIT_IF_NONE))}
    if isinstance(obj, dict):
        return {str(k): to_plain(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [to_plain(v) for v in obj]
    if isinstance(obj, (set, frozenset)):
        return sorted(to_plain(v) for v in obj)
    raise TypeError(f"cannot serialise {type(obj).__name__} canonically")


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
