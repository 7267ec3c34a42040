"""The ScoringService servicer: decode, run the score domain's engine, encode.

Errors are mapped to status codes by the shared error interceptor
(:mod:`services.common.grpc_server`), so the servicer holds no logic of its own.
"""

from __future__ import annotations

from services.api import scoring_pb2, scoring_pb2_grpc
from services.common.grpc_server import ServiceSpec
from services.common.wire import ApplyServicer


class ScoringServicer(ApplyServicer, scoring_pb2_grpc.ScoringServiceServicer):
    """``longhouse.v1.ScoringService`` over a :class:`DomainEngine` of the score domain."""


SPEC = ServiceSpec(
    domain="score",
    process="scoring",
    full_name=scoring_pb2.DESCRIPTOR.services_by_name["ScoringService"].full_name,
    add=scoring_pb2_grpc.add_ScoringServiceServicer_to_server,
    servicer=ScoringServicer,
)
"""How :func:`services.common.grpc_server.serve` runs this service."""
