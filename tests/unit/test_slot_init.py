"""``core.events.slot_init``: the quicker ``__init__`` of ``Event`` and ``Op`` takes the same
arguments and builds the same frozen objects as the dataclass's generated one."""

from __future__ import annotations

import dataclasses
import pickle

import pytest

from services.rules.core import Event, Op
from services.rules.core.chance import Chance
from services.rules.core.events import slot_init


@dataclasses.dataclass(frozen=True, slots=True)
class _Plain:
    a: int
    b: list = dataclasses.field(default_factory=list)
    c: str | None = "x"


@dataclasses.dataclass(frozen=True, slots=True)
class _Quick:
    a: int
    b: list = dataclasses.field(default_factory=list)
    c: str | None = "x"


slot_init(_Quick, {"b": list})


def test_same_fields_as_the_generated_init() -> None:
    for args, kwargs in [((1,), {}), ((1, [2]), {}), ((1, [2], None), {}), ((), {"a": 3, "c": "y"}),
                         ((1,), {"b": None})]:
        assert dataclasses.astuple(_Quick(*args, **kwargs)) == dataclasses.astuple(_Plain(*args, **kwargs))
    assert _Quick(1).b is not _Quick(1).b  # a new default each time, as default_factory gives
    with pytest.raises(TypeError):
        _Quick()  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        _Quick(1, d=2)  # type: ignore[call-arg]


def test_events_and_ops_stay_frozen_equal_and_picklable() -> None:
    e = Event("FishCaught", {"n": 2}, 1)
    assert (e.type, e.data, e.to) == ("FishCaught", {"n": 2}, 1)
    assert Event(type="A").data == {} and Event("A").to is None
    assert e == Event("FishCaught", {"n": 2}, 1) and e != Event("FishCaught", {"n": 2})
    assert pickle.loads(pickle.dumps(e)) == e
    assert Event.from_json(e.to_json()) == e
    op = Op("deck", "draw")
    assert (op.domain, op.name, op.args) == ("deck", "draw", {})
    assert Op.from_json(Op("board", "move", {"x": 1}).to_json()) == Op("board", "move", {"x": 1})
    with pytest.raises(dataclasses.FrozenInstanceError):
        e.to = 2  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        op.name = "other"  # type: ignore[misc]


def test_refuses_what_it_cannot_speed_up() -> None:
    @dataclasses.dataclass
    class Loose:
        a: int

    with pytest.raises(ValueError, match="frozen, slotted"):
        slot_init(Loose)
    with pytest.raises(ValueError, match="default factory"):
        slot_init(_Plain)


def test_a_chance_draws_as_before_its_key_was_made_lazily() -> None:
    # the values the eager key gave (before the key was made at the first draw)
    c = Chance("seed", "label")
    assert [c.below(1000) for _ in range(6)] == [99, 565, 214, 842, 832, 602]
    assert Chance("s", "l").shuffled(range(8)) == [6, 1, 0, 3, 5, 2, 4, 7]
