"""Change of Season (rulebook 7.1) and Winter (7.2)."""

import pytest

from services.rules.core import IllegalMove
from services.rules.noggin import content

from .helpers import (RULES, at_season_end, activate_nogbad, give, normal_turn, own_card, points, put_invention, run, run_phase,
                      scenario, seated, types)




def test_pending_phase_blocks_moves():
    """4.3: when the Runestone reaches the Nog Moon the season changes at once; nobody moves."""
    s = at_season_end(seated(3), 1)
    assert RULES.pending_phase(s) == "change_of_season" and RULES.to_move(s) == []


@pytest.mark.rules("noggin:7.1/crow-first", "noggin:7.1/season-advances", "noggin:7.1/nogs-return",
                   "noggin:7.1/rows-change")
def test_change_of_season_steps():
    """7.1: Crow +1 toward the crown, season marker, Nogs back from action spaces (repeat
    counts reset), bottom building row discarded, top row down, new top row drawn."""
    s = at_season_end(seated(3), 1)
    s.players[0].placed["miner"] = 3
    s.players[0].uses["miner"] = 2
    s.players[0].mountains = 7
    top = list(s.rows["top"])
    bottom = [t for t in s.rows["bottom"] if t]
    events = run_phase(s)
    assert types(events)[:4] == ["CrowAdvanced", "CrowTurned", "SeasonAdvanced", "NogsReturned"]
    assert s.crow == 7 and s.season == 2
    assert s.players[0].mountains == 10 and s.players[0].uses["miner"] == 0
    assert s.rows["bottom"] == top and len(s.rows["top"]) == 3 and s.buildings_drawn == 9
    assert s.building_discard == bottom
    assert RULES.pending_phase(s) is None and RULES.to_move(s) == [0]


@pytest.mark.rules("noggin:7.2/harvests-die", "noggin:7.2/one-row-winter")
def test_winter_kills_the_harvests_and_shows_one_row():
    """7.2: harvests in the fields die at the start of Winter (back to the market); at Winter
    of Year 1 only one row of Year 1 buildings is on display (house rule)."""
    s = at_season_end(seated(3), 3)
    s.crow = 6
    market = s.market["harvest"]
    run_phase(s)
    assert s.season == 4 and all(p.fields == [0, 0] for p in s.players)
    assert s.market["harvest"] == market + 12
    assert s.rows["top"] == [] and len(s.rows["bottom"]) == 3


@pytest.mark.rules("noggin:7.2/donations", "noggin:7.2/donation-points")
def test_donations_in_winter():
    """7.2: in Winter, a free action: 1 point per Wood or Food, 3 for a pair; no Step, no Nog."""
    s = normal_turn(seated(3), 0, [30, 36, 37, 38])
    s.players[0].stock.update(wood=2, fish=1)
    run(s, 0, {"type": "donate", "wood": 1, "food": "fish"})
    run(s, 0, {"type": "donate", "wood": 1})
    assert s.players[0].score == 4 and s.markers[0].pos == 30 and s.players[0].mountains == 10
    assert s.market["wood"] == 2 and s.market["fish"] == 1
    s2 = normal_turn(seated(3), 0, [10, 16, 17, 18])
    s2.players[0].stock["wood"] = 1
    with pytest.raises(IllegalMove, match="only made in Winter"):
        RULES.check(s2, 0, {"type": "donate", "wood": 1})


@pytest.mark.rules("noggin:7.2/two-rows-year2")
def test_season_five_year1_pile():
    """Appendix, 5.5: from season 5 the remaining Year 1 tiles form a face-up pile; a Builder
    takes any of them. 7.2: at Spring of Year 2 two rows of Year 2 tiles are on display."""
    s = at_season_end(seated(3), 4)
    s.crow = 5
    run_phase(s)
    assert s.season == 5 and len(s.year1_pile) == 18  # no tile was built in this state
    assert sorted(s.year1_pile) == s.year1_pile
    year2 = {b.id for b in content.load().buildings.year2}
    assert len(s.rows["top"]) == len(s.rows["bottom"]) == 3 and set(s.rows["top"] + s.rows["bottom"]) <= year2
    normal_turn(s, 0, [40, 46, 47, 48])
    s.players[0].stock.update(wood=2, stone=1)
    pick = s.year1_pile[-1]
    run(s, 0, {"type": "builder", "building": pick, "space": "mountains" if pick == "long_house" else "meadow"})
    assert len(s.year1_pile) == 17


# -- Change of Season with the whole game (7.0, 7.1; Nogbad, cards) ------------------------

def _season_two():
    """Season 2 just ended: markers on 20-24, the Change of Season pending."""
    return at_season_end(scenario(3, season=2), 2)


@pytest.mark.rules("noggin:7.0/season-marker")
def test_the_runestone_reaching_the_nog_moon_changes_the_season():
    """7.0, 4.3: seat 0 ends its turn on 13 after a Market Day; the Runestone moves up to the
    last marker on 10, the Nog Moon: the Change of Season is due at once and moves the Season
    marker from Spring to Summer."""
    s = give(scenario(3, season=1, positions=[9, 10, 11, 12]), 0, wood=2)
    run(s, 0, {"type": "market_day", "op": "trade", "give": ["wood", "wood"], "take": "stone"})
    run(s, 0, {"type": "finish"})
    events = run(s, 0, {"type": "end_turn"})
    assert [e.data["to"] for e in events if e.type in ("TurnEnded", "RunestoneMoved")] == [13, 10]
    assert s.season == 1 and RULES.pending_phase(s) == "change_of_season" and RULES.to_move(s) == []
    events = run_phase(s)
    assert [e.data for e in events if e.type == "SeasonAdvanced"] == [{"season": 2, "name": "summer"}]
    assert s.season == 2 and RULES.pending_phase(s) is None


@pytest.mark.rules("noggin:7.1/crow-ends-game")
def test_the_crow_reaching_the_crown_ends_the_game_at_once():
    """7.1, 9.0: one space from the crown, the Crow's move crowns Nogbad; the game ends with
    nothing else of the Change of Season (no Wheel, no Season marker, no Nogs back)."""
    s = _season_two()
    s.crow = 1
    s.players[0].placed["miner"] = 1
    events = run_phase(s)
    assert types(events) == ["CrowAdvanced", "GameEnded", "FinalScored"]
    assert events[1].data["crown"] == "nogbad" and s.ended["crown"] == "nogbad"
    assert s.crow == 0 and s.season == 2 and s.wheel == 0 and s.players[0].placed["miner"] == 1
    assert RULES.to_move(s) == []


@pytest.mark.rules("noggin:7.1/infamous-crow-quarter")
def test_the_infamous_crow_moves_one_quarter():
    """7.1: the Infamous Crow moves one quarter round the Wheel of Infamy (Bad News back to
    Fish); Nogbad, in his castle, stays there."""
    for start, end in ((0, 1), (3, 0)):
        s = _season_two()
        s.wheel = start
        events = run_phase(s)
        assert [e.data for e in events if e.type == "CrowTurned"] == [{"quarter": end, "by": "change of season"}]
        assert s.wheel == end and s.nogbad == "castle" and "NogbadMoved" not in types(events)


@pytest.mark.rules("noggin:7.1/nogbad-moves-on")
def test_active_nogbad_moves_to_the_new_quarters_action():
    """7.1: Nogbad blocking the fjord moves on with the Crow to Trouble at Home: the Fisherman
    is free again and Saga contributions are blocked instead."""
    s = activate_nogbad(_season_two(), 0)
    events = run_phase(s)
    assert [e.data for e in events if e.type == "NogbadMoved"] == [{"to": "active", "quarter": 1}]
    assert s.nogbad == "active" and s.wheel == 1 and RULES.to_move(s) == [0]
    give(s, 0, harvest=1)
    RULES.check(s, 0, {"type": "fisherman", "draws": 1})
    with pytest.raises(IllegalMove, match="Trouble at Home"):
        RULES.check(s, 0, {"type": "market_day", "op": "saga", "saga": 0, "condition": 0, "pay": ["harvest"]})


@pytest.mark.rules("noggin:7.1/nogs-trapped", "noggin:8.0/no-recovery-where-nogbad")
def test_nogs_where_nogbad_now_stands_stay_until_next_season():
    """7.1, 8.0: Nogbad moves from Trouble at Home to the woods; every Nog on the Woodcutter
    space stays there (its repeat count kept), Nogs on other spaces come home. At the next
    Change of Season, Nogbad gone to Bad News, they come home too."""
    s = activate_nogbad(_season_two(), 1)
    p, q = s.players[0], s.players[1]
    p.placed.update(woodcutter=1, miner=2)
    p.uses.update(woodcutter=1, miner=1)
    q.placed.update(woodcutter=3)
    q.uses.update(woodcutter=2)
    p.mountains, q.mountains = 7, 7
    events = run_phase(s)
    returned = next(e for e in events if e.type == "NogsReturned")
    assert returned.data["trapped"] == {"0": "woodcutter", "1": "woodcutter"} and returned.data["nogs"][:2] == [2, 0]
    assert (p.placed["woodcutter"], p.uses["woodcutter"], p.placed["miner"], p.mountains) == (1, 1, 0, 9)
    assert (q.placed["woodcutter"], q.uses["woodcutter"], q.mountains) == (3, 2, 7)
    at_season_end(s, 3)
    run_phase(s)
    assert s.wheel == 3 and p.placed["woodcutter"] == 0 and p.mountains == 10 and q.mountains == 10


@pytest.mark.rules("noggin:7.1/trapped-still-count")
def test_trapped_nogs_still_count_for_repeating_the_action():
    """7.1: after Nogbad is evicted from the woods, the Woodcutter is free again, but the Nog
    trapped there still counts: using the action again this season takes 2 Nogs."""
    s = activate_nogbad(_season_two(), 1)
    p = s.players[0]
    p.placed["woodcutter"], p.uses["woodcutter"], p.mountains = 1, 1, 9
    run_phase(s)
    assert p.placed["woodcutter"] == 1 and RULES.to_move(s) == [0]
    give(s, 0, fish=1)
    with pytest.raises(IllegalMove, match="Nogbad blocks the woodcutter"):
        RULES.check(s, 0, {"type": "woodcutter", "op": "advance"})
    run(s, 0, {"type": "market_day", "op": "evict", "by": "thor"})
    run(s, 0, {"type": "finish"})
    events = run(s, 0, {"type": "woodcutter", "op": "advance"})
    assert events[0].data == {"seat": 0, "action": "woodcutter", "nogs": 2}
    assert p.placed["woodcutter"] == 3 and p.uses["woodcutter"] == 2


@pytest.mark.rules("noggin:7.1/market-day-never-trapped")
def test_nogbad_never_traps_market_day_nogs():
    """7.1 N.B.: Nogbad arriving on the Market Day space (Trouble at Home, Bad News) does not
    keep the Nogs there from coming home."""
    for quarter in (0, 2):
        s = activate_nogbad(_season_two(), quarter)
        p = s.players[0]
        p.placed["market_day"], p.uses["market_day"], p.mountains = 2, 2, 8
        events = run_phase(s)
        assert s.wheel == quarter + 1 and s.nogbad == "active"
        assert next(e for e in events if e.type == "NogsReturned").data["trapped"] == {}
        assert p.placed["market_day"] == 0 and p.mountains == 10


@pytest.mark.rules("noggin:7.1/cards-refreshed")
def test_counting_house_and_empty_inventions_are_replaced():
    """7.1: the Counting House card and every Invention card with no resources on it are
    discarded and new cards drawn; an Invention already worked on stays."""
    s = _season_two()
    s.counting_house = "war_banner"
    put_invention(s, 0, "potion")
    put_invention(s, 1, "firecake")
    s.inventions[0].met = [None, {"seat": 1, "paid": "fish", "at": 0}, None, None]
    drawn = (s.ch_drawn, s.inventions_drawn)
    events = run_phase(s)
    assert [e.data for e in events if e.type == "CountingHouseDiscarded"] == [{"card": "war_banner"}]
    assert [e.data for e in events if e.type == "InventionDiscarded"] == [{"slot": 1, "card": "firecake"}]
    assert s.counting_house not in (None, "war_banner") and s.ch_drawn == drawn[0] + 1
    assert s.inventions[0].card == "potion" and s.inventions[0].met[1] is not None
    assert s.inventions[1].card not in ("firecake", "potion") and s.inventions_drawn == drawn[1] + 1


@pytest.mark.rules("noggin:7.1/counting-house-points")
def test_face_up_counting_house_cards_score_two_each():
    """7.1, 6.3: at the Change of Season 2 points per face-up Counting House card; cards turned
    face down score nothing."""
    s = _season_two()
    own_card(s, 0, "war_banner")
    own_card(s, 0, "telescope")
    own_card(s, 0, "silver_gong", up=False)
    own_card(s, 1, "roman_medal", up=False)
    events = run_phase(s)
    assert [(e.data["seat"], e.data["points"]) for e in events if e.type == "PointsScored"] == [(0, 4)]
    assert points(events, 0, "counting house") == 4 and s.players[0].score == 4 and s.players[1].score == 0
