"""The research adapters' speed (issue 24, target 5): random games through the OpenSpiel adapter
(``services.interop.openspiel``: chance nodes, legal actions and actions through ``pyspiel``)
against the engine's own random playouts (:func:`services.bench.engine.playouts`), alternated
round by round in one run; both count the seats' decisions (moves) a second.
"""

from __future__ import annotations

import random
import statistics
import time
from typing import Any

from . import engine

TARGET = 0.8
"""Random games through the OpenSpiel adapter reach at least this share of the engine's decisions a second."""


def adapter_playouts(game: str, players: int, seconds: float, seed: str = "bench") -> dict[str, float]:
    """Random games of ``game`` through ``pyspiel`` for about ``seconds`` (whole games, chance
    drawn by its probabilities, decisions uniform among the legal actions). Returns
    ``{"games", "moves", "nodes", "seconds", "moves_per_s"}``: ``moves`` are the seats'
    decisions (as the engine counts them), ``nodes`` every node (chance included).

    Raises ImportError without the ``interop`` extra (open_spiel)."""
    import pyspiel

    from services.interop.openspiel import GAMES

    g = pyspiel.load_game(f"{GAMES[game]}(players={players},max_moves=100000)")
    rng = random.Random(seed)
    moves = nodes = games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds or games == 0:
        state = g.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            else:
                actions = state.legal_actions()
                state.apply_action(actions[rng.randrange(len(actions))])
            nodes += 1
        moves += state.episode.moves
        games += 1
    elapsed = time.perf_counter() - start
    return {"games": games, "moves": moves, "nodes": nodes, "seconds": elapsed, "moves_per_s": moves / elapsed}


def paired(game: str, players: int, rounds: int, seconds: float) -> dict[str, Any]:
    """Alternate the engine's playouts and the adapter's ``rounds`` times (``seconds`` each);
    the medians and their ratio (adapter / engine decisions a second)."""
    ours, theirs = [], []
    for r in range(rounds):
        ours.append(engine.playouts(game, players, seconds, seed=f"interop:{r}"))
        theirs.append(adapter_playouts(game, players, seconds, seed=f"interop:{r}"))
    engine_rate = statistics.median(x["moves_per_s"] for x in ours)
    adapter_rate = statistics.median(x["moves_per_s"] for x in theirs)
    return {"game": game, "players": players, "engine_moves_per_s": engine_rate, "adapter_moves_per_s": adapter_rate,
            "ratio": adapter_rate / engine_rate, "rounds": rounds, "seconds": seconds}


__all__ = ["TARGET", "adapter_playouts", "paired"]
