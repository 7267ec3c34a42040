"""The adapters' speed figure of ``make bench`` (services/bench/interop.py) measures what it says."""

from __future__ import annotations

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
