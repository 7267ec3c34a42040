"""The load test: many games at once through the gateway, and the lock-out figure.

``make load-test`` (``python -m services.reliability.load --games 64 --minutes 10 --seed S``);
issue: reliability, "Load" and acceptance 1 and 5. Figures: docs/reliability.md, "Lock-out"
and "Load". A short run is part of ``make test`` (``tests/stack/test_load_short.py``).

The tool starts the whole stack itself with the launcher's :class:`~services.launcher.stack.Stack`
(free loopback ports, its own data directory), then runs two steps on it:

1. **Lock-out** (:func:`run_lockout`, skipped with ``--no-lockout``): hold 1,000 SSE streams
   (``GET /games/<id>/stream``) and 200 ``/wait`` long-polls (``timeout=30``, opened again as
   each times out) on raw loopback sockets, then time ``GET /healthz`` and a move (``POST
   /games/<id>/moves``) 50 times each. A tenth of the streams watch the game being moved, so
   every move is also sent to 100 streams; the polls wait on games nobody moves. Each answer
   must come within :data:`LOCKOUT_LIMIT_MS` (100 ms), the issue's acceptance 1.
2. **Load** (:func:`play_load`): ``--games`` games at once for ``--minutes``, each played over
   HTTP by client-side seeded :class:`~services.bots.random_bot.RandomBot` seats through a
   :class:`TimedClient` (a :class:`~services.bots.client.GatewayClient` that times every call
   and retries nothing, so every fault shows); Noggin, A Game of Gnomes and Resource Hog in
   turn, 2-4 seats, half the games with one seat a built-in bot on the bus (the movers play
   it; phases run on the Celery worker). A game that ends is followed by a new one. Beside
   them: SSE spectators (each reads a game's whole stream and checks its versions come one
   after another), ``/wait`` pollers and a ``/healthz`` prober.

**Errors** are every answer that is not 2xx, except a 409 (a stale version: the bot reads
again; counted apart as conflicts), every exception of a client (dropped connection, timeout),
a gap in an SSE stream, and a child of the stack that died. The summary gives their count by
kind, the throughput (moves/s, games finished) and the latency percentiles (p50/p90/p99/max,
milliseconds, measured by the client) of moves, views, legal moves, summaries, ``/wait`` and
``/healthz``. The exit code is 0 with no error (and the lock-out within its limit), 1
otherwise, 2 if the stack did not start. Games are created with the stack's operator key
(:attr:`~services.launcher.stack.Stack.operator_key`).
"""

from __future__ import annotations

import argparse
import os
import random
import selectors
import socket
import sys
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator
from urllib.parse import urlsplit

import numpy as np
import requests
from requests.adapters import HTTPAdapter

from services.bots.client import Conflict, GatewayClient, GatewayError
from services.bots.random_bot import RandomBot

GAMES = ("noggin", "gnomes", "resource_hog")
"""The games played, in turn."""
MOVE_CAP = 20000
"""Most reads and moves one game of the load gets (a safety bound; real games end far sooner)."""
LOCKOUT_LIMIT_MS = 100.0
"""What every ``/healthz`` and move answer may take while the streams and polls are held
(the issue's acceptance 1)."""
WARM_UP = 10
"""Rounds of ``/healthz`` and a move played before the lock-out's timing starts: the first calls
of a fresh stack import code and fill caches in every process (the baseline's worst moves were
its first ones)."""
PERCENTILES = (50, 90, 99)
"""The percentiles of the summary (plus the maximum)."""
STREAM_IDLE_S = 5.0
"""A spectator's stream ends after this many seconds without an entry (``?idle_timeout=``)."""
REQUEST_TIMEOUT_S = 30.0
"""Seconds any one request of the load may take before it counts as an error (a ``/wait``
adds its own wait)."""


# -- measuring ---------------------------------------------------------------------------

class Meter:
    """Latencies and errors of a run, shared by every client thread.

    Attributes:
        latencies: call kind (``"move"``, ``"view"``, ``"wait"``, ``"healthz"`` ...) -> the
            milliseconds of each answered call (2xx, and 409 for moves).
        errors: error kind (e.g. ``"503 unavailable on move"``) -> count.
        examples: the first :attr:`keep` errors' texts.
        conflicts: 409 answers (expected: the bot reads again).
        moves: moves answered 2xx; ``finished``: games seen to end; ``started``: games
            created; ``stream_entries``: SSE entries the spectators read.
    """

    keep = 20

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.latencies: dict[str, list[float]] = {}
        self.errors: Counter[str] = Counter()
        self.examples: list[str] = []
        self.conflicts = 0
        self.moves = 0
        self.finished = 0
        self.started = 0
        self.stream_entries = 0

    def record(self, kind: str, ms: float) -> None:
        """One answered call of ``kind`` that took ``ms`` milliseconds."""
        with self.lock:
            self.latencies.setdefault(kind, []).append(ms)

    def error(self, kind: str, text: str) -> None:
        """One error of ``kind`` (its text kept among the first :attr:`keep`)."""
        with self.lock:
            self.errors[kind] += 1
            if len(self.examples) < self.keep:
                self.examples.append(f"{kind}: {text[:300]}")

    def count(self, name: str, n: int = 1) -> None:
        """Add ``n`` to the counter attribute ``name`` (``moves``, ``finished``, ``conflicts`` ...)."""
        with self.lock:
            setattr(self, name, getattr(self, name) + n)

    def stats(self, kind: str) -> dict[str, float]:
        """``{"count", "p50", "p90", "p99", "max"}`` (milliseconds) of ``kind``'s latencies
        (numpy's linear-interpolation percentiles); NaN for a kind never measured."""
        with self.lock:
            values = np.array(self.latencies.get(kind, ()), dtype=float)
        if values.size == 0:
            return {"count": 0, **{f"p{p}": float("nan") for p in PERCENTILES}, "max": float("nan")}
        cuts = np.percentile(values, PERCENTILES)
        return {"count": int(values.size), **{f"p{p}": float(c) for p, c in zip(PERCENTILES, cuts)},
                "max": float(values.max())}

    @property
    def error_count(self) -> int:
        """All errors so far."""
        with self.lock:
            return sum(self.errors.values())


def error_kind(exc: BaseException, call: str) -> str:
    """A short name of a failed call: ``"<status> <error> on <call>"`` for an HTTP answer,
    ``"<ExceptionClass> on <call>"`` otherwise."""
    if isinstance(exc, GatewayError):
        return f"{exc.status} {exc.error} on {call}"
    return f"{type(exc).__name__} on {call}"


class TimedClient(GatewayClient):
    """A :class:`GatewayClient` that times each call into a :class:`Meter` and retries nothing.

    The bots' client retries a dropped connection or a 502/503/504 (issue: reliability, fault
    6); under load that would hide the very faults the test looks for, so both sessions here
    send each request once. A call that fails is counted in the meter and raised again; a 409
    is counted as a conflict, timed, and raised again as :class:`Conflict`.
    """

    def __init__(self, base_url: str, meter: Meter, timeout: float = REQUEST_TIMEOUT_S,
                 operator_key: str | None = None):
        super().__init__(base_url, timeout, operator_key=operator_key)
        for session in (self.session, self.once):
            session.mount("http://", HTTPAdapter(max_retries=0))
        self.meter = meter

    def timed(self, kind: str, call: Callable[[], Any]) -> Any:
        """``call()``, its duration recorded under ``kind``; failures counted (and raised)."""
        started = time.perf_counter()
        try:
            result = call()
        except Conflict:
            self.meter.record(kind, (time.perf_counter() - started) * 1000)
            self.meter.count("conflicts")
            raise
        except Exception as exc:
            self.meter.error(error_kind(exc, kind), str(exc))
            raise
        self.meter.record(kind, (time.perf_counter() - started) * 1000)
        return result

    def create_game(self, *args: Any, **kwargs: Any) -> dict[str, Any]:
        return self.timed("create", lambda: super(TimedClient, self).create_game(*args, **kwargs))

    def take_seat(self, game_id: str, seat: int, invitation: str | None = None) -> str:
        return self.timed("seat", lambda: super(TimedClient, self).take_seat(game_id, seat, invitation))

    def game(self, game_id: str) -> dict[str, Any]:
        return self.timed("summary", lambda: super(TimedClient, self).game(game_id))

    def view(self, game_id: str, token: str | None = None) -> dict[str, Any]:
        return self.timed("view", lambda: super(TimedClient, self).view(game_id, token))

    def legal_moves(self, game_id: str, token: str) -> dict[str, Any]:
        return self.timed("legal-moves", lambda: super(TimedClient, self).legal_moves(game_id, token))

    def move(self, *args: Any, **kwargs: Any) -> dict[str, Any]:
        return self.timed("move", lambda: super(TimedClient, self).move(*args, **kwargs))

    def wait(self, *args: Any, **kwargs: Any) -> dict[str, Any]:
        return self.timed("wait", lambda: super(TimedClient, self).wait(*args, **kwargs))

    def healthz(self) -> None:
        """``GET /healthz``, timed; anything but 200 is an error."""
        def call() -> None:
            resp = self.session.get(self.base_url + "/healthz", timeout=self.timeout)
            if resp.status_code != 200:
                raise GatewayError(resp.status_code, f"http_{resp.status_code}", resp.text[:200])

        self.timed("healthz", call)


# -- the load ------------------------------------------------------------------------------

@dataclass(frozen=True)
class LoadGame:
    """One seeded game of the load.

    Attributes:
        index: its number in the run.
        game: the game (:data:`GAMES`, in turn).
        players: seats, 2 to 4.
        seed: the game's seed.
        bus: seat -> ``{"kind", "seed"}`` of the built-in bot the movers play (half the games
            have one); every other seat is a client-side :class:`RandomBot`.
    """

    index: int
    game: str
    players: int
    seed: str
    bus: dict[int, dict[str, str]]

    @property
    def http_seats(self) -> list[int]:
        """Seats the client plays over HTTP."""
        return [s for s in range(self.players) if s not in self.bus]


def plan_game(seed: str, index: int) -> LoadGame:
    """Game ``index`` of the load seeded ``seed`` (a function of its arguments): the game in
    turn, 2-4 seats, and for odd ``index`` one seat on the bus (random or greedy)."""
    rng = random.Random(f"{seed}:load:{index}")
    players = rng.choice((2, 3, 4))
    bus = {}
    if index % 2:
        bus[rng.randrange(players)] = {"kind": rng.choice(("random", "greedy")), "seed": f"{seed}:{index}:bus"}
    return LoadGame(index, GAMES[index % len(GAMES)], players, f"load:{seed}:{index}", bus)


class Games:
    """The games in play, for spectators and pollers to pick from: game id -> last version seen."""

    def __init__(self, seed: str):
        self.lock = threading.Lock()
        self.versions: dict[str, int] = {}
        self.rng = random.Random(f"{seed}:pick")

    def seen(self, game_id: str, version: int | None) -> None:
        """The game is in play at ``version`` (``None``: it ended, forget it)."""
        with self.lock:
            if version is None:
                self.versions.pop(game_id, None)
            else:
                self.versions[game_id] = version

    def pick(self) -> tuple[str, int] | None:
        """A game in play and its last version seen, or ``None`` if there is none."""
        with self.lock:
            if not self.versions:
                return None
            game_id = self.rng.choice(sorted(self.versions))
            return game_id, self.versions[game_id]


class Load:
    """One load run on a serving stack: its clients' loops, bounded by ``stop`` and a deadline.

    Args:
        url: the gateway, ``http://127.0.0.1:<port>``.
        seed: seeds the games, their bots and the spectators' picks.
        meter: where latencies and errors go.
        stop: set when the run is over; every loop ends at its next step.
        operator_key: creates the games (``None``: the client's default, from the environment).
    """

    def __init__(self, url: str, seed: str, meter: Meter, stop: threading.Event,
                 operator_key: str | None = None):
        self.url = url
        self.operator_key = operator_key
        self.seed = seed
        self.meter = meter
        self.stop = stop
        self.games = Games(seed)
        self._next = 0
        self._lock = threading.Lock()

    def next_index(self) -> int:
        """The number of the next game to start."""
        with self._lock:
            self._next += 1
            return self._next - 1

    def player(self) -> None:
        """One table of the load: play games one after another until :attr:`stop`."""
        with TimedClient(self.url, self.meter, operator_key=self.operator_key) as client:
            while not self.stop.is_set():
                self.play(client, plan_game(self.seed, self.next_index()))

    def play(self, client: TimedClient, spec: LoadGame) -> None:
        """Create ``spec``'s game, claim its HTTP seats and play it until it ends or the run
        stops. Errors are counted (by the client) and the game read again; a game with 20
        errors in a row is given up."""
        try:
            created = client.create_game(spec.game, spec.players, seed=spec.seed,
                                         bots={str(s): b for s, b in spec.bus.items()})
            game_id = created["game_id"]
            tokens = {s: client.take_seat(game_id, s, created["invitations"][str(s)]) for s in spec.http_seats}
        except Exception:  # noqa: BLE001 - counted by the client
            return
        self.meter.count("started")
        bots = {s: RandomBot(f"{spec.seed}:seat:{s}") for s in tokens}
        failures = 0
        for _ in range(MOVE_CAP):
            if self.stop.is_set() or failures >= 20:
                break
            try:
                status = client.game(game_id)
                if status["status"] == "over":
                    self.meter.count("finished")
                    break
                self.games.seen(game_id, status["version"])
                mine = [s for s in status["to_move"] if s in tokens]
                if status["status"] != "active" or not mine:
                    client.wait(game_id, after=status["version"], timeout=5)  # a phase or the bus bot
                    failures = 0
                    continue
                for seat in mine:
                    client.view(game_id, tokens[seat])  # what a player's screen reads each turn
                    try:
                        if bots[seat].play(client, game_id, tokens[seat]) is not None:
                            self.meter.count("moves")
                    except Conflict:
                        pass  # still stale after the bot's reads: read the game again
                failures = 0
            except Exception:  # noqa: BLE001 - counted by the client
                failures += 1
        self.games.seen(game_id, None)

    def spectator(self) -> None:
        """Until :attr:`stop`: read a game in play's whole SSE stream (from its first entry, ending
        after :data:`STREAM_IDLE_S` idle seconds); versions must come one after another."""
        with requests.Session() as session:
            while not self.stop.is_set():
                picked = self.games.pick()
                if picked is None:
                    self.stop.wait(0.2)
                    continue
                self.watch(session, picked[0])

    def watch(self, session: requests.Session, game_id: str) -> int:
        """One spectator's stream of ``game_id``; returns the entries read (an error is counted)."""
        url = f"{self.url}/games/{game_id}/stream?idle_timeout={STREAM_IDLE_S}&max_events={MOVE_CAP}"
        started = time.perf_counter()
        expected, read = 1, 0
        try:
            with session.get(url, stream=True, timeout=(5, REQUEST_TIMEOUT_S)) as resp:
                if resp.status_code != 200:
                    raise GatewayError(resp.status_code, f"http_{resp.status_code}", resp.text[:200])
                self.meter.record("stream-open", (time.perf_counter() - started) * 1000)
                for line in resp.iter_lines():
                    if self.stop.is_set():
                        break
                    if line.startswith(b"id: "):
                        version = int(line[4:].rpartition(b":")[2].split(b"-")[0])  # <game_id>:<version>-0
                        if version != expected:
                            self.meter.error("gap in an SSE stream", f"{game_id}: {version} after {expected - 1}")
                        expected = version + 1
                        read += 1
        except Exception as exc:  # noqa: BLE001
            self.meter.error(error_kind(exc, "stream"), str(exc))
        if read:
            self.meter.count("stream_entries", read)
        return read

    def poller(self) -> None:
        """Until :attr:`stop`: long-poll a game in play past its last version seen (5 s at most)."""
        with TimedClient(self.url, self.meter) as client:
            while not self.stop.is_set():
                picked = self.games.pick()
                if picked is None:
                    self.stop.wait(0.2)
                    continue
                try:
                    client.wait(picked[0], after=picked[1], timeout=5)
                except Exception:  # noqa: BLE001 - counted by the client
                    self.stop.wait(0.2)

    def prober(self, period: float = 0.25) -> None:
        """Until :attr:`stop`: ``GET /healthz`` every ``period`` seconds."""
        with TimedClient(self.url, self.meter) as client:
            while not self.stop.wait(period):
                try:
                    client.healthz()
                except Exception:  # noqa: BLE001 - counted by the client
                    pass


@dataclass
class LoadReport:
    """What :func:`play_load` measured.

    Attributes:
        games: tables played at once; ``seconds``: the run's length.
        meter: every latency and error.
        moves_per_s: moves answered 2xx per second of the run.
    """

    games: int
    seconds: float
    meter: Meter
    moves_per_s: float = 0.0
    stuck_threads: int = 0
    notes: list[str] = field(default_factory=list)


def play_load(url: str, games: int, seconds: float, seed: str, spectators: int = 4, pollers: int = 4,
              tick: Callable[[float, Meter], None] | None = None, operator_key: str | None = None) -> LoadReport:
    """Play ``games`` games at once through the gateway at ``url`` for ``seconds``, with
    ``spectators`` SSE readers, ``pollers`` ``/wait`` pollers and a ``/healthz`` prober beside;
    ``operator_key`` creates the games.

    ``tick(elapsed_s, meter)`` is called about once a second (a progress display). After the
    time is up every loop stops at its next step; threads still running 60 s later count as
    errors ("stuck thread"). Returns the :class:`LoadReport`.
    """
    meter = Meter()
    stop = threading.Event()
    load = Load(url, seed, meter, stop, operator_key)
    jobs = ([(load.player, f"table-{k}") for k in range(games)]
            + [(load.spectator, f"spectator-{k}") for k in range(spectators)]
            + [(load.poller, f"poller-{k}") for k in range(pollers)] + [(load.prober, "healthz")])
    threads = [threading.Thread(target=target, name=name, daemon=True) for target, name in jobs]
    started = time.monotonic()
    for t in threads:
        t.start()
    deadline = started + seconds
    while (left := deadline - time.monotonic()) > 0:
        stop.wait(min(1.0, left))
        if tick:
            tick(time.monotonic() - started, meter)
    elapsed = time.monotonic() - started
    stop.set()
    join_by = time.monotonic() + 60
    for t in threads:
        t.join(max(0.0, join_by - time.monotonic()))
    report = LoadReport(games, elapsed, meter, moves_per_s=meter.moves / elapsed)
    stuck = [t.name for t in threads if t.is_alive()]
    if stuck:
        meter.error("stuck thread", ", ".join(stuck))
        report.stuck_threads = len(stuck)
    report.notes.append(f"SSE entries read by spectators: {meter.stream_entries}")
    return report


# -- the lock-out figure -------------------------------------------------------------------

class Held:
    """One raw HTTP/1.1 GET held open on its own socket (an SSE stream or a ``/wait``).

    Args:
        netloc: ``host:port`` of the gateway.
        path: path and query.
    """

    def __init__(self, netloc: str, path: str, kind: str):
        host, port = netloc.rsplit(":", 1)
        self.netloc, self.path, self.kind = netloc, path, kind
        self.sock = socket.create_connection((host, int(port)), timeout=10)
        self.sock.sendall(f"GET {path} HTTP/1.1\r\nHost: {netloc}\r\nAccept: text/event-stream\r\n\r\n".encode())
        self.sock.setblocking(False)
        self.opened = time.monotonic()
        self.received = b""

    def close(self) -> None:
        self.sock.close()


class Holder:
    """Holds ``streams`` SSE streams and ``polls`` ``/wait`` polls open, in one thread.

    Streams' keep-alives and entries are read and dropped; a poll that answers (its 30 s are
    up) is opened again at once, so :attr:`polls_open` stays at the count asked for. A stream
    that closes is counted in :attr:`dropped` (an error: the gateway must hold them).
    """

    def __init__(self, url: str):
        self.netloc = urlsplit(url).netloc
        self.selector = selectors.DefaultSelector()
        self.lock = threading.Lock()
        self.streams: list[Held] = []
        self.polls: list[Held] = []
        self.dropped = 0
        self.poll_answers: Counter[str] = Counter()
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._serve, name="holder", daemon=True)

    def open_streams(self, paths: list[str], deadline_s: float = 120.0, batch: int = 100) -> float:
        """Open one stream per path, ``batch`` at a time, each confirmed by its first bytes
        (``retry: 2000``); returns the seconds it took. Raises AssertionError at the deadline."""
        started = time.monotonic()
        deadline = started + deadline_s
        for at in range(0, len(paths), batch):
            pending = {}
            for path in paths[at:at + batch]:
                held = Held(self.netloc, path, "stream")
                pending[held.sock] = held
            waiting = selectors.DefaultSelector()
            for sock in pending:
                waiting.register(sock, selectors.EVENT_READ)
            while pending:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"{len(pending)} streams not served within {deadline_s} s")
                for sel_key, _ in waiting.select(min(left, 1.0)):
                    held = pending[sel_key.fileobj]
                    chunk = held.sock.recv(65536)
                    if not chunk:
                        raise AssertionError(f"a stream closed before it was served: {held.received[:200]!r}")
                    held.received += chunk
                    if b"retry: 2000" in held.received:
                        if not held.received.startswith(b"HTTP/1.1 200"):
                            raise AssertionError(f"stream refused: {held.received[:200]!r}")
                        waiting.unregister(held.sock)
                        del pending[held.sock]
                        self._add(held, self.streams)
            waiting.close()
        return time.monotonic() - started

    def open_polls(self, paths: list[str]) -> None:
        """Open one ``/wait`` per path (held until it answers, then opened again)."""
        for path in paths:
            self._add(Held(self.netloc, path, "poll"), self.polls)

    @property
    def polls_open(self) -> int:
        """Polls open now (sent and not yet answered)."""
        with self.lock:
            return len(self.polls)

    @property
    def streams_open(self) -> int:
        """Streams open now."""
        with self.lock:
            return len(self.streams)

    def _add(self, held: Held, into: list[Held]) -> None:
        with self.lock:
            into.append(held)
            self.selector.register(held.sock, selectors.EVENT_READ, held)

    def start(self) -> None:
        """Start reading (and re-opening polls) in the background."""
        self.thread.start()

    def _serve(self) -> None:
        while not self.stop.is_set():
            with self.lock:
                have = bool(self.selector.get_map())
            if not have:
                self.stop.wait(0.1)
                continue
            for sel_key, _ in self.selector.select(0.2):
                held: Held = sel_key.data
                try:
                    chunk = held.sock.recv(65536)
                except BlockingIOError:
                    continue
                except OSError:
                    chunk = b""
                held.received = (held.received + chunk)[-4096:]
                if held.kind == "stream":
                    if not chunk:
                        self._drop(held, self.streams)
                        self.dropped += 1
                    continue
                if not chunk or b"\r\n\r\n" in held.received:
                    head = held.received.split(b"\r\n", 1)[0].decode(errors="replace")
                    self.poll_answers[head if chunk else "closed"] += 1
                    self._drop(held, self.polls)
                    if not self.stop.is_set():
                        self.open_polls([held.path])

    def _drop(self, held: Held, out_of: list[Held]) -> None:
        with self.lock:
            self.selector.unregister(held.sock)
            out_of.remove(held)
        held.close()

    def close(self) -> None:
        """Stop the thread and close every socket."""
        self.stop.set()
        if self.thread.is_alive():
            self.thread.join(10)
        with self.lock:
            for held in self.streams + self.polls:
                held.close()
            self.streams.clear()
            self.polls.clear()
            self.selector.close()


@dataclass
class LockoutReport:
    """What :func:`run_lockout` measured.

    Attributes:
        streams, polls: held open during the samples (the fewest seen open at any sample).
        opened_s: seconds to open and confirm every stream.
        healthz, move: ``{"count", "p50", "p90", "p99", "max"}`` in milliseconds.
        limit_ms: the limit every answer had to meet.
        baseline_healthz, baseline_move: the same, timed just before with nothing held (what
            the machine gives at that moment; a lock-out shows as the held figures far above).
        redis_clients: Redis's ``connected_clients`` while everything was held (``None``
            without a Redis URL); idle pooled connections count too.
        redis_blocked: Redis's ``blocked_clients`` then: the connections the held requests
            hold (one a poll, one a watched game's feed; ``None`` without a Redis URL).
        errors: what went wrong (dropped streams, failed calls).
    """

    streams: int
    polls: int
    opened_s: float
    healthz: dict[str, float]
    move: dict[str, float]
    limit_ms: float
    baseline_healthz: dict[str, float] = field(default_factory=dict)
    baseline_move: dict[str, float] = field(default_factory=dict)
    redis_clients: int | None = None
    errors: list[str] = field(default_factory=list)
    redis_blocked: int | None = None

    @property
    def met(self) -> bool:
        """Every sample of both within the limit, all held open, nothing failed."""
        return (not self.errors and self.healthz["count"] > 0 and self.move["count"] > 0
                and self.healthz["max"] < self.limit_ms and self.move["max"] < self.limit_ms)


class Sampler:
    """Times ``GET /healthz`` and moves of a 2-seat Noggin game both of whose seats it holds.

    Args:
        url: the gateway.
        seed: seeds the game and the moves.
        operator_key: creates the games (``None``: the client's default, from the environment).
    """

    def __init__(self, url: str, seed: str, operator_key: str | None = None):
        self.url = url
        self.seed = seed
        self.operator_key = operator_key
        self.rng = random.Random(f"{seed}:lockout")
        self.games = 0
        self.game_id = ""
        self.tokens: dict[int, str] = {}

    def new_game(self, client: TimedClient) -> str:
        """Start the next game to move in; returns its id."""
        self.games += 1
        created = client.create_game("noggin", 2, seed=f"lockout:{self.seed}:moved:{self.games}")
        self.game_id = created["game_id"]
        self.tokens = {s: client.take_seat(self.game_id, s, created["invitations"][str(s)]) for s in range(2)}
        return self.game_id

    def sample(self, samples: int, between: Callable[[], None] = lambda: None) -> tuple[Meter, list[str]]:
        """``samples`` rounds of one ``/healthz`` and one move (reads between them untimed in the
        result's ``healthz``/``move``); ``between()`` runs after each round. Returns the meter and
        the errors."""
        meter = Meter()
        errors: list[str] = []
        with TimedClient(self.url, meter, operator_key=self.operator_key) as client:
            if not self.game_id:
                self.new_game(client)
            left = samples
            for _ in range(samples * 20):
                if left <= 0:
                    break
                try:
                    client.healthz()
                    status = client.game(self.game_id)
                    if status["status"] == "over":
                        self.new_game(client)
                        continue
                    if status["status"] != "active" or not status["to_move"]:
                        client.wait(self.game_id, after=status["version"], timeout=5)  # a phase on the worker
                        continue
                    seat = status["to_move"][0]
                    legal = client.legal_moves(self.game_id, self.tokens[seat])
                    if legal["moves"]:
                        client.move(self.game_id, self.tokens[seat],
                                    legal["moves"][self.rng.randrange(len(legal["moves"]))], legal["version"])
                        left -= 1
                except Conflict:
                    continue
                except Exception as exc:  # noqa: BLE001 - counted by the client
                    errors.append(f"{type(exc).__name__}: {exc}")
                between()
        return meter, errors


def run_lockout(url: str, streams: int = 1000, polls: int = 200, samples: int = 50, seed: str = "1",
                redis_url: str | None = None, say: Callable[[str], None] = print,
                limit_ms: float = LOCKOUT_LIMIT_MS, operator_key: str | None = None) -> LockoutReport:
    """After :data:`WARM_UP` untimed rounds, time ``samples`` ``GET /healthz`` and moves with
    nothing held (the baseline), then hold
    ``streams`` SSE streams and ``polls`` ``/wait`` polls open on the gateway at ``url`` and time
    as many again (see the module docstring). With ``redis_url``, the polls count as held once
    Redis has them (and the watched games' feeds) blocked in ``XREAD``.

    ``operator_key`` creates the games. Returns the :class:`LockoutReport`. Raises AssertionError if
    the streams cannot be opened.
    """
    sampler = Sampler(url, seed, operator_key)
    _, errors = sampler.sample(WARM_UP)  # first calls load code and caches in every process: untimed
    baseline, baseline_errors = sampler.sample(samples)
    errors += baseline_errors
    say(f"lock-out: baseline (nothing held) timed: /healthz p99 {baseline.stats('healthz')['p99']:.1f} ms, "
        f"move p99 {baseline.stats('move')['p99']:.1f} ms")
    holder = Holder(url)
    meter = Meter()
    with TimedClient(url, meter, operator_key=operator_key) as client:
        idle = [client.create_game("noggin", 2, seed=f"lockout:{seed}:idle:{k}")["game_id"] for k in range(9)]
        versions = {gid: client.game(gid)["version"] for gid in [*idle, sampler.game_id]}
    # a tenth of the streams watch the game moved in (each move goes out to them); the rest and
    # the polls wait on games nobody moves, so every poll stays held until its 30 s are up
    watched = [sampler.game_id if k % 10 == 0 else idle[k % 9] for k in range(streams)]
    fewest = [0, 0]
    redis_clients = blocked = None
    try:
        opened_s = holder.open_streams([f"/games/{g}/stream?last_event_id={g}:{versions[g]}-0" for g in watched])
        say(f"lock-out: {holder.streams_open} SSE streams open in {opened_s:.1f} s")
        holder.start()
        holder.open_polls([f"/games/{idle[k % 9]}/wait?after={versions[idle[k % 9]]}&timeout=30"
                           for k in range(polls)])
        if redis_url:  # held once each poll and each watched game's feed blocks in Redis (XREAD BLOCK)
            redis_clients, blocked = held_in_redis(redis_url, polls + len(set(watched)))
            say(f"lock-out: {blocked} clients blocked in Redis ({redis_clients} Redis clients)")
        fewest = [holder.streams_open, holder.polls_open]
        say(f"lock-out: {holder.polls_open} /wait long-polls open; timing {samples} /healthz and {samples} moves")

        def count_held() -> None:
            fewest[:] = [min(fewest[0], holder.streams_open), min(fewest[1], holder.polls_open)]

        held, held_errors = sampler.sample(samples, count_held)
        errors += held_errors
    finally:
        holder.close()
    errors.extend(f"{n} x {kind}" for kind, n in (meter.errors + baseline.errors + held.errors).items()
                  if not any(kind.split(" on ")[0] in e for e in errors))
    if holder.dropped:
        errors.append(f"{holder.dropped} SSE streams closed by the gateway while held")
    if fewest[0] < streams or fewest[1] < polls:
        errors.append(f"only {fewest[0]} streams and {fewest[1]} polls were open at some sample")
    bad_polls = {head: n for head, n in holder.poll_answers.items() if not head.startswith("HTTP/1.1 200")}
    if bad_polls:
        errors.append(f"/wait answers that were not 200: {bad_polls}")
    return LockoutReport(fewest[0], fewest[1], opened_s, held.stats("healthz"), held.stats("move"), limit_ms,
                         baseline.stats("healthz"), baseline.stats("move"), redis_clients, errors,
                         redis_blocked=blocked)


def held_in_redis(redis_url: str, count: int, deadline_s: float = 60.0) -> tuple[int, int]:
    """Wait until at least ``count`` clients of the Redis at ``redis_url`` are blocked (in
    ``XREAD BLOCK``), or ``deadline_s`` passes; returns ``(connected_clients, blocked_clients)``
    from ``INFO clients``."""
    from services.common.redis_client import connect

    client = connect(redis_url)
    deadline = time.monotonic() + deadline_s
    while True:
        info = client.info("clients")
        if info["blocked_clients"] >= count or time.monotonic() > deadline:
            client.close()
            return int(info["connected_clients"]), int(info["blocked_clients"])
        time.sleep(0.1)  # polling Redis's own count, with a deadline


# -- the command ---------------------------------------------------------------------------

def lockout_table(report: LockoutReport) -> Any:
    """A rich table of the lock-out figure."""
    from rich.table import Table

    table = Table(title=f"Lock-out: {report.streams} SSE streams and {report.polls} /wait polls held "
                        f"(limit {report.limit_ms:.0f} ms)")
    for col in ("call", "samples", "p50 ms", "p99 ms", "max ms", "within limit"):
        table.add_column(col, justify="right" if col != "call" else "left")
    rows = (("GET /healthz, held", report.healthz), ("POST move, held", report.move),
            ("GET /healthz, nothing held", report.baseline_healthz), ("POST move, nothing held", report.baseline_move))
    for name, s in rows:
        if s:
            table.add_row(name, str(s["count"]), f"{s['p50']:.1f}", f"{s['p99']:.1f}", f"{s['max']:.1f}",
                          "yes" if s["count"] and s["max"] < report.limit_ms else "NO")
    return table


LOAD_KINDS = ("move", "legal-moves", "view", "summary", "wait", "healthz", "create", "seat", "stream-open")
"""The call kinds of the load's latency table, in order."""


def load_table(report: LoadReport) -> Any:
    """A rich table of the load's latencies."""
    from rich.table import Table

    table = Table(title=f"Load: {report.games} games at once for {report.seconds / 60:.1f} min "
                        "(client-side latency, ms)")
    for col in ("call", "count", *(f"p{p}" for p in PERCENTILES), "max"):
        table.add_column(col, justify="right" if col != "call" else "left")
    for kind in LOAD_KINDS:
        s = report.meter.stats(kind)
        if s["count"]:
            table.add_row(kind, str(s["count"]), *(f"{s[f'p{p}']:.1f}" for p in PERCENTILES), f"{s['max']:.1f}")
    return table


def load_line(report: LoadReport) -> str:
    """The load's last line: errors, throughput and games."""
    m = report.meter
    kinds = "; ".join(f"{n} x {kind}" for kind, n in m.errors.most_common())
    return (f"load: {report.games} games at once for {report.seconds:.0f} s: {m.error_count} errors"
            f"{' (' + kinds + ')' if kinds else ''}, {m.moves} moves ({report.moves_per_s:.1f} moves/s), "
            f"{m.finished} games finished of {m.started} started, {m.conflicts} conflicts (409, expected)")


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """Command-line options (see ``--help``)."""
    p = argparse.ArgumentParser(prog="python -m services.reliability.load", description=__doc__.split("\n")[0],
                                formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    p.add_argument("--games", type=int, default=64, help="games played at once")
    p.add_argument("--minutes", type=float, default=10.0, help="length of the load")
    p.add_argument("--seed", default="1", help="seeds the games, the bots and the spectators' picks")
    p.add_argument("--spectators", type=int, default=4, help="SSE readers beside the games")
    p.add_argument("--pollers", type=int, default=4, help="/wait pollers beside the games")
    p.add_argument("--streams", type=int, default=1000, help="SSE streams held for the lock-out figure")
    p.add_argument("--polls", type=int, default=200, help="/wait long-polls held for the lock-out figure")
    p.add_argument("--samples", type=int, default=50, help="/healthz and moves timed for the lock-out figure")
    p.add_argument("--no-lockout", action="store_true", help="skip the lock-out figure")
    p.add_argument("--lockout-only", action="store_true", help="measure the lock-out figure only")
    p.add_argument("--data-dir", type=Path, default=None, help="the stack's directory (default var/load-<time>)")
    return p.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    """Start a stack, measure the lock-out figure, run the load, print both; exit 0 if neither
    found an error (and the lock-out met its limit), 1 if not, 2 if the stack did not start."""
    from rich.console import Console
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

    from services.common.config import Settings
    from services.launcher.stack import Stack, free_port_settings
    from services.launcher.supervisor import LaunchError

    args = parse_args(argv)
    console = Console(width=None if sys.stdout.isatty() else 120)
    data_dir = args.data_dir or Path(os.environ.get("LONGHOUSE_DATA_DIR", "var")) / f"load-{time.strftime('%Y%m%d-%H%M%S')}"
    data_dir.mkdir(parents=True, exist_ok=True)

    def say(text: str) -> None:
        console.print(f"{time.strftime('%H:%M:%S')} {text}", highlight=False)

    stack = Stack(free_port_settings(Settings()), data_dir)
    started = time.monotonic()
    try:
        stack.start()
    except LaunchError as exc:
        console.print(f"the stack did not start: {exc}")
        return 2
    ok = True
    try:
        say(f"stack ready in {time.monotonic() - started:.1f} s (data and logs in {data_dir}); "
            f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f}")
        if not args.no_lockout:
            lock = run_lockout(stack.gateway_url, args.streams, args.polls, args.samples, args.seed,
                               stack.redis_url, say, operator_key=stack.operator_key)
            console.print(lockout_table(lock))
            for error in lock.errors:
                console.print(f"  {error}", highlight=False)
            say(f"lock-out: {'met' if lock.met else 'NOT MET'} (Redis clients while held: {lock.redis_clients})")
            ok = ok and lock.met
        if not args.lockout_only:
            seconds = args.minutes * 60
            with Progress(TextColumn("{task.description}"), BarColumn(), TimeElapsedColumn(), TimeRemainingColumn(),
                          TextColumn("{task.fields[status]}"), console=console) as progress:
                task = progress.add_task(f"{args.games} games", total=seconds, status="")

                def tick(elapsed: float, meter: Meter) -> None:
                    progress.update(task, completed=min(elapsed, seconds),
                                    status=f"{meter.moves} moves, {meter.finished} finished, "
                                           f"{meter.error_count} errors")

                report = play_load(stack.gateway_url, args.games, seconds, args.seed, args.spectators,
                                   args.pollers, tick, operator_key=stack.operator_key)
            dead = [name for name in stack.supervisor.dead() if not stack.supervisor.children[name].stopped]
            for name in dead:
                report.meter.error("child died", name)
            console.print(load_table(report))
            for note in report.notes + report.meter.examples:
                console.print(f"  {note}", highlight=False)
            say(f"load average at the end {os.getloadavg()[0]:.2f}")
            console.print(load_line(report), highlight=False)
            ok = ok and report.meter.error_count == 0 and report.meter.moves > 0
    finally:
        stack.stop()
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
