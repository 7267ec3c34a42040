"""Fisherman (rulebook 5.2)."""

import pytest

from services.rules.core import IllegalMove

from .helpers import RULES, normal_turn, run, seated


def test_declared_draws_cost_steps_and_tokens_are_public():
    """5.2: declare 1-4 draws, 1 Step each; each token shows 1 or 2 fish or a boot; the boat
    carries 2; surplus goes back to the fjord; the action ends by itself."""
    s = normal_turn(seated(3), 0, [10, 16, 17, 18])
    fjord = s.fjord
    events = run(s, 0, {"type": "fisherman", "draws": 4})
    drawn = next(e for e in events if e.type == "FishingTokensDrawn").data["tokens"]
    caught = next(e for e in events if e.type == "FishCaught").data
    assert len(drawn) == 4 and len({t["id"] for t in drawn}) == 4
    total = sum(t["fish"] for t in drawn)
    assert caught["fish"] == min(total, 2) and caught["thrown_back"] == total - caught["fish"]
    assert caught["shown"] == total and caught["not_in_fjord"] == 0  # the fjord holds enough
    assert s.players[0].stock["fish"] == caught["fish"] and s.fjord == fjord - caught["fish"]
    assert s.markers[0].pos == 14 and s.action is None


def test_lookout_tower_adds_one_fish_up_to_the_boat():
    """5.2 and appendix: +1 fish with the Lookout Tower, within the boat's capacity (4 upgraded)."""
    s = normal_turn(seated(3), 0, [10, 16, 17, 18])
    s.players[0].buildings["lookout_tower"] = "meadow"
    s.players[0].transports.append("boat")
    events = run(s, 0, {"type": "fisherman", "draws": 1})
    token = next(e for e in events if e.type == "FishingTokensDrawn").data["tokens"][0]
    assert s.players[0].stock["fish"] == token["fish"] + 1


def test_empty_fjord_cannot_be_fished():
    """5.2: restock when the fjord is exhausted (5.6)."""
    s = normal_turn(seated(3), 0, [10, 16, 17, 18])
    s.fjord = 0
    with pytest.raises(IllegalMove, match="fjord is empty"):
        RULES.check(s, 0, {"type": "fisherman", "draws": 1})


def test_fjord_shortage_and_no_room():
    """5.2: with too few fish in the fjord the fisherman takes only those present; 5.0 note:
    no fishing without room to store a fish."""
    s = normal_turn(seated(3), 0, [10, 16, 17, 18])
    s.fjord = 1
    events = run(s, 0, {"type": "fisherman", "draws": 4})
    caught = next(e for e in events if e.type == "FishCaught").data["fish"]
    assert caught <= 1 and s.fjord == 1 - caught
    s2 = normal_turn(seated(3), 0, [10, 16, 17, 18])
    s2.players[0].stock.update(stone=6)
    with pytest.raises(IllegalMove, match="no room"):
        RULES.check(s2, 0, {"type": "fisherman", "draws": 1})


def test_tokens_go_back_in_the_bag_each_action():
    """5.2: the tokens drawn in one action are all different; they go back in the bag after."""
    s = normal_turn(seated(3), 0, [10, 16, 17, 18])
    s.fjord = 30
    events = run(s, 0, {"type": "fisherman", "draws": 4})
    ids = next(e for e in events if e.type == "FishingTokensDrawn").data["tokens"]
    assert len({t["id"] for t in ids}) == 4
    assert s.fishing_draws == 1 and s.drawn == {}


def test_thrown_back_counts_only_fish_that_were_in_the_fjord():
    """5.2: surplus fish are thrown back into the fjord; fish the fjord never held are not
    thrown back, they are reported apart (``not_in_fjord``)."""
    s = normal_turn(seated(3), 0, [10, 16, 17, 18])
    s.players[0].transports.append("boat")  # capacity 4: the boat never limits here
    s.fjord = 1
    s.drawn = {"fish": 3}
    from services.rules.noggin import board

    data = board.fish(s, 0)[0].data
    assert data == {"seat": 0, "fish": 1, "shown": 3, "thrown_back": 0, "not_in_fjord": 2}
    s.fjord, s.drawn = 10, {"fish": 4}
    s.players[0].transports.clear()  # boat of 2: 2 thrown back
    data = board.fish(s, 0)[0].data
    assert data == {"seat": 0, "fish": 2, "shown": 4, "thrown_back": 2, "not_in_fjord": 0}
    s.fjord, s.drawn = 3, {"fish": 4}
    data = board.fish(s, 0)[0].data
    assert (data["fish"], data["thrown_back"], data["not_in_fjord"]) == (2, 1, 1)
