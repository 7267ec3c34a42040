"""The agent protocol over gRPC: payloads <-> ``longhouse.agent.v1`` messages, a
server interceptor that checks the engine's signature, and one thread that reads a client
channel's answers for its life (:class:`ChannelReader`).

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

import os
import threading
import time
import weakref
from collections.abc import Callable
from typing import Any

import grpc
from google.protobuf.message import DecodeError, Message
from pydantic import ValidationError

from services.agents.protocol import (
    BadPayload,
    FailedChoice,
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
from services.common import logs

log = logs.get_logger()

SERVICE = "longhouse.agent.v1.Agent"
METHODS = {
    "start": f"/{SERVICE}/StartMatch",
    "move": f"/{SERVICE}/ChooseMove",
    "moves": f"/{SERVICE}/ChooseMoves",
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


def many_to_bytes(requests: list[MoveRequest]) -> bytes:
    """The bytes of a ``MoveRequests`` holding ``requests`` in order (``ChooseMoves``' request, as
    signed and sent)."""
    return agent_pb2.MoveRequests(requests=[to_pb(r) for r in requests]).SerializeToString(deterministic=True)


def parse_choices_bytes(data: bytes, count: int) -> list[MoveChoice | FailedChoice | BadPayload]:
    """A serialized ``MoveChoices`` answering ``count`` requests -> each request's
    :class:`MoveChoice`, the FailedChoice of a choice whose ``error`` is set, or the BadPayload of
    a choice with neither (each that decision's failure alone). Raises BadPayload for
    bytes that are not a ``MoveChoices`` or hold another number of choices than ``count``
    (``protos/agent.proto``, ``ChooseMoves``: the reply is then malformed for every request)."""
    try:
        msg = agent_pb2.MoveChoices.FromString(data)
    except DecodeError:
        raise BadPayload("the reply is not a serialized MoveChoices") from None
    if len(msg.choices) != count:
        raise BadPayload(f"the reply holds {len(msg.choices)} choices for {count} requests")
    out: list[MoveChoice | FailedChoice | BadPayload] = []
    for choice in msg.choices:
        if choice.error:
            out.append(FailedChoice(choice.error))
            continue
        try:
            out.append(from_pb(choice))  # type: ignore[arg-type]
        except BadPayload as exc:
            out.append(exc)
    return out


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


_readers: "weakref.WeakSet[ChannelReader]" = weakref.WeakSet()
"""The readers started in this process (paused around a fork: :func:`_before_fork`)."""

_WAKE_METHOD = f"/{SERVICE}/EndMatch"
"""The method of the call that wakes a reader (past its deadline when made: it is never sent)."""


class ChannelReader:
    """One thread that reads the answers of a client channel's calls made as futures, for the
    channel's life, in place of the threads gRPC would start.

    gRPC's blocking API reads a channel's futures on a thread it starts when a call begins with none
    in flight and ends when the last one ends (``grpc._channel._run_channel_spin_thread``), so calls
    that come one after another, as an agent's decisions do, start a thread each, and the caller
    waits for it to start (the mover's loop with it). Here one call is counted in flight from
    :meth:`start` to :meth:`close`, so gRPC starts no thread of its own, and this one does that
    thread's work (the same completion queue, the same event handlers). In one stack, alternated, the
    agent-grpc path moved 1.07x and 1.04x the moves a second with it (docs/benchmarks.md, "One thread
    reads a gRPC agent's answers").

    A channel must not be closed while a thread reads it (closing destroys its completion queue), nor
    a process forked while a thread waits in gRPC's polling (the child inherits it half-done): the
    thread closes the channel itself once told to (:meth:`close`), and stops around a fork, to start
    again in the parent. It uses grpc's private call state (``channel._call_state``, its ``lock`` and
    ``managed_calls``, and the channel's ``next_call_event``); where that is not there, :meth:`start`
    changes nothing.

    Args:
        channel: a fresh ``grpc.insecure_channel``/``secure_channel``.
    """

    def __init__(self, channel: grpc.Channel):
        self.channel = channel
        self._state: Any = None
        self._kinds: Any = None
        self._lock = threading.Lock()
        self._closed = False
        self._want: str | None = None  # None: read; "pause": stop reading (a fork); "close" (under the call state's lock)
        self._paused = False  # the thread stopped for a pause
        self._thread: threading.Thread | None = None

    def start(self) -> bool:
        """Count the held call and start the reading thread; False (nothing done) where grpc's
        private state is not as expected, gRPC's fork support is on (``GRPC_ENABLE_FORK_SUPPORT``), or
        a call is in flight already (gRPC's own thread then reads it)."""
        from grpc._cython import cygrpc

        if os.environ.get("GRPC_ENABLE_FORK_SUPPORT", "").lower() in ("yes", "true", "1"):
            return False  # gRPC's fork support manages its own threads across a fork: leave them be
        state = getattr(self.channel, "_call_state", None)
        kinds = getattr(cygrpc, "CompletionType", None)
        if state is None or kinds is None or not isinstance(getattr(state, "managed_calls", None), int):
            return False
        with state.lock:
            if state.managed_calls:
                return False
            state.managed_calls = 1  # a call that never ends: gRPC starts no thread of its own
        self._state, self._kinds = state, kinds
        _readers.add(self)
        self._run()
        return True

    def _run(self) -> None:
        self._thread = threading.Thread(target=self._read, name="agent-grpc-read", daemon=True)
        self._thread.start()

    def _read(self) -> None:
        state, kinds = self._state, self._kinds
        while True:
            event = state.channel.next_call_event()
            if event.completion_type == kinds.queue_timeout:
                continue
            if event.completion_type == kinds.queue_shutdown or event.tag is None:
                return  # closed under the thread: not through close(), which has the thread close it
            try:
                ended = event.tag(event)
            except Exception:  # noqa: BLE001 - one call's fault must not stop the channel's reading
                log.exception("agent_grpc_event_failed")
                ended = False
            with state.lock:
                if ended:
                    state.managed_calls -= 1
                want = self._want
                if want == "pause":
                    self._paused = True
                    return  # the held call stays counted: the thread starts again after the fork
                if want != "close" or state.managed_calls != 1:
                    continue
                state.managed_calls = 0  # the held call ends: a later call starts gRPC's own thread
            self.channel.close()  # nothing reads it now, and no call is left on it
            return

    def _wake(self) -> None:
        """A call past its deadline before it begins: it ends at once, unsent, and the thread wakes
        (nothing to wake where the thread has closed the channel already)."""
        try:
            self.channel.unary_unary(_WAKE_METHOD).future(b"", timeout=-60)
        except ValueError:  # "Channel closed!": the thread saw the last call end and closed it
            pass

    def close(self, in_flight: Any = (), timeout_s: float = 5.0) -> None:
        """Cancel ``in_flight`` (the futures of the channel's calls still running) and have the
        thread close the channel once no call is left on it, waiting up to ``timeout_s`` for that
        (not on the thread itself: a client let go in its own answer's callback). A second close
        does nothing; a channel whose thread never ran (or is gone) is closed at once."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
        thread, state = self._thread, self._state
        if thread is None or state is None or not thread.is_alive():
            self.channel.close()
            return
        with state.lock:
            self._want = "close"
        for future in list(in_flight):
            future.cancel()
        self._wake()
        if threading.current_thread() is not thread:
            thread.join(timeout_s)
            if thread.is_alive():  # a call begun meanwhile: closed by the thread when it ends
                log.warning("agent_grpc_reader_not_stopped", timeout_s=timeout_s)

    def _pause(self, timeout_s: float = 5.0) -> bool:
        """Stop the thread, keeping the held call (before a fork); True if it stopped. Not from the
        thread itself (a fork in an answer's callback), nor past ``timeout_s`` (a callback still
        running): the thread then reads on, as gRPC's own would."""
        thread, state = self._thread, self._state
        if thread is None or state is None or threading.current_thread() is thread:
            return False
        with state.lock:
            if self._want is not None or not thread.is_alive():
                return False
            self._want, self._paused = "pause", False
        self._wake()
        thread.join(timeout_s)
        with state.lock:
            if self._paused:
                return True
            self._want = None  # still in a callback: it reads on
            return False

    def _resume(self) -> None:
        """In the parent after a fork: read again."""
        with self._state.lock:
            if self._want != "pause":
                return
            self._want = None
        self._run()

    def _forget(self) -> None:
        """In a forked child: there is no thread here; the held call is dropped, as gRPC's own
        thread would be gone too, and a close closes the channel at once. (No lock is taken: a thread
        of the parent's may have held it at the fork, and the child has only the forking thread.)"""
        self._state.managed_calls = max(0, self._state.managed_calls - 1)
        self._want = None
        self._thread = None


def _before_fork() -> None:
    """Pause every reader (no thread of ours waits in gRPC's polling across a fork)."""
    global _paused
    _paused = [reader for reader in list(_readers) if reader._pause()]


def _after_fork_in_parent() -> None:
    global _paused
    for reader in _paused:
        reader._resume()
    _paused = []


def _after_fork_in_child() -> None:
    global _paused
    for reader in list(_readers):
        if reader._want != "close":
            reader._forget()
    _readers.clear()
    _paused = []


_paused: list[ChannelReader] = []
os.register_at_fork(before=_before_fork, after_in_parent=_after_fork_in_parent,
                    after_in_child=_after_fork_in_child)
