"""Tournaments as jobs on the hosted stack: planned, played and scored by the Celery worker.

A tournament is created once (:func:`create`, ``POST /tournaments``, ``longhouse tournament
run``): its spec and its planned matches go to Redis, and the task :data:`ADVANCE_TASK` starts.
Each run of :func:`advance` (under a per-tournament lock; any worker may run it):

1. records the result of every match whose game is over (:func:`match_result`);
2. creates the games of planned matches, up to ``parallel`` in flight. A match's game id is
   derived from the tournament and the match index (:func:`match_game_id`), so a match is
   created at most once whatever crashes: a run that finds the game already there goes on
   with it (a game is stored whole, set up, or not at all: :meth:`Table.create`);
3. plans the next Swiss round once a round is complete;
4. when every match has its result, computes the standings (:mod:`.standings`) and ends.

The games themselves are played as any game on the stack is: built-in bots' moves on the bus
(the movers), agents' decisions on the agent queue, phases on the worker. While matches are in
play :func:`advance` queues itself again after :data:`TICK_S`; a worker that starts queues it for
every running tournament (:func:`requeue_running`), so killing the worker at any moment loses
nothing and plays no match twice.

Keys share the hash tag ``{t:<id>}``: ``tournament:{t:<id>}:spec``, ``:plan`` (index -> match),
``:results`` (index -> result), ``:status``; the index of tournaments is :data:`INDEX`. The seeds
in them (the spec's tournament seed, from which every match's game and bot seeds derive, and each
planned match's and result's game seed) are stored encrypted (:mod:`services.common.sealing`,
:data:`SEALED_FIELDS`), the rest of each document in plain JSON; ``python -m
services.coordinator.reseal`` re-encrypts them after a key rotation.
"""

from __future__ import annotations

import json
import time
import uuid
from typing import Any, Callable, Iterator, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from services.bots.decide import SEARCH_KINDS
from services.common import logs
from services.common.sealing import sealer
from services.rules.core import GameConfig
from services.rules.core import match as core_match

from .formats import MatchSpec, bye_result, pair_swiss, plan as plan_format, swiss_rounds
from .seeds import derive_seed
from .standings import MatchResult, compute, plot_ratings, write_csv, write_json

ADVANCE_TASK = "longhouse.tournament_advance"
QUEUE = "longhouse.tournaments"
INDEX = "longhouse:tournaments"
"""Sorted set of tournament ids by creation time."""
TICK_S = 0.5
"""Seconds between two steps of a tournament while its matches play."""
LOCK_S = 15
"""A step's lock expires after this long (a worker killed while holding it); a step takes
well under a second."""
FORMATS = ("round_robin", "swiss", "gauntlet", "series")
SEALED_FIELDS = ("seed",)
"""The fields of the stored spec, planned matches and results that hold seeds: stored sealed,
never in plain text (:func:`seal_document`). ``services.coordinator.reseal`` names the same
keys and fields (it sits in a lower layer than this module)."""
MAX_MATCHES = 20_000
"""The most matches one tournament may plan (checked before the plan is made)."""

log = logs.get_logger()
M = TypeVar("M", bound=BaseModel)


class Participant(BaseModel):
    """One entrant: a built-in bot or a registered agent.

    Attributes:
        name: unique label in the tournament (1-64 characters).
        kind: a built-in bot (``random``, ``greedy``, ``scripted``, ``ismcts``, ``expert``) or ``agent``.
        agent: the registered agent's id (``kind="agent"`` only).
        iterations: search iterations per decision (``kind`` ``ismcts`` or ``expert`` only).
    """

    model_config = ConfigDict(extra="forbid")

    name: str = Field(min_length=1, max_length=64)
    kind: Literal["random", "greedy", "scripted", "ismcts", "expert", "agent"]
    agent: str | None = None
    iterations: int | None = Field(default=None, ge=1, le=100_000)

    @model_validator(mode="after")
    def _fields_fit_kind(self) -> "Participant":
        if (self.kind == "agent") != (self.agent is not None):
            raise ValueError("an agent participant names its agent id; only an agent does")
        if self.iterations is not None and self.kind not in SEARCH_KINDS:
            raise ValueError(f"iterations are for a search bot participant ({', '.join(SEARCH_KINDS)})")
        return self

    def controller(self, seed: str) -> dict[str, Any]:
        """The seat's controller for :meth:`Table.create` (``bots``), with ``seed``."""
        out: dict[str, Any] = {"kind": self.kind, "seed": seed}
        if self.agent is not None:
            out["agent"] = self.agent
        if self.iterations is not None:
            out["iterations"] = self.iterations
        return out


class TournamentSpec(BaseModel):
    """What a tournament plays.

    Attributes:
        games: game names; every pairing plays each (round robin, gauntlet), Swiss rounds
            cycle through them, a series plays ``matches`` of each.
        format: ``round_robin`` (every group of ``players`` participants, every seat rotation,
            one seed per pairing), ``swiss`` (``rounds`` rounds paired by points), ``gauntlet``
            (``challengers`` against the rest), or ``series`` (``matches`` games per game with
            the participants on fixed seats in order, the launcher's own tournament).
        participants: the entrants (names unique).
        players: seats per match.
        seed: the tournament seed; every match's game and bot seeds derive from it (a fresh
            random one by default; the matches' seeds are shown only once it is done).
        games_per_pairing: repetitions of each pairing (round robin, gauntlet).
        rounds: Swiss rounds (default ceil(log2(participants))).
        challengers: gauntlet challengers' names.
        matches: games per game in a series.
        options: game options per game name.
        time_control: the agent seats' time control (``move_ms``, ``bank_ms``, ``max_strikes``).
        parallel: matches in play at once.
        match_timeout_s: a match not over after this long counts as failed (``ended_by="error"``).
    """

    model_config = ConfigDict(extra="forbid")

    games: list[str] = Field(min_length=1, max_length=8)
    format: Literal["round_robin", "swiss", "gauntlet", "series"] = "round_robin"
    participants: list[Participant] = Field(min_length=1, max_length=64)
    players: int = Field(default=2, ge=1, le=8)
    seed: str = Field(default_factory=lambda: uuid.uuid4().hex, min_length=1, max_length=128)
    games_per_pairing: int = Field(default=1, ge=1, le=100)
    rounds: int | None = Field(default=None, ge=1, le=64)
    challengers: list[str] | None = None
    matches: int = Field(default=1, ge=0, le=10_000)
    options: dict[str, dict[str, Any]] = Field(default_factory=dict)
    time_control: dict[str, int] | None = None
    parallel: int = Field(default=8, ge=1, le=256)
    match_timeout_s: float = Field(default=1800.0, ge=10, le=86_400)

    @field_validator("participants")
    @classmethod
    def _unique(cls, value: list[Participant]) -> list[Participant]:
        names = [p.name for p in value]
        if len(set(names)) != len(names):
            raise ValueError("participant names must be unique")
        return value

    @model_validator(mode="after")
    def _fields_fit_format(self) -> "TournamentSpec":
        if self.challengers is not None and self.format != "gauntlet":
            raise ValueError("challengers are for a gauntlet")
        if self.rounds is not None and self.format != "swiss":
            raise ValueError("rounds are for a Swiss tournament")
        if self.matches != 1 and self.format != "series":
            raise ValueError("matches are for a series")
        if self.games_per_pairing != 1 and self.format in ("swiss", "series"):
            raise ValueError(f"games_per_pairing is for round robin and gauntlet, not {self.format}")
        strangers = sorted(set(self.options) - set(self.games))
        if strangers:
            raise ValueError(f"options name games the tournament does not play: {', '.join(strangers)}")
        if len(set(self.games)) != len(self.games):
            raise ValueError("each game is named once in games")
        return self

    def planned_size(self) -> int:
        """How many matches the plan will hold (Swiss: every round), worked out without
        making it."""
        from math import comb

        n, k = len(self.participants), self.players
        if self.format == "series":
            return self.matches * len(self.games)
        if self.format == "swiss":
            return (self.rounds or swiss_rounds(n)) * -(-n // k)
        if self.format == "gauntlet":
            c = len(self.challengers or [])
            return c * comb(max(0, n - c), k - 1) * k * len(self.games) * self.games_per_pairing
        return comb(n, k) * k * len(self.games) * self.games_per_pairing

    def check_playable(self) -> None:
        """Raise ValueError, or BadConfig/UnknownGame (the checks of a game's creation), unless
        every match this spec plans can be created: the plan's size, each game's players and options, the
        time control (checked whatever the participants, as :meth:`Table.create` does). Nothing is stored."""
        from services.coordinator.table import parse_time_control
        from services.rules.core import get_rules

        size = self.planned_size()
        if size > MAX_MATCHES:
            raise ValueError(f"this tournament would plan {size} matches; at most {MAX_MATCHES}")
        for game in self.games:
            rules = get_rules(game)
            rules.validate_config(GameConfig(game=game, players=self.players, options=self.options.get(game, {})))
        parse_time_control(self.time_control)  # whatever the participants, as a game's creation checks it

    def participant(self, name: str) -> Participant:
        """The participant called ``name``. Raises KeyError."""
        for p in self.participants:
            if p.name == name:
                return p
        raise KeyError(name)

    def names(self) -> list[str]:
        """Participant names in the order given."""
        return [p.name for p in self.participants]


def _key(tid: str, part: str) -> str:
    return f"tournament:{{t:{tid}}}:{part}"


def seal_document(model: BaseModel) -> str:
    """``model`` (a :class:`TournamentSpec`, :class:`MatchSpec` or :class:`MatchResult`) as JSON
    as it is stored: each of :data:`SEALED_FIELDS` that is set encrypted (``fernet:...``)."""
    data = model.model_dump(mode="json")
    for name in SEALED_FIELDS:
        if isinstance(data.get(name), str):
            data[name] = sealer().seal(data[name])
    return json.dumps(data, separators=(",", ":"))


def open_document(raw: str | bytes, model: type[M]) -> M:
    """The ``model`` of a stored document of :func:`seal_document`'s form, its sealed fields opened
    (a field stored before encryption is taken as it is).

    Raises:
        UnsealError: no configured key opens a sealed field.
        pydantic.ValidationError: the document is not a valid ``model``.
    """
    data = json.loads(raw)
    for name in SEALED_FIELDS:
        if isinstance(data.get(name), str):
            data[name] = sealer().unseal(data[name])
    return model.model_validate(data)


def match_game_id(tid: str, index: int) -> str:
    """The game id of match ``index`` of tournament ``tid`` (16 hex digits, derived)."""
    return derive_seed(tid, "match", index)


def plan_series(spec: TournamentSpec) -> list[MatchSpec]:
    """A series: for each game, ``spec.matches`` games with participant ``s % n`` on seat ``s``;
    game ``i``'s seed is ``derive_seed(seed, i)`` (with a single game, the launcher's seeds)."""
    names = spec.names()
    out: list[MatchSpec] = []
    for g, game in enumerate(spec.games):
        for i in range(spec.matches):
            seed = derive_seed(spec.seed, i) if len(spec.games) == 1 else derive_seed(spec.seed, game, i)
            out.append(MatchSpec(index=len(out), round=0, pairing=i, seed=seed, game=game,
                                 seats=[names[s % len(names)] for s in range(spec.players)]))
    return out


def initial_plan(spec: TournamentSpec) -> list[MatchSpec]:
    """The matches known at the start (a Swiss tournament's first round).
    Raises ValueError for a spec the format cannot plan."""
    if spec.format == "series":
        return plan_series(spec)
    return plan_format(spec.format, spec.names(), spec.players, spec.seed, spec.games, spec.games_per_pairing,
                       challengers=spec.challengers if spec.format == "gauntlet" else None)


def seat_seed(spec: TournamentSpec, match: MatchSpec, seat: int) -> str:
    """The seed of the controller on ``seat`` of ``match``: in a series (with one game) the
    launcher's ``derive_seed(seed, i, "seat", s)``; otherwise ``derive_seed(seed, "match",
    index, "seat", s)``."""
    if spec.format == "series" and len(spec.games) == 1:
        return derive_seed(spec.seed, match.pairing, "seat", seat)
    return derive_seed(spec.seed, "match", match.index, "seat", seat)


class TournamentStore:
    """Tournament records in the game store's Redis.

    Args:
        client: a Redis client (``decode_responses`` off).
    """

    def __init__(self, client: Any):
        self.r = client

    def create(self, spec: TournamentSpec, tid: str | None = None) -> str:
        """Store a new tournament and its first matches; returns its id.
        Raises ValueError (a plan that cannot be made, or an id in use)."""
        tid = tid or uuid.uuid4().hex[:12]
        spec.check_playable()
        matches = initial_plan(spec)
        if not self.r.set(_key(tid, "spec"), seal_document(spec), nx=True):
            raise ValueError(f"tournament {tid!r} exists")
        self._add_matches(tid, matches)
        self.r.hset(_key(tid, "status"), mapping={"status": "running", "created": str(time.time()), "round": "0"})
        self.r.zadd(INDEX, {tid: time.time()})
        return tid

    def _add_matches(self, tid: str, matches: list[MatchSpec]) -> None:
        if matches:
            self.r.hset(_key(tid, "plan"), mapping={str(m.index): seal_document(m) for m in matches})

    def exists(self, tid: str) -> bool:
        """True if ``tid`` names a tournament."""
        return bool(self.r.exists(_key(tid, "spec")))

    def spec(self, tid: str) -> TournamentSpec:
        """The spec, its seed opened. Raises KeyError for an unknown tournament, UnsealError if no
        configured key opens its seed."""
        raw = self.r.get(_key(tid, "spec"))
        if raw is None:
            raise KeyError(tid)
        return open_document(raw, TournamentSpec)

    def plan(self, tid: str) -> list[MatchSpec]:
        """Every match planned so far, by index (seeds opened; UnsealError if no key opens one)."""
        raw = self.r.hgetall(_key(tid, "plan"))
        return sorted((open_document(v, MatchSpec) for v in raw.values()), key=lambda m: m.index)

    def results(self, tid: str) -> list[MatchResult]:
        """Every recorded result, by index (seeds opened; UnsealError if no key opens one)."""
        raw = self.r.hgetall(_key(tid, "results"))
        return sorted((open_document(v, MatchResult) for v in raw.values()), key=lambda m: m.index)

    def outcomes(self, tid: str) -> dict[int, dict[str, Any]]:
        """Each recorded match's game outcome as the rules gave it (index -> outcome)."""
        raw = self.r.hgetall(_key(tid, "outcomes"))
        return {int(k): json.loads(v) for k, v in raw.items()}

    def started(self, tid: str, index: int) -> float:
        """When match ``index`` was first seen in play (epoch seconds; recorded now if not)."""
        self.r.hsetnx(_key(tid, "started"), str(index), str(time.time()))
        return float(self.r.hget(_key(tid, "started"), str(index)))

    def record(self, tid: str, result: MatchResult, outcome: dict[str, Any] | None = None) -> bool:
        """Record a match's result once; True if this call recorded it."""
        done = bool(self.r.hsetnx(_key(tid, "results"), str(result.index), seal_document(result)))
        if done and outcome is not None:
            self.r.hset(_key(tid, "outcomes"), str(result.index), json.dumps(outcome, sort_keys=True))
        return done

    def status(self, tid: str) -> dict[str, str]:
        """``{"status", "created", "round", ...}`` as strings; ``status`` is ``cancelled`` for a
        running tournament an operator cancelled (:meth:`cancel`: a field of its own, so a step
        that writes ``running`` meanwhile does not undo it)."""
        raw = {k.decode(): v.decode() for k, v in self.r.hgetall(_key(tid, "status")).items()}
        if raw.get("cancelled") and raw.get("status") == "running":
            raw["status"] = "cancelled"
        return raw

    def cancel(self, tid: str) -> str:
        """Cancel a running tournament: no match is started or recorded after it (games already
        in play are played out by their seats, unrecorded), and its chain of steps ends. Returns
        the status after it: ``cancelled``, or ``done``/``failed`` for one that had already ended
        (then nothing changes)."""
        status = self.status(tid).get("status", "running")
        if status == "running":
            self.set_status(tid, cancelled=time.time())
            status = self.status(tid).get("status", "running")
        return status

    def set_status(self, tid: str, **fields: Any) -> None:
        """Update status fields."""
        self.r.hset(_key(tid, "status"), mapping={k: str(v) for k, v in fields.items()})

    def lock(self, tid: str, token: str) -> bool:
        """Take the tournament's step lock (expires after :data:`LOCK_S`); True also when
        ``token`` holds it already (a redelivered step)."""
        if self.r.set(_key(tid, "lock"), token, nx=True, ex=LOCK_S):
            return True
        return (self.r.get(_key(tid, "lock")) or b"").decode() == token

    def new_chain(self, tid: str) -> str:
        """Start a new chain of steps for ``tid`` (any older chain stops at its next step);
        returns its id."""
        chain = uuid.uuid4().hex
        self.set_status(tid, chain=chain)
        return chain

    def chain(self, tid: str) -> str | None:
        """The id of the chain of steps that may go on."""
        return self.status(tid).get("chain")

    def unlock(self, tid: str, token: str) -> None:
        """Release the lock if ``token`` holds it."""
        if (self.r.get(_key(tid, "lock")) or b"").decode() == token:
            self.r.delete(_key(tid, "lock"))

    def running(self) -> list[str]:
        """Ids of tournaments still running (newest 1000)."""
        ids = [t.decode() for t in self.r.zrevrange(INDEX, 0, 999)]
        return [t for t in ids if self.status(t).get("status") == "running"]

    def all(self, limit: int = 100) -> list[str]:
        """Newest ``limit`` tournament ids."""
        return [t.decode() for t in self.r.zrevrange(INDEX, 0, limit - 1)]


def match_result(table: Any, match: MatchSpec, game_id: str) -> tuple[MatchResult, dict] | None:
    """The result of ``match`` if its game is over, with the rules' outcome; else None."""
    from services.rules.core import state_hash

    rules, state, _ = table.state(game_id)
    outcome = rules.outcome(state)
    if outcome is None:
        return None
    meta = table.store.meta(game_id)  # read after the state: its move count includes the last move
    n = len(match.seats)
    strikes = [core_match.strikes(state, s) for s in range(n)]
    forfeited = list(outcome.get("forfeited") or [])
    defaults = [strikes[s] - (1 if s in forfeited else 0) for s in range(n)]
    result = MatchResult(index=match.index, round=match.round, game=match.game, seats=list(match.seats),
                         game_id=game_id, scores=list(outcome.get("scores") or []),
                         winners=list(outcome.get("winners") or []), forfeited=forfeited, strikes=strikes,
                         default_moves=defaults, moves=int(meta.get("moves", 0)),
                         ended_by="forfeit" if outcome.get("reason") == "forfeit" else "rules",
                         state_hash=state_hash(rules.hash_view(state)), pairing=match.pairing, seed=match.seed)
    return result, outcome


def start_match(table: Any, tid: str, spec: TournamentSpec, match: MatchSpec) -> str:
    """Create the game of ``match`` (or find it: a match is created at most once) and return
    its id. Raises BadConfig/UnknownGame for a game the spec cannot make."""
    from services.coordinator.store import GameNotFound

    game_id = match_game_id(tid, match.index)
    try:
        table.store.meta(game_id)
    except GameNotFound:
        bots = {s: spec.participant(name).controller(seat_seed(spec, match, s)) for s, name in enumerate(match.seats)}
        config = GameConfig(game=match.game, players=len(match.seats), options=spec.options.get(match.game, {}))
        try:
            table.create(config, seed=match.seed, bots=bots, game_id=game_id, control=spec.time_control,
                         labels={"tournament": tid, "match": match.index})
        except ValueError as exc:  # another step made it meanwhile (whole: creation is one commit)
            if "exists" not in str(exc):
                raise
    return game_id


def advance(table: Any, store: TournamentStore, tid: str, token: str | None = None) -> str:
    """One step of tournament ``tid`` (see the module docstring). Returns its status:
    ``running``, ``done``, ``cancelled``, ``busy`` (another step holds the lock) or ``unknown``."""
    token = token or uuid.uuid4().hex
    if not store.exists(tid):
        return "unknown"
    if not store.lock(tid, token):
        return "busy"
    try:
        return _advance(table, store, tid)
    except Exception as exc:  # noqa: BLE001 - a step that cannot go on ends the tournament, visibly
        from services.coordinator.store import GameNotFound

        if isinstance(exc, (GameNotFound, ConnectionError)) or type(exc).__module__.startswith(("redis", "grpc")):
            raise  # the stack is unwell: the step is retried
        log.exception("tournament_failed", tournament=tid)
        store.set_status(tid, status="failed", error=f"{type(exc).__name__}: {exc}"[:500])
        return "failed"
    finally:
        store.unlock(tid, token)


def _advance(table: Any, store: TournamentStore, tid: str) -> str:
    from services.coordinator.store import GameNotFound

    spec = store.spec(tid)
    status = store.status(tid).get("status")
    if status in ("done", "cancelled"):
        return status
    for _ in range(64):  # Swiss: a round can complete and the next be planned in one step
        planned = store.plan(tid)
        done = {r.index for r in store.results(tid)}
        in_play = 0
        for match in planned:
            if match.index in done:
                continue
            if match.bye:
                store.record(tid, bye_result(match))
                continue
            game_id = match_game_id(tid, match.index)
            try:
                table.store.meta(game_id)
            except GameNotFound:
                if in_play >= spec.parallel:
                    continue
                start_match(table, tid, spec, match)
                in_play += 1
                log.info("match_started", tournament=tid, match=match.index, game_id=game_id, game=match.game)
                continue
            got = match_result(table, match, game_id)
            if got is not None:
                if store.record(tid, *got):
                    log.info("match_recorded", tournament=tid, match=match.index, game_id=game_id,
                             ended_by=got[0].ended_by, winners=got[0].winners)
                continue
            if time.time() - store.started(tid, match.index) > spec.match_timeout_s:
                store.record(tid, MatchResult(index=match.index, round=match.round, game=match.game,
                                              seats=list(match.seats), game_id=game_id, ended_by="error",
                                              pairing=match.pairing, seed=match.seed,
                                              error=f"not over after {spec.match_timeout_s:.0f} s"))
                continue
            in_play += 1
        results = store.results(tid)
        if len(results) < len(planned):
            store.set_status(tid, status="running", played=len(results), planned=len(planned))
            return "running"
        if spec.format == "swiss":
            rounds = spec.rounds or swiss_rounds(len(spec.participants))
            next_round = max(m.round for m in planned) + 1
            if next_round < rounds:
                store._add_matches(tid, pair_swiss(spec.names(), spec.players, next_round, spec.seed, spec.games,
                                                   results, len(planned)))
                store.set_status(tid, round=next_round)
                continue
        standings = compute(spec.names(), results)
        store.set_status(tid, status="done", played=len(results), planned=len(planned), finished=time.time(),
                         standings=standings.model_dump_json())
        log.info("tournament_done", tournament=tid, matches=len(results))
        return "done"
    return "running"


def send_step(celery_app: Any, tid: str, chain: str, countdown: float = 0.0) -> None:
    """Queue a step of ``tid`` in ``chain`` on :data:`QUEUE`, with the request id being served (the
    one that created or resumed the tournament: the steps' log lines carry it). No trace context:
    the chain queues itself again every step, and one trace would never end."""
    rid = logs.request_id.get()
    headers = {logs.REQUEST_ID_HEADER: rid} if rid is not None else None
    celery_app.send_task(ADVANCE_TASK, args=(tid, chain), queue=QUEUE, countdown=countdown or None,
                         headers=headers)


def start(store: TournamentStore, celery_app: Any, tid: str) -> str:
    """Start (or restart) the chain of steps of ``tid``; returns the chain id."""
    chain = store.new_chain(tid)
    send_step(celery_app, tid, chain)
    return chain


def step(table: Any, store: TournamentStore, celery_app: Any, tid: str, chain: str, token: str) -> str:
    """The task body: one :func:`advance` if ``chain`` is the tournament's current chain, then
    the next step queued while the tournament runs. Returns the status, or ``"stale"`` for
    a step of a chain that was replaced."""
    if store.exists(tid) and store.chain(tid) != chain:
        return "stale"
    status = advance(table, store, tid, token)
    if status in ("running", "busy"):
        send_step(celery_app, tid, chain, TICK_S)
    return status


def requeue_running(store: TournamentStore, celery_app: Any) -> int:
    """Start a new chain for every running tournament (a worker's start-up: the chain of a
    worker that died goes on here). Returns how many."""
    running = store.running()
    for tid in running:
        start(store, celery_app, tid)
    return len(running)


def report(store: TournamentStore, tid: str) -> dict[str, Any]:
    """The tournament as JSON data: ``{"tournament_id", "status", "spec", "played", "planned",
    "standings" (while running: so far), "matches", "error" (a failed tournament)}`` (each
    match a :class:`MatchResult` plus the rules' ``outcome``) — no seeds of bots, no agent
    secrets, and no game seeds until the tournament is done.
    Raises KeyError for an unknown tournament."""
    spec = store.spec(tid)
    status = store.status(tid)
    results = store.results(tid)
    standings = status.get("standings")
    current = json.loads(standings) if standings else json.loads(compute(spec.names(), results).model_dump_json())
    outcomes = store.outcomes(tid)
    done = status.get("status") == "done"
    shown = spec.model_dump()
    if not done:
        shown.pop("seed")  # every match's seed derives from it: shown once nothing is left to play
    matches = []
    for r in results:
        m = {**json.loads(r.model_dump_json()), "outcome": outcomes.get(r.index)}
        if not done:
            m["seed"] = None  # the other seat rotations of its pairing may still be in play
        matches.append(m)
    out = {"tournament_id": tid, "status": status.get("status", "running"), "spec": shown,
           "played": len(results), "planned": len(store.plan(tid)), "standings": current, "matches": matches}
    if status.get("error"):
        out["error"] = status["error"]
    return out


def follow(fetch: Callable[[], dict[str, Any]], timeout_s: float, poll_s: float = 0.5) -> Iterator[dict[str, Any]]:
    """Yield the tournament's report (``fetch()``: ``GET /tournaments/<id>``) every ``poll_s``
    seconds until it is no longer running or ``timeout_s`` has passed; the last one yielded is
    the final report."""
    deadline = time.monotonic() + timeout_s
    while True:
        doc = fetch()
        yield doc
        if doc["status"] != "running" or time.monotonic() > deadline:
            return
        time.sleep(poll_s)  # following a job in other processes at a human pace, not synchronisation


def write_outputs(doc: dict[str, Any], out_dir: Any) -> dict[str, str]:
    """Write ``standings.json``, ``standings.csv`` and ``ratings.png`` into ``out_dir`` from a
    :func:`report` document (as the API returns it). Returns name -> path. The plot is
    left out when no match was rated yet."""
    from pathlib import Path

    out = Path(out_dir)
    spec = TournamentSpec.model_validate({"seed": "-", **doc["spec"]})
    results = [MatchResult.model_validate({k: v for k, v in m.items() if k != "outcome"}) for m in doc["matches"]]
    standings = compute(spec.names(), results)
    meta = {"tournament_id": doc["tournament_id"], "status": doc["status"], "format": spec.format,
            "games": spec.games, "players": spec.players, "seed": doc["spec"].get("seed"),
            "participants": [p.model_dump(exclude_none=True) for p in spec.participants],
            "played": doc["played"], "planned": doc["planned"]}
    paths = {"json": str(write_json(out / "standings.json", standings, results, meta)),
             "csv": str(write_csv(out / "standings.csv", standings))}
    if standings.history:
        paths["png"] = str(plot_ratings(out / "ratings.png", standings.history,
                                        title=f"Ratings over matches: {', '.join(spec.games)} ({spec.format})"))
    return paths


def run_inline(table: Any, store: TournamentStore, tid: str, limit: int = 100_000) -> str:
    """Play tournament ``tid`` to its end in this process (an embedded table whose scheduler
    runs bots and agents inline: each match plays out as it is created). Returns the status."""
    status = "running"
    for _ in range(limit):
        status = advance(table, store, tid)
        if status != "running":
            break
    return status
