"""The BoardService servicer: decode, run the board domain's engine, encode.

Errors are mapped to status codes by the shared error interceptor
(:mod:`services.coordinator.grpc_server`), so the servicer holds no logic of its own.
"""

from __future__ import annotations

from services.api import boards_pb2, boards_pb2_grpc
from services.coordinator.grpc_server import ServiceSpec
from services.coordinator.wire import ApplyServicer


class BoardServicer(ApplyServicer, boards_pb2_grpc.BoardServiceServicer):
    """``longhouse.v1.BoardService`` over a :class:`DomainEngine` of the board domain."""


SPEC = ServiceSpec.of("board", "boards", boards_pb2, boards_pb2_grpc, "BoardService", BoardServicer)
"""How :func:`services.coordinator.grpc_server.serve` runs this service."""
