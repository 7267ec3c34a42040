"""``make bench-people``: how long a person waits for their turn while the movers play games of
slow search bots.

A fresh stack (:func:`services.bench.stack.start_stack`, free loopback ports) hosts
``--search-games`` two-seat games of search bots only (Noggin ``ismcts`` at 3000 iterations, A
Game of Gnomes ``expert`` at 1000, Resource Hog ``expert`` at 60, in turn; each one to two seconds
of CPU a decision) and ``--people`` two-seat games in which seat 0 is a person played by this
process over HTTP and seat 1 a bot, ``random`` in every other game and the same search bots in
the rest. A person plays the first of its legal moves as soon as it learns its turn: from the
answer to its move (``?legal=true``) when it keeps the decision, else from ``GET /wait?until=turn``
(:meth:`~services.bots.client.GatewayClient.wait_turn`). A game that ends is replaced by a new one
with the next seed. ``--fast-games`` (0 unless given) adds two-seat games of ``greedy`` bots
only (milliseconds a step, not near-free), each replaced as it ends (:class:`FastGames`). Every
seed derives from ``--seed``.

Measured between ``--warmup`` and ``--warmup`` + ``--seconds``:

* each person turn's **wait**, from the answer to its move to learning its next turn, for the
  turns where the opponent had to move first (its median with the 95 % distribution-free interval
  of :func:`median_interval`, its 90th percentile and its maximum), by opponent (``random``,
  ``search``);
* the search-only games' moves a minute (all of them, and the slowest game's), which the people's
  turns must not starve, and the greedy-only games' moves a minute in all.

The movers' order of work decides it (:meth:`services.phases.mover.Mover.round`): before a
round's non-search steps went first, a person's turn waited behind every search game in its
mover's hand. The exit status is 1 if a person's game failed (an error, not a wait).
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from typing import Any

from rich.console import Console
from rich.table import Table

from services.bots.client import GatewayClient
from services.tournament.seeds import derive_seed

from .stats import median_interval

SEARCH_BOTS = (("noggin", {"kind": "ismcts", "iterations": 3000}),
               ("gnomes", {"kind": "expert", "iterations": 1000}),
               ("resource_hog", {"kind": "expert", "iterations": 60}))
"""The search-bot games, in turn: each about one to two seconds of CPU a decision on a 2-core VM."""
FAST_BOTS = (("noggin", {"kind": "greedy"}), ("gnomes", {"kind": "greedy"}), ("resource_hog", {"kind": "greedy"}))
"""The games of fast bots only (``--fast-games``), in turn: milliseconds a decision, not near-free."""
TOP_UP_S = 2.0
"""How often the games of fast bots that ended are replaced."""
WAIT_S = 30.0
"""One long-poll's timeout (``/wait``); a turn not there yet is asked for again."""
MAX_POLLS = 20
"""Long-polls one turn may take before the person gives the game up (a failure)."""
MAX_MOVES = 5000
"""Moves one person game may take (a bound on its loop)."""


@dataclass
class Turns:
    """What the people's threads record (under :attr:`lock`): ``(opponent, seconds since the
    start, wait in seconds, kept)`` a turn (``kept``: the move's answer gave the next turn),
    and the errors."""

    lock: threading.Lock = field(default_factory=threading.Lock)
    turns: list[tuple[str, float, float, bool]] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)


def play_person(url: str, key: str, index: int, opponent: str, seed: str, start: float, until: float,
                turns: Turns, search_bots: tuple[tuple[str, dict[str, Any]], ...] = SEARCH_BOTS) -> None:
    """Play person games against ``opponent`` (``random`` or ``search``: the bot of
    ``search_bots`` in turn) until ``until`` (monotonic), a new game when one ends, recording each
    turn's wait in ``turns``."""
    game, search_bot = search_bots[index % len(search_bots)]
    bot = {"kind": "random"} if opponent == "random" else dict(search_bot)
    with GatewayClient(url, timeout=60, operator_key=key) as client:
        for n in range(10_000):
            if time.monotonic() >= until:
                return
            game_seed = derive_seed(seed, "person", index, n)
            created = client.create_game(game, 2, seed=game_seed, bots={"1": dict(bot, seed=derive_seed(game_seed, 1))})
            gid = created["game_id"]
            token = client.take_seat(gid, 0, created["invitations"]["0"])
            _play_one(client, gid, token, opponent, start, until, turns)


def _play_one(client: GatewayClient, gid: str, token: str, opponent: str, start: float, until: float,
              turns: Turns) -> None:
    """One person game until it ends or ``until``; raises RuntimeError if a turn never comes."""
    version, legal, status, answered, kept = 0, [], "active", None, False
    for moves in range(MAX_MOVES):
        if not legal:
            for _ in range(MAX_POLLS):
                summary = client.wait_turn(gid, token, after=version, timeout=WAIT_S)
                version, status, legal = summary["version"], summary["status"], summary.get("legal_moves") or []
                if legal or status == "over" or time.monotonic() >= until:
                    break
            else:
                raise RuntimeError(f"game {gid}: no turn in {MAX_POLLS} long-polls of {WAIT_S:.0f} s")
        if answered is not None and legal:
            with turns.lock:
                turns.turns.append((opponent, answered - start, time.monotonic() - answered, kept))
        if status == "over" or not legal or time.monotonic() >= until:
            return
        result = client.move(gid, token, legal[0], version, move_id=f"m{moves}", legal=True)
        answered = time.monotonic()
        after = result["next"]
        version, status, legal = after["version"], after["status"], after.get("legal_moves") or []
        kept = bool(legal)


class FastGames:
    """``count`` two-seat games of fast bots only (:data:`FAST_BOTS` in turn), each replaced by a new
    one with the next seed when it ends (:meth:`top_up`), so their load lasts the whole run."""

    def __init__(self, client: GatewayClient, count: int, seed: str,
                 bots: tuple[tuple[str, dict[str, Any]], ...] = FAST_BOTS):
        self.client, self.seed, self.bots = client, seed, bots
        self.ended_moves = 0  # the moves of the games replaced
        self.made = [0] * count
        self.ids = [self._create(i) for i in range(count)]

    def _create(self, index: int) -> str:
        game, bot = self.bots[index % len(self.bots)]
        game_seed = derive_seed(self.seed, "fast", index, self.made[index])
        self.made[index] += 1
        bots = {str(s): dict(bot, seed=derive_seed(game_seed, s)) for s in range(2)}
        return self.client.create_game(game, 2, seed=game_seed, bots=bots)["game_id"]

    def top_up(self) -> int:
        """Replace the games that ended; returns the moves of every game so far (the ended ones'
        and the current ones')."""
        current = 0
        for i, gid in enumerate(self.ids):
            summary = self.client.game(gid)
            if summary["status"] == "over":
                self.ended_moves += summary["moves"]
                self.ids[i] = self._create(i)
            else:
                current += summary["moves"]
        return self.ended_moves + current


def run(search_games: int, people: int, seconds: float, warmup: float, seed: str, fast_games: int = 0) -> dict[str, Any]:
    """Start a stack, play (:func:`play_on`), stop it, and return the report."""
    from services.bench.stack import start_stack

    with tempfile.TemporaryDirectory(prefix="longhouse-bench-people-") as tmp:
        stack = start_stack(tmp)
        try:
            return play_on(stack.gateway_url, stack.operator_key, search_games, people, seconds, warmup, seed,
                           fast_games=fast_games)
        finally:
            stack.stop()


def play_on(url: str, key: str, search_games: int, people: int, seconds: float, warmup: float, seed: str,
            search_bots: tuple[tuple[str, dict[str, Any]], ...] = SEARCH_BOTS, fast_games: int = 0,
            fast_bots: tuple[tuple[str, dict[str, Any]], ...] = FAST_BOTS) -> dict[str, Any]:
    """Play on the stack at ``url`` (``key``: its operator key) and return the report: ``waits``
    (opponent -> the waits in the window where the opponent moved first), ``kept`` (opponent ->
    turns the move's answer gave), ``search_moves`` (each search-only game's moves in the window),
    ``fast_moves`` (the moves of the ``fast_games`` games of fast bots only in the window, those
    replaced as they ended included: :class:`FastGames`), ``errors``. ``search_bots``: ``(game,
    bot)`` of the search games in turn (:data:`SEARCH_BOTS`); ``fast_bots``: of the fast games."""
    with GatewayClient(url, timeout=60, operator_key=key) as client:
        ids = []
        for i in range(search_games):
            game, bot = search_bots[i % len(search_bots)]
            game_seed = derive_seed(seed, "search", i)
            bots = {str(s): dict(bot, seed=derive_seed(game_seed, s)) for s in range(2)}
            ids.append(client.create_game(game, 2, seed=game_seed, bots=bots)["game_id"])
        start = time.monotonic()
        until = start + warmup + seconds
        turns = Turns()

        def person(index: int) -> None:
            try:
                play_person(url, key, index, "random" if index % 2 == 0 else "search", seed, start, until, turns,
                            search_bots)
            except Exception as exc:  # noqa: BLE001 - reported, and the exit status says so
                with turns.lock:
                    turns.errors.append(f"person {index}: {type(exc).__name__}: {exc}")

        fast = FastGames(client, fast_games, seed, fast_bots)
        threads = [threading.Thread(target=person, args=(i,), daemon=True) for i in range(people)]
        for thread in threads:
            thread.start()
        _topping_up(fast, start + warmup)
        first = {gid: client.game(gid)["moves"] for gid in ids}
        fast_first = fast.top_up()
        _topping_up(fast, until)
        last = {gid: client.game(gid)["moves"] for gid in ids}
        fast_last = fast.top_up()
        for thread in threads:
            thread.join(timeout=WAIT_S * 3)
    window = [t for t in turns.turns if warmup <= t[1] <= warmup + seconds]
    return {
        "waits": {o: [w for opp, _, w, kept in window if opp == o and not kept] for o in ("random", "search")},
        "kept": {o: sum(1 for opp, _, _, kept in window if opp == o and kept) for o in ("random", "search")},
        "search_moves": [last[g] - first[g] for g in ids],
        "fast_moves": fast_last - fast_first,
        "seconds": seconds,
        "errors": turns.errors + [f"person thread {i} still running" for i, t in enumerate(threads) if t.is_alive()],
    }


def _topping_up(fast: FastGames, until: float) -> None:
    """Wait until ``until`` (monotonic), replacing the fast games that end every :data:`TOP_UP_S`."""
    for _ in range(100_000):  # bounded: each turn sleeps until the next top-up or ``until``
        if time.monotonic() >= until:
            return
        fast.top_up()  # nothing to do without fast games
        time.sleep(max(0.0, min(TOP_UP_S, until - time.monotonic())))


def rows(report: dict[str, Any]) -> list[list[str]]:
    """The report's table rows: opponent, turns, median wait (its interval), p90, max, and the turns
    the move's answer gave (seconds)."""
    out = []
    for opponent, waits in report["waits"].items():
        if not waits:
            out.append([opponent, "0", "", "", "", str(report["kept"][opponent])])
            continue
        ordered = sorted(waits)
        low, high = median_interval(ordered)
        p90 = ordered[min(len(ordered) - 1, math.ceil(0.9 * len(ordered)) - 1)]
        out.append([opponent, str(len(ordered)), f"{statistics.median(ordered):.2f} ({low:.2f}-{high:.2f})",
                    f"{p90:.2f}", f"{ordered[-1]:.2f}", str(report["kept"][opponent])])
    return out


def main(argv: list[str] | None = None) -> int:
    """``python -m services.bench.people [--search-games 12] [--people 6] [--fast-games 0] [--seconds 180]
    [--warmup 30] [--seed bench-people]``: play, print the table, 1 if a person's game failed."""
    parser = argparse.ArgumentParser(prog="python -m services.bench.people", description=__doc__.split("\n")[0])
    parser.add_argument("--search-games", type=int, default=12)
    parser.add_argument("--people", type=int, default=6)
    parser.add_argument("--fast-games", type=int, default=0,
                        help="two-seat games of greedy bots only beside them, each replaced as it ends")
    parser.add_argument("--seconds", type=float, default=180.0)
    parser.add_argument("--warmup", type=float, default=30.0)
    parser.add_argument("--seed", default="bench-people")
    args = parser.parse_args(argv)
    report = run(args.search_games, args.people, args.seconds, args.warmup, args.seed, args.fast_games)
    console = Console()
    beside = f" and {args.fast_games} of greedy bots" if args.fast_games else ""
    table = Table(title=f"A person's wait for their turn beside {args.search_games} games of search bots{beside} "
                        f"({args.people} people, {args.seconds:.0f} s after {args.warmup:.0f} s)")
    for column in ("opponent", "turns waited", "median s (95 %)", "p90 s", "max s", "turns kept"):
        table.add_column(column)
    for row in rows(report):
        table.add_row(*row)
    console.print(table)
    per_minute = [60 * m / args.seconds for m in report["search_moves"]]
    console.print(f"search-only games: {sum(per_minute):.1f} moves a minute in all, the slowest "
                  f"{min(per_minute, default=0):.1f}")
    if args.fast_games:
        console.print(f"greedy-only games: {60 * report['fast_moves'] / args.seconds:.1f} moves a minute in all")
    for error in report["errors"]:
        console.print(f"[red]{error}[/red]")
    return 1 if report["errors"] else 0


if __name__ == "__main__":
    sys.exit(main())
