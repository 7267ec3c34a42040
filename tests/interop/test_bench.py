"""The adapters' speed figure of ``make bench`` (services/bench/interop.py) measures what it says."""

from __future__ import annotations

import random

from rich.console import Console

from services.bench import interop
from services.bench.sections import write_section
from services.bench.__main__ import print_tables


def test_adapter_playouts_count_whole_games_and_their_decisions():
    r = interop.adapter_playouts("resource_hog", 2, 0.0, seed="t")
    assert r["games"] == 1 and r["moves"] > 20 and r["nodes"] > r["moves"] and r["moves_per_s"] > 0


def test_make_bench_prints_the_adapter_table_and_target_5():
    row = {"game": "gnomes", "players": 2, "engine_moves_per_s": 1000.0, "adapter_moves_per_s": 850.0, "ratio": 0.85}
    console = Console(width=160, record=True)
    lines = print_tables(console, [], [], None, [row])
    assert "target 5, gnomes OpenSpiel adapter / engine decisions a second: 0.85 (met, >= 0.8)" in lines
    assert "OpenSpiel adapter decisions/s" in console.export_text()


def test_bench_interop_records_its_section_and_keeps_the_others(tmp_path, monkeypatch):
    doc = tmp_path / "benchmarks.md"
    doc.write_text("# Benchmarks\n\n## Engine\n\nkept\n\n## Targets\n\n- target 1\n", encoding="utf-8")
    monkeypatch.setattr(interop, "DOC", doc)
    monkeypatch.setattr(interop, "write_section", lambda heading, text: write_section(heading, text, doc))
    assert interop.main(["--rounds", "1", "--seconds", "0", "--game", "resource_hog", "--write"]) == 0
    text = doc.read_text(encoding="utf-8")
    assert "## Engine\n\nkept\n" in text and text.index("## Research adapters") < text.index("## Targets")
    assert 'Produced by `make bench-interop ARGS="--rounds 1 --seconds 0 --game resource_hog --write"`' in text
    row = next(line for line in text.splitlines() if line.startswith("| resource_hog | 2 |"))
    ratio = float(row.split("|")[5])
    assert ratio > 0 and f"- target 5, resource_hog OpenSpiel adapter / engine decisions a second: {ratio:.2f}" in text


def test_paired_alternates_both_sides_and_counts_whole_games():
    row = interop.paired("resource_hog", 2, 2, 0.05)
    assert row["rounds"] == 2 and row["engine_moves_per_s"] > 0 and row["adapter_moves_per_s"] > 0
    assert row["ratio"] == row["adapter_moves_per_s"] / row["engine_moves_per_s"]


class _Draws:
    """A stand-in for a pyspiel state: ``left`` chance nodes of two outcomes, 3 to 1."""

    def __init__(self, left: int, seen: list[int]):
        self.left, self.seen, self.episode = left, seen, type("Ep", (), {"moves": 0})()

    def is_terminal(self) -> bool:
        return self.left == 0

    def is_chance_node(self) -> bool:
        return True

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return [(0, 0.75), (1, 0.25)]

    def apply_action(self, action: int) -> None:
        self.seen.append(action)
        self.left -= 1


def test_adapter_games_draw_chance_by_its_probabilities():
    seen: list[int] = []
    game = type("Game", (), {"new_initial_state": lambda self: _Draws(4000, seen)})()
    moves, nodes = interop.adapter_game(game, random.Random(1))
    assert (moves, nodes) == (0, 4000)
    assert 0.72 < seen.count(0) / len(seen) < 0.78
