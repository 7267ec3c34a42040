"""Play a whole game through the Python client: one seat is yours, the other a built-in bot.

    python examples/sdk_quickstart.py --url http://127.0.0.1:8470 --operator-key-file var/run-…/operator.key

It creates a game of A Game of Gnomes (``--game`` for another) against the ``random`` bot
(``--bot``), takes seat 0 with its invitation, and plays it with ``play_seat``, which follows the
game's event stream and asks ``choose`` for a move whenever the seat has a decision. It prints a
line per 20 moves and ends with a line beginning ``game over``.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
source = ROOT / "sdk" / "longhouse_client" / "src"  # run from a checkout without installing
if source.is_dir() and str(source) not in sys.path:
    sys.path.insert(0, str(source))

from longhouse_client import Client, play_seat  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Play one seat of a game against a built-in bot through the SDK.")
    parser.add_argument("--url", required=True, help="the gateway, e.g. http://127.0.0.1:8470")
    parser.add_argument("--operator-key-file", required=True, help="the operator key's file (make run names it)")
    parser.add_argument("--game", default="gnomes", choices=["noggin", "gnomes", "resource_hog"])
    parser.add_argument("--bot", default="random", help="the built-in bot on seat 1")
    parser.add_argument("--seed", default="quickstart")
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    moves = 0

    def choose(view: dict, legal_moves: list[dict]) -> int:
        return rng.randrange(len(legal_moves))

    def played(move: dict, result) -> None:
        nonlocal moves
        moves += 1
        if moves % 20 == 0:
            print(f"move {moves}: {move['type']} -> version {result.version}", flush=True)

    with Client(args.url, operator_key_file=args.operator_key_file) as lh:
        game = lh.create_game(args.game, 2, seed=args.seed, bots={"1": args.bot})
        seat = lh.take_seat(game.game_id, 0, game.invitations["0"])
        print(f"game {game.game_id}: {args.game}, seat 0 is ours, seat 1 is the {args.bot} bot", flush=True)
        summary = play_seat(lh, game.game_id, seat.token, choose, on_move=played)
    outcome = summary.outcome
    print(f"game over: {summary.game_id} after {summary.moves} moves ({moves} ours), scores {outcome.scores}, "
          f"winners {outcome.winners}, reason {outcome.reason}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
