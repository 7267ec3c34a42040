"""Agent decisions exactly once (services/phases/agents.py) on an embedded table: seats deciding at
once (Resource Hog's orders) are each asked once and each answer commits, whatever order their
tasks run in and however often they are queued again; a task asks the next decisions of a game of
agents taking turns itself, within its bounds, and queues what is owed when it stops; a task that finds a live asker asks nobody
and one that finds a lapsed claim takes the decision over; any exception while asking is a strike
and the default move; the claims hold on a real Redis (their Lua scripts)."""

from __future__ import annotations

import threading

import pytest

from services.agents.protocol import MoveChoice
from services.agents.registry import registry_for
from services.coordinator.ports import embedded_ports
from services.coordinator.projection import Projections
from services.coordinator.store import MemoryStore
from services.coordinator.table import Table
from services.phases import agents as phase_agents
from services.phases.agents import Clock
from services.rules.core import GameConfig


class Queued:
    """A scheduler that runs phases at once and queues each agent task, as the broker would."""

    table: Table

    def __init__(self) -> None:
        self.tasks: list[tuple[str, int, int]] = []

    def schedule(self, game_id, phase, version):
        self.table.run_phase(game_id, phase, version)

    def schedule_bot(self, *args):
        raise AssertionError("no built-in bot in these games")

    def schedule_agent(self, game_id, seat, version):
        if phase_agents.captured(game_id, seat, version):  # as the Celery scheduler does
            return
        self.tasks.append((game_id, seat, version))

    def schedule_end(self, *args):
        pass


class Agent:
    """An agent client that counts its requests per (seat, version) and answers with a move."""

    def __init__(self, fail: Exception | None = None) -> None:
        self.requests: list[tuple[int, int]] = []
        self.fail = fail
        self.lock = threading.Lock()
        self.barrier: threading.Barrier | None = None

    def start(self, payload, timeout_s):
        pass

    def choose(self, payload, timeout_s):
        with self.lock:
            self.requests.append((payload.seat, payload.version))
        if self.fail is not None:
            raise self.fail
        if self.barrier is not None:
            try:
                self.barrier.wait()
            except threading.BrokenBarrierError:
                pass  # a seat was not asked: the counts below fail
        return MoveChoice(index=len(payload.legal_moves_json) - 1)

    def end(self, payload, timeout_s):
        pass


def agent_game(game: str, players: int, agent: Agent, monkeypatch, control=None) -> tuple[Table, Queued, str]:
    store = MemoryStore()
    projections = Projections(store)
    scheduler = Queued()
    table = Table(store, embedded_ports(store, projections=projections), scheduler, projections=projections)
    scheduler.table = table
    agent_id = registry_for(table).register({"name": "a", "protocol": "http", "address": "http://127.0.0.1:9/",
                                             "secret": "s" * 20}).agent_id
    monkeypatch.setattr(phase_agents, "client_for", lambda record: agent)
    game_id = table.create(GameConfig(game=game, players=players), seed="exactly-once",
                           bots={s: {"kind": "agent", "agent": agent_id, "seed": f"d{s}"} for s in range(players)},
                           control=control or {"move_ms": 60_000, "bank_ms": 1_000, "max_strikes": 3})
    return table, scheduler, game_id


def first_decision(agent: Agent, monkeypatch, control: dict | None = None) -> tuple:
    """A 2-seat Noggin game whose seats ``agent`` plays, and its first decision: ``(table, game_id,
    seat, version)`` (the decision the game's creation queued)."""
    table, scheduler, game_id = agent_game("noggin", 2, agent, monkeypatch, control=control)
    _, seat, version = scheduler.tasks.pop(0)
    return table, game_id, seat, version


def strikes(table: Table, game_id: str) -> list[dict]:
    return [e.data for entry in table.store.read(game_id) for e in entry.events if e.type == "StrikeRecorded"]


def test_seats_deciding_at_once_are_each_asked_once_and_each_answer_counts(monkeypatch):
    monkeypatch.setattr(phase_agents, "RENEW_S", 0.05)
    monkeypatch.setattr(phase_agents, "POLL_S", 0.02)
    agent = Agent()
    table, scheduler, game_id = agent_game("resource_hog", 3, agent, monkeypatch)
    simultaneous = 0
    for _ in range(200):
        rules, state, _ = table.state(game_id)
        if not scheduler.tasks or len(agent.requests) >= 60:
            break
        deciding = len(rules.to_move(state))
        simultaneous += deciding > 1
        # every queued task runs at once, each twice (a broker's redelivered copy), and the agent
        # answers only when every seat deciding now has been asked: the answers cross
        agent.barrier = threading.Barrier(deciding, timeout=2)
        tasks, scheduler.tasks = scheduler.tasks, []
        threads = [threading.Thread(target=phase_agents.ask_agent, args=(table, *task), kwargs={"token": "t"})
                   for task in tasks + tasks]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(10)
        assert not any(thread.is_alive() for thread in threads)
    moves = [entry for entry in table.store.read(game_id) if entry.kind == "move"]
    assert simultaneous > 3, "the stretch held few simultaneous decisions"
    assert len(agent.requests) == len(moves) > 30  # one request per committed decision, none thrown away
    assert len(set(agent.requests)) == len(agent.requests)
    assert strikes(table, game_id) == []


def test_any_exception_while_asking_is_a_strike_and_the_default_move(monkeypatch):
    agent = Agent(fail=RuntimeError("the task's own bug"))
    table, game_id, seat, version = first_decision(agent, monkeypatch)
    assert phase_agents.ask_agent(table, game_id, seat, version) == "default"
    assert strikes(table, game_id) == [{"seat": seat, "reason": "crash", "strikes": 1}]
    assert table.state(game_id)[2] == version + 1


def test_a_live_asker_keeps_its_decision_and_a_dead_ones_is_taken_over(monkeypatch):
    agent = Agent()
    table, game_id, seat, version = first_decision(agent, monkeypatch)
    clock = phase_agents.clock_for(table)
    assert clock.claim(game_id, seat, version, "alive.1")[0]
    stop = threading.Event()

    def renew() -> None:
        for _ in range(100):
            if stop.wait(0.1):
                return
            clock.renew(game_id, seat, version, "alive.1")

    renewer = threading.Thread(target=renew, daemon=True)
    renewer.start()
    try:
        assert phase_agents.ask_agent(table, game_id, seat, version, token="copy") == "busy"
    finally:
        stop.set()
        renewer.join(5)
    assert agent.requests == [] and table.state(game_id)[2] == version
    # the holder died: its lease lapses and the next task asks, within the decision's first deadline
    asked = clock.asked_at(game_id, seat, version)
    assert clock.renew(game_id, seat, version, "alive.1", lease_ms=0)
    assert phase_agents.ask_agent(table, game_id, seat, version, token="re-armed") == "played"
    assert agent.requests == [(seat, version)] and clock.asked_at(game_id, seat, version) == asked


def test_the_claims_hold_on_redis(redis_client):
    clock = Clock(redis_client)
    taken, first = clock.claim("g1", 0, 4, "a.1", lease_ms=60_000)
    assert taken and first.startswith("a.1@")
    assert clock.claim("g1", 0, 4, "b.1") == (False, first)
    assert clock.renew("g1", 0, 4, "a.1", lease_ms=120_000) and not clock.renew("g1", 0, 4, "b.1")
    assert clock.claim("g1", 0, 4, "b.1")[1] != first  # the renewal shows
    assert clock.renew("g1", 0, 4, "a.1", release=True)
    assert clock.claim("g1", 0, 4, "b.1", lease_ms=0)[0]
    assert clock.claim("g1", 0, 4, "c.1")[0]  # b's lease of 0 ms lapsed
    assert redis_client.ttl("game:{g1}:clock") > 0


def test_the_first_ask_and_the_bank_are_read_together_as_apart(redis_client):
    """``asked_and_bank`` records and reads what ``asked_at`` and ``bank`` do, on Redis and in memory."""
    for clock in (Clock(redis_client), Clock()):
        asked, bank = clock.asked_and_bank("g2", 1, 7, 5000)
        assert (asked, bank) == (clock.asked_at("g2", 1, 7), clock.bank("g2", 1, 9999)) and bank == 5000
        assert clock.spend("g2", 1, 7, 1200, 5000) == 3800
        assert clock.asked_and_bank("g2", 1, 7, 5000) == (asked, 3800)  # stored once: no more time, the bank spent
        later = clock.asked_and_bank("g2", 1, 9, 5000)
        assert later[0] >= asked and later[1] == 3800
    assert redis_client.ttl("game:{g2}:clock") > 0


def test_a_task_asks_the_next_turns_itself_and_queues_what_is_owed_when_it_stops(monkeypatch):
    agent = Agent()
    table, scheduler, game_id = agent_game("noggin", 3, agent, monkeypatch)
    first = scheduler.tasks.pop(0)
    assert phase_agents.ask_chained(table, *first, "t", scheduler.schedule_agent, most=5) == "played"
    # five decisions asked by the one task, each once and committed; the sixth queued, nothing else
    moves = [entry for entry in table.store.read(game_id) if entry.kind == "move"]
    assert len(agent.requests) == len(moves) == 5 and len(set(agent.requests)) == 5
    rules, state, version = table.state(game_id)
    assert scheduler.tasks == [(game_id, rules.to_move(state)[0], version)]
    assert phase_agents.captured(game_id, 0, version) is False  # the thread captures nothing after
    # a decision over already: skipped, and nothing asked or queued
    assert phase_agents.ask_chained(table, *first, "t2", scheduler.schedule_agent) == "skipped"
    assert len(agent.requests) == 5 and len(scheduler.tasks) == 1


def test_a_chain_queues_seats_deciding_at_once_and_what_is_owed_when_asking_raises(monkeypatch):
    agent = Agent()
    table, scheduler, game_id = agent_game("resource_hog", 3, agent, monkeypatch)
    for _ in range(50):  # to the first decision of several seats at once
        rules, state, _ = table.state(game_id)
        if len(rules.to_move(state)) > 1:
            break
        task = scheduler.tasks.pop(0)
        phase_agents.ask_chained(table, *task, "t", scheduler.schedule_agent, most=1)
    deciding = rules.to_move(state)
    assert len(deciding) > 1 and sorted(s for _, s, _ in scheduler.tasks) == sorted(deciding)
    # each seat of it is queued to be asked at once, never chained one after another
    asked, before = len(agent.requests), len(scheduler.tasks)
    task = scheduler.tasks.pop(0)
    phase_agents.ask_chained(table, *task, "t", scheduler.schedule_agent)
    assert len(agent.requests) == asked + 1  # only its own seat asked
    queued = scheduler.tasks[before - 1:]  # the commit queued the seats still deciding again
    assert queued and {s for _, s, _ in queued} == set(deciding) - {task[1]}

    def broken(*args, **kwargs):
        phase_agents.captured(game_id, 2, 99)  # a commit left this owed, then asking failed
        raise ConnectionError("store down")

    monkeypatch.setattr(phase_agents, "ask_agent", broken)
    with pytest.raises(ConnectionError):
        phase_agents.ask_chained(table, game_id, 0, 1, "t", scheduler.schedule_agent)
    assert scheduler.tasks[-1] == (game_id, 2, 99)


def test_once_only_notices_are_remembered_without_asking_redis_again(redis_client):
    clock = Clock(redis_client)
    assert clock.once("g3", "started:0") and not clock.once("g3", "started:0")
    redis_client.delete("game:{g3}:clock")
    assert not clock.once("g3", "started:0")  # remembered by the process: no second notice
    assert Clock(redis_client).once("g3", "started:0")  # another process asks Redis (forgotten there)


def test_the_registry_reads_every_time_and_opens_a_stored_record_once(redis_client, monkeypatch):
    from services.agents import registry as agent_registry
    from services.agents.addresses import parse_allow_list

    registry = agent_registry.AgentRegistry(redis_client)
    record = registry.register({"name": "a", "protocol": "http", "address": "http://127.0.0.1:9/",
                                "secret": "s" * 20}, allow=parse_allow_list("127.0.0.1:9"))
    opened: list[int] = []
    load = agent_registry.load_record
    monkeypatch.setattr(agent_registry, "load_record", lambda raw: opened.append(1) or load(raw))
    assert registry.get(record.agent_id) == registry.get(record.agent_id) == record
    assert len(opened) == 1
    rotated = registry.rotate_secret(record.agent_id, "t" * 20, "s" * 20)
    assert registry.get(record.agent_id).secret == rotated.secret == "t" * 20  # a change shows at once
    registry.remove(record.agent_id)
    with pytest.raises(agent_registry.UnknownAgent):
        registry.get(record.agent_id)


def test_a_decision_the_chain_took_over_is_queued_again_when_asking_it_raises(monkeypatch):
    """A store error while a task asks a decision its own commit left owed: the task's retry would
    redo only its first decision (committed), so the one it took over is queued again."""
    agent = Agent()
    table, scheduler, game_id = agent_game("noggin", 3, agent, monkeypatch)
    first = scheduler.tasks.pop(0)
    real = phase_agents.ask_agent
    calls: list[tuple[int, int]] = []

    def flaky(table_, game_id_, seat, version, token=None):
        calls.append((seat, version))
        if len(calls) == 2:
            raise ConnectionError("redis went away")
        return real(table_, game_id_, seat, version, token=token)

    monkeypatch.setattr(phase_agents, "ask_agent", flaky)
    with pytest.raises(ConnectionError):
        phase_agents.ask_chained(table, *first, "t", scheduler.schedule_agent)
    assert scheduler.tasks == [(game_id, *calls[1])]  # not lost: queued for its own task
    monkeypatch.setattr(phase_agents, "ask_agent", real)
    assert phase_agents.ask_chained(table, *scheduler.tasks.pop(0), "t2", scheduler.schedule_agent, most=1) == "played"


def test_the_agents_record_is_read_with_the_claim_in_one_round_trip(redis_client):
    """``Clock.claim_and_clock(read=...)`` (the mover's desk): the claim, the first ask and the bank
    as without it, and the agent's registry text read beside them in one pipeline: None once the
    agent is removed (its decision then strikes, ``crash``), and the same after Redis lost its
    scripts (a restart: the script is loaded again)."""
    from services.agents import registry as agent_registry
    from services.agents.registry import KEY, AgentRegistry

    registry = AgentRegistry(redis_client)
    aid = registry.register({"name": "a", "protocol": "http", "address": "http://127.0.0.1:9/",
                             "secret": "s" * 20}).agent_id
    clock = Clock(redis_client)
    clock.claim_and_clock("g4", 0, 5, "warm.1", 4000)  # the script loaded
    redis_client.config_resetstat()
    taken, held, asked, bank, stored = clock.claim_and_clock("g3", 0, 5, "a.1", 4000, read=(KEY, aid))
    stats = redis_client.info("commandstats")
    assert stats["cmdstat_evalsha"]["calls"] == 1 and "cmdstat_script|exists" not in stats  # one pipeline
    assert taken and held.startswith("a.1@") and bank == 4000 and asked == clock.asked_at("g3", 0, 5)
    assert registry.opened(aid, stored) == registry.get(aid)
    assert clock.claim_and_clock("g3", 0, 5, "b.1", 4000, read=(KEY, aid))[:4] == (False, held, 0, 0)
    redis_client.script_flush()
    again = clock.claim_and_clock("g3", 1, 5, "c.1", 4000, read=(KEY, aid))
    assert again[0] and again[4] == stored
    registry.remove(aid)
    gone = clock.claim_and_clock("g3", 2, 5, "d.1", 4000, read=(KEY, aid))
    assert gone[0] and gone[4] is None
    with pytest.raises(agent_registry.UnknownAgent):
        registry.opened(aid, gone[4])
    assert clock.claim_and_clock("g3", 3, 5, "e.1", 4000)[4] is phase_agents.NOT_READ


def test_the_claims_of_many_decisions_go_in_one_round_trip(redis_client, monkeypatch):
    """``Clock.claim_and_clock_many`` (a mover's round begins several games' decisions at once,
    services/phases/agent_desk.py ``begin_many``): each claim, first ask, bank and record read is
    what ``claim_and_clock`` gives alone, in order, all in one pipeline; a claim another asker
    holds is refused in its place and the others are taken; after Redis lost its scripts (a
    restart) the script is loaded again."""
    from services.agents.registry import KEY, AgentRegistry

    registry = AgentRegistry(redis_client)
    aid = registry.register({"name": "a", "protocol": "http", "address": "http://127.0.0.1:9/",
                             "secret": "s" * 20}).agent_id
    clock = Clock(redis_client)
    clock.claim_and_clock("warm", 0, 1, "warm.1", 4000)  # the script loaded
    _, other = clock.claim("g2", 1, 7, "other.1", lease_ms=60_000)  # another asker's live claim
    pipelines = []
    real = redis_client.pipeline
    monkeypatch.setattr(redis_client, "pipeline", lambda *a, **k: pipelines.append(1) or real(*a, **k))
    monkeypatch.setattr(redis_client, "execute_command", lambda *a, **k: pytest.fail(f"a command alone: {a}"))
    requests = [phase_agents.ClaimRequest("g1", 0, 5, "a.1", 4000, read=(KEY, aid)),
                phase_agents.ClaimRequest("g2", 1, 7, "a.2", 4000, read=(KEY, aid)),
                phase_agents.ClaimRequest("g3", 2, 9, "a.3", 3000)]
    first, refused, third = clock.claim_and_clock_many(requests)
    assert len(pipelines) == 1  # one round trip for the three
    monkeypatch.undo()
    assert first[0] and first[1].startswith("a.1@") and first[3] == 4000 and first[2] == clock.asked_at("g1", 0, 5)
    assert registry.opened(aid, first[4]) == registry.get(aid)
    assert refused[:4] == (False, other, 0, 0)
    assert third[0] and third[1].startswith("a.3@") and third[3] == 3000 and third[4] is phase_agents.NOT_READ
    redis_client.script_flush()
    again = clock.claim_and_clock_many([phase_agents.ClaimRequest("g4", 0, 5, "b.1", 4000, read=(KEY, aid)),
                                        phase_agents.ClaimRequest("g5", 0, 5, "b.2", 4000)])
    assert [(taken, held.split("@")[0]) for taken, held, *_ in again] == [(True, "b.1"), (True, "b.2")]
    assert again[0][4] == first[4]


def test_a_claim_whose_script_fails_comes_back_in_its_place_and_the_others_are_taken(redis_client):
    """``Clock.claim_and_clock_many``: one game's clock key of the wrong type fails that claim's script
    alone; its error comes back in its place and the claims beside it are taken as if alone
    (``claim_and_clock``, one claim, raises it)."""
    from redis.exceptions import ResponseError

    clock = Clock(redis_client)
    redis_client.set(clock._key("broken"), "not a hash")
    first, broken, last = clock.claim_and_clock_many([phase_agents.ClaimRequest("g1", 0, 5, "a.1", 4000),
                                                      phase_agents.ClaimRequest("broken", 0, 5, "a.2", 4000),
                                                      phase_agents.ClaimRequest("g3", 1, 7, "a.3", 3000)])
    assert isinstance(broken, ResponseError) and "WRONGTYPE" in str(broken)
    assert first[:2] == (True, redis_client.hget(clock._key("g1"), "claim:0:5").decode()) and first[3] == 4000
    assert last[0] and last[1].startswith("a.3@") and last[3] == 3000
    with pytest.raises(ResponseError):
        clock.claim_and_clock("broken", 0, 5, "a.4", 4000)


@pytest.mark.parametrize("client_kind", ["retrying", "from a URL"])
def test_a_claim_whose_reply_was_lost_is_still_the_callers_when_it_is_sent_again(redis_server, client_kind):
    """A claim script that ran on Redis but whose reply a broken connection lost is sent again on a
    new connection: by a client that retries (``redis.Redis(host, port)``'s default, and a Redis
    Cluster client's), or by the clock itself where the client does not (one made from a URL, as
    the stack's are, and the movers' client). The claim it finds there is the caller's own, taken,
    not another asker's live lease to wait out (3 s), for the claim alone, the claim with the
    clock, and the claim with the pipelined record read. Another attempt's live claim is still
    refused."""
    import redis

    from tests.support.lost_reply import ReplyLoss

    loss = ReplyLoss()
    if client_kind == "retrying":
        client = redis.Redis(port=redis_server.port)  # sends a command again after a connection error
    else:
        client = redis.Redis.from_url(redis_server.url)  # does not
    client.connection_pool.connection_class = loss.connection_class
    client.flushall()
    clock = Clock(client)
    clock.claim_and_clock("warm", 0, 1, "warm.1", 4000)  # both scripts loaded
    clock.claim("warm", 1, 1, "warm.2")
    calls = {
        "claim": lambda token: clock.claim("g", 0, 5, token),
        "claim_and_clock": lambda token: clock.claim_and_clock("g", 1, 5, token, 4000)[:2],
        "with the record": lambda token: clock.claim_and_clock("g", 2, 5, token, 4000, read=("agents", "x"))[:2],
    }
    for n, (name, call) in enumerate(calls.items(), start=1):
        loss.arm()
        taken, held = call(f"{name}.1")
        assert loss.lost == n, name  # the reply was lost, and the call sent again
        assert taken and held.startswith(f"{name}.1@"), name
        assert call(f"{name}.2") == (False, held), name  # another attempt still waits


def test_the_clients_of_the_agents_playing_now_are_kept_past_the_limit(monkeypatch):
    """``client_for`` keeps at most ``CLIENTS_KEPT`` clients and lets the least recently used go
    first: an agent asked again and again keeps its client however many other agents come and
    go (before, the whole cache was emptied at once)."""
    from types import SimpleNamespace

    made = []

    def make(record):
        made.append(record["agent_id"])
        return object()

    monkeypatch.setattr("services.agents.client.make_client", make)
    monkeypatch.setattr(phase_agents, "CLIENTS_KEPT", 4)
    monkeypatch.setattr(phase_agents, "_clients", type(phase_agents._clients)())

    def record(agent_id):
        return SimpleNamespace(agent_id=agent_id, protocol="grpc", address="127.0.0.1:1",
                               signing_secrets=lambda: ["s"], model_dump=lambda: {"agent_id": agent_id})

    busy = record("busy")
    first = phase_agents.client_for(busy)
    for n in range(10):
        assert phase_agents.client_for(busy) is first
        phase_agents.client_for(record(f"other-{n}"))
        assert len(phase_agents._clients) <= 4
    assert made.count("busy") == 1
    phase_agents.client_for(record("other-0"))  # let go long ago: made again
    assert made.count("other-0") == 2 and phase_agents.client_for(busy) is first
