"""The agent protocol over gRPC: payloads <-> ``longhouse.agent.v1`` messages, and a
server interceptor that checks the engine's signature.

The engine serializes each request itself and signs exactly those bytes
(:func:`services.agents.protocol.signed_metadata`). :class:`SignatureInterceptor`
checks them on the agent's side before the request is parsed, so a servicer made from
the generated ``agent_pb2_grpc.AgentServicer`` only ever sees signed, fresh requests::

    server = grpc.server(ThreadPoolExecutor(8), interceptors=[SignatureInterceptor(secret)])
    agent_pb2_grpc.add_AgentServicer_to_server(MyAgent(), server)

A refused request gets UNAUTHENTICATED (bad signature, stale) or ALREADY_EXISTS
(replayed delivery).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import grpc
from google.protobuf.message import DecodeError, Message
from pydantic import ValidationError

from services.agents.protocol import (
    BadPayload,
    MatchEnd,
    MatchStart,
    MoveChoice,
    MoveRequest,
    Replayed,
    ReplayGuard,
    SignatureError,
    TimeControl,
    describe,
    verify,
)
from services.api import agent_pb2

SERVICE = "longhouse.agent.v1.Agent"
METHODS = {
    "start": f"/{SERVICE}/StartMatch",
    "move": f"/{SERVICE}/ChooseMove",
    "end": f"/{SERVICE}/EndMatch",
}
"""Full method name of each payload type."""


def to_pb(payload: MatchStart | MoveRequest | MatchEnd | MoveChoice) -> Message:
    """A payload model -> its protobuf message (the fields have the same names)."""
    if isinstance(payload, MatchStart):
        tc = payload.time_control
        return agent_pb2.MatchStart(
            match_id=payload.match_id, game=payload.game, seat=payload.seat, players=payload.players,
            options_json=payload.options_json,
            time_control=agent_pb2.TimeControl(move_ms=tc.move_ms, bank_ms=tc.bank_ms, max_strikes=tc.max_strikes),
        )
    if isinstance(payload, MoveRequest):
        return agent_pb2.MoveRequest(
            match_id=payload.match_id, game=payload.game, seat=payload.seat, version=payload.version,
            view_json=payload.view_json, legal_moves_json=list(payload.legal_moves_json),
            time_left_ms=payload.time_left_ms, bank_ms=payload.bank_ms,
        )
    if isinstance(payload, MatchEnd):
        return agent_pb2.MatchEnd(match_id=payload.match_id, seat=payload.seat, result_json=payload.result_json)
    if isinstance(payload, MoveChoice):
        return agent_pb2.MoveChoice(index=payload.index)
    raise TypeError(f"not an agent payload: {type(payload).__name__}")


def from_pb(msg: Message) -> MatchStart | MoveRequest | MatchEnd | MoveChoice:
    """A protobuf message -> its payload model. Raises BadPayload (a ``*_json`` field that
    is not the JSON text of an object, a field out of range, a MoveChoice without an index)."""
    try:
        if isinstance(msg, agent_pb2.MatchStart):
            tc = msg.time_control
            return MatchStart(
                match_id=msg.match_id, game=msg.game, seat=msg.seat, players=msg.players,
                options_json=msg.options_json or "{}",
                time_control=TimeControl(move_ms=tc.move_ms, bank_ms=tc.bank_ms, max_strikes=tc.max_strikes),
            )
        if isinstance(msg, agent_pb2.MoveRequest):
            return MoveRequest(
                match_id=msg.match_id, game=msg.game, seat=msg.seat, version=msg.version,
                view_json=msg.view_json, legal_moves_json=list(msg.legal_moves_json),
                time_left_ms=msg.time_left_ms, bank_ms=msg.bank_ms,
            )
        if isinstance(msg, agent_pb2.MatchEnd):
            return MatchEnd(match_id=msg.match_id, seat=msg.seat, result_json=msg.result_json)
        if isinstance(msg, agent_pb2.MoveChoice):
            if not msg.HasField("index"):
                raise BadPayload("the MoveChoice has no index")
            return MoveChoice(index=msg.index)
    except ValidationError as exc:
        raise BadPayload(f"{type(msg).__name__}: {describe(exc)}") from None
    raise TypeError(f"not an agent message: {type(msg).__name__}")


def parse_choice_bytes(data: bytes) -> MoveChoice:
    """A serialized ``MoveChoice`` -> :class:`MoveChoice`. Raises BadPayload."""
    try:
        msg = agent_pb2.MoveChoice.FromString(data)
    except DecodeError:
        raise BadPayload("the reply is not a serialized MoveChoice") from None
    return from_pb(msg)  # type: ignore[return-value]


class SignatureInterceptor(grpc.ServerInterceptor):
    """Checks every unary call's signature metadata against the request bytes as received,
    before they are parsed; aborts UNAUTHENTICATED or ALREADY_EXISTS otherwise.

    Args:
        secret: the shared secret.
        guard: the replay guard (default: a new one with the default tolerance).
        clock: unix seconds now (tests may pass their own).
        on_refused: called with (method, status code, reason) for each refused call,
            e.g. to log it (the reason never holds the secret).
    """

    def __init__(self, secret: str | bytes, guard: ReplayGuard | None = None,
                 clock: Callable[[], float] = time.time,
                 on_refused: Callable[[str, grpc.StatusCode, str], None] | None = None):
        self._secret = secret
        self.guard = guard or ReplayGuard()
        self.clock = clock
        self.on_refused = on_refused

    def __repr__(self) -> str:
        return f"SignatureInterceptor(tolerance_s={self.guard.tolerance_s})"

    def intercept_service(self, continuation, handler_call_details):
        handler = continuation(handler_call_details)
        if handler is None or handler.unary_unary is None:
            return handler
        inner, parse = handler.unary_unary, handler.request_deserializer
        method = handler_call_details.method

        def refuse(context: grpc.ServicerContext, code: grpc.StatusCode, reason: str) -> None:
            if self.on_refused is not None:
                self.on_refused(method, code, reason)
            context.abort(code, reason)

        def checked(raw: bytes, context: grpc.ServicerContext) -> Any:
            try:
                verify(self._secret, context.invocation_metadata(), raw, self.clock(), self.guard)
            except Replayed as exc:
                refuse(context, grpc.StatusCode.ALREADY_EXISTS, str(exc))
            except SignatureError as exc:
                refuse(context, grpc.StatusCode.UNAUTHENTICATED, str(exc))
            try:
                request = parse(raw) if parse is not None else raw
            except DecodeError:
                refuse(context, grpc.StatusCode.INVALID_ARGUMENT, "the request is not a valid message")
            return inner(request, context)

        # No request deserializer: grpc hands over the bytes as received.
        return grpc.unary_unary_rpc_method_handler(checked, request_deserializer=None,
                                                   response_serializer=handler.response_serializer)
