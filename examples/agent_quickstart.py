"""Write an agent as a plain function and try it against the built-in bots, no stack needed.

    python examples/agent_quickstart.py --games 3 [--game gnomes] [--opponent greedy]

``choose`` below is the whole agent: it gets the seat's player view, the legal moves and a clock,
and returns the index of its move (here: the first move that ends the turn least often, else a
seeded random one). ``play_local`` plays it on the engine's forward model with the payloads the
hosted engine sends; the last line printed begins ``local match``. To put the same function on a
running stack, ``longhouse_agent.serve(choose, protocol="http", secret=...)`` and register its
address (docs: "Writing an agent").
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
for extra in (ROOT, ROOT / "sdk" / "longhouse_agent" / "src"):  # run from a checkout without installing
    if str(extra) not in sys.path:
        sys.path.insert(0, str(extra))

from longhouse_agent.local import play_local  # noqa: E402

rng = random.Random(1)


def choose(view: dict, legal_moves: list[dict], clock) -> int:
    """Prefer any move that is not ending the turn or passing; among those, a random one."""
    busy = [i for i, m in enumerate(legal_moves) if m.get("type") not in ("end_turn", "done", "finish")]
    return rng.choice(busy or range(len(legal_moves)))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Play a plain function against the built-in bots locally.")
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--game", default="gnomes", choices=["noggin", "gnomes", "resource_hog"])
    parser.add_argument("--opponent", action="append", help="a bot kind per other seat (default: random)")
    parser.add_argument("--seed", default="quickstart")
    args = parser.parse_args(argv)
    match = play_local(choose, game=args.game, opponents=args.opponent or ["random"], games=args.games,
                       seed=args.seed)
    for g in match.games:
        print(f"{g.seed}: seat {g.seat}, scores {g.scores}, winners {g.winners} ({g.reason})")
    print(match.summary())
    return 0


if __name__ == "__main__":
    sys.exit(main())
