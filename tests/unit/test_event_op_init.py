"""``Event`` and ``Op`` have their own ``__init__`` (fields stored through the slots' setters,
quicker than the dataclass's generated one): it takes the same arguments and builds the same
frozen objects as the generated ``__init__`` of a twin dataclass would."""

from __future__ import annotations

import copy
import dataclasses
import pickle
from typing import Any

import pytest

from services.rules.core import Event, Op


@dataclasses.dataclass(frozen=True, slots=True)
class _EventTwin:
    type: str
    data: Any = dataclasses.field(default_factory=dict)
    to: int | None = None


@dataclasses.dataclass(frozen=True, slots=True)
class _OpTwin:
    domain: str
    name: str
    args: Any = dataclasses.field(default_factory=dict)


@pytest.mark.parametrize("args,kwargs", [(("A",), {}), (("A", {"n": 1}), {}), (("A", {"n": 1}, 2), {}),
                                         ((), {"type": "A", "to": -1}), (("A",), {"data": None}),
                                         (("A", None, None), {})])
def test_an_event_is_built_as_the_generated_init_would(args, kwargs) -> None:
    assert dataclasses.astuple(Event(*args, **kwargs)) == dataclasses.astuple(_EventTwin(*args, **kwargs))


@pytest.mark.parametrize("args,kwargs", [(("deck", "draw"), {}), (("board", "move", {"x": 1}), {}),
                                         ((), {"domain": "score", "name": "end", "args": None})])
def test_an_op_is_built_as_the_generated_init_would(args, kwargs) -> None:
    assert dataclasses.astuple(Op(*args, **kwargs)) == dataclasses.astuple(_OpTwin(*args, **kwargs))


def test_left_out_a_factory_field_is_a_new_dict_each_time_and_bad_arguments_are_refused() -> None:
    assert Event("A").data is not Event("A").data and Op("d", "n").args is not Op("d", "n").args
    for make in (lambda: Event(), lambda: Event("A", {}, None, 3), lambda: Event("A", seat=1),  # type: ignore[call-arg]
                 lambda: Op("deck"), lambda: Op("deck", "draw", {}, 1), lambda: Op("deck", "draw", kind=1)):  # type: ignore[call-arg]
        with pytest.raises(TypeError):
            make()


def test_events_and_ops_stay_frozen_equal_hashable_copyable_and_picklable() -> None:
    e = Event("FishCaught", {"n": 2}, 1)
    assert (e.type, e.data, e.to) == ("FishCaught", {"n": 2}, 1)
    assert e == Event("FishCaught", {"n": 2}, 1) and e != Event("FishCaught", {"n": 2})
    assert pickle.loads(pickle.dumps(e)) == e and copy.deepcopy(e) == e and copy.copy(e) == e
    assert Event.from_json(e.to_json()) == e
    assert hash(Event("A", None)) == hash(Event("A", None))
    op = Op("deck", "draw")
    assert (op.domain, op.name, op.args) == ("deck", "draw", {})
    assert Op.from_json(Op("board", "move", {"x": 1}).to_json()) == Op("board", "move", {"x": 1})
    assert pickle.loads(pickle.dumps(op)) == op and copy.deepcopy(op) == op
    assert repr(e) == "Event(type='FishCaught', data={'n': 2}, to=1)"
    with pytest.raises(dataclasses.FrozenInstanceError):
        e.to = 2  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        op.name = "other"  # type: ignore[misc]
