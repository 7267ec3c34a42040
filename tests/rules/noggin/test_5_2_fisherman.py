"""Fisherman (rulebook 5.2)."""

import pytest

from services.rules.core import IllegalMove, MalformedMove
from services.rules.noggin import board, content

from .helpers import RULES, give, normal_turn, run, seated


@pytest.mark.rules("noggin:5.2/boat-capacity")
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


@pytest.mark.rules("noggin:5.2/lookout-tower")
def test_lookout_tower_adds_one_fish_up_to_the_boat():
    """5.2 and appendix: +1 fish with the Lookout Tower, within the boat's capacity (4 upgraded)."""
    s = normal_turn(seated(3), 0, [10, 16, 17, 18])
    s.players[0].buildings["lookout_tower"] = "meadow"
    s.players[0].transports.append("boat")
    events = run(s, 0, {"type": "fisherman", "draws": 1})
    token = next(e for e in events if e.type == "FishingTokensDrawn").data["tokens"][0]
    assert s.players[0].stock["fish"] == token["fish"] + 1
    from services.rules.noggin import board

    s.drawn = {"fish": 0}  # an old boot still brings the tower's fish
    assert board.fish(s, 0)[0].data["fish"] == 1
    s.drawn = {"fish": 4}  # one extra per action, not per token, and within the boat's 4
    assert board.fish(s, 0)[0].data == {"seat": 0, "fish": 4, "shown": 5, "thrown_back": 1, "not_in_fjord": 0}


def test_empty_fjord_cannot_be_fished():
    """5.2: restock when the fjord is exhausted (5.6)."""
    s = normal_turn(seated(3), 0, [10, 16, 17, 18])
    s.fjord = 0
    with pytest.raises(IllegalMove, match="fjord is empty"):
        RULES.check(s, 0, {"type": "fisherman", "draws": 1})


@pytest.mark.rules("noggin:5.2/fjord-short", "noggin:5.0/no-waste")
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


@pytest.mark.rules("noggin:5.2/boat-capacity", "noggin:5.2/fjord-short")
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


@pytest.mark.rules("noggin:5.2/declare-draws", "noggin:5.2/one-token-per-step")
@pytest.mark.parametrize("draws", [1, 2, 3, 4])
def test_declared_draws_one_token_and_one_step_each(draws):
    """5.2: the player declares 1 to 4 draws, once for the action; each is 1 Step and draws 1
    Fishing token; the action then ends (the number cannot change)."""
    s = normal_turn(seated(3), 0, [10, 16, 17, 18])
    events = run(s, 0, {"type": "fisherman", "draws": draws})
    assert len(next(e for e in events if e.type == "FishingTokensDrawn").data["tokens"]) == draws
    assert [e.data["to"] for e in events if e.type == "StepsSpent"] == [10 + draws]
    assert "ActionFinished" in [e.type for e in events] and s.action is None


@pytest.mark.rules("noggin:5.2/declare-draws")
@pytest.mark.parametrize("draws", [0, 5])
def test_only_one_to_four_draws(draws):
    """5.2: from 1 to 4 draws."""
    with pytest.raises(MalformedMove):
        RULES.parse_move({"type": "fisherman", "draws": draws})


@pytest.mark.rules("noggin:5.2/tokens-fish")
def test_a_token_shows_one_or_two_fish_or_an_old_boot():
    """5.2: each token shows 1 or 2 fish, or an old boot (none); the catch is the fish shown
    (when the boat, the fjord and the Farm allow)."""
    assert sorted({t.fish for t in content.load().fishing.tokens}) == [0, 1, 2]
    seen = set()
    for k in range(10):
        s = normal_turn(seated(3), 0, [10, 16, 17, 18])
        s.players[0].transports.append("boat")  # capacity 4: never limits 2 draws
        s.fishing_draws = k
        events = run(s, 0, {"type": "fisherman", "draws": 2})
        tokens = next(e for e in events if e.type == "FishingTokensDrawn").data["tokens"]
        shown = sum(t["fish"] for t in tokens)
        assert all(t["fish"] in (0, 1, 2) for t in tokens)
        assert s.players[0].stock["fish"] == shown
        seen |= {t["fish"] for t in tokens}
    assert seen == {0, 1, 2}


@pytest.mark.rules("noggin:5.2/tokens-back")
def test_tokens_go_back_in_the_bag_after_each_action():
    """5.2: after the action all Fishing tokens go back in the bag: three actions of 4 draws take
    12 tokens from a bag of 10, so tokens of one action are drawn again in another."""
    s = normal_turn(seated(3), 0, [10, 11, 12, 13])
    s.fjord = 23
    drawn = []
    for k in range(3):
        s.active, s.markers[0].pos = 0, 10  # a fresh turn for each action
        s.players[0].stock["fish"] = 0
        s.players[0].transports = ["boat"]
        events = run(s, 0, {"type": "fisherman", "draws": 4})
        ids = [t["id"] for t in next(e for e in events if e.type == "FishingTokensDrawn").data["tokens"]]
        assert len(set(ids)) == 4 and s.drawn == {}
        drawn.append(set(ids))
    assert s.players[0].uses["fisherman"] == 3
    assert sum(len(d) for d in drawn) == 12  # more than the 10 tokens of the bag
    assert len(drawn[0] | drawn[1] | drawn[2]) <= 10


@pytest.mark.rules("noggin:5.2/to-farm")
def test_fish_go_to_the_farm_or_the_smokery():
    """5.2: the fish caught go to the Farm, or to the Fish Smokery (2 more) when the Farm is full."""
    s = normal_turn(seated(3), 0, [10, 16, 17, 18])
    s.drawn = {"fish": 2}
    assert board.fish(s, 0)[0].data["fish"] == 2
    give(s, 0, stone=6)
    with pytest.raises(IllegalMove, match="no room"):
        RULES.check(s, 0, {"type": "fisherman", "draws": 1})
    s.players[0].buildings["fish_smokery"] = "meadow"
    RULES.check(s, 0, {"type": "fisherman", "draws": 1})
    s.players[0].transports.append("boat")
    s.drawn = {"fish": 4}
    assert board.fish(s, 0)[0].data["fish"] == 2  # the Smokery's 2
    events = run(s, 0, {"type": "fisherman", "draws": 4})
    assert s.players[0].stock["fish"] == next(e for e in events if e.type == "FishCaught").data["fish"] <= 2
