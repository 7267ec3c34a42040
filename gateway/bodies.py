"""Request bodies of the gateway, validated with pydantic.

:func:`parse_body` reads the request body as JSON and validates it; any problem is a
400 ``bad_json`` (not JSON / not an object) or ``bad_request`` (a field is missing,
of the wrong type or out of range). A body over ``MAX_CONTENT_LENGTH`` is a 413.
"""

from __future__ import annotations

import json
import re
from typing import Any, TypeVar

from flask import current_app, request
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator
from werkzeug.exceptions import RequestEntityTooLarge

from .errors import ApiError

M = TypeVar("M", bound=BaseModel)
SEAT_KEY = re.compile(r"0|[1-9][0-9]{0,2}")
"""A seat in a JSON key: plain ASCII digits, no sign, no leading zeros (docs/API.md)."""


class CreateGameBody(BaseModel):
    """``POST /games``: ``{"game", "players", "seed"?, "options"?, "bots"?, "time_control"?, "open"?}``.

    ``bots`` gives seats to built-in bots that decide on the bus (a worker), never over
    HTTP: ``{"<seat>": <kind>}`` (``random``, ``greedy``, ``scripted``, ``ismcts``, ``expert``) or ``{"<seat>": {"kind": ..., "seed": ...}}``
    (``ismcts`` and ``expert`` may add ``"iterations"``), or to registered external agents:
    ``{"<seat>": {"kind": "agent", "agent": <agent id>}}``. ``time_control``
    (``{"move_ms", "bank_ms", "max_strikes"}``) governs the agent seats. ``open`` (default
    false): any client may claim a free seat, without an invitation (:mod:`gateway.invitations`).
    """

    model_config = ConfigDict(extra="forbid")

    game: str = Field(min_length=1, max_length=64)
    players: int = Field(strict=True)
    seed: str | None = Field(default=None, min_length=1, max_length=256)
    options: dict[str, Any] = Field(default_factory=dict)
    bots: dict[str, str | dict[str, str | int]] = Field(default_factory=dict, max_length=16)
    time_control: dict[str, int] | None = None
    open: bool = Field(default=False, strict=True,
                       description="true: a free seat is claimed without an invitation (no invitations are made)")

    @field_validator("bots")
    @classmethod
    def _seat_keys(cls, bots: dict[str, Any]) -> dict[str, Any]:
        for k in bots:
            if not SEAT_KEY.fullmatch(k):
                raise ValueError(f"bots: seat {k!r} is not a seat number (plain digits, no sign, no leading zeros)")
        return bots


class ClaimBody(BaseModel):
    """``POST /games/<id>/seats/<seat>``: ``{"invitation"}``, the seat's invitation from the
    creation answer; the body may be left out (or ``{}``) for an open game."""

    model_config = ConfigDict(extra="forbid", strict=True)

    invitation: str | None = Field(default=None, min_length=1, max_length=256, repr=False,
                                   description="the invitation of this seat, from POST /games")


class MoveBody(BaseModel):
    """``POST /games/<id>/moves``: ``{"move_id", "expected_version", "move", "seat"?}``.

    ``seat`` is optional; if given it must be the seat the token holds (else 403).
    """

    model_config = ConfigDict(extra="forbid")

    move_id: str = Field(min_length=1, max_length=128)
    expected_version: int = Field(ge=0, strict=True)
    move: dict[str, Any]
    seat: int | None = Field(default=None, ge=0, strict=True)


class DuplicateKey(ValueError):
    """A JSON object names one key twice (which value is meant is ambiguous)."""


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in pairs:
        if k in out:
            raise DuplicateKey(k)
        out[k] = v
    return out


def _no_constants(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def parse_body(model: type[M], optional: bool = False) -> M:
    """The request's JSON body validated as ``model`` (``optional``: an empty body is ``{}``).

    Raises:
        ApiError 400: malformed JSON, not an object, or invalid fields.
        RequestEntityTooLarge (413): the body is over the limit.
    """
    limit = int(current_app.config["MAX_CONTENT_LENGTH"])
    if request.content_length is None and request.environ.get("wsgi.input_terminated"):
        # A chunked body declares no length: read one byte past the limit ourselves
        # (the framework's own limit would silently truncate it instead).
        raw = request.environ["wsgi.input"].read(limit + 1)
        if len(raw) > limit:
            raise RequestEntityTooLarge()
    else:
        raw = request.get_data(cache=False)  # a declared length over the limit is a 413 here
    if optional and not raw:
        raw = b"{}"
    try:
        # UTF-8 only (RFC 8259, 8.1; docs/API.md): the standard library would take UTF-16 and
        # UTF-32 bytes too, and a UTF-8 byte order mark is refused as JSON text
        text = raw.decode("utf-8") if raw else ""
        obj = json.loads(text, parse_constant=_no_constants, object_pairs_hook=_no_duplicates) if text else None
    except DuplicateKey as exc:
        raise ApiError(400, "bad_json", f"the body names {exc.args[0]!r} twice; a key may appear once") from None
    except RecursionError:
        raise ApiError(400, "bad_json", "the body is nested too deeply") from None
    except json.JSONDecodeError as exc:
        raise ApiError(400, "bad_json",
                       f"the body is not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}") from None
    except (ValueError, UnicodeDecodeError):
        raise ApiError(400, "bad_json", "the body is not valid JSON (UTF-8 text with numbers of sane size)") from None
    if not isinstance(obj, dict):
        raise ApiError(400, "bad_json", "the body must be a JSON object")
    try:
        return model.model_validate(obj)
    except ValidationError as exc:
        parts = []
        for err in exc.errors()[:3]:
            loc = ".".join(str(p) for p in err.get("loc", ()))
            parts.append(f"{loc}: {err.get('msg')}" if loc else str(err.get("msg")))
        raise ApiError(400, "bad_request", "; ".join(parts)) from None
