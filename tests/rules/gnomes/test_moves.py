"""A Game of Gnomes' move model is strict (pydantic, as Noggin's): a boolean, a string or a
float is never a number, unknown fields and unknown move types are refused with a
readable error, and a refused move leaves the game as it was."""

import pytest

from services.rules.core import MalformedMove, state_hash

from .helpers import RULES, active, new_game, play


@pytest.mark.parametrize("move", [
    {"type": "buy", "card": "compass", "nuggets": True},
    {"type": "buy", "card": "compass", "nuggets": "1"},
    {"type": "buy", "card": "compass", "nuggets": 1.0},
    {"type": "sleep", "piles": [True]},
    {"type": "sleep", "piles": ["1"]},
    {"type": "travel", "card": "meadow", "path": []},
    {"type": "travel", "card": "meadow", "path": ["s02", "s03", "s04"]},
    {"type": "pick", "mushroom": "purple"},
    {"type": "sell", "mushroom": "red", "gem": "gold"},
    {"type": "scout", "weeks": 1},
    {"type": "fly", "to": "tower"},
    {"card": "meadow"},
    ["scout"],
])
def test_a_malformed_move_is_refused_and_changes_nothing(move):
    state, chance = new_game(2, seed="strict")
    before = state_hash(state)
    with pytest.raises(MalformedMove) as err:
        play(state, active(state), move, chance)
    assert str(err.value)
    assert state_hash(state) == before


def test_every_legal_move_parses_to_itself():
    """The legal moves a client is given are exactly the shapes the model accepts."""
    state, _ = new_game(3, seed="strict-legal")
    for move in RULES.legal_moves(state, active(state)):
        assert RULES.parse_move(move) == move
