"""Errors of the Longhouse client: one class per kind of refusal the gateway answers.

Every 4xx/5xx answer of the gateway is ``{"error": code, "reason": text}`` (docs/API.md, Errors);
:func:`error_for` turns it into the matching subclass of :class:`LonghouseError`, so a caller can
catch what it can handle (``except Conflict``: read again and retry) and let the rest rise.
"""

from __future__ import annotations

from typing import Any


class LonghouseError(Exception):
    """The gateway refused a request.

    Attributes:
        status: the HTTP status.
        error: the body's ``error`` code (``"stale_version"``), or ``"http_<status>"``.
        reason: the body's ``reason`` (one sentence), or the start of the raw text.
        body: the whole JSON body (empty if it was not JSON).
    """

    def __init__(self, status: int, error: str, reason: str, body: dict[str, Any] | None = None):
        super().__init__(f"{status} {error}: {reason}")
        self.status = status
        self.error = error
        self.reason = reason
        self.body = body or {}


class BadRequest(LonghouseError):
    """400: a malformed body, field or parameter (``bad_request``, ``bad_json``, ...)."""


class Unauthorized(LonghouseError):
    """401: a token, invitation or operator key is missing or unknown."""


class Forbidden(LonghouseError):
    """403: a wrong operator key, invitation, seat, game or agent secret."""


class NotFound(LonghouseError):
    """404: no such game, agent, tournament, catalog entry or route."""


class Conflict(LonghouseError):
    """409: the game moved on (``stale_version``, then ``current_version``), it is not the seat's
    turn, a seat is taken, the game or tournament is over, or a move id was reused."""

    @property
    def current_version(self) -> int | None:
        """The game's version a ``stale_version`` answer gives, else None."""
        value = self.body.get("version")
        return value if isinstance(value, int) else None


class Unprocessable(LonghouseError):
    """422: the request is well formed but cannot be done (an illegal or malformed move, an unknown
    game or option, a bad seat or tournament)."""


class IllegalMove(Unprocessable):
    """422 ``illegal_move``: the rules forbid the move now; ``reason`` says which rule."""


class MalformedMove(Unprocessable):
    """422 ``malformed_move``: the move has no shape this game knows (see the catalog's ``move_schema``)."""


class RateLimited(LonghouseError):
    """429 (``rate_limited``, ``quota_exceeded``) still refused after the client's retries.

    Attributes:
        retry_after: seconds the gateway asked to wait (``Retry-After``).
    """

    @property
    def retry_after(self) -> int | None:
        """The answer's ``retry_after`` in seconds, if it gave one."""
        value = self.body.get("retry_after")
        return value if isinstance(value, int) else None


class Unavailable(LonghouseError):
    """5xx: the gateway, its Redis or a game service did not answer (still so after retries)."""


_BY_STATUS: dict[int, type[LonghouseError]] = {400: BadRequest, 401: Unauthorized, 403: Forbidden, 404: NotFound,
                                               409: Conflict, 413: BadRequest, 422: Unprocessable, 429: RateLimited}
_BY_CODE: dict[str, type[LonghouseError]] = {"illegal_move": IllegalMove, "malformed_move": MalformedMove}


def error_for(status: int, body: Any, text: str = "") -> LonghouseError:
    """The error of an answer with ``status`` and parsed JSON ``body`` (or None with its ``text``)."""
    body = body if isinstance(body, dict) else {}
    code = str(body.get("error") or f"http_{status}")
    reason = str(body.get("reason") or text[:500])
    cls = _BY_CODE.get(code) or _BY_STATUS.get(status) or (Unavailable if status >= 500 else LonghouseError)
    return cls(status, code, reason, body)
