"""docs/API.md shows what the server does: every move example of each game's table is a move that
game parses, and every example event (each game's and the stream's) has a type and fields that
seeded games of that game really send."""

from __future__ import annotations

import json
import re
from functools import lru_cache
from pathlib import Path

import pytest

from services.rules.core.game import builtin_game_names, get_rules
from tests.support.seeded import random_game

DOC = (Path(__file__).resolve().parents[2] / "docs" / "API.md").read_text()
SECTIONS = {"noggin": "## Noggin the Nog", "gnomes": "## A Game of Gnomes", "resource_hog": "## Resource Hog"}


def section(game: str) -> str:
    start_at = DOC.index(SECTIONS[game])
    following = re.search(r"\n## ", DOC[start_at + 3:])
    return DOC[start_at: start_at + 3 + following.start()] if following else DOC[start_at:]


@lru_cache(maxsize=None)
def sent(game: str, games: int = 8) -> dict[str, set[tuple[str, ...]]]:
    """Event type -> the sets of data fields it came with, over seeded random games of 2-4 players."""
    rules = get_rules(game)
    fields: dict[str, set[tuple[str, ...]]] = {}
    for i in range(games):
        players = rules.min_players + i % (rules.max_players - rules.min_players + 1)
        for event in random_game(rules, players, f"doc-{game}-{i}", 0.4):
            fields.setdefault(event.type, set()).add(tuple(sorted(event.data)))
    return fields


def json_arrays(text: str) -> list[list[dict]]:
    """The JSON arrays of events in a section's ```json blocks (a block may hold one per line)."""
    out, decoder = [], json.JSONDecoder()
    for block in re.findall(r"```json\n(.*?)```", text, re.S):
        at = 0
        while block[at:].strip():
            at += len(block[at:]) - len(block[at:].lstrip())
            value, at = decoder.raw_decode(block, at)
            out.append(value)
    return [a for a in out if isinstance(a, list)]


def test_the_doc_covers_every_built_in_game():
    assert set(builtin_game_names()) == set(SECTIONS)


@pytest.mark.parametrize("game", list(SECTIONS))
def test_every_move_example_is_a_move_of_its_game(game):
    rules = get_rules(game)
    examples = re.findall(r'`(\{"type": [^`]*\})`', section(game))
    assert len(examples) >= 10
    for text in examples:
        rules.parse_move(json.loads(text))  # raises MalformedMove for a shape the game does not know


@pytest.mark.parametrize("game", list(SECTIONS))
def test_every_example_event_is_one_the_game_sends(game):
    events = [e for array in json_arrays(section(game)) for e in array]
    assert events
    real = sent(game)
    for event in events:
        assert event["type"] in real, event["type"]
        assert tuple(sorted(event["data"])) in real[event["type"]], event


def test_the_stream_example_is_a_real_game_s():
    block = DOC[DOC.index("### `GET /games/<id>/stream`"):DOC.index("### `GET /games/<id>/wait")]
    messages = [json.loads(line[len("data: "):]) for line in block.splitlines() if line.startswith("data: {")]
    assert [m["version"] for m in messages] == list(range(1, len(messages) + 1))
    game = messages[0]["events"][0]["data"]["config"]["game"]
    assert game in SECTIONS  # a game every newcomer has, not a test game
    real = sent(game)
    for message in messages:
        for event in message["events"]:
            assert tuple(sorted(event["data"])) in real[event["type"]], event
