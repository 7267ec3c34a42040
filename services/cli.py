"""The ``longhouse`` command: tournaments and agents on a running stack, through the gateway's API.

::

    longhouse tournament run --url URL --game noggin --game gnomes --format round_robin \\
        --participant random --participant greedy --participant ismcts:iterations=40 \\
        --participant agent:<agent id>@NAME --out DIR
    longhouse tournament status --url URL ID
    longhouse tournament results --url URL ID --out DIR
    longhouse agent register --url URL --name NAME --protocol http --address URL --secret S
    longhouse agent list --url URL

``run`` creates the tournament (``POST /tournaments``), follows it with a progress bar until it
is done, prints the standings and writes ``standings.json``, ``standings.csv`` and
``ratings.png`` into ``--out``. Exit codes: 0 done, 1 the tournament failed or timed out,
2 a bad command or an API error.

``tournament run`` and both ``agent`` commands need an operator key (README, "Operator keys"):
``--operator-key-file PATH`` (``make run`` prints where its key is), else
``$LONGHOUSE_OPERATOR_KEY``, else the file ``$LONGHOUSE_OPERATOR_KEY_FILE`` names. The key is
never taken on the command line, where ``ps`` would show it.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any

import requests
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table as RichTable

from services.bots.client import OPERATOR_KEY_HEADER, operator_key_from_env, read_operator_key
from services.bots.decide import BOT_KINDS, SEARCH_KINDS
from services.tournament import jobs

DEFAULT_URL = "http://127.0.0.1:8470"
FMT = argparse.ArgumentDefaultsHelpFormatter


class ApiFailure(Exception):
    """The gateway answered with an error (its JSON reason is the message)."""


def operator_headers(args: argparse.Namespace) -> dict[str, str]:
    """The operator key header of a command: the key in ``--operator-key-file``, else
    :func:`~services.bots.client.operator_key_from_env`.

    Raises:
        ValueError: no key anywhere, or the file holds none.
        OSError: the file cannot be read.
    """
    path = getattr(args, "operator_key_file", None)
    if path:
        key = read_operator_key(path)
        if not key:
            raise ValueError(f"{path} holds no operator key")
    else:
        key = operator_key_from_env()
    if not key:
        raise ValueError("this command needs an operator key: --operator-key-file PATH (make run prints where its "
                         "key is), $LONGHOUSE_OPERATOR_KEY or $LONGHOUSE_OPERATOR_KEY_FILE")
    return {OPERATOR_KEY_HEADER: key}


def _call(method: str, url: str, **kwargs: Any) -> Any:
    resp = requests.request(method, url, timeout=30, **kwargs)
    if resp.status_code >= 400:
        try:
            body = resp.json()
            reason = f"{body.get('error')}: {body.get('reason')}"
        except ValueError:
            reason = resp.text[:200]
        raise ApiFailure(f"{method} {url} -> {resp.status_code} {reason}")
    return resp.json()


def parse_participant(text: str) -> dict[str, Any]:
    """``random`` | ``greedy`` | ``ismcts[:iterations=N]`` | ``agent:<id>``, each optionally
    ending ``@NAME`` to name it -> a participant dict (the default name is the kind, or the
    agent id).

    Raises:
        ValueError: an unknown kind or a malformed option.
    """
    head, _, name = text.partition("@")
    kind, *opts = head.split(":")
    out: dict[str, Any] = {"kind": kind}
    if kind == "agent":
        if len(opts) != 1 or not opts[0]:
            raise ValueError("an agent participant is agent:<agent id>[@name]")
        out["agent"] = opts[0]
        out["name"] = opts[0]
    elif kind in BOT_KINDS:
        for opt in opts:
            key, _, value = opt.partition("=")
            if kind not in SEARCH_KINDS or key != "iterations" or not value.isdigit():
                raise ValueError(f"unknown participant option {opt!r} ({' and '.join(SEARCH_KINDS)} take iterations=N)")
            out["iterations"] = int(value)
        out["name"] = kind
    else:
        raise ValueError(f"unknown participant kind {kind!r}: {', '.join(BOT_KINDS)} or agent:<id>")
    if name:
        out["name"] = name
    return out


def unique_names(participants: list[dict[str, Any]], named: set[int] | None = None) -> list[dict[str, Any]]:
    """Number repeated default names (``random``, ``random-2``, ...). Raises ValueError when
    a name given with ``@NAME`` (the indexes in ``named``) is given twice or taken."""
    given = [participants[i]["name"] for i in sorted(named or ())]
    if len(set(given)) != len(given):
        raise ValueError(f"participant names given with @ must differ: {', '.join(sorted(given))}")
    seen: dict[str, int] = {}
    for p in participants:
        n = seen.get(p["name"], 0) + 1
        seen[p["name"]] = n
        if n > 1:
            p["name"] = f"{p['name']}-{n}"
    return participants


def follow(url: str, tid: str, console: Console, timeout_s: float) -> dict[str, Any]:
    """Follow ``GET /tournaments/<id>`` (:func:`services.tournament.jobs.follow`) with a progress
    bar until it is done or ``timeout_s`` passes; returns the last report."""
    with Progress(TextColumn("[bold]tournament {task.fields[tid]}"), BarColumn(), MofNCompleteColumn(),
                  TextColumn("matches"), TimeElapsedColumn(), console=console, transient=False) as bar:
        task = bar.add_task("matches", total=1, tid=tid)
        for doc in jobs.follow(lambda: _call("GET", f"{url}/tournaments/{tid}"), timeout_s):
            bar.update(task, total=max(1, doc["planned"]), completed=doc["played"])
    return doc


def print_standings(doc: dict[str, Any], console: Console) -> None:
    """The standings table."""
    table = RichTable(title=f"Standings: tournament {doc['tournament_id']} ({doc['played']}/{doc['planned']} matches)")
    for col in ("#", "participant", "matches", "wins", "win %", "avg score", "strikes", "forfeits", "rating (mu ± sigma)"):
        table.add_column(col, justify="left" if col == "participant" else "right")
    for row in doc["standings"]["rows"]:
        table.add_row(str(row["rank"]), row["name"], str(row["matches"]), f"{row['wins']:g}",
                      f"{100 * row['win_rate']:.0f}", f"{row['average_score']:.2f}", str(row["strikes"]),
                      str(row["forfeits"]), f"{row['mu']:.1f} ± {row['sigma']:.1f}")
    console.print(table)


def cmd_tournament_run(args: argparse.Namespace, console: Console) -> int:
    participants = unique_names([parse_participant(p) for p in args.participant],
                                named={i for i, p in enumerate(args.participant) if "@" in p})
    body: dict[str, Any] = {"games": args.game, "format": args.format, "participants": participants,
                            "players": args.players, "parallel": args.parallel}
    if args.games_per_pairing is not None:
        body["games_per_pairing"] = args.games_per_pairing
    if args.rounds is not None:
        body["rounds"] = args.rounds
    if args.challenger:
        body["challengers"] = args.challenger
    if args.matches is not None:
        body["matches"] = args.matches
    if args.seed is not None:
        body["seed"] = args.seed
    control = {k: v for k, v in (("move_ms", args.move_ms), ("bank_ms", args.bank_ms),
                                 ("max_strikes", args.max_strikes)) if v is not None}
    if control:
        body["time_control"] = control
    created = _call("POST", f"{args.url}/tournaments", json=body, headers=operator_headers(args))
    tid = created["tournament_id"]
    console.print(f"tournament {tid}: {created['planned']} matches planned ({args.format}, {', '.join(args.game)})")
    doc = follow(args.url, tid, console, args.timeout)
    print_standings(doc, console)
    if args.out:
        paths = jobs.write_outputs(doc, args.out)
        console.print("wrote " + ", ".join(paths.values()))
    if doc["status"] != "done":
        console.print(f"[red]tournament {tid} is {doc['status']} after {args.timeout:.0f} s")
        return 1
    return 0


def cmd_tournament_status(args: argparse.Namespace, console: Console) -> int:
    doc = _call("GET", f"{args.url}/tournaments/{args.tournament_id}")
    print_standings(doc, console)
    console.print(f"status: {doc['status']}")
    return 0


def cmd_tournament_results(args: argparse.Namespace, console: Console) -> int:
    doc = _call("GET", f"{args.url}/tournaments/{args.tournament_id}")
    paths = jobs.write_outputs(doc, args.out)
    console.print("wrote " + ", ".join(paths.values()))
    return 0


def cmd_tournament_cancel(args: argparse.Namespace, console: Console) -> int:
    console.print(json.dumps(_call("POST", f"{args.url}/tournaments/{args.tournament_id}/cancel",
                                   headers=operator_headers(args))))
    return 0


def cmd_agent_register(args: argparse.Namespace, console: Console) -> int:
    if not args.secret:
        raise ValueError("give the agent's secret: --secret or $LONGHOUSE_AGENT_SECRET")
    record = _call("POST", f"{args.url}/agents", json={"name": args.name, "protocol": args.protocol,
                                                       "address": args.address, "secret": args.secret},
                   headers=operator_headers(args))
    console.print(json.dumps(record))
    return 0


def cmd_agent_list(args: argparse.Namespace, console: Console) -> int:
    console.print(json.dumps(_call("GET", f"{args.url}/agents", headers=operator_headers(args)), indent=2))
    return 0


def cmd_agent_remove(args: argparse.Namespace, console: Console) -> int:
    record = _call("DELETE", f"{args.url}/agents/{args.agent_id}", headers=operator_headers(args))
    console.print(json.dumps(record))
    return 0


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of ``longhouse``."""
    parser = argparse.ArgumentParser(prog="longhouse", description="Tournaments and agents on a Longhouse stack.",
                                     formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    sub = parser.add_subparsers(dest="area", required=True)
    t = sub.add_parser("tournament", help="run and read tournaments", formatter_class=FMT).add_subparsers(dest="action", required=True)
    run = t.add_parser("run", help="create a tournament and follow it to its end", formatter_class=FMT)
    run.add_argument("--url", default=DEFAULT_URL)
    run.add_argument("--game", action="append", required=True, help="a game to play (repeat for several)")
    run.add_argument("--format", default="round_robin", choices=jobs.FORMATS)
    run.add_argument("--participant", action="append", required=True,
                     help="random | greedy | ismcts[:iterations=N] | agent:<id>, each with an optional @NAME")
    run.add_argument("--players", type=int, default=2)
    run.add_argument("--seed", default=None, help="tournament seed (none given: a fresh random one)")
    run.add_argument("--games-per-pairing", type=int, default=None, help="repetitions of each pairing, round robin and gauntlet (none given: 1)")
    run.add_argument("--rounds", type=int, default=None, help="Swiss rounds")
    run.add_argument("--challenger", action="append", default=None, help="gauntlet challenger name")
    run.add_argument("--matches", type=int, default=None, help="series: games per game")
    run.add_argument("--parallel", type=int, default=8, help="matches in play at once")
    run.add_argument("--move-ms", type=int, default=None, help="agents: ms per decision (none given: 2000)")
    run.add_argument("--bank-ms", type=int, default=None, help="agents: ms of bank per match (none given: 10000)")
    run.add_argument("--max-strikes", type=int, default=None, help="agents: strikes that forfeit (none given: 3)")
    run.add_argument("--timeout", type=float, default=3600.0, help="seconds to follow it")
    run.add_argument("--out", default=None, help="directory for standings.json, standings.csv, ratings.png")
    _operator_key_option(run)
    run.set_defaults(fn=cmd_tournament_run)
    for name, fn, help_text in (("status", cmd_tournament_status, "print a tournament's standings"),
                                ("results", cmd_tournament_results, "write a tournament's result files")):
        p = t.add_parser(name, help=help_text, formatter_class=FMT)
        p.add_argument("--url", default=DEFAULT_URL)
        p.add_argument("tournament_id")
        if name == "results":
            p.add_argument("--out", required=True)
        p.set_defaults(fn=fn)
    cancel = t.add_parser("cancel", help="cancel a running tournament", formatter_class=FMT)
    cancel.add_argument("--url", default=DEFAULT_URL)
    cancel.add_argument("tournament_id")
    _operator_key_option(cancel)
    cancel.set_defaults(fn=cmd_tournament_cancel)
    a = sub.add_parser("agent", help="register, list and remove external agents", formatter_class=FMT).add_subparsers(dest="action", required=True)
    reg = a.add_parser("register", help="register an agent", formatter_class=FMT)
    reg.add_argument("--url", default=DEFAULT_URL)
    reg.add_argument("--name", required=True)
    reg.add_argument("--protocol", choices=("grpc", "http"), required=True)
    reg.add_argument("--address", required=True)
    reg.add_argument("--secret", default=os.environ.get("LONGHOUSE_AGENT_SECRET"),
                     help="the shared secret (default: $LONGHOUSE_AGENT_SECRET, which keeps it out of ps)")
    _operator_key_option(reg)
    reg.set_defaults(fn=cmd_agent_register)
    ls = a.add_parser("list", help="list agents", formatter_class=FMT)
    ls.add_argument("--url", default=DEFAULT_URL)
    _operator_key_option(ls)
    ls.set_defaults(fn=cmd_agent_list)
    rm = a.add_parser("remove", help="remove an agent (its seats in games in play then strike)", formatter_class=FMT)
    rm.add_argument("--url", default=DEFAULT_URL)
    rm.add_argument("agent_id")
    _operator_key_option(rm)
    rm.set_defaults(fn=cmd_agent_remove)
    return parser


def _operator_key_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--operator-key-file", default=None,
                        help="a file holding the operator key (default: $LONGHOUSE_OPERATOR_KEY, else the file "
                             "$LONGHOUSE_OPERATOR_KEY_FILE names)")


def main(argv: list[str] | None = None) -> int:
    """Entry point of ``longhouse``; returns the exit code."""
    args = build_parser().parse_args(argv)
    console = Console(width=None if sys.stdout.isatty() else 120)
    try:
        return int(args.fn(args, console))
    except (ApiFailure, ValueError, OSError, requests.RequestException) as exc:
        console.print(f"[red]longhouse: {exc}")
        return 2


if __name__ == "__main__":
    sys.exit(main())
