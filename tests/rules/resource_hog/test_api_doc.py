"""docs/API.md lists Resource Hog's move shapes with an example each: every example is a valid
move, every shape has one, and the example events are what two seats' orders send."""

import json
import re
from pathlib import Path

from services.rules.core import GameConfig
from services.rules.core.forward import apply, chance_from, resolve
from services.rules.resource_hog import GAME as RULES
from services.rules.resource_hog import moves

DOC = Path(__file__).resolve().parents[3] / "docs" / "API.md"


def _section() -> str:
    return DOC.read_text(encoding="utf-8").split("## Resource Hog: moves", 1)[1].split("\n## ", 1)[0]


def test_every_example_is_a_valid_move_and_every_shape_has_one():
    examples = [json.loads(m) for m in re.findall(r"\| `(\{.*?\})` \|", _section())]
    parsed = [RULES.parse_move(e) for e in examples]
    types = set(re.findall(r'type: Literal\["(\w+)"\]', Path(moves.__file__).read_text()))
    assert len(types) == 10 and types == {m["type"] for m in parsed}


def test_the_example_events_are_what_two_seats_orders_send():
    lines = [json.loads(x) for x in re.findall(r"```json\n(.*?)```", _section(), re.S)[0].splitlines() if x.strip()]
    config = GameConfig(game="resource_hog", players=2)
    state = RULES.new_state()
    RULES.evolve(state, RULES.created_event(config))
    chance = chance_from("doc")
    resolve(RULES, state, RULES.setup_ops(config), chance)
    first = apply(RULES, state, 0, {"type": "orders", "order": ["peasants", "nobles", "trade"]}, chance)
    second = apply(RULES, state, 1, {"type": "orders", "order": ["trade", "peasants", "nobles"]}, chance)
    assert [[e.to_json() for e in first], [e.to_json() for e in second]] == lines
