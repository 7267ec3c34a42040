"""Play a tournament of whole games between bots through the gateway.

Seeds (:func:`~services.tournament.seeds.derive_seed`): game ``i`` gets ``derive_seed(seed, i)`` and the bot on seat ``s`` of game ``i``
gets ``derive_seed(seed, i, "seat", s)`` (sha256 of the parts joined by ``:``, first 16
hex digits), so a tournament seed fixes every game and every bot choice.

Each game has one driver loop: read ``GET /games/<id>``; stop if over; wait on
``/wait`` while a phase runs; otherwise let the bot of the first seat in ``to_move`` make its
move, and go on from what the move's answer says comes next (``next``: the same seat with its
legal moves, so one request a move, or the seat to move, whose bot reads its legal moves) until it
says a phase runs or the game is over. Games are independent and may run in parallel threads, each with its own
HTTP session; the result does not depend on the parallelism.
"""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Callable

from services.bots.client import GatewayClient
from services.bots.play import known_decision
from services.bots.players import make_bot

from .jobs import follow
from .models import GameReport, SeatReport, Standing, TournamentReport
from .seeds import derive_seed

DEFAULT_MOVE_CAP = 20_000
"""A failure guard only: no real game should come near it."""


@dataclass
class TournamentConfig:
    """What to play.

    Attributes:
        game: game name (``noggin``).
        players: seats per game.
        games: number of games.
        seed: the tournament seed.
        bots: bot kind per seat (default: ``random`` on every seat).
        move_cap: moves after which a game is abandoned as failed (over HTTP the driver stops
            posting at the cap; on the bus, where the bots play on the server, a game found at
            or past the cap, finished or not, is given up as failed).
        game_timeout: seconds after which a game is abandoned as failed.
        parallel: games played at once.
        options: game options for every game.
        via: ``"bus"``: the bots hold their seats from creation and decide on the worker
            (the driver only waits for the end); ``"http"``: each bot is a client posting
            its moves through the gateway.
    """

    game: str = "noggin"
    players: int = 3
    games: int = 3
    seed: str = "7"
    bots: list[str] = field(default_factory=list)
    move_cap: int = DEFAULT_MOVE_CAP
    game_timeout: float = 900.0
    parallel: int = 4
    options: dict[str, Any] = field(default_factory=dict)
    via: str = "bus"

    def bot_kinds(self) -> list[str]:
        """The bot kind of every seat."""
        kinds = self.bots or ["random"]
        return [kinds[s % len(kinds)] for s in range(self.players)]


ProgressFn = Callable[[int, str, int], None]
"""``progress(index, what, moves)``: ``what`` is ``"move"`` or ``"done"``."""


def play_game(base_url: str, config: TournamentConfig, index: int,
              progress: ProgressFn | None = None, cancel: threading.Event | None = None,
              operator_key: str | None = None) -> GameReport:
    """Play game ``index`` of the tournament to its end and report it.

    Never raises for a game failure: the report says ``ended_by="error"`` (with
    ``error``) or ``"move cap"``. ``cancel`` set: the game is abandoned as an error.
    ``operator_key`` creates the game (``None``: :func:`~services.bots.client.operator_key_from_env`).
    """
    game_seed = derive_seed(config.seed, index)
    seats = [SeatReport(seat=s, bot=kind, seed=derive_seed(config.seed, index, "seat", s))
             for s, kind in enumerate(config.bot_kinds())]
    report = GameReport(index=index, game_id=None, seed=game_seed, seats=seats, ended_by="error", moves=0)
    deadline = time.monotonic() + config.game_timeout
    with GatewayClient(base_url, operator_key=operator_key) as client:
        try:
            bus = config.via == "bus"
            created = client.create_game(config.game, config.players, seed=game_seed, options=config.options,
                                         bots={str(s.seat): {"kind": s.bot, "seed": s.seed} for s in seats}
                                         if bus else None)
            game_id = report.game_id = created["game_id"]
            invited = created.get("invitations") or {}
            tokens = [] if bus else [client.take_seat(game_id, s.seat, invited.get(str(s.seat))) for s in seats]
            bots = [] if bus else [make_bot(s.bot, s.seed) for s in seats]
            known: tuple[int, dict[str, Any] | None] | None = None  # the seat to play next, its moves if known
            while True:
                if known is not None:
                    if report.moves >= config.move_cap or (cancel is not None and cancel.is_set()) \
                            or time.monotonic() > deadline:
                        known = None  # the checks below say why the game stops
                    else:
                        seat, decision = known
                        known = None
                        result = bots[seat].play(client, game_id, tokens[seat], known=decision)
                        if result is not None:
                            report.moves += 1
                            if progress:
                                progress(index, "move", report.moves)
                            known = _next_seat(seat, result)
                        if known is not None:
                            continue
                summary = client.game(game_id)
                if bus:
                    report.moves = summary.get("moves", report.moves)
                if summary["status"] == "over" and not (bus and report.moves > config.move_cap):
                    outcome = summary.get("outcome") or {}
                    report.ended_by = "rules"
                    report.final_scores = list(outcome.get("scores") or [])
                    report.winner = list(outcome.get("winners") or [])
                    report.winning_side = outcome.get("winning_side")
                    report.leader_in_exile = list(outcome.get("leader_in_exile") or [])
                    report.breakdown = list(outcome.get("breakdown") or [])
                    report.reason = outcome.get("reason")
                    report.final_state_hash = summary.get("state_hash")
                    break
                if report.moves >= config.move_cap:
                    # over HTTP the driver stops posting; on the bus the bots play on the server, so
                    # the driver gives the game up (it may go on there) and a game that went past the
                    # cap before the driver looked fails all the same
                    report.ended_by = "move cap"
                    report.error = (f"stopped after {report.moves} moves (move cap)" if not bus else
                                    f"{report.moves} moves by the time the driver looked: the move cap is "
                                    f"{config.move_cap}; the game was given up")
                    break
                if cancel is not None and cancel.is_set():
                    report.error = "cancelled"
                    break
                if time.monotonic() > deadline:
                    report.error = f"game did not end within {config.game_timeout:.0f} s"
                    break
                if bus:
                    waited = client.wait(game_id, after=summary["version"], timeout=5, until_over=True)
                    report.moves = waited.get("moves", report.moves)
                    if progress:
                        progress(index, "move", report.moves)
                    continue
                if summary["status"] == "phase" or not summary["to_move"]:
                    client.wait(game_id, after=summary["version"], timeout=5)
                    continue
                known = (summary["to_move"][0], None)
        except Exception as exc:  # a failed game is reported, the tournament goes on
            report.ended_by = "error"
            report.error = f"{type(exc).__name__}: {exc}"
    if progress:
        progress(index, "done", report.moves)
    return report


def _next_seat(seat: int, result: dict[str, Any]) -> tuple[int, dict[str, Any] | None] | None:
    """Who plays next after ``seat``'s move answered ``result``, from its ``next``: ``seat`` again
    with its legal moves when it keeps the decision, the first seat to move otherwise (its moves
    read by its bot), or ``None`` when the game is in a phase, over, or the answer does not say
    (the driver reads the summary then)."""
    decision = known_decision(result)
    if decision is not None:
        return seat, decision
    nxt = result.get("next") or {}
    if nxt.get("status") == "active" and nxt.get("to_move"):
        return nxt["to_move"][0], None
    return None


def standings(config: TournamentConfig, games: list[GameReport]) -> list[Standing]:
    """Wins and average score per seat over the games that ended by the rules."""
    out = []
    finished = [g for g in games if g.ended_by == "rules"]
    for seat, kind in enumerate(config.bot_kinds()):
        scores = [g.final_scores[seat] for g in finished if seat < len(g.final_scores)]
        out.append(Standing(seat=seat, bot=kind, games=len(finished),
                            wins=sum(1 for g in finished if seat in g.winner),
                            exiled_leads=sum(1 for g in finished if seat in g.leader_in_exile),
                            average_score=round(sum(scores) / len(scores), 3) if scores else 0.0))
    return out


def sides(games: list[GameReport]) -> dict[str, int]:
    """How many games each side took the crown (games that report a side)."""
    out: dict[str, int] = {}
    for g in games:
        if g.ended_by == "rules" and g.winning_side:
            out[g.winning_side] = out.get(g.winning_side, 0) + 1
    return out


def run_tournament(base_url: str, config: TournamentConfig,
                   progress: ProgressFn | None = None, operator_key: str | None = None) -> TournamentReport:
    """Play ``config.games`` games through the gateway at ``base_url``; games in index order.
    ``operator_key`` creates them (``None``: the client's default, from the environment)."""
    cancel = threading.Event()
    pool = ThreadPoolExecutor(max_workers=max(1, min(config.parallel, config.games)),
                              thread_name_prefix="game")
    try:
        futures = [pool.submit(play_game, base_url, config, i, progress, cancel, operator_key)
                   for i in range(config.games)]
        games = [f.result() for f in futures]
    except BaseException:  # Ctrl-C or SIGTERM: let the drivers stop at their next step
        cancel.set()
        pool.shutdown(wait=False, cancel_futures=True)
        raise
    pool.shutdown()
    return TournamentReport(game=config.game, seed=config.seed, players=config.players, games=games,
                            standings=standings(config, games), sides=sides(games),
                            failed=sum(1 for g in games if g.ended_by != "rules"))


def seat_names(config: TournamentConfig) -> list[str]:
    """One participant per seat for a series: the bot's kind, numbered by seat when a kind
    holds several seats (``random@0``, ``greedy``, ``random@2``)."""
    kinds = config.bot_kinds()
    return [k if kinds.count(k) == 1 else f"{k}@{s}" for s, k in enumerate(kinds)]


def run_tournament_job(base_url: str, config: TournamentConfig, progress: ProgressFn | None = None,
                       poll_s: float = 0.5, operator_key: str | None = None) -> TournamentReport:
    """Play ``config`` as a tournament job on the stack (``POST /tournaments``, format
    ``series``: the same game and bot seeds as :func:`run_tournament`, so the same games),
    follow it until it is done, and report it as :func:`run_tournament` does (a game that went
    past ``move_cap`` moves on the server is a failed ``"move cap"``). ``operator_key``
    creates the tournament (``None``: the client's default, from the environment).

    Raises GatewayError if the gateway refuses the tournament.
    """
    names = seat_names(config)
    body = {"games": [config.game], "format": "series", "matches": config.games, "players": config.players,
            "seed": config.seed, "parallel": config.parallel, "options": {config.game: config.options},
            "participants": [{"name": n, "kind": k} for n, k in zip(names, config.bot_kinds())],
            "match_timeout_s": config.game_timeout}
    with GatewayClient(base_url, operator_key=operator_key) as client:
        created = client.create_tournament(body)
        tid = created["tournament_id"]
        seen: set[int] = set()
        for doc in follow(lambda: client.tournament(tid), config.game_timeout * max(1, config.games), poll_s):
            for m in doc["matches"]:
                if m["index"] not in seen:
                    seen.add(m["index"])
                    if progress:
                        progress(m["index"], "done", m["moves"])
    games = []
    by_index = {m["index"]: m for m in doc["matches"]}
    for i in range(config.games):
        seats = [SeatReport(seat=s, bot=kind, seed=derive_seed(config.seed, i, "seat", s))
                 for s, kind in enumerate(config.bot_kinds())]
        m = by_index.get(i)
        if m is None:
            games.append(GameReport(index=i, game_id=None, seed=derive_seed(config.seed, i), seats=seats,
                                    ended_by="error", moves=0, error=f"tournament {tid} did not play it in time"))
            continue
        ok = m["ended_by"] in ("rules", "forfeit")
        capped = ok and m["moves"] > config.move_cap  # the bots played past the cap on the server
        # a failed game has no result (as over HTTP, where a capped game stops before its end)
        outcome = {} if capped else m.get("outcome") or {}
        if capped:
            m = {**m, "scores": [], "winners": [], "state_hash": None}
        games.append(GameReport(
            index=i, game_id=m["game_id"], seed=m.get("seed") or derive_seed(config.seed, i), seats=seats,
            final_scores=list(m["scores"]), winner=list(m["winners"]), winning_side=outcome.get("winning_side"),
            leader_in_exile=list(outcome.get("leader_in_exile") or []), breakdown=list(outcome.get("breakdown") or []),
            reason=outcome.get("reason"), ended_by="move cap" if capped else "rules" if ok else "error",
            moves=m["moves"], final_state_hash=m.get("state_hash"),
            error=f"{m['moves']} moves: past the move cap of {config.move_cap}" if capped else m.get("error")))
    return TournamentReport(game=config.game, seed=config.seed, players=config.players, games=games,
                            standings=standings(config, games), sides=sides(games),
                            failed=sum(1 for g in games if g.ended_by != "rules"))
