"""External AI agents: the protocol by which the engine asks them for moves.

* :mod:`services.agents.protocol` — the payloads as JSON (pydantic models), HMAC-SHA256
  signing and verification, replay protection; no gRPC needed.
* :mod:`services.agents.grpc_wire` — the same payloads as ``longhouse.agent.v1`` protobuf
  messages (``protos/agent.proto``) and a server interceptor that checks signatures.
* :mod:`services.agents.client` — the engine's side: one client per agent, over gRPC or
  an HTTP webhook, every call bounded by a total deadline on the engine's clock.

``examples/`` at the top of the repository has a runnable agent of each kind.
"""
