"""``services.bench.instructions``: the fixed playouts it counts are the same games every time,
and without valgrind it says so instead of failing (issue 25: a cost measure a shared machine's
speed does not move)."""

from __future__ import annotations

import pytest

from services.bench import instructions


def test_the_counted_games_are_the_same_on_every_call() -> None:
    first = instructions.fixed_games("noggin", 3, 2)
    assert first > 100 and instructions.fixed_games("noggin", 3, 2) == first
    assert instructions.fixed_games("noggin", 3, 0) == 0


def test_without_valgrind_it_says_so(monkeypatch, capsys) -> None:
    monkeypatch.setattr(instructions.shutil, "which", lambda name: None)
    with pytest.raises(FileNotFoundError, match="valgrind"):
        instructions.count("noggin", 3, 1)
    assert instructions.main(["noggin", "--games", "1"]) == 2
    assert "valgrind is not installed" in capsys.readouterr().out


def test_an_unknown_game_or_no_games_is_refused_before_valgrind_runs(monkeypatch, capsys) -> None:
    monkeypatch.setattr(instructions, "count", lambda *a, **k: pytest.fail("valgrind ran"))
    for argv, said in ((["chess"], "no game 'chess'"), (["noggin", "--games", "0"], "must be >= 1")):
        with pytest.raises(SystemExit) as stop:
            instructions.main(argv)
        assert stop.value.code == 2 and said in capsys.readouterr().err
