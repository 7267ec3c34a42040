"""The bus mover: ``python -m services.phases.mover`` plays built-in bots' moves (and the
phases between them) for many games at once.

When a commit leaves a game waiting for a bot seat, the coordinator's scheduler pushes the
game's id on the Redis list :data:`~services.phases.schedulers.READY`
(:class:`~services.phases.schedulers.BusScheduler`). A mover pops up to
``LONGHOUSE_MOVER_BATCH`` ready games, works out each game's next step (the bot's move at
the game's current version, or its pending phase: :meth:`Table.next_job`), and resolves
them together (:meth:`Table.run_jobs`): one batched call per domain per round, one
pipelined commit for all. Games that still wait for a bot or a phase stay with the mover
for its next round, joined by newly ready games, so a game of bots never goes back through
the queue between its moves. A round of slow bots commits what it has after :data:`ROUND_S`
of deciding, and a stop gives up a bot's search under way (:mod:`services.bots.cancel`).

A game waiting for an agent seat comes the same way (``LONGHOUSE_AGENT_ASKER=mover``, the
default): the mover's :class:`~services.phases.agent_desk.AgentDesk` claims the decision and
asks the agent without waiting for it (a gRPC call's future, or a thread of the desk's), and the
answer joins a later round's batch, so a game of
agents is held, and its commits batched, by the mover too.

Nothing is lost if a mover dies: every step is committed with the version check, so a
step is never applied twice, and a game whose id was popped but not played is pushed
again by the mover that starts next (:func:`requeue_waiting`), by the gateway's ``/wait``
or by the Celery worker's start-up sweep. A game waiting for a phase and no bot goes to
the Celery worker as before.

With tracing on (:mod:`services.common.tracing`), each round is a span linked to the traces that
queued its newly popped games (their :data:`~services.phases.schedulers.READY_TRACE` keys): a
round serves many games, so it follows from their requests rather than being a child of one.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
import time
import uuid
from typing import Any, Iterator

import grpc
import redis

from services.bots.cancel import DecisionCancelled, cancelled_by
from services.bots.decide import SEARCH_KINDS
from services.common import logs, metrics, tracing
from services.coordinator.wire import DomainCallFailed
from services.common.config import settings
from services.common.redis_client import connect, text
from services.coordinator.redis_store import games_in_status
from services.coordinator.store import Commit, GameNotFound, VersionConflict
from services.coordinator.table import Job
from services.phases.agent_desk import AgentDesk
from services.phases.hosting import build_table
from services.phases.schedulers import READY, READY_TRACE

HEARTBEAT = "longhouse:mover:{name}"
"""A mover's liveness key (refreshed while it serves; the launcher's readiness probe), holding the
mover's pid and a token of its own."""
STARTING = "starting"
"""Appended, after a dot, to a starting mover's :data:`HEARTBEAT` value until its start-up push is
done (:meth:`Mover.announce`): the launcher's probe does not call it ready meanwhile."""
WAKE = "{{%s}}:wake:{name}" % READY
"""The list a mover waits on beside :data:`READY` while its desk asks agents: an answer pushes
to it (in :data:`READY`'s hash slot, so one ``BRPOP`` waits on both on a Redis Cluster too)."""
WAKE_TTL = 60
"""Seconds a mover's :data:`WAKE` list lives after its last push."""
SWITCH_INTERVAL_S = 0.0005
"""The mover's GIL switch interval (``sys.setswitchinterval``; CPython's default is 5 ms). Its loop
shares the GIL with gRPC's callback threads, the agent loop, the metrics server and the agent desk's threads; a
thread that wants the GIL back after a reply (the loop after a Redis or domain-service round trip)
waits for the running one to reach the interval (the "convoy effect": D. Beazley, Understanding the
Python GIL, PyCon 2010). At 0.5 ms the bus path moved 1.22x the moves a second at 8 games, in 5 of 5
alternated rounds (docs/benchmarks.md, "Mover GIL switch interval")."""
DESK_SLEEP_S = 0.2
"""Longest wait for a ready game while the desk asks or watches a decision (its claims are
renewed and its watches looked at between waits)."""
TAKE = """
local waiting = redis.call('LLEN', KEYS[1])
if waiting == 0 then return {} end
local share = math.max(1, math.ceil(waiting / tonumber(ARGV[2])))
return redis.call('RPOP', KEYS[1], math.min(tonumber(ARGV[1]), share))
"""
"""Pop up to ARGV[1] ids from the ready list, at most a 1/ARGV[2] share of what waits."""
DROP_OWN = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""
"""Delete the key KEYS[1] only if it still holds ARGV[1] (the heartbeat this mover wrote)."""
PUSH_ABSENT = """
local have = {}
for _, id in ipairs(redis.call('LRANGE', KEYS[1], 0, -1)) do have[id] = true end
local pushed = 0
for _, id in ipairs(ARGV) do
  if not have[id] then
    redis.call('LPUSH', KEYS[1], id)
    have[id] = true
    pushed = pushed + 1
  end
end
return pushed
"""
"""Push each of ARGV on the list KEYS[1] unless it is on it already; returns how many were pushed.
A restart pushed a game twice (the stopping mover's hand-back, then the new mover's start-up push),
and two movers could then work out the same slow decision at once."""
DECIDING = "game:{{{game_id}}}:deciding"
"""A search bot's decision being worked out: ``<mover name>|<its heartbeat value>|<version>``."""
DECIDING_TTL = 3600
"""Seconds a :data:`DECIDING` key lives (it is only believed while its mover's heartbeat holds its
value and the game is still at its version)."""
TAKE_DECISION = """
local held = redis.call('GET', KEYS[1])
if held and held ~= ARGV[1] and held ~= ARGV[2]
    and tonumber(string.match(held, '|([^|]*)$')) >= tonumber(ARGV[3]) then
  return held
end
redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[4])
return false
"""
"""Note ARGV[1] on KEYS[1] (:data:`DECIDING`) unless another mover holds the same version
(ARGV[3]) or a later one (the caller's view of the game is out of date: a trial saw such a mover
overwrite a live note and decide the same slow decision again); ARGV[2]: the holder's value seen
dead, taken over. Returns the other holder's value, or nil once noted."""
GATHER_S = 0.005
"""Longest wait, in seconds, once an agent's answer is in, for the answers to the desk's other
calls still out that began with it or before it (:meth:`AgentDesk.gather`), so that they commit
in the same batch (one domain call a round for all, one pipelined commit) instead of a batch each.
At 0.005 the agent-grpc path at 8 games committed 2.4 answers a round instead of 1.7, and moved
1.07x the moves a second (median of 3 alternated rounds; docs/benchmarks.md, "Agent answers
gathered into fuller batches"); with cohorts, 5 ms against 2 ms, agent-grpc 1.09x (4 rounds)."""
BATCH = int(os.environ.get("LONGHOUSE_MOVER_BATCH", "32"))
"""Games resolved together in one round."""
ROUND_S = 0.5
"""Longest time, in seconds, each of a round's two passes (:meth:`Mover.round`) spends working out
its games' next steps before it commits what it has (at least one game's): the rest stay in hand,
first in line for the next round. A round
of slow bots (search at a large budget, seconds a decision) committed nothing until every game in
hand was decided, 30-90 s with no move in any of them (a trial); now each game's move commits
within about this long after its bot has decided, and the games take turns."""
LOAD = "longhouse:movers:load:{name}"
"""A mover's load: how many games in its hand wait for a search bot's decision (:meth:`Mover.balance`).
Written between rounds, so a mover inside one long search lets it lapse (:data:`LOAD_TTL`) and is
not handed games meanwhile."""
LOAD_TTL = 10
"""Seconds a :data:`LOAD` key lives after it is written."""
BALANCE_S = 5.0
"""How often, in seconds, a mover writes its :data:`LOAD` and compares it with its peers'."""
STALL_S = 300.0
"""Longest time, in seconds, the mover's loop may go without a step (a game looked at, a round
begun, an iteration of a bot's search) while its heartbeat is still refreshed by its own thread: one bot decision may take minutes
(search bots at a large budget), a loop stuck for longer is taken for dead, and its peers take its
games up once its heartbeat lapses."""
OUTAGE_PAUSE_MAX = 2.0
"""Longest pause, in seconds, between a mover's tries while Redis or a domain service is down
(the pause starts at 0.1 s and doubles)."""

log = logs.get_logger()


class _Later(Exception):
    """A search bot's decision met in a round's first pass: its second pass works it out."""


def _later(game_id: str, version: int, bot: dict[str, Any]) -> bool:
    """The ``deciding`` of a round's first pass (:meth:`Table.next_job`): a search bot's decision
    is left to the second (:class:`_Later`); any other goes ahead."""
    if bot.get("kind") in SEARCH_KINDS:
        raise _Later
    return True


def _split(games: list[tuple[str, int | None]], people: set[str]) -> tuple[list[tuple[str, int | None]],
                                                                         list[tuple[str, int | None]]]:
    """``(with a person, bots only)``: the ``games`` (``(game_id, version)``) whose ids are in
    ``people`` and the rest, each part in its order."""
    first: list[tuple[str, int | None]] = []
    rest: list[tuple[str, int | None]] = []
    for game in games:
        (first if game[0] in people else rest).append(game)
    return first, rest


class Mover:
    """One mover: pops ready games and plays their bots and phases in batches.

    Args:
        table: a Table over the Redis store whose scheduler is a
            :class:`~services.phases.schedulers.BusScheduler`.
        client: Redis client of the game store.
        batch: games resolved together in one round.
        name: the mover's name (its heartbeat and wake-up keys).
        agents: ask agent seats too (an :class:`~services.phases.agent_desk.AgentDesk`;
            ``LONGHOUSE_AGENT_ASKER=mover``).
    """

    def __init__(self, table: Any, client: redis.Redis, batch: int = BATCH, name: str = "mover",
                 agents: bool = False):
        self.table = table
        self.client = client
        self.batch = batch
        self.name = name
        self.wake_key = WAKE.format(name=name)
        self.desk = AgentDesk(table, wake=self._wake) if agents else None
        self.stopping = threading.Event()
        self.steps = 0
        self._beat = 0.0
        self._stepped = time.monotonic()
        self._count = 1
        self._counted = 0.0
        self._seen: set[Any] = set()
        self._hand_turn = False  # the next round's searches begin with the games of bots only
        self._searching: set[str] = set()  # games in hand whose next step is a search bot's decision
        self._balanced = 0.0
        self._hold_off = False  # a lighter peer takes the ready games first (balance)
        self._take = client.register_script(TAKE)
        self._take_decision = client.register_script(TAKE_DECISION)
        self._drop_own = client.register_script(DROP_OWN)
        self._beat_value = f"{os.getpid()}.{uuid.uuid4().hex[:12]}"  # this mover's, whatever its name

    def heartbeat(self) -> None:
        """Note a step of the loop, and refresh :data:`HEARTBEAT` if the last refresh is 5 s old
        or more (it expires 15 s after the last)."""
        self._noted()
        self._refresh()

    def announce(self) -> None:
        """Write :data:`HEARTBEAT` as starting (its value, then ``.`` and :data:`STARTING`) before the
        start-up push. A mover killed outright and started again under its name left its old value
        in the key until the new mover's first heartbeat, written after that push; another mover
        then took the dead one's deciding notes (:data:`DECIDING`) for live and dropped games the
        push had just handed out, and nothing pushed them again (the name's key never went away, so
        no peer saw a mover gone). Raises Redis's errors."""
        self.client.set(HEARTBEAT.format(name=self.name), f"{self._beat_value}.{STARTING}", ex=15)

    def _noted(self) -> None:
        """A step of the loop, or an iteration of a bot's search (:mod:`services.bots.cancel`):
        the heartbeat's thread goes on refreshing it (:data:`STALL_S`)."""
        self._stepped = time.monotonic()

    def deciding(self, game_id: str, version: int, bot: dict[str, Any]) -> bool:
        """Whether this mover works out ``bot``'s decision in ``game_id`` at ``version`` now
        (:meth:`Table.next_job`'s ``deciding``): False if another live mover is already working it
        out. Only the search kinds are noted (:data:`DECIDING`, one round trip; a decision of
        seconds), so that the other movers pass the game by and drop it from their hands: after a
        restart both movers held every game and worked out the same slow decisions at once, and a
        game pushed again while a mover held it (a person's ``/wait``, the worker's sweep) was
        decided twice (a trial). A holder whose heartbeat is gone is taken over. Raises Redis's
        errors."""
        if bot.get("kind") not in SEARCH_KINDS:
            return True
        key = DECIDING.format(game_id=game_id)
        mine = f"{self.name}|{self._beat_value}|{version}"
        held = self._take_decision(keys=[key], args=[mine, "", version, DECIDING_TTL])
        if held is None:
            return True
        name, beat, held_version = text(held).rsplit("|", 2)
        if int(held_version) > version:
            return False  # the game has moved on past this mover's version: its holder has it
        if self.client.get(HEARTBEAT.format(name=name)) == beat.encode():
            return False  # a live mover decides it: it commits it and keeps the game
        return self._take_decision(keys=[key], args=[mine, held, version, DECIDING_TTL]) is None

    def _beat_while_serving(self) -> None:
        """The heartbeat thread, until :attr:`stopping`: refreshes :data:`HEARTBEAT` while the loop
        has stepped within :data:`STALL_S`. Refreshed by the loop alone, it lapsed during one bot
        decision longer than about 10 s (a trial: ``expert`` at 3000 iterations), and the peers took
        the games of a mover still playing them. A failed refresh is tried again a second later."""
        while not self.stopping.wait(1.0):
            try:
                self._refresh()
            except redis.RedisError:
                continue

    def _refresh(self) -> bool:
        """One turn of :meth:`_beat_while_serving`: refresh :data:`HEARTBEAT` if it is due and the
        loop has stepped within :data:`STALL_S`. True if it was written. Raises Redis's errors."""
        now = time.monotonic()
        if now - self._stepped > STALL_S or now - self._beat < 5:
            return False
        self.client.set(HEARTBEAT.format(name=self.name), self._beat_value, ex=15)
        self._beat = now
        return True

    def movers(self) -> int:
        """How many movers serve (their heartbeat keys), looked up every few seconds. A mover
        whose heartbeat is gone since the last look died (or stopped): every game waiting for a bot
        or an agent is pushed again (:func:`requeue_waiting`), so the games it held, and the agent
        decisions it was asking, are taken up here when no mover starts in its place (one of the
        launcher's movers dying leaves the others serving)."""
        now = time.monotonic()
        if now - self._counted >= 5:
            names = {key for key in self.client.scan_iter(match=HEARTBEAT.format(name="*"), count=100)}
            gone = self._seen - names
            self._seen = names
            self._count = max(1, len(names))
            self._counted = now
            if gone:
                pushed = requeue_waiting(self.table, self.client, agents=self.desk is not None)
                log.info("mover_gone", movers=sorted(text(n) for n in gone), requeued=pushed)
        return self._count

    def _wake(self) -> None:
        """Push to :data:`WAKE`: an agent's answer arrived while the mover waits."""
        pipe = self.client.pipeline(transaction=False)
        pipe.lpush(self.wake_key, 1)
        pipe.expire(self.wake_key, WAKE_TTL)
        pipe.execute()

    def _pop(self, want: int, block: float) -> list[str]:
        """Up to ``want`` ready game ids: a fair share of what waits (so that every mover
        gets games to play) in one round trip; with ``block`` > 0 (nothing in hand), waiting up to
        ``block`` seconds for the first (or, while the desk asks agents, for an answer: then none)."""
        # looked at on every pop, before anything else: a mover gone is noticed by an idle one, and
        # by one with a full hand too (it returned early here before, so under load the games a
        # dead peer held waited until this mover's hand had room)
        movers = self.movers()
        if want <= 0 or (self._hold_off and block <= 0):  # a lighter peer takes them (balance)
            return []
        if block <= 0:
            return self._share(want, movers)
        # nothing in hand: the blocking pop alone (one round trip, not the share's script first and
        # then it, at every wait), the ready list first; a game it takes is followed by the rest
        # of the mover's share at once
        if self.desk is None:
            first = self.client.brpop(READY, timeout=block)
        else:
            self.desk.sleeping.set()  # set before the look: an answer after it pushes a wake-up
            try:
                if self.desk.has_answers():
                    return []
                first = self.client.brpop([READY, self.wake_key], timeout=block)
            finally:
                self.desk.sleeping.clear()
        if first is None or first[0].decode() != READY:
            return []
        return [first[1].decode()] + (self._share(want - 1, movers) if want > 1 else [])

    def _share(self, want: int, movers: int) -> list[str]:
        """Up to ``want`` ready game ids, at most a 1/``movers`` share of what waits, in one round trip."""
        return [g.decode() for g in self._take(keys=[READY], args=[want, movers]) or []]

    def _block(self, hand: list[tuple[str, int | None]]) -> float:
        """How long the next pop may wait for a ready game: not at all with games in hand or
        answers to commit, briefly while the desk asks or watches, else a second."""
        if hand or (self.desk is not None and self.desk.has_answers()):
            return 0
        return DESK_SLEEP_S if self.desk is not None and self.desk.busy() else 1.0

    def _links(self, fresh: list[str]) -> list[Any] | None:
        """Span links to the traces that queued the games ``fresh`` (``None`` when tracing is off:
        no key is read then)."""
        if not fresh or not tracing.enabled():
            return None
        pipe = self.client.pipeline(transaction=False)
        for game_id in fresh:
            pipe.get(READY_TRACE.format(game_id=game_id))
        found = (tracing.link_to({"traceparent": raw.decode()}) for raw in pipe.execute() if raw)
        return [link for link in found if link is not None] or None

    def round(self, games: list[tuple[str, int | None]],
              answers: list[tuple[Job, Any]] | None = None) -> list[tuple[str, int | None]]:
        """Play one step of each game, and commit the agents' ``answers`` (``(job, asking)`` from
        the desk), in one batch; return the games still waiting on the bus, with the version this
        mover just committed (``None``: read the latest).

        A round has two passes. The first works out every step that is not a search bot's
        decision (:data:`SEARCH_KINDS`: seconds each) and commits them; the second then works out
        the search bots' decisions, one after another, and commits them. So a person's game, or a
        game of fast bots, waits for at most one pass of searches, not for every search game in
        hand: before, a game got one step a pass through the hand, a newly pushed game joined its
        end, and with 12 games of search bots on two cores a person's next turn came 14-27 s
        after their move (a trial). While searches wait, the first pass goes again over the games
        with a person's seat it moved, until none has a cheap step left or :data:`ROUND_S` is spent
        since the round began: the bots between a person's turns move on before the searches
        rather than one step after each (a person facing a ``random`` bot beside search games
        waited a median 2-3 s, p90 11 s, for moves that take milliseconds: ``make bench-people``).
        The games of bots only get one step a round (:meth:`_cheap_again`), and the second pass
        always works out at least one search.

        The games with a person's seat come first in the first pass: a person's game just taken
        from the ready list joined the end of the hand, and a first pass over many games of bots
        whose steps are not near-free (``greedy``) spent :data:`ROUND_S` before it, so it waited for
        the next search too (a trial: 30 games of ``greedy`` bots beside search games, a person
        facing ``random`` waited a median 5.4 s). They are searched before the games of bots only,
        though not two rounds running while one of those waits for its search (they would starve
        while people kept playing).

        The agent decisions met on the way are begun together before the batch (their claims in
        one round trip: :meth:`AgentDesk.begin_many`), and those the batch's own commits leave
        owed right after it (:meth:`_begin_next`), not a round later.

        Each pass stops once a stop is asked (a bot's search under way is given up:
        :mod:`services.bots.cancel`), or once it has taken :data:`ROUND_S` with at least one step
        found: the games not looked at are returned first, so that the next round begins with them
        and every game's bot decides in turn."""
        asks: list[tuple[str, int, tuple[Any, Any, int]]] = []
        ask = {"ask": lambda game_id, seat, known: asks.append((game_id, seat, known))} if self.desk is not None else {}

        todo = list(dict(games).items())
        people = {game_id for game_id, _ in todo if self._person_in(game_id)}  # one look a game (Table.people)
        first, rest = _split(todo, people)
        todo = first + rest
        started = time.monotonic()
        # a stop gives up a bot's search under way too; its iterations keep the heartbeat
        with cancelled_by(self.stopping, progress=self._noted):
            jobs, searches, left = self._pass(todo, _later, ask)
            looked = {g for g, _ in todo} - {g for g, _ in left}
            if asks:
                self.desk.begin_many(asks)
                asks.clear()
            keep = self._batch(jobs, answers or [])
            if searches and not left:
                keep = self._cheap_again(keep, searches, ask, asks, started, people)
            self._searching = (self._searching - looked) | {g for g, _ in searches}
            if searches and not self.stopping.is_set():
                found, _, searches = self._pass(self._search_order(searches, people), self.deciding, ask)
                if asks:
                    self.desk.begin_many(asks)  # a seat asked in the first pass is not asked twice
                keep += self._batch(found, [])
        hand = left + searches + keep  # the games not looked at first: each game's bot decides in turn
        self._searching &= dict(hand).keys()
        return hand

    def balance(self, hand: list[tuple[str, int | None]]) -> list[tuple[str, int | None]]:
        """Every :data:`BALANCE_S`: write this mover's load (:data:`LOAD`: the games in ``hand`` that
        wait for a search bot's decision), read its live peers', and hand back to :data:`READY` the
        search games over its share (the total over the movers that wrote a load lately, rounded up)
        while a peer is under it; returns the hand without them. The games of bots only go, the
        last searched first; a game with a person's seat stays.
        While it holds more than one game over the lightest such peer, it takes no games from the
        ready list (:meth:`_pop`), so the peers take those and the pushes of their people.

        After a hand-back the next look waits twice as long, for the peers to write their loads.

        A game stayed with the mover that first took it, so the hands did not even out: 11 search
        games against 1 after a start, the one game moving ten times as often as the eleven (a
        trial). Raises Redis's errors."""
        now = time.monotonic()
        if now - self._balanced < BALANCE_S:
            return hand
        self._balanced = now
        mine = [game_id for game_id, _ in hand if game_id in self._searching]
        prefix = HEARTBEAT.format(name="")
        peers = [name for name in (text(key)[len(prefix):] for key in self._seen) if name != self.name]
        if not peers:  # a mover alone: no one reads its load, nor hands games to it
            self._hold_off = False
            return hand
        pipe = self.client.pipeline(transaction=False)
        pipe.set(LOAD.format(name=self.name), len(mine), ex=LOAD_TTL)
        for name in peers:
            pipe.get(LOAD.format(name=name))
        loads = [int(load) for load in pipe.execute()[1:] if load is not None]
        if not loads:  # no peer takes games now (none, or each inside one long search)
            self._hold_off = False
            return hand
        lightest = min(loads)
        share = -(-(len(mine) + sum(loads)) // (len(loads) + 1))
        self._hold_off = len(mine) > lightest + 1
        excess = len(mine) - share
        if excess <= 0 or lightest >= share:
            return hand
        given = [game_id for game_id in reversed(mine) if not self._person_in(game_id)][:excess]
        if not given:
            return hand
        push_absent(self.client, given)
        self._searching -= set(given)
        self._balanced = now + BALANCE_S  # the next look once the peers have written their loads since
        log.info("mover_balanced", handed_back=len(given), load=len(mine) - len(given), share=share)
        return [(game_id, version) for game_id, version in hand if game_id not in given]

    def _pass(self, todo: list[tuple[str, int | None]], deciding: Any, ask: dict[str, Any],
              started: float | None = None) -> tuple[list[Job], list[tuple[str, int | None]], list[tuple[str, int | None]]]:
        """One pass of :meth:`round` over ``todo``: ``(jobs, deferred, left)``, the steps found
        (:meth:`Table.next_job` with ``deciding``), the games whose ``deciding`` raised
        :class:`_Later`, and the games not looked at (a stop, a decision given up, or
        :data:`ROUND_S` spent since ``started``, by default the pass's start, with a step found).
        A game gone is let go."""
        jobs: list[Job] = []
        deferred: list[tuple[str, int | None]] = []
        started = time.monotonic() if started is None else started
        for n, (game_id, version) in enumerate(todo):
            if self.stopping.is_set() or (jobs and time.monotonic() - started > ROUND_S):
                # a stop asked mid-round, or a round of slow bots past ROUND_S: the games not yet
                # looked at stay in hand (handed back by leave, or first in the next round) rather
                # than waiting for each one's bot (a round of slow search bots outlasted the stop's
                # grace, and the mover was killed; it committed nothing for 30-90 s)
                return jobs, deferred, todo[n:]
            self.heartbeat()  # a round of slow bots (search at a large budget) outlasted the key's 15 s
            try:
                try:
                    job = self.table.next_job(game_id, version, deciding=deciding, **ask)
                except VersionConflict:  # moved on elsewhere since: read it again
                    job = self.table.next_job(game_id, deciding=deciding, **ask)
            except GameNotFound:
                continue
            except _Later:
                deferred.append((game_id, version))
                continue
            except DecisionCancelled:  # this game and the rest stay in hand, as above
                return jobs, deferred, todo[n:]
            if job is not None:
                jobs.append(job)
        return jobs, deferred, []

    def _cheap_again(self, keep: list[tuple[str, int | None]], searches: list[tuple[str, int | None]],
                     ask: dict[str, Any], asks: list[Any], started: float, people: set[str]) -> list[tuple[str, int | None]]:
        """The first pass of :meth:`round` again over the games of ``keep`` (the games it just
        moved) that have a person's seat (their ids in ``people``), committing each pass, until
        none has a step left that is not a search, a stop is asked, or :data:`ROUND_S` is spent
        since ``started``. The games found to wait for a search join ``searches``; returns the
        games to keep in hand, the games of bots only first, in their order.

        The games of bots only get one step a round, as before: going again over them too moved 24
        games of ``greedy`` bots four to eight times as often beside ``make bench-people``'s games,
        and the search games 25-50 % less often, a person facing a search bot waiting about twice
        as long (docs/benchmarks.md, "The cheap steps go on before the searches")."""
        theirs, bots_only = _split(keep, people)
        while theirs and not self.stopping.is_set() and time.monotonic() - started < ROUND_S:
            more, later, rest = self._pass(theirs, _later, ask, started=started)
            searches += later
            if asks:
                self.desk.begin_many(asks)
                asks.clear()
            theirs = rest + self._batch(more, [])
            if not more:
                break
        return bots_only + theirs

    def _search_order(self, searches: list[tuple[str, int | None]], people: set[str]) -> list[tuple[str, int | None]]:
        """The order of :meth:`round`'s second pass: the games with a person's seat (their ids in
        ``people``) first (a person waits on their bots' decisions), unless the last round's began
        with one of them while a game of bots only waited: then those first, so that people playing
        cannot hold the games of bots for ever. A trial gave the lead only to a game just taken from
        the ready list, for its first search: a person's game whose bot moved several times running
        then waited behind every search in hand for each move after the first (up to 62 s)."""
        theirs, bots = _split(searches, people)
        if not theirs or not bots:
            self._hand_turn = False
            return searches
        if self._hand_turn:
            self._hand_turn = False
            return bots + theirs
        self._hand_turn = True
        return theirs + bots

    def _person_in(self, game_id: str) -> bool:
        """Whether a seat of the game is a person's (:meth:`Table.people`; False once it is gone)."""
        try:
            return bool(self.table.people(game_id))
        except GameNotFound:
            return False

    def _batch(self, jobs: list[Job], answers: list[tuple[Job, Any]]) -> list[tuple[str, int | None]]:
        """Resolve and commit ``jobs`` and the agents' ``answers`` in one batch
        (:meth:`Table.run_jobs`); return the games to keep in hand with their committed versions
        (a step refused is logged, and its game let go)."""
        if not jobs and not answers:
            return []
        self.table.run_jobs(jobs + [job for job, _ in answers])
        keep = self._answered(answers)
        for job in jobs:
            if job.error is not None:
                if isinstance(job.error, VersionConflict):
                    # the game moved on meanwhile (the worker's sweep ran the same phase, a person's
                    # move in a game whose seats move at once): nothing failed, and a steady stream
                    # of these at INFO hid the steps that did fail
                    log.debug("mover_step_superseded", game_id=job.game_id, version=job.base, step=job.commit.kind)
                else:
                    log.info("mover_step_failed", game_id=job.game_id, version=job.base, step=job.commit.kind,
                             error=type(job.error).__name__, reason=str(job.error)[:200])
                continue
            self.steps += 1
            keep.append((job.game_id, job.version))
        if self.desk is not None:
            asked = self._begin_next(keep)
            keep = [(game_id, version) for game_id, version in keep if game_id not in asked]
        return keep

    def _begin_next(self, committed: list[tuple[str, int | None]]) -> set[str]:
        """Begin now the agent decisions that this round's commits (``(game_id, version)``) leave
        owed, where every seat to move is an agent's: their claims in one round trip, their calls
        out before the next round's pop. Returns those games: the desk holds them until their
        answers. A game with a bot or a phase to play next stays in hand (its agent seats, if any,
        are begun by the next round's :meth:`Table.next_job`)."""
        asks: list[tuple[str, int, tuple[Any, Any, int]]] = []
        asked: set[str] = set()
        for game_id, version in committed:
            cached = self.table.projections.peek(game_id)
            if cached is None or cached[2] != version:
                continue
            rules, state = cached[0], cached[1]
            seats = rules.to_move(state)
            try:
                bots = self.table.bots(game_id)
                if (not seats or rules.pending_phase(state)
                        or not all(bots.get(seat, {}).get("kind") == "agent" for seat in seats)):
                    continue
                # what the next round's next_job would do for it (it plays nothing: every seat is an agent's)
                self.table.next_job(game_id, version, ask=lambda g, seat, known: asks.append((g, seat, known)))
            except GameNotFound:  # gone meanwhile (deleted): let go, as the next round would
                pass
            asked.add(game_id)
        if asks:
            self.desk.begin_many(asks)
        return asked

    def _answered(self, answers: list[tuple[Job, Any]]) -> list[tuple[str, int | None]]:
        """Record each agent answer the batch committed (the games to keep in hand), or commit it
        alone (:meth:`AgentDesk.committed`); raises the first error after seeing to them all."""
        keep: list[tuple[str, int | None]] = []
        errors: list[BaseException] = []
        for job, asking in answers:
            try:
                if self.desk.committed(job, asking):
                    self.steps += 1
                    keep.append((job.game_id, job.version))
            except Exception as exc:  # noqa: BLE001 - raised once every answer is seen to
                errors.append(exc)
        if errors:
            raise errors[0]
        return keep

    @staticmethod
    def agent_job(game_id: str, version: int, rules: Any, state: Any, seat: int, move: Any) -> Job:
        """The job that commits an agent's ``move`` (one of the legal moves it was offered at
        ``version``) in a batch."""
        return Job(game_id, version, rules, state, rules.plan(state, seat, move), Commit("move", seat), seat=seat)

    def run(self) -> None:
        """Serve until :attr:`stopping` is set: rounds over the games in hand plus new ready ones.

        While Redis or a domain service cannot be reached (a restart), the mover keeps its games
        in hand, waits (0.1 s doubling to :data:`OUTAGE_PAUSE_MAX`) and tries again, then pushes
        every game waiting for a bot again (:func:`requeue_waiting`: an id popped by a call whose
        answer was lost). A round is safe to repeat: every step is committed with the version
        check. Before, any such failure ended the mover (the crash harness saw it at every
        Redis or service kill that caught a mover mid-round).
        """
        hand: list[tuple[str, int | None]] = []
        pause = 0.0
        beat = threading.Thread(target=self._beat_while_serving, name="heartbeat", daemon=True)
        beat.start()
        while not self.stopping.is_set():
            games = hand
            try:
                if pause:
                    requeue_waiting(self.table, self.client, agents=self.desk is not None)
                self.heartbeat()
                fresh = self._pop(self.batch - len(hand), block=self._block(hand))
                # a game pushed again while in hand moved on elsewhere (a commit made apart from
                # the batch, which hands its game over): read its latest state, not the hand's
                pushed = set(fresh)
                games = ([(g, None if g in pushed else v) for g, v in hand]
                         + [(g, None) for g in fresh if g not in dict(hand)])
                if self.desk is not None and self.desk.has_answers():
                    self.desk.gather(GATHER_S)  # the answers about to arrive join this batch
                answers = self.desk.collect(self.agent_job) if self.desk is not None else []
                if games or answers:
                    with tracing.span("mover round", links=self._links(fresh), longhouse__games=len(games)):
                        hand = self.round(games, answers)
                else:
                    hand = []
                hand = self.balance(hand)
                if self.desk is not None:
                    self.desk.tick()
                pause = 0.0
            except (redis.ConnectionError, redis.TimeoutError, DomainCallFailed) as exc:
                if not outage(exc):
                    raise
                pause = min(OUTAGE_PAUSE_MAX, max(0.1, pause * 2))
                log.warning("mover_outage", error=type(exc).__name__, reason=str(exc)[:200], retry_in=pause)
                hand = [(g, None) for g, _ in games]  # read each again: a commit may have landed
                if self.desk is not None:
                    self.desk.drop_settling()  # their games are pushed again, their claims lapse
                self.stopping.wait(pause)
        beat.join(5)  # no refresh after leave deletes the key
        self.leave([game_id for game_id, _ in hand])

    def leave(self, hand: list[str]) -> None:
        """Stop serving (the loop has ended on a stop request): the desk stops and gives up its
        claims (:meth:`AgentDesk.stop`), the games this mover held (``hand``, and those whose
        agent decisions its desk was asking or watching) are pushed back on :data:`READY` for the
        other movers, or for the movers that start next, and its :data:`HEARTBEAT` is deleted, so
        that a launcher starting it again waits for the new mover's heartbeat, not the old one's.

        Before, the games waited until a peer saw the heartbeat gone (up to 20 s, and never where
        no peer had seen it yet: a mover stopped within seconds of its start). Where Redis cannot
        be reached the games wait for the next start's push (:func:`requeue_waiting`) and the key
        expires."""
        held = list(hand)
        if self.desk is not None:
            held += self.desk.games()
            self.desk.stop()
        held = list(dict.fromkeys(held))  # a game in hand may also have a decision at the desk
        try:
            if held:
                push_absent(self.client, held)
            # only its own: another mover given the same name (LONGHOUSE_MOVER_NAME) keeps its heartbeat
            self._drop_own(keys=[HEARTBEAT.format(name=self.name)], args=[self._beat_value])
            self.client.delete(LOAD.format(name=self.name))  # no peer hands it games
        except redis.RedisError as exc:
            log.warning("mover_left_games", error=type(exc).__name__, games=len(held))
        else:
            log.info("mover_left", games=len(held))


def outage(exc: BaseException) -> bool:
    """True if ``exc`` says Redis or a domain service is out of reach for now (a restart):
    a Redis connection error or time-out, or a domain call UNAVAILABLE or past its deadline."""
    if isinstance(exc, (redis.ConnectionError, redis.TimeoutError)):
        return True
    return isinstance(exc, DomainCallFailed) and exc.code in (grpc.StatusCode.UNAVAILABLE,
                                                              grpc.StatusCode.DEADLINE_EXCEEDED)


def waiting_seats(table: Any, client: redis.Redis, limit: int = 10_000) -> Iterator[tuple[str, int, int, dict]]:
    """``(game_id, version, seat, controller)`` for every seat to move, in an active game
    (newest ``limit``), that a built-in bot or an agent holds: the decisions a sweep may have
    to hand out again. A game that cannot be read is logged and passed over."""
    for game_id in games_in_status(client, "active", limit):
        try:
            bots = table.bots(game_id)
            if not bots:
                continue
            rules, state, version = table.state(game_id)
        except Exception:  # noqa: BLE001 - one unreadable game must not stop the sweep
            log.exception("sweep_failed", game_id=game_id)
            continue
        for seat in rules.to_move(state):
            if seat in bots:
                yield game_id, version, seat, bots[seat]


def requeue_waiting(table: Any, client: redis.Redis, limit: int = 10_000, agents: bool = False) -> int:
    """Push again every game in play (newest ``limit``) that waits for one of its built-in bots
    (or, with ``agents``, for an agent seat the movers ask), or for a pending phase where it has
    such a seat (a mover holding a game of bots plays its phases too): a game popped by a mover
    that died would otherwise wait for ever, and one waiting for its phase until the worker's
    sweep saw it twice (15-30 s, a trial). A game already on the ready list is not pushed again
    (:func:`push_absent`). Returns how many were pushed."""
    games = []
    for game_id in games_in_status(client, ("active", "phase"), limit):  # one walk for both
        try:
            seats = {seat for seat, bot in table.bots(game_id).items() if agents or bot["kind"] != "agent"}
            if not seats:
                continue
            rules, state, _ = table.state(game_id)
        except Exception:  # noqa: BLE001 - one unreadable game must not stop the sweep
            log.exception("sweep_failed", game_id=game_id)
            continue
        if rules.pending_phase(state) or seats & set(rules.to_move(state)):
            games.append(game_id)
    return push_absent(client, games)


def push_absent(client: redis.Redis, games: list[str]) -> int:
    """Push each of ``games`` (ids) on :data:`READY` unless it waits there already, in one round
    trip (:data:`PUSH_ABSENT`; before, one ``LPUSH`` a game). Returns how many were pushed.
    Raises Redis's errors."""
    if not games:
        return 0
    return int(client.register_script(PUSH_ABSENT)(keys=[READY], args=games))


def mover_client(url: str, **options: Any) -> Any:
    """The mover's Redis client (:func:`~services.common.redis_client.connect`), which never sends
    a command again after a connection error.

    A plain client made from a URL does not; a Redis Cluster client does by default (ten
    attempts), and for a mover that loses games: a pop whose reply the broken connection lost had
    taken its games off the ready list, the pop sent again takes others, and the first are then
    held by no one and wait for ever. Raised instead, the error ends the round, and the mover's
    outage handling (:meth:`Mover.run`) pushes every game waiting for a bot or an agent again (a
    round is safe to repeat); the cluster client still learns a changed layout at the error. What
    is safe to send again sends itself again: the agent desk's claims
    (:meth:`~services.phases.agents.Clock.claim_and_clock`)."""
    from redis.backoff import NoBackoff
    from redis.retry import Retry

    return connect(url, retry=Retry(NoBackoff(), 0), **options)


def main(argv: list[str] | None = None) -> None:
    """Build the Table from the settings, sweep, then serve until SIGTERM or SIGINT
    (``--name NAME`` names the mover's heartbeat key; ``--metrics-port PORT`` is where it serves
    its Prometheus metrics, by default ``LONGHOUSE_MOVER_METRICS_PORT``, 0 for none)."""
    import argparse

    s = settings()
    parser = argparse.ArgumentParser(prog="python -m services.phases.mover")
    parser.add_argument("--name", default=f"mover-{os.getpid()}")
    parser.add_argument("--metrics-port", type=int, default=s.mover_metrics_port)
    args = parser.parse_args(argv)
    logs.configure("mover")
    tracing.configure("mover")  # off unless OTEL_EXPORTER_OTLP_ENDPOINT is set
    metrics.serve(args.metrics_port, s.metrics_host)  # the moves it commits (services.common.metrics)
    if s.agent_asker == "mover":
        metrics.init_agent_decisions()  # its desk's decisions, by status
    client = mover_client(s.redis_url)
    table = build_table(client, ports_mode=s.ports_mode, phase_mode=s.phase_mode, settings=s)
    mover = Mover(table, client, name=args.name, agents=s.agent_asker == "mover")
    sys.setswitchinterval(SWITCH_INTERVAL_S)

    def stop(*_: Any) -> None:
        # A mover may be signalled more than once at a stop (its group's SIGTERM, a Ctrl-C reaching
        # the terminal's whole group, an operator's own kill). Further signals
        # are ignored first: a handler run again inside Event.set() would wait for the lock
        # the interrupted set() holds, for ever.
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        mover.stopping.set()

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    mover.announce()  # a dead mover of this name is seen dead from now on, not ready yet
    pushed = requeue_waiting(table, client, agents=mover.desk is not None)
    mover.heartbeat()  # ready (the launcher's probe): written once the start-up push is done
    log.info("mover_ready", batch=mover.batch, requeued=pushed, pid=os.getpid())
    started = time.monotonic()
    mover.run()
    log.info("mover_stopped", steps=mover.steps, seconds=round(time.monotonic() - started, 1))


if __name__ == "__main__":
    main()
