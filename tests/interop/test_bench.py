"""The adapters' speed figure of ``make bench`` (services/bench/interop.py) measures what it says."""

from __future__ import annotations

from rich.console import Console

from services.bench import interop
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
