"""How a built-in bot decides when it plays on the bus (in a worker), not over HTTP.

A bot seat is ``{"kind": "random"|"greedy"|"ismcts", "seed": str}`` (``ismcts`` may add
``"iterations"``: its budget per decision), fixed when the game is created.
The decision at version ``v`` depends only on the bot's seed, ``v`` and what the seat may see
(its player view), never on which worker runs it or on earlier calls, so a task that a
worker redelivers makes the same choice, and a tournament is reproducible.
"""

from __future__ import annotations

import random
from typing import Any

BOT_KINDS = ("random", "greedy", "ismcts")
"""The built-in bots that can hold a seat on the bus."""


def decide_for(bot: dict[str, Any], rules: Any, state: Any, seat: int, version: int,
               legal: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """The move of the bot seat ``bot`` (``{"kind", "seed", ...}`` as stored with the game by
    :func:`services.coordinator.table.normalise_bots`) for ``seat`` at ``version``.

    Raises:
        ValueError: unknown kind, or no legal move.
    """
    return decide(bot["kind"], bot["seed"], rules, state, seat, version, legal, bot.get("iterations"))


def decide(kind: str, seed: str, rules: Any, state: Any, seat: int, version: int,
           legal: list[dict[str, Any]] | None = None, iterations: int | None = None) -> dict[str, Any]:
    """The move the bot of ``kind`` with ``seed`` makes for ``seat`` at ``version``.

    Args:
        legal: the seat's legal moves, if already computed.
        iterations: the ``ismcts`` budget per decision (default: its game's,
            :data:`services.bots.ismcts.DEFAULT_ITERATIONS`); the other kinds ignore it.
    Raises:
        ValueError: unknown ``kind``, or no legal move.
    """
    legal = rules.legal_moves(state, seat) if legal is None else legal
    if not legal:
        raise ValueError(f"seat {seat} has no legal move at version {version}")
    if kind == "random":
        return legal[random.Random(f"{seed}:{version}").randrange(len(legal))]
    if kind == "greedy":
        from .greedy_bot import GreedyBot

        return GreedyBot(f"{seed}:{version}").choose(legal, rules.view(state, seat), rules.name)
    if kind == "ismcts":  # it decides from the seat's player view only
        from .ismcts import search

        return search(rules, rules.view(state, seat), seed, version, iterations, legal=legal).move
    raise ValueError(f"unknown bot {kind!r}; bots on the bus: {', '.join(BOT_KINDS)}")
