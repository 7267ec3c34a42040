"""Typed errors of the rules core.

Every error carries a reason a person can read; the gateway turns them into 4xx JSON
errors and the gRPC services into status codes. A move that raises any of these has
changed nothing: rules code only mutates scratch copies of the state.
"""

from __future__ import annotations


class RulesError(Exception):
    """Base class of every error the rules core raises on purpose.

    Attributes:
        reason: one sentence saying what was wrong, meant for the player.
    """

    code = "rules_error"

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason

    def to_json(self) -> dict:
        """Return ``{"error": code, "reason": reason}`` for an API response."""
        return {"error": self.code, "reason": self.reason}


class IllegalMove(RulesError):
    """The move is well formed but the rules forbid it now (wrong phase, no Nogs, ...)."""

    code = "illegal_move"


class NotYourTurn(IllegalMove):
    """The seat asked to move while the decision belongs to other seats."""

    code = "not_your_turn"


class MalformedMove(RulesError):
    """The move does not have the shape of any move of this game (unknown type, bad field)."""

    code = "malformed_move"


class UnknownGame(RulesError):
    """No game of that name is registered."""

    code = "unknown_game"


class BadConfig(RulesError):
    """The game configuration is invalid (player count out of range, unknown option)."""

    code = "bad_config"
