"""Which built-in bot decides, and how: the one dispatcher of bot kinds.

A bot seat is ``{"kind": <one of BOT_KINDS>, "seed": str}`` (the search kinds, ``ismcts``
and ``expert``, may add ``"iterations"``: their budget per decision), fixed when the game
is created. The decision at version ``v`` depends only on the bot's seed, ``v`` and what
the seat may see (its player view), never on which worker runs it or on earlier calls, so
a task that a worker redelivers makes the same choice, and a tournament is reproducible.

The kinds:

* ``random``: uniform among the legal moves;
* ``greedy``: one-move look-ahead on the game's evaluation (:mod:`services.bots.evaluation`);
* ``scripted``: a short hand-written policy per game, the sparring partner
  (``services.bots.<game>.scripted``);
* ``ismcts``: information-set Monte Carlo tree search on the game's evaluation
  (:mod:`services.bots.ismcts`);
* ``expert``: the strongest bot of each game (``services.bots.<game>.expert``).

A game without a ``scripted`` or ``expert`` module of its own (the tests' tiny games) is
played by ``greedy`` for ``scripted`` and by ``ismcts`` for ``expert``; a game that cannot
rebuild a state from a view (:func:`can_search`) by ``greedy`` for ``ismcts``, and the greedy
bot plays at random a game without an evaluation.
"""

from __future__ import annotations

import random
from typing import Any

from services.common.integers import whole_number_within

from .registry import game_module

BOT_KINDS = ("random", "greedy", "scripted", "ismcts", "expert")
"""The built-in bots that can hold a seat on the bus, weakest first by design."""
SEARCH_KINDS = ("ismcts", "expert")
"""The kinds that take ``"iterations"`` (their search budget per decision)."""
MAX_ITERATIONS = 100_000
"""The largest budget a seat may ask for."""


def check_iterations(iterations: Any) -> int:
    """``iterations`` as a search budget per decision: a whole number
    (:func:`services.common.integers.whole_number`: NumPy integers too) from 1 to
    :data:`MAX_ITERATIONS` (a bot seat's, a research adapter's opponents'). Returns it as an int.

    Raises:
        ValueError: anything else (a bool, a float, text, or out of range), saying what is wrong.
    """
    n = whole_number_within(iterations, 1, MAX_ITERATIONS)
    if n is None:
        raise ValueError(f"iterations is a whole number from 1 to {MAX_ITERATIONS}, not {iterations!r}")
    return n


def can_search(rules: Any) -> bool:
    """Whether ``rules`` can rebuild a state from a player view (``Rules.state_from_view``), which
    search from a view needs."""
    from services.rules.core.game import Rules

    return type(rules).state_from_view is not Rules.state_from_view


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
    """The move the bot of ``kind`` with ``seed`` makes for ``seat`` at ``version``; every kind
    but ``random`` decides from the seat's player view (``rules.view(state, seat)``) only.

    Args:
        legal: the seat's legal moves, if already computed.
        iterations: the search budget of ``ismcts`` and ``expert`` per decision (default: the
            game's); the other kinds ignore it.
    Raises:
        ValueError: unknown ``kind``, or no legal move.
    """
    if kind not in BOT_KINDS:
        raise ValueError(f"unknown bot {kind!r}; bots on the bus: {', '.join(BOT_KINDS)}")
    legal = rules.legal_moves(state, seat) if legal is None else legal
    if not legal:
        raise ValueError(f"seat {seat} has no legal move at version {version}")
    if kind == "random":
        return legal[random.Random(f"{seed}:{version}").randrange(len(legal))]
    return decide_from_view(kind, seed, rules, rules.view(state, seat), version, legal, iterations)


def decide_from_view(kind: str, seed: str, rules: Any, view: dict[str, Any], version: int,
                     legal: list[dict[str, Any]], iterations: int | None = None) -> dict[str, Any]:
    """The move of the bot of ``kind`` for the seat of ``view`` (a player view), one of ``legal``:
    what :func:`decide` runs, and what a bot that plays over HTTP (which sees only the view and
    the legal moves) runs too.

    Raises:
        ValueError: unknown ``kind``, or no legal move.
    """
    if not legal:
        raise ValueError(f"seat {view.get('seat')} has no legal move at version {version}")
    if len(legal) == 1:
        return legal[0]
    if kind == "random":
        return legal[random.Random(f"{seed}:{version}").randrange(len(legal))]
    if kind == "scripted":
        policy = game_module(rules.name, "scripted")
        if policy is not None:
            return policy.choose(rules, view, legal, random.Random(f"{seed}:{version}:scripted"))
        kind = "greedy"
    if kind == "expert":
        expert = game_module(rules.name, "expert")
        if expert is not None:
            return expert.choose(rules, view, legal, seed, version, iterations)
        kind = "ismcts"
    if kind == "ismcts" and not can_search(rules):
        kind = "greedy"
    if kind == "greedy":
        from .greedy_bot import GreedyBot

        return GreedyBot(f"{seed}:{version}").choose(legal, view, rules.name)
    if kind == "ismcts":
        from .ismcts import search

        return search(rules, view, seed, version, iterations, legal=legal).move
    raise ValueError(f"unknown bot {kind!r}; bots on the bus: {', '.join(BOT_KINDS)}")
