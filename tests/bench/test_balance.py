"""The balance report (``make balance``, :mod:`services.bench.balance`): how it counts wins, starts
and what a building adds, how it judges the targets, and its short version end to end on Resource
Hog (a few games a measure: it shows the report runs, never a claim about balance)."""

from __future__ import annotations

import math

import pytest

from services.bench.balance import core, report
from services.bench.balance.specs import spec
from services.bench.stats import mean_gap
from services.rules.core import Event


def _w(scores, winners, features, start=("L1", "L4", "L7"), counts=None, crown=None):
    return core.Watched(["expert"] * 3, list(scores), list(winners), crown, list(start),
                        [sorted(f) for f in features], dict(counts or {}))


def test_seat_and_start_shares_count_shared_and_nobodys_wins():
    hog = spec("resource_hog")
    recs = [_w([5, 5, 1], [0, 1], [[], [], []]), _w([1, 2, 9], [2], [[], [], []], start=("L4", "L7", "L1"))]
    seats = core.seat_shares(hog, recs)
    assert [(s.wins, s.games) for s in seats] == [(0.5, 2), (0.5, 2), (1.0, 2)]
    starts = {s.label: s.wins for s in core.start_shares(hog, recs)}
    assert starts == {"L1": 1.5, "L4": 0.5, "L7": 0.0}
    nog = spec("noggin")  # only games where Noggin was crowned count
    lost = _w([9, 1, 1], [], [[], [], []], crown="nogbad")
    crowned = _w([9, 1, 1], [0], [[], [], []], crown="noggin")
    assert [s.games for s in core.seat_shares(nog, [lost, crowned])] == [1, 1, 1]


def test_what_a_building_adds_is_the_gap_between_seats_with_and_without_it():
    recs = [_w([10, 4, 4], [0], [["built:mine"], [], []]), _w([4, 12, 4], [1], [[], ["built:mine"], []])]
    (mine,) = core.effects(recs)
    assert (mine.key, mine.taken, mine.seats, mine.games_with) == ("built:mine", 2, 6, 1.0)
    assert mine.gap == pytest.approx(11 - 4)
    assert mine.low < mine.gap < mine.high
    gap, low, high = mean_gap([1.0], [2.0, 3.0])
    assert gap == -1.5 and math.isinf(low) and math.isinf(high)


def test_resource_hog_events_become_features_and_occurrences():
    hog = spec("resource_hog")
    built = Event("Built", {"seat": 2, "area": "L7", "building": "mine", "money": 5, "goods": {}})
    bought = Event("GoodsBought", {"seat": 1, "good": "mercenary", "count": 1, "to": "L4", "money": 10})
    fight = Event("BattleFought", {"seat": 0, "area": "L4", "defender": 1, "rolls": [], "winner": 0,
                                   "loser": 1, "margin": 1})
    assert list(hog.features(built)) == [(2, "built:mine")]
    assert list(hog.features(bought)) == [(1, "bought:mercenary")]
    assert "fight" in hog.occurrences(fight) and "bought:mercenary" in hog.occurrences(bought)


def test_targets_judge_the_resource_hog_measures():
    even = [_w([5, 4, 3], [s % 3], [["built:" + b for b in ("road", "harbour", "mine", "stone_head", "manor",
                                                              "motte", "castle")] if s % 3 == 0 else [], [], []],
               start=("L1", "L4", "L7"), counts={"fight": 1, "bought:mercenary": 1}) for s in range(3)]
    def without(name, loss):  # the ablated seat (game i: seat i mod 3) ends ``loss`` below the expert's score
        out = []
        for i, rec in enumerate(even):
            kinds = ["expert"] * 3
            kinds[i % 3] = name
            scores = list(rec.scores)
            scores[i % 3] -= loss
            out.append(core.Watched(kinds, scores, [], None, list(rec.start), [[], [], []], {}))
        return out

    mine = "resource_hog: mine built in ≥ 15 % of games and adds to its builder's wealth"
    lines = dict(report.targets("resource_hog", {"experts": even, "ablation:without:mine": without("without:mine", 2)}))
    assert lines["resource_hog: every seat's win share within 33 % ± 8 points"]  # each seat won once
    assert lines["resource_hog: a fight in ≥ 40 % of games"]
    assert lines["resource_hog: mercenaries bought in ≥ 10 % of games"]
    assert lines[mine]
    no_gain = dict(report.targets("resource_hog", {"experts": even, "ablation:without:mine": without("without:mine", 0)}))
    assert not no_gain[mine]  # built, but the expert without it does as well: it adds nothing
    quiet = dict(report.targets("resource_hog", {"experts": [_w([5, 4, 3], [0], [[], [], []])] * 3}))
    assert not quiet["resource_hog: a fight in ≥ 40 % of games"]
    assert not quiet["resource_hog: every seat's win share within 33 % ± 8 points"]  # seat 0 won all
    assert not quiet[mine]


def test_the_short_balance_report_runs_on_resource_hog(tmp_path, monkeypatch):
    monkeypatch.setattr(report, "DOC", tmp_path / "balance.md")
    (tmp_path / "balance.md").write_text(report.HEADER + "\n## resource_hog\n\nthe last report\n\n## noggin\n\nkept\n")
    code = report.main(["--quick", "--game", "resource_hog", "--games", "2", "--workers", "1", "--write"])
    text = (tmp_path / "balance.md").read_text()
    assert code == 0  # --quick makes no claim, so its verdicts never fail the command
    assert text.startswith(report.HEADER) and "## noggin\n\nkept\n" in text and "the last report" not in text
    assert 'make balance ARGS="--quick --game resource_hog --games 2 --workers 1 --write"' in text
    assert "| seat 0 |" in text and "| passive |" in text and "| warmonger |" in text
    assert "a fight in ≥ 40 % of games" in text and "0 failed" in text


def test_bad_arguments_are_refused_before_any_game(tmp_path, monkeypatch):
    monkeypatch.setattr(report, "DOC", tmp_path / "balance.md")
    assert report.main(["--game", "chess"]) == 2
    assert report.main(["--games", "0"]) == 2
    assert report.main(["--iterations", "-5"]) == 2
    assert not (tmp_path / "balance.md").exists()


def test_noggins_shares_go_by_the_drawn_turn_order_not_by_seat_number():
    """Noggin draws the turn order (set-up E): a game where seat 2 moved first and won counts for
    the first place in the turn order, not for seat 2."""
    nog = spec("noggin")
    recs = [core.Watched(["expert"] * 3, [9, 5, 1], [0], "noggin", ["", "", ""], [[], [], []], {}, None, [0, 1, 2]),
            core.Watched(["expert"] * 3, [1, 5, 9], [2], "noggin", ["", "", ""], [[], [], []], {}, None, [2, 0, 1])]
    shares = core.seat_shares(nog, recs)
    assert [s.label for s in shares] == ["turn 1", "turn 2", "turn 3"]
    assert [s.wins for s in shares] == [2, 0, 0]
    from services.rules.core import GameConfig
    from services.rules.core.forward import chance_from, start
    from services.rules.noggin import GAME

    orders = set()
    for i in range(8):
        state, _ = start(GAME, GameConfig(game="noggin", players=3), chance_from(f"order-{i}"))
        order = nog.order(state)
        assert sorted(order) == [0, 1, 2]
        orders.add(tuple(order))
    assert len(orders) > 1  # drawn, not fixed
