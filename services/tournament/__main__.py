"""``python -m services.tournament --url URL``: play a tournament against a running gateway.

The same tournament as ``make run`` plays, for a stack that is already serving (one
started by ``make run``, or elsewhere). Exit code 0 if every game ended by the rules. Its games
(or its tournament job) are created with the operator key in ``--operator-key-file``, else
``$LONGHOUSE_OPERATOR_KEY`` or the file ``$LONGHOUSE_OPERATOR_KEY_FILE`` names. A refusal by the
gateway (a missing or wrong key, a bad option), a gateway that does not answer, or an unreadable
key file ends the run with one line on standard error and exit code 2.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import requests

from services.bots.client import GatewayError, read_operator_key

from .display import play_with_progress, print_results, report_console
from .runner import DEFAULT_MOVE_CAP, TournamentConfig


def main(argv: list[str] | None = None) -> int:
    """Parse the command line, play, print the tables, write the report; returns the exit code."""
    p = argparse.ArgumentParser(prog="python -m services.tournament")
    p.add_argument("--url", default="http://127.0.0.1:8470", help="the gateway (default http://127.0.0.1:8470)")
    p.add_argument("--game", default="noggin")
    p.add_argument("--games", type=int, default=3)
    p.add_argument("--players", type=int, default=3)
    p.add_argument("--seed", default="7")
    p.add_argument("--bots", default="expert,greedy,random",
                   help="comma-separated bot per seat, repeated round the table (default expert,greedy,random)")
    p.add_argument("--variants", default="", help="comma-separated variants for every game (default none)")
    p.add_argument("--via", choices=("bus", "http"), default="bus",
                   help="bots decide on the worker (bus, default) or post their moves over HTTP")
    p.add_argument("--parallel", type=int, default=3)
    p.add_argument("--move-cap", type=int, default=DEFAULT_MOVE_CAP)
    p.add_argument("--report", type=Path)
    p.add_argument("--operator-key-file", type=Path,
                   help="a file holding the operator key (default: $LONGHOUSE_OPERATOR_KEY, else the file "
                        "$LONGHOUSE_OPERATOR_KEY_FILE names; make run prints where its key is)")
    args = p.parse_args(argv)
    key = None
    if args.operator_key_file is not None:
        try:
            key = read_operator_key(args.operator_key_file)
        except OSError as exc:
            p.error(f"cannot read the operator key file {args.operator_key_file}: {exc.strerror or exc}")
        if not key:
            p.error(f"{args.operator_key_file} holds no operator key")
    console = report_console()
    config = TournamentConfig(game=args.game, players=args.players, games=args.games, seed=args.seed,
                              bots=[b.strip() for b in args.bots.split(",") if b.strip()],
                              options={v.strip(): True for v in args.variants.split(",") if v.strip()},
                              move_cap=args.move_cap, parallel=args.parallel, via=args.via)
    try:
        report = play_with_progress(args.url, config, console, operator_key=key)
    except GatewayError as exc:
        print(f"python -m services.tournament: the gateway refused: {exc}", file=sys.stderr)
        return 2
    except requests.ConnectionError:
        print(f"python -m services.tournament: no gateway answers at {args.url}", file=sys.stderr)
        return 2
    print_results(report, console, args.report)
    return 1 if report.failed else 0


if __name__ == "__main__":
    sys.exit(main())
