"""A seeded batch of whole games between built-in bots, played on the forward model.

``python -m services.bots.batch --games 300 --seed 1 [--game noggin|gnomes]`` plays the
games in worker processes (no store, no services: the rules core alone), mixing 2-4
players, the variants and random and greedy bots, each from the batch seed, and prints
how often each thing the game must show occurred: for Noggin every action, character
ability, Counting House artefact, Invention, Year 2 building, variant and ending; for A
Game of Gnomes every action, movement kind, equipment card bought, quest taken, layout
and variant (:mod:`.batch_gnomes`). ``--require-all`` exits 1 if any of them never
occurred or a game failed; ``--report PATH`` writes the counts as JSON.

An artefact or building "occurred" when it took effect: used as an ability
(``AbilityUsed``), or named by the ``artefact``/``building`` field an event carries when
a card changes what happens (the Ring of Nudrug's cheaper bid, a free Walk of the Moon
Stone, the Silver Gong sparing Nogs, ...). An Invention occurred when it was completed.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from . import batch_gnomes, batch_resource_hog
from .batch_audience import count_audience

GREEDY_SHARE = 0.5
"""Chance that a seat is played by the greedy bot (the others are random)."""
STYLE_FACTORS = (0.25, 0.5, 1.0, 2.0, 4.0)
"""A greedy seat's style: each evaluation weight times one of these, drawn per seat, so that a
batch sees many ways of playing (some build, some chase Sagas, some hoard)."""
VARIANT_SHARE = 0.3
"""Chance that each variant is on in a game (Friend or Foe only at 4 players)."""
MOVE_CAP = 20_000


def _seed(*parts: Any) -> str:
    return hashlib.sha256(":".join(map(str, parts)).encode()).hexdigest()[:16]


def game_setup(seed: str, index: int, game: str = "noggin") -> tuple[int, dict[str, bool], list[str]]:
    """Players, variants and bot kinds of game ``index`` of a batch (all from the seed)."""
    if game in SPECS:
        return SPECS[game].game_setup(seed, index)
    from services.rules.noggin.rules import VARIANTS

    rng = random.Random(_seed(seed, index, "setup"))
    players = rng.choice((2, 3, 4))
    options = {v: True for v in VARIANTS if rng.random() < VARIANT_SHARE and (v != "friend_or_foe" or players == 4)}
    bots = ["greedy" if rng.random() < GREEDY_SHARE else "random" for _ in range(players)]
    return players, options, bots


def style(seed: str, game: str = "noggin") -> dict[str, float]:
    """A greedy seat's evaluation weights: each default weight times a factor of
    :data:`STYLE_FACTORS` drawn with ``seed``."""
    from services.bots import evaluation

    rng = random.Random(seed)
    weights = evaluation.weights(game)
    return {k: v * rng.choice(STYLE_FACTORS) for k, v in weights.items()}


def play_one(seed: str, index: int, game: str = "noggin") -> dict[str, Any]:
    """Play game ``index`` to its end; return its counts (or the error)."""
    from services.bots.decide import decide
    from services.bots.greedy_bot import GreedyBot
    from services.bots.random_bot import RandomBot
    from services.rules.core import GameConfig, get_rules
    from services.rules.core.forward import apply, apply_phase, chance_from, resolve

    players, options, kinds = game_setup(seed, index, game)
    rules = get_rules(game)
    config = GameConfig(game=game, players=players, options=options)
    rules.validate_config(config)
    chance = chance_from(_seed(seed, index, "game"))
    # stateful players (a greedy seat's own generator runs through the game) in a style each
    bots = [(GreedyBot if k == "greedy" else RandomBot)(_seed(seed, index, "seat", s)) for s, k in enumerate(kinds)]
    for s, bot in enumerate(bots):
        if bot.kind == "greedy":
            bot.weights = style(_seed(seed, index, "style", s), game)
    state = rules.new_state()
    counts: Counter[str] = Counter()
    out: dict[str, Any] = {"index": index, "players": players, "options": sorted(options), "bots": kinds}
    try:
        created = rules.created_event(config)
        rules.evolve(state, created)
        count = _counter(game)
        count([created, *resolve(rules, state, rules.setup_ops(config), chance)], counts)
        moves = 0
        while rules.outcome(state) is None:
            if moves >= MOVE_CAP:
                raise RuntimeError(f"no end after {MOVE_CAP} moves")
            if rules.pending_phase(state):
                events = apply_phase(rules, state, chance)
            else:
                seat = rules.to_move(state)[0]
                legal = rules.legal_moves(state, seat)
                if not legal:
                    raise RuntimeError(f"seat {seat} has no legal move")
                bot = bots[seat]
                if kinds[seat] == "expert":  # a game's strongest bot, deciding from the seat's view
                    move = decide("expert", _seed(seed, index, "seat", seat), rules, state, seat, moves, legal)
                else:
                    move = bot.choose(legal, rules.view(state, seat), game) if bot.kind == "greedy" \
                        else bot.choose(legal)
                events = apply(rules, state, seat, move, chance, checked=True)
                moves += 1
            count(events, counts)
        outcome = rules.outcome(state)
        out.update(moves=moves, counts=dict(counts), **({"crown": outcome["crown"]} if game == "noggin" else
                                                         {"week": state.calendar} if game == "gnomes" else
                                                         {"reason": outcome["reason"]}))
    except Exception as exc:  # a failed game is reported with its seed, the batch goes on
        out.update(error=f"{type(exc).__name__}: {exc}", counts=dict(counts))
    return out


SPECS: dict[str, Any] = {"gnomes": batch_gnomes, "resource_hog": batch_resource_hog}
"""Games other than Noggin, each a module with ``game_setup``, ``count_events`` and ``expected``."""


def _counter(game: str) -> Any:
    return SPECS[game].count_events if game in SPECS else count_events


def count_events(events: list[Any], counts: Counter[str]) -> None:
    """Add what ``events`` show occurred to ``counts`` (keys ``<category>:<name>``)."""
    from services.rules.noggin import content

    ch = content.counting_house_index()
    year2 = {b.id for b in content.load().buildings.year2}
    from services.rules.noggin.state import visibility

    for e in events:
        d = e.data
        t = e.type
        count_audience(e, visibility(t), counts)
        if t == "ActionStarted":
            counts[f"action:{d['action']}"] += 1
        elif t == "CharacterUsed":
            counts[f"character:{d['character']}"] += 1
        elif t == "AbilityUsed":
            card = d["card"]
            counts[(f"artefact:{card}" if card in ch else f"ability:{card}")] += 1
        elif t == "CrowTurned" and d.get("used"):
            counts[f"artefact:{d['used']}"] += 1
        elif t == "SagaEndStage" and d.get("fireworks"):
            counts["artefact:fireworks"] += 1
        elif t == "InventionCompleted":
            counts[f"invention:{d['card']}"] += 1
        elif t == "BuildingBuilt" and d["building"] in year2:
            counts[f"year2:{d['building']}"] += 1
        elif t == "GameEnded":
            counts[f"ending:{d['crown']}"] += 1
        if t in ("BuildingBuilt", "TransportUpgraded") and d.get("genie"):
            counts["artefact:good_genie"] += 1
        if d.get("artefact"):
            counts[f"artefact:{d['artefact']}"] += 1


def expected(game: str = "noggin") -> dict[str, list[str]]:
    """Every name the batch must see at least once, by category."""
    if game in SPECS:
        return SPECS[game].expected()
    from services.rules.noggin import content
    from services.rules.noggin.rules import VARIANTS
    from services.rules.noggin.state import ACTIONS

    c = content.load()
    return {"action": list(ACTIONS), "character": [x.id for x in c.characters.characters],
            "artefact": [x.id for x in c.counting_house.cards], "invention": [x.id for x in c.inventions.inventions],
            "year2": [b.id for b in c.buildings.year2], "variant": list(VARIANTS), "ending": ["noggin", "nogbad"]}


def run_batch(games: int, seed: str, workers: int, game: str = "noggin",
              indices: list[int] | None = None) -> list[dict[str, Any]]:
    """Play the batch (in ``workers`` processes) and return every game's result, in order.

    ``indices`` plays only those games of the batch (each as the whole batch would play it:
    a game depends only on the seed and its index), e.g. a :func:`cover` of it; ``games`` is
    then ignored."""
    chosen = list(range(games)) if indices is None else list(indices)
    if workers <= 1 or len(chosen) <= 1:
        return [play_one(seed, i, game) for i in chosen]
    with ProcessPoolExecutor(max_workers=workers) as pool:
        return list(pool.map(play_one, [seed] * len(chosen), chosen, [game] * len(chosen), chunksize=2))


def cover(results: list[dict[str, Any]]) -> list[int]:
    """A small set of the batch's game indices that together see everything the whole batch
    saw (every count of :func:`totals` above zero, leaks aside, and every player count), by the greedy set cover
    (Chvátal, "A greedy heuristic for the set-covering problem", 1979): sorted indices.

    ``make test`` plays such a cover of each batch instead of all of it (the whole batch is
    ``make batch``); re-derive it with ``python -m services.bots.batch --cover`` when a rule
    change moves what the games do."""
    seen = {r["index"]: {k for k in totals([r]) if not k.startswith("leak:")} | {f"players:{r['players']}"}
            for r in results if "error" not in r}
    wanted = set().union(*seen.values()) if seen else set()
    chosen: list[int] = []
    while wanted:
        best = max(sorted(seen), key=lambda i: len(seen[i] & wanted))
        chosen.append(best)
        wanted -= seen[best]
    return sorted(chosen)


def totals(results: list[dict[str, Any]]) -> Counter[str]:
    """Counts over the batch, plus ``variant:<name>`` (games played with it)."""
    total: Counter[str] = Counter()
    for r in results:
        total.update(r["counts"])
        for v in r["options"]:
            total[f"variant:{v}"] += 1
    return total


def main(argv: list[str] | None = None) -> int:
    from rich.console import Console
    from rich.table import Table

    parser = argparse.ArgumentParser(description="a seeded batch of embedded bot games")
    parser.add_argument("--game", default="noggin", choices=("noggin", "gnomes", "resource_hog"))
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--seed", default="1")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--report", help="write the counts as JSON")
    parser.add_argument("--cover", action="store_true",
                        help="also print a small set of game indices that sees all the batch saw (see cover)")
    parser.add_argument("--require-all", action="store_true",
                        help="exit 1 if a game failed or anything expected never occurred")
    args = parser.parse_args(argv)
    start = time.monotonic()
    results = run_batch(args.games, args.seed, args.workers, args.game)
    elapsed = time.monotonic() - start
    total = totals(results)
    failed = [r for r in results if "error" in r]
    console = Console()
    missing = []
    for category, names in expected(args.game).items():
        table = Table(title=f"{category} ({args.games} games)")
        table.add_column(category)
        table.add_column("occurred", justify="right")
        for name in names:
            n = total.get(f"{category}:{name}", 0)
            if n == 0:
                missing.append(f"{category}:{name}")
            table.add_row(name, str(n) if n else "[red]0[/red]")
        console.print(table)
    moves = sum(r.get("moves", 0) for r in results)
    print(f"batch: {args.game}, {args.games} games, seed {args.seed}, {moves} moves in {elapsed:.1f} s; "
          f"{len(failed)} failed; never occurred: {', '.join(missing) or 'none'}")
    if args.cover:
        print(f"cover: {cover(results)}")
    for r in failed:
        print(f"game {r['index']} (players {r['players']}, options {r['options']}, bots {r['bots']}): {r['error']}")
    if args.report:
        with open(args.report, "w", encoding="utf-8") as f:
            json.dump({"games": results, "totals": dict(total), "missing": missing}, f, indent=1)
    return 1 if args.require_all and (failed or missing) else 0


if __name__ == "__main__":
    sys.exit(main())
