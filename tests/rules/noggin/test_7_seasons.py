"""Change of Season (rulebook 7.1) and Winter (7.2)."""

import pytest

from services.rules.core import IllegalMove
from services.rules.noggin import content

from .helpers import RULES, normal_turn, run, run_phase, seated, types


def _season_end(state, season):
    """Markers just past the Nog Moon of ``season``: the phase is pending."""
    base = 10 * season
    normal_turn(state, 0, [base, base + 2, base + 3, base + 4])
    state.season = season
    state.active = None
    return state


def test_pending_phase_blocks_moves():
    """4.3: when the Runestone reaches the Nog Moon the season changes at once; nobody moves."""
    s = _season_end(seated(3), 1)
    assert RULES.pending_phase(s) == "change_of_season" and RULES.to_move(s) == []


def test_change_of_season_steps():
    """7.1: Crow +1 toward the crown, season marker, Nogs back from action spaces (repeat
    counts reset), bottom building row discarded, top row down, new top row drawn."""
    s = _season_end(seated(3), 1)
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


def test_winter_kills_the_harvests_and_shows_one_row():
    """7.2: harvests in the fields die at the start of Winter (back to the market); at Winter
    of Year 1 only one row of Year 1 buildings is on display (house rule)."""
    s = _season_end(seated(3), 3)
    s.crow = 6
    market = s.market["harvest"]
    run_phase(s)
    assert s.season == 4 and all(p.fields == [0, 0] for p in s.players)
    assert s.market["harvest"] == market + 12
    assert s.rows["top"] == [] and len(s.rows["bottom"]) == 3


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


def test_season_five_year1_pile():
    """Appendix, 5.5: from season 5 the remaining Year 1 tiles form a face-up pile; a Builder
    takes any of them."""
    s = _season_end(seated(3), 4)
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
