"""The engine's side of the agent protocol: one client per external agent.

:func:`make_client` turns a registry record into a :class:`GrpcAgentClient` or an
:class:`HttpAgentClient`. Each call (``start``, ``choose``, ``end``) takes a timeout in
seconds, a TOTAL deadline kept on the engine's clock: connecting, sending, the agent's
thinking and reading its answer all fit in it, however slowly the agent sends bytes.
Every failure is an :class:`AgentFailure` whose ``kind`` says what went wrong:

===========  ==============================================================================
kind         when
===========  ==============================================================================
timeout      no complete answer within the timeout
crash        unreachable, connection closed, an error status (HTTP non-2xx, a redirect, a
             gRPC status other than OK), the agent refused the engine's signature, or the
             allow-list refused its address (at connection time)
malformed    the answer is not the expected message: not JSON / not a serialized
             MoveChoice, no integer ``index``, larger than ``max_reply_bytes``, or compressed
illegal      the index is not one of the legal moves offered
===========  ==============================================================================

The ``illegal`` check is done here: :meth:`AgentClient.choose` only returns a
:class:`MoveChoice` whose index is in range for the request's ``legal_moves_json`` (so the
caller may pass it straight to :func:`~services.agents.protocol.choice_to_move`).

Every client calls only addresses its allow-list permits (:mod:`services.agents.addresses`,
``LONGHOUSE_AGENT_ALLOW`` by default): at every connection it opens, it resolves the host, checks
every address and connects to one of exactly those (no second lookup a rebinding DNS server could
answer otherwise). A refused address is a ``crash`` whose message says why. Answers are capped at
``max_reply_bytes`` (``LONGHOUSE_AGENT_MAX_REPLY_BYTES``, 64 KiB by default; read as a stream and
given up at the cap over HTTP, gRPC's receive limit over gRPC).

Each call is a CLIENT span when tracing is on (:mod:`services.common.tracing`), and carries the
trace context to the agent: the W3C ``traceparent`` (and ``tracestate``) header of the webhook's
POST, or the same keys in the gRPC call's metadata; outside the signature, which covers the body.

A move is asked in one of two ways, with the same bytes, checks and failure kinds:
:meth:`AgentClient.choose` waits on the caller's thread; :meth:`AgentClient.choose_async`
(a gRPC agent at an IP address, any webhook) returns once the call is on its way and calls back
with the outcome (a gRPC future, read by its channel's one reading thread,
:class:`~services.agents.grpc_wire.ChannelReader`; a webhook's POST on the
process's agent loop, :mod:`services.agents.aio`, by aiohttp, a host name looked up on the
lookup pool).

No client retries: one call is one attempt, and what to do about a failure (a strike, a
default move) is the caller's business. Neither the secret nor anything that might hold
a credential (a URL's user or query) ever appears in a message or a repr.
"""

from __future__ import annotations

import asyncio
import heapq
import http.client
import ipaddress
import logging
import math
import re
import socket
import ssl
import threading
import time
import weakref
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from concurrent.futures import Executor, ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from typing import Any, Literal, Self
from urllib.parse import unquote, urlsplit

import certifi
import grpc
import urllib3.exceptions
from aiohttp.abc import AbstractResolver
from pydantic import BaseModel
from urllib3.connection import HTTPConnection, HTTPSConnection
from urllib3.connectionpool import HTTPConnectionPool, HTTPSConnectionPool
from urllib3.exceptions import ConnectTimeoutError, NewConnectionError
from urllib3.util import connection as urllib3_connection
from urllib3.util import make_headers, parse_url
from urllib3.util.response import assert_header_parsing
from yarl import URL

from services.agents.aio import agent_loop
from services.agents.addresses import (
    AddressRefused,
    AllowList,
    Target,
    agent_endpoint,
    configured_allow_list,
    is_literal,
)

from services.common import logs, tracing
from services.agents.protocol import (
    BadPayload,
    IllegalChoice,
    MatchEnd,
    MatchStart,
    MoveChoice,
    MoveRequest,
    MoveRequests,
    FailedChoice,
    NotBatched,
    choice_to_move,
    encode,
    parse_choice,
    parse_choices,
    Secrets,
    signed_headers,
    signed_metadata,
)

FailureKind = Literal["timeout", "crash", "malformed", "illegal"]
FAILURE_KINDS: tuple[str, ...] = ("timeout", "crash", "malformed", "illegal")
MAX_REPLY_BYTES = 64 * 1024
"""The largest answer read from an agent by default (``LONGHOUSE_AGENT_MAX_REPLY_BYTES``); a
longer one is malformed."""
HTTP_POOL_WORKERS = 16
"""Threads of the shared pool that runs blocking HTTP calls to host names (each holds one until
it ends)."""
LOOKUP_POOL_WORKERS = 32
"""Threads of the pool that looks agents' host names up and checks their addresses (a gRPC
agent's before each call, a webhook's at each connection the agent loop opens). A lookup cannot
be given up, so a slow one keeps its thread past its call's deadline; the pool is apart from the
blocking calls' so that calls hanging there never hold a lookup up."""
HTTP_KEEP_ALIVE = 64
"""Idle connections one HTTP agent client keeps for reuse (a mover's desk makes up to 64 calls at
once, :data:`services.phases.agent_desk.THREADS`, each on its own thread and connection; more at
once open more, and those beyond this are closed when their call ends)."""

MOVES_NOT_SERVED = frozenset({400, 404, 405, 415, 422, 501})
"""The HTTP statuses by which a webhook says it does not understand a POST of ``moves``
(:class:`~services.agents.protocol.MoveRequests`): it is then asked one ``move`` a decision. Any
other status fails the decisions as it fails a ``move`` (a refused signature, say, is no reason to
stop asking several at once)."""

log = logs.get_logger()


class _NoHeaderWarnings(logging.Filter):
    """Drops urllib3's warning about an answer whose headers do not parse: it quotes the agent's
    URL, query included (which may hold a credential), and the headers the agent chose to send.
    The webhook client makes such an answer a ``crash`` itself (:meth:`HttpAgentClient._post_tracked`)."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not str(record.msg).startswith("Failed to parse headers")


logging.getLogger("urllib3.connection").addFilter(_NoHeaderWarnings())

_CALL_NAMES = {"start": "StartMatch", "move": "ChooseMove", "moves": "ChooseMoves", "end": "EndMatch"}
RECONNECT_OPTIONS = (("grpc.initial_reconnect_backoff_ms", 100), ("grpc.max_reconnect_backoff_ms", 1000))
"""How soon a gRPC agent's channel tries its address again once a connection failed: 0.1 s, then
growing to at most 1 s (how long one attempt may take stays gRPC's own, 20 s: a far agent's
connection and TLS handshake are not cut short). Calls fail at once while the channel waits to try again (a ``crash``:
could not be reached), so gRPC's defaults (1 s growing to 120 s) kept a restarted agent
unreachable, and striking, for many seconds after it was back (13.7 s after 30 s away)."""


class AgentFailure(Exception):
    """An agent did not give a usable answer in time.

    Attributes:
        kind: ``"timeout"``, ``"crash"``, ``"malformed"`` or ``"illegal"``.
        message: what happened, in words (never the secret).
    """

    def __init__(self, kind: FailureKind, message: str):
        if kind not in FAILURE_KINDS:
            raise ValueError(f"unknown agent failure kind {kind!r}")
        super().__init__(message)
        self.kind = kind
        self.message = message

    def __repr__(self) -> str:
        return f"AgentFailure({self.kind!r}, {self.message!r})"


def _clean(text: Any, limit: int = 200) -> str:
    """Agent-supplied text made safe to quote: printable, one line, at most ``limit`` chars."""
    text = re.sub(r"[^\x20-\x7e]", "?", str(text))
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _check_timeout(timeout_s: float) -> float:
    if isinstance(timeout_s, bool) or not isinstance(timeout_s, (int, float)) or not math.isfinite(timeout_s) \
            or timeout_s <= 0:
        raise ValueError(f"timeout_s must be a positive number of seconds, not {timeout_s!r}")
    return float(timeout_s)


def _as(model: type[BaseModel], payload: Any) -> Any:
    if isinstance(payload, model):
        return payload
    if isinstance(payload, Mapping):
        return model.model_validate(dict(payload))
    raise TypeError(f"expected a {model.__name__} or a mapping, not {type(payload).__name__}")


class AgentClient(ABC):
    """One external agent, as the engine calls it.

    Attributes:
        name: how messages name the agent (its registered name, or its address).
        allow: the allow-list every connection is checked against.
        max_reply_bytes: the largest answer accepted.
    """

    name: str
    allow: AllowList
    max_reply_bytes: int
    asks_without_thread: bool = False
    """True if :meth:`choose_async` serves: the call needs no thread of the caller's while the agent
    thinks."""
    _batches: bool | None = None
    """Whether the agent serves batches (:meth:`choose_many_async`): None until a batch's call tells
    (:meth:`_batch_ended`)."""
    _probing: bool = False
    """A batch is out to an agent not yet known to serve them: the decisions meanwhile go alone."""

    def start(self, payload: MatchStart | Mapping[str, Any], timeout_s: float) -> None:
        """Tell the agent a match starts. Raises AgentFailure (``timeout`` or ``crash``)."""
        self._traced("start", _as(MatchStart, payload), _check_timeout(timeout_s))

    def choose(self, payload: MoveRequest | Mapping[str, Any], timeout_s: float) -> MoveChoice:
        """Ask the agent for a move; its choice, always an index into ``payload.legal_moves_json``.
        Raises AgentFailure (any kind)."""
        request = _as(MoveRequest, payload)
        choice = self._traced("move", request, _check_timeout(timeout_s))
        assert isinstance(choice, MoveChoice)
        return self._legal(choice, request)

    def _legal(self, choice: MoveChoice, request: MoveRequest) -> MoveChoice:
        """``choice`` if it is one of the moves ``request`` offered; else raises AgentFailure
        (``illegal``)."""
        try:
            choice_to_move(choice, request.legal_moves_json)
        except IllegalChoice as exc:
            raise AgentFailure("illegal", f"agent {self.name}: {exc}") from None
        return choice

    def choose_async(self, payload: MoveRequest | Mapping[str, Any], timeout_s: float,
                     done: Callable[["MoveChoice | AgentFailure"], None]) -> None:
        """:meth:`choose` without waiting: the request is built and signed here and the call on its
        way before this returns, and ``done`` is called once, from the client's own thread (gRPC's
        callback thread, the agent loop's), with the choice (an index into
        ``payload.legal_moves_json``) or the AgentFailure that :meth:`choose` would raise. Only
        where :attr:`asks_without_thread`. Raises AgentFailure for what fails before anything is
        sent, NotImplementedError elsewhere."""
        raise NotImplementedError(f"{type(self).__name__} asks in the caller's thread (choose)")

    def choose_many_async(self, asks: list[Ask]) -> None:
        """:meth:`choose_async` for several decisions at once: each ``(payload, timeout_s, done)``
        of ``asks`` gets its ``done`` called exactly once, with the outcome asking it alone would
        give (a failure before anything is sent included). Where the client can
        (:meth:`_send_batch`: a gRPC agent's ``ChooseMoves``, a webhook's POST of ``moves``), the
        decisions go in as few calls as :func:`batches` makes of them, each signed once, its
        deadline the longest of its decisions' times, each answer checked request by request; an
        agent that does not serve batches is asked each decision alone at once, with the time it
        has left (:meth:`_batch_ended` says when). Until the agent has answered a batch, one batch
        at a time is out to it, the other decisions meanwhile asked alone. Only where
        :attr:`asks_without_thread`.

        Raises:
            NotImplementedError: elsewhere.
            ValueError, TypeError, pydantic's ValidationError: a timeout that is not a positive
                number of seconds, a payload that is not a move request (nothing sent then).
        """
        if not self.asks_without_thread:
            raise NotImplementedError(f"{type(self).__name__} asks in the caller's thread (choose)")
        checked = [(_as(MoveRequest, payload), _check_timeout(timeout_s), done) for payload, timeout_s, done in asks]
        probe = self._batches is None  # one batch in flight until the agent has answered one
        for batch in (batches(checked) if self._batches is not False else [[ask] for ask in checked]):
            if len(batch) == 1 or (probe and self._probing):
                for ask in batch:
                    self._one(*ask)
            else:
                self._probing = probe
                self._send_batch(batch)

    def _one(self, request: MoveRequest, timeout_s: float, done: Callable[["MoveChoice | AgentFailure"], None]) -> None:
        """:meth:`choose_async`, whatever fails before the call is sent given to ``done`` (a fault of
        the engine's own a ``crash``): never raises."""
        try:
            self.choose_async(request, timeout_s, done)
        except AgentFailure as exc:
            done(exc)
        except Exception as exc:  # noqa: BLE001 - never a decision left without its outcome
            done(AgentFailure("crash", f"agent {self.name}: {type(exc).__name__}: {exc}"))

    def _send_batch(self, batch: list[Checked]) -> None:
        """Send ``batch`` (two decisions or more, each ``(request, timeout_s, done)``) in one call,
        ending with :meth:`_batch_ended`. This client asks each alone."""
        for ask in batch:
            self._one(*ask)

    def _batch_deadline(self, batch: list[Checked]) -> float:
        """Seconds the call of ``batch`` may take: the longest of its decisions' times; for an agent
        not yet known to serve batches, :data:`PROBE_S` at most and half the shortest time (a
        timeout then asks each alone: :meth:`_batch_ended`)."""
        longest = max(t for _, t, _ in batch)
        if self._batches is True:
            return longest
        return min(longest, PROBE_S, min(t for _, t, _ in batch) / 2)

    def _batch_ended(self, batch: list[Checked], sent_at: float, span: Any, ended: "BatchEnd") -> None:
        """Give each decision of ``batch`` (sent at ``sent_at``, monotonic s) its outcome from how
        its call ended (``ended``), and learn from it whether the agent serves batches:

        * ``("answered", outcomes)``: a reply of one choice a request; the agent serves batches;
        * ``("timeout", None)``: no reply within the call's deadline (:meth:`_batch_deadline`): each
          decision a ``timeout`` of its own time, where the agent serves batches; else each asked
          alone, and one call a decision from then on (an agent of an older kind may never answer
          a request it does not know);
        * ``("cancelled", failure)``: the client was closed: ``failure`` for each;
        * ``("unreachable", failure)``: no connection, or it closed: each asked alone (which says
          what it says alone), nothing learnt;
        * ``("too large", None)``: the agent refused the request's size: each asked alone;
        * ``("not served", None)``: the agent said it does not serve batches (gRPC UNIMPLEMENTED;
          a webhook's :data:`MOVES_NOT_SERVED` status or an answer without ``choices``): each
          asked alone, and from then on one call a decision; an agent that had served batches is
          asked a batch again next time (a proxy's 404 while it is redeployed, say);
        * ``("failed", failure)``: any other failure of the call: ``failure`` for each decision,
          once the agent has answered a batch; before that, each is asked alone and the agent
          one call a decision from then on (an agent written before batches may answer anything
          to a request it does not know, a 500 say).
        """
        kind, detail = ended
        span.end()
        self._probing = False
        if kind == "answered":
            self._batches = True
            outcomes = detail
        elif kind == "timeout" and self._batches is True:
            outcomes = [self._timed_out(_CALL_NAMES["moves"], timeout_s) for _, timeout_s, _ in batch]
        elif kind == "cancelled" or (kind == "failed" and self._batches is True):
            outcomes = [detail] * len(batch)
        else:
            if kind in ("not served", "failed", "timeout"):
                self._batches = None if self._batches is True and kind == "not served" else False
            self._alone(batch, sent_at)
            return
        for (_, _, done), outcome in zip(batch, outcomes):
            done(outcome)

    def _each_legal(self, choices: list[MoveChoice | FailedChoice | BadPayload], batch: list[Checked],
                    what: str) -> list["MoveChoice | AgentFailure"]:
        """The outcome of each request of ``batch`` from its parsed choice (in order): ``crash`` for a
        choice where the agent said it failed, ``malformed`` for one that did not parse, ``illegal``
        for one out of its request's range."""
        outcomes: list[MoveChoice | AgentFailure] = []
        for (request, _, _), choice in zip(batch, choices):
            if isinstance(choice, FailedChoice):
                outcomes.append(AgentFailure("crash", f"agent {self.name} failed that decision in {what}: "
                                                      f"{_clean(str(choice))}"))
            elif isinstance(choice, BadPayload):
                outcomes.append(AgentFailure("malformed", f"agent {self.name} answered {what} with a bad reply: "
                                                          f"{choice}"))
            else:
                try:
                    outcomes.append(self._legal(choice, request))
                except AgentFailure as exc:
                    outcomes.append(exc)
        return outcomes

    def _alone(self, batch: list[Checked], sent_at: float) -> None:
        """Ask each ``(request, timeout_s, done)`` of ``batch`` in a call of its own
        (:meth:`choose_async`), with the time it has left since ``sent_at`` (monotonic s), its
        ``time_left_ms`` less the same."""
        spent = time.monotonic() - sent_at
        for request, timeout_s, done in batch:
            left = timeout_s - spent
            if left <= 0:
                done(self._timed_out(_CALL_NAMES["move"], timeout_s))
                continue
            told = max(0, request.time_left_ms - math.ceil(spent * 1000))
            self._one(request.model_copy(update={"time_left_ms": told, "bank_ms": min(request.bank_ms, told)}),
                      left, done)

    def end(self, payload: MatchEnd | Mapping[str, Any], timeout_s: float) -> None:
        """Tell the agent the match ended. Raises AgentFailure (``timeout`` or ``crash``)."""
        self._traced("end", _as(MatchEnd, payload), _check_timeout(timeout_s))

    def _traced(self, kind: str, payload: BaseModel, timeout_s: float) -> MoveChoice | None:
        """:meth:`_call` in a CLIENT span (tracing on) that records a failure's kind."""
        with tracing.span(f"agent {_CALL_NAMES[kind]}", kind=tracing.SpanKind.CLIENT,
                          longhouse__agent=self.name, longhouse__agent_call=kind) as current:
            try:
                return self._call(kind, payload, timeout_s)
            except AgentFailure as exc:
                if current.is_recording():
                    current.set_attribute("longhouse.agent_failure", exc.kind)
                raise

    @abstractmethod
    def _call(self, kind: str, payload: BaseModel, timeout_s: float) -> MoveChoice | None:
        """Send one payload; the parsed MoveChoice for ``move``, None otherwise."""

    def _refused(self, exc: AddressRefused) -> AgentFailure:
        """The ``crash`` of a call the allow-list refused (its reason says why)."""
        return AgentFailure("crash", f"agent {self.name}: {exc.reason}")

    def _timed_out(self, method: str, timeout_s: float, extra: str = "") -> AgentFailure:
        """The ``timeout`` failure of a call of ``method`` that did not answer within ``timeout_s``."""
        return AgentFailure("timeout", f"agent {self.name} did not answer {method} within {timeout_s:g} s{extra}")

    def close(self) -> None:
        """Release the client's connections (it may not be used afterwards)."""

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"{type(self).__name__}(name={self.name!r})"


Ask = tuple["MoveRequest | Mapping[str, Any]", float, Callable[["MoveChoice | AgentFailure"], None]]
"""One decision of :meth:`AgentClient.choose_many_async`: ``(payload, timeout_s, done)``, as
:meth:`AgentClient.choose_async` takes them."""
Checked = tuple[MoveRequest, float, Callable[["MoveChoice | AgentFailure"], None]]
"""An :data:`Ask` checked: its request, its timeout in seconds, its callback."""
BatchEnd = tuple[str, Any]
"""How a batch's call ended: :meth:`AgentClient._batch_ended`."""

BATCH_MOST = 32
"""Most decisions in one batch."""
BATCH_BYTES = 1 << 20
"""Most bytes of requests (views and legal moves, about) in one batch: well under what gRPC (4 MiB)
and the example agents (16 MiB) take in one request; a request larger alone is asked alone."""
BATCH_SPREAD = 1.5
"""Most ratio between the longest and the shortest time of the decisions in one batch: its reply
waits for its slowest choice, and each answer counts only within its own decision's time."""
PROBE_S = 1.0
"""Longest wait for the first batch of an agent not yet known to serve batches (at most half its
shortest decision's time): an agent of an older kind may never answer a request it does not know,
and its decisions are then asked alone with the time they have left."""


def _size(request: MoveRequest) -> int:
    """About how many bytes ``request`` takes in a batch."""
    return 64 + len(request.view_json) + sum(len(m) + 4 for m in request.legal_moves_json)


def batches(asks: list[Checked], most: int = BATCH_MOST, most_bytes: int = BATCH_BYTES,
            spread: float = BATCH_SPREAD) -> list[list[Checked]]:
    """``asks`` split into the batches :meth:`AgentClient.choose_many_async` sends: by time left
    (shortest first), a batch closed where the next decision's time is more than ``spread`` times
    its first's, where it holds ``most``, or where the next would take it past ``most_bytes``
    (a decision larger alone is a batch of its own, asked alone). Every ask is in exactly one."""
    out: list[list[Checked]] = []
    size = 0
    for ask in sorted(asks, key=lambda a: a[1]):
        weight = _size(ask[0])
        batch = out[-1] if out else None
        if batch is None or len(batch) >= most or size + weight > most_bytes or ask[1] > batch[0][1] * spread:
            out.append([ask])
            size = weight
        else:
            batch.append(ask)
            size += weight
    return out


def _keep_open(client: AgentClient, close: Callable[[], Any]) -> None:
    """On the agent loop: ``close`` (a coroutine function) closes what ``client`` made there, at
    the client's :meth:`~AgentClient.close`, when it is garbage (a client the engine's cache let
    go), or at the process's exit, whichever comes first."""
    loop = agent_loop()
    if loop.keep_open(id(client), close):
        weakref.finalize(client, loop.close_later, id(client))


def _answered(span: Any, outcome: "MoveChoice | AgentFailure",
              done: Callable[["MoveChoice | AgentFailure"], None]) -> None:
    """End a :meth:`~AgentClient.choose_async` call's span (a failure's kind recorded), then give
    ``done`` its outcome."""
    if isinstance(outcome, AgentFailure) and span.is_recording():
        span.set_attribute("longhouse.agent_failure", outcome.kind)
    span.end()
    done(outcome)


# -- gRPC -----------------------------------------------------------------------------------
class _Unreachable(Exception):
    """A webhook's POST of ``moves`` found no connection, or lost it: ``failure`` is what it is."""

    def __init__(self, failure: AgentFailure):
        super().__init__(str(failure))
        self.failure = failure


class _TooLarge(Exception):
    """A webhook refused a POST of ``moves`` as too large (413)."""


class _NotServed(Exception):
    """The agent does not serve several decisions in one call: it answered ``ChooseMoves``
    UNIMPLEMENTED, or a webhook's ``moves`` with a status of :data:`MOVES_NOT_SERVED` or an object
    without ``choices``."""


_GRPC_CRASH_WORDS = {
    grpc.StatusCode.UNAVAILABLE: "could not be reached or closed the connection",
    grpc.StatusCode.UNAUTHENTICATED: "refused the engine's signature",
    grpc.StatusCode.PERMISSION_DENIED: "refused the engine's signature",
    grpc.StatusCode.ALREADY_EXISTS: "refused the request as a replay",
    grpc.StatusCode.UNIMPLEMENTED: "does not serve that method of longhouse.agent.v1.Agent",
}


class GrpcAgentClient(AgentClient):
    """An agent serving ``longhouse.agent.v1.Agent`` at ``address`` (``host:port``).

    Before each call the host is resolved and every address checked against the allow-list
    (on the shared pool, within the call's timeout); the channel is pinned to one checked
    address (target ``ipv4:``/``ipv6:``, no DNS of gRPC's own, no proxy from the environment,
    ``:authority`` still the registered ``host:port``) and reused while that address stays among
    the checked ones. Each call's deadline is what is left of its timeout. The engine serializes
    each request itself and signs exactly those bytes (Standard Webhooks metadata ``webhook-id``,
    ``webhook-timestamp``, ``webhook-signature``).

    Args:
        address: ``host:port`` (an IPv6 address in brackets).
        secret: the shared secret, or several (a rotation window: each request signed with each).
        name: the agent's name in messages (default: the address).
        credentials: TLS channel credentials (default: plaintext); the certificate is checked
            against the registered host name, not the pinned address.
        max_reply_bytes: the largest answer accepted (gRPC's receive limit).
        allow: the allow-list (default: ``LONGHOUSE_AGENT_ALLOW``).

    Raises:
        ValueError: the address is not ``host:port`` or the secret is empty.
    """

    def __init__(self, address: str, secret: Secrets, *, name: str | None = None,
                 credentials: grpc.ChannelCredentials | None = None, max_reply_bytes: int = MAX_REPLY_BYTES,
                 allow: AllowList | None = None):
        if not isinstance(address, str) or not address:
            raise ValueError("a gRPC agent's address is host:port")
        try:
            self._host, self._port = agent_endpoint("grpc", address)
        except AddressRefused:
            raise ValueError("a gRPC agent's address is host:port") from None
        if not secret:
            raise ValueError("the agent's secret is empty")
        self.address = address
        self.name = name or address
        self._secret = secret
        self._credentials = credentials
        self.max_reply_bytes = max_reply_bytes
        self.allow = allow if allow is not None else configured_allow_list()
        self._lock = threading.Lock()
        self._pinned: tuple[str, grpc.Channel, dict[str, Any]] | None = None
        self._reader: Any = None  # the ChannelReader of the pinned channel, once it has one
        self._read_final: Any = None  # its finalizer (this client let go without a close)
        self._futures: dict[Any, grpc.Channel] = {}  # the calls of choose_async still running, and their channel
        self._literal = is_literal(self._host)

    def _checked(self, timeout_s: float) -> Target:
        """The agent's host resolved and checked, within ``timeout_s`` (an IP address is checked at
        once: nothing to resolve; a name in a pool thread, so a slow DNS cannot hold the call
        past its time). Raises AgentFailure."""
        try:
            if self._literal:
                return self.allow.check(self._host, self._port)
            future = _lookup_pool().submit(self.allow.check, self._host, self._port)
            return future.result(timeout=timeout_s)
        except FutureTimeout:
            future.cancel()
            raise AgentFailure("timeout", f"agent {self.name}: its host did not resolve within {timeout_s:g} s") \
                from None
        except AddressRefused as exc:
            raise self._refused(exc) from None

    def _methods_for(self, target: Target) -> dict[str, Any]:
        """The call stubs of a channel pinned to one of ``target``'s checked addresses."""
        return self._pinned_for(target)[1]

    def _pinned_for(self, target: Target, read: bool = False) -> tuple[grpc.Channel, dict[str, Any]]:
        """``(channel, call stubs)`` of a channel pinned to one of ``target``'s checked addresses;
        with ``read``, the channel is given its reading thread
        (:class:`~services.agents.grpc_wire.ChannelReader`, for calls made as futures) if it has none
        yet."""
        with self._lock:
            pinned = self._pinned
            if pinned is not None and pinned[0] in target.addresses:
                if read and (self._reader is None or self._reader.channel is not pinned[1]):
                    self._reading(pinned[1])
                return pinned[1], pinned[2]
            address = target.addresses[0]
            uri = (f"ipv4:{address}:{self._port}" if ipaddress.ip_address(address).version == 4
                   else f"ipv6:[{address}]:{self._port}")
            authority = f"[{self._host}]:{self._port}" if ":" in self._host else f"{self._host}:{self._port}"
            options: list[tuple[str, Any]] = [("grpc.max_receive_message_length", self.max_reply_bytes),
                                              ("grpc.enable_http_proxy", 0), ("grpc.default_authority", authority),
                                              *RECONNECT_OPTIONS]
            if self._credentials is not None:
                options.append(("grpc.ssl_target_name_override", self._host))
                channel = grpc.secure_channel(uri, self._credentials, options=options)
            else:
                channel = grpc.insecure_channel(uri, options=options)
            # No serializers: requests go out as the bytes that were signed, answers come back raw.
            methods = {kind: channel.unary_unary(f"/longhouse.agent.v1.Agent/{method}")
                       for kind, method in _CALL_NAMES.items()}
            # the host now resolves elsewhere: the old address is no longer checked
            let_go = self._let_go(pinned[1]) if pinned is not None else None
            self._pinned = (address, channel, methods)
            if read:
                self._reading(channel)
        if let_go is not None:
            self._close_channel(*let_go)
        return channel, methods

    def _let_go(self, channel: grpc.Channel) -> tuple[grpc.Channel, Any, list[Any]]:
        """Under ``self._lock``: ``channel``, no longer pinned, with its reader (None if it has none)
        and the futures of its calls still running, for :meth:`_close_channel` (outside the lock)."""
        reader = None
        if self._reader is not None and self._reader.channel is channel:
            reader, self._reader = self._reader, None
            self._read_final.detach()  # closed now: its finalizer would keep it
        return channel, reader, [f for f, c in self._futures.items() if c is channel]

    @staticmethod
    def _close_channel(channel: grpc.Channel, reader: Any, running: list[Any]) -> None:
        """Close ``channel``: one with a reader is closed by its thread, ``running`` (its calls still
        running) cancelled first."""
        if reader is not None:
            reader.close(running)
        else:
            channel.close()

    def _reading(self, channel: grpc.Channel) -> None:
        """Give ``channel`` its reading thread (a :class:`~services.agents.grpc_wire.ChannelReader`),
        stopped with the channel at :meth:`close`, or once this client is garbage (the engine's cache
        lets a client go without closing it). Under ``self._lock``."""
        from services.agents.grpc_wire import ChannelReader

        reader = ChannelReader(channel)
        if reader.start():
            self._reader = reader
            self._read_final = weakref.finalize(self, reader.close)
            self._read_final.atexit = False

    def _call(self, kind: str, payload: BaseModel, timeout_s: float) -> MoveChoice | None:
        from services.agents.grpc_wire import to_pb

        deadline = time.monotonic() + timeout_s
        body = to_pb(payload).SerializeToString(deterministic=True)
        method = _CALL_NAMES[kind]
        methods = self._methods_for(self._checked(timeout_s))
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise self._timed_out(method, timeout_s)
        try:
            metadata = signed_metadata(self._secret, body) + list(tracing.carrier().items())
            raw = methods[kind](body, timeout=remaining, metadata=metadata)
        except grpc.RpcError as exc:
            raise self._failure(method, exc, timeout_s) from None
        return self._choice(raw, method) if kind == "move" else None

    def _choice(self, raw: bytes, method: str) -> MoveChoice:
        """The MoveChoice in an answer's bytes; raises AgentFailure (``malformed``)."""
        from services.agents.grpc_wire import parse_choice_bytes

        try:
            return parse_choice_bytes(raw)
        except BadPayload as exc:
            raise AgentFailure("malformed", f"agent {self.name} answered {method} with a bad reply: {exc}") from None

    @property
    def asks_without_thread(self) -> bool:  # type: ignore[override]
        """True for an agent at an IP address (a host name's lookup needs a thread that can be
        given up at the deadline: :meth:`_checked`)."""
        return self._literal

    def choose_async(self, payload: MoveRequest | Mapping[str, Any], timeout_s: float,
                     done: Callable[["MoveChoice | AgentFailure"], None]) -> None:
        """:meth:`AgentClient.choose_async`: the same bytes, signature and checks as :meth:`choose`
        (its CLIENT span ends with the call), sent as a future on the blocking call's channel and
        its answer read by the channel's one reading thread (:class:`~services.agents.grpc_wire.ChannelReader`;
        at once in the caller's when the call has ended before it could wait). Not on the agent loop: in one stack, alternated, a ``grpc.aio``
        channel there moved fewer agent moves a second (docs/benchmarks.md, "Webhooks asked from an
        event loop"). Raises AgentFailure (the address refused, a timeout <= 0),
        NotImplementedError for an agent named by a host name."""
        from services.agents.grpc_wire import to_pb

        if not self._literal:
            raise NotImplementedError("an agent named by a host name is asked in the caller's thread")
        request = _as(MoveRequest, payload)
        timeout_s = _check_timeout(timeout_s)
        method = _CALL_NAMES["move"]
        body = to_pb(request).SerializeToString(deterministic=True)
        channel, methods = self._pinned_for(self._checked(timeout_s), read=True)
        span, trace_headers = tracing.open_span(f"agent {method}", longhouse__agent=self.name,
                                                longhouse__agent_call="move")

        def finished(call: Any) -> None:
            try:
                outcome: MoveChoice | AgentFailure = self._answer(call, request, timeout_s)
            except Exception as exc:  # noqa: BLE001 - a fault reading the answer is the agent's crash
                outcome = AgentFailure("crash", f"agent {self.name}: {type(exc).__name__}: {exc}")
            _answered(span, outcome, done)

        self._send_future(methods["move"], channel, body, timeout_s, span, trace_headers, finished)

    def _send_future(self, method: Any, channel: grpc.Channel, body: bytes, timeout_s: float, span: Any,
                     trace_headers: Mapping[str, str], finished: Callable[[Any], None]) -> None:
        """Send ``body`` (signed here) by ``method`` of ``channel`` as a future within ``timeout_s``,
        kept among the calls :meth:`close` cancels until it ends; then ``finished(call)``, from the
        channel's reading thread. Ends ``span`` and raises where the call cannot be made."""
        def ended(call: Any) -> None:
            with self._lock:
                self._futures.pop(call, None)
            finished(call)

        try:
            call = method.future(body, timeout=timeout_s, metadata=signed_metadata(self._secret, body)
                                 + list(trace_headers.items()))
        except BaseException:
            span.end()
            raise
        with self._lock:
            self._futures[call] = channel
        call.add_done_callback(ended)

    def _send_batch(self, batch: list[Checked]) -> None:
        """:meth:`AgentClient._send_batch`: one ``ChooseMoves`` call (``protos/agent.proto``) of the
        requests' bytes, signed once, as a future on the blocking call's channel, its deadline the
        longest of the decisions' times, its answer read by the channel's reading thread and
        checked request by request as :meth:`choose_async` checks one."""
        from services.agents.grpc_wire import many_to_bytes

        sent_at = time.monotonic()
        timeout_s = self._batch_deadline(batch)
        method = _CALL_NAMES["moves"]
        body = many_to_bytes([r for r, _, _ in batch])
        try:
            channel, methods = self._pinned_for(self._checked(timeout_s), read=True)
        except AgentFailure as exc:  # the address refused: each decision's failure, as alone
            self._probing = False
            for _, _, done in batch:
                done(exc)
            return
        span, trace_headers = tracing.open_span(f"agent {method}", longhouse__agent=self.name,
                                                longhouse__agent_call="moves")

        def finished(call: Any) -> None:
            try:
                ended = self._batch_answer(call, batch, timeout_s)
            except Exception as exc:  # noqa: BLE001 - a fault reading the answer is the agent's crash
                ended = ("failed", AgentFailure("crash", f"agent {self.name}: {type(exc).__name__}: {exc}"))
            self._batch_ended(batch, sent_at, span, ended)

        self._send_future(methods["moves"], channel, body, timeout_s, span, trace_headers, finished)

    def _batch_answer(self, call: Any, batch: list[Checked], timeout_s: float) -> BatchEnd:
        """How a finished ``ChooseMoves`` call ended (:meth:`AgentClient._batch_ended`)."""
        from services.agents.grpc_wire import parse_choices_bytes

        method = _CALL_NAMES["moves"]
        try:
            raw = call.result()
        except grpc.FutureCancelledError:
            return "cancelled", AgentFailure("crash", f"agent {self.name}: the call of {method} was cancelled")
        except grpc.RpcError as exc:
            code = exc.code() if hasattr(exc, "code") else grpc.StatusCode.UNKNOWN
            if code == grpc.StatusCode.UNIMPLEMENTED:
                return "not served", None
            if code == grpc.StatusCode.DEADLINE_EXCEEDED:
                return "timeout", None
            if code == grpc.StatusCode.RESOURCE_EXHAUSTED:  # the answer is a few bytes: the request was refused
                return "too large", None
            if code == grpc.StatusCode.UNAVAILABLE:
                return "unreachable", self._failure(method, exc, timeout_s)
            return "failed", self._failure(method, exc, timeout_s)
        try:
            choices = parse_choices_bytes(raw, len(batch))
        except BadPayload as exc:
            return "failed", AgentFailure("malformed", f"agent {self.name} answered {method} with a bad reply: {exc}")
        return "answered", self._each_legal(choices, batch, method)

    def _answer(self, call: Any, request: MoveRequest, timeout_s: float) -> "MoveChoice | AgentFailure":
        """The choice a finished :meth:`choose_async` call gave, or its failure (as :meth:`choose`)."""
        method = _CALL_NAMES["move"]
        try:
            return self._legal(self._choice(call.result(), method), request)
        except AgentFailure as exc:
            return exc
        except grpc.RpcError as exc:
            return self._failure(method, exc, timeout_s)
        except grpc.FutureCancelledError:
            return AgentFailure("crash", f"agent {self.name}: the call of {method} was cancelled")

    def _failure(self, method: str, exc: grpc.RpcError, timeout_s: float) -> AgentFailure:
        code = exc.code() if hasattr(exc, "code") else grpc.StatusCode.UNKNOWN
        details = _clean((exc.details() or "") if hasattr(exc, "details") else "")
        if code == grpc.StatusCode.DEADLINE_EXCEEDED:
            return self._timed_out(method, timeout_s)
        if code == grpc.StatusCode.RESOURCE_EXHAUSTED and "larger than max" in details:
            return AgentFailure("malformed", f"agent {self.name} answered {method} with more than "
                                             f"{self.max_reply_bytes} bytes")
        words = _GRPC_CRASH_WORDS.get(code, f"failed {method} with gRPC status {code.name}")
        return AgentFailure("crash", f"agent {self.name} {words}" + (f": {details}" if details else ""))

    def close(self) -> None:
        with self._lock:
            pinned, self._pinned = self._pinned, None
            let_go = self._let_go(pinned[1]) if pinned is not None else None
        if let_go is not None:
            self._close_channel(*let_go)


# -- HTTP -----------------------------------------------------------------------------------
class _CallSockets:
    """The sockets one HTTP call uses, so the engine can cut them when the deadline
    passes: the worker thread then stops at once instead of waiting on a slow agent.
    ``allow`` is the allow-list every connection the call opens is checked against.

    A call ends once, either way: :meth:`finish` (its answer read; its connection may then serve
    another call) or :meth:`abort` (its sockets shut down, under the same lock, so that no cut can
    land after a :meth:`finish` that won)."""

    def __init__(self, allow: AllowList | None = None) -> None:
        self.allow = allow
        self._lock = threading.Lock()
        self._sockets: list[socket.socket] = []
        self._over = False  # finished or aborted: nothing more is tracked or cut
        self._aborted = False
        self._parked: list[Callable[[], None]] = []  # connections' returns to the pool, held until the call ends

    def add(self, sock: socket.socket | None) -> None:
        """Track ``sock`` (cut at once if the call is already aborted)."""
        if sock is None:
            return
        with self._lock:
            if not self._over:
                self._sockets.append(sock)
            elif self._aborted:
                self._cut(sock)

    def park(self, put: Callable[[], None]) -> bool:
        """Hold ``put`` (a connection's return to its pool) until the call ends; False if it has
        ended (then the caller returns the connection at once)."""
        with self._lock:
            if self._over:
                return False
            self._parked.append(put)
            return True

    def finish(self) -> bool:
        """The call is over: forget its sockets, and return its parked connections to their pool
        (they may serve another call now). False if it was aborted first (its connection is cut,
        and what it read is not an answer)."""
        with self._lock:
            if self._over:
                return not self._aborted
            self._over = True
            self._sockets.clear()
            parked, self._parked = self._parked, []
        for put in parked:
            put()
        return True

    def abort(self) -> None:
        """Cut the call's sockets now (nothing, if it has finished); its parked connections go
        back to their pool only once cut (the pool then sees them dropped and opens new ones)."""
        with self._lock:
            if self._over:
                return
            self._over = self._aborted = True
            sockets, self._sockets = self._sockets, []
            for sock in sockets:
                self._cut(sock)
            parked, self._parked = self._parked, []
        for put in parked:
            put()

    @property
    def aborted(self) -> bool:
        """True once the call is aborted (its deadline passed before it finished)."""
        return self._aborted

    @property
    def over(self) -> bool:
        """True once the call is aborted or finished."""
        return self._over

    @staticmethod
    def _cut(sock: socket.socket) -> None:
        try:
            sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass


_current = threading.local()


def _track(sock: Any) -> None:
    call: _CallSockets | None = getattr(_current, "call", None)
    if call is not None:
        call.add(sock)


def _connect_checked(conn: Any, target: Target) -> socket.socket:
    """A socket to one of ``target``'s checked addresses (tried in order), with urllib3's own
    options and errors; the host name is never looked up again."""
    error: OSError | None = None
    for address in target.addresses:
        try:
            return urllib3_connection.create_connection((address, conn.port), conn.timeout,
                                                        source_address=conn.source_address,
                                                        socket_options=conn.socket_options)
        except TimeoutError as exc:
            raise ConnectTimeoutError(conn, f"Connection to {conn.host} timed out. "
                                            f"(connect timeout={conn.timeout})") from exc
        except OSError as exc:
            error = exc
    raise NewConnectionError(conn, f"Failed to establish a new connection: {type(error).__name__}")


class _TrackedMixin:
    """A urllib3 connection that checks its address against the allow-list of the call running on
    this thread, connects to a checked address only, and reports its socket to that call. A
    connection opened outside a call is refused (nothing to check it against)."""

    def _new_conn(self):  # the raw socket, before any TLS handshake (which checks the host name)
        call: _CallSockets | None = getattr(_current, "call", None)
        if call is None or call.allow is None:
            raise AddressRefused("address_not_allowed", "an agent connection was opened outside a checked call")
        sock = _connect_checked(self, call.allow.check(self.host, self.port))  # type: ignore[attr-defined]
        _track(sock)
        return sock

    def request(self, *args: Any, **kwargs: Any) -> None:  # a reused keep-alive connection
        _track(getattr(self, "sock", None))
        return super().request(*args, **kwargs)  # type: ignore[misc]


class _TrackedHTTPConnection(_TrackedMixin, HTTPConnection):
    pass


class _TrackedHTTPSConnection(_TrackedMixin, HTTPSConnection):
    pass


class _ParkedReturnMixin:
    """A connection pool that, while a call runs on this thread, holds a connection's return until
    the call ends (:meth:`_CallSockets.park`). urllib3 returns a connection as soon as its answer
    is read to the end, before the call has finished; another call could take it, and the first
    call's deadline cut would then land on the second."""

    def _put_conn(self, conn: Any) -> None:
        call: _CallSockets | None = getattr(_current, "call", None)
        if conn is not None and call is not None and call.park(lambda: super(_ParkedReturnMixin, self)._put_conn(conn)):
            return
        super()._put_conn(conn)  # type: ignore[misc]


class _TrackedHTTPPool(_ParkedReturnMixin, HTTPConnectionPool):
    ConnectionCls = _TrackedHTTPConnection


class _TrackedHTTPSPool(_ParkedReturnMixin, HTTPSConnectionPool):
    ConnectionCls = _TrackedHTTPSConnection


_pool_lock = threading.Lock()
_pools: dict[str, ThreadPoolExecutor] = {}


def _shared(prefix: str, workers: int) -> ThreadPoolExecutor:
    """The process's pool of ``workers`` threads named ``prefix``, made at its first use."""
    with _pool_lock:
        pool = _pools.get(prefix)
        if pool is None:
            pool = _pools[prefix] = ThreadPoolExecutor(workers, thread_name_prefix=prefix)
        return pool


def _http_pool() -> ThreadPoolExecutor:
    """The pool of :data:`HTTP_POOL_WORKERS` threads where blocking calls to host names run."""
    return _shared("agent-http", HTTP_POOL_WORKERS)


def _lookup_pool() -> ThreadPoolExecutor:
    """The pool of :data:`LOOKUP_POOL_WORKERS` threads where host names are looked up and checked."""
    return _shared("agent-lookup", LOOKUP_POOL_WORKERS)


class _Deadlines:
    """One daemon thread that cuts the sockets of each HTTP call still running at its deadline
    (:meth:`_CallSockets.abort`), so that a call made on its caller's own thread ends by its
    deadline however slowly the agent sends, without a second thread a call. Deadlines are
    monotonic seconds; a call that ended first is forgotten when its deadline comes up, or
    sooner when finished calls make up half of a long heap (so the heap holds about the calls
    running, not every call of the longest timeout)."""

    COMPACT_AT = 1024
    """The least heap length at which finished calls are cleared out of it."""
    LONGEST_WAIT_S = 3600.0
    """The thread's longest sleep (a far deadline is waited for in steps; ``Condition.wait``
    refuses a timeout beyond the platform's limit)."""

    def __init__(self, compact_at: int = COMPACT_AT) -> None:
        self._heap: list[tuple[float, int, _CallSockets]] = []
        self._seq = 0
        self._cond = threading.Condition()
        self._thread: threading.Thread | None = None
        self._least = self._compact_at = compact_at

    def watch(self, call: _CallSockets, deadline: float) -> None:
        """Cut ``call``'s sockets at ``deadline`` unless it has finished by then."""
        with self._cond:
            if self._thread is None or not self._thread.is_alive():
                thread = threading.Thread(target=self._run, name="agent-http-deadlines", daemon=True)
                thread.start()
                self._thread = thread
            if len(self._heap) >= self._compact_at:
                self._heap = [entry for entry in self._heap if not entry[2].over]
                heapq.heapify(self._heap)
                self._compact_at = max(self._least, 2 * len(self._heap))
            self._seq += 1
            heapq.heappush(self._heap, (deadline, self._seq, call))
            if self._heap[0][2] is call:  # the earliest now: the thread's wait is shortened
                self._cond.notify()

    def _run(self) -> None:
        while True:
            due: list[_CallSockets] = []
            with self._cond:
                now = time.monotonic()
                while self._heap and (self._heap[0][2].over or self._heap[0][0] <= now):
                    _, _, call = heapq.heappop(self._heap)
                    if not call.over:  # still running at its deadline
                        due.append(call)
                if not due:
                    wait = self._heap[0][0] - now if self._heap else self.LONGEST_WAIT_S
                    self._cond.wait(min(wait, self.LONGEST_WAIT_S))
            for call in due:
                try:
                    call.abort()
                except Exception:  # noqa: BLE001 - one call's failed cut must not leave the others uncut
                    log.exception("agent_http_cut_failed")


_deadlines = _Deadlines()
_running: "weakref.WeakSet[_CallSockets]" = weakref.WeakSet()  # every webhook call begun, while it lives
_running_lock = threading.Lock()


def abort_calls() -> int:
    """Cut every blocking webhook call still running in this process (its sockets shut down, so
    the thread waiting on it gets its ``timeout`` at once rather than at the deadline), for a
    process that is stopping: a mover whose agent never answers would otherwise keep Python from
    exiting until the call's deadline (a minute and more). Returns how many calls were cut."""
    with _running_lock:
        calls = [call for call in _running if not call.over]
    for call in calls:
        call.abort()
    return len(calls)


def _legacy_ipv4(host: str) -> bool:
    """True for a host that the C library reads as an IPv4 address but that is not one written
    in the dotted-quad form (``127.1``, ``2130706433``, ``0x7f.1``)."""
    try:
        socket.inet_aton(host)
    except (OSError, ValueError):
        return False
    try:
        ipaddress.IPv4Address(host)
    except ValueError:
        return True
    return False


class _CheckedResolver(AbstractResolver):
    """aiohttp's resolver for the agent loop's webhook calls to a host name: the name looked up and
    every address checked against ``allow`` (:meth:`AllowList.check`, on the lookup pool,
    :func:`_lookup_pool`, so a slow lookup holds no loop and no blocked call holds a lookup), and the connection made
    to one of exactly those addresses (no second lookup a rebinding DNS server could answer
    otherwise). Raises AddressRefused. An IP address never comes here: aiohttp connects to it
    as it is, checked by the caller."""

    def __init__(self, allow: AllowList) -> None:
        self.allow = allow

    async def resolve(self, host: str, port: int = 0, family: socket.AddressFamily = socket.AF_INET) -> list[Any]:
        target = await asyncio.get_running_loop().run_in_executor(_lookup_pool(), self.allow.check, host, port)
        return [{"hostname": host, "host": address, "port": port, "proto": 0, "flags": socket.AI_NUMERICHOST,
                 "family": socket.AF_INET6 if ":" in address else socket.AF_INET} for address in target.addresses]

    async def close(self) -> None:
        """Nothing to release (the lookup pool is the process's)."""


def _safe_origin(url: str) -> str:
    """``scheme://host[:port]`` of a URL: no user, password, path or query."""
    parts = urlsplit(url)
    host = parts.hostname or "?"
    if ":" in host:
        host = f"[{host}]"
    try:
        port = f":{parts.port}" if parts.port else ""
    except ValueError:
        port = ""
    return f"{parts.scheme}://{host}{port}"


class HttpAgentClient(AgentClient):
    """An agent reached as a signed JSON webhook: each payload is POSTed to ``url``.

    The engine waits for a call at most the timeout (connecting, the host's lookup included,
    sending, the agent's thinking and reading the answer); when the deadline passes, the call's
    socket is shut down, so its thread is free at once even if the agent sends one byte a
    second. A call to an IP address runs on the caller's thread, cut off at its deadline by one
    thread shared by every call (nothing there can wait past it: a socket cut ends any read or
    write); a call to a host name, whose lookup nothing can cut off, runs on a small shared thread
    pool, and the caller stops waiting for it at the deadline (that is :meth:`choose`;
    :meth:`choose_async` waits for neither, on the agent loop). Every connection is
    checked against the allow-list and made to a checked address (TLS still checks the
    certificate against the URL's host name). Redirects are not followed (one is a ``crash``),
    the answer is read as a stream and given up past ``max_reply_bytes`` (``malformed``; so is
    a compressed answer, never asked for), a non-2xx status is a ``crash`` and an answer that
    is not ``{"index": <int>}`` is ``malformed``. Environment proxies and .netrc are not used;
    a user and password in the URL are sent as HTTP Basic auth. Connections are kept alive and
    reused (urllib3's pool, up to :data:`HTTP_KEEP_ALIVE` idle; certifi's CA bundle for https).

    Args:
        url: ``http://`` or ``https://`` URL.
        secret: the shared secret, or several (a rotation window: each request signed with each).
        name: the agent's name in messages (default: the URL's scheme, host and port).
        executor: where calls run (default: the caller's thread for an IP address, a pool shared
            by every HTTP client for a host name).
        max_reply_bytes: the largest answer accepted.
        allow: the allow-list (default: ``LONGHOUSE_AGENT_ALLOW``).

    Raises:
        ValueError: not an http(s) URL with a host, or an empty secret.
    """

    def __init__(self, url: str, secret: Secrets, *, name: str | None = None,
                 executor: Executor | None = None, max_reply_bytes: int = MAX_REPLY_BYTES,
                 allow: AllowList | None = None):
        parts, auth = None, {}
        try:  # the errors of URL parsing may quote the URL, its password included: never shown
            if isinstance(url, str) and url.startswith(("http://", "https://")) and urlsplit(url).hostname:
                parts = parse_url(url)
                if parts.auth:  # sent as HTTP Basic auth, as requests did
                    user, _, password = parts.auth.partition(":")
                    auth = make_headers(basic_auth=f"{unquote(user)}:{unquote(password)}")
        except (ValueError, UnicodeError):
            parts = None
        if parts is None:
            raise ValueError("an HTTP agent's address is an http:// or https:// URL")
        if not secret:
            raise ValueError("the agent's secret is empty")
        self.url = url
        self.name = name or _safe_origin(url)
        self._secret = secret
        self.max_reply_bytes = max_reply_bytes
        self.allow = allow if allow is not None else configured_allow_list()
        self._executor = executor
        self._literal = is_literal(parts.host or "")
        # a legacy spelling of an IPv4 address (127.1, 2130706433): the system's lookup reads it as
        # the address, aiohttp refuses it; the blocking call asks it, as it always has
        self._legacy_ipv4 = _legacy_ipv4(parts.host or "")
        self._https = parts.scheme == "https"
        self._host_port = (parts.host or "", parts.port or (443 if self._https else 80))
        # the URL the agent loop's session posts to: no user and password (sent as the header above)
        # (the target's bytes as the blocking call sends them, urllib3's, not requoted by yarl)
        self._aio_url = URL(f"{parts.scheme}://{parts.netloc}{parts.request_uri}", encoded=True)
        self._session: Any = None  # aiohttp's, only touched on the agent loop's thread
        # as requests did: the URL's path and query as the request's target (percent-encoded
        # where needed), no fragment
        self._target = parts.request_uri
        self._headers = {"User-Agent": "longhouse-engine", "Accept": "application/json",
                         "Accept-Encoding": "identity", "Content-Type": "application/json", **auth}
        if parts.scheme == "https":
            # the CA bundle requests used (certifi's), the host name checked against the certificate
            self._pool: HTTPConnectionPool = _TrackedHTTPSPool(
                parts.host, parts.port or 443, maxsize=HTTP_KEEP_ALIVE, block=False, retries=False,
                cert_reqs="CERT_REQUIRED", ca_certs=certifi.where())
        else:
            self._pool = _TrackedHTTPPool(parts.host, parts.port or 80, maxsize=HTTP_KEEP_ALIVE, block=False,
                                          retries=False)

    def _call(self, kind: str, payload: BaseModel, timeout_s: float) -> MoveChoice | None:
        body = encode(payload)
        headers = {**self._headers, **signed_headers(self._secret, body), **tracing.carrier()}
        what = _CALL_NAMES[kind]
        deadline = time.monotonic() + timeout_s
        call = _CallSockets(self.allow)
        with _running_lock:
            _running.add(call)
        try:
            if self._executor is None and self._literal:
                # nothing to look up: the call runs here, and the deadline thread cuts it off
                _deadlines.watch(call, deadline)
                raw = self._post(body, headers, deadline, timeout_s, call, what)
            else:  # a host name's lookup cannot be cut off: the call runs on a pool thread, waited for until the deadline
                future = (self._executor or _http_pool()).submit(self._post, body, headers, deadline, timeout_s, call,
                                                                 what)
                raw = future.result(timeout=max(0.0, deadline - time.monotonic()))
        except FutureTimeout:
            never_started = future.cancel()
            call.abort()
            extra = " (the call never started: every engine worker was busy)" if never_started else ""
            raise self._timed_out(what, timeout_s, extra) from None
        except AgentFailure:
            raise
        except Exception as exc:  # noqa: BLE001 (whatever else an answer set off in the HTTP stack)
            raise AgentFailure("crash", f"agent {self.name} failed {what} ({type(exc).__name__})") from None
        return self._parsed(raw, what) if kind == "move" else None

    @property
    def asks_without_thread(self) -> bool:  # type: ignore[override]
        """True where the engine asks by its own means (no ``executor`` given): an IP address is
        checked at once, a host name looked up and checked on the lookup pool
        (:class:`_CheckedResolver`), whose wait the call's deadline gives up. False for a legacy
        spelling of an IPv4 address (``127.1``), which aiohttp refuses."""
        return self._executor is None and not self._legacy_ipv4

    def choose_async(self, payload: MoveRequest | Mapping[str, Any], timeout_s: float,
                     done: Callable[["MoveChoice | AgentFailure"], None]) -> None:
        """:meth:`AgentClient.choose_async`: the same body, headers, checks and failure kinds as
        :meth:`choose` (its CLIENT span ends with the call), POSTed by an aiohttp session of the
        agent loop's (:mod:`services.agents.aio`): an IP address checked against the allow-list
        first, a host name looked up and checked at connection (:class:`_CheckedResolver`, the
        connection made to a checked address), no redirect followed, no proxy or .netrc, the answer read to the cap, everything
        within the timeout. Raises AgentFailure (the address refused, a timeout <= 0),
        NotImplementedError where :attr:`asks_without_thread` is False."""
        if not self.asks_without_thread:
            raise NotImplementedError("a webhook client given its own executor, or at a legacy spelling of an "
                                      "IPv4 address, asks in the caller's thread")
        request = _as(MoveRequest, payload)
        timeout_s = _check_timeout(timeout_s)
        began = time.monotonic()
        what = _CALL_NAMES["move"]
        body = encode(request)
        self._check_address()
        span, trace_headers = tracing.open_span(f"agent {what}", longhouse__agent=self.name,
                                                longhouse__agent_call="move")
        headers = {**self._headers, **signed_headers(self._secret, body), **trace_headers}

        async def call() -> None:
            try:
                raw = await self._post_async(body, headers, timeout_s - (time.monotonic() - began), timeout_s, what)
                outcome: MoveChoice | AgentFailure = self._legal(self._parsed(raw, what), request)
            except AgentFailure as exc:
                outcome = exc
            except Exception as exc:  # noqa: BLE001 (whatever else an answer set off in the HTTP stack)
                outcome = AgentFailure("crash", f"agent {self.name} failed {what} ({type(exc).__name__})")
            _answered(span, outcome, done)

        agent_loop().submit(call)

    def _check_address(self) -> None:
        """An IP address checked against the allow-list now (a host name is checked at connection:
        :class:`_CheckedResolver`). Raises AgentFailure (``crash``) where it is refused."""
        if self._literal:
            try:
                self.allow.check(*self._host_port)
            except AddressRefused as exc:
                raise self._refused(exc) from None

    def _send_batch(self, batch: list[Checked]) -> None:
        """:meth:`AgentClient._send_batch`: one POST of ``"type": "moves"``
        (:class:`~services.agents.protocol.MoveRequests`) from the agent loop, signed once over its
        body, with the same headers and checks as :meth:`choose_async`'s and a deadline the longest
        of the decisions' times; the answer's ``choices`` checked request by request
        (:func:`~services.agents.protocol.parse_choices`)."""
        sent_at = time.monotonic()
        timeout_s = self._batch_deadline(batch)
        what = _CALL_NAMES["moves"]
        body = encode(MoveRequests.model_construct(requests=[r for r, _, _ in batch]))
        try:
            self._check_address()
        except AgentFailure as exc:  # the address refused: each decision's failure, as alone
            self._probing = False
            for _, _, done in batch:
                done(exc)
            return
        span, trace_headers = tracing.open_span(f"agent {what}", longhouse__agent=self.name,
                                                longhouse__agent_call="moves")
        headers = {**self._headers, **signed_headers(self._secret, body), **trace_headers}

        async def call() -> None:
            ended: BatchEnd
            try:
                raw = await self._post_async(body, headers, timeout_s - (time.monotonic() - sent_at), timeout_s, what,
                                             batched=True)
                choices = parse_choices(raw, len(batch))
                ended = ("answered", self._each_legal(choices, batch, what))
            except _NotServed:
                ended = ("not served", None)
            except _TooLarge:
                ended = ("too large", None)
            except _Unreachable as exc:
                ended = ("unreachable", exc.failure)
            except NotBatched:
                ended = ("not served", None)
            except BadPayload as exc:
                ended = ("failed", AgentFailure("malformed", f"agent {self.name} answered {what} with a bad reply: "
                                                             f"{exc}"))
            except AgentFailure as exc:
                ended = ("timeout", None) if exc.kind == "timeout" else ("failed", exc)
            except Exception as exc:  # noqa: BLE001 (whatever else an answer set off in the HTTP stack)
                ended = ("failed", AgentFailure("crash", f"agent {self.name} failed {what} ({type(exc).__name__})"))
            self._batch_ended(batch, sent_at, span, ended)

        agent_loop().submit(call)

    def _aio_session(self) -> Any:
        """On the agent loop's thread: this client's aiohttp session (kept-alive connections, the
        answer left compressed if it is, no cookies, no proxy from the environment)."""
        import aiohttp

        if self._session is None:
            # as the blocking call's: certifi's CA bundle for https; http.client's header limits, a
            # line of up to 64 KiB and 99 headers (it counts the blank line that ends them in its 100)
            tls = ssl.create_default_context(cafile=certifi.where()) if self._https else True
            self._session = aiohttp.ClientSession(
                connector=aiohttp.TCPConnector(limit=0, ssl=tls, use_dns_cache=False,
                                               resolver=_CheckedResolver(self.allow)),
                timeout=aiohttp.ClientTimeout(total=None), auto_decompress=False, trust_env=False,
                cookie_jar=aiohttp.DummyCookieJar(), max_line_size=http.client._MAXLINE,
                max_field_size=http.client._MAXLINE, max_headers=http.client._MAXHEADERS - 1)
            _keep_open(self, self._session.close)
        return self._session

    async def _post_async(self, body: bytes, headers: dict[str, str], remaining: float, timeout_s: float,
                          what: str, batched: bool = False) -> bytes:
        """On the agent loop: POST, check the status, read the answer, all within ``remaining``
        seconds. Raises AgentFailure; with ``batched`` (a POST of ``moves``), _NotServed for a
        status of :data:`MOVES_NOT_SERVED`, _TooLarge for 413 and _Unreachable where the connection
        failed."""
        import aiohttp

        if remaining <= 0:
            raise self._timed_out(what, timeout_s)
        try:
            async with asyncio.timeout(remaining):
                async with self._aio_session().post(self._aio_url, data=body, headers=headers,
                                                    allow_redirects=False) as response:
                    if batched and response.status in MOVES_NOT_SERVED:
                        raise _NotServed
                    if batched and response.status == 413:
                        raise _TooLarge
                    self._check_answer(response.status, response.headers, what)
                    chunks: list[bytes] = []
                    size = 0
                    while chunk := await response.content.read(8192):
                        size += len(chunk)
                        if size > self.max_reply_bytes:
                            raise self._too_big(what)
                        chunks.append(chunk)
                    return b"".join(chunks)
        except TimeoutError:
            raise self._timed_out(what, timeout_s) from None
        except AddressRefused as exc:  # from _CheckedResolver, at connection
            raise self._refused(exc) from None
        except (aiohttp.ClientError, OSError) as exc:
            if batched:
                raise _Unreachable(self._unreachable(what, exc)) from None
            raise self._unreachable(what, exc) from None

    def _check_answer(self, status: int, headers: Mapping[str, str], what: str) -> None:
        """Raises AgentFailure for an answer whose status is not 2xx (a redirect named as one),
        that is compressed, or that declares more than :attr:`max_reply_bytes`."""
        if 300 <= status < 400:
            raise AgentFailure("crash", f"agent {self.name} answered {what} with a redirect (HTTP {status}); "
                                        "redirects are not followed, register the final URL")
        if not 200 <= status < 300:
            raise AgentFailure("crash", f"agent {self.name} answered {what} with HTTP {status}")
        encoding = headers.get("Content-Encoding", "identity").strip().lower()
        if encoding not in ("", "identity"):
            raise AgentFailure("malformed", f"agent {self.name} answered {what} compressed ({_clean(encoding, 40)}); "
                                            "the engine asks for and reads plain answers only")
        declared = headers.get("Content-Length", "")
        if declared.isdigit() and int(declared) > self.max_reply_bytes:
            raise self._too_big(what)

    def _check_parsed(self, response: Any, what: str) -> None:
        """Raises AgentFailure (``crash``) for an answer whose headers did not parse (a line with no
        colon, say) or that declares its length twice: urllib3 reads on past both, where the agent
        loop's parser (aiohttp's) refuses them, and a decision must fail the same way whichever way
        it was asked."""
        original = getattr(response, "_original_response", None)
        try:
            if original is not None:
                assert_header_parsing(original.msg)
        except urllib3.exceptions.HeaderParsingError:
            raise AgentFailure("crash", f"agent {self.name} answered {what} with headers that do not parse") from None
        if len(response.headers.getlist("Content-Length")) > 1:
            raise AgentFailure("crash", f"agent {self.name} answered {what} with more than one Content-Length")

    def _too_big(self, what: str) -> AgentFailure:
        return AgentFailure("malformed", f"agent {self.name} answered {what} with more than "
                                         f"{self.max_reply_bytes} bytes")

    def _unreachable(self, what: str, exc: BaseException) -> AgentFailure:
        # The exception's text may quote the URL; name only its type.
        return AgentFailure("crash", f"agent {self.name} could not be reached or closed the connection "
                                     f"during {what} ({type(exc).__name__})")

    def _parsed(self, raw: bytes, what: str) -> MoveChoice:
        """The MoveChoice in an answer's body; raises AgentFailure (``malformed``)."""
        try:
            return parse_choice(raw)
        except BadPayload as exc:
            raise AgentFailure("malformed", f"agent {self.name} answered {what} with a bad reply: {exc}") from None

    def _post(self, body: bytes, headers: dict[str, str], deadline: float, timeout_s: float,
              call: _CallSockets, what: str) -> bytes:
        """On a pool thread: POST, check the status, read the answer. Raises AgentFailure."""
        _current.call = call
        try:
            return self._post_tracked(body, headers, deadline, timeout_s, call, what)
        except AgentFailure:
            raise
        except AddressRefused as exc:
            raise self._refused(exc) from None
        except (urllib3.exceptions.HTTPError, OSError) as exc:
            # a refused connection (NewConnectionError) is a crash, though urllib3 files it under its timeouts
            if call.aborted or (isinstance(exc, urllib3.exceptions.TimeoutError)
                                and not isinstance(exc, NewConnectionError)):
                raise self._timed_out(what, timeout_s) from None
            raise self._unreachable(what, exc) from None
        finally:
            try:
                call.finish()
            finally:
                _current.call = None

    def _post_tracked(self, body: bytes, headers: dict[str, str], deadline: float, timeout_s: float,
                      call: _CallSockets, what: str) -> bytes:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise self._timed_out(what, timeout_s)
        response = self._pool.urlopen("POST", self._target, body=body, headers=headers,
                                      timeout=urllib3.Timeout(connect=remaining, read=remaining), retries=False,
                                      redirect=False, preload_content=False, decode_content=False,
                                      release_conn=False)
        done = False
        try:
            self._check_parsed(response, what)
            self._check_answer(response.status, response.headers, what)
            chunks: list[bytes] = []
            size = 0
            for chunk in response.stream(8192, decode_content=False):
                size += len(chunk)
                if size > self.max_reply_bytes:
                    raise self._too_big(what)
                chunks.append(chunk)
                if time.monotonic() > deadline:
                    raise self._timed_out(what, timeout_s)
            if not call.finish():  # cut at its deadline meanwhile: what was read is not the answer
                raise self._timed_out(what, timeout_s)
            done = True  # finished before any cut: its connection may go back to the pool
            return b"".join(chunks)
        finally:
            if not done:  # an answer not read to its end: its connection is not reused
                response.close()
            response.release_conn()

    def close(self) -> None:
        self._pool.close()
        agent_loop().close_later(id(self))


# -- from the registry ----------------------------------------------------------------------
def make_client(agent: Mapping[str, Any] | Any, *, allow: AllowList | None = None,
                max_reply_bytes: int | None = None) -> AgentClient:
    """The client for a registry record ``{"agent_id", "name", "protocol", "address",
    "secret"}`` (a mapping, or an object with those attributes such as a pydantic record),
    signing with the ``previous_secret`` too while its rotation window (``previous_until``, unix
    seconds) lasts.

    ``allow`` and ``max_reply_bytes`` default to the process's settings
    (``LONGHOUSE_AGENT_ALLOW``, ``LONGHOUSE_AGENT_MAX_REPLY_BYTES``).

    Raises ValueError for an unknown protocol or a missing field (never quoting the secret)."""
    if isinstance(agent, Mapping):
        get = agent.get
    else:
        def get(key: str, default: Any = None) -> Any:
            return getattr(agent, key, default)
    protocol, address, secret = get("protocol"), get("address"), get("secret")
    previous, until = get("previous_secret"), get("previous_until")
    label = get("name") or get("agent_id") or None
    if not address or not isinstance(address, str):
        raise ValueError(f"agent {label or '?'}: the record has no address")
    if not secret:
        raise ValueError(f"agent {label or '?'}: the record has no secret")
    if max_reply_bytes is None:
        from services.common.config import settings

        max_reply_bytes = settings().agent_max_reply_bytes
    secrets = [secret, previous] if previous and until is not None and time.time() < until else [secret]
    if protocol == "grpc":
        return GrpcAgentClient(address, secrets, name=label, allow=allow, max_reply_bytes=max_reply_bytes)
    if protocol == "http":
        return HttpAgentClient(address, secrets, name=label, allow=allow, max_reply_bytes=max_reply_bytes)
    raise ValueError(f"agent {label or '?'}: protocol must be 'grpc' or 'http', not {_clean(protocol, 40)!r}")
