"""The game catalog: what each registered game is, in data a client can read.

For each game (:func:`game_entry`): its ``name`` and ``title``, its seat counts, its options
(variants) with a line of help each, the JSON Schema of its moves (``move_schema``, made by
pydantic from the game's strict move models, :meth:`Rules.move_model`) and the JSON Schema of its
player view (``view_schema``).

A player view is plain data built by each game's ``views.py``, with no model of its own, so its
schema is *inferred* (:func:`infer_schema`) from the views of seeded random games played on the
forward model (:func:`sample_views`): every seat's view and the spectator's, at every step. The
inferred schemas are files of the game packages (``services/rules/<game>/view_schema.json``),
written by ``python -m services.rules.catalog --write`` and checked by the tests, which validate
the views of other seeded games against them. Object keys that are numbers (seats) or that vary
from view to view (card and site names) are described as ``additionalProperties``; a key present
in every sample is ``required``.

The gateway serves the catalog at ``GET /catalog`` and ``GET /catalog/<game>``
(:mod:`gateway.catalog`, which adds the built-in bot kinds).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from importlib import resources
from pathlib import Path
from typing import Any, Iterable, Iterator

from services.rules.core import forward
from services.rules.core.errors import BadConfig
from services.rules.core.game import GameConfig, Rules, builtin_game_names, game_names, get_rules

VIEW_SCHEMA_FILE = "view_schema.json"
"""The inferred player-view schema's file name in a game's package."""
LOOSE_MOVE_SCHEMA: dict[str, Any] = {
    "type": "object", "required": ["type"], "properties": {"type": {"type": "string"}},
    "description": "A move of a game without a move model: any JSON object with a string \"type\".",
}
"""The move schema of a game whose moves have no model (the tests' tiny games)."""
ANY_OBJECT: dict[str, Any] = {"type": "object", "description": "A player view (no schema recorded for this game)."}
"""The view schema of a game with no recorded one."""
_VARYING_KEYS = 12
"""An object seen with more distinct keys than this, none of them in every sample, is a map."""


def move_schema(rules: Rules) -> dict[str, Any]:
    """The JSON Schema (2020-12) of ``rules``' moves: the discriminated union of its strict move
    models (``oneOf`` by ``"type"``, extra fields forbidden), or :data:`LOOSE_MOVE_SCHEMA`."""
    model = rules.move_model()
    if model is None:
        return dict(LOOSE_MOVE_SCHEMA)
    return model.json_schema(by_alias=True)


def view_schema(rules: Rules) -> dict[str, Any]:
    """The recorded player-view schema of ``rules``' game (its package's :data:`VIEW_SCHEMA_FILE`),
    or :data:`ANY_OBJECT` when the game has none. Raises ValueError for a file that is not JSON."""
    package = type(rules).__module__.rpartition(".")[0]
    try:
        text = resources.files(package).joinpath(VIEW_SCHEMA_FILE).read_text()
    except (FileNotFoundError, ModuleNotFoundError, OSError):
        return dict(ANY_OBJECT)
    return json.loads(text)


def options(rules: Rules) -> list[dict[str, Any]]:
    """``[{"name", "type": "boolean", "default": false, "help"}]``, one per option, by name."""
    return [{"name": name, "type": "boolean", "default": False, "help": rules.option_help.get(name, "")}
            for name in sorted(rules.option_names)]


def game_entry(name: str) -> dict[str, Any]:
    """The catalog entry of game ``name``: ``{"name", "title", "seats": {"min", "max"}, "options",
    "move_schema", "view_schema"}``. Raises UnknownGame."""
    rules = get_rules(name)
    return {"name": rules.name, "title": rules.title,
            "seats": {"min": rules.min_players, "max": rules.max_players},
            "options": options(rules), "move_schema": move_schema(rules), "view_schema": view_schema(rules)}


def catalog_names() -> list[str]:
    """Every registered game's name, the built-in ones first (each group by name)."""
    builtin = builtin_game_names()
    return builtin + [n for n in game_names() if n not in builtin]


# -- inferring a view's schema ---------------------------------------------------------------
def _kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, (list, tuple)):
        return "array"
    if isinstance(value, dict):
        return "object"
    raise TypeError(f"not JSON data: {type(value).__name__}")


class _Shape:
    """What the samples of one place in a document looked like (the kinds, and for objects and
    arrays what they held)."""

    def __init__(self) -> None:
        self.kinds: set[str] = set()
        self.objects = 0
        self.keys: dict[str, _Shape] = {}
        self.key_counts: dict[str, int] = {}
        self.items: _Shape | None = None

    def add(self, value: Any) -> None:
        kind = _kind(value)
        self.kinds.add(kind)
        if kind == "object":
            self.objects += 1
            for key, item in value.items():
                self.keys.setdefault(key, _Shape()).add(item)
                self.key_counts[key] = self.key_counts.get(key, 0) + 1
        elif kind == "array":
            if self.items is None:
                self.items = _Shape()
            for item in value:
                self.items.add(item)

    def _merged_values(self) -> "_Shape":
        merged = _Shape()
        for shape in self.keys.values():
            merged.merge(shape)
        return merged

    def merge(self, other: "_Shape") -> None:
        self.kinds |= other.kinds
        self.objects += other.objects
        for key, shape in other.keys.items():
            self.keys.setdefault(key, _Shape()).merge(shape)
            self.key_counts[key] = self.key_counts.get(key, 0) + other.key_counts[key]
        if other.items is not None:
            if self.items is None:
                self.items = _Shape()
            self.items.merge(other.items)

    def schema(self) -> dict[str, Any]:
        kinds = sorted(self.kinds)
        if "integer" in kinds and "number" in kinds:
            kinds.remove("integer")
        out: dict[str, Any] = {}
        if kinds:
            out["type"] = kinds[0] if len(kinds) == 1 else kinds
        if "object" in self.kinds and self.keys:
            always = [k for k, n in self.key_counts.items() if n == self.objects]
            numeric = all(k.lstrip("-").isdigit() for k in self.keys)
            if numeric or (len(self.keys) > _VARYING_KEYS and not always):
                out["additionalProperties"] = self._merged_values().schema()
                if numeric:
                    out["propertyNames"] = {"pattern": "^-?[0-9]+$"}
            else:
                out["properties"] = {k: self.keys[k].schema() for k in sorted(self.keys)}
                if always:
                    out["required"] = sorted(always)
        if "array" in self.kinds and self.items is not None and self.items.kinds:
            out["items"] = self.items.schema()
        return out


def infer_schema(samples: Iterable[Any], title: str | None = None) -> dict[str, Any]:
    """A JSON Schema (2020-12) that every one of ``samples`` (JSON data) satisfies: the kinds seen
    at each place, the properties of objects (``required`` when in every sample; maps keyed by
    seat numbers or by many varying names as ``additionalProperties``), the items of arrays.
    Objects stay open (unknown keys pass), so a view with a field no sample showed still validates.
    Raises TypeError for a sample that is not JSON data."""
    shape = _Shape()
    for sample in samples:
        shape.add(sample)
    out = {"$schema": "https://json-schema.org/draft/2020-12/schema", **shape.schema()}
    if title:
        out["title"] = title
    return out


def _configs(rules: Rules, games: int, rng: random.Random) -> Iterator[GameConfig]:
    names = sorted(rules.option_names)
    for i in range(games):
        players = rules.min_players + i % (rules.max_players - rules.min_players + 1)
        chosen = {n: True for n in names if rng.random() < 0.5}
        config = GameConfig(game=rules.name, players=players, options=chosen)
        try:
            rules.validate_config(config)
        except BadConfig:  # an option the seat count does not take (Friend or Foe: 4 only)
            config = GameConfig(game=rules.name, players=players)
        yield config


def sample_views(name: str, games: int, seed: str, max_steps: int = 600) -> Iterator[dict[str, Any]]:
    """The player views of ``games`` seeded random games of ``name`` on the forward model (seat
    counts cycling through the game's range, options at random): at every step, every seat's view
    and the spectator's. ``max_steps`` (phases and moves) bounds each game."""
    rules = get_rules(name)
    rng = random.Random(f"views:{name}:{seed}")
    for i, config in enumerate(_configs(rules, games, rng)):
        chance = forward.chance_from(f"{seed}:{name}:{i}")
        state, _ = forward.start(rules, config, chance)
        steps = 0
        while True:
            for seat in [*range(config.players), None]:
                yield rules.view(state, seat)
            if rules.outcome(state) is not None or steps >= max_steps:
                break
            steps += 1
            if rules.pending_phase(state):
                forward.apply_phase(rules, state, chance)
                continue
            seat = rules.to_move(state)[0]
            legal = rules.legal_moves(state, seat)
            forward.apply(rules, state, seat, rng.choice(legal), chance, checked=True)


def main(argv: list[str] | None = None) -> int:
    """``python -m services.rules.catalog [--write] [--games N] [--seed S] [--game NAME]``: infer each
    built-in game's player-view schema from N seeded random games and print its size, or with
    ``--write`` store it as the game package's ``view_schema.json``. Returns 0."""
    parser = argparse.ArgumentParser(description="Infer the player-view schemas of the game catalog.")
    parser.add_argument("--write", action="store_true", help="write services/rules/<game>/view_schema.json")
    parser.add_argument("--games", type=int, default=12, help="seeded random games per game")
    parser.add_argument("--seed", default="catalog")
    parser.add_argument("--game", action="append", help="a game (default: every built-in game)")
    args = parser.parse_args(argv)
    for name in args.game or builtin_game_names():
        rules = get_rules(name)
        schema = infer_schema(sample_views(name, args.games, args.seed),
                              title=f"{rules.title}: a player view (inferred from {args.games} seeded games)")
        text = json.dumps(schema, indent=1, sort_keys=True) + "\n"
        if args.write:
            path = Path(sys.modules[type(rules).__module__].__file__).parent / VIEW_SCHEMA_FILE
            path.write_text(text)
            print(f"{name}: {len(text)} bytes -> {path.name}")
        else:
            print(f"{name}: {len(text)} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
