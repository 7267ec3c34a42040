"""Game end and final scoring (rulebook 9.0)."""

import pytest

from services.rules.noggin.scoring import final_breakdown

from .helpers import (RULES, activate_nogbad, give, normal_turn, own_building, put_reserve, put_saga, run,
                      run_phase, scenario, seated, types)


def _last_season_end():
    s = seated(3)
    normal_turn(s, 0, [80, 82, 83, 84])
    s.season = 8
    s.active = None
    s.crow = 1
    return s


@pytest.mark.rules("noggin:9.0/stops-at-crown")
def test_crow_reaches_the_crown_after_season_eight():
    """9.0 and 7.1: the Crow reaching the crown ends the game at once, with no Change of Season."""
    s = _last_season_end()
    events = run_phase(s)
    assert types(events) == ["CrowAdvanced", "GameEnded", "FinalScored"]
    assert s.season == 8 and s.crow == 0
    out = RULES.outcome(s)
    assert out["crown"] == "nogbad" and out["reason"] == "Nogbad's Crow reached the crown"
    assert RULES.to_move(s) == [] and RULES.pending_phase(s) is None


@pytest.mark.rules("noggin:9.0/gold-two", "noggin:9.0/nogs-on-board", "noggin:9.0/nogs-on-actions-zero",
                   "noggin:9.0/resources-at-rate")
def test_final_scoring_numbers():
    """9.0: Gold 2 each, Nogs on the player board 1 each (action spaces 0), resources 1 per 2
    (Gold not among them), plus points scored in play."""
    s = _last_season_end()
    p = s.players[0]
    p.stock.update(gold=2, stone=3, wood=2, fish=0, harvest=0)
    p.mountains, p.placed["miner"], p.score = 6, 4, 5
    assert final_breakdown(s)[0] == {"play": 5, "inventions": 0, "gold": 4, "buildings": 0, "coins": 0,
                                     "nogs": 6, "resources": 2, "total": 17}


@pytest.mark.rules("noggin:9.0/nogbad-everyone-loses", "noggin:9.0/outcome-shows-side")
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


def _scored(s):
    """The final scoring of ``s`` by heading, per seat."""
    rows = final_breakdown(s)
    return {k: [r[k] for r in rows] for k in rows[0]}


def _inventions(counts):
    s = scenario(len(counts))
    for p, k in zip(s.players, counts):
        p.inventions = [f"card{i}" for i in range(k)]
    return _scored(s)["inventions"]


@pytest.mark.rules("noggin:9.0/inventions-ranking")
def test_inventions_score_forty_thirty_twenty_ten_by_number_held():
    """9.0: the most Inventions scores 40, the second 30, then 20 and 10, whatever the seat."""
    assert _inventions([4, 3, 2, 1]) == [40, 30, 20, 10]
    assert _inventions([1, 4, 2, 3]) == [10, 40, 20, 30]
    assert _inventions([2, 5, 3]) == [20, 40, 30]


@pytest.mark.rules("noggin:9.0/inventions-ties-share")
def test_tied_players_share_the_places_they_cover():
    """9.0: tied players add the points of the places they take and share them; the next
    player takes the next free place."""
    assert _inventions([2, 2, 1, 1]) == [35, 35, 15, 15]
    assert _inventions([3, 1, 1, 1]) == [40, 20, 20, 20]
    assert _inventions([1, 1, 1, 1]) == [25, 25, 25, 25]
    assert _inventions([2, 3, 2]) == [25, 40, 25]


@pytest.mark.rules("noggin:9.0/inventions-need-one")
def test_no_invention_no_invention_points():
    """9.0: a player needs at least one Invention to score Invention points; those without
    take no place."""
    assert _inventions([1, 0, 0, 0]) == [40, 0, 0, 0]
    assert _inventions([0, 2, 0, 1]) == [0, 40, 0, 30]
    assert _inventions([0, 0, 0]) == [0, 0, 0]


@pytest.mark.rules("noggin:9.0/gold-two", "noggin:9.0/gold-eight-goldsmith")
def test_gold_scores_two_or_eight_with_the_goldsmith():
    """9.0 and appendix: each Gold cube scores 2, or 8 for the owner of the Goldsmith."""
    s = scenario(3)
    give(s, 0, gold=3)
    give(s, 1, gold=3)
    own_building(s, 1, "goldsmith")
    assert _scored(s)["gold"] == [6, 24, 0]


@pytest.mark.rules("noggin:9.0/year2-scored")
def test_year2_buildings_score_only_when_their_requirements_are_met():
    """9.0 and appendix: the Royal Horse Trough scores 6 once its Stone is locked on it, Nooka's
    Kitchen Garden 12 once 2 Harvest and 1 Wood are; not before."""
    s = scenario(3)
    own_building(s, 0, "royal_horse_trough")
    own_building(s, 1, "nookas_kitchen_garden")
    own_building(s, 2, "nookas_kitchen_garden")
    s.players[1].locked = {"nookas_kitchen_garden": {"harvest": 2}}
    assert _scored(s)["buildings"] == [0, 0, 0]
    s.players[0].locked = {"royal_horse_trough": {"stone": 1}}
    s.players[2].locked = {"nookas_kitchen_garden": {"harvest": 2, "wood": 1}}
    assert _scored(s)["buildings"] == [6, 0, 12]


@pytest.mark.rules("noggin:9.0/coins-only-after-money", "noggin:9.0/coins-at-rate",
                   "noggin:house rules/amb7-gold-coins-not-resources")
def test_coins_score_the_exchange_rate_once_the_money_saga_is_done():
    """9.0: coins count only if the Money Saga was completed, each for the exchange rate: 2,
    or 3 while Nogbad is active on the trading space (Bad News); coins are not resources."""
    s = scenario(3)
    give(s, 0, coin=2, stone=1)
    assert _scored(s)["coins"][0] == 0
    s.coins = True
    assert _scored(s)["coins"][0] == 4 and _scored(s)["resources"][0] == 0
    activate_nogbad(s, 3)
    assert _scored(s)["coins"][0] == 6
    activate_nogbad(s, 2)  # active elsewhere: the rate is 2
    assert _scored(s)["coins"][0] == 4


@pytest.mark.rules("noggin:9.0/resources-at-rate")
def test_resources_score_one_per_two_or_per_three_with_bad_news():
    """9.0: basic resources on the player board score 1 per 2, or 1 per 3 at the 3:1 rate."""
    s = scenario(3)
    give(s, 0, stone=2, wood=2, fish=1, harvest=2)  # 7 cubes
    give(s, 1, wood=1)
    assert _scored(s)["resources"] == [3, 0, 0]
    activate_nogbad(s, 3)
    assert _scored(s)["resources"] == [2, 0, 0]


@pytest.mark.rules("noggin:9.0/nogs-on-board", "noggin:9.0/nogs-on-unfinished-saga", "noggin:9.0/nogs-on-actions-zero",
                   "noggin:house rules/amb7-nogs-counted")
def test_nogs_score_on_the_board_and_on_unfinished_sagas_only():
    """9.0: 1 per Nog on the player board and per Nog on an unfinished Saga (cards under it and
    the current one); Nogs on action spaces (and, house rule, on Counting House or Invention
    cards) score nothing."""
    s = scenario(3)
    p = s.players[0]
    p.mountains, p.placed["miner"], p.placed["market_day"] = 4, 3, 1
    p.counting_house.append({"card": "telescope", "up": True})
    p.inventions.append("potion")
    put_reserve(s, 0, ["stone", "wood"], deck="C", card="C07")
    s.sagas[0].current.nogs = [1, 0, 2]
    s.sagas[1].done = [{"deck": "A", "card": "A13", "nogbad": False, "nogs": [2, 1, 0]}]
    assert _scored(s)["nogs"] == [4 + 1 + 2, 10 + 1, 10 + 2]


def _noggin_crowned(scores):
    """In-game scores set first; the Dragon one space from the crown; seat 0 meets the last
    condition of the Firecake (2 cards) taking the point, seat 2's Nog is on the first card
    (3 points): 1 Nog moves the Dragon 1, onto the crown, and Noggin keeps it."""
    s = scenario(3)
    for p, k in zip(s.players, scores):
        p.score = k
    s.dragon = 1
    put_saga(s, 0, "the_firecake", done=[{"deck": "A", "card": "A13", "nogbad": False, "nogs": [0, 0, 1]}])
    s.players[2].mountains -= 1
    put_reserve(s, 0, ["stone"], deck="C", card="C14")
    give(s, 0, stone=1)
    events = run(s, 0, {"type": "market_day", "op": "saga", "saga": 0, "condition": 0, "nog": False,
                        "pay": ["stone"]})
    assert types(events)[-2:] == ["GameEnded", "FinalScored"]
    return s


@pytest.mark.rules("noggin:9.0/noggin-council", "noggin:9.0/ties-share", "noggin:9.0/outcome-shows-side")
def test_noggin_keeps_the_crown_and_tied_top_scorers_share_the_council():
    """9.0: with Noggin on the throne the highest totals are elected to the Council of Elders
    and win; tied players share the honours. Seat 0 takes 1 point for the condition and has 9
    Nogs home (Market Day holds one), seat 2 scores 3 for its Nog, and 10 Nogs each."""
    s = _noggin_crowned([5, 6, 2])
    out = RULES.outcome(s)
    assert out["scores"] == [5 + 1 + 9, 6 + 10, 2 + 3 + 10]
    assert out["crown"] == out["winning_side"] == "noggin" and out["reason"] == "Noggin's Dragon reached the crown"
    assert out["winners"] == out["council_of_elders"] == [1] and "leader_in_exile" not in out

    s = _noggin_crowned([6, 6, 2])
    out = RULES.outcome(s)
    assert out["scores"] == [16, 16, 15]
    assert out["winners"] == out["council_of_elders"] == [0, 1]


@pytest.mark.rules("noggin:9.0/ties-share", "noggin:9.0/nogbad-everyone-loses")
def test_tied_top_scorers_share_the_lead_in_exile_and_nobody_wins():
    """9.0: under Nogbad nobody wins; tied top scorers are both Leader in Exile."""
    s = _last_season_end()
    s.players[0].score = s.players[2].score = 7
    s.players[1].score = 3
    run_phase(s)
    out = RULES.outcome(s)
    assert out["winning_side"] == "nogbad" and out["winners"] == []
    assert out["leader_in_exile"] == [0, 2] and "council_of_elders" not in out


@pytest.mark.rules("noggin:9.0/outcome-shows-side")
def test_the_side_reaches_tournament_reports_tables_and_standings():
    """9.0: the outcome names the side that took the crown, and the tournament report built
    from it (as the runner does) shows it: Nogbad's game has no winner, its top scorer leads
    only in exile, which standings count apart from wins."""
    from services.tournament.display import winner_text
    from services.tournament.models import GameReport
    from services.tournament.runner import TournamentConfig, sides, standings

    s = _last_season_end()
    s.players[2].score = 20
    run_phase(s)
    lost = RULES.outcome(s)
    won = RULES.outcome(_noggin_crowned([5, 6, 2]))

    def report(i, out):
        return GameReport(index=i, game_id=f"g{i}", seed="s", seats=[], ended_by="rules", moves=1,
                          final_scores=out["scores"], winner=out["winners"], winning_side=out["winning_side"],
                          leader_in_exile=out.get("leader_in_exile") or [], reason=out["reason"])

    games = [report(0, lost), report(1, won)]
    assert "Nogbad" in winner_text(games[0]) and "2" in winner_text(games[0])
    assert winner_text(games[1]) == "Noggin: 1"
    assert sides(games) == {"nogbad": 1, "noggin": 1}
    rows = standings(TournamentConfig(players=3, games=2), games)
    assert [(r.wins, r.exiled_leads) for r in rows] == [(0, 0), (1, 0), (0, 1)]
