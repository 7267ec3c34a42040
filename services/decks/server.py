"""The DeckService servicer: decode, run the deck domain's engine, encode.

Errors are mapped to status codes by the shared error interceptor
(:mod:`services.coordinator.grpc_server`), so the methods here stay a few lines.
"""

from __future__ import annotations

from services.api import decks_pb2, decks_pb2_grpc
from services.coordinator.grpc_server import ServiceSpec
from services.coordinator.wire import ApplyServicer


class DeckServicer(ApplyServicer, decks_pb2_grpc.DeckServiceServicer):
    """``longhouse.v1.DeckService`` over a :class:`DomainEngine` of the deck domain."""

    def OpenGame(self, request: decks_pb2.OpenGameRequest, context) -> decks_pb2.OpenGameReply:
        """Store the game's secret seed (a fresh one if none is given; first write wins)."""
        self.engine.open_game(request.game_id, request.seed if request.HasField("seed") else None)
        return decks_pb2.OpenGameReply()


SPEC = ServiceSpec.of("deck", "decks", decks_pb2, decks_pb2_grpc, "DeckService", DeckServicer)
"""How :func:`services.coordinator.grpc_server.serve` runs this service."""
