"""Appendix, Counting House cards: the artefacts of the fifteen Counting House cards (owned face
up; rulebook 6.3)."""

import pytest

from services.rules.core import IllegalMove
from services.rules.noggin import content
from services.rules.noggin.decks import reserve_order

from .helpers import (complete_stranger, stranger_last_card, at_season_end, RULES, activate_nogbad, chance_of, give, legal, own_card, points, put_reserve,
                      run, run_phase, scenario, types)


def _turn(season=2, seat=0, positions=None, players=3):
    return scenario(players, season=season, seat=seat, positions=positions)




def _event(events, kind):
    return next(e for e in events if e.type == kind)


# -- Bird's Crown --------------------------------------------------------------------------

@pytest.mark.rules("noggin:appendix counting house/birds-crown")
def test_birds_crown_jumps_a_clearing_for_one_step_and_cuts_only_in_the_second():
    """Appendix: once per season the Woodcutter moves 2 clearings for 1 Step, jumping over the
    first without cutting: from clearing 0 he jumps clearing 1 (zone 0) and cuts the 2 trees
    of clearing 2 (zone 1). A second jump that season is refused."""
    s = _turn()
    own_card(s, 0, "birds_crown")
    s.woodcutter = 0
    forest = list(s.forest)
    clearings = content.load().forest.clearings
    assert (clearings[1].zone, clearings[2].zone, clearings[2].number) == (0, 1, 2)
    events = run(s, 0, {"type": "woodcutter", "op": "jump"})
    assert types(events)[-2:] == ["AbilityUsed", "WoodcutterMoved"]
    assert _event(events, "WoodcutterMoved").data["clearing"] == 2
    assert s.woodcutter == 2 and s.action.cart == {"wood": 2} and s.markers[0].pos == 11
    assert s.forest == [forest[0], forest[1] - 2, *forest[2:]]
    assert "birds_crown" in s.players[0].used
    with pytest.raises(IllegalMove, match="once per season"):
        RULES.check(s, 0, {"type": "woodcutter", "op": "jump"})
    t = _turn()
    with pytest.raises(IllegalMove, match="face-up Bird's Crown"):
        RULES.check(t, 0, {"type": "woodcutter", "op": "jump"})


# -- Butterfly Net -------------------------------------------------------------------------

@pytest.mark.rules("noggin:appendix counting house/butterfly-net")
@pytest.mark.parametrize("amount, scored", [(3, 0), (7, 2), (11, 4)])
def test_butterfly_net_restocks_fish_with_one_less(amount, scored):
    """Appendix and 5.6: with the Butterfly Net 3, 7 or 11 fish fill the fjord and score as 4,
    8 or 12 would (0, 2, 4 points)."""
    s = _turn()
    own_card(s, 0, "butterfly_net")
    s.fjord -= 12
    s.market["fish"] += 12
    fjord = s.fjord
    events = run(s, 0, {"type": "restock", "kind": "fish", "amount": amount})
    assert s.fjord == fjord + amount and s.market["fish"] == 12 - amount
    assert points(events, 0, "restock") == scored
    assert _event(events, "Restocked").data["artefact"] == "butterfly_net"


@pytest.mark.rules("noggin:appendix counting house/butterfly-net")
def test_without_the_net_or_for_trees_seven_is_refused():
    """Appendix and 5.6: only fish, and only with the Net, may be restocked by 3, 7 or 11."""
    s = _turn()
    s.fjord -= 12
    s.market.update(fish=12, wood=8)
    with pytest.raises(IllegalMove, match="exactly 4, 8 or 12"):
        RULES.check(s, 0, {"type": "restock", "kind": "fish", "amount": 7})
    own_card(s, 0, "butterfly_net")
    with pytest.raises(IllegalMove, match="exactly 4, 8 or 12"):
        RULES.check(s, 0, {"type": "restock", "kind": "trees", "amount": 7})
    RULES.check(s, 0, {"type": "restock", "kind": "fish", "amount": 7})
    t = _turn()
    own_card(t, 0, "butterfly_net", up=False)
    t.fjord -= 12
    t.market["fish"] = 12
    with pytest.raises(IllegalMove, match="exactly 4, 8 or 12"):  # face down: no artefact (6.3)
        RULES.check(t, 0, {"type": "restock", "kind": "fish", "amount": 7})


# -- Coral Necklace ------------------------------------------------------------------------

@pytest.mark.rules("noggin:appendix counting house/coral-necklace")
def test_coral_necklace_puts_a_token_back_for_another_once_a_season():
    """Appendix: with the Coral Necklace the drawn Fishing token waits; put back in the bag, a
    new token is drawn and the catch follows it. A second Fisherman action that season gets
    no such choice."""
    s = _turn()
    own_card(s, 0, "coral_necklace")
    events = run(s, 0, {"type": "fisherman", "draws": 1})
    assert types(events)[-1] == "FishingTokensDrawn" and _event(events, "FishingTokensDrawn").data["wait"]
    assert [m["put_back"] for m in legal(s, 0)] == [None, 0]
    events = run(s, 0, {"type": "fishing_tokens", "put_back": 0})
    assert types(events)[:3] == ["AbilityUsed", "FishingTokensDrawn", "FishCaught"]
    new = _event(events, "FishingTokensDrawn").data
    assert new["replacing"] == 0 and len(new["tokens"]) == 1
    caught = _event(events, "FishCaught").data
    assert caught["shown"] == new["tokens"][0]["fish"] and s.players[0].stock["fish"] == caught["fish"]
    assert "coral_necklace" in s.players[0].used and s.action is None
    s.active, s.markers[0].pos = 0, 11
    events = run(s, 0, {"type": "fisherman", "draws": 1})
    assert "FishCaught" in types(events) and s.action is None  # no waiting this time


@pytest.mark.rules("noggin:appendix counting house/coral-necklace")
def test_coral_necklace_kept_tokens_leave_it_unused():
    """Appendix: keeping the drawn tokens catches what they show and the Necklace stays ready."""
    s = _turn()
    own_card(s, 0, "coral_necklace")
    drawn = _event(run(s, 0, {"type": "fisherman", "draws": 2}), "FishingTokensDrawn").data["tokens"]
    events = run(s, 0, {"type": "fishing_tokens", "put_back": None})
    assert _event(events, "FishCaught").data["shown"] == sum(t["fish"] for t in drawn)
    assert "AbilityUsed" not in types(events) and s.players[0].used == []


# -- Darkness Tome -------------------------------------------------------------------------

@pytest.mark.rules("noggin:appendix counting house/darkness-tome")
@pytest.mark.parametrize("direction, quarter", [(1, 1), (-1, 3)])
def test_darkness_tome_moves_the_crow_a_quarter_either_way(direction, quarter):
    """Appendix: once per season, Nogbad inactive, the owner moves the Infamous Crow one
    quarter forward or backward; not again that season, and never while Nogbad is active."""
    s = _turn()
    own_card(s, 0, "darkness_tome")
    assert s.wheel == 0
    run(s, 0, {"type": "use", "card": "darkness_tome", "direction": direction})
    assert s.wheel == quarter and s.markers[0].pos == 10
    with pytest.raises(IllegalMove, match="already used this season"):
        RULES.check(s, 0, {"type": "use", "card": "darkness_tome", "direction": direction})
    t = activate_nogbad(_turn(), 2)
    own_card(t, 0, "darkness_tome")
    with pytest.raises(IllegalMove, match="only be moved this way while Nogbad is inactive"):
        RULES.check(t, 0, {"type": "use", "card": "darkness_tome", "direction": direction})


# -- Fireworks and a finishing Saga --------------------------------------------------------





@pytest.mark.rules("noggin:appendix counting house/fireworks")
def test_fireworks_add_one_to_noggin_and_leave_the_game():
    """Appendix (house rule fireworks-nog-home): as a Saga finishes the owner may play the
    Fireworks: the Dragon moves 1 more; the card leaves the game (its Nog goes home) and no
    longer scores at the Change of Season."""
    s = _turn()
    own_card(s, 1, "fireworks")
    stranger_last_card(s, 4)  # 6 Nogs: 1 space
    complete_stranger(s)
    assert RULES.to_move(s) == [1]
    dragon, nogs = s.dragon, s.players[1].mountains
    events = run(s, 1, {"type": "fireworks", "play": True})
    assert _event(events, "DragonMoved").data["by"] == 2 and s.dragon == dragon - 2
    assert s.players[1].counting_house == [] and s.players[1].mountains == nogs + 1
    run(s, 0, {"type": "finish"})
    at_season_end(s, 2)
    assert points(run_phase(s), 1, "counting house") == 0


@pytest.mark.rules("noggin:appendix counting house/fireworks")
def test_fireworks_kept_stay_for_a_later_saga():
    """Appendix: the owner may keep the Fireworks: the Dragon moves as usual and the card, still
    face up, scores 2 at the next Change of Season (6.3)."""
    s = _turn()
    own_card(s, 1, "fireworks")
    stranger_last_card(s, 4)
    complete_stranger(s)
    events = run(s, 1, {"type": "fireworks", "play": False})
    assert _event(events, "DragonMoved").data["by"] == 1
    assert s.players[1].counting_house == [{"card": "fireworks", "up": True}]
    run(s, 0, {"type": "finish"})
    at_season_end(s, 2)
    assert points(run_phase(s), 1, "counting house") == 2


# -- Good Genie ----------------------------------------------------------------------------

@pytest.mark.rules("noggin:appendix counting house/good-genie")
def test_good_genie_builds_twice_in_one_builder_action_both_paid():
    """Appendix: once per season one Builder action builds twice (a building and a transport
    upgrade here), each paid in full, for the action's 2 Steps; a second Builder action that
    season builds once."""
    s = _turn()
    own_card(s, 0, "good_genie")
    s.rows["bottom"] = ["granary", "fish_smokery", ""]
    give(s, 0, wood=6, stone=2)
    market = dict(s.market)
    run(s, 0, {"type": "builder", "building": "granary", "space": "meadow"})
    assert s.action is not None and s.action.builds == 1 and s.markers[0].pos == 12
    events = run(s, 0, {"type": "builder", "transport": "boat"})
    assert _event(events, "TransportUpgraded").data["genie"] is True and s.action is None
    p = s.players[0]
    assert p.buildings == {"granary": "meadow"} and p.transports == ["boat"] and s.markers[0].pos == 12
    assert (p.stock["wood"], p.stock["stone"]) == (2, 1)
    assert (s.market["wood"], s.market["stone"]) == (market["wood"] + 4, market["stone"] + 1)
    assert "good_genie" in p.used
    run(s, 0, {"type": "builder", "transport": "wood_cart"})  # a second Builder action: one build
    assert s.action is None and p.transports == ["boat", "wood_cart"]


@pytest.mark.rules("noggin:appendix counting house/good-genie")
def test_without_the_genie_a_builder_action_builds_once():
    """5.5 and appendix: without the Good Genie the Builder action ends after one build."""
    s = _turn()
    s.rows["bottom"] = ["granary", "fish_smokery", ""]
    give(s, 0, wood=6, stone=2)
    run(s, 0, {"type": "builder", "building": "granary", "space": "meadow"})
    assert s.action is None
    own_card(s, 0, "good_genie")
    s.players[0].used.append("good_genie")  # already used this season
    run(s, 0, {"type": "builder", "transport": "boat"})
    assert s.action is None


# -- Honey & Mead --------------------------------------------------------------------------

THOR = {"type": "market_day", "op": "character", "character": "thor", "direction": 1, "pay": ["fish"]}


@pytest.mark.rules("noggin:appendix counting house/honey-and-mead")
def test_honey_and_mead_allows_one_more_market_day_action_even_the_same():
    """Appendix and 6.0: a Market Day is a character's ability and/or one option; once per season
    Honey & Mead allows one more, the same one included (Thor twice, then a trade); a fourth is
    refused."""
    s = _turn()
    own_card(s, 0, "honey_and_mead")
    give(s, 0, fish=3, wood=2)
    run(s, 0, THOR)
    events = run(s, 0, THOR)
    assert types(events)[:2] == ["AbilityUsed", "CharacterUsed"] and events[0].data["card"] == "honey_and_mead"
    assert s.wheel == 2 and s.markers[0].pos == 11 and "honey_and_mead" in s.players[0].used
    run(s, 0, {"type": "market_day", "op": "trade", "give": ["wood", "wood"], "take": "stone"})
    with pytest.raises(IllegalMove, match="Honey & Mead allows one more"):
        RULES.check(s, 0, {**THOR, "direction": -1})
    run(s, 0, {"type": "finish"})
    run(s, 0, THOR)
    with pytest.raises(IllegalMove, match="Honey & Mead allows one more"):  # used this season
        RULES.check(s, 0, {**THOR, "direction": -1})


@pytest.mark.rules("noggin:appendix counting house/honey-and-mead")
def test_without_honey_and_mead_a_second_ability_is_refused():
    """6.0: without Honey & Mead a Market Day holds one character's ability."""
    s = _turn()
    give(s, 0, fish=2)
    run(s, 0, THOR)
    with pytest.raises(IllegalMove, match=r"in that order \(rulebook 6.0\)"):
        RULES.check(s, 0, THOR)


# -- Knut's Carriage and Nooka's Knife -------------------------------------------------------

@pytest.mark.rules("noggin:appendix counting house/knuts-carriage")
@pytest.mark.parametrize("nog", [True, False])
def test_knuts_carriage_brings_knut_without_food(nog):
    """Appendix: with Knut's Carriage, Knut joins a Saga's Reserve card without Food; a Nog is
    still placed on the card, or 1 point taken instead."""
    s = _turn()
    put_reserve(s, 0, ["knut", "stone", "food"], deck="B", card="B01")
    knut = {"type": "market_day", "op": "saga", "saga": 0, "condition": 0, "nog": nog, "pay": []}
    with pytest.raises(IllegalMove, match="takes 1 cube"):
        RULES.check(s, 0, knut)
    own_card(s, 0, "knuts_carriage")
    events = run(s, 0, knut)
    met = _event(events, "SagaConditionMet").data
    assert (met["paid"], met["artefact"], met["nog"]) == (None, "knuts_carriage", int(nog))
    assert s.characters["knut"] == "saga:0"
    assert s.sagas[0].current.nogs[0] == int(nog) and points(events, 0, "saga condition") == (0 if nog else 1)
    assert s.players[0].mountains == 10 - 1 - int(nog)


@pytest.mark.rules("noggin:appendix counting house/nookas-knife")
def test_nookas_knife_other_characters_join_nookas_saga_without_food():
    """Appendix: with Nooka on a Saga card, the Knife's owner brings any other character onto
    that Saga without Food (a Nog still placed); Nooka herself, and a Saga without her, still
    cost 1 Food."""
    s = _turn()
    own_card(s, 0, "nookas_knife")
    put_reserve(s, 0, ["noggin", "nooka"], deck="A", card="A05")
    put_reserve(s, 1, ["knut"], deck="A", card="A03")
    give(s, 0, fish=1)
    with pytest.raises(IllegalMove, match="takes 1 cube"):  # Nooka not there yet
        RULES.check(s, 0, {"type": "market_day", "op": "saga", "saga": 0, "condition": 0, "pay": []})
    with pytest.raises(IllegalMove, match="takes 1 cube"):  # Nooka herself pays
        RULES.check(s, 0, {"type": "market_day", "op": "saga", "saga": 0, "condition": 1, "pay": []})
    run(s, 0, {"type": "market_day", "op": "saga", "saga": 0, "condition": 1, "pay": ["fish"]})
    assert s.characters["nooka"] == "saga:0"
    events = run(s, 0, {"type": "market_day", "op": "saga", "saga": 0, "condition": 0, "pay": []})
    met = _event(events, "SagaConditionMet").data
    assert (met["need"], met["paid"], met["artefact"], met["nog"]) == ("noggin", None, "nookas_knife", 1)
    assert s.players[0].stock["fish"] == 0
    # Nooka is on Saga 0's completed card; Saga 1 does not have her
    t = _turn()
    own_card(t, 0, "nookas_knife")
    put_reserve(t, 1, ["knut"], deck="A", card="A03")
    t.characters["nooka"] = "saga:0"
    with pytest.raises(IllegalMove, match="takes 1 cube"):
        RULES.check(t, 0, {"type": "market_day", "op": "saga", "saga": 1, "condition": 0, "pay": []})


# -- Moon Stone ----------------------------------------------------------------------------

@pytest.mark.rules("noggin:appendix counting house/moon-stone")
def test_moon_stone_one_free_walk_per_miner_action():
    """Appendix: during a Miner action one Walk through empty squares costs no Step; a second
    Walk in the same action costs 1; the next Miner action has its free Walk again."""
    s = _turn()
    own_card(s, 0, "moon_stone")
    r, c = s.miner
    events = run(s, 0, {"type": "miner", "op": "walk", "square": [r, c + 1]})
    assert _event(events, "MinerWalked").data.get("free") is True and "StepsSpent" not in types(events)
    assert s.markers[0].pos == 10 and s.miner == [r, c + 1]
    run(s, 0, {"type": "miner", "op": "walk", "square": [r, c + 2]})
    assert s.markers[0].pos == 11
    run(s, 0, {"type": "finish"})
    run(s, 0, {"type": "miner", "op": "walk", "square": [r, c + 3]})
    assert s.markers[0].pos == 11
    t = _turn()
    run(t, 0, {"type": "miner", "op": "walk", "square": [r, c + 1]})
    assert t.markers[0].pos == 11  # without the Moon Stone


# -- Ring of Nudrug --------------------------------------------------------------------------

@pytest.mark.rules("noggin:appendix counting house/ring-of-nudrug")
@pytest.mark.parametrize("ring, paid", [(True, 2), (False, 3)])
def test_ring_of_nudrug_winning_bid_costs_one_step_less(ring, paid):
    """Appendix and 6.3: the winner of the Counting House auction moves its Step marker by the
    bid, 1 Step less with the Ring of Nudrug (a bid of 3 costs 2)."""
    s = _turn(positions=[10, 12, 16, 17])
    if ring:
        own_card(s, 1, "ring_of_nudrug")
    run(s, 0, {"type": "market_day", "op": "auction"})
    run(s, 1, {"type": "bid", "steps": 3})
    run(s, 2, {"type": "bid", "steps": 0})
    events = run(s, 0, {"type": "bid", "steps": 0})
    won = _event(events, "AuctionWon").data
    assert (won["seat"], won["steps"], won["paid"]) == (1, 3, paid)
    assert s.markers[1].pos == 12 + paid
    assert won.get("artefact") == ("ring_of_nudrug" if ring else None)


# -- Roman Medal ---------------------------------------------------------------------------

@pytest.mark.rules("noggin:appendix counting house/roman-medal")
@pytest.mark.parametrize("by", ["romf", "graculus"])
def test_roman_medal_romf_or_graculus_alone_evict_nogbad(by):
    """Appendix and 6.2: with Nogbad active, the Roman Medal's owner evicts him with Romf or
    Graculus alone, for 1 Food and 2 points; without the Medal that is refused."""
    s = activate_nogbad(_turn(), 2)
    give(s, 0, fish=1)
    move = {"type": "market_day", "op": "evict", "by": by, "pay": ["fish"]}
    with pytest.raises(IllegalMove, match="only for the owner of the Roman Medal"):
        RULES.check(s, 0, move)
    own_card(s, 0, "roman_medal")
    events = run(s, 0, move)
    assert _event(events, "NogbadEvicted").data["artefact"] == "roman_medal"
    assert points(events, 0, "evicting nogbad") == 2 and s.players[0].stock["fish"] == 0
    assert s.nogbad == "castle"
    t = _turn()
    own_card(t, 0, "roman_medal")
    give(t, 0, fish=1)
    with pytest.raises(IllegalMove, match="not blocking any action"):
        RULES.check(t, 0, move)


# -- Silver Gong ---------------------------------------------------------------------------

@pytest.mark.rules("noggin:appendix counting house/silver-gong")
def test_silver_gong_owner_nogs_are_never_trapped():
    """Appendix and 8.0: at the Change of Season Nogbad (moving onto the Fisherman space) traps
    the Nogs there, but not those of the Silver Gong's owner."""
    s = at_season_end(scenario(3), 2)
    s.crow = 8
    activate_nogbad(s, 3)  # the Crow moves on to quarter 0, the fjord
    own_card(s, 0, "silver_gong")
    for seat in (0, 1):
        p = s.players[seat]
        p.placed["fisherman"], p.uses["fisherman"], p.mountains = 1, 1, 9
    events = run_phase(s)
    returned = _event(events, "NogsReturned").data
    assert returned["trapped"] == {"1": "fisherman"} and returned["spared"] == {"0": "fisherman"}
    assert s.wheel == 0 and s.nogbad == "active"
    assert (s.players[0].placed["fisherman"], s.players[0].mountains) == (0, 10)
    assert (s.players[1].placed["fisherman"], s.players[1].mountains) == (1, 9)


# -- Telescope -----------------------------------------------------------------------------

@pytest.mark.rules("noggin:appendix counting house/telescope")
def test_telescope_secretly_shows_both_sides_of_a_decks_bottom_card():
    """Appendix (house rule amb3-knut-top-telescope-bottom): once per season the owner alone sees
    the front and back of the bottom card of a Reserve deck and puts it back: the card Nooka
    then draws from the bottom of that deck is the one seen."""
    s = _turn()
    own_card(s, 0, "telescope")
    events = run(s, 0, {"type": "use", "card": "telescope", "deck": "B"})
    used, peeked = events
    assert used.type == "AbilityUsed" and used.to is None
    assert peeked.type == "ReserveCardsPeeked" and peeked.to == 0
    card = peeked.data["cards"][0]
    info = content.reserve_index()[card["card"]]
    assert (card["needs"], card["nogbad"]) == (list(info.needs), info.nogbad)
    assert card["card"] == reserve_order(s, chance_of("7"), "B")[-1]
    assert s.reserve["B"]["bottom"] == 0  # put back
    with pytest.raises(IllegalMove, match="already used this season"):
        RULES.check(s, 0, {"type": "use", "card": "telescope", "deck": "C"})
    give(s, 0, fish=1)
    events = run(s, 0, {"type": "market_day", "op": "character", "character": "nooka", "saga": 0, "deck": "B",
                        "pay": ["fish"]})
    assert _event(events, "ReserveCardSealed").data["card"] == card["card"]


# -- War Banner ----------------------------------------------------------------------------

@pytest.mark.rules("noggin:appendix counting house/war-banner")
def test_war_banner_takes_a_nog_back_for_one_food_without_changing_the_repeat_cost():
    """Appendix: once per season 1 Food takes back one Nog from an action space to the Player
    Board; repeating that action still needs as many Nogs as before (here 2)."""
    s = _turn()
    own_card(s, 0, "war_banner")
    give(s, 0, fish=1)
    run(s, 0, {"type": "miner", "op": "walk", "square": [s.miner[0], s.miner[1] + 1]})
    run(s, 0, {"type": "finish"})
    p = s.players[0]
    assert (p.placed["miner"], p.uses["miner"], p.mountains) == (1, 1, 9)
    run(s, 0, {"type": "use", "card": "war_banner", "action": "miner", "pay": ["fish"]})
    assert (p.placed["miner"], p.uses["miner"], p.mountains, p.stock["fish"]) == (0, 1, 10, 0)
    with pytest.raises(IllegalMove, match="already used this season"):
        RULES.check(s, 0, {"type": "use", "card": "war_banner", "action": "miner", "pay": ["fish"]})
    events = run(s, 0, {"type": "miner", "op": "walk", "square": [s.miner[0], s.miner[1] + 1]})
    assert _event(events, "ActionStarted").data["nogs"] == 2


@pytest.mark.rules("noggin:appendix counting house/war-banner")
def test_war_banner_cannot_free_a_nog_from_nogbads_space():
    """Appendix with 8.0: while Nogbad is active no Nog can be recovered from the space he
    stands on, so the War Banner cannot take one back from the Fisherman space he blocks;
    Market Day is the exception (Nogs are never held there)."""
    s = activate_nogbad(_turn(), 0)  # Nogbad on the Fisherman space
    own_card(s, 0, "war_banner")
    give(s, 0, fish=1)
    p = s.players[0]
    p.placed["fisherman"], p.uses["fisherman"], p.mountains = 1, 1, 9  # trapped there
    with pytest.raises(IllegalMove, match="no Nog comes back from the space where Nogbad is"):
        RULES.check(s, 0, {"type": "use", "card": "war_banner", "action": "fisherman", "pay": ["fish"]})
    t = activate_nogbad(_turn(), 1)  # Trouble at Home: Nogbad on the Market Day space
    own_card(t, 0, "war_banner")
    give(t, 0, fish=1)
    q = t.players[0]
    q.placed["market_day"], q.uses["market_day"], q.mountains = 1, 1, 9
    run(t, 0, {"type": "use", "card": "war_banner", "action": "market_day", "pay": ["fish"]})
    assert (q.placed["market_day"], q.mountains) == (0, 10)
