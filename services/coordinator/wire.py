"""The wire form of domain calls: protobuf <-> rules-core objects, exceptions <-> status.

Both sides of every domain call use this module, so the gRPC adapter behaves exactly
like the embedded one: the server turns an exception into a status code plus trailing
metadata (:func:`status_of`), the client turns that back into the same exception
(:func:`exception_of`).

Status mapping (DESIGN "One rules core, two ways to run it"):

=================================  ====================  ==========================
exception                          status                trailing metadata
=================================  ====================  ==========================
IllegalMove, NotYourTurn           FAILED_PRECONDITION   error code, reason
MalformedMove, other RulesError    INVALID_ARGUMENT      error code, reason
ValueError (bad operation/request) INVALID_ARGUMENT      ``bad_operation``, reason
GameNotFound                       NOT_FOUND             ``game_not_found``, game id
VersionConflict                    ABORTED               ``version_conflict``, versions
redis.ConnectionError / Timeout    UNAVAILABLE           ``store_unavailable``
anything else                      INTERNAL              ``internal``
=================================  ====================  ==========================
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import grpc
import orjson
import redis

from services.api import common_pb2
from services.coordinator.store import GameNotFound, VersionConflict
from services.rules.core import (
    BadConfig,
    Event,
    IllegalMove,
    MalformedMove,
    NotYourTurn,
    Op,
    RulesError,
    UnknownGame,
)
from services.rules.core.canonical import plain_json

ERROR_CODE_KEY = "longhouse-error"
"""Trailing-metadata key holding the machine-readable error code (ASCII)."""
REASON_KEY = "longhouse-reason-bin"
"""Trailing-metadata key holding the readable reason (UTF-8 bytes)."""
GAME_KEY = "longhouse-game-id"
EXPECTED_KEY = "longhouse-expected-version"
ACTUAL_KEY = "longhouse-actual-version"

RULES_ERRORS: dict[str, type[RulesError]] = {
    cls.code: cls for cls in (RulesError, IllegalMove, NotYourTurn, MalformedMove, UnknownGame, BadConfig)
}
"""Every rules error class by its ``code``, to rebuild it on the client."""


# -- events and operations ----------------------------------------------------------
def event_to_pb(event: Event) -> common_pb2.Event:
    """``Event`` -> ``longhouse.v1.Event`` (data as canonical JSON text)."""
    msg = common_pb2.Event(type=event.type, data_json=plain_json(event.data))
    if event.to is not None:
        msg.to = event.to
    return msg


def event_from_pb(msg: common_pb2.Event) -> Event:
    """``longhouse.v1.Event`` -> ``Event``. Raises ValueError on malformed data JSON."""
    data = orjson.loads(msg.data_json) if msg.data_json else {}
    if not isinstance(data, dict):
        raise ValueError(f"event {msg.type!r}: data_json is not a JSON object")
    return Event(msg.type, data, msg.to if msg.HasField("to") else None)


def op_to_pb(op: Op) -> common_pb2.Operation:
    """``Op`` -> ``longhouse.v1.Operation`` (the domain is implied by the service called)."""
    return common_pb2.Operation(name=op.name, args_json=plain_json(op.args))


def op_from_pb(domain: str, msg: common_pb2.Operation) -> Op:
    """``longhouse.v1.Operation`` received by ``domain``'s service -> ``Op``.

    Raises ValueError on malformed args JSON.
    """
    args = orjson.loads(msg.args_json) if msg.args_json else {}
    if not isinstance(args, dict):
        raise ValueError(f"operation {msg.name!r}: args_json is not a JSON object")
    return Op(domain, msg.name, args)


def serve_apply(engine: Any, request: common_pb2.ApplyRequest) -> common_pb2.ApplyReply:
    """Decode ``request``, run it on a :class:`DomainEngine`, encode the events.

    Raises whatever the engine raises (mapped to a status by the error interceptor).
    """
    pending = [event_from_pb(e) for e in request.pending_events]
    ops = [op_from_pb(engine.domain, o) for o in request.operations]
    # decode only the hint entries beyond what this service has cached (the rest are not used)
    have = engine.projections.version(request.game_id) if request.recent else 0
    recent = [(e.version, [event_from_pb(x) for x in e.events]) for e in request.recent if e.version > have]
    events = engine.apply(request.game_id, request.base_version, pending, ops, recent=recent)
    return common_pb2.ApplyReply(events=[event_to_pb(e) for e in events])


def serve_batch(engine: Any, request: common_pb2.ApplyBatchRequest) -> common_pb2.ApplyBatchReply:
    """Run each call of a batch as :func:`serve_apply` would; an exception becomes that call's
    ``CallError`` (the same code and reason as a single call's status) and the rest go on."""
    results = []
    for call in request.calls:
        try:
            results.append(common_pb2.ApplyResult(reply=serve_apply(engine, call)))
        except Exception as exc:  # noqa: BLE001 - each call answers for itself
            results.append(common_pb2.ApplyResult(error=call_error(exc)))
    return common_pb2.ApplyBatchReply(results=results)


def call_error(exc: BaseException) -> common_pb2.CallError:
    """The ``CallError`` of one failed call of a batch (codes as in :func:`status_of`)."""
    if isinstance(exc, VersionConflict):
        return common_pb2.CallError(code="version_conflict", reason=str(exc), expected=exc.expected,
                                    actual=exc.actual)
    status = status_of(exc)
    meta = dict(status.metadata)
    return common_pb2.CallError(code=str(meta.get(ERROR_CODE_KEY, "internal")), reason=status.details)


def exception_of_call(err: common_pb2.CallError, game_id: str) -> Exception:
    """The exception a failed call of a batch stands for (as :func:`exception_of`)."""
    if err.code in RULES_ERRORS:
        return RULES_ERRORS[err.code](err.reason)
    if err.code == "game_not_found":
        return GameNotFound(game_id)
    if err.code == "version_conflict":
        return VersionConflict(int(err.expected), int(err.actual))
    if err.code == "bad_operation":
        return ValueError(err.reason)
    return DomainCallFailed(grpc.StatusCode.INTERNAL, err.code, err.reason)


class ApplyServicer:
    """The ``Apply`` and ``ApplyBatch`` methods every domain servicer shares; mix it into the
    generated base.

    Args:
        engine: the service's :class:`~services.coordinator.ports.DomainEngine`.
    """

    def __init__(self, engine: Any):
        self.engine = engine

    def Apply(self, request: common_pb2.ApplyRequest, context: Any) -> common_pb2.ApplyReply:
        """Run the request's operations of this domain on a scratch copy; return the new events."""
        return serve_apply(self.engine, request)

    def ApplyBatch(self, request: common_pb2.ApplyBatchRequest, context: Any) -> common_pb2.ApplyBatchReply:
        """Run many games' calls in one; each call's events or error apart."""
        return serve_batch(self.engine, request)


# -- errors ---------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Status:
    """What the server answers for an exception.

    Attributes:
        code: the gRPC status code.
        details: the status message (the readable reason).
        metadata: trailing metadata (error code, reason, ids, versions).
    """

    code: grpc.StatusCode
    details: str
    metadata: tuple[tuple[str, str | bytes], ...]


def _meta(error: str, reason: str, *extra: tuple[str, str]) -> tuple[tuple[str, str | bytes], ...]:
    return ((ERROR_CODE_KEY, error), (REASON_KEY, reason.encode("utf-8")), *extra)


def status_of(exc: BaseException) -> Status:
    """The status answering ``exc`` (see the module's table)."""
    if isinstance(exc, RulesError):
        code = grpc.StatusCode.FAILED_PRECONDITION if isinstance(exc, IllegalMove) \
            else grpc.StatusCode.INVALID_ARGUMENT
        return Status(code, exc.reason, _meta(exc.code, exc.reason))
    if isinstance(exc, GameNotFound):
        return Status(grpc.StatusCode.NOT_FOUND, str(exc),
                      _meta("game_not_found", str(exc), (GAME_KEY, exc.game_id)))
    if isinstance(exc, VersionConflict):
        return Status(grpc.StatusCode.ABORTED, str(exc),
                      _meta("version_conflict", str(exc), (EXPECTED_KEY, str(exc.expected)),
                            (ACTUAL_KEY, str(exc.actual))))
    if isinstance(exc, (redis.ConnectionError, redis.TimeoutError)):
        reason = f"the game store is unreachable: {exc}"
        return Status(grpc.StatusCode.UNAVAILABLE, reason, _meta("store_unavailable", reason))
    if isinstance(exc, ValueError):
        return Status(grpc.StatusCode.INVALID_ARGUMENT, str(exc), _meta("bad_operation", str(exc)))
    reason = f"{type(exc).__name__}: {exc}"
    return Status(grpc.StatusCode.INTERNAL, reason, _meta("internal", reason))


class DomainCallFailed(RuntimeError):
    """A domain call failed for a reason the embedded adapter has no exception for.

    Attributes:
        code: the gRPC status code (UNAVAILABLE, DEADLINE_EXCEEDED, INTERNAL, ...).
        error: Longhouse's error code from the trailing metadata, if the server sent one.
        reason: the server's reason or gRPC's details.
    """

    def __init__(self, code: grpc.StatusCode, error: str | None, reason: str):
        super().__init__(f"{code.name}: {reason}")
        self.code = code
        self.error = error
        self.reason = reason


def exception_of(err: grpc.RpcError, game_id: str) -> Exception:
    """The Python exception the server raised, rebuilt from a failed call's status.

    Rules errors come back as their own class (by code) with the same reason;
    GameNotFound, VersionConflict and ValueError as themselves; anything else as
    :class:`DomainCallFailed`.
    """
    code = err.code() if hasattr(err, "code") else grpc.StatusCode.UNKNOWN
    details = (err.details() if hasattr(err, "details") else None) or ""
    meta: dict[str, Any] = {}
    trailing = err.trailing_metadata() if hasattr(err, "trailing_metadata") else None
    for key, value in trailing or ():
        meta[key] = value
    error = meta.get(ERROR_CODE_KEY)
    raw_reason = meta.get(REASON_KEY)
    reason = raw_reason.decode("utf-8") if isinstance(raw_reason, bytes) else (raw_reason or details)
    if error in RULES_ERRORS:
        return RULES_ERRORS[error](reason)
    if error == "game_not_found" or (code == grpc.StatusCode.NOT_FOUND and error is None):
        return GameNotFound(meta.get(GAME_KEY, game_id))
    if error == "version_conflict":
        return VersionConflict(int(meta.get(EXPECTED_KEY, -1)), int(meta.get(ACTUAL_KEY, -1)))
    if error == "bad_operation":
        return ValueError(reason)
    return DomainCallFailed(code, error, reason)
