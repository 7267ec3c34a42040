"""The gRPC adapters of the four ports: the coordinator's side of the domain services.

Each :class:`GrpcPort` keeps one channel to its service, opened when the port is made
and kept open (DESIGN "Cost": keep channels open, few calls per move). A call has the
per-call timeout of ``settings().grpc_timeout``. A failed call raises the same Python
exception the embedded adapter would (IllegalMove, MalformedMove, ... by the rules'
error code; GameNotFound; VersionConflict; ValueError for a bad operation), so a
:class:`~services.coordinator.table.Table` behaves identically whichever adapter runs;
anything with no embedded counterpart (service down, deadline) raises
:class:`services.coordinator.wire.DomainCallFailed`.

A call carries the request id being served (``x-request-id`` metadata, when there is one) and,
with tracing on, the trace context (the channel's OpenTelemetry interceptor); a call made on the
pool's threads runs in a copy of the caller's context, so both follow it there.
"""

from __future__ import annotations

import contextvars
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import grpc

from services.api import (
    boards_pb2_grpc,
    common_pb2,
    decks_pb2,
    decks_pb2_grpc,
    market_pb2_grpc,
    scoring_pb2_grpc,
)
from services.common import logs, tracing
from services.common.config import Settings
from services.common.config import settings as load_settings
from services.coordinator.wire import (
    DomainCallFailed,
    event_from_pb,
    event_to_pb,
    exception_of,
    exception_of_call,
    op_to_pb,
)
from services.rules.core import DOMAINS, Event, Op

_POOL = ThreadPoolExecutor(max_workers=4, thread_name_prefix="domain-call")
"""Runs domain calls of one round that go to different services side by side."""

STUBS = {
    "deck": decks_pb2_grpc.DeckServiceStub,
    "market": market_pb2_grpc.MarketServiceStub,
    "board": boards_pb2_grpc.BoardServiceStub,
    "score": scoring_pb2_grpc.ScoringServiceStub,
}
"""The generated client stub of each domain's service."""

__all__ = ["DomainCallFailed", "GrpcDeckPort", "GrpcPort", "grpc_ports"]


class GrpcPort:
    """A port that calls its domain's service over one long-lived channel.

    Args:
        domain: ``deck``, ``market``, ``board`` or ``score``.
        address: ``host:port`` of the service.
        timeout: seconds per call (default: ``settings().grpc_timeout``).
    """

    def __init__(self, domain: str, address: str, timeout: float | None = None):
        if domain not in STUBS:
            raise ValueError(f"unknown domain {domain!r}")
        self.domain = domain
        self.address = address
        self.timeout = timeout if timeout is not None else load_settings().grpc_timeout
        self.channel = grpc.insecure_channel(address)
        self._calls = tracing.intercept_channel(self.channel)  # the channel itself when tracing is off
        self._pb_cache: dict[int, tuple[Event, Any]] = {}
        self._sent: dict[str, int] = {}
        self.stub = STUBS[domain](self._calls)

    def apply(self, game_id: str, base_version: int, pending: list[Event], ops: list[Op],
              recent: list[tuple[int, list[Event]]] | None = None) -> list[Event]:
        """Run ``ops`` on the state at ``base_version`` plus ``pending``; return new events.

        Same contract as :meth:`services.coordinator.ports.DomainEngine.apply`.

        Raises:
            RulesError (its own subclass), GameNotFound, VersionConflict, ValueError:
                as the embedded adapter would.
            DomainCallFailed: the service is unreachable, too slow or failed unexpectedly.
        """
        for op in ops:
            if op.domain != self.domain:
                raise ValueError(f"operation {op.name!r} belongs to {op.domain}, not {self.domain}")
        reply = self._call(self.stub.Apply, self._request(game_id, base_version, pending, ops, recent or []), game_id)
        return [event_from_pb(e) for e in reply.events]

    def apply_batch(self, calls: list[tuple[str, int, list[Event], list[Op], list[tuple[int, list[Event]]]]]
                    ) -> list[list[Event] | Exception]:
        """Many games' calls in one ``ApplyBatch``: each call's events, or the exception it
        stands for (as :meth:`apply` would raise). Raises DomainCallFailed if the batch
        call itself fails."""
        return self.apply_batch_async(calls)()

    def apply_batch_async(self, calls: list[tuple[str, int, list[Event], list[Op], list[tuple[int, list[Event]]]]]
                          ) -> Any:
        """Send :meth:`apply_batch` now; returns a function that waits for and returns its
        results (so calls to several services can be in flight together)."""
        request = common_pb2.ApplyBatchRequest(calls=[self._request(g, b, p, o, r) for g, b, p, o, r in calls])
        game_id = calls[0][0] if calls else ""

        def call() -> Any:
            return self._call(self.stub.ApplyBatch, request, game_id)

        # a worker thread, not one new thread per call (grpc's own future), in the caller's context
        future = _POOL.submit(contextvars.copy_context().run, call)

        def result() -> list[list[Event] | Exception]:
            return self._results(calls, future.result())

        return result

    def _pb(self, event: Event) -> Any:
        """The protobuf form of ``event``, made once per event (an event is encoded again in
        every later call of its move and as a catch-up hint; the cache keeps the event alive,
        so its id is not reused while cached)."""
        hit = self._pb_cache.get(id(event))
        if hit is not None and hit[0] is event:
            return hit[1]
        pb = event_to_pb(event)
        if len(self._pb_cache) >= 50_000:
            self._pb_cache.clear()
        self._pb_cache[id(event)] = (event, pb)
        return pb

    def _request(self, game_id: str, base: int, pending: list[Event], ops: list[Op],
                 recent: list[tuple[int, list[Event]]]) -> Any:
        # The service caches the state at the base version of the last call it answered, so
        # the hint needs only the entries after the last base sent for this game (if the
        # service's cache is elsewhere, it reads the log: the hint is never needed for truth).
        sent = self._sent.get(game_id, 0)
        if base > sent:
            if len(self._sent) >= 50_000:
                self._sent.clear()
            self._sent[game_id] = base
        return common_pb2.ApplyRequest(
            game_id=game_id, base_version=base, pending_events=[self._pb(e) for e in pending],
            operations=[op_to_pb(o) for o in ops],
            recent=[common_pb2.LogEntry(version=v, events=[self._pb(e) for e in evs])
                    for v, evs in recent or () if v > sent])

    def _results(self, calls: list[Any], reply: Any) -> list[list[Event] | Exception]:
        out: list[list[Event] | Exception] = []
        for (game_id, *_), result in zip(calls, reply.results):
            if result.HasField("error"):
                out.append(exception_of_call(result.error, game_id))
            else:
                out.append([event_from_pb(e) for e in result.reply.events])
        return out

    def _call(self, method: Any, request: Any, game_id: str) -> Any:
        rid = logs.request_id.get()
        try:
            if rid is None:
                return method(request, timeout=self.timeout)
            return method(request, timeout=self.timeout, metadata=((logs.REQUEST_ID_METADATA, rid),))
        except grpc.RpcError as err:
            raise exception_of(err, game_id) from None

    def close(self) -> None:
        """Close the channel (the port is unusable afterwards)."""
        self.channel.close()

    def __repr__(self) -> str:
        return f"GrpcPort({self.domain!r}, {self.address!r})"


class GrpcDeckPort(GrpcPort):
    """The deck port: also opens games (stores their secret seed in the deck service)."""

    def __init__(self, address: str, timeout: float | None = None):
        super().__init__("deck", address, timeout)

    def open_game(self, game_id: str, seed: str | None) -> None:
        """Store the seed of a new game (a fresh secret one if ``None``).

        Raises DomainCallFailed if the deck service cannot be reached.
        """
        request = decks_pb2.OpenGameRequest(game_id=game_id)
        if seed:
            request.seed = seed
        self._call(self.stub.OpenGame, request, game_id)


def grpc_ports(cfg: Settings | None = None) -> dict[str, GrpcPort]:
    """One gRPC port per domain, at the addresses and timeout of ``cfg`` (default: settings()).

    Returns a mapping domain -> port for :class:`~services.coordinator.table.Table`;
    the ``deck`` entry is a :class:`GrpcDeckPort`.
    """
    cfg = cfg or load_settings()
    return {d: GrpcDeckPort(cfg.service_address(d), cfg.grpc_timeout) if d == "deck"
            else GrpcPort(d, cfg.service_address(d), cfg.grpc_timeout) for d in DOMAINS}
