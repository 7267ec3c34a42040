"""The BoardService servicer: decode, run the board domain's engine, encode.

Errors are mapped to status codes by the shared error interceptor
(:mod:`services.common.grpc_server`), so the methods here stay a few lines.
"""

from __future__ import annotations

from typing import Any

from services.api import boards_pb2, boards_pb2_grpc, common_pb2
from services.common.grpc_server import ServiceSpec
from services.common.wire import serve_apply


class BoardServicer(boards_pb2_grpc.BoardServiceServicer):
    """``longhouse.v1.BoardService`` over a :class:`DomainEngine` of the board domain."""

    def __init__(self, engine: Any):
        self.engine = engine

    def Apply(self, request: common_pb2.ApplyRequest, context) -> common_pb2.ApplyReply:
        """Run the request's board operations on a scratch copy; return the new events."""
        return serve_apply(self.engine, request)


SPEC = ServiceSpec(
    domain="board",
    process="boards",
    full_name=boards_pb2.DESCRIPTOR.services_by_name["BoardService"].full_name,
    add=boards_pb2_grpc.add_BoardServiceServicer_to_server,
    servicer=BoardServicer,
)
"""How :func:`services.common.grpc_server.serve` runs this service."""
