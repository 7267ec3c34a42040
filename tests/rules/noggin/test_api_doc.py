"""docs/API.md lists Noggin's move shapes with an example each: every example is a valid
move, and every move shape of the game has an example."""

import json
import re
from pathlib import Path

from services.rules.noggin import moves

from .helpers import RULES

DOC = Path(__file__).resolve().parents[3] / "docs" / "API.md"


def _examples() -> list[dict]:
    text = DOC.read_text(encoding="utf-8")
    section = text.split("## Noggin the Nog: options and moves", 1)[1].split("\n## ", 1)[0]
    return [json.loads(m) for m in re.findall(r"\| `(\{.*?\})` \|", section)]


def test_every_example_is_a_valid_move_and_every_shape_has_one():
    examples = _examples()
    assert len(examples) >= 25
    parsed = [RULES.parse_move(e) for e in examples]
    shapes = {(m["type"], m.get("op")) for m in parsed}
    wanted = {("miner", "dig"), ("miner", "walk"), ("miner", "discover"), ("fisherman", None),
              ("fishing_tokens", None), ("woodcutter", "advance"), ("farmer", "sow"), ("farmer", "apple"),
              ("builder", None), ("restock", None), ("market_day", "trade"), ("market_day", "character"),
              ("market_day", "evict"), ("market_day", "auction"), ("market_day", "saga"),
              ("market_day", "invention"), ("draw_reserve", None), ("bid", None), ("keep_card", None),
              ("knut", None), ("seers_tower", None), ("fireworks", None), ("donate", None), ("use", None),
              ("recall", None), ("accuse", None), ("finish", None), ("end_turn", None)}
    assert wanted <= shapes
    types = set(re.findall(r'type: Literal\["(\w+)"\]', Path(moves.__file__).read_text()))
    assert len(types) >= 20 and types <= {t for t, _ in shapes}
