"""The ScoringService servicer: decode, run the score domain's engine, encode.

Errors are mapped to status codes by the shared error interceptor
(:mod:`services.common.grpc_server`), so the methods here stay a few lines.
"""

from __future__ import annotations

from typing import Any

from services.api import common_pb2, scoring_pb2, scoring_pb2_grpc
from services.common.grpc_server import ServiceSpec
from services.common.wire import serve_apply


class ScoringServicer(scoring_pb2_grpc.ScoringServiceServicer):
    """``longhouse.v1.ScoringService`` over a :class:`DomainEngine` of the score domain."""

    def __init__(self, engine: Any):
        self.engine = engine

    def Apply(self, request: common_pb2.ApplyRequest, context) -> common_pb2.ApplyReply:
        """Run the request's score operations on a scratch copy; return the new events."""
        return serve_apply(self.engine, request)


SPEC = ServiceSpec(
    domain="score",
    process="scoring",
    full_name=scoring_pb2.DESCRIPTOR.services_by_name["ScoringService"].full_name,
    add=scoring_pb2_grpc.add_ScoringServiceServicer_to_server,
    servicer=ScoringServicer,
)
"""How :func:`services.common.grpc_server.serve` runs this service."""
