"""House rules of Noggin the Nog (section "house rules" of RULES.yaml).

Each house rule is the smallest rule the engine plays where noggin-the-nog-rulebook.txt is
silent or contradicts itself. Every test names the entry it checks, says which ambiguity
(by number) or gap it settles and which rulebook section it fills, and asserts exact
numbers, events or refusals that would change if the house rule were changed or removed.
"""

from __future__ import annotations

from collections import Counter

import pytest

from services.rules.core import IllegalMove, MalformedMove, NotYourTurn
from services.rules.noggin import content, decks
from services.rules.noggin.board import capacity, nogs_needed
from services.rules.noggin.scoring import final_breakdown
from services.rules.noggin.turns import clock_target, standing

from .helpers import (
    RULES,
    activate_nogbad,
    chance_of,
    fresh,
    give,
    legal,
    normal_turn,
    own_building,
    own_card,
    own_invention,
    points,
    put_invention,
    put_reserve,
    put_saga,
    run,
    run_phase,
    scenario,
    totals,
    types,
)

SEED = "7"
YEAR1 = ("fish_smokery", "granary", "long_house", "lookout_tower", "new_land", "woodcutters_hut")


# -- helpers ------------------------------------------------------------------------------

def _season_end(state, season: int):
    """``state`` with the Runestone just on the Nog Moon that ends ``season``: the Change of
    Season is pending (4.3); seat 0's marker is last, so it plays once the phase is over."""
    base = 10 * season
    normal_turn(state, 0, [base, base + 2, base + 3, base + 4])
    state.season = season
    state.active = None
    assert RULES.pending_phase(state) == "change_of_season"
    return state


def _change_season(state, season: int):
    """Run the Change of Season that ends ``season``; returns its events."""
    return run_phase(_season_end(state, season))


def _of(events, kind: str):
    return [e for e in events if e.type == kind]


def _one(events, kind: str):
    found = _of(events, kind)
    assert len(found) == 1, f"expected one {kind}, got {types(events)}"
    return found[0]


def _fresh_saga(state, slot: int, card: str = "the_dragon_hunt", done_deck: str = "A", done_card: str = "A01"):
    """Saga ``slot`` with its first (A) Reserve card done and no card on its Harbourside, so the
    next Reserve card must be drawn (6.4 F)."""
    n = len(state.players)
    put_saga(state, slot, card, done=[{"deck": done_deck, "card": done_card, "nogbad": False, "nogs": [0] * n}])
    cards = list(state.secret["saga_cards"])
    cards[slot] = None
    state.secret["saga_cards"] = cards
    return state


def _auction_table():
    """Season 2, seat 0 (on the Runestone, 10) to act; seat 1 on 15, seat 2 on 19, the dummy on 17.
    Seat 0 starts the auction of the face-up Counting House card with a Market Day (1 Step)."""
    s = scenario(3, season=2, positions=[10, 15, 19, 17])
    card = s.counting_house
    assert card is not None
    run(s, 0, {"type": "market_day", "op": "auction"})
    assert s.markers[0].pos == 11 and s.auction is not None and s.auction["order"] == [1, 2, 0]
    return s, card


# -- ambiguity 1: the Change of Season order ----------------------------------------------------

@pytest.mark.rules("noggin:house rules/amb1-popularity-crow-then-wheel")
def test_amb1_popularity_crow_moves_before_the_infamous_crow():
    """Ambiguity 1 (7.1 vs 8.0): 7.1 moves Nogbad's popularity Crow first, 8.0 calls the Wheel of
    Infamy the first step. House rule: the popularity Crow first, then the Infamous Crow (and
    active Nogbad with it). So when the popularity Crow reaches the crown after season 8 the
    game ends before the wheel turns: the Infamous Crow stays where it was."""
    s = scenario(3)
    activate_nogbad(s, 0)
    events = _change_season(s, 1)
    assert types(events)[:4] == ["CrowAdvanced", "CrowTurned", "NogbadMoved", "SeasonAdvanced"]
    assert _one(events, "CrowAdvanced").data == {"to": 7}
    assert _one(events, "CrowTurned").data == {"quarter": 1, "by": "change of season"}
    assert s.crow == 7 and s.wheel == 1 and s.season == 2

    last = scenario(3)
    activate_nogbad(last, 2)
    last.crow = 1
    events = _change_season(last, 8)
    assert types(events) == ["CrowAdvanced", "GameEnded", "FinalScored"]
    assert last.wheel == 2 and last.nogbad == "active" and last.season == 8
    assert last.ended == {"reason": "Nogbad's Crow reached the crown", "crown": "nogbad"}


# -- ambiguity 2: the building tiles and rows ---------------------------------------------------

@pytest.mark.rules("noggin:house rules/amb2-year1-three-each")
def test_amb2_eighteen_year1_tiles_three_of_each_of_six_kinds():
    """Ambiguity 2 (1.0 parts list vs appendix): the parts list speaks of three types while the
    appendix names six Year 1 buildings. House rule: 3 copies of each of the six kinds, 18 tiles, at
    every player count. Played out: with nothing built, the whole 18 come back as the face-up
    Year 1 pile at the start of season 5 (appendix), 3 of each kind."""
    for players in (2, 3, 4):
        tiles = decks.year1_tiles(fresh(players))
        assert len(tiles) == 18
        assert Counter(tiles) == {kind: 3 for kind in YEAR1}
    s = scenario(3)
    for season in (1, 2, 3, 4):
        _change_season(s, season)
    assert s.season == 5 and len(s.year1_pile) == 18
    assert Counter(s.year1_pile) == {kind: 3 for kind in YEAR1}


@pytest.mark.rules("noggin:house rules/amb2-winter-no-new-row")
def test_amb2_winter_of_year1_rows_move_down_without_a_new_row():
    """Ambiguity 2 (7.1 vs 7.2): 7.1 draws a new row every season, 7.2 shows one row at Winter of
    Year 1. House rule: at the change to Winter of Year 1 the bottom row is discarded, the top
    row moves down and no tile is drawn; at the changes to Summer and Autumn a new row of
    players' count is drawn."""
    s = scenario(3)
    top, bottom = list(s.rows["top"]), list(s.rows["bottom"])
    events = _change_season(s, 1)  # to Summer: a new row
    assert len(_one(events, "BuildingRowsChanged").data["drawn"]) == 3
    assert s.rows["bottom"] == top and s.buildings_drawn == 9 and s.building_discard == bottom

    w = scenario(3)
    w.crow = 6
    top, bottom = list(w.rows["top"]), list(w.rows["bottom"])
    drawn = w.buildings_drawn
    events = _change_season(w, 3)  # to Winter of Year 1
    assert w.season == 4
    assert _one(events, "BuildingRowsChanged").data == {"drawn": []}
    assert w.rows == {"top": [], "bottom": top}
    assert w.building_discard == bottom and w.buildings_drawn == drawn


@pytest.mark.rules("noggin:house rules/amb2-year2-repeats")
def test_amb2_seventeen_year2_tiles_with_three_buildings_twice():
    """Ambiguity 2 (1.0 parts list vs appendix): 17 Year 2 tiles but 14 Year 2 buildings named.
    House rule: the Windmill, the Royal Kitchens and the Town Walls come twice, the 11 others
    once. The Year 2 rows of season 5 are drawn from exactly these tiles."""
    tiles = content.year2_tiles()
    count = Counter(tiles)
    assert len(tiles) == 17 and len(count) == 14
    assert {b for b, k in count.items() if k == 2} == {"windmill", "royal_kitchens", "town_walls"}
    assert all(k in (1, 2) for k in count.values())
    s = scenario(4)
    s.crow = 5
    _change_season(s, 4)
    shown = Counter(s.rows["top"] + s.rows["bottom"])
    assert s.season == 5 and sum(shown.values()) == 8 and all(shown[b] <= count[b] for b in shown)


@pytest.mark.rules("noggin:house rules/amb2-year2-rows-change")
def test_amb2_year2_rows_change_in_seasons_6_to_8_while_tiles_last():
    """Ambiguity 2 (Year 2 half) and 7.1: from season 5 two Year 2 rows are on display; at the
    changes to seasons 6, 7 and 8 the bottom row is discarded, the top row moves down and a
    new row is drawn, as with Year 1, while the 17 tiles last. At 4 players: 8 tiles in
    season 5, then 4, 4 and the single last tile; each of the 17 tiles is shown once."""
    s = scenario(4)
    for season in (1, 2, 3, 4):
        _change_season(s, season)
    assert s.season == 5 and s.year2_drawn == 8
    seen = s.rows["bottom"] + s.rows["top"]
    for season, size, total in ((5, 4, 12), (6, 4, 16), (7, 1, 17)):
        top, bottom = list(s.rows["top"]), list(s.rows["bottom"])
        discard = len(s.building_discard)
        events = _change_season(s, season)
        change = _one(events, "BuildingRowsChanged").data
        assert change["year"] == 2 and len(change["drawn"]) == size
        assert s.rows["bottom"] == top and s.rows["top"] == change["drawn"]
        assert s.building_discard[discard:] == bottom
        assert s.year2_drawn == total and s.season == season + 1
        seen += change["drawn"]
    assert Counter(seen) == Counter(content.year2_tiles())
    assert len(s.year1_pile) == 18  # the Year 1 pile stays beside the rows


# -- ambiguity 3: the Reserve decks ------------------------------------------------------------

@pytest.mark.rules("noggin:house rules/amb3-a-top-bc-bottom")
def test_amb3_a_cards_from_the_top_b_and_c_cards_from_the_bottom():
    """Ambiguity 3 (set-up P and Saga step 8 vs "Choosing a Reserve Deck", 6.4): A cards come off
    the top of the A deck (set-up gives each Saga the first two cards), the B or C card chosen
    after a completed card comes off the bottom of that deck."""
    s = scenario(3, seed=SEED)
    order_a = decks.reserve_order(s, chance_of(SEED), "A")
    assert s.secret["saga_cards"] == order_a[:2]
    assert s.reserve["A"] == {"epoch": 0, "size": 16, "top": 2, "bottom": 0, "discard": 0}

    _fresh_saga(s, 0)
    order_b = decks.reserve_order(s, chance_of(SEED), "B")
    events = run(s, 0, {"type": "draw_reserve", "saga": 0, "deck": "B"})
    drawn = _one(events, "ReserveCardDrawn").data
    assert drawn["deck"] == "B" and drawn["end"] == "bottom"
    assert _one(events, "ReserveCardSealed").to == -1
    assert s.secret["saga_cards"][0] == order_b[-1] != order_b[0]
    assert drawn["needs"] == content.reserve_index()[order_b[-1]].needs == s.sagas[0].current.needs
    assert s.reserve["B"] == {"epoch": 0, "size": 19, "top": 0, "bottom": 1, "discard": 0}


@pytest.mark.rules("noggin:house rules/amb3-knut-top-telescope-bottom")
def test_amb3_knut_sees_the_top_the_telescope_the_bottom():
    """Ambiguity 3 (6.1 vs appendix): Knut looks at the top two cards of a deck, the Telescope at
    the bottom card. After set-up took two A cards from the top, Knut on A sees the 3rd and
    4th; after one B card was drawn from the bottom, the Telescope on B sees the next one up.
    Both peeks are private to the seat."""
    s = scenario(3, seed=SEED)
    give(s, 0, fish=2)
    order_a = decks.reserve_order(s, chance_of(SEED), "A")
    events = run(s, 0, {"type": "market_day", "op": "character", "character": "knut", "deck": "A", "pay": ["fish"]})
    peek = _one(events, "ReserveCardsPeeked")
    assert peek.to == 0 and peek.data["by"] == "knut"
    assert [c["card"] for c in peek.data["cards"]] == order_a[2:4]
    assert s.decision == {"kind": "knut", "seat": 0, "deck": "A", "cards": 2}

    t = scenario(3, seed=SEED)
    own_card(t, 0, "telescope")
    t.reserve["B"] = dict(t.reserve["B"], bottom=1)
    order_b = decks.reserve_order(t, chance_of(SEED), "B")
    events = run(t, 0, {"type": "use", "card": "telescope", "deck": "B"})
    peek = _one(events, "ReserveCardsPeeked")
    assert peek.to == 0 and peek.data["by"] == "telescope"
    assert [c["card"] for c in peek.data["cards"]] == [order_b[-2]]
    assert t.markers[0].pos == 0 and t.action is None


@pytest.mark.rules("noggin:house rules/amb3-reshuffle")
def test_amb3_an_empty_reserve_deck_is_rebuilt_from_its_discards():
    """Gap in 6.4: nothing says what happens when a Reserve deck runs out. House rule: its
    discard pile, shuffled, becomes the deck again (sealed: nobody sees the order) and the card
    is then drawn as usual, from the bottom for B."""
    s = scenario(3, seed=SEED)
    _fresh_saga(s, 0)
    s.reserve["B"] = {"epoch": 0, "size": 19, "top": 0, "bottom": 19, "discard": 2}
    s.secret["discard"] = dict(s.secret["discard"], B=["B03", "B07"])
    assert decks.reserve_left(s, "B") == 0 and decks.can_draw(s, "B")
    events = run(s, 0, {"type": "draw_reserve", "saga": 0, "deck": "B"})
    assert types(events)[:4] == ["ReservePoolSealed", "ReserveDeckReshuffled", "ReserveCardDrawn",
                                 "ReserveCardSealed"]
    assert _one(events, "ReservePoolSealed").to == -1
    assert _one(events, "ReserveDeckReshuffled").data == {"deck": "B", "size": 2}
    assert s.reserve["B"] == {"epoch": 1, "size": 2, "top": 0, "bottom": 1, "discard": 0}
    assert s.secret["discard"]["B"] == [] and sorted(s.secret["pool"]["B"]) == ["B03", "B07"]
    card = s.secret["saga_cards"][0]
    assert card in ("B03", "B07") and card == decks.reserve_order(s, chance_of(SEED), "B")[-1]
    assert decks.reserve_left(s, "B") == 1


# -- ambiguity 4: auctions ----------------------------------------------------------------------

@pytest.mark.rules("noggin:house rules/amb4-bid-below-gap")
def test_amb4_a_bid_must_leave_the_marker_short_of_the_runestone():
    """Ambiguity 4 (6.3 vs 4.2): a bid may be as large as the gap to the Runestone, yet a marker
    may never reach it. House rule: a bid is legal only if the bidder's marker, moved by it and then
    pushed on by the no-sharing rule, stays short of the Runestone (+10 on the absolute track).
    Seat 1 on 15, Runestone at 20: a bid of 5 (the gap) or 4 (lands on seat 2's 19, pushed to
    20) is refused, 3 is the most. Seat 2 on 19 (gap 1) cannot bid at all."""
    s, _ = _auction_table()
    assert s.runestone == 10
    assert [m["steps"] for m in legal(s, 1)] == [0, 1, 2, 3]
    for steps in (5, 4):
        with pytest.raises(IllegalMove, match="at most 3 Step"):
            RULES.check(s, 1, {"type": "bid", "steps": steps})
    run(s, 1, {"type": "bid", "steps": 3})
    assert legal(s, 2) == [{"type": "bid", "steps": 0}]
    with pytest.raises(IllegalMove, match="at most 0 Step"):
        RULES.check(s, 2, {"type": "bid", "steps": 4})


@pytest.mark.rules("noggin:house rules/amb4-min-bid-one")
def test_amb4_a_bid_is_at_least_one_step_zero_passes_and_the_card_stays():
    """Gap in 6.3 (no minimum bid): a bid is at least 1 Step, 0 is a pass (a negative bid is no
    move at all); if every seat passes nobody wins, no marker moves and the card stays face up,
    so the next Market Day can auction it again."""
    s, card = _auction_table()
    with pytest.raises(MalformedMove):
        RULES.parse_move({"type": "bid", "steps": -1})
    assert legal(s, 1)[0] == {"type": "bid", "steps": 0} and legal(s, 1)[1] == {"type": "bid", "steps": 1}
    positions = [m.pos for m in s.markers]
    run(s, 1, {"type": "bid", "steps": 0})
    run(s, 2, {"type": "bid", "steps": 0})
    assert s.auction["leader"] is None and s.auction["bid"] == 0
    events = run(s, 0, {"type": "bid", "steps": 0})
    assert types(events) == ["BidMade", "AuctionLost"]
    assert _one(events, "AuctionLost").data == {"card": card}
    assert s.counting_house == card and s.auction is None and s.decision is None
    assert [m.pos for m in s.markers] == positions
    assert all(not p.counting_house for p in s.players)
    run(s, 0, {"type": "finish"})
    assert {"type": "market_day", "op": "auction"} in legal(s, 0)


@pytest.mark.rules("noggin:house rules/auction-winner-no-sharing")
def test_the_auction_winner_obeys_the_no_sharing_rule():
    """Gap in 6.3: the winner's marker moves by the bid, but 6.3 does not say what happens when it
    lands on another marker. House rule: the no-sharing rule (4.1) pushes it on to the next
    free space. Seat 1 on 15 bids 2: 17 holds the dummy, so it ends on 18."""
    s, card = _auction_table()
    run(s, 1, {"type": "bid", "steps": 2})
    run(s, 2, {"type": "bid", "steps": 0})
    events = run(s, 0, {"type": "bid", "steps": 0})
    won = _one(events, "AuctionWon").data
    assert won == {"seat": 1, "card": card, "steps": 2, "paid": 2, "marker": 1, "to": 18}
    assert s.markers[1].pos == 18 and sorted(m.pos for m in s.markers) == [11, 17, 18, 19]
    assert s.decision == {"kind": "keep_card", "seat": 1, "card": card}


# -- ambiguity 5: sowing ------------------------------------------------------------------------

@pytest.mark.rules("noggin:house rules/amb5-one-field-per-step")
def test_amb5_sowing_fills_one_field_per_step():
    """Ambiguity 5 (5.4 rule vs example): the rule puts 2 Harvest on one field's labourers for 1
    Step, the example sows two fields for the same. House rule: one field per Step, so sowing
    both fields takes 2 Steps and 4 Harvest from the Nog Market."""
    s = scenario(3)
    s.players[0].fields = [0, 0]
    market = s.market["harvest"]
    events = run(s, 0, {"type": "farmer", "op": "sow", "field": 0})
    assert _one(events, "FieldSown").data == {"seat": 0, "field": 0, "harvest": 2}
    assert s.players[0].fields == [2, 0] and s.markers[0].pos == 1 and s.market["harvest"] == market - 2
    run(s, 0, {"type": "farmer", "op": "sow", "field": 1})
    assert s.players[0].fields == [2, 2] and s.markers[0].pos == 2 and s.market["harvest"] == market - 4


# -- ambiguity 6: the Forge token ---------------------------------------------------------------

@pytest.mark.rules("noggin:house rules/amb6-forge-to-fire-machine")
def test_amb6_the_forge_token_goes_to_the_fire_machine_winner():
    """Ambiguity 6 (set-up T vs 6.5): the Forge token goes to whoever takes the Fire Machine
    (6.5 example), who then carries 1 more Wood in the wood cart; building the Blacksmith
    (called Forge in French) gives no token."""
    s = scenario(3, season=5)
    put_invention(s, 0, "fire_machine")
    inv = s.inventions[0]
    inv.met = [{"seat": 0, "paid": "fish", "at": 0}, {"seat": 0, "paid": "stone", "at": 1},
               {"seat": 0, "paid": "stone", "at": 2}, None]
    inv.first = 0
    s.characters["olaf"] = "invention:0"
    give(s, 0, wood=1)
    events = run(s, 0, {"type": "market_day", "op": "invention", "invention": 0, "condition": 3, "pay": ["wood"]})
    done = _one(events, "InventionCompleted").data
    assert done["winner"] == 0 and done["forge"] is True
    assert s.players[0].forge and s.players[0].inventions == ["fire_machine"]
    assert capacity(s.players[0], "wood_cart") == 3 and capacity(s.players[1], "wood_cart") == 2

    b = scenario(3, season=5)
    b.rows["bottom"] = ["blacksmith", "", ""]
    give(b, 0, wood=2, stone=1)
    run(b, 0, {"type": "builder", "building": "blacksmith", "space": "meadow"})
    assert b.players[0].buildings["blacksmith"] == "meadow"
    assert not b.players[0].forge and capacity(b.players[0], "wood_cart") == 2


# -- ambiguity 7: final scoring -----------------------------------------------------------------

@pytest.mark.rules("noggin:house rules/amb7-nogs-counted")
def test_amb7_only_nogs_on_the_mountains_and_unfinished_sagas_score():
    """Ambiguity 7 (9.0): which placed Nogs count. House rule: 1 point per Nog on the Mountains
    space and per Nog on an unfinished Saga (its current card and the cards done under it);
    Nogs on action spaces, Counting House and Invention cards, Knut's Seat, an unfinished
    Invention and the Royal Dungeon (gaoler) score nothing as Nogs."""
    s = scenario(3, season=8)
    p = s.players[0]
    p.mountains = 3
    p.placed["miner"] = 2
    own_card(s, 0, "telescope")
    own_invention(s, 0, "firecake")
    own_building(s, 0, "knuts_seat")
    p.tile_nogs = {"knuts_seat": 2, "royal_dungeon": 1}
    own_building(s, 0, "royal_dungeon", "field0")
    s.gaoler = 0
    put_reserve(s, 0, ["stone", "wood"], deck="C")
    s.sagas[0].current.nogs = [2, 0, 0]
    put_saga(s, 1, "the_monster", done=[{"deck": "A", "card": "A01", "nogbad": False, "nogs": [1, 1, 0]}])
    put_invention(s, 1, "firecake")
    s.inventions[1].met = [{"seat": 0, "paid": "fish", "at": 0}, None, None]
    row = final_breakdown(s)[0]
    assert row["nogs"] == 3 + 2 + 1
    assert row["buildings"] == 4 * 2  # Knut's Seat scores its Nogs by its own rule, not as Nogs
    assert final_breakdown(s)[1]["nogs"] == s.players[1].mountains + 1


@pytest.mark.rules("noggin:house rules/amb7-gold-coins-not-resources")
def test_amb7_gold_and_coins_score_only_as_themselves():
    """Ambiguity 7 (9.0): whether Gold and coins also count among resources. House rule: no;
    Gold scores 2 each, coins the exchange rate each once the Money Saga is done (nothing
    before), and only basic resources count 1 per 2."""
    s = scenario(3, season=8)
    p = s.players[0]
    p.stock.update(stone=1, wood=0, fish=0, harvest=0, gold=3, coin=2)
    s.coins = True
    row = final_breakdown(s)[0]
    assert (row["gold"], row["coins"], row["resources"]) == (6, 4, 0)
    p.stock.update(stone=3)
    assert final_breakdown(s)[0]["resources"] == 1
    s.coins = False
    assert final_breakdown(s)[0]["coins"] == 0 and final_breakdown(s)[0]["resources"] == 1


# -- ambiguity 8: the Crow's track ---------------------------------------------------------------

@pytest.mark.rules("noggin:house rules/amb8-crow-eight-spaces")
def test_amb8_the_crow_reaches_the_crown_at_the_change_after_season_8():
    """Ambiguity 8 (2.0, 3.5, 9.0): nothing says how far the Crow starts. House rule: 8 spaces
    from the crown, one space per Change of Season, so seasons 1-8 are all played and the
    Change of Season after season 8 ends the game with Nogbad crowned."""
    s = fresh(3)
    assert s.crow == 8
    for season in range(1, 8):
        _change_season(s, season)
        assert s.crow == 8 - season and s.ended is None and s.season == season + 1
    events = _change_season(s, 8)
    assert types(events)[:2] == ["CrowAdvanced", "GameEnded"]
    assert s.crow == 0 and s.season == 8 and s.ended["crown"] == "nogbad"


# -- paying ----------------------------------------------------------------------------------------

@pytest.mark.rules("noggin:house rules/pay-choice")
def test_the_player_names_the_cubes_gold_and_coins_replace_any():
    """Gap in 5.1 and 6.6 (Gold, and coins once they exist, may stand in for resources): who
    chooses which cubes go. House rule: the move names them; Gold or a coin may stand for any cube of
    any cost (here a Stone or a Wood of a building, the Food of a character), other cubes
    only for what they are."""
    s = scenario(3, season=2, positions=[10, 15, 16, 17])
    give(s, 0, stone=1, wood=2, gold=1, harvest=1)
    with pytest.raises(IllegalMove, match="those cubes do not pay"):
        RULES.check(s, 0, {"type": "builder", "building": s.rows["bottom"][1], "space": "meadow",
                           "pay": ["harvest", "wood", "wood"]})
    with pytest.raises(IllegalMove, match="you do not have 2 gold"):
        RULES.check(s, 0, {"type": "builder", "building": s.rows["bottom"][1], "space": "meadow",
                           "pay": ["gold", "gold", "wood"]})
    events = run(s, 0, {"type": "builder", "building": s.rows["bottom"][1], "space": "meadow",
                        "pay": ["wood", "gold", "wood"]})
    assert _one(events, "BuildingBuilt").data["paid"] == ["gold", "wood", "wood"]
    stock = s.players[0].stock
    assert (stock["stone"], stock["wood"], stock["gold"], stock["harvest"]) == (1, 0, 0, 1)
    assert s.market["gold"] == 1 and s.market["wood"] == 2 and s.market["stone"] == 8

    c = scenario(3)
    c.coins = True
    give(c, 0, coin=1, fish=1)
    events = run(c, 0, {"type": "market_day", "op": "character", "character": "thor", "direction": 1,
                        "pay": ["coin"]})
    assert _one(events, "CharacterUsed").data["paid"] == ["coin"]
    assert c.players[0].stock["coin"] == 0 and c.players[0].stock["fish"] == 1 and c.market["coin"] == 1


@pytest.mark.rules("noggin:house rules/pay-choices-listed")
def test_legal_moves_list_each_distinct_payment_once():
    """Follows from the paying house rule: the legal moves name the cubes, each distinct choice
    exactly once. With 1 Stone, 2 Wood and 1 Gold a building (2 Wood, 1 Stone) can be paid
    three ways, a transport upgrade (2 Wood) two ways."""
    s = scenario(3)
    give(s, 0, stone=1, wood=2, gold=1)
    tile = s.rows["bottom"][1]
    pays = [m["pay"] for m in legal(s, 0) if m.get("building") == tile and m.get("space") == "meadow"]
    assert pays == [["gold", "stone", "wood"], ["gold", "wood", "wood"], ["stone", "wood", "wood"]]
    boat = [m["pay"] for m in legal(s, 0) if m.get("transport") == "boat"]
    assert boat == [["gold", "wood"], ["wood", "wood"]]


@pytest.mark.rules("noggin:house rules/pay-default")
def test_a_cost_without_named_cubes_takes_resources_then_gold_then_coins():
    """Follows from the paying house rule: a move that names no cubes pays the named resources
    first, then Gold, then coins."""
    s = scenario(3)
    give(s, 0, stone=1, wood=2, gold=1, coin=1)
    events = run(s, 0, {"type": "builder", "building": s.rows["bottom"][1], "space": "meadow"})
    assert _one(events, "BuildingBuilt").data["paid"] == ["stone", "wood", "wood"]

    g = scenario(3)
    give(g, 0, stone=1, wood=1, gold=1, coin=1)
    events = run(g, 0, {"type": "builder", "building": g.rows["bottom"][1], "space": "meadow"})
    assert _one(events, "BuildingBuilt").data["paid"] == ["gold", "stone", "wood"]
    assert g.players[0].stock["coin"] == 1

    c = scenario(3)
    give(c, 0, stone=0, wood=2, gold=0, coin=1)
    events = run(c, 0, {"type": "builder", "building": c.rows["bottom"][1], "space": "meadow"})
    assert _one(events, "BuildingBuilt").data["paid"] == ["coin", "wood", "wood"]


# -- cards refilled at the Change of Season --------------------------------------------------------

@pytest.mark.rules("noggin:house rules/counting-house-refill-at-season")
def test_a_won_counting_house_card_is_replaced_only_at_the_change_of_season():
    """Gap in 6.3 and 7.1: 7.1 draws new cards at the Change of Season but 6.3 says nothing of
    refilling after an auction. House rule: the won card's place stays empty (no auction) until
    the Change of Season, which draws the next card."""
    s, card = _auction_table()
    run(s, 1, {"type": "bid", "steps": 1})
    run(s, 2, {"type": "bid", "steps": 0})
    run(s, 0, {"type": "bid", "steps": 0})
    run(s, 1, {"type": "keep_card", "face": "up"})
    assert s.players[1].counting_house == [{"card": card, "up": True}] and s.counting_house is None
    drawn = s.ch_drawn
    run(s, 0, {"type": "finish"})
    assert RULES.to_move(s) == [0]
    with pytest.raises(IllegalMove, match="no Counting House card to auction this season"):
        RULES.check(s, 0, {"type": "market_day", "op": "auction"})
    assert not [m for m in legal(s, 0) if m.get("op") == "auction"]
    events = _change_season(s, 2)
    new = _one(events, "CountingHouseDrawn").data["card"]
    assert s.counting_house == new != card and s.ch_drawn == drawn + 1


@pytest.mark.rules("noggin:house rules/invention-refill-at-season")
def test_a_completed_inventions_place_is_filled_only_at_the_change_of_season():
    """Gap in 6.5 and 7.1: a completed Invention leaves the display; 7.1 draws new cards at the
    Change of Season. House rule: its slot stays empty until then."""
    s = scenario(3, season=2, positions=[10, 15, 16, 17])
    put_invention(s, 0, "firecake")
    s.inventions[0].met = [{"seat": 0, "paid": "fish", "at": 0}, {"seat": 0, "paid": "harvest", "at": 1}, None]
    s.inventions[0].first = 0
    s.characters["olaf"] = "invention:0"
    give(s, 0, fish=1)
    drawn = s.inventions_drawn
    events = run(s, 0, {"type": "market_day", "op": "invention", "invention": 0, "condition": 2, "pay": ["fish"]})
    assert _one(events, "InventionCompleted").data["card"] == "firecake"
    assert s.inventions[0] is None and s.inventions_drawn == drawn
    run(s, 0, {"type": "finish"})
    give(s, 0, stone=1)
    with pytest.raises(IllegalMove, match="no Invention card in display slot 0"):
        RULES.check(s, 0, {"type": "market_day", "op": "invention", "invention": 0, "condition": 0, "pay": ["stone"]})
    events = _change_season(s, 2)
    filled = [e.data for e in _of(events, "InventionDrawn") if e.data["slot"] == 0]
    assert len(filled) == 1 and s.inventions[0] is not None and s.inventions[0].card == filled[0]["card"]
    assert s.inventions[0].met == [None] * len(s.inventions[0].needs)


# -- characters ------------------------------------------------------------------------------------

@pytest.mark.rules("noggin:house rules/nooka-empty-card-only")
def test_nooka_discards_only_a_reserve_card_with_nothing_on_it():
    """Gap in 6.1: Nooka discards a Reserve card from a Saga; nothing says what happens to cubes
    and Nogs already on it. House rule: only a card with no condition met may be discarded;
    its replacement comes from the bottom of B or C."""
    s = scenario(3)
    give(s, 0, fish=2)
    put_reserve(s, 0, ["stone", "food"], deck="C", card="C14")
    s.sagas[0].current.met = [{"seat": 1, "paid": "stone", "nog": 1}, None]
    s.sagas[0].current.nogs = [0, 1, 0]
    put_reserve(s, 1, ["wood", "food"], deck="C", card="C16")
    with pytest.raises(IllegalMove, match="nothing on it yet"):
        RULES.check(s, 0, {"type": "market_day", "op": "character", "character": "nooka", "saga": 0, "deck": "B",
                           "pay": ["fish"]})
    assert not [m for m in legal(s, 0) if m.get("character") == "nooka" and m["saga"] == 0]
    order_b = decks.reserve_order(s, chance_of(SEED), "B")
    events = run(s, 0, {"type": "market_day", "op": "character", "character": "nooka", "saga": 1, "deck": "B",
                        "pay": ["fish"]})
    assert types(events)[:4] == ["ActionStarted", "StepsSpent", "CharacterUsed", "ReserveCardDiscarded"]
    assert _one(events, "ReserveCardDrawn").data["end"] == "bottom"
    assert s.secret["saga_cards"][1] == order_b[-1] and s.secret["discard"]["C"] == ["C16"]
    assert s.reserve["C"]["discard"] == 1 and s.reserve["B"]["bottom"] == 1


@pytest.mark.rules("noggin:house rules/noggin-uses-unchanged")
def test_noggins_swap_leaves_the_repeat_count_unchanged():
    """Gap in 6.1 and 5.0: Noggin sends a Nog home from an action space; the rulebook does not say
    whether the action's repeat count drops (the War Banner's text says it does not). House
    rule: it does not; seat 0 used the Builder twice, gets a Nog back, and a third Builder
    still needs 3 Nogs."""
    s = scenario(3)
    p = s.players[0]
    p.placed["builder"], p.uses["builder"], p.mountains = 3, 2, 2
    give(s, 0, fish=1)
    events = run(s, 0, {"type": "market_day", "op": "character", "character": "noggin", "owner": 0,
                        "action": "builder", "pay": ["fish"]})
    assert _one(events, "NogginSwapped").data == {"seat": 0, "owner": 0, "action": "builder"}
    assert p.placed["builder"] == 2 and p.uses["builder"] == 2 and p.mountains == 2
    assert s.characters["noggin"] == "action:builder" and nogs_needed(p, "builder") == 3
    run(s, 0, {"type": "finish"})
    give(s, 0, wood=2, stone=1)
    with pytest.raises(IllegalMove, match="needs 3 Nogs and you have 2"):
        RULES.check(s, 0, {"type": "builder", "building": s.rows["bottom"][1], "space": "meadow"})


@pytest.mark.rules("noggin:house rules/graculus-condition-stays-met")
def test_a_character_graculus_brings_home_leaves_its_condition_met():
    """Gap in 6.1 and 6.4: Graculus brings a character back to the Castle; nothing says whether the
    Saga condition that character met is undone. House rule: it stays met (with its Food and
    Nog), so the card is completed without recruiting the character again."""
    s = scenario(3, season=2, positions=[10, 15, 16, 17])
    put_reserve(s, 0, ["knut", "stone", "food"], deck="B", card="B01")
    give(s, 0, fish=3, stone=1)
    run(s, 0, {"type": "market_day", "op": "saga", "saga": 0, "condition": 0, "nog": True, "pay": ["fish"]})
    run(s, 0, {"type": "finish"})
    assert s.characters["knut"] == "saga:0"
    met = s.sagas[0].current.met[0]
    assert met == {"seat": 0, "paid": "fish", "nog": 1}
    events = run(s, 0, {"type": "market_day", "op": "character", "character": "graculus", "target": "knut",
                        "pay": ["fish"]})
    assert _one(events, "CharacterMoved").data == {"character": "knut", "to": "castle", "by": "graculus"}
    assert s.characters["knut"] == "castle"
    assert s.sagas[0].current.met[0] == met and s.sagas[0].current.nogs == [1, 0, 0]
    run(s, 0, {"type": "market_day", "op": "saga", "saga": 0, "condition": 1, "nog": True, "pay": ["stone"]})
    events = run(s, 0, {"type": "market_day", "op": "saga", "saga": 0, "condition": 2, "nog": True,
                        "pay": ["fish"]})
    turned = _one(events, "ReserveCardTurned").data
    assert turned["card"] == "B01" and s.sagas[0].done[-1]["nogs"] == [3, 0, 0]
    assert s.characters["knut"] == "castle"


@pytest.mark.rules("noggin:house rules/flying-boat-fulfils")
def test_a_character_moved_by_the_flying_boat_meets_the_condition_it_goes_to():
    """Gap in the appendix (Flying Boat: pay 1 Food to move a character from one card to another).
    House rule: the character meets the condition of the card it goes to, and the Food paid is
    the cube on that icon; a Saga condition takes a Nog or gives the point as usual. The card it
    left keeps its condition met. A free action: no Step, no action Nog."""
    s = scenario(3)
    own_invention(s, 0, "flying_boat")
    put_reserve(s, 0, ["knut", "stone", "food"], deck="B", card="B01")
    s.sagas[0].current.met = [{"seat": 1, "paid": "fish", "nog": 1}, None, None]
    s.sagas[0].current.nogs = [0, 1, 0]
    s.characters["knut"] = "saga:0"
    put_reserve(s, 1, ["knut", "stone", "food"], deck="B", card="B02")
    give(s, 0, harvest=1)
    events = run(s, 0, {"type": "use", "card": "flying_boat", "character": "knut", "to": "saga", "slot": 1,
                        "condition": 0, "nog": True, "pay": ["harvest"]})
    assert types(events) == ["CharacterMoved", "SagaConditionMet"]
    assert _one(events, "SagaConditionMet").data == {"seat": 0, "saga": 1, "condition": 0, "need": "knut",
                                                     "paid": "harvest", "nog": 1, "market_day": False}
    assert s.characters["knut"] == "saga:1"
    assert s.sagas[1].current.met[0] == {"seat": 0, "paid": "harvest", "nog": 1}
    assert s.sagas[1].current.nogs == [1, 0, 0] and s.players[0].mountains == 9
    assert s.sagas[0].current.met[0] == {"seat": 1, "paid": "fish", "nog": 1}
    assert s.players[0].stock["harvest"] == 0 and s.markers[0].pos == 0 and s.action is None

    i = scenario(3)
    own_invention(i, 0, "flying_boat")
    put_invention(i, 0, "firecake")
    put_invention(i, 1, "potion")
    i.inventions[1].met = [{"seat": 1, "paid": "fish", "at": 0}, None, None, None]
    i.characters["olaf"] = "invention:1"
    give(i, 0, fish=1)
    events = run(i, 0, {"type": "use", "card": "flying_boat", "character": "olaf", "to": "invention", "slot": 0,
                        "condition": 0, "pay": ["fish"]})
    met = _one(events, "InventionConditionMet").data
    assert met["need"] == "olaf" and met["paid"] == "fish" and "character" not in met
    assert i.characters["olaf"] == "invention:0" and i.inventions[0].met[0]["seat"] == 0


@pytest.mark.rules("noggin:house rules/fireworks-nog-home")
def test_played_fireworks_leave_the_game_and_their_nog_goes_home():
    """Gap in the appendix (Fireworks: played as a Saga is completed, then removed from the game;
    6.3 keeps a Nog on each Counting House card for the rest of the game). House rule: the
    played card leaves its owner's cards and its Nog returns to the Mountains space; the
    Dragon moves one space more; the card scores no more at the Change of Season. Kept, the
    card stays with its Nog."""
    def finishing(play: bool):
        s = scenario(3, season=2, positions=[10, 15, 16, 17])
        own_card(s, 0, "fireworks")
        put_saga(s, 0, "the_stranger", done=[{"deck": "A", "card": "A03", "nogbad": False, "nogs": [1, 0, 0]}])
        put_reserve(s, 0, ["stone", "food"], deck="C", card="C14")
        give(s, 0, stone=1, fish=1)
        run(s, 0, {"type": "market_day", "op": "saga", "saga": 0, "condition": 0, "nog": True, "pay": ["stone"]})
        run(s, 0, {"type": "market_day", "op": "saga", "saga": 0, "condition": 1, "nog": True, "pay": ["fish"]})
        assert RULES.to_move(s) == [0] and legal(s, 0) == [{"type": "fireworks", "play": True},
                                                          {"type": "fireworks", "play": False}]
        mountains = s.players[0].mountains
        events = run(s, 0, {"type": "fireworks", "play": play})
        return s, events, mountains

    s, events, before = finishing(True)
    assert _one(events, "DragonMoved").data["by"] == 1 + 1 and s.dragon == 1
    assert s.players[0].counting_house == []
    assert s.players[0].mountains == before + 1 + 3  # the card's Nog, then the 3 Saga Nogs
    assert points(_change_season(s, 2), 0, "counting house") == 0

    k, events, before = finishing(False)
    assert _one(events, "DragonMoved").data["by"] == 1 and k.dragon == 2
    assert k.players[0].counting_house == [{"card": "fireworks", "up": True}]
    assert k.players[0].mountains == before + 3
    assert points(_change_season(k, 2), 0, "counting house") == 2


# -- Inventions and Year 2 abilities ------------------------------------------------------------

@pytest.mark.rules("noggin:house rules/cupola-clock-not-last")
def test_the_cupola_clock_steps_back_only_to_a_free_space_not_last():
    """Gap in the appendix (Cupola Clock: end the turn, then move the marker back one space as long
    as it is not last). House rule: the space behind must be free (no sharing) and the marker
    must not be last once there; a turn that must go on (strictly last) cannot use it."""
    s = scenario(3, season=2, positions=[14, 12, 16, 17])
    own_invention(s, 0, "cupola_clock")
    assert {"type": "end_turn", "cupola_clock": True} in legal(s, 0)
    events = run(s, 0, {"type": "end_turn", "cupola_clock": True})
    assert _one(events, "TurnEnded").data == {"marker": 0, "seat": 0, "to": 13, "clock": True}
    assert s.markers[0].pos == 13 and standing(s, 0) == "between" and "cupola_clock" in s.players[0].used

    taken = scenario(3, season=2, positions=[13, 12, 16, 17])
    own_invention(taken, 0, "cupola_clock")
    with pytest.raises(IllegalMove, match="space behind your marker is taken"):
        RULES.check(taken, 0, {"type": "end_turn", "cupola_clock": True})
    pushed = scenario(3, season=2, positions=[16, 12, 16, 17])  # pushed on to 18; 17 is taken
    own_invention(pushed, 0, "cupola_clock")
    with pytest.raises(IllegalMove, match="space behind your marker is taken"):
        RULES.check(pushed, 0, {"type": "end_turn", "cupola_clock": True})
    # a step back onto a space below every other marker would make it last: no target
    assert clock_target(taken, 0, 12) is None and clock_target(taken, 0, 14) == 13

    last = scenario(3, season=2, positions=[11, 12, 16, 17])
    own_invention(last, 0, "cupola_clock")
    last.players[0].mountains = 0
    with pytest.raises(IllegalMove, match="turn that ends normally"):
        RULES.check(last, 0, {"type": "end_turn", "cupola_clock": True})


@pytest.mark.rules("noggin:house rules/storkery-free-action")
def test_the_heated_storkery_is_a_free_action_in_spring_once_a_turn():
    """Gap in the appendix (Heated Storkery: in Spring, 2 Food, once per turn). House rule: a free
    action on the owner's own turn in Spring, between actions: 2 Harvest from the Nog Market,
    no Step, no Nog; once per turn, refused in another season or during an action."""
    s = scenario(3)
    own_invention(s, 0, "heated_storkery")
    market = s.market["harvest"]
    events = run(s, 0, {"type": "use", "card": "heated_storkery"})
    assert types(events) == ["AbilityUsed"]
    assert events[0].data == {"seat": 0, "card": "heated_storkery", "once": "turn", "gained": {"harvest": 2}}
    assert s.players[0].stock["harvest"] == 2 and s.market["harvest"] == market - 2
    assert s.markers[0].pos == 0 and s.players[0].mountains == 10 and s.action is None
    with pytest.raises(IllegalMove, match="already used this turn"):
        RULES.check(s, 0, {"type": "use", "card": "heated_storkery"})
    with pytest.raises(NotYourTurn):
        RULES.check(s, 1, {"type": "use", "card": "heated_storkery"})

    summer = scenario(3, season=2)
    own_invention(summer, 0, "heated_storkery")
    with pytest.raises(IllegalMove, match="in Spring"):
        RULES.check(summer, 0, {"type": "use", "card": "heated_storkery"})

    busy = scenario(3)
    own_invention(busy, 0, "heated_storkery")
    run(busy, 0, {"type": "miner", "op": "walk", "square": [-1, 0]})
    with pytest.raises(IllegalMove, match="finish your miner action first"):
        RULES.check(busy, 0, {"type": "use", "card": "heated_storkery"})


@pytest.mark.rules("noggin:house rules/windmill-kitchen-free-action")
def test_knuts_seat_kitchens_windmill_and_locking_are_free_actions():
    """Gap in the appendix (Year 2 tiles take Nogs or resources but no action is named). House
    rule: Knut's Seat, the Royal Kitchens, the Windmill and locking a resource on a garden or
    trough are free actions on the owner's turn, between actions: no Step and no action Nog."""
    s = scenario(3, season=5)
    for b in ("knuts_seat", "royal_kitchens", "windmill", "nookas_kitchen_garden"):
        own_building(s, 0, b)
    give(s, 0, harvest=1, wood=1)
    market = s.market["harvest"]
    e1 = run(s, 0, {"type": "use", "card": "knuts_seat"})
    e2 = run(s, 0, {"type": "use", "card": "royal_kitchens"})
    e3 = run(s, 0, {"type": "use", "card": "windmill", "harvest": 1, "pay": ["harvest"]})
    e4 = run(s, 0, {"type": "use", "card": "nookas_kitchen_garden", "resource": "wood"})
    events = e1 + e2 + e3 + e4
    assert types(events) == ["AbilityUsed", "AbilityUsed", "AbilityUsed", "PointsScored", "AbilityUsed"]
    p = s.players[0]
    assert p.tile_nogs == {"knuts_seat": 1, "royal_kitchens": 1, "windmill": 1} and p.mountains == 7
    assert p.stock["harvest"] == 1 + 2 - 1 and s.market["harvest"] == market - 2 + 1
    assert p.score == 4 and p.locked == {"nookas_kitchen_garden": {"wood": 1}} and p.stock["wood"] == 0
    assert s.markers[0].pos == 40 and s.action is None and all(n == 0 for n in p.placed.values())
    assert RULES.to_move(s) == [0]
    with pytest.raises(IllegalMove, match="already used this season"):
        RULES.check(s, 0, {"type": "use", "card": "knuts_seat"})
    with pytest.raises(NotYourTurn):
        RULES.check(s, 1, {"type": "use", "card": "windmill", "harvest": 1})

    busy = scenario(3, season=5)
    own_building(busy, 0, "windmill")
    give(busy, 0, harvest=1)
    run(busy, 0, {"type": "miner", "op": "walk", "square": [-1, 0]})
    with pytest.raises(IllegalMove, match="finish your miner action first"):
        RULES.check(busy, 0, {"type": "use", "card": "windmill", "harvest": 1, "pay": ["harvest"]})


@pytest.mark.rules("noggin:house rules/blacksmith-per-card")
def test_the_blacksmith_spares_two_wood_or_stone_per_invention():
    """Gap in the appendix (the Blacksmith takes 2 Wood or Stone off the cost of Inventions, without
    saying per card or per game). House rule: on each Invention its owner may meet up to 2 Wood or Stone
    conditions with a Nog alone (no cube); a third needs its cube; a new card allows 2 more."""
    s = scenario(3, season=5)
    own_building(s, 0, "blacksmith")
    put_invention(s, 0, "fire_machine")  # olaf, stone, stone, wood
    put_invention(s, 1, "flying_boat")   # olaf, wood, wood, stone
    give(s, 0, wood=1, stone=1)
    free = {"type": "market_day", "op": "invention", "invention": 0, "pay": []}
    e1 = run(s, 0, {**free, "condition": 1})
    e2 = run(s, 0, {**free, "condition": 2})
    for e in (e1, e2):
        data = _one(e, "InventionConditionMet").data
        assert data["paid"] is None and data["free"] is True and data["building"] == "blacksmith"
    assert s.players[0].stock["stone"] == 1 and s.players[0].stock["wood"] == 1 and s.players[0].mountains == 7
    with pytest.raises(IllegalMove, match="takes 1 cube"):
        RULES.check(s, 0, {**free, "condition": 3})
    run(s, 0, {**free, "condition": 3, "pay": ["wood"]})
    assert s.players[0].stock["wood"] == 0 and s.inventions[0].met[3] == {"seat": 0, "paid": "wood", "at": 2}
    run(s, 0, {"type": "finish"})
    other = {"type": "market_day", "op": "invention", "invention": 1, "condition": 1, "pay": []}
    assert other in legal(s, 0)
    run(s, 0, other)
    run(s, 0, {**other, "condition": 3})
    assert s.players[0].stock["stone"] == 1
    with pytest.raises(IllegalMove, match="takes 1 cube"):
        RULES.check(s, 0, {**other, "condition": 2})

    nobody = scenario(3, season=5)
    put_invention(nobody, 0, "fire_machine")
    with pytest.raises(IllegalMove, match="takes 1 cube"):
        RULES.check(nobody, 0, {**free, "condition": 1})


@pytest.mark.rules("noggin:house rules/workshop-olaf-condition")
def test_the_inventors_workshop_meets_olafs_condition_without_olaf():
    """Gap in the appendix (Inventor's Workshop: Olaf no longer required). House rule: its owner
    meets the Olaf condition with 1 Food and a Nog even while Olaf is away; Olaf stays where he
    is. Without the Workshop an absent Olaf cannot be recruited."""
    s = scenario(3, season=5)
    own_building(s, 0, "inventors_workshop")
    put_invention(s, 0, "potion")
    s.characters["olaf"] = "saga:1"
    give(s, 0, fish=1)
    move = {"type": "market_day", "op": "invention", "invention": 0, "condition": 0}
    with pytest.raises(IllegalMove, match="takes 1 cube"):
        RULES.check(s, 0, {**move, "pay": []})
    events = run(s, 0, {**move, "pay": ["fish"]})
    data = _one(events, "InventionConditionMet").data
    assert data["need"] == "olaf" and data["paid"] == "fish"
    assert data["character"] is False and data["building"] == "inventors_workshop"
    assert s.characters["olaf"] == "saga:1" and s.inventions[0].met[0] == {"seat": 0, "paid": "fish", "at": 0}
    assert s.players[0].stock["fish"] == 0 and s.players[0].mountains == 8

    w = scenario(3, season=5)
    put_invention(w, 0, "potion")
    w.characters["olaf"] = "saga:1"
    give(w, 0, fish=1)
    with pytest.raises(IllegalMove, match="Olaf must be in Noggin's Castle"):
        RULES.check(w, 0, {**move, "pay": ["fish"]})


@pytest.mark.rules("noggin:house rules/invention-tie-first-nog")
def test_an_invention_tie_goes_to_the_seat_whose_first_nog_came_first():
    """Gap in 6.5 (the standing first Nog breaks ties; the text reads as the first Nog on the card).
    House rule: among the seats tied for most Nogs, the one whose first Nog was placed earliest
    takes the card; the other scores 4 per Nog. Seat 0 completes a 2-2 tie: seat 1 came first
    and wins; with the order reversed seat 0 wins."""
    def tie(first: int):
        s = scenario(3, season=2, positions=[10, 15, 16, 17])
        put_invention(s, 0, "fire_machine")
        other = 1 - first
        s.inventions[0].met = [{"seat": first, "paid": "fish", "at": 0}, {"seat": other, "paid": "stone", "at": 1},
                               {"seat": 1, "paid": "stone", "at": 2}, None]
        s.inventions[0].first = first
        s.characters["olaf"] = "invention:0"
        give(s, 0, wood=1)
        events = run(s, 0, {"type": "market_day", "op": "invention", "invention": 0, "condition": 3,
                            "pay": ["wood"]})
        return s, events

    s, events = tie(1)
    done = _one(events, "InventionCompleted").data
    assert done["winner"] == 1 and done["nogs"] == [2, 2, 0]
    assert s.players[1].inventions == ["fire_machine"] and s.players[0].inventions == []
    assert points(events, 0, "invention") == 8 and points(events, 1) == 0

    s, events = tie(0)
    done = _one(events, "InventionCompleted").data
    assert done["winner"] == 0 and done["nogs"] == [2, 2, 0]
    assert s.players[0].inventions == ["fire_machine"]
    assert points(events, 1, "invention") == 8 and points(events, 0) == 0


# -- Sagas -------------------------------------------------------------------------------------------

@pytest.mark.rules("noggin:house rules/saga-stalls-without-decks")
def test_a_saga_waits_while_b_and_c_and_their_discards_are_empty():
    """Gap in 6.4: a Saga needs another Reserve card but B and C (and their discard piles) are
    empty. House rule: the Saga waits; play goes on and no draw is asked for, until a card is
    discarded to B or C."""
    s = scenario(3)
    _fresh_saga(s, 0)
    for deck in ("B", "C"):
        s.reserve[deck] = {"epoch": 0, "size": 19, "top": 0, "bottom": 19, "discard": 0}
    assert not decks.can_draw(s, "B") and not decks.can_draw(s, "C")
    moves = legal(s, 0)
    assert not [m for m in moves if m["type"] == "draw_reserve"] and {"type": "fisherman", "draws": 1} in moves
    with pytest.raises(IllegalMove, match="there is no draw reserve decision to make now"):
        RULES.check(s, 0, {"type": "draw_reserve", "saga": 0, "deck": "B"})
    assert s.sagas[0].current is None and len(s.sagas[0].done) == 1

    s.reserve["C"] = dict(s.reserve["C"], discard=1)
    s.secret["discard"] = dict(s.secret["discard"], C=["C02"])
    assert legal(s, 0) == [{"type": "draw_reserve", "saga": 0, "deck": "C"}]
    run(s, 0, {"type": "draw_reserve", "saga": 0, "deck": "C"})
    assert s.sagas[0].current.needs == ["wood", "wood"] and s.secret["saga_cards"][0] == "C02"


@pytest.mark.rules("noggin:house rules/saga-draw-mandatory")
def test_drawing_the_next_reserve_card_comes_before_anything_else():
    """Gap in 6.4 F (the completing player draws the next card, then may go on). House rule: once
    a Reserve card is completed and the Saga needs another, the draw is the only legal move;
    finishing the Market Day, trading or ending the turn waits for it."""
    s = scenario(3, season=2, positions=[10, 15, 16, 17])
    _fresh_saga(s, 0)
    put_reserve(s, 0, ["stone", "food"], deck="C", card="C14")
    give(s, 0, stone=1, fish=1, wood=2)
    run(s, 0, {"type": "market_day", "op": "saga", "saga": 0, "condition": 0, "nog": True, "pay": ["stone"]})
    events = run(s, 0, {"type": "market_day", "op": "saga", "saga": 0, "condition": 1, "nog": True,
                        "pay": ["fish"]})
    assert "ReserveCardTurned" in types(events) and s.sagas[0].current is None
    assert legal(s, 0) == [{"type": "draw_reserve", "saga": 0, "deck": "B"},
                           {"type": "draw_reserve", "saga": 0, "deck": "C"}]
    for move in ({"type": "finish"}, {"type": "market_day", "give": ["wood", "wood"], "take": "stone"},
                 {"type": "end_turn"}):
        with pytest.raises(IllegalMove, match="waits for your draw reserve decision first"):
            RULES.check(s, 0, move)
    run(s, 0, {"type": "draw_reserve", "saga": 0, "deck": "C"})
    assert s.sagas[0].current is not None
    RULES.check(s, 0, {"type": "finish"})


# -- variants -------------------------------------------------------------------------------------

@pytest.mark.rules("noggin:house rules/accusation-free-action")
def test_an_accusation_is_a_free_action_that_reveals_the_card():
    """Gap in the Friend or Foe variant (when an accusation is made, what is shown). House rule: a
    free action on the accuser's own turn, between actions (no Step, no Nog); the accused
    seat's card is revealed to everyone in a public event; right +10, wrong -10."""
    s = scenario(4, options={"friend_or_foe": True})
    loyalty = s.secret["loyalty"]
    assert len(loyalty) == 4
    events = run(s, 0, {"type": "accuse", "seat": 2})
    accused = _one(events, "Accused")
    right = loyalty[2] == "nogbad"
    assert accused.to is None and accused.data == {"seat": 0, "accused": 2, "card": loyalty[2], "right": right}
    assert points(events, 0, "accusation") == (10 if right else -10)
    assert s.players[2].shown == loyalty[2]
    assert s.markers[0].pos == 0 and s.players[0].mountains == 10 and s.action is None
    assert RULES.to_move(s) == [0]
    with pytest.raises(IllegalMove, match="already played"):
        RULES.check(s, 0, {"type": "accuse", "seat": 1})
    with pytest.raises(NotYourTurn):
        RULES.check(s, 1, {"type": "accuse", "seat": 0})

    busy = scenario(4, options={"friend_or_foe": True})
    run(busy, 0, {"type": "miner", "op": "walk", "square": [-1, 0]})
    with pytest.raises(IllegalMove, match="finish your miner action first"):
        RULES.check(busy, 0, {"type": "accuse", "seat": 1})


@pytest.mark.rules("noggin:house rules/arrival-harvest-boxed")
def test_arrival_leaves_the_field_harvest_in_the_box():
    """Gap in the Arrival variant (fields start empty: where do their Harvest cubes go). House rule:
    they stay in the box; the Nog Market still gets 2 per player, so only 6 Harvest are in play
    at 3 players instead of 18."""
    a = scenario(3, options={"arrival": True})
    n = scenario(3)
    assert all(p.fields == [0, 0] and p.orchard == 2 for p in a.players)
    assert a.market["harvest"] == n.market["harvest"] == 6
    assert totals(a)["harvest"] == 6 and totals(n)["harvest"] == 18


@pytest.mark.rules("noggin:house rules/another-train-stone")
def test_another_train_fills_the_first_tile_from_the_twelve_stone():
    """Gap in the Another Train variant (a random first Mine tile: how much Stone fills it). House
    rule: its gallery squares take Stone from the 12 that set-up Q puts in the starting tile;
    what is left goes to the Nog Market, so 20 Stone stay in play. A Gold tile (9 gallery
    squares) leaves 3 extra on the market and takes one Gold cube."""
    gold = scenario(3, seed="1", options={"another_train": True})
    assert gold.mine_first != "start"
    assert sum(1 for v in gold.mine.values() if v == "stone") == 9 and gold.market["stone"] == 8 + 3
    assert sum(1 for v in gold.mine.values() if v == "gold") == 1 and gold.gold_supply == 4
    start = scenario(3, seed="9", options={"another_train": True})
    assert start.mine_first == "start"
    assert sum(1 for v in start.mine.values() if v == "stone") == 12 and start.market["stone"] == 8
    for s in (gold, start):
        assert totals(s)["stone"] == 20


@pytest.mark.rules("noggin:house rules/so-long-no-replanting")
def test_so_long_never_restocks_an_orchard():
    """Gap in the So Long variant (cut Orchard trees are never replanted). House rule: under So Long
    no tree at all goes into an Orchard when restocking; every tree goes to the forest."""
    s = scenario(3, options={"so_long": True})
    s.players[0].orchard = 0
    s.players[0].orchard_cut = True
    s.market["wood"] = 4
    with pytest.raises(IllegalMove, match="So Long"):
        RULES.check(s, 0, {"type": "restock", "kind": "trees", "amount": 4, "orchard": 1})
    assert {m["orchard"] for m in legal(s, 0) if m["type"] == "restock" and m["kind"] == "trees"} == {0}
    events = run(s, 0, {"type": "restock", "kind": "trees", "amount": 4, "orchard": 0})
    assert s.players[0].orchard == 0 and len(_one(events, "Restocked").data["forest"]) == 4
    never_cut = scenario(3, options={"so_long": True})
    never_cut.players[0].orchard = 1  # hand-built: no tree cut, yet none may be planted
    never_cut.market["wood"] = 4
    with pytest.raises(IllegalMove, match="So Long"):
        RULES.check(never_cut, 0, {"type": "restock", "kind": "trees", "amount": 4, "orchard": 1})

    n = scenario(3)
    n.players[0].orchard = 0
    n.market["wood"] = 4
    run(n, 0, {"type": "restock", "kind": "trees", "amount": 4, "orchard": 2})
    assert n.players[0].orchard == 2


@pytest.mark.rules("noggin:house rules/you-owe-me-one-year1")
def test_you_owe_me_one_year1_kinds_have_players_minus_one_tiles():
    """Gap in the You Owe Me One variant (one tile fewer than the players in each Building pile).
    House rule: each Year 1 kind has players - 1 tiles, never more than its 3: 6 tiles at 2
    players, 12 at 3, 18 at 4."""
    for players, each in ((2, 1), (3, 2), (4, 3)):
        s = scenario(players, options={"you_owe_me_one": True})
        tiles = decks.year1_tiles(s)
        assert Counter(tiles) == {kind: each for kind in YEAR1}
    two = scenario(2, options={"you_owe_me_one": True})
    shown = two.rows["top"] + two.rows["bottom"]
    assert len(shown) == 4 and len(set(shown)) == 4  # one tile of each kind only
