"""Agent decisions asked from the bus movers: the games are held, and their commits batched,
where the agents are asked.

With ``LONGHOUSE_AGENT_ASKER=mover`` (the default), a commit that leaves a game waiting for an
agent seat puts the game on the movers' ready list, as for a bot seat
(:class:`~services.phases.schedulers.BusScheduler`). The mover that pops it hands the decision
to its :class:`AgentDesk`, which keeps every rule of :func:`services.phases.agents.ask_agent`:

1. the decision's start (:meth:`~services.coordinator.table.Table.decision_start`) and its
   claim, a lease its asker renews (here the mover's loop, every
   :data:`~services.phases.agents.RENEW_S`), taken together with the seat's clock (first asked,
   bank), the agent's registry record read beside them, in one round trip
   (:meth:`~services.phases.agents.Clock.claim_and_clock`; two on a Redis Cluster). A live claim
   held elsewhere (a Celery task, another mover) is watched as :func:`~services.phases.agents.ask_agent`
   watches it: left to its holder once renewed, taken over once lapsed;
2. the request (player view, legal moves, time left) and the call, so that the mover's loop
   never waits for an agent: a gRPC agent at an IP address and any webhook are asked without a
   thread of the desk's (:func:`~services.phases.agents.ask_many_async`: the request built and signed
   on the mover's thread; a gRPC call sent as a future, its answer read by its channel's
   reading thread, :class:`~services.agents.grpc_wire.ChannelReader`; a webhook POSTed from the
   process's agent loop, :mod:`services.agents.aio`), once the
   seat's match-start notice has gone out from this process; every other call (a gRPC agent's
   host name, a seat's first decision here) in one of the desk's threads (:data:`THREADS`);
3. the answer, once back, committed with the mover's next batch
   (:meth:`~services.coordinator.table.Table.run_jobs`: the domain services are called once a
   round for every game in it) when the game is still at the version the request showed; a
   failure, a late answer or a game that moved meanwhile (Resource Hog's simultaneous orders) is
   committed alone by :func:`~services.phases.agents.settle`, as a task commits it: a strike and
   the default move, or the forfeit;
4. a decision its thread has not answered by its deadline and a second is a ``timeout``.

A mover that dies leaves its claims to lapse; the mover that starts next pushes every game
waiting for a bot or an agent again (:func:`services.phases.mover.requeue_waiting`), or, when
none starts in its place, the other movers do once its heartbeat is gone
(:meth:`~services.phases.mover.Mover.movers`), and a desk takes each lapsed decision over for the
time its stored deadline leaves. An answer's time is counted to its arrival, not to the batch.
"""

from __future__ import annotations

import queue
import threading
import time
import uuid
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Callable

from redis.exceptions import ConnectionError as RedisConnectionError, TimeoutError as RedisTimeoutError

from services.agents import registry
from services.common import logs
from services.coordinator.store import Commit, GameNotFound
from services.phases import agents

THREADS = 64
"""Agent calls one mover's desk makes at once (more wait for a thread; their clock runs)."""
RECORD_FRESH_S = 0.05
"""Longest wait for a desk thread after which a call reads the agent's record again instead of the
one read with its claim (more than :data:`THREADS` calls out on one mover queue the rest)."""
GRACE_S = 1.0
"""Seconds past a decision's deadline after which the desk stops waiting for its thread and
commits a ``timeout`` (the agent's client is bounded by the deadline itself; this covers a
thread that is not)."""

log = logs.get_logger()


@dataclass(slots=True)
class _Asking:
    """A decision this desk holds the claim of: asked in ``future``, from the state at
    ``version`` (the request's), renewed last at ``renewed`` (monotonic seconds)."""

    decision: agents.Decision
    version: int
    future: Future | None = None
    move: Any = None
    arrived: int | None = None
    renewed: float = field(default_factory=time.monotonic)
    settling: bool = False


@dataclass(slots=True)
class _Opening:
    """A decision :meth:`AgentDesk.begin_many` is about to claim: its controller ``bot``, the game's
    time ``control``, the ``latest`` ``(rules, state, version)`` it was read from, and its claim."""

    key: tuple[str, int]
    bot: dict[str, Any]
    control: Any
    latest: tuple[Any, Any, int]
    request: agents.ClaimRequest


@dataclass(slots=True)
class _Watch:
    """A decision claimed elsewhere: ``held`` is the claim seen at ``since`` (monotonic s)."""

    start: int
    held: str
    since: float


class AgentDesk:
    """Asks the agent decisions of the games a mover holds (module docstring).

    Args:
        table: the mover's Table.
        wake: called when an answer arrives while :attr:`sleeping` is set, from a thread of its own
            (``agent-wake``): never on the thread that brought the answer (the agent loop's, gRPC's
            callback thread), which a slow wake-up (a Redis push) would hold.
        threads: agent calls at once.
    """

    def __init__(self, table: Any, wake: Callable[[], None] | None = None, threads: int = THREADS):
        import services.agents.client  # noqa: F401 - loaded now, not inside the first decision

        self.table = table
        self.clock = agents.clock_for(table)
        self.wake = wake
        self.pool = ThreadPoolExecutor(max(1, threads), thread_name_prefix="agent")
        self.asking: dict[tuple[str, int], _Asking] = {}
        self.watching: dict[tuple[str, int], _Watch] = {}
        self.answered: queue.SimpleQueue[tuple[tuple[str, int], Future, int]] = queue.SimpleQueue()
        self.sleeping = threading.Event()
        self._out: dict[int, int] = {}  # calls submitted and not answered yet, by cohort (begin_many)
        self._cohort = 0  # the last cohort begun
        self._answered_cohort = -1  # the newest cohort an answer waiting to be collected came from
        self._all_in = threading.Condition()  # notified when a call out is answered
        self._wake_due = threading.Event()
        self._stopped = False
        if wake is not None:
            threading.Thread(target=self._waking, name="agent-wake", daemon=True).start()

    # -- starting ----------------------------------------------------------------
    def begin(self, game_id: str, seat: int, known: tuple[Any, Any, int] | None = None) -> None:
        """Take up the decision ``seat`` faces now in ``game_id``: claim it and ask the agent in a
        desk thread; nothing if this desk holds it already, or if the seat is not to move, or not
        an agent's; a claim held elsewhere is watched (:meth:`tick`). ``known``: ``(rules, state,
        version)`` the mover just read or committed (read only: the request is built from it),
        else the latest is read. Raises the store's errors (before any claim is taken). The
        one-decision case of :meth:`begin_many`.

        ``known`` serves only where this mover's batch committed it from a state where one seat
        decided (:meth:`Table.fresh_decision`: the game waits for no one else, so nothing can have
        moved it on unseen); elsewhere, seats deciding at once, another mover may have committed one
        of them in its own batch (no push), and the latest state is read."""
        self.begin_many([(game_id, seat, known)])

    def begin_many(self, decisions: list[tuple[str, int, tuple[Any, Any, int] | None]]) -> None:
        """:meth:`begin` for each ``(game_id, seat, known)``, their claims in one round trip
        (:meth:`~services.phases.agents.Clock.claim_and_clock_many`). The calls begun here are one
        cohort: :meth:`gather` waits for a cohort's calls once one of them has answered, not for
        those begun after it. Raises the store's errors (before any claim is taken, except where
        the claims' own round trip fails: those taken lapse); a game gone meanwhile is passed over,
        and a decision whose claim failed on its game's clock key is logged (``agent_claim_failed``)
        and not asked, while the others are."""
        opened = []
        for game_id, seat, known in {(g, s): (g, s, k) for g, s, k in decisions}.values():
            try:
                o = self._open(game_id, seat, known)
            except GameNotFound:  # gone meanwhile (deleted): nothing to ask
                continue
            if o is not None:
                opened.append(o)
        if not opened:
            return
        results = self.clock.claim_and_clock_many([o.request for o in opened])
        self._cohort += 1
        claimed: list[tuple[_Asking, tuple[Any, Any, int]]] = []
        for o, result in zip(opened, results):
            if isinstance(result, Exception):  # its clock key is broken: the others are asked all the same
                log.error("agent_claim_failed", game_id=o.request.game_id, seat=o.request.seat,
                          version=o.request.start, error=type(result).__name__, reason=str(result)[:200])
                continue
            asking = self._claimed(o, *result)
            if asking is not None:
                claimed.append((asking, o.latest))
        if claimed:
            self._ask_all(claimed)

    def _open(self, game_id: str, seat: int, known: tuple[Any, Any, int] | None) -> "_Opening | None":
        """What :meth:`begin` needs to claim the decision (None: nothing to claim; see there)."""
        key = (game_id, seat)
        if key in self.asking:
            return None
        bot = self.table.bots(game_id).get(seat)
        if not bot or bot.get("kind") != "agent":
            return None
        if known is not None and (self.table.projections.version(game_id) != known[2]
                                  or not self.table.fresh_decision(game_id, known[2])):
            # this process committed a later version (an answer committed alone), or seats decide
            # at once there and another mover may have committed one of them: read the latest
            known = None
        if known is not None:
            rules, state, version = known
            start = self.table.decision_start(game_id, seat, version) if seat in rules.to_move(state) else None
            latest = known
        else:
            start, latest = agents.open_decision(self.table, game_id, seat)
        if start is None:
            self.watching.pop(key, None)
            return None
        control = self.table.control(game_id)
        attempt = f"mover.{uuid.uuid4().hex[:12]}"
        # the agent's record is read with the claim: one round trip, where the thread made another
        request = agents.ClaimRequest(game_id, seat, start, attempt, control.bank_ms, read=(registry.KEY, bot["agent"]))
        return _Opening(key, bot, control, latest, request)

    def _claimed(self, o: "_Opening", taken: bool, held: str, asked: int, bank: int, stored: Any) -> "_Asking | None":
        """After the claim: the decision to ask (:meth:`_ask_all`), or None where the claim is held
        elsewhere (then watched)."""
        key, bot, game_id, seat, start = o.key, o.bot, o.request.game_id, o.request.seat, o.request.start
        attempt = o.request.token
        watch = self.watching.pop(key, None)
        if not taken:
            if watch is not None and watch.start == start and watch.held != held:
                # its holder renewed the claim: alive, it commits and hands the game on
                log.info("agent_decision", game_id=game_id, seat=seat, version=start, agent=bot.get("agent"),
                         outcome="busy", task=attempt)
                return None
            if watch is None or watch.start != start:
                watch = _Watch(start, held, time.monotonic())
            self.watching[key] = watch
            return None
        decision = agents.Decision(game_id, seat, start, bot, o.control, attempt, attempt, asked, bank, stored)
        asking = self.asking[key] = _Asking(decision, o.latest[2])
        return asking

    def _ask_all(self, claimed: list[tuple[_Asking, tuple[Any, Any, int]]]) -> None:
        """Ask the claimed decisions (each with the ``(rules, state, version)`` its request shows) as
        one cohort: from the loop's thread where the agent's client can, the decisions for one agent
        together (:func:`~services.phases.agents.ask_many_async`: one ``ChooseMoves`` call to a gRPC
        agent that serves it), each future completed by the client's callback with the outcome
        :meth:`_ask` gives; the others in desk threads."""
        cohort = self._cohort
        with self._all_in:
            self._out[cohort] = self._out.get(cohort, 0) + len(claimed)
        asks = []
        for asking, latest in claimed:
            asking.future = Future()
            asking.future.set_running_or_notify_cancel()
            asks.append((asking.decision, latest, asking.future.set_result))
        sent = agents.ask_many_async(self.table, self.clock, asks)
        for (asking, latest), was_sent in zip(claimed, sent):
            if not was_sent:
                asking.future = self.pool.submit(self._ask, asking.decision, latest, time.monotonic())
            d = asking.decision
            asking.future.add_done_callback(
                lambda future, key=(d.game_id, d.seat), cohort=cohort: self._answered(key, future, cohort))

    def _ask(self, decision: agents.Decision, latest: tuple[Any, Any, int], read_at: float) -> Any:
        """In a desk thread: :func:`~services.phases.agents.ask_safely`. The agent's record read
        with the claim at ``read_at`` (monotonic s) serves only if the call waited for a thread
        less than :data:`RECORD_FRESH_S`; else it is read again here, so that a removal or a
        rotation meanwhile counts."""
        if time.monotonic() - read_at > RECORD_FRESH_S:
            decision.record = agents.NOT_READ
        return agents.ask_safely(self.table, self.clock, decision, latest)

    def _answered(self, key: tuple[str, int], future: Future, cohort: int) -> None:
        self.answered.put((key, future, agents.now_ms()))  # the answer's time, not the mover's
        with self._all_in:
            left = self._out.pop(cohort) - 1
            if left:
                self._out[cohort] = left
            self._answered_cohort = max(self._answered_cohort, cohort)
            self._all_in.notify_all()
        if self.wake is not None and self.sleeping.is_set():
            self._wake_due.set()

    def _waking(self) -> None:
        """The ``agent-wake`` thread: calls :attr:`wake` once for the answers that came since it last did."""
        while True:
            self._wake_due.wait()
            self._wake_due.clear()
            if self._stopped:
                return
            try:
                self.wake()  # type: ignore[misc]
            except Exception:  # noqa: BLE001 - a lost wake-up costs the mover's short sleep only
                log.warning("agent_wake_failed")

    # -- the mover's round --------------------------------------------------------
    def busy(self) -> bool:
        """True while a decision is being asked or watched (the mover then sleeps briefly)."""
        return bool(self.asking or self.watching)

    def gather(self, timeout: float) -> None:
        """Wait until every call this desk has out of the cohorts an answer waiting to be committed
        came from, and of those begun before them, is answered, or ``timeout`` seconds have passed
        (the mover, holding an answer, lets the others about to arrive join its batch:
        :data:`services.phases.mover.GATHER_S`). Calls begun after them (the decisions the last
        batch's commits began) have only just gone out, and are not waited for. A call's deadline
        does not move: an answer's time is its arrival."""
        with self._all_in:
            self._all_in.wait_for(lambda: not any(c <= self._answered_cohort for c in self._out), timeout)

    def has_answers(self) -> bool:
        """True if an answer waits to be committed."""
        return not self.answered.empty()

    def collect(self, job_of: Callable[..., Any]) -> list[tuple[Any, "_Asking"]]:
        """The answers that arrived: each legal answer in time to a game still at the request's
        version as ``(job, asking)`` for the mover's batch (``job_of(game_id, version, rules,
        state, seat, move)`` makes the job); every other answer committed here
        (:func:`~services.phases.agents.settle`). Raises the first store error met, after the
        others are dealt with (the mover's outage handling then pushes the games again)."""
        jobs: list[tuple[Any, _Asking]] = []
        errors: list[BaseException] = []
        with self._all_in:  # the answers taken now are no longer waiting (an answer arriving meanwhile sets it again)
            self._answered_cohort = -1
        while not self.answered.empty():
            key, future, arrived = self.answered.get_nowait()
            asking = self.asking.get(key)
            if asking is None or asking.settling or asking.future is not future:
                continue  # settled already (past its deadline), or another decision's answer
            asking.arrived = arrived
            failure, detail, move = asking.future.result()  # ask_safely never raises
            try:
                job = self._job(asking, failure, detail, move, job_of)
            except Exception as exc:  # noqa: BLE001 - a store error: after the other answers
                self.asking.pop(key, None)
                errors.append(exc)
                continue
            if job is not None:
                asking.settling = True
                jobs.append((job, asking))
        if errors:
            raise errors[0]
        return jobs

    def _job(self, asking: _Asking, failure: str | None, detail: str, move: Any,
             job_of: Callable[..., Any]) -> Any:
        d = asking.decision
        failure, detail, move, used = agents.late(d, failure, detail, move, asking.arrived)
        # the mover's own cache, at the request's version unless the game moved meanwhile (then the
        # decision is committed alone, where it is checked against the latest state); a commit
        # elsewhere that the cache missed makes the batch's commit fail, and the same happens then
        cached = self.table.projections.peek(d.game_id)
        if failure is None and cached is not None and cached[2] == asking.version:
            rules, state = cached[0], cached[0].clone(cached[1])
            if d.seat in rules.to_move(state):
                current = asking.version
                asking.move = move
                try:
                    return job_of(d.game_id, current, rules, state, d.seat, move)
                except Exception:  # noqa: BLE001 - committed alone, where the move is checked again
                    log.exception("agent_job_failed", game_id=d.game_id, seat=d.seat, version=d.start)
        self._settle(asking, failure, detail, move)
        return None

    def _settle(self, asking: _Asking, failure: str | None, detail: str, move: Any) -> str:
        """Commit the decision alone (:func:`~services.phases.agents.settle`) and let it go."""
        d = asking.decision
        try:
            return agents.settle(self.table, self.clock, d, failure, detail, move, asking.arrived)
        finally:
            self.asking.pop((d.game_id, d.seat), None)

    def committed(self, job: Any, asking: _Asking) -> bool:
        """After the batch: record a decision whose job committed (True), or commit it alone as a
        task would (the game moved on meanwhile: a simultaneous decision's other seat, or the
        domain call failed) and return False."""
        d = asking.decision
        if job.error is None:
            self.asking.pop((d.game_id, d.seat), None)
            used = (asking.arrived or agents.now_ms()) - d.asked  # charged to the answer, not the batch
            agents.recorded(self.clock, d, {"version": job.version, "move": asking.move}, None, "", used)
            return True
        self._settle(asking, None, "", asking.move)
        return False

    def tick(self) -> None:
        """Renew the claims of the decisions being asked (every :data:`~services.phases.agents.RENEW_S`),
        strike a decision whose thread is past its deadline and :data:`GRACE_S`, and look again at
        the watched ones (every :data:`~services.phases.agents.POLL_S`). Raises the store's errors."""
        now = time.monotonic()
        for asking in list(self.asking.values()):
            if asking.settling:
                continue
            d = asking.decision
            if agents.now_ms() > d.asked + d.control.move_ms + d.bank + GRACE_S * 1000:
                asking.settling = True
                self._settle(asking, "timeout", "no answer by the decision's deadline", None)
                continue
            if now - asking.renewed >= agents.RENEW_S:
                asking.renewed = now
                if not self.clock.renew(d.game_id, d.seat, d.start, d.attempt):
                    log.warning("agent_claim_lost", game_id=d.game_id, seat=d.seat, start=d.start)
        for key, watch in list(self.watching.items()):
            if now - watch.since >= agents.POLL_S:
                watch.since = now
                self.begin(*key)

    def games(self) -> list[str]:
        """The games whose decisions this desk asks or watches (the mover holds them meanwhile)."""
        return list(dict.fromkeys(game_id for game_id, _ in [*self.asking, *self.watching]))

    def drop_settling(self) -> None:
        """Forget the answers handed to a batch that did not finish (an outage): their claims
        lapse, and their games, pushed again, are asked again."""
        for key, asking in list(self.asking.items()):
            if asking.settling:
                del self.asking[key]

    def stop(self) -> None:
        """Stop asking (the mover is stopping): queued calls are dropped, running ones cut (the
        process's webhook calls, :func:`~services.agents.client.abort_calls`; its clients closed,
        which cancels a gRPC call, :func:`~services.phases.agents.close_clients`), so no thread
        holds the process past its stop; then the claims of the decisions not yet committed are
        given up (:meth:`~services.phases.agents.Clock.renew` with ``release``), so that the mover
        that takes their games up asks them at once instead of after their lease
        (:data:`~services.phases.agents.LEASE_MS`) charged to the agent, and, for a decision whose
        time had not run out, with its clock started afresh (``restart``): the stop cut the call,
        and the agent is not charged the time until the next mover asks. A claim that cannot be
        given up (its game's clock key) lapses; where Redis cannot be reached the rest lapse too
        (no second try). Called once the mover's loop has ended: nothing of this desk commits
        afterwards."""
        from services.agents.client import abort_calls

        self._stopped = True
        self._wake_due.set()
        self.pool.shutdown(wait=False, cancel_futures=True)
        abort_calls()
        agents.close_clients()
        held = list(self.asking.values())
        self.asking.clear()
        now = agents.now_ms()
        for n, asking in enumerate(held):
            d = asking.decision
            # the engine cut the call, not the agent: a decision still within its time is asked
            # again with its clock started afresh; one whose time had run out keeps it (a strike)
            fresh = now < d.asked + d.control.move_ms + d.bank
            try:
                self.clock.renew(d.game_id, d.seat, d.start, d.attempt, release=True, restart=fresh)
            except (RedisConnectionError, RedisTimeoutError) as exc:  # unreachable: the rest lapse too
                log.warning("agent_claims_not_released", error=type(exc).__name__, left=len(held) - n)
                break
            except Exception as exc:  # noqa: BLE001 - this game's clock key only: it lapses, the others go on
                log.warning("agent_claim_not_released", game_id=d.game_id, seat=d.seat, error=type(exc).__name__)
