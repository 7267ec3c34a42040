"""The MarketService servicer: decode, run the market domain's engine, encode.

Errors are mapped to status codes by the shared error interceptor
(:mod:`services.common.grpc_server`), so the methods here stay a few lines.
"""

from __future__ import annotations

from typing import Any

from services.api import common_pb2, market_pb2, market_pb2_grpc
from services.common.grpc_server import ServiceSpec
from services.common.wire import serve_apply


class MarketServicer(market_pb2_grpc.MarketServiceServicer):
    """``longhouse.v1.MarketService`` over a :class:`DomainEngine` of the market domain."""

    def __init__(self, engine: Any):
        self.engine = engine

    def Apply(self, request: common_pb2.ApplyRequest, context) -> common_pb2.ApplyReply:
        """Run the request's market operations on a scratch copy; return the new events."""
        return serve_apply(self.engine, request)


SPEC = ServiceSpec(
    domain="market",
    process="market",
    full_name=market_pb2.DESCRIPTOR.services_by_name["MarketService"].full_name,
    add=market_pb2_grpc.add_MarketServiceServicer_to_server,
    servicer=MarketServicer,
)
"""How :func:`services.common.grpc_server.serve` runs this service."""
