"""An example Longhouse agent served over gRPC (``longhouse.agent.v1.Agent``).

    python examples/grpc_agent.py --port 8602 --secret <secret> [--behaviour good] [--seed 1]

It listens on 127.0.0.1 only and prints ``listening on 127.0.0.1:<port>`` once ready
(``--port 0`` picks a free port). The servicer is the generated
``services/api/agent_pb2_grpc.AgentServicer`` (run ``make protos`` first); a
:class:`~services.agents.grpc_wire.SignatureInterceptor` checks every call's signature
metadata against the request bytes and refuses a bad or stale one (UNAUTHENTICATED) or a
replayed delivery (ALREADY_EXISTS) before the servicer sees it.

It serves ``ChooseMoves`` too (several decisions in one call, each answered as ChooseMove
would answer it alone). ``--behaviour`` changes how it answers ChooseMove and ChooseMoves only
(to test the engine; once a call, a batch included):

* ``good``: a random legal move, from a generator seeded by ``--seed``, the match id and
  the game version (the same request always gets the same answer);
* ``sleep``: waits ``--sleep-s`` seconds, then answers as ``good``;
* ``crash``: status INTERNAL;
* ``garbage``: reply bytes that are not a serialized MoveChoice;
* ``illegal``: an index past the last legal move.

The secret may also come from the environment variable LONGHOUSE_AGENT_SECRET (so it
does not show in the process list). One line per decision (and per crashed call) goes to stderr; the secret is
never written.
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import grpc

# Run from a checkout without installing: the repository root holds the services package.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from services.agents.grpc_wire import SignatureInterceptor
from services.agents.protocol import ReplayGuard
from services.api import agent_pb2, agent_pb2_grpc

BEHAVIOURS = ("good", "sleep", "crash", "garbage", "illegal")


_log_lock = threading.Lock()


def log(line: str) -> None:
    """One line on standard error, whole (requests are served by several threads at once)."""
    with _log_lock:
        sys.stderr.write(f"{time.strftime('%H:%M:%S')} {line}\n")
        sys.stderr.flush()


class ExampleAgent(agent_pb2_grpc.AgentServicer):
    """Plays a seeded random legal move, or misbehaves as ``behaviour`` says."""

    def __init__(self, behaviour: str, sleep_s: float, seed: str, stopping: threading.Event):
        self.behaviour = behaviour
        self.sleep_s = sleep_s
        self.seed = seed
        self.stopping = stopping

    def StartMatch(self, request: agent_pb2.MatchStart, context: grpc.ServicerContext) -> agent_pb2.Ack:
        # request.options_json is the game's options as JSON text; a real agent would
        # load its model for request.game here.
        log(f"start match={request.match_id} game={request.game} seat={request.seat} -> ack")
        return agent_pb2.Ack()

    def ChooseMove(self, request: agent_pb2.MoveRequest, context: grpc.ServicerContext) -> agent_pb2.MoveChoice:
        self._behave(context, f"match={request.match_id}")
        return agent_pb2.MoveChoice(index=self._choose(request))

    def ChooseMoves(self, request: agent_pb2.MoveRequests,
                    context: grpc.ServicerContext) -> agent_pb2.MoveChoices:
        # Optional: the engine sends the decisions it holds for this agent at once together here
        # (a model can score them in one batch); an agent without it is asked one ChooseMove each.
        self._behave(context, f"batch of {len(request.requests)}")
        n = len(request.requests)
        return agent_pb2.MoveChoices(choices=[agent_pb2.MoveChoice(index=self._choose(r, f" (in a batch of {n})"))
                                              for r in request.requests])

    def _behave(self, context: grpc.ServicerContext, what: str) -> None:
        """What ``--behaviour`` does before a call is answered (once a call, a batch included)."""
        if self.behaviour == "crash":
            log(f"move {what} behaviour=crash -> INTERNAL")
            context.abort(grpc.StatusCode.INTERNAL, "the example agent crashed on purpose")
        if self.behaviour == "sleep":
            self.stopping.wait(self.sleep_s)

    def _choose(self, request: agent_pb2.MoveRequest, batch: str = "") -> int:
        """The index this agent answers ``request`` with (one log line; ``batch`` says which
        ChooseMoves it came in)."""
        # request.view_json and each of request.legal_moves_json are JSON text
        # (json.loads them); this agent only needs how many moves there are.
        n = len(request.legal_moves_json)
        if self.behaviour == "illegal":
            index = n
        else:
            rng = random.Random(f"{self.seed}:{request.match_id}:{request.version}")
            index = rng.randrange(n) if n else 0
        log(f"move match={request.match_id} seat={request.seat} version={request.version} moves={n}{batch} "
            f"behaviour={self.behaviour} -> " + ("garbage" if self.behaviour == "garbage" else f"index={index}"))
        return index

    def EndMatch(self, request: agent_pb2.MatchEnd, context: grpc.ServicerContext) -> agent_pb2.Ack:
        log(f"end match={request.match_id} seat={request.seat} -> ack")
        return agent_pb2.Ack()


class GarbageReplies(grpc.ServerInterceptor):
    """For ``--behaviour garbage``: ChooseMove's and ChooseMoves' replies go out as bytes that do not parse."""

    def intercept_service(self, continuation, handler_call_details):
        handler = continuation(handler_call_details)
        if handler is None or not handler_call_details.method.endswith(("/ChooseMove", "/ChooseMoves")):
            return handler
        return grpc.unary_unary_rpc_method_handler(
            handler.unary_unary, request_deserializer=handler.request_deserializer,
            response_serializer=lambda _reply: b"this is not a MoveChoice")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="An example Longhouse agent over gRPC.")
    parser.add_argument("--port", type=int, default=8602, help="port on 127.0.0.1 (0: any free port)")
    parser.add_argument("--secret", default=os.environ.get("LONGHOUSE_AGENT_SECRET"),
                        help="the shared secret (default: $LONGHOUSE_AGENT_SECRET)")
    parser.add_argument("--behaviour", choices=BEHAVIOURS, default="good")
    parser.add_argument("--sleep-s", type=float, default=5.0, help="seconds for sleep")
    parser.add_argument("--seed", default="1", help="seeds the good move choice")
    args = parser.parse_args(argv)
    if not args.secret:
        parser.error("give --secret or set LONGHOUSE_AGENT_SECRET")

    def refused(method: str, code: grpc.StatusCode, reason: str) -> None:
        log(f"{method.rsplit('/', 1)[-1]} -> {code.name} {reason}")

    interceptors: list[grpc.ServerInterceptor] = [SignatureInterceptor(args.secret, ReplayGuard(), on_refused=refused)]
    if args.behaviour == "garbage":
        interceptors.append(GarbageReplies())
    stopping = threading.Event()
    server = grpc.server(ThreadPoolExecutor(max_workers=8), interceptors=interceptors)
    agent_pb2_grpc.add_AgentServicer_to_server(ExampleAgent(args.behaviour, args.sleep_s, args.seed, stopping), server)
    port = server.add_insecure_port(f"127.0.0.1:{args.port}")
    if not port:
        print(f"cannot listen on 127.0.0.1:{args.port}", file=sys.stderr)
        return 1
    server.start()
    print(f"listening on 127.0.0.1:{port}", flush=True)
    log(f"grpc agent, behaviour {args.behaviour}")

    def stop(signum: int, frame: object) -> None:
        stopping.set()  # wakes a sleeping ChooseMove
        server.stop(grace=1)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    server.wait_for_termination()
    return 0


if __name__ == "__main__":
    sys.exit(main())
