"""The board drawings' printed tables agree with the games' content files.

A drawing is a pure function of the view, which gives ids, not every name or price, so each
module prints what a board or card shows (names, prices, a land's coast). These tests read the
modules' source and check each printed fact against ``services/rules/<game>/content/``, so a
change of content cannot leave a drawing telling another story. No browser needed.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BOARDS = ROOT / "gateway" / "web" / "static" / "boards"


def content(game: str, name: str) -> dict:
    return json.loads((ROOT / "services" / "rules" / game / "content" / name).read_text())


def source(game: str) -> str:
    """The game's drawing module, with the names it shares with the log's words (``names.js``)."""
    return (BOARDS / f"{game}.js").read_text() + (BOARDS / "names.js").read_text()


def printed(src: str, key: str, value: object) -> bool:
    """``key: value`` (a JS object entry, the value as JSON) appears in ``src``."""
    return re.search(rf"\b{re.escape(key)}: {re.escape(json.dumps(value, ensure_ascii=False))}", src) is not None


def test_noggin_names():
    src = source("noggin")
    b = content("noggin", "buildings.json")
    tables = [(x["id"], x["name"]) for x in b["year1"] + b["year2"]]
    tables += [(x["id"], x["name"]) for x in content("noggin", "inventions.json")["inventions"]]
    tables += [(x["id"], x["name"]) for x in content("noggin", "counting_house.json")["cards"]]
    characters = content("noggin", "characters.json")
    tables += [(x["id"], x["name"]) for x in characters["characters"]]
    missing = [(k, v) for k, v in tables if not printed(src, k, v)]
    assert missing == []
    for quarter in characters["wheel"]:
        assert json.dumps(quarter["name"]) in src


def test_gnomes_cards_and_calendar():
    src = source("gnomes")
    cards = content("gnomes", "cards.json")
    for x in cards["shop"] + cards["treasures"]:
        assert printed(src, x["id"], x["cost"]), x["id"]
        if not x["id"].startswith("map_"):
            assert printed(src, x["id"], x["name"]), x["id"]
    for x in cards["treasures"]:
        assert re.search(rf"{x['id']}: {x['value']}\b", src.split("TREASURE_VALUE", 1)[1]), x["id"]
    for x in cards["starting_equipment"]:
        assert printed(src, x["id"], x["name"])
    assert {q["id"] for q in cards["quests"]} <= set(re.findall(r"^  (\w+): \[", src, re.M))
    for q in cards["quests"]:
        assert re.search(rf"{q['id']}: \[.*, {q['penalty']}\],", src), q["id"]
    cal = content("gnomes", "calendar.json")
    assert cal["end"] == 52 and [s["from"] for s in cal["seasons"]] == [0, 13, 25, 37]
    board = content("gnomes", "board.json")
    sites = set(re.findall(r"\b(s\d\d): \[", src))
    assert sites == set(board["sites"])
    assert set(re.findall(r"\b([grn]\d): \[", src)) == {s for lv in board["mountain"]["levels"].values() for s in lv}


def test_resource_hog_map_and_trading_board():
    src = source("resource_hog")
    m = content("resource_hog", "map.json")
    for land in m["lands"]:
        assert re.search(rf'{land["id"]}: \["{land["name"]}", "{land["coast"]}"\]', src), land["id"]
    for w in m["waters"]:
        assert re.search(rf'{w["id"]}: \["{w["name"]}", {w["max"]}\]', src), w["id"]
    trading = content("resource_hog", "trading.json")
    for good, prices in trading["goods"].items():
        assert printed(src, good, prices), good
    assert f"SLAVE_PRICE = {trading['slave_price']}" in src and f"MERCENARY_PRICE = {trading['mercenary_price']}" in src
    setup = content("resource_hog", "setup.json")
    assert f"ROUNDS = {setup['rounds']}" in src
    for k, n in setup["wealth"].items():
        assert printed(src, k, n), k
