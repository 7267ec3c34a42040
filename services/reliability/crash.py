"""The crash harness: seeded games through the whole stack while its processes are killed.

``make crash-test`` (``python -m services.reliability.crash --kills N --games G --seed S``);
issue: reliability, "a crash harness" and acceptance 2. A short run is part of ``make test``
(``tests/stack/test_crash_harness.py``).

1. The stack is started by the launcher's own :class:`~services.launcher.stack.Stack` (free
   loopback ports, its own data directory, Redis append-only with ``appendfsync always``) and
   healed as ``make run`` heals it: :meth:`Stack.heal` in a thread restarts a dead child with
   back-off, Redis on the same data directory.
2. Seeded games (Noggin, A Game of Gnomes, Resource Hog; 2 or 3 seats) are played over HTTP
   by :class:`~services.bots.client.GatewayClient` (it retries reads and moves). A seat's
   move at version ``v`` is a function of its bot's seed, ``v``, the legal moves and the
   seat's player view only (the rule of :mod:`services.bots.decide`), and is posted with a
   move id derived from the game, the seat and ``v``: a retry after a lost answer is the
   same request. Every other game also has a built-in bot seat on the bus (the movers).
3. Meanwhile the killer, from its own seeded generator, picks the kind of process (in
   shuffled rounds of :data:`KINDS`, so every kind is hit) and the moment (after a random
   number of acknowledged moves, then a random delay under half a second), sends SIGKILL,
   and waits until the process is back: the gunicorn arbiter replaces a gateway worker,
   :meth:`Stack.heal` restarts the others. Kills may strike while a game is being created (it
   is stored whole or not at all, and the retry with the same ``Idempotency-Key`` finds it or
   makes it), but are held off while its seats are claimed (a seat claim is sent once: its
   token cannot be asked for again).
4. At the end each game's log is read from Redis and compared with the same seeds and
   moves played embedded (one process, embedded ports, phases inline), entry for entry,
   byte for byte, as ``tests/stack/test_determinism.py`` does.

The counts of the last line:

* **lost**: moves answered 2xx whose version is not a move of that seat in the log, or whose
  move id has no stored result;
* **applied twice**: moves of the HTTP seats in the log beyond those that one move id
  accounts for (a request committed twice);
* **unfinished**: games not ended by their rules.

Besides, every game's log must equal its uncrashed run (printed above the last line) and the
run must make every kill asked for; the exit code is 0 only if all of that holds, 1 if not,
2 if the stack did not start.
"""

from __future__ import annotations

import argparse
import hashlib
import itertools
import json
import os
import random
import signal
import sys
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator

KINDS = ("gateway", "decks", "market", "boards", "scoring", "worker", "mover", "redis")
"""The kinds of process killed: a gunicorn worker of the gateway, each gRPC service, the Celery
worker, one of the bus movers (each its own child) and Redis."""
GAMES = ("noggin", "gnomes", "resource_hog")
"""The games played, in turn."""
RECOVERY_TIMEOUT = 120.0
"""Seconds a killed process has to be serving again before the run is called failed."""


@dataclass(frozen=True)
class GameSpec:
    """One seeded game of the run.

    Attributes:
        index: its number in the run (0, 1, ...).
        game: the game's name (:data:`GAMES`).
        players: seats, 2 or 3.
        seed: the game's seed (to the deck service).
        seats: per seat ``{"kind": "random"|"greedy", "seed": str, "bus": bool}``; a ``bus``
            seat is a built-in bot the movers play, the others post over HTTP.
    """

    index: int
    game: str
    players: int
    seed: str
    seats: tuple[dict[str, Any], ...]

    @property
    def bus(self) -> dict[int, dict[str, str]]:
        """The bus seats as ``POST /games`` takes them: ``{seat: {"kind", "seed"}}``."""
        return {s: {"kind": b["kind"], "seed": b["seed"]} for s, b in enumerate(self.seats) if b["bus"]}

    @property
    def http_seats(self) -> list[int]:
        """Seats whose moves are posted over HTTP."""
        return [s for s, b in enumerate(self.seats) if not b["bus"]]


def plan_game(seed: str, index: int) -> GameSpec:
    """Game ``index`` of the run seeded ``seed``: its game (in turn), seats (2 or 3), bots (random
    or greedy each) and, for odd ``index``, one seat on the bus. A function of its arguments."""
    rng = random.Random(f"{seed}:game:{index}")
    players = rng.choice((2, 3))
    bus_seat = rng.randrange(players) if index % 2 else None
    seats = tuple({"kind": rng.choice(("random", "greedy")), "seed": f"{seed}:{index}:seat:{s}", "bus": s == bus_seat}
                  for s in range(players))
    return GameSpec(index, GAMES[index % len(GAMES)], players, f"crash:{seed}:{index}", seats)


def choose(bot: dict[str, Any], game: str, version: int, moves: list[dict[str, Any]],
           view: dict[str, Any] | None) -> dict[str, Any]:
    """The move of ``bot`` (``{"kind", "seed"}``) at ``version`` among ``moves``, from the seat's
    player ``view``: :func:`services.bots.decide.decide_from_view`, so it depends on nothing
    else. Raises ValueError if there are no moves."""
    from services.bots.decide import decide_from_view
    from services.rules.core import get_rules

    return decide_from_view(bot["kind"], bot["seed"], get_rules(game), view or {}, version, moves)


def move_id(game_id: str, seat: int, version: int) -> str:
    """The move id of ``seat``'s move at ``version``: the same for every retry of that decision."""
    return hashlib.sha256(f"{game_id}:{seat}:{version}".encode()).hexdigest()[:32]


def _json(value: Any) -> Any:
    """``value`` as it comes back from JSON (what an HTTP client sees)."""
    return json.loads(json.dumps(value))


def log_rows(entries: Any) -> list[tuple[int, str, int, str]]:
    """A log as comparable rows ``(version, kind, seat, canonical JSON of the events)``."""
    from services.rules.core import events_to_json

    return [(e.version, e.kind, e.seat, events_to_json(e.events)) for e in entries]


def reference_log(spec: GameSpec, move_cap: int = 20000) -> list[tuple[int, str, int, str]]:
    """The uncrashed run of ``spec``: played embedded (memory store, embedded ports, phases and
    bus bots inline) with the same choices as :class:`Player`. Raises RuntimeError if it does
    not end within ``move_cap`` moves."""
    from services.coordinator.table import embedded_table
    from services.rules.core import GameConfig

    table = embedded_table()
    gid = table.create(GameConfig(game=spec.game, players=spec.players), seed=spec.seed, bots=spec.bus)
    for _ in range(move_cap):
        rules, state, version = table.state(gid)
        if rules.outcome(state) is not None:
            return log_rows(table.store.read(gid))
        to_move = rules.to_move(state)
        if not to_move or any(s in spec.bus for s in to_move):
            raise RuntimeError(f"{spec.game} {spec.index}: embedded game stopped at version {version}")
        seat = to_move[0]
        bot = spec.seats[seat]
        view = _json(rules.view(state, seat)) if bot["kind"] == "greedy" else None
        move = choose(bot, spec.game, version, _json(rules.legal_moves(state, seat)), view)
        table.play(gid, seat, move, version, move_id=move_id(gid, seat, version))
    raise RuntimeError(f"{spec.game} {spec.index}: did not end within {move_cap} moves")


@dataclass
class Played:
    """A game as the harness played it on the stack.

    Attributes:
        spec: what was played.
        game_id: its id (``None`` if it could not be created).
        acks: ``(seat, move id, version)`` of every move answered 2xx.
        over: whether the client saw it end.
        error: why the client gave up, if it did.
    """

    spec: GameSpec
    game_id: str | None = None
    acks: list[tuple[int, str, int]] = field(default_factory=list)
    over: bool = False
    error: str | None = None


class Run:
    """Shared state of one harness run: acknowledged moves, games whose seats are being claimed,
    the game plan."""

    def __init__(self, seed: str, games: int):
        self.seed = seed
        self.games = games
        self.lock = threading.Condition()
        self.acked = 0
        self.setting_up = 0
        self.next_index = 0
        self.kills_done = False
        self.stop = threading.Event()
        self.retried: Counter[str] = Counter()

    def next_game(self) -> GameSpec | None:
        """The next game to play: at least ``games`` of them, and more while kills remain."""
        with self.lock:
            if self.stop.is_set() or (self.next_index >= self.games and self.kills_done):
                return None
            self.next_index += 1
            return plan_game(self.seed, self.next_index - 1)

    def ack(self) -> None:
        """Count one move answered 2xx."""
        with self.lock:
            self.acked += 1
            self.lock.notify_all()

    def setup(self, delta: int) -> None:
        """A game's seat claims start (+1) or end (-1) (kills wait: a claim is sent once)."""
        with self.lock:
            self.setting_up += delta
            self.lock.notify_all()


class Player:
    """Plays one :class:`GameSpec` over HTTP until it ends, riding out crashes.

    Every read and move goes through :class:`GatewayClient` (which retries with back-off);
    what still fails (a long restart) is tried again here with the same move id, until
    ``deadline`` (``time.monotonic()`` seconds). ``operator_key`` creates the games.
    """

    def __init__(self, url: str, run: Run, deadline: float, operator_key: str | None = None):
        self.url = url
        self.run = run
        self.deadline = deadline
        self.operator_key = operator_key

    def play(self, spec: GameSpec) -> Played:
        """Create the game, claim its HTTP seats and play it to its end (or the deadline)."""
        from services.bots.client import GatewayClient

        played = Played(spec)
        with GatewayClient(self.url, timeout=20.0, operator_key=self.operator_key) as client:
            try:  # kills may strike here: a game is stored whole or not at all, and a retry finds it
                created = self._retry(lambda: self._create(client, spec))
            except Exception as exc:  # noqa: BLE001 - reported as the game's failure
                played.error = f"creation: {exc}"
                return played
            played.game_id = created["game_id"]
            invited = created["invitations"]  # a retried creation shows the same ones
            self.run.setup(+1)
            try:
                tokens = {s: self._retry(lambda s=s: client.take_seat(played.game_id, s, invited[str(s)]))
                          for s in spec.http_seats}
            except Exception as exc:  # noqa: BLE001 - reported as the game's failure
                played.error = f"seat claims: {exc}"
                return played
            finally:
                self.run.setup(-1)
            try:
                self._moves(client, spec, played, tokens)
            except Exception as exc:  # noqa: BLE001
                played.error = f"{type(exc).__name__}: {exc}"
        return played

    def _create(self, client: Any, spec: GameSpec) -> dict[str, Any]:
        from services.bots.client import OPERATOR_KEY_HEADER

        body = {"game": spec.game, "players": spec.players, "seed": spec.seed, "options": {},
                "bots": {str(s): b for s, b in spec.bus.items()}}
        headers = {"Idempotency-Key": f"crash:{spec.seed}"}
        if client.operator_key:
            headers[OPERATOR_KEY_HEADER] = client.operator_key
        resp = client.once.post(f"{self.url}/games", json=body, timeout=20.0, headers=headers)
        if resp.status_code != 201:
            failure = _Transient(f"POST /games answered {resp.status_code}: {resp.text[:200]}")
            failure.status = resp.status_code
            raise failure
        return resp.json()

    def _retry(self, call: Callable[[], Any]) -> Any:
        """``call()`` again after a dropped connection or a 5xx, until the deadline."""
        pause = 0.2
        while True:
            try:
                return call()
            except Exception as exc:  # noqa: BLE001
                if not _transient(exc) or time.monotonic() > self.deadline:
                    raise
                with self.run.lock:
                    self.run.retried[_what(exc)] += 1
            self.run.stop.wait(pause)
            pause = min(2.0, pause * 2)

    def _moves(self, client: Any, spec: GameSpec, played: Played, tokens: dict[int, str]) -> None:
        from services.bots.client import Conflict

        gid = played.game_id
        while time.monotonic() < self.deadline and not self.run.stop.is_set():
            status = self._retry(lambda: client.game(gid))
            if status["status"] == "over":
                played.over = True
                return
            version, to_move = status["version"], status["to_move"]
            if status["status"] != "active" or not to_move or any(s in spec.bus for s in to_move):
                self._retry(lambda: client.wait(gid, after=version, timeout=2))  # a phase or a bus bot
                continue
            seat = to_move[0]
            bot = spec.seats[seat]
            legal = self._retry(lambda: client.legal_moves(gid, tokens[seat]))
            if legal["version"] != version or not legal["moves"]:
                continue
            view = None
            if bot["kind"] == "greedy":
                seen = self._retry(lambda: client.view(gid, tokens[seat]))
                if seen["version"] != version:
                    continue
                view = seen["view"]
            move = choose(bot, spec.game, version, legal["moves"], view)
            mid = move_id(gid, seat, version)
            try:
                result = self._retry(lambda: client.move(gid, tokens[seat], move, version, mid))
            except Conflict:
                continue  # the game moved on (our own earlier attempt may have landed): read again
            played.acks.append((seat, mid, result["version"]))
            self.run.ack()
        played.error = played.error or "deadline passed before the game ended"


class _Transient(Exception):
    """A failure worth trying again (a restart in progress); ``status``: the HTTP status, if any."""

    status: int | None = None


def _transient(exc: BaseException) -> bool:
    import requests

    from services.bots.client import GatewayError

    if isinstance(exc, _Transient):
        return exc.status is None or exc.status >= 500
    if isinstance(exc, requests.RequestException):
        return True
    return isinstance(exc, GatewayError) and exc.status >= 500


def _what(exc: BaseException) -> str:
    """A failure's short name for the report: the HTTP status, or the exception's class."""
    status = getattr(exc, "status", None)
    return f"HTTP {status}" if isinstance(status, int) else type(exc).__name__


# -- killing ---------------------------------------------------------------------------

def kind_order(seed: str) -> Iterator[str]:
    """The kinds to kill, in rounds of every kind in a seeded shuffled order."""
    rng = random.Random(f"{seed}:kinds")
    while True:
        round_ = list(KINDS)
        rng.shuffle(round_)
        yield from round_


@dataclass
class Kill:
    """One kill point: the kind, the pid killed, the acknowledged moves when it struck and the
    seconds until the process served again."""

    kind: str
    pid: int
    acked: int
    back_after: float | None = None


class Killer:
    """Kills the stack's processes at seeded moments and waits until each is back.

    Args:
        stack: a started :class:`~services.launcher.stack.Stack`.
        run: the run's shared state (acknowledged moves, seat claims in progress).
        seed: seeds the kinds, the pids among a kind's processes and the moments.
        spacing: a kill strikes after 1 to ``2 * spacing`` more acknowledged moves.
        say: told one line per kill.
    """

    def __init__(self, stack: Any, run: Run, seed: str, spacing: int, say: Callable[[str], None]):
        self.stack = stack
        self.run = run
        self.rng = random.Random(f"{seed}:moments")
        self.kinds = kind_order(seed)
        self.spacing = max(1, spacing)
        self.say = say
        self.kills: list[Kill] = []
        self.restarted: Counter[str] = Counter()
        self.failure: str | None = None

    def gateway_workers(self) -> list[int]:
        """Pids of the gunicorn workers (the children of the gateway's arbiter)."""
        import psutil

        arbiter = self.stack.supervisor.children["gateway"].pid
        return sorted(p.pid for p in psutil.Process(arbiter).children())

    def kill_many(self, count: int) -> None:
        """Make ``count`` kills, one after another; sets :attr:`failure` if one is not survived."""
        try:
            for n in range(count):
                if not self._one(n + 1, count):
                    return
        except Exception as exc:  # noqa: BLE001 - reported as the run's failure
            self.failure = f"the killer failed: {type(exc).__name__}: {exc}"
        finally:
            with self.run.lock:
                self.run.kills_done = True
                self.run.lock.notify_all()

    def _one(self, n: int, count: int) -> bool:
        kind = next(self.kinds)
        wait_for = self.rng.randint(1, 2 * self.spacing)
        delay = self.rng.uniform(0.0, 0.5)
        with self.run.lock:
            target = self.run.acked + wait_for
            if not self.run.lock.wait_for(lambda: self.run.stop.is_set() or (
                    self.run.acked >= target and self.run.setting_up == 0), timeout=RECOVERY_TIMEOUT):
                self.failure = f"no {wait_for} moves acknowledged in {RECOVERY_TIMEOUT:.0f} s before kill {n}"
                return False
        if self.run.stop.is_set() or self.run.stop.wait(delay):
            return False
        deadline = time.monotonic() + RECOVERY_TIMEOUT
        while self.stack.supervisor.dead():  # something died on its own: wait for the heal
            if time.monotonic() > deadline or self.run.stop.wait(0.1):
                self.failure = f"{', '.join(self.stack.supervisor.dead())} not restarted before kill {n}"
                return False
        with self.run.lock:  # a game may have started claiming its seats during the delay
            self.run.lock.wait_for(lambda: self.run.setting_up == 0, timeout=RECOVERY_TIMEOUT)
            name, pid, before = self._strike(kind)
            acked = self.run.acked
        kill = Kill(kind, pid, acked)
        self.kills.append(kill)
        started = time.monotonic()
        if not self._back(kind, name, pid, before):
            self.failure = f"{kind} (pid {pid}) was not serving again within {RECOVERY_TIMEOUT:.0f} s"
            self.say(f"kill {n}/{count}: {kind} (pid {pid}) after {acked} acknowledged moves: NOT BACK")
            return False
        kill.back_after = time.monotonic() - started
        self.say(f"kill {n}/{count}: {kind} (pid {pid}) after {acked} acknowledged moves; "
                 f"serving again after {kill.back_after:.1f} s")
        return True

    def _strike(self, kind: str) -> tuple[str, int, Any]:
        """SIGKILL one process of ``kind`` (one of the gateway's workers, or of the movers, at
        random); returns the child it was of, its pid and what :meth:`_back` compares with."""
        if kind == "gateway":
            workers = self.gateway_workers()
            pid = self.rng.choice(workers)
            os.kill(pid, signal.SIGKILL)
            return kind, pid, set(workers)
        supervisor = self.stack.supervisor
        name = self.rng.choice(sorted(n for n, spec in supervisor.specs.items() if spec.role == kind))
        pid = supervisor.children[name].pid
        os.kill(pid, signal.SIGKILL)
        return name, pid, self.restarted[name]

    def _back(self, kind: str, name: str, pid: int, before: Any) -> bool:
        """Wait until the killed process of ``kind`` (of child ``name``) has been replaced and serves."""
        deadline = time.monotonic() + RECOVERY_TIMEOUT
        probe = self.stack.supervisor.specs[name].probe
        while time.monotonic() < deadline and not self.run.stop.is_set():
            try:
                if kind == "gateway":
                    workers = set(self.gateway_workers())
                    replaced = pid not in workers and bool(workers - before)
                else:
                    replaced = self.restarted[name] > before and self.stack.supervisor.children[name].alive()
                if replaced and probe():
                    return True
            except Exception:  # noqa: BLE001 - not serving yet
                pass
            self.run.stop.wait(0.1)
        return False

    def heal(self, done: threading.Event) -> None:
        """Until ``done`` is set, start again (:meth:`Stack.heal`) every child that died, five
        times a second, counting restarts by name."""
        from services.launcher.supervisor import LaunchError

        while not done.wait(0.2):
            try:
                for name in self.stack.heal():
                    with self.run.lock:
                        self.restarted[name] += 1
            except LaunchError as exc:
                self.failure = str(exc)
                return


# -- checking --------------------------------------------------------------------------

@dataclass
class Verdict:
    """The run's result: kills; per game what was lost, twice, unfinished or diverged; and the
    children that :meth:`Stack.heal` restarted more often than they were killed (name -> extra
    restarts: they died on their own, e.g. of another process's death), less ``upstream``: the
    worker's deaths of a known fault of kombu's after a Redis kill (:func:`kombu_close_deaths`)."""

    kills: int
    lost: int = 0
    twice: int = 0
    unfinished: int = 0
    diverged: int = 0
    games: int = 0
    moves: int = 0
    died_unkilled: dict[str, int] = field(default_factory=dict)
    upstream: dict[str, int] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)

    @property
    def line(self) -> str:
        """The harness's last line."""
        return (f"crash harness: {self.kills} kills, {self.lost} lost, {self.twice} applied twice, "
                f"{self.unfinished} unfinished")


KOMBU_CLOSE_DEATH = ("Unrecoverable error: AttributeError(", "'NoneType' object has no attribute 'hostname'")
"""Both parts are on the line of the Celery worker's log as it exits when kombu (5.7.0), closing
its connection to a broker that went away, asks the connection it has just let go for its host
(the Redis transport's ``Channel.close`` restores unacknowledged messages after emptying its
pools; the shape of celery/kombu#582). It happens now and then when Redis is killed; the launcher
starts the worker again, and what it held is taken up as after a kill of the worker itself."""


def kombu_close_deaths(worker_log: Path) -> int:
    """How many times the worker's log (``worker_log``, absent: none) shows it exiting on
    :data:`KOMBU_CLOSE_DEATH`: deaths a Redis kill caused through kombu, not Longhouse's code,
    counted apart from :attr:`Verdict.died_unkilled`."""
    try:
        lines = worker_log.read_text(errors="replace").splitlines()
    except FileNotFoundError:
        return 0
    return sum(all(part in line for part in KOMBU_CLOSE_DEATH) for line in lines)


def check(played: list[Played], redis_url: str, kills: int) -> Verdict:
    """Compare every played game's log in Redis with its acknowledged moves and its uncrashed run."""
    from services.common.redis_client import connect
    from services.coordinator.redis_store import RedisStore, key

    client = connect(redis_url)
    store = RedisStore(client)
    verdict = Verdict(kills=kills, games=len(played))
    for game in played:
        spec, gid = game.spec, game.game_id
        name = f"{spec.game} #{spec.index}"
        if gid is None:
            verdict.unfinished += 1
            verdict.notes.append(f"{name}: not created ({game.error})")
            continue
        rows = log_rows(store.read(gid))
        by_version = {row[0]: row for row in rows}
        status = client.hget(key(gid, "meta"), "status")
        if status != b"over":
            verdict.unfinished += 1
            verdict.notes.append(f"{name} ({gid}): not over at version {len(rows)} ({game.error})")
        records = {}
        for field_, raw in client.hgetall(key(gid, "moves")).items():
            seat, _, mid = field_.decode().partition(":")
            records[(int(seat), mid)] = json.loads(raw)["result"]["version"]
        for seat, mid, version in game.acks:
            row = by_version.get(version)
            if row is None or row[1] != "move" or row[2] != seat or records.get((seat, mid)) != version:
                verdict.lost += 1
                verdict.notes.append(f"{name} ({gid}): move {mid} of seat {seat} acknowledged at version "
                                     f"{version} is not in the log")
        verdict.moves += len(game.acks)
        http = set(spec.http_seats)
        entries = {row[0] for row in rows if row[1] == "move" and row[2] in http}
        accounted = {v for (seat, _), v in records.items() if v in entries}
        if len(entries) > len(accounted):
            verdict.twice += len(entries) - len(accounted)
            verdict.notes.append(f"{name} ({gid}): {len(entries) - len(accounted)} move(s) without a move id "
                                 f"of their own (versions {sorted(entries - accounted)[:10]})")
        if status == b"over":
            reference = reference_log(spec)
            if rows != reference:
                verdict.diverged += 1
                first = next((i for i, (a, b) in enumerate(zip(rows, reference)) if a != b),
                             min(len(rows), len(reference)))
                verdict.notes.append(f"{name} ({gid}): log differs from its uncrashed run from version "
                                     f"{first + 1} ({len(rows)} entries, uncrashed {len(reference)})")
    return verdict


# -- the whole run -----------------------------------------------------------------------

def run_harness(kills: int, games: int, seed: str, data_dir: Path, parallel: int = 3, spacing: int = 25,
                game_timeout: float = 900.0, say: Callable[[str], None] = print) -> tuple[Verdict, list[Kill]]:
    """Start a stack in ``data_dir``, play at least ``games`` games with ``parallel`` clients while
    making ``kills`` kills, stop the stack and check every game (:func:`check`).

    Returns the verdict and the kills made. Raises LaunchError if the stack does not start.
    """
    from services.common.config import Settings
    from services.launcher.stack import Stack, free_port_settings

    settings = free_port_settings(Settings()).model_copy(update={"redis_appendfsync": "always"})
    stack = Stack(settings, data_dir)
    run = Run(seed, games)
    killer = Killer(stack, run, seed, spacing, say)
    played: list[Played] = []
    started = time.monotonic()
    stack.start()
    say(f"stack ready in {time.monotonic() - started:.1f} s (data and logs in {data_dir})")
    healing = threading.Event()
    healer = threading.Thread(target=killer.heal, args=(healing,), daemon=True, name="heal")
    healer.start()
    try:
        deadline = time.monotonic() + game_timeout
        player = Player(stack.gateway_url, run, deadline, stack.operator_key)

        def worker() -> None:
            while (spec := run.next_game()) is not None:
                played.append(player.play(spec))

        threads = [threading.Thread(target=worker, name=f"player-{k}", daemon=True) for k in range(parallel)]
        for t in threads:
            t.start()
        killer_thread = threading.Thread(target=killer.kill_many, args=(kills,), name="killer", daemon=True)
        killer_thread.start()
        killer_thread.join(max(0.0, deadline - time.monotonic()))
        if killer.failure:
            say(f"stopping: {killer.failure}")
            run.stop.set()
        for t in threads:
            t.join(max(0.0, deadline - time.monotonic()) + 30)
        run.stop.set()
        killer_thread.join(RECOVERY_TIMEOUT)
        verdict = check(sorted(played, key=lambda p: p.spec.index), stack.redis_url, len(killer.kills))
    finally:
        healing.set()
        healer.join(30)
        stack.stop()
    if killer.failure:
        verdict.notes.append(killer.failure)
    by_kind = Counter(k.kind for k in killer.kills)
    restarted = Counter()  # by kind: the movers' restarts are each a mover's
    for name, n in killer.restarted.items():
        restarted[stack.supervisor.specs[name].role] += n
    unkilled = Counter({kind: n - by_kind[kind] for kind, n in restarted.items() if n > by_kind[kind]})
    known = min(unkilled["worker"], kombu_close_deaths(stack.log_dir / "worker.log"))
    if known:
        unkilled["worker"] -= known
        verdict.upstream = {"worker": known}
        say(f"worker deaths of kombu's close after a lost broker (upstream, healed by a restart): {known}")
    verdict.died_unkilled = {name: n for name, n in unkilled.items() if n > 0}
    by_game = Counter(p.spec.game for p in played)
    backs = [k.back_after for k in killer.kills if k.back_after is not None]
    say(f"kills by kind: " + ", ".join(f"{kind} {by_kind[kind]}" for kind in KINDS)
        + (f"; back in {min(backs):.1f}-{max(backs):.1f} s" if backs else ""))
    say("calls the harness tried again after GatewayClient's own retries: "
        + (", ".join(f"{what} {n}" for what, n in sorted(run.retried.items())) or "none"))
    say("restarted without being killed: " + (", ".join(f"{name} {n}" for name, n in sorted(verdict.died_unkilled.items()))
                                               or "none"))
    say(f"{verdict.games} games (" + ", ".join(f"{g} {by_game[g]}" for g in GAMES) + f"), "
        f"{verdict.moves} moves acknowledged over HTTP, "
        f"{verdict.games - verdict.diverged - verdict.unfinished} of {verdict.games} logs equal to their uncrashed run")
    return verdict, killer.kills


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """Command-line options (see ``--help``)."""
    p = argparse.ArgumentParser(prog="python -m services.reliability.crash", description=__doc__.split("\n")[0],
                                formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    p.add_argument("--kills", type=int, default=100, help="kill points, over every kind in turn")
    p.add_argument("--games", type=int, default=12, help="games to play at least (more while kills remain)")
    p.add_argument("--seed", default="1", help="seeds the games, the kinds and the moments")
    p.add_argument("--parallel", type=int, default=3, help="games played at once")
    p.add_argument("--spacing", type=int, default=25, help="a kill strikes after 1 to 2x this many acknowledged moves")
    p.add_argument("--timeout", type=float, default=1800.0, help="seconds for the whole run of games")
    p.add_argument("--data-dir", type=Path, default=None, help="the stack's directory (default var/crash-<time>)")
    return p.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    """Run the harness; exit code 0 if nothing was lost, applied twice, unfinished or diverged and
    every kill was made, 1 if not, 2 if the stack did not start."""
    from services.launcher.supervisor import LaunchError

    args = parse_args(argv)
    data_dir = args.data_dir or Path(os.environ.get("LONGHOUSE_DATA_DIR", "var")) / f"crash-{time.strftime('%Y%m%d-%H%M%S')}"
    data_dir.mkdir(parents=True, exist_ok=True)

    def say(text: str) -> None:
        print(f"{time.strftime('%H:%M:%S')} {text}", flush=True)

    try:
        verdict, kills = run_harness(args.kills, args.games, args.seed, data_dir, args.parallel, args.spacing,
                                     args.timeout, say)
    except LaunchError as exc:
        print(f"the stack did not start: {exc}", flush=True)
        return 2
    for note in verdict.notes:
        print(f"  {note}")
    print(verdict.line, flush=True)
    ok = (verdict.lost == verdict.twice == verdict.unfinished == verdict.diverged == 0
          and verdict.kills == args.kills and len({k.kind for k in kills}) == min(len(KINDS), args.kills))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
