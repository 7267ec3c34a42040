"""A test-only game whose board domain, not the coordinator, rejects bad moves.

Same as :mod:`tests.core_games.step_race`, except that :meth:`check` lets every
``advance`` through and the board operation itself raises ``IllegalMove`` (or
``MalformedMove``), so the error travels from the board service to the coordinator
over gRPC, as a rule checked deep in a domain would.
"""

from __future__ import annotations

from typing import Any

from services.rules.core import IllegalMove, MalformedMove, Op, register
from tests.core_games.step_race import StepRace

TOO_FAR = "a runner advances 1, 2 or 3 steps"


class GuardedStep(StepRace):
    name = "guarded_step"
    title = "Guarded step race (test game)"

    def check(self, state: Any, seat: int, move: dict[str, Any]) -> None:
        if move.get("type") != "advance":
            raise IllegalMove('the only move is {"type": "advance", "steps": <int>}')

    def handle(self, state: Any, op: Op, chance) -> list:
        steps = op.args.get("steps")
        if not isinstance(steps, int):
            raise MalformedMove("steps must be an integer")
        if steps not in (1, 2, 3):
            raise IllegalMove(TOO_FAR)
        return super().handle(state, op, chance)


GAME = register(GuardedStep())
