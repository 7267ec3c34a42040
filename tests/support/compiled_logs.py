"""Seeded games of every game, their event logs and state hashes printed as one JSON line, for
``tests/rules/test_compiled.py``: run as ``python -m tests.support.compiled_logs`` once with
the compiled rules and once with ``LONGHOUSE_PURE_PYTHON=1``, the two outputs must be equal.

Each game is played three ways: random games on the forward model at every seat count with
variants drawn (:func:`tests.support.seeded.random_game`), clones taken along one of them and
played out on their own (the copy-on-write path search takes), and one game on an embedded
Table with random bots (the store's log and the state hash the services see).
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from typing import Any

import services.rules
from services.bots.random_bot import RandomBot
from services.coordinator.embedded import play_embedded
from services.coordinator.table import embedded_table
from services.rules.core import GameConfig, events_to_json, get_rules, state_hash
from services.rules.core.forward import apply, apply_phase, chance_from, clone, play_out, start
from tests.support.seeded import random_game

GAMES = ("gnomes", "noggin", "resource_hog")
SEED = "compiled"
MOVE_CAP = 5000  # failure guard only


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def forward_logs(game: str, seeds: int = 3) -> dict[str, str]:
    """``{"<seats>:<k>": events JSON}`` of ``seeds`` random games per seat count, variants drawn."""
    rules = get_rules(game)
    return {f"{n}:{k}": events_to_json(random_game(rules, n, f"{SEED}:{game}:{n}:{k}", option_share=0.5))
            for n in range(rules.min_players, rules.max_players + 1) for k in range(seeds)}


def clone_playouts(game: str, every: int = 40) -> list[str]:
    """The state hash after a random playout of a clone taken every ``every`` decisions of one
    seeded game (the original goes on after each clone is played out)."""
    rules = get_rules(game)
    chance = chance_from(f"{SEED}:{game}:clones")
    rng = random.Random(f"{SEED}:{game}:clones")
    state, _ = start(rules, GameConfig(game=game, players=rules.min_players + 1), chance)
    hashes, decisions = [], 0
    while rules.outcome(state) is None:
        if rules.pending_phase(state):
            apply_phase(rules, state, chance)
            continue
        seat = rules.to_move(state)[0]
        legal = rules.legal_moves(state, seat)
        if decisions % every == 0:
            copy = clone(rules, state)
            play_out(rules, copy, chance_from(f"{SEED}:{decisions}"), lambda s, moves: rng.choice(moves), MOVE_CAP)
            hashes.append(state_hash(copy))
        apply(rules, state, seat, rng.choice(legal), chance)
        decisions += 1
    hashes.append(state_hash(state))
    return hashes


def table_game(game: str, players: int = 3) -> dict[str, Any]:
    """One game on an embedded Table with random bots: its log (version, kind, seat and events of
    every entry) and its final state hash."""
    table = embedded_table()
    gid = table.create(GameConfig(game=game, players=players), seed=f"{SEED}:{game}:table")
    play_embedded(table, gid, [RandomBot(f"bot-{s}") for s in range(players)], MOVE_CAP)
    log = [[e.version, e.kind, e.seat, events_to_json(e.events)] for e in table.store.read(gid)]
    return {"log": _digest(json.dumps(log)), "entries": len(log), "state_hash": table.summary(gid)["state_hash"]}


def logs() -> dict[str, Any]:
    """Everything :mod:`tests.support.compiled_logs` prints: per game the digests of its forward
    logs (and their lengths), its clones' hashes and its Table game; and the rules modules that
    were loaded compiled."""
    out: dict[str, Any] = {}
    for game in GAMES:
        forward = forward_logs(game)
        out[game] = {"forward": {n: _digest(text) for n, text in forward.items()},
                     "forward_bytes": {n: len(text) for n, text in forward.items()},
                     "clones": clone_playouts(game), "table": table_game(game)}
    return {"games": out, "compiled": services.rules.compiled_modules(), "stale": services.rules.FINDER.stale}


if __name__ == "__main__":
    json.dump(logs(), sys.stdout, sort_keys=True)
    print()
