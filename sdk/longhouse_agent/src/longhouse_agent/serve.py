"""``serve(fn, ...)``: a plain function as a Longhouse agent, over HTTP or gRPC.

``fn(view, legal_moves, clock) -> index`` gets the seat's player view (a dict), the legal moves
(dicts) and a :class:`Clock`, and returns the index of its move. :func:`serve` starts a server on
a background thread that checks every request's signature (:class:`~longhouse_agent.protocol.Verifier`:
Standard Webhooks headers over HTTP, the same metadata over gRPC; stale and replayed requests are
refused), answers ``start`` and ``end`` at once and ``move`` with ``fn``'s choice, and keeps the
time each decision took (:class:`Accounts`). The engine's clock is the one that counts: a decision
later than ``time_left_ms`` is a strike whatever the agent does, so ``fn`` should watch
``clock.remaining_ms()``.

HTTP answers: 200 ``{"index": i}``; 401 a bad signature; 409 a replay; 400 a body that is not a
payload; 500 when ``fn`` raised or returned no valid index (the engine plays its default move and
counts a strike). gRPC: ``UNAUTHENTICATED``, ``ALREADY_EXISTS``, ``INVALID_ARGUMENT``, ``INTERNAL``.

Several decisions in one request (HTTP ``"type": "moves"``, gRPC ``ChooseMoves``: the engine's
decisions for this agent that came at once) are answered in order, 200 ``{"choices": [...]}`` (gRPC:
``MoveChoices``), ``fn`` called once a decision with a clock of the batch's shortest time (the reply
waits for the last choice); a decision ``fn`` fails on gets ``{"error": ...}`` in its place, which the
engine counts against that decision alone, as it counts a 500 against a ``move``.
"""

from __future__ import annotations

import json
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Callable, Sequence

from .protocol import (BadPayload, MatchEnd, MatchStart, MoveRequest, MoveRequests, Replayed, SignatureError,
                       TimeControl, Verifier, parse_payload)

MAX_BODY = 16 * 1024 * 1024
"""The largest request read (a player view is a few KiB to a few hundred)."""


@dataclass(frozen=True)
class Clock:
    """The time of one decision, in the engine's terms.

    Attributes:
        time_left_ms: the engine's allowance for this decision when it asked (move time + bank).
        bank_ms: the bank left (included in ``time_left_ms``).
        move_ms: the time per move of the match (None if the agent saw no ``start``).
        received: ``time.monotonic()`` when the request arrived.
    """

    time_left_ms: int
    bank_ms: int
    move_ms: int | None
    received: float

    def elapsed_ms(self) -> float:
        """Milliseconds since the request arrived."""
        return (time.monotonic() - self.received) * 1000

    def remaining_ms(self) -> float:
        """Milliseconds left before the engine stops waiting (the network's share not counted)."""
        return self.time_left_ms - self.elapsed_ms()


Choose = Callable[[dict[str, Any], list[dict[str, Any]], Clock], int]
"""``fn(view, legal_moves, clock) -> index``."""


@dataclass
class Accounts:
    """What the agent did, per match id: ``decisions``, ``think_ms`` (total), ``slowest_ms``, ``late``
    (decisions that took longer than the time left), ``errors`` (``fn`` raised or gave a bad index),
    ``results`` (the ``end`` payload's result)."""

    decisions: dict[str, int] = field(default_factory=dict)
    think_ms: dict[str, float] = field(default_factory=dict)
    slowest_ms: dict[str, float] = field(default_factory=dict)
    late: dict[str, int] = field(default_factory=dict)
    errors: dict[str, int] = field(default_factory=dict)
    results: dict[str, dict[str, Any]] = field(default_factory=dict)
    started: dict[str, MatchStart] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def record(self, match_id: str, used_ms: float, allowed_ms: int, error: bool) -> None:
        """Count one decision of ``match_id`` that took ``used_ms`` of ``allowed_ms``."""
        with self.lock:
            self.decisions[match_id] = self.decisions.get(match_id, 0) + 1
            self.think_ms[match_id] = self.think_ms.get(match_id, 0.0) + used_ms
            self.slowest_ms[match_id] = max(self.slowest_ms.get(match_id, 0.0), used_ms)
            if used_ms > allowed_ms:
                self.late[match_id] = self.late.get(match_id, 0) + 1
            if error:
                self.errors[match_id] = self.errors.get(match_id, 0) + 1


class Decider:
    """The protocol's logic, whatever the transport: one per served agent.

    Args:
        fn: the choosing function (:data:`Choose`).
        on_start, on_end: optional callbacks with the ``start`` and ``end`` payloads.
    """

    def __init__(self, fn: Choose, on_start: Callable[[MatchStart], None] | None = None,
                 on_end: Callable[[MatchEnd], None] | None = None):
        self.fn = fn
        self.on_start = on_start
        self.on_end = on_end
        self.accounts = Accounts()

    def start(self, payload: MatchStart) -> None:
        """Remember the match's time control; call ``on_start``."""
        with self.accounts.lock:
            self.accounts.started[payload.match_id] = payload
        if self.on_start:
            self.on_start(payload)

    def end(self, payload: MatchEnd) -> None:
        """Keep the result; call ``on_end``."""
        with self.accounts.lock:
            self.accounts.results[payload.match_id] = payload.result
        if self.on_end:
            self.on_end(payload)

    def choose(self, payload: MoveRequest, received: float) -> int:
        """``fn``'s index for ``payload``. Raises ValueError if ``fn`` raised or gave no valid index."""
        started = self.accounts.started.get(payload.match_id)
        control: TimeControl | None = started.time_control if started else None
        clock = Clock(payload.time_left_ms, payload.bank_ms, control.move_ms if control else None, received)
        moves = payload.legal_moves
        error = True
        try:
            index = self.fn(payload.view, moves, clock)
            if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(moves):
                raise ValueError(f"the function chose {index!r}; {len(moves)} legal moves were offered")
            error = False
            return index
        except ValueError:
            raise
        except Exception as exc:  # noqa: BLE001 - the agent's own code failed: a strike, not a crash of the server
            raise ValueError(f"the function raised {type(exc).__name__}: {exc}") from None
        finally:
            self.accounts.record(payload.match_id, clock.elapsed_ms(), payload.time_left_ms, error)


class AgentServer:
    """A running agent (returned by :func:`serve`).

    Attributes:
        protocol: ``http`` or ``grpc``.
        host, port: where it listens.
        address: what to register (``http://host:port/`` or ``host:port``).
        accounts: the :class:`Accounts` of its decisions.
    """

    def __init__(self, protocol: str, host: str, port: int, decider: Decider, stop: Callable[[], None]):
        self.protocol = protocol
        self.host = host
        self.port = port
        self.address = f"http://{host}:{port}/" if protocol == "http" else f"{host}:{port}"
        self.decider = decider
        self.accounts = decider.accounts
        self._stop = stop
        self._stopped = threading.Event()

    def wait(self, timeout: float | None = None) -> bool:
        """Block until :meth:`close` (or ``timeout`` seconds); True if it was closed."""
        return self._stopped.wait(timeout)

    def close(self) -> None:
        """Stop serving (requests under way are answered)."""
        if not self._stopped.is_set():
            self._stop()
            self._stopped.set()

    def __enter__(self) -> "AgentServer":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


SECRET_LENGTH = (16, 256)
"""The lengths of secret the engine registers (``POST /agents``), in characters."""


def serve(fn: Choose, *, protocol: str = "http", secret: str | Sequence[str], host: str = "127.0.0.1",
          port: int = 0, on_start: Callable[[MatchStart], None] | None = None,
          on_end: Callable[[MatchEnd], None] | None = None, tolerance_s: float = 300) -> AgentServer:
    """Serve ``fn`` as an agent on ``host:port`` (0: a free port) until :meth:`AgentServer.close`.

    Args:
        fn: ``fn(view, legal_moves, clock) -> index`` (:data:`Choose`).
        protocol: ``http`` (a Standard Webhooks endpoint at ``/``) or ``grpc``
            (``longhouse.agent.v1.Agent``).
        secret: the secret registered with the engine, or several (accept each, e.g. while rotating).
        on_start, on_end: called with the ``start`` and ``end`` payloads.
        tolerance_s: seconds a request's timestamp may be off this machine's clock.
    Returns:
        the running :class:`AgentServer` (``.address`` is what to register).
    Raises:
        ValueError: an unknown protocol, or a secret the engine would not register (it takes 16
            to 256 characters); OSError: the port is taken.
    """
    for one in ([secret] if isinstance(secret, str) else list(secret)):
        if not SECRET_LENGTH[0] <= len(one) <= SECRET_LENGTH[1]:
            raise ValueError(f"a secret of {len(one)} characters: the engine registers secrets of "
                             f"{SECRET_LENGTH[0]} to {SECRET_LENGTH[1]} characters (POST /agents)")
    verifier = Verifier(secret, tolerance_s=tolerance_s)
    decider = Decider(fn, on_start, on_end)
    if protocol == "http":
        return _serve_http(decider, verifier, host, port)
    if protocol == "grpc":
        return _serve_grpc(decider, verifier, host, port)
    raise ValueError(f"protocol is 'http' or 'grpc', not {protocol!r}")


def _serve_http(decider: Decider, verifier: Verifier, host: str, port: int) -> AgentServer:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        server_version = "longhouse-agent"

        def log_message(self, format: str, *args: object) -> None:
            pass

        def _send(self, status: int, body: dict[str, Any]) -> None:
            data = json.dumps(body).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_POST(self) -> None:
            received = time.monotonic()
            length = self.headers.get("Content-Length", "")
            if not length.isdigit() or int(length) > MAX_BODY:
                self.close_connection = True
                return self._send(411 if not length.isdigit() else 413, {"error": "bad length"})
            body = self.rfile.read(int(length))
            try:
                verifier.verify(self.headers.items(), body)
            except Replayed as exc:
                return self._send(409, {"error": str(exc)})
            except SignatureError as exc:
                return self._send(401, {"error": str(exc)})
            try:
                payload = parse_payload(body)
            except BadPayload as exc:
                return self._send(400, {"error": str(exc)})
            if isinstance(payload, MoveRequest):
                try:
                    return self._send(200, {"index": decider.choose(payload, received)})
                except ValueError as exc:
                    return self._send(500, {"error": str(exc)[:300]})
            if isinstance(payload, MoveRequests):  # one choice a request; a failed one has no index
                return self._send(200, {"choices": [_choice_of(decider, r, received)
                                                    for r in _shortest(payload.requests)]})
            (decider.start if isinstance(payload, MatchStart) else decider.end)(payload)
            self._send(200, {})

    server = ThreadingHTTPServer((host, port), Handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, name="longhouse-agent-http", daemon=True)
    thread.start()

    def stop() -> None:
        server.shutdown()
        server.server_close()
        thread.join(10)

    return AgentServer("http", host, server.server_address[1], decider, stop)


def _serve_grpc(decider: Decider, verifier: Verifier, host: str, port: int) -> AgentServer:
    import grpc

    from .wire import MESSAGES, SERVICE

    def handler(kind: str) -> Callable[[bytes, Any], bytes]:
        def call(raw: bytes, context: Any) -> bytes:
            received = time.monotonic()
            try:
                verifier.verify(context.invocation_metadata(), raw)
            except Replayed as exc:
                context.abort(grpc.StatusCode.ALREADY_EXISTS, str(exc))
            except SignatureError as exc:
                context.abort(grpc.StatusCode.UNAUTHENTICATED, str(exc))
            try:
                message = MESSAGES[kind].FromString(raw)
                if kind == "MoveRequests":
                    return _choose_many(decider, message, received)
                fields = _as_dict(message)
                if kind == "MatchStart":
                    decider.start(MatchStart.model_validate(fields))
                elif kind == "MatchEnd":
                    decider.end(MatchEnd.model_validate(fields))
                else:
                    try:
                        index = decider.choose(MoveRequest.model_validate(fields), received)
                    except ValueError as exc:
                        context.abort(grpc.StatusCode.INTERNAL, str(exc)[:300])
                    return MESSAGES["MoveChoice"](index=index).SerializeToString()
            except (ValueError, TypeError) as exc:
                context.abort(grpc.StatusCode.INVALID_ARGUMENT, str(exc)[:300])
            return MESSAGES["Ack"]().SerializeToString()
        return call

    methods = {"StartMatch": "MatchStart", "ChooseMove": "MoveRequest", "ChooseMoves": "MoveRequests",
               "EndMatch": "MatchEnd"}
    generic = grpc.method_handlers_generic_handler(SERVICE, {
        name: grpc.unary_unary_rpc_method_handler(handler(kind)) for name, kind in methods.items()})
    server = grpc.server(ThreadPoolExecutor(8), handlers=[generic])
    bound = server.add_insecure_port(f"{host}:{port}")
    if not bound:
        raise OSError(f"cannot listen on {host}:{port}")
    server.start()
    return AgentServer("grpc", host, bound, decider, lambda: server.stop(2).wait(10))


def _shortest(requests: list[MoveRequest]) -> list[MoveRequest]:
    """The requests of one batch, each given the batch's shortest time left: the reply goes out once
    every choice is made, and each counts only within its own request's time."""
    shortest = min(r.time_left_ms for r in requests)
    return [r if r.time_left_ms == shortest else r.model_copy(update={"time_left_ms": shortest}) for r in requests]


def _choice_of(decider: Decider, request: MoveRequest, received: float) -> dict[str, Any]:
    """One request's answer within ``moves``: ``{"index": i}``, or ``{"error": ...}`` where the
    function failed (that decision's crash alone)."""
    try:
        return {"index": decider.choose(request, received)}
    except ValueError as exc:
        return {"error": str(exc)[:300]}


def _choose_many(decider: Decider, message: Any, received: float) -> bytes:
    """``ChooseMoves``: the ``MoveChoices`` bytes answering each request of ``message`` (a
    ``MoveRequests``) in order, as ``ChooseMove`` would alone, each within the batch's shortest time
    (:func:`_shortest`); a request the function fails on gets a choice whose ``error`` says why (that
    decision's crash alone: protos/agent.proto, ``MoveChoices``)."""
    from .wire import MESSAGES

    requests = _shortest([MoveRequest.model_validate(_as_dict(r)) for r in message.requests])
    return MESSAGES["MoveChoices"](choices=[MESSAGES["MoveChoice"](**_choice_of(decider, r, received))
                                            for r in requests]).SerializeToString()


def _as_dict(message: Any) -> dict[str, Any]:
    """A message's fields as the JSON payload names them (defaults included, ints as ints)."""
    from google.protobuf.json_format import MessageToDict

    out = MessageToDict(message, preserving_proto_field_name=True, always_print_fields_with_no_presence=True)
    for key in ("version", "time_left_ms", "bank_ms"):
        if key in out:
            out[key] = int(out[key])
    if "time_control" in out:
        out["time_control"] = {k: int(v) for k, v in out["time_control"].items()}
    out["type"] = {"MatchStart": "start", "MoveRequest": "move", "MatchEnd": "end"}[message.DESCRIPTOR.name]
    return out
