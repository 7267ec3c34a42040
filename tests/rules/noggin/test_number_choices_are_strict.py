"""Regression (found by the rule fuzzer, tests/fuzz): fields that take one number of a fixed set
(a Restock amount, a Mine tile's rotation, the Seer's Tower's adjustment, Hnefetafl's Steps)
took ``true`` for 1 and ``4.0`` for 4, because pydantic matches a ``Literal`` of ints by
equality even in strict mode. They are whole numbers only, like every other number of a move."""

from __future__ import annotations

import pytest

from services.rules.core import MalformedMove

from .helpers import RULES


@pytest.mark.rules("noggin:5.6/exact-amounts")
@pytest.mark.parametrize("amount", [4.0, 8.0, True, "4"])
def test_5_6_exact_amounts_are_whole_numbers(amount):
    """Restock takes exactly 4, 8 or 12 (3, 7, 11): 4.0, true or "4" are not one of them."""
    with pytest.raises(MalformedMove, match="amount"):
        RULES.parse_move({"type": "restock", "kind": "fish", "amount": amount})
    assert RULES.parse_move({"type": "restock", "kind": "fish", "amount": 4})["amount"] == 4


@pytest.mark.rules("noggin:5.1/discover-orientation")
@pytest.mark.parametrize("rotation", [90.0, False, "90"])
def test_5_1_discover_orientation_is_a_whole_number_of_degrees(rotation):
    """A Mine tile turns 0, 90, 180 or 270 degrees; false is not 0 and 90.0 is not 90."""
    move = {"type": "miner", "op": "discover", "slot": [0, 0], "rotation": rotation, "flip": "h"}
    with pytest.raises(MalformedMove, match="rotation"):
        RULES.parse_move(move)


@pytest.mark.rules("noggin:appendix buildings/seers-tower-adjust", "noggin:appendix inventions/hnefetfl")
@pytest.mark.parametrize("move", [
    {"type": "seers_tower", "adjust": True},
    {"type": "seers_tower", "adjust": 1.0},
    {"type": "use", "card": "hnefetfl", "steps": True},
    {"type": "use", "card": "hnefetfl", "steps": 2.0},
])
def test_one_more_or_less_and_one_or_two_steps_are_whole_numbers(move):
    """The Seer's Tower counts 1 Nog more or less (-1, 0, 1) and Hnefetafl spends 1 or 2 Steps;
    true and 1.0 are refused, and the whole numbers still parse."""
    with pytest.raises(MalformedMove, match="whole number"):
        RULES.parse_move(move)
    fixed = {k: int(v) if k in ("adjust", "steps") else v for k, v in move.items()}
    assert RULES.parse_move(fixed) == {**fixed, **RULES.parse_move(fixed)}
