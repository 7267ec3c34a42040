"""The MarketService servicer: decode, run the market domain's engine, encode.

Errors are mapped to status codes by the shared error interceptor
(:mod:`services.coordinator.grpc_server`), so the servicer holds no logic of its own.
"""

from __future__ import annotations

from services.api import market_pb2, market_pb2_grpc
from services.coordinator.grpc_server import ServiceSpec
from services.coordinator.wire import ApplyServicer


class MarketServicer(ApplyServicer, market_pb2_grpc.MarketServiceServicer):
    """``longhouse.v1.MarketService`` over a :class:`DomainEngine` of the market domain."""


SPEC = ServiceSpec.of("market", "market", market_pb2, market_pb2_grpc, "MarketService", MarketServicer)
"""How :func:`services.coordinator.grpc_server.serve` runs this service."""
