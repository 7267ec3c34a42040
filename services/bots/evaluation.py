"""What a position is worth to each seat: the one entry point that bots, search and balance
reports use, dispatching to each game's own evaluation (``services.bots.<game>.evaluation``).

A game's evaluation module provides:

* ``WEIGHTS``: ``dict[str, float]``, the defaults of its terms (a playing style overrides some);
* ``value(state, seat, weights=None) -> float``: how good ``state`` is for ``seat``, in the
  game's own points (the score it would end with, plus what is under way);
* ``rewards(state) -> list[float]``: each seat's reward in [0, 1] for search, at the end of
  the game or at a leaf; optional (default :func:`relative_rewards` of ``value``).

Losses every seat shares (Nogbad's crown) count against every seat, and a game that
nobody won is nobody's win: at an end with no winner every seat's reward is 0
(:func:`terminal_rewards`).
"""

from __future__ import annotations

import math
from typing import Any

from .registry import game_module

DEFAULT_SCALE = 5.0
"""The value difference (in a game's points) that makes a leaf's reward about 0.73 when the
game's evaluation gives no ``SCALE``."""


def module(game: str) -> Any | None:
    """The evaluation module of ``game``, or ``None`` if it has none."""
    return game_module(game, "evaluation")


def weights(game: str) -> dict[str, float]:
    """The default weights of ``game``'s evaluation (empty for a game without one)."""
    m = module(game)
    return dict(getattr(m, "WEIGHTS", {})) if m is not None else {}


def has_value(game: str) -> bool:
    """Whether ``game`` has an evaluation."""
    return module(game) is not None


def value(game: str, state: Any, seat: int, weights: dict[str, float] | None = None) -> float:
    """How good ``state`` is for ``seat`` in ``game`` (the game's own points).

    Raises:
        KeyError: ``game`` has no evaluation.
    """
    m = module(game)
    if m is None:
        raise KeyError(f"no evaluation for {game!r}")
    return m.value(state, seat, weights)


def terminal_rewards(outcome: dict[str, Any], players: int) -> list[float]:
    """Rewards at the end of a game (``rules.outcome``): the winners share 1, the others 0; when
    nobody won (Noggin when Nogbad takes the crown) every seat gets 0."""
    winners = [w for w in outcome.get("winners") or [] if 0 <= w < players]
    if not winners:
        return [0.0] * players
    return [1.0 / len(winners) if s in winners else 0.0 for s in range(players)]


def relative_rewards(values: list[float], scale: float) -> list[float]:
    """``1 / (1 + exp(-(v[s] - max(v[o], o != s)) / scale))`` for each seat ``s``: a seat's lead
    over the best other seat, squashed into (0, 1)."""
    out = []
    for s, v in enumerate(values):
        others = [values[o] for o in range(len(values)) if o != s]
        diff = (v - max(others)) / scale if others else 0.0
        out.append(1.0 / (1.0 + math.exp(-max(-50.0, min(50.0, diff)))))
    return out


def rewards(rules: Any, state: Any) -> list[float]:
    """Each seat's reward in [0, 1] for a (simulated) ``state`` of ``rules``' game: at the end,
    :func:`terminal_rewards`; otherwise the game's ``rewards(state)``, else
    :func:`relative_rewards` of its ``value`` (0.5 each for a game without an evaluation)."""
    players = len(state.players) if hasattr(state, "players") else 0
    out = rules.outcome(state)
    if out is not None:
        players = players or len(out.get("scores") or [])
        return terminal_rewards(out, players)
    m = module(rules.name)
    if m is None or players < 2:
        return [0.5] * players
    if hasattr(m, "rewards"):
        return list(m.rewards(state))
    return relative_rewards([m.value(state, s, None) for s in range(players)], getattr(m, "SCALE", DEFAULT_SCALE))
