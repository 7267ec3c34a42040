"""Search locally with OpenSpiel, then plug the same bot in: OpenSpiel's Python ISMCTS playing
Resource Hog (docs/interop.md, "Search and train locally, then plug in").

    python examples/openspiel_agent.py local [--players 3] [--simulations 30] [--seed 1]
    python examples/openspiel_agent.py serve --port 8601 --secret <secret> [--simulations 30]

``local`` plays one game of ``longhouse_resource_hog`` (``import services.interop.openspiel``
registers it with ``pyspiel``): seat 0 is OpenSpiel's Python ``ISMCTSBot`` (random rollouts),
the other seats play uniformly at random, chance is drawn from its probabilities; it prints
the returns (``rank`` utility) and the final scores.

``serve`` answers the engine's agent protocol over HTTP (the signed JSON webhook of
``examples/http_agent.py``): for each move request it rebuilds an OpenSpiel state from the
seat's player view (``Episode.from_view``: the hidden parts sampled by the game's own
determinisation; the search looks ``--horizon`` moves ahead, then ranks the seats by the
game's evaluation), runs the same ``ISMCTSBot`` and answers the index of its move among the
legal moves offered. It listens on 127.0.0.1 and prints ``listening on 127.0.0.1:<port>``.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

# Run from a checkout without installing: the repository root holds the services package.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np  # noqa: E402
import pyspiel  # noqa: E402
from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402

import services.interop.openspiel as longhouse  # noqa: E402  (registers the games)
from services.agents.protocol import (  # noqa: E402
    BadPayload,
    MoveRequest,
    ReplayGuard,
    Replayed,
    SignatureError,
    parse_payload,
    verify,
)
from services.interop.episode import Episode, span  # noqa: E402
from services.rules.core.canonical import plain_json  # noqa: E402

GAME = "resource_hog"


def make_bot(game: pyspiel.Game, simulations: int, seed: int) -> ismcts.ISMCTSBot:
    """OpenSpiel's Python ISMCTS with random rollouts (its C++ bots cannot run Python games)."""
    rs = np.random.RandomState(seed)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rs)
    return ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=simulations, random_state=rs,
                            allow_inconsistent_action_sets=True)


def play_local(players: int = 2, simulations: int = 30, seed: int = 1, max_moves: int = 400) -> pyspiel.State:
    """One game of Resource Hog: ISMCTS on seat 0, uniform random elsewhere. Returns the final state."""
    game = pyspiel.load_game(f"{longhouse.GAMES[GAME]}(players={players},max_moves={max_moves},utility=rank)")
    bot = make_bot(game, simulations, seed)
    rng = np.random.RandomState(seed + 1)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(actions, p=probs)))
        elif state.current_player() == 0:
            state.apply_action(int(bot.step(state)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    return state


def choose(request: MoveRequest, simulations: int, horizon: int, seed: int) -> int:
    """The index among ``request.legal_moves_json`` of the move ISMCTS picks from the seat's view."""
    view = json.loads(request.view_json)
    legal = [plain_json(json.loads(m)) for m in request.legal_moves_json]
    if len(legal) == 1:
        return 0
    ep = Episode.from_view(request.game, view, f"{seed}:{request.match_id}:{request.version}", max_moves=horizon)
    game = pyspiel.load_game(f"{longhouse.GAMES[request.game]}(players={ep.players},max_moves={horizon})")
    state = longhouse.LonghouseState(game, ep)
    bot = make_bot(game, simulations, seed + request.version)
    moves = ep.legal_moves()
    while True:  # a decision taken in steps (more legal moves than the bound) takes several
        action = int(bot.step(state))
        lo, hi, _ = span(len(moves), ep.bound, ep.prefix + (action,)) if len(moves) > ep.bound else (action, action + 1, 1)
        if hi - lo == 1:
            break
        state.apply_action(action)
    chosen = plain_json(moves[lo])
    return legal.index(chosen) if chosen in legal else 0


def make_handler(secret: str, simulations: int, horizon: int, seed: int) -> type[BaseHTTPRequestHandler]:
    guard = ReplayGuard()

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: Any) -> None:
            pass

        def send(self, status: int, body: dict[str, Any]) -> None:
            data = json.dumps(body).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            try:
                verify(secret, self.headers, body, time.time(), guard)
                payload = parse_payload(body)
            except Replayed as exc:
                return self.send(409, {"error": str(exc)})
            except SignatureError as exc:
                return self.send(401, {"error": str(exc)})
            except BadPayload as exc:
                return self.send(400, {"error": str(exc)})
            if not isinstance(payload, MoveRequest):
                return self.send(200, {})
            index = choose(payload, simulations, horizon, seed)
            print(f"move match={payload.match_id} version={payload.version} -> {index}", file=sys.stderr, flush=True)
            self.send(200, {"index": index})

    return Handler


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="OpenSpiel's ISMCTS on Resource Hog, locally or as an agent.")
    parser.add_argument("mode", choices=("local", "serve"))
    parser.add_argument("--players", type=int, default=2, help="seats of the local game")
    parser.add_argument("--simulations", type=int, default=30, help="ISMCTS simulations a decision")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--horizon", type=int, default=30, help="moves the served bot looks ahead")
    parser.add_argument("--port", type=int, default=8601, help="serve: port on 127.0.0.1 (0: any free port; make run allows 8601)")
    parser.add_argument("--secret", default=os.environ.get("LONGHOUSE_AGENT_SECRET"), help="serve: the shared secret")
    args = parser.parse_args(argv)
    if args.mode == "local":
        state = play_local(args.players, args.simulations, args.seed)
        print(f"returns (rank): {state.returns()}; scores: {state.episode.scores()}")
        return 0
    if not args.secret:
        parser.error("serve needs --secret or LONGHOUSE_AGENT_SECRET")
    server = ThreadingHTTPServer(("127.0.0.1", args.port),
                                 make_handler(args.secret, args.simulations, args.horizon, args.seed))
    server.daemon_threads = True
    print(f"listening on 127.0.0.1:{server.server_address[1]}", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
