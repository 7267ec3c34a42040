"""Tournament formats: plan sizes, seats, seeds, Swiss pairing and byes, bad entries."""

from collections import Counter
from itertools import combinations

import pytest

from services.tournament.formats import (
    SWISS_SEARCH_FIELD,
    MatchSpec,
    _greedy_groups,
    _group,
    bye_result,
    pair_swiss,
    plan,
    plan_gauntlet,
    plan_round_robin,
    rotations,
    swiss_history,
    swiss_rounds,
)
from services.tournament.seeds import derive_seed
from services.tournament.standings import MatchResult, compute

from .helpers import play

FIVE = ["ann", "bob", "cat", "dan", "eve"]


def seat_counts(specs: list[MatchSpec]) -> Counter:
    return Counter((name, seat) for m in specs if not m.bye for seat, name in enumerate(m.seats))


def test_round_robin_of_five_two_player_is_twenty_matches_with_every_seat_equal():
    specs = plan_round_robin(FIVE, 2, "t1", ["noggin"])
    assert len(specs) == 20
    assert [m.index for m in specs] == list(range(20))
    assert {m.round for m in specs} == {0} and {m.game for m in specs} == {"noggin"}
    assert seat_counts(specs) == Counter({(p, s): 4 for p in FIVE for s in (0, 1)})
    # every pair meets once per seat order, and nobody plays themselves
    assert Counter(tuple(m.seats) for m in specs) == Counter(
        {(a, b): 1 for a in FIVE for b in FIVE if a != b})


def test_round_robin_rotations_share_a_seed_and_pairings_do_not():
    specs = plan_round_robin(FIVE, 3, "t1", ["noggin", "gnomes"], games_per_pairing=2)
    assert len(specs) == 10 * 3 * 2 * 2
    by_key: dict[tuple, list[MatchSpec]] = {}
    for m in specs:
        by_key.setdefault((m.pairing, m.game, m.repetition), []).append(m)
    assert len(by_key) == 10 * 2 * 2
    for (pairing, game, rep), ms in by_key.items():
        assert len({m.seed for m in ms}) == 1, "the rotations of one pairing share the seed"
        assert ms[0].seed == derive_seed("t1", "round_robin", pairing, game, rep)
        assert len({frozenset(m.seats) for m in ms}) == 1
        assert [m.seats for m in ms] == rotations(ms[0].seats), "each rotation once, each seat once"
        assert sorted(m.rotation for m in ms) == [0, 1, 2]
    assert len({ms[0].seed for ms in by_key.values()}) == len(by_key), "different pairings, games, repeats: new seeds"
    # the groups are the combinations, one pairing number each
    assert {frozenset(ms[0].seats) for ms in by_key.values()} == {frozenset(c) for c in combinations(FIVE, 3)}


def test_plans_are_deterministic_and_follow_the_tournament_seed():
    a = plan_round_robin(FIVE, 2, "seed-a", ["noggin"])
    assert a == plan_round_robin(FIVE, 2, "seed-a", ["noggin"])
    b = plan_round_robin(FIVE, 2, "seed-b", ["noggin"])
    assert [m.seats for m in a] == [m.seats for m in b]
    assert not {m.seed for m in a} & {m.seed for m in b}


def test_gauntlet_size_and_every_match_has_one_challenger():
    challengers, field = ["new1", "new2"], ["f1", "f2", "f3", "f4"]
    specs = plan_gauntlet(challengers, field, 3, "g", ["gnomes"], games_per_pairing=2)
    assert len(specs) == 2 * 6 * 3 * 2
    for m in specs:
        assert len([p for p in m.seats if p in challengers]) == 1
        assert len(m.seats) == 3 and len(set(m.seats)) == 3
    counts = seat_counts(specs)
    for c in challengers:
        assert [counts[(c, s)] for s in range(3)] == [12, 12, 12]
    assert all(m.seed == derive_seed("g", "gauntlet", m.pairing, m.game, m.repetition) for m in specs)
    assert len({m.pairing for m in specs}) == 12 and len({m.seed for m in specs}) == 12 * 2
    # each field pair meets only alongside a challenger, once per challenger
    assert Counter(frozenset(m.seats) for m in specs if m.rotation == 0 and m.repetition == 0) == Counter(
        {frozenset([c, *others]): 1 for c in challengers for others in combinations(field, 2)})


def test_plan_dispatches_to_each_format():
    assert plan("round_robin", FIVE, 2, "s", ["noggin"]) == plan_round_robin(FIVE, 2, "s", ["noggin"])
    assert plan("gauntlet", FIVE, 2, "s", ["noggin"], challengers=["eve"]) == plan_gauntlet(
        ["eve"], FIVE[:4], 2, "s", ["noggin"])
    first = plan("swiss", FIVE, 2, "s", ["noggin"])
    assert first == pair_swiss(FIVE, 2, 0, "s", ["noggin"], [], 0)
    assert len(first) == 3 and sum(m.bye for m in first) == 1


@pytest.mark.parametrize("args, kwargs, message", [
    (("league", FIVE, 2, "s", ["noggin"]), {}, "unknown tournament format"),
    (("round_robin", ["a", "b", "a"], 2, "s", ["noggin"]), {}, "duplicate"),
    (("round_robin", FIVE, 1, "s", ["noggin"]), {}, "at least 2 players"),
    (("swiss", ["a", "b"], 3, "s", ["noggin"]), {}, "cannot fill"),
    (("round_robin", FIVE, 2, "s", []), {}, "at least one game"),
    (("round_robin", FIVE, 2, "s", ["noggin", "noggin"]), {}, "duplicate game"),
    (("round_robin", ["a", ""], 2, "s", ["noggin"]), {}, "non-empty"),
    (("round_robin", FIVE, 2, "s", ["noggin"], 0), {}, "games_per_pairing"),
    (("swiss", FIVE, 2, "s", ["noggin"], 2), {}, "one game per pairing"),
    (("gauntlet", FIVE, 2, "s", ["noggin"]), {}, "needs challengers"),
    (("gauntlet", FIVE, 2, "s", ["noggin"]), {"challengers": ["zed"]}, "not participants"),
    (("gauntlet", ["a", "b", "c"], 3, "s", ["noggin"]), {"challengers": ["a", "b"]}, "cannot fill"),
    (("round_robin", FIVE, 2, "s", ["noggin"]), {"challengers": ["ann"]}, "for a gauntlet"),
])
def test_plan_rejects_bad_entries(args, kwargs, message):
    with pytest.raises(ValueError, match=message):
        plan(*args, **kwargs)


def test_gauntlet_rejects_a_name_on_both_sides():
    with pytest.raises(ValueError, match="both challengers and in the field"):
        plan_gauntlet(["a"], ["a", "b"], 2, "s", ["noggin"])


@pytest.mark.parametrize("n, rounds", [(0, 0), (1, 0), (2, 1), (3, 2), (4, 2), (5, 3), (8, 3), (9, 4), (1024, 10)])
def test_swiss_rounds_is_ceil_log2(n, rounds):
    assert swiss_rounds(n) == rounds


def run_swiss(names: list[str], players: int, rounds: int, seed: str = "sw", games=("noggin",)):
    strength = {p: len(names) - i for i, p in enumerate(names)}
    results, specs_all = [], []
    for r in range(rounds):
        specs = pair_swiss(names, players, r, seed, list(games), results, len(specs_all))
        specs_all += specs
        results += [play(m, strength) for m in specs]
    return specs_all, results


def test_swiss_round_zero_seats_everyone_once():
    names = [f"p{i}" for i in range(6)]
    specs = pair_swiss(names, 2, 0, "s", ["noggin"], [], 7)
    assert [m.index for m in specs] == [7, 8, 9] and [m.pairing for m in specs] == [0, 1, 2]
    assert sorted(p for m in specs for p in m.seats) == sorted(names)
    assert not any(m.bye for m in specs)
    assert all(m.seed == derive_seed("s", "swiss", 0, m.pairing, "noggin") for m in specs)


def test_swiss_pairs_leaders_together():
    names = ["a", "b", "c", "d"]
    round0 = [MatchResult(index=0, game="noggin", seats=["a", "b"], scores=[3, 1], winners=[0]),
              MatchResult(index=1, game="noggin", seats=["c", "d"], scores=[1, 3], winners=[1])]
    specs = pair_swiss(names, 2, 1, "s", ["noggin"], round0, 2)
    assert {frozenset(m.seats) for m in specs} == {frozenset("ad"), frozenset("bc")}
    # seat 0 goes to the one who had it less: d (seat 1 before) over a, b (seat 1) over c
    assert [m.seats for m in specs] == [["d", "a"], ["b", "c"]]


def test_swiss_avoids_rematches_when_possible():
    # 4 participants, 3 rounds: only a full round robin avoids every rematch, which needs backtracking in round 3
    specs, _ = run_swiss(["a", "b", "c", "d"], 2, 3)
    pairs = Counter(frozenset(m.seats) for m in specs)
    assert len(specs) == 6 and set(pairs.values()) == {1} and len(pairs) == 6
    specs, _ = run_swiss([f"p{i:02d}" for i in range(16)], 2, 4)
    assert set(Counter(frozenset(m.seats) for m in specs).values()) == {1}
    specs, results = run_swiss([f"p{i}" for i in range(9)], 3, 4)
    pair_meetings = Counter(frozenset(pair) for m in specs for pair in combinations(m.seats, 2))
    assert set(pair_meetings.values()) == {1}
    assert max(swiss_history([f"p{i}" for i in range(9)], 3, results).met.values()) == 1


def test_swiss_large_fields_pair_greedily_without_rematches():
    names = [f"p{i:03d}" for i in range(SWISS_SEARCH_FIELD + 61)]
    specs, results = run_swiss(names, 2, 3)
    assert len(results) == 3 * (len(names) // 2 + 1)
    assert set(Counter(frozenset(m.seats) for m in specs if not m.bye).values()) == {1}
    assert _group(names[:8], 2, {}) == _greedy_groups(names[:8], 2, {}) == [names[i:i + 2] for i in (0, 2, 4, 6)]


def test_swiss_byes_go_to_the_lowest_placed_without_a_bye():
    names = ["a", "b", "c", "d", "e"]
    specs, results = run_swiss(names, 2, 5)
    byes = [m for m in specs if m.bye]
    assert len(byes) == 5 and all(len(m.seats) == 1 for m in byes)
    assert sorted(m.seats[0] for m in byes) == sorted(names), "nobody gets a second bye while another has none"
    for r in range(5):
        rnd = [m for m in specs if m.round == r]
        assert [m.bye for m in rnd] == [False, False, True], "matches first, byes last"
        assert sorted(p for m in rnd for p in m.seats) == sorted(names)
    # in round 0 nobody has points: the bye goes to the last of the seeded order
    round0 = [m for m in specs if m.round == 0]
    assert round0[-1].seats[0] == max(names, key=lambda p: derive_seed("sw", "swiss", 0, "tiebreak", p))
    # byes count as wins without a rating change
    standings = compute(names, results)
    assert all(standings.row(p).byes == 1 for p in names)


def test_swiss_three_player_groups_leave_the_remainder_on_byes():
    names = [f"p{i}" for i in range(8)]
    specs = pair_swiss(names, 3, 0, "s", ["gnomes"], [], 0)
    assert [len(m.seats) for m in specs] == [3, 3, 1, 1]
    assert [m.bye for m in specs] == [False, False, True, True]


def test_swiss_cycles_games_and_keeps_indexes_unique():
    specs, _ = run_swiss([f"p{i}" for i in range(6)], 2, 4, games=("noggin", "gnomes", "resource_hog"))
    assert [m.index for m in specs] == list(range(12))
    assert [m.game for m in specs if m.pairing == 0] == ["noggin", "gnomes", "resource_hog", "noggin"]


def test_swiss_seats_alternate_fairly():
    names = [f"p{i}" for i in range(8)]
    specs, _ = run_swiss(names, 2, 6)
    counts = seat_counts(specs)
    assert all(abs(counts[(p, 0)] - counts[(p, 1)]) <= 2 for p in names)
    assert all(counts[(p, 0)] + counts[(p, 1)] == 6 for p in names)


def test_swiss_tie_break_follows_the_seed():
    names = [f"p{i}" for i in range(8)]
    a = pair_swiss(names, 2, 0, "one", ["noggin"], [], 0)
    assert a == pair_swiss(names, 2, 0, "one", ["noggin"], [], 0)
    b = pair_swiss(names, 2, 0, "two", ["noggin"], [], 0)
    assert [m.seats for m in a] != [m.seats for m in b]


def test_swiss_shared_wins_count_a_share():
    results = [MatchResult(index=0, game="noggin", seats=["a", "b", "c"], scores=[5, 5, 1], winners=[0, 1]),
               MatchResult(index=1, game="noggin", seats=["d", "e", "f"], scores=[9, 1, 1], winners=[0])]
    assert swiss_history(list("abcdef"), 3, results).points == {
        "a": 0.5, "b": 0.5, "c": 0.0, "d": 1.0, "e": 0.0, "f": 0.0}


def test_swiss_rejects_strangers_in_results():
    results = [MatchResult(index=0, game="noggin", seats=["a", "zed"], winners=[0])]
    with pytest.raises(ValueError, match="not participants"):
        pair_swiss(["a", "b"], 2, 1, "s", ["noggin"], results, 1)


def test_bye_result_only_for_byes():
    spec = MatchSpec(index=3, round=1, pairing=2, seats=["a"], seed="x", game="noggin", bye=True)
    result = bye_result(spec)
    assert (result.index, result.seats, result.ended_by, result.scores) == (3, ["a"], "bye", [])
    with pytest.raises(ValueError, match="not a bye"):
        bye_result(spec.model_copy(update={"bye": False}))
