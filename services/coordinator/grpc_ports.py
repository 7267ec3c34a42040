"""The gRPC adapters of the four ports: the coordinator's side of the domain services.

Each :class:`GrpcPort` keeps one channel to its service, opened when the port is made
and kept open (DESIGN "Cost": keep channels open, few calls per move). A call has the
per-call timeout of ``settings().grpc_timeout``. A failed call raises the same Python
exception the embedded adapter would (IllegalMove, MalformedMove, ... by the rules'
error code; GameNotFound; VersionConflict; ValueError for a bad operation), so a
:class:`~services.coordinator.table.Table` behaves identically whichever adapter runs;
anything with no embedded counterpart (service down, deadline) raises
:class:`services.common.wire.DomainCallFailed`.
"""

from __future__ import annotations

from typing import Any

import grpc

from services.api import boards_pb2_grpc, decks_pb2, decks_pb2_grpc, market_pb2_grpc, scoring_pb2_grpc
from services.common.config import Settings, settings as load_settings
from services.common.wire import DomainCallFailed, apply_request, event_from_pb, exception_of
from services.rules.core import DOMAINS, Event, Op

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
        self.stub = STUBS[domain](self.channel)

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
        reply = self._call(self.stub.Apply, apply_request(game_id, base_version, pending, ops, recent or ()), game_id)
        return [event_from_pb(e) for e in reply.events]

    def _call(self, method: Any, request: Any, game_id: str) -> Any:
        try:
            return method(request, timeout=self.timeout)
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
