"""Whole games with a seeded uniform random bot: every game ends by the rules (9.0) and no
seat is ever left without a legal move."""

import pytest

from .helpers import random_game


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("seed", ["7", "2026"])
def test_random_bot_plays_to_the_end(players, seed):
    """9.0 with house rule (ambiguity 8): the game ends when the Crow reaches the crown after
    season 8; the random bot never runs out of legal moves (the helper asserts it)."""
    t, g, moves = random_game(players, seed, bot_seed=players)
    s = t.summary(g)
    assert s["status"] == "over"
    out = s["outcome"]
    assert len(out["scores"]) == players
    if out["crown"] == "nogbad":
        assert out["reason"] == "Nogbad's Crow reached the crown"
        assert out["winners"] == [] and max(out["scores"]) == out["scores"][out["leader_in_exile"][0]]
    else:
        assert out["reason"] == "Noggin's Dragon reached the crown"
        assert out["winners"] == out["council_of_elders"] and max(out["scores"]) == out["scores"][out["winners"][0]]
    _, state, _ = t.state(g)
    assert state.season == 8 and state.crow == 0
    assert moves > 50
