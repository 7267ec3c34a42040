"""The agent protocol as JSON: payloads, signatures, replay protection.

The engine talks to an external agent at three moments of a match: ``start`` (the
match begins), ``move`` (choose one of the legal moves) and ``end`` (the outcome).
Over HTTP each is a POST of a JSON object to the agent's URL, with a ``"type"`` field
naming it (``"start"``, ``"move"``, ``"end"``); over gRPC each is a call of the ``Agent``
service of ``protos/agent.proto`` (:mod:`services.agents.grpc_wire` converts). Both
carry the same fields, named as in the proto: game data, which differs from game to
game, is canonical JSON *text* in the ``*_json`` fields (``options_json``,
``view_json``, each of ``legal_moves_json``, ``result_json``), each a JSON object; the
models check that and decode it on demand (``.options``, ``.view``, ``.legal_moves``,
``.result``). For example, a move request's body::

    {"bank_ms": 9000, "game": "gnomes", "legal_moves_json": ["{\"op\":\"pass\"}"],
     "match_id": "4f1c", "seat": 1, "time_left_ms": 11000, "type": "move",
     "version": 12, "view_json": "{...}"}

An HTTP agent answers ``start`` and ``end`` with any 2xx status (the body is ignored;
``{}`` is customary) and ``move`` with 2xx and ``{"index": <int>}``. An answer counts
only as a choice among the legal moves offered: :func:`choice_to_move`. An agent may also
serve ``moves`` (:class:`MoveRequests`: several move requests in one POST, answered with
``{"choices": [...]}`` in order, :func:`parse_choices`); one that answers it with 400, 404, 405,
415, 422 or 501, or with an object without ``choices``, is asked one ``move`` a decision.

Signatures: Standard Webhooks (HMAC-SHA256, v1)
-----------------------------------------------
Every request is signed as the Standard Webhooks specification says
(https://www.standardwebhooks.com), over HTTP headers or, for gRPC, metadata of the same names:

* ``webhook-id``: a unique id of the request (``msg_`` and 32 hex digits from the engine);
* ``webhook-timestamp``: unix seconds when it was signed;
* ``webhook-signature``: one or more ``v1,<base64 HMAC-SHA256(key, id + "." + timestamp + "." +
  body)>``, separated by spaces, where body is the exact bytes of the HTTP body (or of the
  serialized protobuf request). While an agent's secret is being rotated with an overlap window
  the engine signs with the new secret and the old one, so the agent may check with either.

The key is the secret: a secret written ``whsec_<base64>`` (the Standard Webhooks form) is the
bytes its base64 decodes to, any other secret its UTF-8 bytes (:func:`signing_key`). So the
``standardwebhooks`` library verifies the engine's requests with ``Webhook(secret)`` for a
``whsec_`` secret and ``Webhook(secret.encode())`` for another.

An agent checks them with :func:`verify` and one :class:`ReplayGuard` for its process:
a request is refused if no signature matches any of its secrets (:class:`BadSignature`), its
timestamp is more than the tolerance (300 s) away from the agent's clock (:class:`Stale`), or
its id was already accepted (:class:`Replayed`).

This module needs only pydantic and orjson, so an agent can copy it alone.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import heapq
import hmac
import json
import re
import threading
import time
import uuid
from collections.abc import Iterable, Mapping, Sequence
from typing import Annotated, Any, Literal

import orjson
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    TypeAdapter,
    ValidationError,
    field_validator,
)

HEADER_DELIVERY = "webhook-id"
"""The request's unique id (Standard Webhooks ``webhook-id``)."""
HEADER_TIMESTAMP = "webhook-timestamp"
"""Unix seconds when the request was signed."""
HEADER_SIGNATURE = "webhook-signature"
"""Space-separated ``v1,<base64>`` signatures, one per secret the engine signs with."""
SIGNATURE_VERSION = "v1"
"""The signature scheme: HMAC-SHA256, base64 (Standard Webhooks' symmetric one)."""
SECRET_PREFIX = "whsec_"
"""A secret that starts with it is base64 after it (Standard Webhooks' secret form)."""
DEFAULT_TOLERANCE_S = 300
"""Seconds a signed request stays acceptable either side of the receiver's clock."""
DEFAULT_MAX_DELIVERIES = 65_536
"""Delivery ids a :class:`ReplayGuard` remembers at most (about 100 bytes each)."""

_DELIVERY_RE = re.compile(r"[A-Za-z0-9._:-]{1,128}")
_TIMESTAMP_RE = re.compile(r"[0-9]{1,12}")


# -- payloads ---------------------------------------------------------------------------
class _Payload(BaseModel):
    # Strict types (an int is a JSON integer, not "3" nor 3.0 nor true); unknown fields
    # are ignored so the engine may add fields without breaking existing agents.
    model_config = ConfigDict(strict=True, extra="ignore", frozen=True)


class TimeControl(_Payload):
    """The time an agent is given.

    Attributes:
        move_ms: milliseconds allowed for each move before the bank is drawn on.
        bank_ms: milliseconds of reserve at the start of the match.
        max_strikes: failures allowed in a match; one more forfeits it.
    """

    move_ms: int = Field(ge=0)
    bank_ms: int = Field(ge=0)
    max_strikes: int = Field(ge=0)


def _object_text(value: str, field: str) -> str:
    """``value`` if it is the JSON text of an object; ValueError otherwise."""
    try:
        parsed = orjson.loads(value)
    except orjson.JSONDecodeError:
        raise ValueError(f"{field} is not valid JSON text") from None
    if not isinstance(parsed, dict):
        raise ValueError(f"{field} is not the JSON text of an object")  # noqa: TRY004 (pydantic wants ValueError)
    return value


class MatchStart(_Payload):
    """``"type": "start"``: a match the agent plays a seat of is starting.

    Attributes:
        match_id: the match's id, the same in every later payload of the match.
        game: ``"noggin"``, ``"gnomes"`` or ``"resource_hog"``.
        seat: the agent's seat, 0 to ``players - 1``.
        players: seats at the table.
        options_json: the game's options (variants), JSON text of an object; ``"{}"`` for none.
        time_control: the agent's time.
    """

    type: Literal["start"] = "start"
    match_id: str = Field(min_length=1)
    game: str = Field(min_length=1)
    seat: int = Field(ge=0)
    players: int = Field(ge=1)
    options_json: str = "{}"
    time_control: TimeControl

    @field_validator("options_json")
    @classmethod
    def _check_options(cls, value: str) -> str:
        return _object_text(value, "options_json")

    @property
    def options(self) -> dict[str, Any]:
        """``options_json`` decoded."""
        return orjson.loads(self.options_json)


class MoveRequest(_Payload):
    """``"type": "move"``: choose one of the legal moves; answer with :class:`MoveChoice`.

    Attributes:
        match_id, game, seat: as in :class:`MatchStart`.
        version: the game version the legal moves were computed at.
        view_json: the seat's player view of the game, JSON text of an object.
        legal_moves_json: the moves offered, each the JSON text of an object; the answer
            is an index into this list.
        time_left_ms: milliseconds for this move: its limit plus the bank left.
        bank_ms: milliseconds left in the bank (included in ``time_left_ms``).
    """

    type: Literal["move"] = "move"
    match_id: str = Field(min_length=1)
    game: str = Field(min_length=1)
    seat: int = Field(ge=0)
    version: int = Field(ge=0)
    view_json: str
    legal_moves_json: list[str]
    time_left_ms: int = Field(ge=0)
    bank_ms: int = Field(ge=0)

    @field_validator("view_json")
    @classmethod
    def _check_view(cls, value: str) -> str:
        return _object_text(value, "view_json")

    @field_validator("legal_moves_json")
    @classmethod
    def _check_moves(cls, value: list[str]) -> list[str]:
        for i, text in enumerate(value):
            _object_text(text, f"legal_moves_json[{i}]")
        return value

    @property
    def view(self) -> dict[str, Any]:
        """``view_json`` decoded."""
        return orjson.loads(self.view_json)

    @property
    def legal_moves(self) -> list[dict[str, Any]]:
        """``legal_moves_json`` decoded."""
        return [orjson.loads(m) for m in self.legal_moves_json]


class MoveChoice(_Payload):
    """The answer to a :class:`MoveRequest`: ``{"index": <int>}``, an index into its
    ``legal_moves_json``. Any integer parses; :func:`choice_to_move` checks the range."""

    index: int


class MatchEnd(_Payload):
    """``"type": "end"``: the match has ended.

    Attributes:
        match_id, seat: as in :class:`MatchStart`.
        result_json: the outcome, JSON text of an object: scores, winners, forfeited seats,
            strikes per seat.
    """

    type: Literal["end"] = "end"
    match_id: str = Field(min_length=1)
    seat: int = Field(ge=0)
    result_json: str

    @field_validator("result_json")
    @classmethod
    def _check_result(cls, value: str) -> str:
        return _object_text(value, "result_json")

    @property
    def result(self) -> dict[str, Any]:
        """``result_json`` decoded."""
        return orjson.loads(self.result_json)


class MoveRequests(_Payload):
    """``"type": "moves"``: several move requests at once, each as it would be sent alone (its
    ``"type": "move"`` included); answer with ``{"choices": [{"index": <int>}, ...]}``, one choice
    a request, in order (:func:`parse_choices`). Optional for an agent: one that answers it with a
    status saying it does not understand it (400, 404, 405, 415, 422 or 501), or with a JSON object
    without ``choices``, is asked one ``move`` a decision
    (``protos/agent.proto``, ``ChooseMoves``, is the same over gRPC).

    Attributes:
        requests: the move requests, at least one.
    """

    type: Literal["moves"] = "moves"
    requests: list[MoveRequest] = Field(min_length=1)


Payload = Annotated[MatchStart | MoveRequest | MoveRequests | MatchEnd, Field(discriminator="type")]
"""What the engine sends an agent, told apart by ``type``."""
_PAYLOAD = TypeAdapter(Payload)


class BadPayload(ValueError):
    """A body is not valid JSON or not the payload expected."""


class FailedChoice(ValueError):
    """A choice in an answer to ``moves`` where the agent says it failed on its request
    (``{"error": "<why>"}``; gRPC: a MoveChoice whose ``error`` is set): that decision's crash."""


class NotBatched(BadPayload):
    """An answer to ``moves`` that is a JSON object without ``choices``: the agent does not serve
    ``moves`` (:class:`MoveRequests`)."""


class IllegalChoice(ValueError):
    """An agent's index is not one of the legal moves offered."""


def canonical_json(obj: Any) -> str:
    """Canonical JSON text of plain data: sorted keys, compact (as the rules core writes it)."""
    return orjson.dumps(obj, option=orjson.OPT_SORT_KEYS).decode()


def encode(payload: BaseModel) -> bytes:
    """The JSON body of a payload (canonical: sorted keys, compact), ``type`` included."""
    return orjson.dumps(payload.model_dump(mode="json"), option=orjson.OPT_SORT_KEYS)


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise BadPayload(f"the JSON object names {key!r} twice")
        out[key] = value
    return out


def _no_constants(name: str) -> Any:
    raise BadPayload(f"{name} is not a JSON number")


def loads_strict(body: bytes | str) -> Any:
    """JSON text -> data, refusing duplicate keys and NaN/Infinity. Raises BadPayload."""
    try:
        return json.loads(body, object_pairs_hook=_no_duplicates, parse_constant=_no_constants)
    except BadPayload:
        raise
    except RecursionError:
        raise BadPayload("the JSON is nested too deeply") from None
    except (ValueError, UnicodeDecodeError) as exc:
        raise BadPayload(f"not valid JSON: {str(exc)[:120]}") from None


def describe(exc: ValidationError) -> str:
    """The first few errors of a validation, on one line."""
    parts = []
    for err in exc.errors()[:3]:
        where = ".".join(str(p) for p in err["loc"]) or "body"
        parts.append(f"{where}: {err['msg']}")
    return "; ".join(parts)


def parse_payload(body: bytes | str | Mapping[str, Any]) -> MatchStart | MoveRequest | MoveRequests | MatchEnd:
    """An engine request (JSON body or parsed object) -> its payload, by ``type``.
    Raises BadPayload."""
    data = loads_strict(body) if isinstance(body, (bytes, bytearray, str)) else body
    if not isinstance(data, Mapping):
        raise BadPayload("the body is not a JSON object")
    try:
        return _PAYLOAD.validate_python(dict(data))
    except ValidationError as exc:
        raise BadPayload(f"not a start, move, moves or end payload: {describe(exc)}") from None


def parse_choice(body: bytes | str | Mapping[str, Any]) -> MoveChoice:
    """An agent's answer (JSON body or parsed object) -> :class:`MoveChoice`.
    Raises BadPayload (not JSON, not an object, no integer ``index``)."""
    data = loads_strict(body) if isinstance(body, (bytes, bytearray, str)) else body
    if not isinstance(data, Mapping):
        raise BadPayload('the answer is not a JSON object like {"index": 0}')
    try:
        return MoveChoice.model_validate(dict(data))
    except ValidationError as exc:
        raise BadPayload(f'the answer is not {{"index": <integer>}}: {describe(exc)}') from None


def parse_choices(body: bytes | str | Mapping[str, Any], count: int) -> list[MoveChoice | FailedChoice | BadPayload]:
    """An agent's answer to ``moves`` of ``count`` requests (JSON body or parsed object) -> each
    request's :class:`MoveChoice`, the FailedChoice of a choice ``{"error": "<why>"}``, or the
    BadPayload of a choice that is neither (each that decision's failure alone). Raises NotBatched
    for an object without ``choices`` (the agent does not serve ``moves``), BadPayload for anything
    else that is not an object whose ``choices`` is a list of ``count`` items."""
    data = loads_strict(body) if isinstance(body, (bytes, bytearray, str)) else body
    if not isinstance(data, Mapping):
        raise BadPayload('the answer is not a JSON object like {"choices": [{"index": 0}]}')
    if "choices" not in data:
        raise NotBatched("the answer has no choices")
    choices = data["choices"]
    if not isinstance(choices, list) or len(choices) != count:
        held = f"{len(choices)} choices" if isinstance(choices, list) else "no list of choices"
        raise BadPayload(f"the answer holds {held} for {count} requests")
    out: list[MoveChoice | FailedChoice | BadPayload] = []
    for choice in choices:
        if isinstance(choice, Mapping) and isinstance(choice.get("error"), str) and choice["error"]:
            out.append(FailedChoice(choice["error"]))
            continue
        try:
            out.append(parse_choice(choice))
        except BadPayload as exc:
            out.append(exc)
    return out


def choice_to_move(choice: MoveChoice | int, legal_moves: Sequence[Mapping[str, Any] | str]) -> dict[str, Any]:
    """The move an answer chose: ``legal_moves[choice.index]``.

    ``legal_moves`` are the moves offered (objects, or their JSON text as in the
    protobuf form). Raises IllegalChoice for an index outside them (a negative index
    never counts from the end)."""
    index = choice.index if isinstance(choice, MoveChoice) else choice
    n = len(legal_moves)
    if isinstance(index, bool) or not isinstance(index, int):
        raise IllegalChoice(f"the move index must be an integer, not {type(index).__name__}")
    if not 0 <= index < n:
        offered = f"{n} legal moves were offered (indexes 0 to {n - 1})" if n else "no legal move was offered"
        raise IllegalChoice(f"the agent chose move index {index}, but {offered}")
    move = legal_moves[index]
    if isinstance(move, str):
        move = orjson.loads(move)
    return dict(move)


# -- signatures -------------------------------------------------------------------------
class SignatureError(Exception):
    """A request is refused: base of :class:`BadSignature`, :class:`Stale`, :class:`Replayed`."""


class BadSignature(SignatureError):
    """A signature header is missing or malformed, or the signature does not match."""


class Stale(SignatureError):
    """The request's timestamp is too far from the receiver's clock."""


class Replayed(SignatureError):
    """The request's delivery id was already accepted (or may have been)."""


Secrets = str | bytes | Sequence[str | bytes]
"""One secret, or several (a rotation's overlap: a request signed or checked with each)."""


def signing_key(secret: str | bytes) -> bytes:
    """The HMAC key of ``secret``: the bytes after ``whsec_`` base64-decoded for a Standard
    Webhooks secret, else the secret's UTF-8 bytes (bytes are used as they are).

    Raises:
        ValueError: the secret is empty, or ``whsec_`` is followed by no valid base64.
    """
    if isinstance(secret, str):
        if secret.startswith(SECRET_PREFIX):
            try:
                secret = base64.b64decode(secret[len(SECRET_PREFIX):] + "==", validate=False)
            except (binascii.Error, ValueError):
                raise ValueError("a whsec_ secret is followed by base64") from None
        else:
            secret = secret.encode("utf-8")
    if not secret:
        raise ValueError("the signing secret is empty")
    return bytes(secret)


def _secrets(secrets: Secrets) -> list[str | bytes]:
    listed = [secrets] if isinstance(secrets, (str, bytes, bytearray)) else list(secrets)
    if not listed:
        raise ValueError("no signing secret")
    return listed


def sign(secret: str | bytes, timestamp: int | str, delivery: str, body: bytes) -> str:
    """``"v1," + base64 HMAC-SHA256(signing_key(secret), f"{delivery}.{timestamp}." + body)``."""
    message = f"{delivery}.{timestamp}.".encode("ascii") + bytes(body)
    digest = hmac.new(signing_key(secret), message, hashlib.sha256).digest()
    return f"{SIGNATURE_VERSION},{base64.b64encode(digest).decode('ascii')}"


def signed_headers(secrets: Secrets, body: bytes, now: float | None = None,
                   delivery: str | None = None) -> dict[str, str]:
    """The three Standard Webhooks headers for ``body``, signed with each of ``secrets`` (one
    ``v1,`` signature each, space-separated), with a fresh id (``msg_<32 hex>``) by default."""
    timestamp = str(int(time.time() if now is None else now))
    delivery = delivery or f"msg_{uuid.uuid4().hex}"
    return {
        HEADER_DELIVERY: delivery,
        HEADER_TIMESTAMP: timestamp,
        HEADER_SIGNATURE: " ".join(sign(s, timestamp, delivery, body) for s in _secrets(secrets)),
    }


def signed_metadata(secrets: Secrets, body: bytes, now: float | None = None,
                    delivery: str | None = None) -> list[tuple[str, str]]:
    """The same as gRPC metadata (the same lower-case names) for serialized request bytes ``body``."""
    return [(k.lower(), v) for k, v in signed_headers(secrets, body, now, delivery).items()]


def _header_values(headers: Mapping[str, Any] | Iterable[tuple[str, Any]]) -> dict[str, str]:
    """The three signature headers, by lower-case name, from a mapping (a dict, an HTTP
    message) or pairs (gRPC metadata). A header given twice with two values is refused."""
    wanted = {HEADER_TIMESTAMP.lower(), HEADER_DELIVERY.lower(), HEADER_SIGNATURE.lower()}
    pairs = headers.items() if hasattr(headers, "items") else headers
    found: dict[str, str] = {}
    for key, value in pairs:
        name = str(key).lower()
        if name not in wanted:
            continue
        if isinstance(value, bytes):
            value = value.decode("latin-1")
        value = str(value).strip()
        if name in found and found[name] != value:
            raise BadSignature(f"header {name} is given twice")
        found[name] = value
    return found


class ReplayGuard:
    """Delivery ids already accepted, each remembered while its timestamp is acceptable.

    A delivery id stamped at ``t`` is acceptable until ``t + tolerance_s`` (after that
    :func:`verify` finds it stale), so it is forgotten then. Memory is bounded by
    ``max_entries``: when full, the id that expires first is forgotten early, and from
    then on any request that would expire no later than it is refused as possibly
    replayed, so no replay ever passes. Thread-safe.

    Args:
        tolerance_s: seconds a request stays acceptable either side of the clock.
        max_entries: delivery ids remembered at most.
    """

    def __init__(self, tolerance_s: float = DEFAULT_TOLERANCE_S, max_entries: int = DEFAULT_MAX_DELIVERIES):
        if tolerance_s <= 0 or max_entries < 1:
            raise ValueError("tolerance_s must be positive and max_entries at least 1")
        self.tolerance_s = tolerance_s
        self.max_entries = max_entries
        self._expiry: dict[str, float] = {}
        self._heap: list[tuple[float, str]] = []
        self._floor = float("-inf")
        self._lock = threading.Lock()

    def __len__(self) -> int:
        with self._lock:
            return len(self._expiry)

    def check(self, delivery: str, timestamp: float, now: float) -> None:
        """Remember ``delivery`` (stamped at ``timestamp``). Raises Replayed if it was
        already remembered, or if it may have been forgotten because the guard was full."""
        expiry = timestamp + self.tolerance_s
        with self._lock:
            while self._heap and self._heap[0][0] < now:
                _, old = heapq.heappop(self._heap)
                self._expiry.pop(old, None)
            if delivery in self._expiry:
                raise Replayed(f"delivery {delivery} was already received")
            if expiry <= self._floor:
                raise Replayed(f"delivery {delivery} cannot be checked for a replay "
                               "(too many recent deliveries); send a fresh request")
            while len(self._expiry) >= self.max_entries:
                dropped_expiry, dropped = heapq.heappop(self._heap)
                self._expiry.pop(dropped, None)
                self._floor = max(self._floor, dropped_expiry)
            self._expiry[delivery] = expiry
            heapq.heappush(self._heap, (expiry, delivery))


def verify(secrets: Secrets, headers: Mapping[str, Any] | Iterable[tuple[str, Any]], body: bytes,
           now: float | None, seen: ReplayGuard) -> None:
    """Check a request's Standard Webhooks headers (or gRPC metadata) against its exact body bytes.

    Args:
        secrets: the shared secret, or several (an agent in a rotation window may hold the old
            and the new one): the request passes if one of its ``v1`` signatures matches one.
        headers: the request's headers (any mapping; names are case-insensitive) or gRPC
            metadata pairs.
        body: the body bytes as received (for gRPC, the serialized request).
        now: the receiver's clock in unix seconds (None: ``time.time()``).
        seen: the process's :class:`ReplayGuard`; its ``tolerance_s`` is the staleness limit.

    Raises:
        BadSignature: a header is missing or malformed, or no signature matches.
        Stale: the timestamp is more than ``seen.tolerance_s`` away from ``now``.
        Replayed: the request's id was already accepted.
    """
    now = time.time() if now is None else now
    found = _header_values(headers)
    for header in (HEADER_DELIVERY, HEADER_TIMESTAMP, HEADER_SIGNATURE):
        if not found.get(header.lower()):
            raise BadSignature(f"missing header {header}")
    timestamp = found[HEADER_TIMESTAMP.lower()]
    delivery = found[HEADER_DELIVERY.lower()]
    if not _TIMESTAMP_RE.fullmatch(timestamp):
        raise BadSignature(f"{HEADER_TIMESTAMP} is not unix seconds")
    if not _DELIVERY_RE.fullmatch(delivery):
        raise BadSignature(f"{HEADER_DELIVERY} is not 1-128 letters, digits or ._:-")
    offered = []
    for part in found[HEADER_SIGNATURE.lower()].split():
        version, _, value = part.partition(",")
        if version == SIGNATURE_VERSION and value:
            offered.append(value.encode("utf-8", "surrogateescape"))
    if not offered:
        raise BadSignature(f"{HEADER_SIGNATURE} holds no {SIGNATURE_VERSION},<base64> signature")
    expected = [sign(s, timestamp, delivery, body).partition(",")[2].encode("ascii") for s in _secrets(secrets)]
    matched = False
    for mine in expected:  # every pair compared, in constant time each
        for theirs in offered:
            matched |= hmac.compare_digest(mine, theirs)
    if not matched:
        raise BadSignature("no signature matches the body (wrong secret or altered request)")
    age = now - int(timestamp)
    if abs(age) > seen.tolerance_s:
        direction = "old" if age > 0 else "in the future"
        raise Stale(f"the request was signed {abs(age):.0f} s {direction}; "
                    f"at most {seen.tolerance_s:g} s is accepted")
    seen.check(delivery, int(timestamp), now)
