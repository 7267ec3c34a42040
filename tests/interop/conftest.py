"""Shared settings of the research adapters' tests (services/interop, issue 24).

Every game is played at 2, 3 and 4 seats with a small ``max_moves``, so the whole suite
stays fast on a loaded 2-core machine: the adapters' behaviour does not depend on how long
an episode runs, and truncation ends every episode well inside the bound.
"""

from __future__ import annotations

import itertools
import random

import pytest

from services.interop.episode import CHANCE, Episode

GAMES = ("noggin", "gnomes", "resource_hog")
SEATS = (2, 3, 4)
CASES = list(itertools.product(GAMES, SEATS))
MAX_MOVES = {"noggin": 12, "gnomes": 16, "resource_hog": 24}
"""Moves per test episode: enough for every game to pass its set-up, several turns and (in
Resource Hog) a round of sealed orders."""


def ids(case: tuple[str, int]) -> str:
    return f"{case[0]}-{case[1]}p"


def game_string(game: str, players: int, max_moves: int | None = None, **extra: object) -> str:
    """The OpenSpiel game string of a test case."""
    params = {"players": players, "max_moves": max_moves or MAX_MOVES[game], **extra}
    return f"longhouse_{game}(" + ",".join(f"{k}={v}" for k, v in params.items()) + ")"


def advance(ep: Episode, rng: random.Random, moves: int) -> Episode:
    """Play ``ep`` on at random (chance too) until ``moves`` moves were made or it is over."""
    while not ep.is_over() and ep.moves < moves:
        if ep.current() == CHANCE:
            outcomes = ep.chance_outcomes()
            ep.chance(outcomes[rng.randrange(len(outcomes))][0])
        else:
            ep.step(rng.choice(ep.actions()))
    return ep


@pytest.fixture(params=CASES, ids=ids)
def case(request) -> tuple[str, int]:
    return request.param
