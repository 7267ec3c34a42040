"""Nog placement (rulebook 5.0: Nogs from the Mountains, the rising cost of repeating an
action, Market Day's single Nog, taking Nogs back from a Saga) and storage with no waste
(3.7, 3.8, 5.0 note)."""

import pytest

from services.rules.core import IllegalMove, NotYourTurn
from services.rules.noggin import content
from services.rules.noggin.board import capacity, fits, room

from .helpers import (saga_one_card_left, 
    RULES,
    give,
    normal_turn,
    own_building,
    own_invention,
    points,
    put_reserve,
    run,
    run_phase,
    scenario,
    seated,
    types,
)


def _turn(players=3):
    return normal_turn(seated(players), 0, [10, 13, 14, 15])


# -- placing Nogs (5.0) --------------------------------------------------------------------

@pytest.mark.rules("noggin:5.0/nog-from-mountains")
def test_an_action_places_a_nog_from_the_mountains():
    """5.0: an action places a Nog taken from the Mountains space on the action space; with no
    Nog there, no action can start."""
    s = _turn()
    p = s.players[0]
    events = run(s, 0, {"type": "fisherman", "draws": 1})
    assert next(e for e in events if e.type == "ActionStarted").data == {"seat": 0, "action": "fisherman", "nogs": 1}
    assert (p.mountains, p.placed["fisherman"], p.reserve) == (9, 1, 6)
    s2 = _turn()
    s2.players[0].mountains = 0
    with pytest.raises(IllegalMove, match="no Nog left on your Mountains"):
        RULES.check(s2, 0, {"type": "market_day", "give": ["wood", "wood"], "take": "stone"})
    with pytest.raises(IllegalMove, match="Mountains space"):
        RULES.check(s2, 0, {"type": "fisherman", "draws": 1})


@pytest.mark.rules("noggin:5.0/repeat-costs-more")
def test_repeating_an_action_costs_one_more_nog_each_time():
    """5.0: the n-th use of an action in a season places n Nogs (1, then 2, then 3)."""
    s = _turn()
    p = s.players[0]
    for n, expect_space in ((1, 1), (2, 3)):
        events = run(s, 0, {"type": "woodcutter", "op": "orchard"})
        assert next(e for e in events if e.type == "ActionStarted").data["nogs"] == n
        run(s, 0, {"type": "finish"})
        assert p.placed["woodcutter"] == expect_space
    assert p.mountains == 10 - 3
    p.mountains = 2
    with pytest.raises(IllegalMove, match="needs 3 Nogs"):
        RULES.check(s, 0, {"type": "woodcutter", "op": "advance"})


@pytest.mark.rules("noggin:5.0/repeat-example", "noggin:5.0/repeat-costs-more")
def test_red_builds_a_second_time_with_two_nogs():
    """5.0 example: Red has used the Builder once this season; to use it again Red places 2 Nogs,
    so 3 Red Nogs stand on the Builder space."""
    s = normal_turn(seated(3), 0, [10, 16, 17, 18])
    assert s.markers[0].colour == "red" and s.players[0].colour == "red"
    p = s.players[0]
    p.placed["builder"], p.uses["builder"], p.mountains = 1, 1, 9  # the first Builder action
    give(s, 0, wood=2)
    events = run(s, 0, {"type": "builder", "transport": "boat"})
    assert next(e for e in events if e.type == "ActionStarted").data["nogs"] == 2
    assert p.placed["builder"] == 3 and p.mountains == 7


@pytest.mark.rules("noggin:5.0/market-day-one-nog")
def test_market_day_always_costs_one_nog():
    """5.0, 6.0: Market Day needs a single Nog however often it is used in the season."""
    s = _turn()
    p = s.players[0]
    p.stock.update(wood=6)
    for k in range(3):
        events = run(s, 0, {"type": "market_day", "give": ["wood", "wood"], "take": "stone"})
        assert next(e for e in events if e.type == "ActionStarted").data["nogs"] == 1
        run(s, 0, {"type": "finish"})
    assert p.placed["market_day"] == 3 and p.mountains == 7 and p.uses["market_day"] == 3
    p.mountains = 1
    RULES.check(s, 0, {"type": "market_day", "give": ["stone", "stone"], "take": "harvest"})


@pytest.mark.rules("noggin:5.0/nogs-back-at-season")
def test_nogs_on_action_spaces_come_back_at_the_change_of_season():
    """5.0, 7.1: Nogs on action spaces return to the Mountains space at the Change of Season
    (and the repeat count starts again); Nogs on a Saga card stay there."""
    s = _turn()
    p = s.players[0]
    p.placed.update(miner=3, market_day=2, builder=1)
    p.uses.update(miner=2, market_day=2, builder=1)
    p.mountains = 4
    s.sagas[0].current.nogs = [1, 0, 0]
    normal_turn(s, 0, [20, 22, 23, 24])
    s.season, s.active = 2, None
    events = run_phase(s)
    assert next(e for e in events if e.type == "NogsReturned").data["nogs"][0] == 6
    assert p.mountains == 10 and sum(p.placed.values()) == 0 and sum(p.uses.values()) == 0
    assert s.sagas[0].current.nogs == [1, 0, 0]
    run(s, 0, {"type": "miner", "op": "walk", "square": [-1, 5]})
    assert p.placed["miner"] == 1  # a fresh season: 1 Nog again


# -- taking Nogs back from a Saga (5.0 B) ----------------------------------------------------------

def _nog_on_saga(state, slot: int, seat: int = 0, needs=("stone", "wood", "fish")):
    """A C card on Saga ``slot`` whose first condition ``seat`` met with a Nog."""
    c = next(c.id for c in content.load().reserve.decks["C"] if not c.nogbad)
    put_reserve(state, slot, list(needs), deck="C", card=c)
    card = state.sagas[slot].current
    card.met[0] = {"seat": seat, "paid": needs[0], "nog": 1}
    nogs = list(card.nogs)
    nogs[seat] = 1
    card.nogs = nogs
    return card


@pytest.mark.rules("noggin:5.0/no-nogs-recall")
def test_with_no_nog_left_one_comes_back_from_an_unfinished_saga():
    """5.0 B: a player with no Nog on the Mountains space may take a Nog back from an unfinished
    Saga card and use it for an action; with a Nog on the Mountains space it may not."""
    s = scenario(3)
    p = s.players[0]
    card = _nog_on_saga(s, 0)
    assert {"type": "recall", "saga": 0, "card": 0} not in RULES.legal_moves(s, 0)
    with pytest.raises(IllegalMove, match="only when none is left"):
        RULES.check(s, 0, {"type": "recall", "saga": 0, "card": 0})
    p.mountains = 0
    assert {"type": "recall", "saga": 0, "card": 0} in RULES.legal_moves(s, 0)
    events = run(s, 0, {"type": "recall", "saga": 0, "card": 0})
    assert types(events) == ["NogsRecalled"]
    assert p.mountains == 1 and card.nogs == [0, 0, 0] and s.markers[0].pos == 0  # no Step
    run(s, 0, {"type": "fisherman", "draws": 1})
    assert p.placed["fisherman"] == 1 and p.mountains == 0


@pytest.mark.rules("noggin:5.0/recall-several-sagas")
def test_nogs_come_back_from_two_sagas_for_one_action():
    """5.0 B: 1 or more Nogs may be taken back, from more than one Saga card if more than one is
    needed: here a second Fisherman action this season needs 2 Nogs, one from each Saga."""
    s = scenario(3)
    p = s.players[0]
    _nog_on_saga(s, 0)
    _nog_on_saga(s, 1)
    p.mountains = 0
    p.placed["fisherman"], p.uses["fisherman"] = 1, 1
    run(s, 0, {"type": "recall", "saga": 0, "card": 0})
    run(s, 0, {"type": "recall", "saga": 1, "card": 0})
    events = run(s, 0, {"type": "fisherman", "draws": 1})
    assert next(e for e in events if e.type == "ActionStarted").data["nogs"] == 2
    assert p.placed["fisherman"] == 3




@pytest.mark.rules("noggin:5.0/recall-no-points")
def test_a_nog_taken_back_earns_nothing_when_the_saga_is_completed():
    """5.0 B: a Nog taken back from a Saga earns nothing when it is completed (6.4: the first card
    of a 3-card Saga pays 4 per Nog; with 1 of Red's 2 Nogs taken back Red scores 4, not 8) and
    no longer counts for the Dragon."""
    s = saga_one_card_left(scenario(3), 0, "the_dragon_hunt", [[2, 0, 0], [0, 1, 0]])
    p = s.players[0]
    p.mountains = 0
    give(s, 0, stone=1)
    run(s, 0, {"type": "recall", "saga": 0, "card": 0})
    assert s.sagas[0].done[0]["nogs"] == [1, 0, 0]
    events = run(s, 0, {"type": "market_day", "op": "saga", "saga": 0, "condition": 0, "nog": False,
                        "pay": ["stone"]})
    assert points(events, 0, "saga") == 4 and points(events, 0, "saga condition") == 1
    assert points(events, 1, "saga") == 3
    moved = next(e for e in events if e.type == "DragonMoved").data
    assert moved["nogs"] == 2 and moved["by"] == 1
    assert next(e for e in events if e.type == "SagaNogsHome").data["nogs"] == [1, 1, 0]


@pytest.mark.rules("noggin:5.0/recall-space-stays-empty")
def test_an_emptied_nog_space_is_never_filled_again():
    """5.0 B: the space of a Nog taken back from a Saga card stays empty: its condition stays met,
    so no Nog (nor cube) can go there again; other conditions take their own Nogs."""
    s = scenario(3)
    p = s.players[0]
    card = _nog_on_saga(s, 0)
    p.mountains = 0
    run(s, 0, {"type": "recall", "saga": 0, "card": 0})
    assert card.met[0] is not None and card.nogs == [0, 0, 0]
    p.mountains = 3
    give(s, 0, stone=1, wood=1)
    with pytest.raises(IllegalMove, match="not open"):
        RULES.check(s, 0, {"type": "market_day", "op": "saga", "saga": 0, "condition": 0, "nog": True,
                           "pay": ["stone"]})
    assert not [m for m in RULES.legal_moves(s, 0) if m.get("op") == "saga" and m["saga"] == 0
                and m["condition"] == 0]
    run(s, 0, {"type": "market_day", "op": "saga", "saga": 0, "condition": 1, "nog": True, "pay": ["wood"]})
    assert card.nogs == [1, 0, 0]


@pytest.mark.rules("noggin:5.0/recall-own-turn-only")
def test_nogs_come_back_from_a_saga_only_on_ones_own_turn():
    """5.0 B: not when it is not the player's turn: another seat cannot take its Nog back during
    this turn, nor to bid in an auction (6.3: no Nog from a Reserve card for an auction)."""
    s = scenario(3)
    _nog_on_saga(s, 0, seat=1)
    s.players[1].mountains = 0
    with pytest.raises(NotYourTurn):
        RULES.check(s, 1, {"type": "recall", "saga": 0, "card": 0})
    run(s, 0, {"type": "market_day", "op": "auction"})  # seat 1 bids first
    assert RULES.to_move(s) == [1]
    with pytest.raises(IllegalMove, match="bid"):
        RULES.check(s, 1, {"type": "recall", "saga": 0, "card": 0})
    assert RULES.legal_moves(s, 1) == [{"type": "bid", "steps": 0}]  # no Nog: it must pass


@pytest.mark.rules("noggin:5.0/recall-for-action-only")
def test_a_nog_taken_back_must_go_to_an_action():
    """5.0 B: Nogs taken back from a Saga are only for an action: once one is back the turn
    cannot end before an action uses it."""
    s = scenario(3, positions=[0, 1, 7, 8])
    s.markers[0].pos = 3  # neither first nor last: ending the turn is allowed (4.2 B)...
    p = s.players[0]
    _nog_on_saga(s, 0)
    p.mountains = 0
    RULES.check(s, 0, {"type": "end_turn"})
    run(s, 0, {"type": "recall", "saga": 0, "card": 0})  # ... until a Nog comes back from the Saga
    with pytest.raises(IllegalMove, match="for an action"):
        RULES.check(s, 0, {"type": "end_turn"})
    assert {"type": "end_turn"} not in RULES.legal_moves(s, 0)
    run(s, 0, {"type": "fisherman", "draws": 1})
    assert not s.recalled


@pytest.mark.rules("noggin:5.0/recall-for-action-only")
def test_a_nog_taken_back_cannot_go_on_a_year2_tile():
    """5.0 B: a Nog taken back from a Saga may not be used for anything but an action, e.g. not
    placed on Knut's Seat (appendix)."""
    s = scenario(3, season=5)
    p = s.players[0]
    own_building(s, 0, "knuts_seat")
    _nog_on_saga(s, 0)
    p.mountains = 0
    run(s, 0, {"type": "recall", "saga": 0, "card": 0})
    with pytest.raises(IllegalMove):
        RULES.check(s, 0, {"type": "use", "card": "knuts_seat"})


# -- storage (3.7, 3.8) and no waste (5.0 note) ------------------------------------------------

@pytest.mark.rules("noggin:3.7/farm-six", "noggin:3.7/gold-no-farm-space")
def test_farm_holds_six_of_any_type_and_gold_takes_no_space():
    """3.7: the Farm stores 6 basic resources of any type mixed; Gold takes no space there; a
    storage building adds 2 of its own kind only (appendix, Granary)."""
    s = _turn()
    p = s.players[0]
    assert all(room(p, r) == 6 for r in ("stone", "wood", "fish", "harvest"))
    p.stock.update(stone=2, wood=1, fish=2)
    assert all(room(p, r) == 1 for r in ("stone", "wood", "fish", "harvest"))
    p.stock.update(stone=3, gold=4)  # 6 basic cubes: full, whatever the Gold
    assert all(room(p, r) == 0 for r in ("stone", "wood", "fish", "harvest"))
    assert not fits(p, {"fish": 1}) and fits(p, {})
    p.buildings["granary"] = "meadow"
    assert room(p, "harvest") == 2 and room(p, "fish") == 0


@pytest.mark.rules("noggin:3.7/transport-two", "noggin:3.8/mine-cart", "noggin:3.8/wood-cart",
                   "noggin:3.8/fishing-boat")
def test_each_transport_carries_two_of_its_own_resources():
    """3.7, 3.8 F: the mine cart carries Stone and Gold, the wood cart Wood, the boat Fish; each
    carries 2 until upgraded."""
    carries = {t.id: t.carries for t in content.load().transports.transports}
    assert carries == {"mine_cart": ["stone", "gold"], "wood_cart": ["wood"], "boat": ["fish"]}
    s = _turn()
    p = s.players[0]
    assert [capacity(p, t) for t in ("mine_cart", "wood_cart", "boat")] == [2, 2, 2]
    col = s.miner[1]
    s.mine[f"1,{col}"] = "gold"
    run(s, 0, {"type": "miner", "op": "dig", "square": [0, col]})
    run(s, 0, {"type": "miner", "op": "dig", "square": [1, col]})
    assert s.action.cart == {"stone": 1, "gold": 1}
    with pytest.raises(IllegalMove, match="mine cart is full"):
        RULES.check(s, 0, {"type": "miner", "op": "dig", "square": [2, col]})
    run(s, 0, {"type": "finish"})
    w = _turn()
    w.woodcutter = 0  # next: clearing 1 prints 2, then clearing 2 prints 2
    run(w, 0, {"type": "woodcutter", "op": "advance"})
    assert w.action.cart == {"wood": 2}
    with pytest.raises(IllegalMove, match="wood cart is full"):
        RULES.check(w, 0, {"type": "woodcutter", "op": "advance"})
    from services.rules.noggin import board

    f = _turn()
    f.drawn = {"fish": 4}
    assert board.fish(f, 0)[0].data["fish"] == 2


@pytest.mark.rules("noggin:3.7/gold-cart-space")
def test_gold_takes_a_space_in_the_mine_cart():
    """3.7, 5.1 GOLD: a Gold cube fills a space in the mine cart: Gold then Stone fill a cart
    of 2, and a cart of 2 Gold takes nothing more."""
    s = _turn()
    col = s.miner[1]
    s.mine[f"0,{col}"] = s.mine[f"1,{col}"] = "gold"
    run(s, 0, {"type": "miner", "op": "dig", "square": [0, col]})
    run(s, 0, {"type": "miner", "op": "dig", "square": [1, col]})
    assert s.action.cart == {"gold": 2}
    with pytest.raises(IllegalMove, match="mine cart is full"):
        RULES.check(s, 0, {"type": "miner", "op": "dig", "square": [2, col]})


@pytest.mark.rules("noggin:3.7/used-to-market")
def test_resources_used_go_back_to_the_nog_market():
    """3.7: resources used are returned to the Nog Market: a building's price, a transport
    upgrade's price and what is given in trade."""
    s = _turn()
    p = s.players[0]
    s.rows["bottom"] = ["granary", "", ""]
    give(s, 0, wood=6, stone=1, fish=2)
    before = dict(s.market)
    run(s, 0, {"type": "builder", "building": "granary", "space": "meadow"})
    assert (s.market["wood"], s.market["stone"]) == (before["wood"] + 2, before["stone"] + 1)
    s.active, s.markers[0].pos = 0, 12
    run(s, 0, {"type": "builder", "transport": "boat"})
    assert s.market["wood"] == before["wood"] + 4
    s.active = 0
    run(s, 0, {"type": "market_day", "give": ["fish", "fish"], "take": "stone"})
    assert s.market["fish"] == before["fish"] + 2 and s.market["stone"] == before["stone"]
    assert p.stock == {"stone": 1, "wood": 2, "fish": 0, "harvest": 0, "gold": 0, "coin": 0}


@pytest.mark.rules("noggin:5.0/no-waste")
def test_no_waste_nothing_gathered_beyond_storage():
    """5.0 note: nothing may be harvested beyond what can be transported and stored: a field is
    not reaped if its 2 Harvest do not fit, no fishing or wood-cutting without room, no Stone dug
    without room, and a catch or a cut stops at the room left."""
    s = normal_turn(seated(3), 0, [10, 13, 14, 15])  # season 2 = Summer
    s.players[0].stock.update(stone=5)
    with pytest.raises(IllegalMove, match="no room for 2 more Harvest"):
        RULES.check(s, 0, {"type": "farmer", "op": "harvest", "field": 0})
    from services.rules.noggin import board

    s.players[0].transports.append("boat")
    s.drawn = {"fish": 3}
    assert board.fish(s, 0)[0].data["fish"] == 1  # room for 1 only; the rest stays in the fjord
    s.players[0].stock.update(stone=6)
    for move, why in (({"type": "fisherman", "draws": 1}, "no room"), ({"type": "woodcutter", "op": "advance"}, "no room"),
                      ({"type": "miner", "op": "dig", "square": [0, s.miner[1]]}, "no room")):
        with pytest.raises(IllegalMove, match=why):
            RULES.check(s, 0, move)


@pytest.mark.rules("noggin:5.0/recall-for-action-only")
def test_a_nog_taken_back_cannot_ride_the_flying_boat():
    """5.0 B: a Nog taken back from a Saga may not be used outside an action, e.g. not placed on
    a Saga condition met with the Flying Boat, a free ability (appendix)."""
    s = scenario(3)
    p = s.players[0]
    _nog_on_saga(s, 0)
    put_reserve(s, 1, ["olaf", "wood"], deck="B")
    own_invention(s, 0, "flying_boat")
    s.characters["olaf"] = "invention:0"
    give(s, 0, fish=1)
    p.mountains = 0
    run(s, 0, {"type": "recall", "saga": 0, "card": 0})
    with pytest.raises(IllegalMove):
        RULES.check(s, 0, {"type": "use", "card": "flying_boat", "character": "olaf", "to": "saga", "slot": 1,
                           "condition": 0, "nog": True, "pay": ["fish"]})
