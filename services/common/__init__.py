"""Code every Longhouse process shares: settings (:mod:`.config`), structured logging
(:mod:`.logs`), gRPC server plumbing (:mod:`.grpc_server`) and the wire form of domain
calls (:mod:`.wire`).
"""
