"""The ScoringService servicer: decode, run the score domain's engine, encode.

Errors are mapped to status codes by the shared error interceptor
(:mod:`services.coordinator.grpc_server`), so the servicer holds no logic of its own.
"""

from __future__ import annotations

from services.api import scoring_pb2, scoring_pb2_grpc
from services.coordinator.grpc_server import ServiceSpec
from services.coordinator.wire import ApplyServicer


class ScoringServicer(ApplyServicer, scoring_pb2_grpc.ScoringServiceServicer):
    """``longhouse.v1.ScoringService`` over a :class:`DomainEngine` of the score domain."""


SPEC = ServiceSpec.of("score", "scoring", scoring_pb2, scoring_pb2_grpc, "ScoringService", ScoringServicer)
"""How :func:`services.coordinator.grpc_server.serve` runs this service."""
