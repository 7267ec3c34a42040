"""Game end and final scoring (rulebook 9.0)."""

from services.rules.noggin.scoring import final_breakdown

from .helpers import RULES, normal_turn, run_phase, seated, types


def _last_season_end():
    s = seated(3)
    normal_turn(s, 0, [80, 82, 83, 84])
    s.season = 8
    s.active = None
    s.crow = 1
    return s


def test_crow_reaches_the_crown_after_season_eight():
    """9.0 and 7.1: the Crow reaching the crown ends the game at once, with no Change of Season."""
    s = _last_season_end()
    events = run_phase(s)
    assert types(events) == ["CrowAdvanced", "GameEnded", "FinalScored"]
    assert s.season == 8 and s.crow == 0
    out = RULES.outcome(s)
    assert out["crown"] == "nogbad" and out["reason"] == "Nogbad's Crow reached the crown"
    assert RULES.to_move(s) == [] and RULES.pending_phase(s) is None


def test_final_scoring_numbers():
    """9.0: Gold 2 each, Nogs on the player board 1 each (action spaces 0), resources 1 per 2
    (Gold not among them), plus points scored in play."""
    s = _last_season_end()
    p = s.players[0]
    p.stock.update(gold=2, stone=3, wood=2, fish=0, harvest=0)
    p.mountains, p.placed["miner"], p.score = 6, 4, 5
    assert final_breakdown(s)[0] == {"play": 5, "inventions": 0, "gold": 4, "buildings": 0, "coins": 0,
                                     "nogs": 6, "resources": 2, "total": 17}


def test_nogbad_crowned_every_player_loses():
    """9.0 (fault 1 of the Noggin issue): 3 seats, season 8 ending, the Crow one space from the
    crown, seat 2 on 20 points and the others lower: Nogbad takes the crown, nobody wins,
    and the top scorer is only Leader in Exile."""
    s = _last_season_end()
    s.players[2].score = 20
    s.players[1].score = 4
    run_phase(s)
    out = RULES.outcome(s)
    assert out["crown"] == "nogbad" and out["winning_side"] == "nogbad"
    assert out["winners"] == [] and out["leader_in_exile"] == [2] and "council_of_elders" not in out
    assert out["scores"][2] == max(out["scores"])
