"""longhouse_agent: a plain function as a Longhouse agent.

:func:`serve` makes ``fn(view, legal_moves, clock) -> index`` a signed HTTP-webhook or gRPC agent
(:mod:`longhouse_agent.serve`); :func:`longhouse_agent.local.play_local` plays it against the
built-in bots on this machine with the hosted engine's payloads; :mod:`longhouse_agent.protocol`
has the payloads and the Standard Webhooks signature check.
"""

from .protocol import MatchEnd, MatchStart, MoveRequest, Verifier
from .serve import AgentServer, Clock, serve

__all__ = ["AgentServer", "Clock", "MatchEnd", "MatchStart", "MoveRequest", "Verifier", "serve"]
__version__ = "0.1.0"
