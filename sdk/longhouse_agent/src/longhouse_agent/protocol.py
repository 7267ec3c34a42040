"""The agent protocol from the agent's side: the engine's payloads and their signatures.

The engine calls an agent three times a match: ``start`` (:class:`MatchStart`), ``move``
(:class:`MoveRequest`, answered ``{"index": i}``) and ``end`` (:class:`MatchEnd`); over HTTP as a
JSON object with a ``"type"``, over gRPC as the ``longhouse.agent.v1.Agent`` service's messages
with the same fields. Game data is JSON *text* in the ``*_json`` fields.

Every request is signed on the Standard Webhooks scheme: ``webhook-id``, ``webhook-timestamp``
(unix seconds) and ``webhook-signature`` (space-separated ``v1,<base64 HMAC-SHA256(key,
id.timestamp.body)>``, one per secret the engine signs with; two during a rotation window). The
key is the secret's UTF-8 bytes, or for a ``whsec_<base64>`` secret the bytes it encodes.
:class:`Verifier` checks a request against one or several secrets (an agent switching secrets
may hold both), refuses a timestamp more than 300 s away and an id it has accepted before.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import threading
import time
from collections.abc import Iterable, Mapping, Sequence
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

HEADER_ID = "webhook-id"
HEADER_TIMESTAMP = "webhook-timestamp"
HEADER_SIGNATURE = "webhook-signature"
TOLERANCE_S = 300
"""Seconds a signed request stays acceptable either side of the agent's clock."""
MAX_REMEMBERED = 65_536
"""Request ids remembered at most for the replay check."""


class _Payload(BaseModel):
    model_config = ConfigDict(strict=True, extra="ignore", frozen=True)


class TimeControl(_Payload):
    """The agent's time: ``move_ms`` a decision, ``bank_ms`` of reserve, ``max_strikes`` failures."""

    move_ms: int = Field(ge=0)
    bank_ms: int = Field(ge=0)
    max_strikes: int = Field(ge=0)


class MatchStart(_Payload):
    """``start``: a match begins (``match_id`` is the game's id; ``options_json`` its variants)."""

    type: Literal["start"] = "start"
    match_id: str
    game: str
    seat: int = Field(ge=0)
    players: int = Field(ge=1)
    options_json: str = "{}"
    time_control: TimeControl

    @property
    def options(self) -> dict[str, Any]:
        """``options_json`` decoded."""
        return json.loads(self.options_json)


class MoveRequest(_Payload):
    """``move``: choose one of ``legal_moves_json`` within ``time_left_ms`` (its move time plus the
    ``bank_ms`` left)."""

    type: Literal["move"] = "move"
    match_id: str
    game: str
    seat: int = Field(ge=0)
    version: int = Field(ge=0)
    view_json: str
    legal_moves_json: list[str]
    time_left_ms: int = Field(ge=0)
    bank_ms: int = Field(ge=0)

    @property
    def view(self) -> dict[str, Any]:
        """The seat's player view."""
        return json.loads(self.view_json)

    @property
    def legal_moves(self) -> list[dict[str, Any]]:
        """The moves offered."""
        return [json.loads(m) for m in self.legal_moves_json]


class MatchEnd(_Payload):
    """``end``: the match is over; ``result_json`` holds scores, winners and strikes."""

    type: Literal["end"] = "end"
    match_id: str
    seat: int = Field(ge=0)
    result_json: str

    @property
    def result(self) -> dict[str, Any]:
        """``result_json`` decoded."""
        return json.loads(self.result_json)


class MoveRequests(_Payload):
    """``moves``: several move requests at once (the engine's decisions for this agent that came
    together), answered ``{"choices": [{"index": i}, ...]}`` in order."""

    type: Literal["moves"] = "moves"
    requests: list[MoveRequest] = Field(min_length=1)


Payload = Annotated[MatchStart | MoveRequest | MoveRequests | MatchEnd, Field(discriminator="type")]
_PAYLOAD = TypeAdapter(Payload)


class BadPayload(ValueError):
    """A body is not one of the engine's payloads."""


def parse_payload(data: bytes | str | Mapping[str, Any]) -> MatchStart | MoveRequest | MoveRequests | MatchEnd:
    """An HTTP body (or parsed object) -> its payload. Raises BadPayload."""
    try:
        obj = json.loads(data) if isinstance(data, (bytes, bytearray, str)) else dict(data)
        return _PAYLOAD.validate_python(obj)
    except (ValueError, TypeError, ValidationError) as exc:
        raise BadPayload(f"not a start, move, moves or end payload: {str(exc).splitlines()[0][:200]}") from None


def canonical_json(obj: Any) -> str:
    """Canonical JSON text (sorted keys, compact), as the engine writes game data."""
    return json.dumps(obj, sort_keys=True, separators=(",", ":"))


# -- signatures --------------------------------------------------------------------------------
class SignatureError(Exception):
    """A request is refused: :class:`BadSignature`, :class:`Stale` or :class:`Replayed`."""


class BadSignature(SignatureError):
    """A header is missing or malformed, or no signature matches."""


class Stale(SignatureError):
    """The timestamp is too far from the agent's clock."""


class Replayed(SignatureError):
    """The request id was accepted before."""


def signing_key(secret: str | bytes) -> bytes:
    """The HMAC key of ``secret`` (``whsec_<base64>``: the decoded bytes; other text: UTF-8).
    Raises ValueError for an empty secret or bad base64."""
    if isinstance(secret, str):
        if secret.startswith("whsec_"):
            try:
                secret = base64.b64decode(secret[6:] + "==")
            except (binascii.Error, ValueError):
                raise ValueError("a whsec_ secret is followed by base64") from None
        else:
            secret = secret.encode("utf-8")
    if not secret:
        raise ValueError("the secret is empty")
    return bytes(secret)


def sign(secret: str | bytes, msg_id: str, timestamp: int | str, body: bytes) -> str:
    """``"v1," + base64 HMAC-SHA256(signing_key(secret), f"{msg_id}.{timestamp}." + body)``."""
    digest = hmac.new(signing_key(secret), f"{msg_id}.{timestamp}.".encode() + body, hashlib.sha256).digest()
    return "v1," + base64.b64encode(digest).decode()


def signed_headers(secrets: str | bytes | Sequence[str | bytes], body: bytes, msg_id: str,
                   now: float | None = None) -> dict[str, str]:
    """The three headers the engine sends for ``body`` (for tests and local runs)."""
    listed = [secrets] if isinstance(secrets, (str, bytes)) else list(secrets)
    timestamp = str(int(time.time() if now is None else now))
    return {HEADER_ID: msg_id, HEADER_TIMESTAMP: timestamp,
            HEADER_SIGNATURE: " ".join(sign(s, msg_id, timestamp, body) for s in listed)}


class Verifier:
    """Checks the engine's signatures with this agent's secret(s) and remembers accepted ids.

    Args:
        secrets: one secret or several (during a rotation the agent may accept both).
        tolerance_s: seconds a timestamp may be off the clock.
        clock: unix seconds now (default ``time.time``).
    Thread-safe.
    """

    def __init__(self, secrets: str | bytes | Sequence[str | bytes], tolerance_s: float = TOLERANCE_S,
                 clock: Any = time.time):
        listed = [secrets] if isinstance(secrets, (str, bytes)) else list(secrets)
        if not listed:
            raise ValueError("an agent needs at least one secret")
        self._keys = [signing_key(s) for s in listed]
        self.tolerance_s = tolerance_s
        self._clock = clock
        self._seen: dict[str, float] = {}
        self._lock = threading.Lock()

    def verify(self, headers: Mapping[str, Any] | Iterable[tuple[str, Any]], body: bytes) -> str:
        """Check one request (HTTP headers or gRPC metadata pairs; names case-insensitive) against
        its exact body bytes; returns its id. Raises BadSignature, Stale, Replayed."""
        pairs = headers.items() if hasattr(headers, "items") else headers
        found: dict[str, str] = {}
        for key, value in pairs:
            name = str(key).lower()
            if name in (HEADER_ID, HEADER_TIMESTAMP, HEADER_SIGNATURE):
                value = value.decode("latin-1") if isinstance(value, bytes) else str(value)
                if name in found and found[name] != value.strip():
                    raise BadSignature(f"header {name} is given twice")
                found[name] = value.strip()
        for name in (HEADER_ID, HEADER_TIMESTAMP, HEADER_SIGNATURE):
            if not found.get(name):
                raise BadSignature(f"missing header {name}")
        msg_id, timestamp = found[HEADER_ID], found[HEADER_TIMESTAMP]
        if not timestamp.isdigit() or len(timestamp) > 12:
            raise BadSignature(f"{HEADER_TIMESTAMP} is not unix seconds")
        offered = [part.partition(",")[2].encode() for part in found[HEADER_SIGNATURE].split()
                   if part.startswith("v1,")]
        matched = False
        for key in self._keys:
            mine = base64.b64encode(hmac.new(key, f"{msg_id}.{timestamp}.".encode() + body,
                                             hashlib.sha256).digest())
            for theirs in offered:
                matched |= hmac.compare_digest(mine, theirs)
        if not matched:
            raise BadSignature("no signature matches (wrong secret or altered request)")
        now = self._clock()
        if abs(now - int(timestamp)) > self.tolerance_s:
            raise Stale(f"the request was signed {abs(now - int(timestamp)):.0f} s away from this clock")
        with self._lock:
            for old in [k for k, t in self._seen.items() if t < now - self.tolerance_s]:
                del self._seen[old]
            if msg_id in self._seen:
                raise Replayed(f"request {msg_id} was already received")
            if len(self._seen) >= MAX_REMEMBERED:
                raise Replayed("too many recent requests to check for a replay; send a fresh one")
            self._seen[msg_id] = int(timestamp)
        return msg_id
