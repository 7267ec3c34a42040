"""Standings: seat ranks, the table's numbers on hand-made results, and the ratings' direction."""

import random

import pytest
from pydantic import ValidationError

from services.tournament.formats import plan_round_robin
from services.tournament.standings import MatchResult, compute, ranks, win_shares

from .helpers import play

INITIAL_MU, INITIAL_SIGMA = 25.0, 25.0 / 3.0


def result(index, seats, scores=(), winners=(), **kw) -> MatchResult:
    return MatchResult(index=index, game="noggin", seats=list(seats), scores=list(scores), winners=list(winners), **kw)


@pytest.mark.parametrize("scores, winners, forfeited, expected", [
    ([3, 10, 5], [0], [], [1, 2, 3]),            # the winner first whatever its score
    ([5, 5, 3], [], [], [1, 1, 3]),              # nobody won (Nogbad's crown): scores, ties equal
    ([10, 2, 4], [], [0], [3, 2, 1]),            # a forfeit is last even with the top score
    ([10, 0, 4], [], [0], [3, 2, 1]),
    ([-5, -3, -1], [], [2], [2, 1, 3]),          # ... and below negative scores
    ([1, 9, 2], [0, 2], [], [1, 3, 1]),          # a shared win
    ([7, 1, 9], [1], [2], [2, 1, 3]),
    ([4, 4, 4, 1], [], [1, 3], [1, 3, 1, 3]),    # forfeits tie among themselves
    ([], [2], [], [2, 2, 1]),                    # no scores: the rest tie
])
def test_ranks(scores, winners, forfeited, expected):
    assert ranks(result(0, ["a", "b", "c", "d"][:len(expected)], scores, winners, forfeited=forfeited)) == expected


def test_bye_ranks_first_and_wins_whole():
    bye = MatchResult(index=0, game="noggin", seats=["a"], ended_by="bye")
    assert ranks(bye) == [1] and win_shares(bye) == [1.0]
    assert win_shares(result(1, "abc", [1, 2, 3], [0, 2])) == [0.5, 0.0, 0.5]
    assert win_shares(result(2, "ab", [], [], ended_by="error")) == [0.0, 0.0]


@pytest.mark.parametrize("kwargs, message", [
    ({"seats": ["a", "a"]}, "two seats"),
    ({"seats": ["a", "b"], "scores": [1]}, "scores has 1 entries"),
    ({"seats": ["a", "b"], "winners": [2]}, "winners"),
    ({"seats": ["a", "b"], "forfeited": [0, 0]}, "forfeited"),
    ({"seats": ["a", "b"], "winners": [0], "forfeited": [0]}, "both won and forfeited"),
    ({"seats": ["a", "b"], "ended_by": "bye"}, "a bye has one seat"),
    ({"seats": ["a"]}, "at least two seats"),
    ({"seats": ["a", "b"], "strikes": [0, -1]}, "negative"),
])
def test_match_result_rejects_inconsistent_results(kwargs, message):
    with pytest.raises(ValidationError, match=message):
        MatchResult(index=0, game="noggin", **kwargs)


def hand_made() -> list[MatchResult]:
    return [
        result(0, ["a", "b"], [10, 4], [0], strikes=[0, 1], default_moves=[0, 2]),
        result(1, ["b", "a"], [6, 6], [0, 1]),
        result(2, ["a", "c"], [0, 0], [1], forfeited=[0], ended_by="forfeit", strikes=[3, 0], default_moves=[0, 0]),
        result(3, ["b", "c"], [50, 0], [0], ended_by="error", strikes=[7, 7]),
        MatchResult(index=4, round=1, game="noggin", seats=["c"], ended_by="bye"),
        result(5, ["c", "b"], [3, 8], []),  # nobody won: scores rank
    ]


def test_standings_numbers_on_hand_made_results():
    st = compute(["a", "b", "c"], hand_made())
    a, b, c = st.row("a"), st.row("b"), st.row("c")
    # a: won 0, shared 1, forfeited 2
    assert (a.matches, a.byes, a.wins, a.strikes, a.default_moves, a.forfeits) == (3, 0, 1.5, 3, 0, 1)
    assert a.win_rate == pytest.approx(0.5) and a.average_score == pytest.approx(16 / 3)
    # b: lost 0, shared 1, no win in 5; the failed match 3 is not counted
    assert (b.matches, b.byes, b.wins, b.strikes, b.default_moves, b.forfeits) == (3, 0, 0.5, 1, 2, 0)
    assert b.win_rate == pytest.approx(1 / 6) and b.average_score == pytest.approx(6.0)
    # c: won 2 by the forfeit, a bye (a win, no score), no win in 5
    assert (c.matches, c.byes, c.wins, c.strikes, c.default_moves, c.forfeits) == (3, 1, 2.0, 0, 0, 0)
    assert c.win_rate == pytest.approx(2 / 3) and c.average_score == pytest.approx(1.5)
    assert st.failed == [3]
    assert [h.index for h in st.history] == [None, 0, 1, 2, 5], "byes and failed matches are not rated"
    assert [r.ordinal for r in st.rows] == sorted((r.ordinal for r in st.rows), reverse=True)
    assert [r.rank for r in st.rows] == [1, 2, 3]
    for r in st.rows:
        assert r.ordinal == pytest.approx(r.mu - 3 * r.sigma)
        assert st.history[-1].ratings[r.name] == pytest.approx((r.mu, r.sigma))


def test_failed_matches_and_byes_do_not_move_ratings():
    full = compute(["a", "b", "c"], hand_made())
    without = compute(["a", "b", "c"], [r for r in hand_made() if r.index not in (3, 4)])
    for name in "abc":
        got, ref = full.row(name), without.row(name)
        assert (got.mu, got.sigma) == (ref.mu, ref.sigma)
        assert got.wins == ref.wins + (1 if name == "c" else 0)
    assert without.failed == []


def test_standings_apply_results_in_index_order():
    ordered = compute(["a", "b", "c"], hand_made())
    shuffled = hand_made()
    random.Random(4).shuffle(shuffled)
    assert [r.index for r in shuffled] != sorted(r.index for r in shuffled)
    assert compute(["a", "b", "c"], shuffled) == ordered


def test_rating_follows_results():
    names = ["strong", "weak", "idle1", "idle2"]
    results = [result(i, ["strong", "weak"] if i % 2 == 0 else ["weak", "strong"], [], [i % 2]) for i in range(12)]
    st = compute(names, results)
    strong, weak = st.row("strong"), st.row("weak")
    assert strong.mu > INITIAL_MU > weak.mu
    assert strong.sigma < INITIAL_SIGMA and weak.sigma < INITIAL_SIGMA
    assert [h.ratings["strong"][1] for h in st.history][-1] < st.history[1].ratings["strong"][1]
    mus = [h.ratings["strong"][0] for h in st.history]
    assert mus == sorted(mus), "an unbeaten participant's mu only goes up"
    assert (st.row("idle1").mu, st.row("idle1").sigma) == (INITIAL_MU, INITIAL_SIGMA)
    assert (st.row("idle1").matches, st.row("idle1").win_rate, st.row("idle1").average_score) == (0, 0.0, 0.0)
    assert st.rows[0].name == "strong" and min(st.rows, key=lambda r: r.mu).name == "weak"


def test_nobody_won_rates_by_score_and_forfeit_rates_last():
    st = compute(["a", "b"], [result(0, ["a", "b"], [9, 1], [])])
    assert st.row("a").mu > INITIAL_MU > st.row("b").mu
    st = compute(["a", "b", "c"], [result(0, ["a", "b", "c"], [100, 5, 1], [], forfeited=[0])])
    assert st.row("b").mu > st.row("c").mu > st.row("a").mu


def test_round_robin_standings_follow_strength():
    names = ["w", "x", "y", "z"]
    strength = {"w": 4, "x": 3, "y": 2, "z": 1}
    results = [play(m, strength) for m in plan_round_robin(names, 3, "rr", ["gnomes"])]
    st = compute(names, results)
    assert [r.name for r in st.rows] == names
    assert [r.wins for r in st.rows] == [9, 3, 0, 0]
    assert st.row("y").mu > st.row("z").mu


@pytest.mark.parametrize("participants, results, message", [
    (["a", "a"], [], "duplicate participant"),
    (["a", "b"], [result(0, "ab", [], [0]), result(0, "ba", [], [0])], "two results for match 0"),
    (["a", "b"], [result(0, ["a", "zed"], [], [0])], "not participants"),
])
def test_compute_rejects_bad_input(participants, results, message):
    with pytest.raises(ValueError, match=message):
        compute(participants, results)
