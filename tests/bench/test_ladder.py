"""The bot ladder (``make bench-bots``, :mod:`services.bench.ladder`): how it counts games, rates
kinds and judges the targets, and its short version end to end (a few games a cell with small
budgets: it shows the ladder runs, never a claim about strength)."""

from __future__ import annotations

import pytest

from services.bench import ladder
from services.bench.sections import recorded_section, write_section
from services.bots.arena import GameRecord


def _rec(kinds, scores, winners, crown=None, cpu=None, seed="s"):
    n = len(kinds)
    return GameRecord("noggin", seed, list(kinds), scores=list(scores), winners=list(winners), crown=crown,
                      decisions=[10] * n, choices=[5] * n, cpu=list(cpu or [0.1] * n))


def test_a_game_nobody_won_is_nobodys_win_and_ranks_every_seat_last_together():
    nogbad = _rec(["expert", "random"], [30, 10], [], crown="nogbad")
    assert ladder.win_share(nogbad, 0) == ladder.win_share(nogbad, 1) == 0.0
    assert ladder.ranks(nogbad) == [1, 1]
    shared = _rec(["a", "b", "c"], [5, 5, 2], [0, 1])
    assert [ladder.win_share(shared, s) for s in range(3)] == [0.5, 0.5, 0.0]
    assert ladder.ranks(shared) == [1, 1, 2]
    # the loser's places follow their scores
    assert ladder.ranks(_rec(["a", "b", "c"], [9, 2, 4], [0])) == [1, 3, 2]


def test_ratings_rise_with_wins_and_ignore_self_play():
    games = [_rec(["expert", "random"] if i % 2 == 0 else ["random", "expert"],
                  [10, 1] if i % 2 == 0 else [1, 10], [0] if i % 2 == 0 else [1]) for i in range(12)]
    selfplay = [_rec(["random", "random"], [1, 0], [0])] * 5
    r = ladder.ratings(games + selfplay, ["expert", "random"])
    assert r["expert"][0] > 25 > r["random"][0]
    assert r["expert"][0] - r["expert"][1] > r["random"][0] + r["random"][1]
    assert ladder.ratings(selfplay, ["random"])["random"] == (25.0, pytest.approx(25 / 3), 0.0)


def _mixed(n):
    """``n`` seeded 2-seat games of three kinds: a beats b 2 games in 3, b beats c 2 in 3, some draws."""
    import random

    rng = random.Random(7)
    out = []
    for i in range(n):
        a, b = [("a", "b"), ("b", "c"), ("a", "c")][i % 3]
        roll = rng.random()
        winners = [0] if roll < 0.6 else [1] if roll < 0.9 else []
        out.append(_rec([a, b], [2, 1] if winners == [0] else [1, 2], winners, seed=f"g{i}"))
    return out


def test_ratings_do_not_depend_on_the_order_the_games_are_given_in():
    games = _mixed(90)
    r = ladder.ratings(games, ["a", "b", "c"], orders=8)
    assert ladder.ratings(list(reversed(games)), ["a", "b", "c"], orders=8) == r
    assert r["a"][0] > r["b"][0] > r["c"][0]
    # one order alone: another order of the same games gives other ratings, which is why several are averaged
    one = [ladder.ratings(g, ["a", "b", "c"], orders=1, seed="x") for g in (games, games[45:] + games[:45])]
    assert one[0] != r and r["a"][2] > 0.0
    with pytest.raises(ValueError, match="orders must be at least 1"):
        ladder.ratings(games, ["a"], orders=0)


def test_ratings_do_not_drift_so_sigma_keeps_falling_with_more_games():
    few, many = (ladder.ratings(_mixed(n), ["a", "b", "c"], orders=2) for n in (60, 1500))
    assert many["a"][1] < few["a"][1]
    assert many["a"][1] < 1.0  # with OpenSkill's default drift sigma stays near 1.5 however many games


def test_wilson_interval_holds_the_rate_and_narrows_with_more_games():
    lo, hi = ladder.wilson(27, 30)
    assert lo < 0.9 < hi and hi <= 1.0
    lo2, hi2 = ladder.wilson(270, 300)
    assert lo < lo2 < 0.9 < hi2 < hi
    assert ladder.wilson(0, 0) == (0.0, 1.0)


def test_the_targets_follow_the_issue():
    cell = ladder.Cell("noggin", "expert x3", ("expert",) * 3)
    crowned = [_rec(["expert"] * 3, [9, 8, 7], [0], crown="noggin")] * 17 + \
        [_rec(["expert"] * 3, [9, 8, 7], [], crown="nogbad")] * 3
    verdicts = dict(ladder.targets({cell: crowned}, ["expert"]))
    line = next(t for t in verdicts if t.startswith("noggin, expert x3"))
    assert "17/20" in line and verdicts[line] is True  # 85 % is enough
    crowned[0] = _rec(["expert"] * 3, [9, 8, 7], [], crown="nogbad")
    verdicts = dict(ladder.targets({cell: crowned}, ["expert"]))
    assert verdicts[next(t for t in verdicts if t.startswith("noggin, expert x3"))] is False
    cpu = next(t for t in verdicts if "CPU" in t)
    assert verdicts[cpu] is True  # 10 ms a decision
    slow = [_rec(["expert"] * 3, [1, 1, 1], [0], crown="noggin", cpu=[3.0, 3.0, 3.0])]
    verdicts = dict(ladder.targets({cell: slow}, ["expert"]))
    assert verdicts[next(t for t in verdicts if "CPU" in t)] is False  # 300 ms a decision


def test_cells_rotate_every_kind_round_every_seat():
    cell = ladder.Cell("noggin", "expert + scripted x2", ("expert", "scripted", "scripted"))
    assert [cell.seats(i).index("expert") for i in range(3)] == [0, 1, 2]
    names = [c.name for c in ladder.cells("noggin")]
    assert len([c for c in ladder.cells("noggin") if c.rated]) == 10
    assert {"expert x2", "expert x3", "expert x4", "expert + scripted x2"} <= set(names)


def test_the_ladder_replaces_its_own_section_and_keeps_the_others(tmp_path):
    doc = tmp_path / "benchmarks.md"
    doc.write_text("# Benchmarks\n\n## Engine\n\ntable\n\n## Targets\n\n- one\n", encoding="utf-8")
    write_section(ladder.SECTION, f"{ladder.SECTION}\n\nfirst\n", doc)
    write_section(ladder.SECTION, f"{ladder.SECTION}\n\nsecond\n", doc)
    text = doc.read_text(encoding="utf-8")
    assert text == f"# Benchmarks\n\n## Engine\n\ntable\n\n{ladder.SECTION}\n\nsecond\n\n## Targets\n\n- one\n"
    assert recorded_section(ladder.SECTION, doc) == f"{ladder.SECTION}\n\nsecond\n"


@pytest.mark.parametrize("game", ladder.GAMES)
def test_the_short_ladder_plays_every_pair_of_every_game(game, capsys):
    """``make bench-bots ARGS="--quick --game <game>"`` in one process: every kind rated, no game
    failed (a game at a time, so each has the test timeout to itself)."""
    # a short run claims nothing: it exits 0 (only a failed game is an error) whatever the targets
    assert ladder.main(["--quick", "--workers", "1", "--games", "1", "--game", game]) == 0
    out = capsys.readouterr().out
    assert f"### {game}" in out
    assert f"{game}, games that failed: 0: met" in out
    for kind in ("random", "greedy", "scripted", "ismcts", "expert"):
        assert f"| {kind} |" in out
    assert out.count("the ladder is strict") == 1
    assert ("Noggin crowned" in out) == (game == "noggin")  # the crown column is Noggin's alone


def test_a_ladder_of_some_games_keeps_the_recorded_sections_of_the_others():
    old = f"{ladder.SECTION}\n\nabout\n\n### noggin\n\nN1\n\n### gnomes\n\nG1\n"
    new = f"{ladder.SECTION}\n\nabout now\n\n### resource_hog\n\nR2\n\n### gnomes\n\nG2\n"
    text = ladder.merged(old, new)
    assert text.startswith(f"{ladder.SECTION}\n\nabout now\n")
    assert "N1" in text and "G2" in text and "R2" in text and "G1" not in text
    assert text.index("### noggin") < text.index("### gnomes") < text.index("### resource_hog")
    assert ladder.merged(None, new).count("### ") == 2


def test_no_games_or_no_workers_is_refused_before_anything_plays(monkeypatch, capsys):
    import pytest

    monkeypatch.setattr(ladder, "run", lambda *a, **k: pytest.fail("games were played"))
    assert ladder.main(["--games", "0"]) == 2
    assert ladder.main(["--workers", "-3"]) == 2
    assert "--games and --workers must be at least 1" in capsys.readouterr().out


def test_saved_records_make_the_same_report_without_playing(tmp_path):
    cell = ladder.Cell("noggin", "a-b", ("a", "b"), rated=True)
    results = {cell: [_rec(["a", "b"], [3, 1], [0], crown="noggin", seed="g0"),
                      _rec(["b", "a"], [2, 2], [], crown="nogbad", seed="g1")]}
    path = tmp_path / "records.jsonl"
    ladder.save_records(results, str(path), {"noggin": {"ismcts": 4}})
    loaded, iterations = ladder.load_records(str(path))
    assert loaded == results and iterations == {"noggin": {"ismcts": 4}}
    assert ladder.markdown("c", loaded, ["a", "b"], 2, iterations, None, 1) == \
        ladder.markdown("c", results, ["a", "b"], 2, {"noggin": {"ismcts": 4}}, None, 1)
    path.write_text(path.read_text() + "not json\n")
    with pytest.raises(ValueError, match="line 3: not a ladder game"):
        ladder.load_records(str(path))


def test_a_report_from_records_that_cannot_be_read_is_refused(tmp_path, capsys):
    assert ladder.main(["--from-records", str(tmp_path / "missing.jsonl")]) == 2
    assert "--from-records" in capsys.readouterr().out


def test_a_report_from_records_lists_the_kinds_that_played(tmp_path, capsys):
    cell = ladder.Cell("resource_hog", "greedy-random", ("greedy", "random"), rated=True)
    path = tmp_path / "records.jsonl"
    ladder.save_records({cell: [_rec(["greedy", "random"], [5, 1], [0], seed="g0")]}, str(path), {})

    assert ladder.main(["--from-records", str(path), "--game", "resource_hog"]) == 0
    out = capsys.readouterr().out
    assert "| greedy |" in out and "| random |" in out and "| expert |" not in out


def test_records_that_cannot_be_written_are_refused_before_any_game_is_played(tmp_path, monkeypatch, capsys):
    played: list[int] = []
    monkeypatch.setattr(ladder, "run", lambda *args, **kwargs: played.append(1) or {})
    assert ladder.main(["--quick", "--records", str(tmp_path / "no" / "such" / "dir.jsonl")]) == 2
    assert played == [] and "cannot be written" in capsys.readouterr().out


def test_a_report_from_records_refuses_the_options_of_a_run(tmp_path, capsys):
    for extra in (["--games", "5"], ["--records", str(tmp_path / "b.jsonl")], ["--quick"], ["--iterations", "ismcts=3"]):
        assert ladder.main(["--from-records", str(tmp_path / "a.jsonl"), *extra]) == 2
        assert f"{extra[0]} cannot be used with it" in capsys.readouterr().out


def test_a_record_whose_fields_do_not_fit_is_refused_by_line(tmp_path):
    cell = ladder.Cell("noggin", "a-b", ("a", "b"), rated=True)
    path = tmp_path / "records.jsonl"
    ladder.save_records({cell: [_rec(["a", "b"], [3, 1], [0], seed="g0")]}, str(path), {})
    good = path.read_text()
    for bad in (good.replace('"winners": [0]', '"winners": [7]'), good.replace('"scores": [3, 1]', '"scores": null'),
                good.replace('"kinds": ["a", "b"], "moves"', '"kinds": "ab", "moves"')):
        assert bad != good
        path.write_text(bad)
        with pytest.raises(ValueError, match="line 1: not a ladder game"):
            ladder.load_records(str(path))


def test_ratings_leave_out_games_of_kinds_not_rated():
    games = _mixed(30)
    assert ladder.ratings(games, ["a", "b"], orders=2) == ladder.ratings(
        [g for g in games if "c" not in g.kinds], ["a", "b"], orders=2)


def test_quick_budgets_never_raise_a_kind_above_its_default_for_the_game():
    # Resource Hog's expert plays its policy alone by default: a "small" budget would slow it
    from services.bots.resource_hog import expert as hog_expert
    from services.bots.noggin import expert as noggin_expert

    assert hog_expert.DEFAULT_ITERATIONS < ladder.QUICK_ITERATIONS["expert"] <= noggin_expert.DEFAULT_ITERATIONS
    assert "expert" not in ladder.quick_iterations("resource_hog")
    assert ladder.quick_iterations("noggin") == ladder.QUICK_ITERATIONS
