"""docs/API.md lists A Game of Gnomes' move shapes with an example each: every example is a
valid move, every move shape of the game has one, and the example events are what the
rules send for that move."""

import json
import re
from pathlib import Path

from services.rules.gnomes import moves

from .helpers import RULES, active, arrange, new_game, play

DOC = Path(__file__).resolve().parents[3] / "docs" / "API.md"


def _section() -> str:
    return DOC.read_text(encoding="utf-8").split("## A Game of Gnomes: options and moves", 1)[1].split("\n## ", 1)[0]


def test_every_example_is_a_valid_move_and_every_shape_has_one():
    examples = [json.loads(m) for m in re.findall(r"\| `(\{.*?\})` \|", _section())]
    parsed = [RULES.parse_move(e) for e in examples]
    types = set(re.findall(r'type: Literal\["(\w+)"\]', Path(moves.__file__).read_text()))
    assert len(types) == 16 and types == {m["type"] for m in parsed}


def test_the_example_events_are_what_a_scout_and_a_move_send():
    blocks = re.findall(r"```json\n(.*?)```", _section(), re.S)
    lines = [json.loads(x) for x in blocks[0].replace("}]\n[{", "}]\n\n[{").split("\n\n") if x.strip()]
    state, chance = new_game(3, seed="doc")
    seat = active(state)
    scouted = [e.to_json() for e in play(state, seat, {"type": "scout"}, chance)]
    arrange(state, seat, hand=["meadow"])
    moved = [e.to_json() for e in play(state, seat, {"type": "travel", "card": "meadow", "path": ["g1"]}, chance)]
    assert [scouted, moved] == lines


def test_the_view_carries_the_map_a_client_needs():
    """The view's ``routes`` list every board path with its terrain, the mountain's levels as
    the icons that cross them, and the river sections and lake crossings (rulebook C.1, G)."""
    from services.rules.gnomes.content import content

    state, _ = new_game(2, seed="routes")
    view = RULES.view(state, 0)
    land = {(a, b): set(icons) for a, b, icons in view["routes"]["land"]}
    for p in content().board.paths:
        assert land[tuple(sorted((p.a, p.b)))] == {p.terrain}
    assert land[("g1", "g2")] == {"meadow", "forest"} and land[("r1", "r2")] == {"mountain"}
    water = {(a, b): kind for a, b, kind in view["routes"]["water"]}
    assert water[("s05", "s08")] == "river" and water[("s14", "s19")] == "lake" and len(water) == 3 + 6


def test_each_view_has_its_own_routes():
    """The routes are worked out once, but each view gets its own lists: a caller that changes
    one view's routes changes no other view (nor the next one)."""
    state, _ = new_game(2, seed="routes")
    first = RULES.view(state, 0)
    expected = json.loads(json.dumps(first["routes"]))
    first["routes"]["land"][0][2].append("changed")
    first["routes"]["water"][0][2] = "changed"
    first["routes"]["land"].pop()
    assert RULES.view(state, 1)["routes"] == expected
