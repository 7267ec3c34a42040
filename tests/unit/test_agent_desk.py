"""Agent decisions asked from a mover (services/phases/agent_desk.py) on an embedded table: the
desk keeps every rule of the task that asks them (services/phases/agents.py), so the same
answers make the same event log, byte for byte, whether the commits are batched or a task's;
seats deciding at once are each asked once and each answer counts; a failure is a strike and the
default move; a live claim held elsewhere is left to its holder and a lapsed one taken over with
its stored first ask; a thread past the deadline is a timeout; an answer wakes a waiting mover."""

from __future__ import annotations

import threading
import time

import pytest
from redis.crc import key_slot
from redis.exceptions import ResponseError

from services.agents.client import AgentFailure
from services.coordinator.store import VersionConflict
from services.phases import agent_desk, agents as phase_agents
from services.phases.agent_desk import AgentDesk
from services.phases.mover import Mover, WAKE
from services.phases.schedulers import READY
from services.rules.core import GameConfig
from tests.support.wait import wait_for
from tests.unit.test_agent_decisions import Agent, agent_game, first_decision, strikes


def drive(table, scheduler, desk: AgentDesk, game_id: str, most: int = 400) -> int:
    """A mover's rounds over one game (:meth:`Mover.round`): its next step (a phase, or an agent
    seat to move handed to the desk), and the desk's answers, committed in one batch; what a commit
    made alone owes (a strike, a crossed answer) goes to the desk too. Returns the rounds run."""
    scheduler.tasks.clear()
    for n in range(most):
        job = table.next_job(game_id, ask=desk.begin)
        for _, seat, _ in scheduler.tasks:
            desk.begin(game_id, seat)
        scheduler.tasks.clear()
        if job is None:
            if not desk.busy():
                return n
            wait_for(lambda: desk.has_answers() or not desk.busy(), 10, "an answer", interval=0.002)
        answers = desk.collect(Mover.agent_job)
        table.run_jobs(([job] if job else []) + [j for j, _ in answers])
        for j, asking in answers:
            desk.committed(j, asking)
    return most


def log_of(table, game_id: str) -> list[tuple]:
    return [(e.version, e.kind, e.seat, [(ev.type, ev.data) for ev in e.events]) for e in table.store.read(game_id)]


class Held(Agent):
    """Answers once ``gate`` opens (or after 10 s), whatever its time."""

    def __init__(self, gate: threading.Event) -> None:
        super().__init__()
        self.gate = gate

    def choose(self, payload, timeout_s):
        self.gate.wait(10)
        return super().choose(payload, timeout_s)


def test_batched_answers_make_the_log_a_task_makes(monkeypatch):
    """rules index: none (the hosted path; the game's rules are the embedded table's)."""
    by_task, by_desk = Agent(), Agent()
    table, scheduler, game_id = agent_game("noggin", 3, by_task, monkeypatch)
    for _ in range(300):
        if not scheduler.tasks:
            break
        phase_agents.ask_agent(table, *scheduler.tasks.pop(0))
    monkeypatch.setattr(phase_agents, "client_for", lambda record: by_desk)
    other, owed, other_id = agent_game("noggin", 3, by_desk, monkeypatch)
    desk = AgentDesk(other)
    try:
        rounds = drive(other, owed, desk, other_id, most=150)
    finally:
        desk.stop()
    assert rounds == 150 or not desk.busy()
    done = len([e for e in other.store.read(other_id) if e.kind == "move"])
    assert done > 40 and by_desk.requests == by_task.requests[:len(by_desk.requests)]
    assert log_of(other, other_id) == log_of(table, game_id)[:len(log_of(other, other_id))]
    assert strikes(other, other_id) == []


class ThreadlessAgent(Agent):
    """An agent whose client asks without a thread (as a gRPC agent at an IP address): the
    answer comes back on a thread of the client's own, as gRPC's callback does; its calls counted."""

    asks_without_thread = True

    def __init__(self, fail: Exception | None = None) -> None:
        super().__init__(fail)
        self.threadless = 0

    def choose_async(self, payload, timeout_s, done):
        with self.lock:
            self.threadless += 1
        try:
            outcome = self.choose(payload, timeout_s)
        except AgentFailure as exc:
            outcome = exc
        threading.Thread(target=done, args=(outcome,)).start()

    def choose_many_async(self, asks):  # each alone, as a client does for an agent without batches
        for payload, timeout_s, done in asks:
            self.choose_async(payload, timeout_s, done)


def counting_submits(desk: AgentDesk) -> list:
    """The calls handed to the desk's threads (wrapping its pool's ``submit``)."""
    submitted: list = []
    submit = desk.pool.submit

    def counted(fn, *args, **kwargs):
        submitted.append(args[0].seat if args else None)
        return submit(fn, *args, **kwargs)

    desk.pool.submit = counted
    return submitted


def test_an_agent_asked_without_a_thread_makes_the_same_log(monkeypatch):
    """services/phases/agents.py ask_many_async: once a seat's match-start notice has gone out (its
    first decision, in a desk thread), its decisions are asked from the loop without a thread,
    and the answers make the log that answers asked in threads make, byte for byte.
    rules index: none (the hosted path)."""
    by_threads, threadless = Agent(), ThreadlessAgent()
    table, owed, game_id = agent_game("noggin", 3, by_threads, monkeypatch)
    desk = AgentDesk(table)
    try:
        drive(table, owed, desk, game_id, most=150)
    finally:
        desk.stop()
    monkeypatch.setattr(phase_agents, "client_for", lambda record: threadless)
    other, other_owed, other_id = agent_game("noggin", 3, threadless, monkeypatch)
    desk = AgentDesk(other)
    submitted = counting_submits(desk)
    try:
        drive(other, other_owed, desk, other_id, most=150)
    finally:
        desk.stop()
    assert sorted(submitted) == [0, 1, 2]  # each seat's first decision: its start notice
    assert threadless.threadless > 40 and threadless.threadless + 3 == len(threadless.requests)
    assert threadless.requests == by_threads.requests[:len(threadless.requests)]
    assert log_of(other, other_id) == log_of(table, game_id)[:len(log_of(other, other_id))]
    assert strikes(other, other_id) == []


def test_a_failure_of_a_call_without_a_thread_is_a_strike(monkeypatch):
    agent = ThreadlessAgent()
    table, game_id, seat, version = first_decision(agent, monkeypatch)
    desk = AgentDesk(table)
    try:
        desk.clock.once(game_id, f"started:{seat}")  # its start notice went out before
        agent.fail = AgentFailure("crash", "agent a failed ChooseMove with gRPC status INTERNAL")
        desk.begin(game_id, seat)
        wait_for(desk.has_answers, 10, "the answer")
        assert desk.collect(Mover.agent_job) == []  # committed alone: a strike
    finally:
        desk.stop()
    assert agent.threadless == 1
    assert strikes(table, game_id) == [{"seat": seat, "reason": "crash", "strikes": 1}]
    assert table.state(game_id)[2] == version + 1 and not desk.busy()


def test_a_fault_building_a_threadless_request_is_a_strike_from_the_thread_not_a_mover_crash(monkeypatch):
    """services/phases/agents.py ask_many_async: a fault while the request is built in the mover's loop
    (here the player view) is left to the desk thread's ask, which makes it a crash strike as for
    any decision; the loop goes on."""
    agent = ThreadlessAgent()
    table, game_id, seat, version = first_decision(agent, monkeypatch)
    rules = table.state(game_id)[0]

    def broken_view(state, seat):
        raise RuntimeError("the view broke")

    monkeypatch.setattr(rules, "view", broken_view)
    desk = AgentDesk(table)
    submitted = counting_submits(desk)
    try:
        desk.clock.once(game_id, f"started:{seat}")  # its start notice went out before
        desk.begin(game_id, seat)  # raised out of the loop before
        wait_for(desk.has_answers, 10, "the answer")
        assert desk.collect(Mover.agent_job) == []  # committed alone: a strike
    finally:
        desk.stop()
    assert submitted == [seat] and agent.threadless == 0
    assert strikes(table, game_id) == [{"seat": seat, "reason": "crash", "strikes": 1}]


class BatchingAgent(ThreadlessAgent):
    """A threadless agent that records how many decisions each ``choose_many_async`` holds (as a
    gRPC agent serving ChooseMoves is asked them in one call), or raises ``fault`` there."""

    def __init__(self, fault: Exception | None = None) -> None:
        super().__init__()
        self.batches: list[int] = []
        self.fault = fault

    def choose_many_async(self, asks):
        self.batches.append(len(asks))
        if self.fault is not None:
            raise self.fault
        for payload, timeout_s, done in asks:
            self.choose_async(payload, timeout_s, done)


def games_deciding(agent, monkeypatch, n: int) -> tuple:
    """``n`` 2-seat Noggin games of ``agent``'s seats on one table, each at its first decision, whose
    seats' start notices went out before: ``(table, desk, [(game_id, seat, version)])``."""
    table, game_id, seat, version = first_decision(agent, monkeypatch)
    decisions = [(game_id, seat, version)]
    for k in range(n - 1):
        other = table.create(GameConfig(game="noggin", players=2), seed=f"other-{k}", bots=table.bots(game_id))
        rules, state, at = table.state(other)
        decisions.append((other, rules.to_move(state)[0], at))
    desk = AgentDesk(table)
    for game, seat, _ in decisions:
        desk.clock.once(game, f"started:{seat}")
    return table, desk, decisions


def test_the_decisions_a_round_begins_for_one_agent_are_asked_together(monkeypatch):
    """services/phases/agent_desk.py ``AgentDesk.begin_many``: the decisions begun together that go
    to one agent reach its client in one ``choose_many_async`` (one ChooseMoves call to a gRPC
    agent that serves it), and each answer is committed in the mover's batch as before.
    rules index: none (the hosted path)."""
    agent = BatchingAgent()
    table, desk, decisions = games_deciding(agent, monkeypatch, 4)
    submitted = counting_submits(desk)
    try:
        desk.begin_many([(game, seat, None) for game, seat, _ in decisions])
        wait_for(lambda: desk.answered.qsize() == 4, 10, "the four answers")
        answers = desk.collect(Mover.agent_job)
        table.run_jobs([job for job, _ in answers])
        assert [desk.committed(job, asking) for job, asking in answers] == [True] * 4
    finally:
        desk.stop()
    assert agent.batches == [4] and submitted == []
    assert [table.state(game)[2] for game, _, _ in decisions] == [version + 1 for _, _, version in decisions]
    assert all(strikes(table, game) == [] for game, _, _ in decisions)


def test_a_fault_while_asking_decisions_together_is_a_crash_for_each_not_a_mover_crash(monkeypatch):
    """services/phases/agents.py ``ask_many_async``: a fault of the engine's while the client sends
    a group of decisions is each one's ``crash`` strike; the mover's loop goes on."""
    agent = BatchingAgent(fault=RuntimeError("the batch broke"))
    table, desk, decisions = games_deciding(agent, monkeypatch, 3)
    try:
        desk.begin_many([(game, seat, None) for game, seat, _ in decisions])  # raised nothing
        wait_for(lambda: desk.answered.qsize() == 3, 10, "the three outcomes")
        assert desk.collect(Mover.agent_job) == []  # each committed alone: a strike
    finally:
        desk.stop()
    assert agent.batches == [3]
    assert [strikes(table, game) for game, _, _ in decisions] == [[{"seat": seat, "reason": "crash", "strikes": 1}]
                                                                   for _, seat, _ in decisions]


def test_seats_deciding_at_once_are_each_asked_once_and_each_answer_counts(monkeypatch):
    agent = Agent()
    table, scheduler, game_id = agent_game("resource_hog", 3, agent, monkeypatch)
    desk = AgentDesk(table)
    try:
        drive(table, scheduler, desk, game_id, most=100)
    finally:
        desk.stop()
    moves = [entry for entry in table.store.read(game_id) if entry.kind == "move"]
    assert len(moves) > 30 and len(set(agent.requests)) == len(agent.requests) == len(moves)
    assert any(len({m.seat for m in moves[i:i + 3]}) == 3 for i in range(len(moves) - 2))
    assert strikes(table, game_id) == []


def test_a_failure_while_asking_is_a_strike_and_the_default_move(monkeypatch):
    agent = Agent(fail=RuntimeError("the agent's client broke"))
    table, game_id, seat, version = first_decision(agent, monkeypatch)
    desk = AgentDesk(table)
    try:
        desk.begin(game_id, seat)
        wait_for(desk.has_answers, 10, "the answer")
        assert desk.collect(Mover.agent_job) == []  # committed alone: a strike
    finally:
        desk.stop()
    assert strikes(table, game_id) == [{"seat": seat, "reason": "crash", "strikes": 1}]
    assert table.state(game_id)[2] == version + 1 and not desk.busy()


def test_a_live_claim_is_left_to_its_holder_and_a_lapsed_one_taken_over(monkeypatch):
    monkeypatch.setattr(phase_agents, "POLL_S", 0.01)
    agent = Agent()
    table, game_id, seat, version = first_decision(agent, monkeypatch)
    clock = phase_agents.clock_for(table)
    assert clock.claim(game_id, seat, version, "task.1")[0]
    asked = clock.asked_at(game_id, seat, version)
    desk = AgentDesk(table)
    try:
        desk.begin(game_id, seat)
        assert desk.busy() and not desk.asking  # watched, not asked
        time.sleep(0.02)
        assert clock.renew(game_id, seat, version, "task.1")  # its holder is alive
        desk.tick()
        assert not desk.busy() and agent.requests == []  # left to it
        desk.begin(game_id, seat)
        assert clock.renew(game_id, seat, version, "task.1", lease_ms=0)  # ... which died: its lease lapses
        time.sleep(0.02)
        desk.tick()
        assert desk.asking  # taken over
        wait_for(desk.has_answers, 10, "the answer")
        (job, asking), = desk.collect(Mover.agent_job)
        table.run_jobs([job])
        assert desk.committed(job, asking)
    finally:
        desk.stop()
    assert agent.requests == [(seat, version)] and table.state(game_id)[2] == version + 1
    assert clock.asked_at(game_id, seat, version) == asked  # its time counted from the first ask


def test_a_thread_past_the_deadline_is_a_timeout(monkeypatch):
    monkeypatch.setattr(agent_desk, "GRACE_S", 0.0)
    release = threading.Event()
    agent = Held(release)  # ignores its time: the desk stops waiting for it
    table, game_id, seat, version = first_decision(agent, monkeypatch, control={"move_ms": 50, "bank_ms": 0, "max_strikes": 3})
    desk = AgentDesk(table)
    try:
        desk.begin(game_id, seat)
        wait_for(lambda: (desk.tick(), strikes(table, game_id))[1], 10, "the strike")
        release.set()
        wait_for(desk.has_answers, 10, "the late answer")
        assert desk.collect(Mover.agent_job) == []  # its late answer counts for nothing
    finally:
        release.set()
        desk.stop()
    assert strikes(table, game_id) == [{"seat": seat, "reason": "timeout", "strikes": 1}]
    assert table.state(game_id)[2] == version + 1


def test_a_stopping_desk_gives_up_its_claims_so_the_next_asker_takes_them_at_once(monkeypatch):
    """A mover stopped (a deploy, the launcher's stop) gave its decisions still out no more thought: their claims held for the rest of their lease
    (``LEASE_MS``), and the mover that took their games up waited that long, charged to the agent.
    Now the stop gives them up."""
    release = threading.Event()
    agent = Held(release)
    table, game_id, seat, version = first_decision(agent, monkeypatch)
    clock = phase_agents.clock_for(table)
    desk = AgentDesk(table)
    try:
        desk.begin(game_id, seat)
        assert desk.games() == [game_id]  # the mover hands it back as it stops (Mover.leave)
        assert not clock.claim(game_id, seat, version, "task.next")[0]  # held by the desk meanwhile
    finally:
        desk.stop()
        release.set()
    assert clock.claim(game_id, seat, version, "task.next")[0]  # given up: taken at once


@pytest.mark.parametrize("control, later, fresh", [
    ({"move_ms": 60_000, "bank_ms": 1_000, "max_strikes": 3}, 2_500, True),
    ({"move_ms": 1_000, "bank_ms": 500, "max_strikes": 3}, 2_500, False),
])
def test_a_stopping_desk_restarts_the_clock_of_a_decision_still_within_its_time(monkeypatch, control, later, fresh):
    """A mover stopped (a deploy) cut its calls, and the next asker asked for the time left before
    the first ask's deadline: the agent was charged the time until a peer took the game up (2.3-4 s
    in trials). Now a decision still within its time is given back with its clock started afresh;
    one whose time had run out keeps its first ask (its strike stands)."""
    now = [1_000_000]
    monkeypatch.setattr(phase_agents, "now_ms", lambda: now[0])
    release = threading.Event()
    table, game_id, seat, version = first_decision(Held(release), monkeypatch, control=control)
    clock = phase_agents.clock_for(table)
    desk = AgentDesk(table)
    try:
        desk.begin(game_id, seat)
        assert clock.asked_at(game_id, seat, version) == 1_000_000
        now[0] += later
    finally:
        desk.stop()
        release.set()
    assert clock.asked_at(game_id, seat, version) == (1_000_000 + later if fresh else 1_000_000)


def test_a_claim_that_cannot_be_given_up_leaves_the_others_given_up(monkeypatch):
    """One game's claim failing to be given up (its clock key) stopped the desk giving up the rest."""
    release = threading.Event()
    agent = Held(release)
    table, first, seat, version = first_decision(agent, monkeypatch)
    agent_id = table.bots(first)[seat]["agent"]
    second = table.create(GameConfig(game="noggin", players=2), seed="second",
                          bots={s: {"kind": "agent", "agent": agent_id} for s in range(2)},
                          control={"move_ms": 60_000, "bank_ms": 1_000, "max_strikes": 3})
    rules, state, second_version = table.state(second)
    second_seat = rules.to_move(state)[0]
    clock = phase_agents.clock_for(table)
    renew = clock.renew

    def broken_for_first(game_id, *args, **kwargs):
        if game_id == first:
            raise ResponseError("WRONGTYPE Operation against a key holding the wrong kind of value")
        return renew(game_id, *args, **kwargs)

    desk = AgentDesk(table)
    try:
        desk.begin_many([(first, seat, None), (second, second_seat, None)])
        assert len(desk.asking) == 2
        monkeypatch.setattr(clock, "renew", broken_for_first)
    finally:
        desk.stop()
        release.set()
    assert clock.claim(second, second_seat, second_version, "task.next")[0]  # given up all the same


def test_an_answer_that_meets_a_moved_game_is_committed_alone(monkeypatch):
    agent = Agent()
    table, game_id, seat, version = first_decision(agent, monkeypatch)
    desk = AgentDesk(table)
    try:
        desk.begin(game_id, seat)
        wait_for(desk.has_answers, 10, "the answer")
        (job, asking), = desk.collect(Mover.agent_job)
        job.error = VersionConflict(version, version + 1)  # its batch lost the race
        assert not desk.committed(job, asking)
    finally:
        desk.stop()
    # committed alone, at the version it was asked at: the move stands, once
    assert table.state(game_id)[2] == version + 1 and strikes(table, game_id) == []
    assert [e.seat for e in table.store.read(game_id) if e.kind == "move"] == [seat]


def test_an_answer_wakes_a_mover_waiting_for_ready_games(redis_client, monkeypatch):
    gate = threading.Event()

    class Slow(Agent):
        def choose(self, payload, timeout_s):
            gate.wait(10)
            return super().choose(payload, timeout_s)

    agent = Slow()
    table, game_id, seat, _ = first_decision(agent, monkeypatch)
    mover = Mover(table, redis_client, name="desk-test", agents=True)
    # one BRPOP waits on both lists, on a Redis Cluster too: the same hash slot
    assert key_slot(READY.encode()) == key_slot(mover.wake_key.encode()) and mover.wake_key == WAKE.format(name="desk-test")
    try:
        mover.desk.begin(game_id, seat)
        threading.Timer(0.3, gate.set).start()
        began = time.monotonic()
        assert mover._pop(1, block=5.0) == []  # woken by the answer, long before the 5 s
        assert time.monotonic() - began < 4 and mover.desk.has_answers()
    finally:
        gate.set()
        mover.desk.stop()
        redis_client.delete(mover.wake_key)


def test_a_mover_plays_whole_games_of_agents_deciding_at_once(redis_client, monkeypatch):
    """A mover plays games of agents answering Resource Hog's simultaneous orders to their end: an
    answer committed apart from a batch (its game moved meanwhile) hands the game over, and a game
    pushed while the mover holds it is read at its latest version (before, such a game waited for
    ever for a seat that the held, older version did not show to move)."""
    from services.phases.schedulers import BusScheduler

    agent = Agent()
    table, queued, first = agent_game("resource_hog", 2, agent, monkeypatch)
    games = [first] + [table.create(GameConfig(game="resource_hog", players=2), seed=f"desk-{n}",
                                    bots=table.bots(first)) for n in range(3)]
    queued.tasks.clear()
    table.scheduler = BusScheduler(redis_client, queued, agents_on_bus=True)
    for game_id in games:
        redis_client.lpush(READY, game_id)
    mover = Mover(table, redis_client, name="desk-test", agents=True)
    thread = threading.Thread(target=mover.run, daemon=True)
    thread.start()
    try:
        wait_for(lambda: all(table.summary(g)["status"] == "over" for g in games), 30, "every game to end")
    finally:
        mover.stopping.set()
        thread.join(10)
    moves = 0
    for game_id in games:
        assert strikes(table, game_id) == []
        moves += len([e for e in table.store.read(game_id) if e.kind == "move"])
    assert moves > 80 and len(agent.requests) == moves  # one request a decision: none asked twice


def test_views_and_legal_moves_are_plain_json_data_in_every_game():
    """An agent's request carries the view and the moves as their plain JSON text, unwalked
    (services/phases/agents.py ``_ask``): that text must be the canonical JSON of each, at every
    state of seeded games of the three games, for every seat."""
    import random

    from services.coordinator.table import embedded_table
    from services.rules.core import canonical_json
    from services.rules.core.canonical import plain_json

    table = embedded_table()
    seen = 0
    for game, players in (("noggin", 3), ("gnomes", 3), ("resource_hog", 3)):
        game_id = table.create(GameConfig(game=game, players=players), seed=f"plain-{game}")
        rng = random.Random(game)
        for _ in range(120):
            rules, state, version = table.state(game_id)
            for seat in range(players):
                assert plain_json(rules.view(state, seat)) == canonical_json(rules.view(state, seat))
                assert all(plain_json(m) == canonical_json(m) for m in rules.legal_moves(state, seat))
                seen += 1
            deciding = rules.to_move(state)
            if not deciding:
                break
            table.play(game_id, deciding[0], rng.choice(rules.legal_moves(state, deciding[0])), version)
    assert seen > 600


def test_a_decision_after_a_batch_commit_by_the_only_seat_deciding_begins_there_unread(monkeypatch):
    """``Table.decision_start`` reads no log entry for a version the table's own batch committed
    from a state where one seat decided: the next decision begins there, as a table that reads
    the log finds."""
    from services.coordinator.table import Table

    table, _, game_id = agent_game("noggin", 2, Agent(), monkeypatch)
    rules, state, version = table.state(game_id, cow=True)
    (seat,) = rules.to_move(state)
    (job,) = table.run_jobs([Mover.agent_job(game_id, version, rules, state, seat,
                                             rules.legal_moves(state, seat)[0])])
    rules, state, now = table.state(game_id)
    assert now == version + 1 and job.fresh
    (next_seat,) = rules.to_move(state)
    reads = []
    read = table.store.read
    monkeypatch.setattr(table.store, "read", lambda *a, **k: reads.append(a) or read(*a, **k))
    assert table.decision_start(game_id, next_seat, now) == now and reads == []
    reader = Table(table.store, table.ports, table.scheduler)  # no memo: reads the log
    assert reader.decision_start(game_id, next_seat, now) == now and reads


def test_a_state_the_desk_is_handed_after_a_later_commit_here_asks_nobody_twice(monkeypatch):
    """A mover may hold a game at the version of its last batch while an answer committed alone
    here (a simultaneous decision's other seat) moved it on, and hand the desk that older state
    (the later commit's push went to another mover): the desk reads the latest state instead of
    asking again for a decision already committed."""
    agent = Agent()
    table, game_id, seat, version = first_decision(agent, monkeypatch)
    rules, before, _ = table.state(game_id, cow=True)
    assert table.play_for_agent(game_id, seat, version, rules.legal_moves(before, seat)[0]) is not None
    desk = AgentDesk(table)
    try:
        desk.begin(game_id, seat, (rules, before, version))  # the older state: that decision is made
        wait_for(lambda: not desk.busy() or desk.has_answers(), 10, "the desk to settle")
    finally:
        desk.stop()
    assert [v for s, v in agent.requests if v == version] == []


def test_a_mover_whose_peer_dies_pushes_every_waiting_game_again(redis_client, monkeypatch):
    """One of the launcher's movers dies and none starts in its place: the others see its
    heartbeat gone and push every game waiting for a bot or an agent again, so its agent
    decisions are taken over (their claims lapse) instead of waiting for a client's nudge."""
    from services.phases import mover as mover_module

    pushed = []
    monkeypatch.setattr(mover_module, "requeue_waiting",
                        lambda table, client, **kwargs: pushed.append(kwargs) or 3)
    table, _, _ = agent_game("noggin", 2, Agent(), monkeypatch)
    mover = Mover(table, redis_client, name="alive", agents=True)
    try:
        for name in ("alive", "dead"):
            redis_client.set(mover_module.HEARTBEAT.format(name=name), 1, ex=60)
        assert mover.movers() == 2 and pushed == []
        redis_client.delete(mover_module.HEARTBEAT.format(name="dead"))
        mover._counted = 0.0  # the next look is due
        assert mover.movers() == 1 and pushed == [{"agents": True}]
        mover._counted = 0.0
        assert mover.movers() == 1 and pushed == [{"agents": True}]  # once per mover gone
    finally:
        mover.desk.stop()


def test_an_answer_in_time_counts_though_the_mover_commits_it_later(monkeypatch):
    """The time an answer used is counted to its arrival, not to the mover's batch: an answer in
    time that the mover gets to after the decision's deadline is still the seat's move."""
    agent = Agent()
    table, game_id, seat, version = first_decision(agent, monkeypatch, control={"move_ms": 300, "bank_ms": 0, "max_strikes": 3})
    desk = AgentDesk(table)
    try:
        desk.begin(game_id, seat)
        wait_for(desk.has_answers, 10, "the answer")
        time.sleep(0.4)  # the mover is busy elsewhere past the deadline
        (job, asking), = desk.collect(Mover.agent_job)
        table.run_jobs([job])
        assert desk.committed(job, asking)
    finally:
        desk.stop()
    assert strikes(table, game_id) == [] and table.state(game_id)[2] == version + 1


class SeatZeroFirst(Agent):
    """Answers seat 0 at once and every other seat once ``gate`` opens (or after ``wait_s`` seconds)."""

    def __init__(self, gate: threading.Event, wait_s: float) -> None:
        super().__init__()
        self.gate, self.wait_s = gate, wait_s

    def choose(self, payload, timeout_s):
        if payload.seat != 0:
            self.gate.wait(self.wait_s)
        return super().choose(payload, timeout_s)


def test_the_answers_still_out_join_the_first_answers_batch_for_at_most_the_wait(monkeypatch):
    """``AgentDesk.gather`` (the mover's ``GATHER_S``): once one seat of Resource Hog's
    simultaneous orders has answered, the mover waits for the other two calls still out and takes
    all three answers into one batch (one game moves one version a batch: the two others are then
    committed alone, and each counts); a call that does not answer ends the wait at its bound."""
    gate = threading.Event()
    table, _, game_id = agent_game("resource_hog", 3, SeatZeroFirst(gate, 10), monkeypatch)
    rules, state, version = table.state(game_id)
    assert rules.to_move(state) == [0, 1, 2]
    desk = AgentDesk(table)
    try:
        desk.begin_many([(game_id, seat, None) for seat in range(3)])  # one cohort, as a mover's round begins them
        wait_for(desk.has_answers, 10, "seat 0's answer")
        began = time.monotonic()
        desk.gather(0.05)  # seats 1 and 2 are held: the bound ends the wait
        assert time.monotonic() - began >= 0.05
        threading.Timer(0.1, gate.set).start()
        desk.gather(30)
        assert time.monotonic() - began < 20  # ended by the last answer, not by the bound
        answers = desk.collect(Mover.agent_job)
        assert sorted(asking.decision.seat for _, asking in answers) == [0, 1, 2]  # one batch
        table.run_jobs([job for job, _ in answers])
        assert sorted(desk.committed(job, asking) for job, asking in answers) == [False, False, True]
    finally:
        gate.set()
        desk.stop()
    assert table.state(game_id)[2] == version + 3 and strikes(table, game_id) == [] and not desk.busy()


def test_the_gather_waits_for_the_answers_cohort_not_for_calls_begun_after_it(monkeypatch):
    """``AgentDesk.gather``: the calls begun together (one ``begin_many``, a mover's round) are a
    cohort, and once an answer of one cohort waits, the mover waits for the calls of that cohort and
    of earlier ones, not for those begun after it (the decisions its last commits began have only
    just gone out: waiting for them held the answers in hand for the whole bound)."""
    gate = threading.Event()
    table, _, game_id = agent_game("resource_hog", 3, SeatZeroFirst(gate, 20), monkeypatch)
    desk = AgentDesk(table)
    try:
        desk.begin(game_id, 0)
        wait_for(desk.has_answers, 10, "seat 0's answer")
        desk.begin_many([(game_id, 1, None), (game_id, 2, None)])  # a later cohort, held
        began = time.monotonic()
        desk.gather(30)
        assert time.monotonic() - began < 10 and desk.busy()  # not waited for
        assert [asking.decision.seat for _, asking in desk.collect(Mover.agent_job)] == [0]
    finally:
        gate.set()
        desk.stop()


def test_a_claim_that_fails_on_its_game_leaves_the_other_decisions_of_the_round_asked(monkeypatch):
    """``AgentDesk.begin_many``: a decision whose claim failed on its game's clock key
    (``Clock.claim_and_clock_many`` gives the error in its place) is logged and not asked; the
    other decisions begun with it are asked, and nothing is raised into the mover's round."""
    from redis.exceptions import ResponseError

    agent = Agent()
    table, game_id, seat, _ = first_decision(agent, monkeypatch)
    other = table.create(GameConfig(game="noggin", players=2), seed="other", bots=table.bots(game_id))
    rules, state, _ = table.state(other)
    (other_seat,) = rules.to_move(state)
    desk = AgentDesk(table)
    claim_many = desk.clock.claim_and_clock_many

    def one_broken(requests, *args):
        got = claim_many(requests, *args)
        return [ResponseError("WRONGTYPE") if r.game_id == other else g for r, g in zip(requests, got)]

    monkeypatch.setattr(desk.clock, "claim_and_clock_many", one_broken)
    try:
        desk.begin_many([(other, other_seat, None), (game_id, seat, None)])
        assert list(desk.asking) == [(game_id, seat)] and not desk.watching
        wait_for(desk.has_answers, 10, "the other decision's answer")
    finally:
        desk.stop()


def test_a_mover_round_begins_the_decision_its_commit_leaves_owed(redis_client, monkeypatch):
    """``Mover._begin_next``: the round that commits an agent's answer begins the game's next agent
    decision itself (its claim, and the call out, before the next round's pop), and the desk, not the
    mover's hand, holds the game until that answer; with bots to play next, the game stays in hand."""
    agent = Agent()
    table, game_id, seat, version = first_decision(agent, monkeypatch)
    mover = Mover(table, redis_client, name="desk-test", agents=True)
    try:
        mover.desk.begin(game_id, seat)
        wait_for(mover.desk.has_answers, 10, "the answer")
        kept = mover.round([], mover.desk.collect(Mover.agent_job))
        rules, state, now = table.state(game_id)
        assert now == version + 1 and kept == []
        (after,) = rules.to_move(state)
        assert mover.desk.asking[(game_id, after)].decision.start == now  # begun in the same round
        wait_for(lambda: len(agent.requests) == 2, 10, "the next request")
        assert agent.requests[1] == (after, now)
        wait_for(mover.desk.has_answers, 10, "that answer")
        mover.desk.collect(Mover.agent_job)  # let go (committed by no one)
        mover.desk.asking.clear()
        # seat 0 an agent, seat 1 a built-in bot: after the agent's move the bot's is played next round
        agent_id = table.bots(game_id)[seat]["agent"]
        monkeypatch.setattr(table.scheduler, "schedule_bot", lambda *args: None)  # the mover plays it
        mixed = table.create(GameConfig(game="noggin", players=2), seed="mixed",
                             bots={0: {"kind": "agent", "agent": agent_id, "seed": "d0"}, 1: {"kind": "random", "seed": "b1"}})
        kept = mover.round([(mixed, None)])  # the bot's move, or the agent's decision begun
        for _ in range(50):  # bounded: until an answer's commit leaves the bot to move
            if kept:
                kept = mover.round(kept)
                continue
            wait_for(mover.desk.has_answers, 10, "the agent's answer")
            kept = mover.round([], mover.desk.collect(Mover.agent_job))
            rules, state, now = table.state(mixed)
            if rules.to_move(state) == [1]:
                break
        assert rules.to_move(state) == [1] and kept == [(mixed, now)] and not mover.desk.asking  # in hand
    finally:
        mover.desk.stop()


def test_a_call_that_waited_for_a_thread_reads_the_agents_record_again(monkeypatch):
    """The agent's record read with the claim serves a call that got a desk thread at once; one
    that waited longer than ``RECORD_FRESH_S`` (more calls out than threads) reads it again, so a
    removal or a rotation meanwhile counts."""
    seen = []
    monkeypatch.setattr(phase_agents, "ask_safely", lambda table, clock, d, latest: seen.append(d.record))
    table, game_id, seat, version = first_decision(Agent(), monkeypatch)
    desk = AgentDesk(table, threads=1)
    decision = phase_agents.Decision(game_id, seat, version, {}, None, "a", "a", 0, 0, b"stored text")
    try:
        desk._ask(decision, None, time.monotonic())
        desk._ask(decision, None, time.monotonic() - agent_desk.RECORD_FRESH_S - 0.01)
    finally:
        desk.stop()
    assert seen == [b"stored text", phase_agents.NOT_READ]


def test_a_wake_up_runs_on_a_thread_of_its_own_not_the_one_that_brings_the_answer(monkeypatch):
    """services/phases/agent_desk.py: a mover's wake-up (a Redis push) is made by the desk's
    ``agent-wake`` thread, so a slow Redis never holds the thread that brought the answer (the agent
    loop serving every webhook call of the process, or gRPC's callback thread)."""
    woken: list[str] = []
    woke = threading.Event()

    def wake() -> None:
        woken.append(threading.current_thread().name)
        woke.set()

    table, game_id, seat, _ = first_decision(Agent(), monkeypatch)
    desk = AgentDesk(table, wake=wake)
    desk.sleeping.set()
    try:
        desk.begin(game_id, seat)
        assert woke.wait(10)
        assert woken and set(woken) == {"agent-wake"}
    finally:
        desk.stop()
