"""Result files: standings.json and standings.csv read back as written; ratings.png is a PNG."""

import json
import struct

import pytest

from services.tournament.formats import plan_round_robin
from services.tournament.standings import (
    CSV_COLUMNS,
    MatchResult,
    compute,
    plot_ratings,
    read_csv,
    read_json,
    write_csv,
    write_json,
)

from .helpers import play

NAMES = ["ann", "bob", "cat", "dan"]


@pytest.fixture
def tournament():
    strength = {"ann": 3, "bob": 1, "cat": 2, "dan": 0}
    results = [play(m, strength) for m in plan_round_robin(NAMES, 2, "files", ["noggin"])]
    results.append(MatchResult(index=len(results), game="noggin", seats=["ann", "bob"], ended_by="error",
                               error="worker lost"))
    return results, compute(NAMES, results)


def test_json_round_trip(tmp_path, tournament):
    results, st = tournament
    meta = {"format": "round_robin", "players": 2, "games": ["noggin"], "seed": "files", "participants": NAMES}
    path = write_json(tmp_path / "out" / "standings.json", st, list(reversed(results)), meta)
    raw = json.loads(path.read_text())
    assert {"tournament", "standings", "matches"} <= set(raw)
    assert raw["tournament"] == meta
    assert [row["name"] for row in raw["standings"]] == [r.name for r in st.rows]
    assert [m["index"] for m in raw["matches"]] == list(range(len(results))), "matches in index order"
    back = read_json(path)
    assert back.standings == st.rows
    assert back.matches == results
    assert back.failed == st.failed == [len(results) - 1]
    assert back.rating["model"] == "PlackettLuce"


def test_csv_round_trip(tmp_path, tournament):
    _, st = tournament
    path = write_csv(tmp_path / "standings.csv", st)
    lines = path.read_text().splitlines()
    assert lines[0] == ",".join(CSV_COLUMNS)
    assert len(lines) == 1 + len(NAMES)
    assert {"name", "matches", "wins", "win_rate", "average_score", "strikes", "default_moves", "forfeits",
            "mu", "sigma", "ordinal"} <= set(CSV_COLUMNS)
    assert read_csv(path) == st.rows, "floats are written at full precision"
    assert [r.name for r in read_csv(path)] == ["ann", "cat", "bob", "dan"]


def test_ratings_png(tmp_path, tournament):
    _, st = tournament
    path = plot_ratings(tmp_path / "plots" / "ratings.png", st.history)
    data = path.read_bytes()
    assert len(data) > 0
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert data[12:16] == b"IHDR"
    width, height = struct.unpack(">II", data[16:24])
    assert width > height > 0


def test_ratings_png_needs_a_history(tmp_path):
    with pytest.raises(ValueError, match="no rating history"):
        plot_ratings(tmp_path / "ratings.png", [])
