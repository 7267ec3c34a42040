"""``python -m services.launcher``: the main job behind ``make run``.

Starts the whole stack (Redis, the four services, the Celery worker, the gateway) as
separate processes, plays a small tournament between built-in bots through the gateway
with a progress bar, prints the standings, then keeps serving until Ctrl-C (or, with
``--once``, exits: 0 if every game ended by the rules). Every process it started is
stopped on the way out, however it leaves.

Each run gets a fresh data directory ``<LONGHOUSE_DATA_DIR>/run-<timestamp>`` (Redis
data and the logs), so runs never see each other's games; ``--data-dir`` picks one.

The stack's operator key is ``<data dir>/operator.key`` (made when absent,
:meth:`~services.launcher.stack.Stack.ensure_operator_key`); the launcher prints where it is,
never the key, and its own tournament uses it.
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from services.common.config import Settings
from pydantic import ValidationError

from services.common.redis_client import redact

from .stack import Stack
from .supervisor import LaunchError, PortInUse

if TYPE_CHECKING:
    from services.tournament.runner import TournamentConfig


class Terminated(BaseException):
    """Raised in the main thread by SIGTERM or SIGHUP, so the stack is stopped on the way out."""


def _on_signal(signum: int, _frame: object) -> None:
    raise Terminated(signal.Signals(signum).name)


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """The command line (see ``--help``)."""
    p = argparse.ArgumentParser(prog="python -m services.launcher",
                                description="Start the Longhouse stack, play a bot tournament, keep serving.")
    p.add_argument("--once", action="store_true", help="exit after the tournament (non-zero if a game failed)")
    p.add_argument("--games", type=int, default=3, help="games in the tournament (default 3; 0 = none)")
    p.add_argument("--seed", default="7", help="tournament seed (default 7)")
    p.add_argument("--players", type=int, default=3, help="seats per game (default 3)")
    p.add_argument("--game", default="all",
                   help="game to play, or 'all' (default): one tournament of each game that exists, in turn")
    p.add_argument("--report", type=Path, help="write the tournament report (JSON) here")
    p.add_argument("--parallel", type=int, default=3, help="games played at once (default 3)")
    p.add_argument("--bots", default="expert,greedy,random",
                   help="comma-separated bot per seat, repeated round the table (default expert,greedy,random)")
    p.add_argument("--variants", default="", help="comma-separated variants for every game (default none)")
    p.add_argument("--via", choices=("bus", "http"), default="bus",
                   help="bots decide on the worker (bus, default) or post their moves over HTTP")
    p.add_argument("--move-cap", type=int, default=20_000, help="failure guard: abandon a game after this many moves")
    p.add_argument("--data-dir", type=Path,
                   help="this run's directory for Redis data and logs (default <LONGHOUSE_DATA_DIR>/run-<timestamp>)")
    args = p.parse_args(argv)
    if args.games < 0 or args.players < 1:
        p.error("--games must be >= 0 and --players >= 1")
    if args.parallel < 1 or args.move_cap < 1:
        p.error("--parallel and --move-cap must be >= 1")
    if not 1 <= len(args.seed) <= 128:
        p.error("--seed must be 1 to 128 characters")
    if not split(args.bots):
        p.error("--bots: name at least one bot (e.g. expert,greedy,random)")
    if args.report is not None:
        problem = _unwritable(args.report)
        if problem:
            p.error(f"--report: {problem}")
    if args.data_dir is not None and str(args.data_dir) in ("", "."):
        p.error("--data-dir: name the run's directory (an empty one would be the working directory)")
    if args.game == "all" and args.variants:
        p.error("--variants belong to one game: name it with --game")
    problem = check_games(args)
    if problem:
        p.error(problem)
    return args


def _unwritable(path: Path) -> str | None:
    """Why a report cannot be written at ``path`` (a directory, or its place not writable), or
    None. Leaves nothing behind: a file made to try is removed, no directory is made."""
    if path.is_dir():
        return f"{path} is a directory; name the file to write"
    parent = path.parent
    while not parent.exists() and parent != parent.parent:  # the directories write_reports would make
        parent = parent.parent
    if not parent.is_dir():
        return f"{parent} is not a directory"
    if path.exists():
        return None if os.access(path, os.W_OK) else f"{path} is not writable"
    try:
        try_writing_in(parent)
    except OSError as exc:
        return f"cannot write in {parent} ({exc.strerror or exc})"
    return None


def try_writing_in(directory: Path) -> None:
    """Make and remove a file in ``directory``. Raises OSError if nothing can be written there."""
    with tempfile.NamedTemporaryFile(dir=directory, prefix=".longhouse-probe-"):
        pass


def check_games(args: argparse.Namespace) -> str | None:
    """Why the games of ``args`` cannot be played (an unknown game or bot, seats or variants the
    game does not take), before any part of the stack is started; ``None`` when they can."""
    from services.bots.decide import BOT_KINDS
    from services.rules.core import GameConfig
    from services.rules.core.errors import RulesError
    from services.rules.core.game import game_names, get_rules

    if args.game != "all" and args.game not in game_names():
        return f"--game: no game {args.game!r}; the games are all, {', '.join(sorted(game_names()))}"
    unknown = [b for b in split(args.bots) if b not in BOT_KINDS]
    if unknown:
        return f"--bots: no bot {', '.join(map(repr, unknown))}; the bots are {', '.join(BOT_KINDS)}"
    if args.games == 0:
        return None
    for game in games_to_play(args.game):
        try:
            get_rules(game).validate_config(
                GameConfig(game=game, players=args.players, options={v: True for v in split(args.variants)}))
        except RulesError as exc:
            return f"{game}: {exc}"
    return None


def games_to_play(game: str) -> list[str]:
    """The games of this run: ``game``, or every built-in game for ``all``."""
    from services.rules.core.game import builtin_game_names

    return builtin_game_names() if game == "all" else [game]


def write_reports(reports: list, path: Path) -> None:
    """One tournament's report as it is (``TournamentReport`` JSON); several as
    ``{"tournaments": [...], "games": [every game, with its "game"]}``."""
    import json

    if len(reports) == 1:
        data = reports[0].model_dump(mode="json")
    else:
        data = {"tournaments": [r.model_dump(mode="json") for r in reports],
                "games": [{"game": r.game, **g.model_dump(mode="json")} for r in reports for g in r.games]}
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=2) + "\n")


def run_dir(settings: Settings, given: Path | None) -> Path:
    """The run's data directory: ``given``, or a fresh ``<data_dir>/run-<timestamp>``."""
    if given is not None:
        given.mkdir(parents=True, exist_ok=True)
        return given
    base = Path(settings.data_dir)
    stamp = time.strftime("%Y%m%d-%H%M%S")
    for n in range(100):
        path = base / (f"run-{stamp}" if n == 0 else f"run-{stamp}-{n}")
        try:
            path.mkdir(parents=True)
            return path
        except FileExistsError:
            continue
    raise LaunchError(f"cannot make a fresh run directory under {base}")


def shown(path: Path, relative: bool = True) -> str:
    """``path`` relative to the working directory when it lies under it (shorter to read) and
    ``relative``; as it is otherwise (the user named the run's directory by an absolute path)."""
    if not relative:
        return str(path)
    try:
        return str(Path(path).resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


SAMPLE_AGENT_ALLOW = "127.0.0.1:8601,127.0.0.1:8602"
"""``make run``'s agent allow-list when ``LONGHOUSE_AGENT_ALLOW`` is not set: the loopback ports
the sample agents of ``examples/`` listen on by default (HTTP 8601, gRPC 8602), and nothing else."""


def agent_allow_for_run(settings: Settings) -> Settings:
    """``settings`` with ``make run``'s allow-list of agent addresses: ``LONGHOUSE_AGENT_ALLOW`` as
    set (even empty), or :data:`SAMPLE_AGENT_ALLOW` when it is not set at all."""
    if "LONGHOUSE_AGENT_ALLOW" in os.environ:
        return settings
    return settings.model_copy(update={"agent_allow": SAMPLE_AGENT_ALLOW})


def split(text: str) -> list[str]:
    """``"a, b,,c"`` -> ``["a", "b", "c"]``."""
    return [x.strip() for x in text.split(",") if x.strip()]


def tournament_config(args: argparse.Namespace, game: str) -> TournamentConfig:
    """The tournament of ``game`` that the main job plays for its parsed arguments ``args``
    (:func:`parse_args`): seats, games, seed, move cap, parallel games, bots, variants and path."""
    from services.tournament.runner import TournamentConfig

    return TournamentConfig(game=game, players=args.players, games=args.games, seed=str(args.seed),
                            move_cap=args.move_cap, parallel=args.parallel, bots=split(args.bots),
                            options={v: True for v in split(args.variants)}, via=args.via)


def main(argv: list[str] | None = None) -> int:
    """Run the main job; returns the exit code (0 ok, 1 a game failed, 2 the stack failed)."""
    from services.tournament.display import play_with_progress, print_results, report_console

    args = parse_args(argv)
    console = report_console()
    try:
        settings = agent_allow_for_run(Settings())
    except ValidationError as exc:  # a LONGHOUSE_* variable the settings refuse: say which, start nothing
        for problem in exc.errors():
            name = "LONGHOUSE_" + "_".join(str(part) for part in problem["loc"]).upper()
            said = problem["msg"].removeprefix("Value error, ").removeprefix(f"{name}: ")
            console.print(f"[red]bad setting[/red] {name}: {said}", soft_wrap=True, markup=True, highlight=False)
        return 2
    if threading.current_thread() is threading.main_thread():
        # Ctrl-C must stop the stack even when started from a script that ignores SIGINT
        signal.signal(signal.SIGINT, signal.default_int_handler)
        signal.signal(signal.SIGTERM, _on_signal)
        signal.signal(signal.SIGHUP, _on_signal)
    try:
        data_dir = run_dir(settings, args.data_dir)
        try_writing_in(data_dir)  # the run writes its keys, data and logs there
    except OSError as exc:  # the run's directory cannot be made or written there: say so, start nothing
        console.print(f"[red]cannot make or write the run's directory[/red]: {exc}", soft_wrap=True, markup=True,
                      highlight=False)
        return 2
    stack = Stack(settings, data_dir)
    # paths are shown as the user named the run's directory: relative, or absolute as given
    relative = not Path(args.data_dir if args.data_dir is not None else settings.data_dir).is_absolute()
    code = 0
    healing = threading.Event()
    gave_up: list[LaunchError] = []  # the tournament's healing gave up a child: the stack fails
    try:
        console.print(f"[bold]Longhouse[/bold]: starting the stack (data and logs in {shown(data_dir, relative)})", soft_wrap=True)
        started = time.monotonic()
        stack.start()
        console.print(f"stack ready in {time.monotonic() - started:.1f} s: " + ", ".join(
            f"{name} (pid {pid})" for name, pid in stack.pids().items()), soft_wrap=True)
        console.print(f"operator key in {shown(stack.operator_key_path, relative)} (send it as X-Longhouse-Operator-Key "
                      "to create games and tournaments and to register agents)", soft_wrap=True)
        healer = threading.Thread(target=heal_while, args=(stack, console, healing, gave_up), daemon=True, name="heal")
        healer.start()  # a child that dies during the tournament is started again too
        if args.games:
            reports = []
            for game in games_to_play(args.game):
                console.print(f"\n[bold]{game}[/bold]: {args.games} games of {args.players} seats", soft_wrap=True)
                config = tournament_config(args, game)
                report = play_with_progress(stack.gateway_url, config, console, operator_key=stack.operator_key)
                print_results(report, console)
                reports.append(report)
                if report.failed:
                    code = 1
            if args.report is not None:
                write_reports(reports, args.report)
                console.print(f"report written to {args.report}")
        healing.set()
        healer.join(timeout=30)
        if not args.once:
            console.print(f"\n[bold green]Serving[/bold green] at {stack.gateway_url}  (Redis at {redact(stack.redis_url)}, "
                          f"logs in {shown(stack.log_dir, relative)}); press Ctrl-C to stop.", soft_wrap=True)
            console.print(f"Agents may be registered and called at {stack.settings.agent_allow or 'no address'} "
                          "(LONGHOUSE_AGENT_ALLOW).", soft_wrap=True)
            serve(stack, console)
    except PortInUse as exc:
        console.print(f"[red]cannot start[/red]: {exc}")
        if args.data_dir is None:  # nothing started: the fresh run directory holds nothing
            shutil.rmtree(data_dir, ignore_errors=True)
        code = 2
    except LaunchError as exc:
        console.print(f"[red]the stack failed[/red]: {exc}")
        code = 2
    except KeyboardInterrupt:
        console.print("\ninterrupted")
        code = 130 if args.once else 0
    except Terminated as exc:
        if gave_up:  # sent by heal_while: a child died too often during the tournament
            console.print(f"[red]the stack failed[/red]: {gave_up[0]}")
            code = 2
        else:
            console.print(f"\nstopping on {exc}")
            code = 143 if args.once else 0
    finally:
        healing.set()  # no restarts while the stack stops
        if threading.current_thread() is threading.main_thread():
            # a second Ctrl-C or SIGTERM must not cut the stop short
            signal.signal(signal.SIGINT, signal.SIG_IGN)
            signal.signal(signal.SIGTERM, signal.SIG_IGN)
        codes = stack.stop()
        if codes:
            console.print("stopped: " + ", ".join(f"{name} ({code_})" for name, code_ in codes.items()), soft_wrap=True)
    return code


def teller(console: Any) -> Any:
    """``say(text)``: one time-stamped line on ``console`` (nothing without one)."""
    def say(text: str) -> None:
        if console is not None:
            console.print(f"[yellow]{time.strftime('%H:%M:%S')}[/yellow] {text}", soft_wrap=True)
    return say


def heal_while(stack: Stack, console: Any, done: threading.Event, gave_up: list | None = None) -> None:
    """Until ``done`` is set, once a second start again any child that died (:meth:`Stack.heal`),
    saying so. A child that keeps dying stops the stack as it does while serving: the error goes
    into ``gave_up`` and the main thread gets SIGTERM (its handler raises :class:`Terminated`,
    which then ends the run with the error, exit code 2). Before, it was only reported, and the
    tournament went on with nothing restarted any more (a trial)."""
    say = teller(console)
    while not done.wait(1.0):
        try:
            stack.heal(say)
        except LaunchError as exc:
            say(f"[red]{exc}")
            if gave_up is not None:
                gave_up.append(exc)
                if signal.getsignal(signal.SIGTERM) is _on_signal:  # the launcher's own handler is set
                    # to the main thread itself, so that a wait it is blocked in is interrupted too
                    signal.pthread_kill(threading.main_thread().ident, signal.SIGTERM)
            return


def serve(stack: Stack, console: Any = None) -> None:
    """Block until Ctrl-C or SIGTERM, starting again (with back-off) any child that dies
    meanwhile and saying so (:meth:`Stack.heal`); raise LaunchError if one keeps dying."""
    idle = threading.Event()  # never set: waits are interrupted by the signal handlers
    say = teller(console)
    while True:
        stack.heal(say)
        idle.wait(1.0)


if __name__ == "__main__":
    sys.exit(main())
