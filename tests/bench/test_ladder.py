"""The bot ladder (``make bench-bots``, :mod:`services.bench.ladder`): how it counts games, rates
kinds and judges the targets, and its short version end to end (a few games a cell with small
budgets: it shows the ladder runs, never a claim about strength)."""

from __future__ import annotations

import pytest

from services.bench import ladder
from services.bench.sections import recorded_section, write_section
from services.bots.arena import GameRecord


def _rec(kinds, scores, winners, crown=None, cpu=None):
    n = len(kinds)
    return GameRecord("noggin", "s", list(kinds), scores=list(scores), winners=list(winners), crown=crown,
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
    assert ladder.ratings(selfplay, ["random"])["random"] == (25.0, pytest.approx(25 / 3))


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
