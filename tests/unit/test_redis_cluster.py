"""The event store, its scripts and the global keys on a three-master Redis Cluster (issue 11).

A Redis Cluster refuses a script or a transaction whose keys lie in more than one hash slot
(CROSSSLOT), so these tests pass only if every key a game's scripts touch carries the game's hash
tag ``{<game_id>}``, and every global key (the games index, the movers' ready list and
heartbeats, a creator's quota) is used one key per command. The games are picked so that each
master holds one: a pipeline of commits then spans the whole cluster.
"""

from __future__ import annotations

import time

import grpc
import pytest
import redis
from redis.crc import key_slot
from redis.exceptions import RedisClusterException

from gateway.auth import claim_seat
from gateway.limits import _RESERVE, games_in_play, quota_key
from services.common.redis_client import connect, unreachable
from services.coordinator.wire import status_of
from services.coordinator.redis_store import GAMES_INDEX, RETIRED, RedisSeeds, RedisStore, games_in_status, key
from services.coordinator.store import Commit, Counters, GameNotFound, VersionConflict
from services.phases.agents import ClaimRequest, Clock
from services.phases.mover import HEARTBEAT, Mover, outage
from services.phases.schedulers import READY, BusScheduler
from services.rules.core import Event
from tests.support.redis_cluster import LoopbackCluster

META = {"game": "step_race", "players": 2}


def one_per_master(cluster, prefix: str, make=lambda p, i: f"{p}{i:04d}", slot_of=None) -> list[str]:
    """Names ``make(prefix, i)``, the first whose slot each master serves (in the cluster's port
    order); ``slot_of(name)`` gives a name's slot (default: that of the hash tag ``{name}``)."""
    slot_of = slot_of or (lambda name: key_slot(f"{{{name}}}".encode()))
    found: dict[int, str] = {}
    for i in range(10_000):
        name = make(prefix, i)
        found.setdefault(cluster.port_of_slot(slot_of(name)), name)
        if len(found) == len(cluster.ports):
            return [found[p] for p in cluster.ports]
    raise AssertionError("no names on every master")


@pytest.fixture
def cluster_client(redis_cluster):
    """A cluster client (:func:`connect`) on an emptied cluster."""
    for port in redis_cluster.ports:
        redis_cluster.node(port).flushall()
    client = connect(redis_cluster.url, socket_timeout=10)
    yield client
    client.close()


def test_a_games_keys_stay_in_the_slot_of_its_tag_through_its_whole_life(redis_cluster, cluster_client):
    store = RedisStore(cluster_client, finished_ttl=600)
    games = one_per_master(redis_cluster, "g")
    clock = Clock(cluster_client)
    for gid in games:
        assert store.create(gid, META, [Event("GameCreated", {"config": {}})]) == 1
        RedisSeeds(cluster_client).put(gid, f"seed-{gid}")
        assert claim_seat(cluster_client, gid, 0) is not None
        assert clock.claim(gid, 0, 1, "task-1", 60_000)[0] and not clock.claim(gid, 0, 1, "task-2", 60_000)[0]
        assert clock.renew(gid, 0, 1, "task-1") and not clock.renew(gid, 0, 1, "task-2")
        cluster_client.set(key(gid, "phase_nudge"), 1, ex=600)
    # one pipeline of commit scripts over all three masters, each checked by version on its own
    assert store.commit_many([(gid, 1, [Event("Stepped", {"n": 1})], Commit("move", 0, move_key=(0, "m1"),
                                                                              result={"ok": gid}))
                              for gid in games]) == [2, 2, 2]
    stale = store.commit_many([(gid, 1, [Event("Stepped", {"n": 2})], Commit("move", 1)) for gid in games])
    assert [(type(e), e.expected, e.actual) for e in stale] == [(VersionConflict, 1, 2)] * 3
    missing = one_per_master(redis_cluster, "nowhere")[0]
    assert isinstance(store.commit_many([(missing, 1, [], Commit("move", 0))])[0], GameNotFound)
    for gid in games:
        assert store.move_result(gid, 0, "m1") == {"ok": gid}
        assert store.commit(gid, 2, [Event("Won", {"seat": 0})], Commit("move", 0, status="over")) == 3
        assert [e.version for e in store.read(gid)] == [1, 2, 3] and store.meta(gid)["status"] == "over"

    owners = set()
    for gid in games:
        port = redis_cluster.port_of_slot(key_slot(f"{{{gid}}}".encode()))
        owners.add(port)
        held = redis_cluster.keys_by_node(f"game:{{{gid}}}:*")
        expected = {key(gid, name) for name in ("meta", "log", "moves", "ended", "seed", "seats", "phase_nudge",
                                                "clock")}
        assert set(held[port]) == expected  # every key of the game, all on the master of {gid}'s slot
        assert not any(held[p] for p in redis_cluster.ports if p != port)
        assert {cluster_client.keyslot(k) for k in expected} == {key_slot(f"{{{gid}}}".encode())}
        node = redis_cluster.node(port)
        assert all(0 < node.ttl(key(gid, name)) <= 600 for name in RETIRED)  # the end retired them
        assert node.ttl(key(gid, "log")) == -1 and node.ttl(key(gid, "meta")) == -1  # the record stays
    assert owners == set(redis_cluster.ports)
    # the listing is one global key, written apart from each game's script
    assert sorted(games_in_status(cluster_client, "over")) == sorted(games)


def test_the_ready_list_and_the_movers_heartbeats_work_across_masters(redis_cluster, cluster_client):
    names = one_per_master(redis_cluster, "mover-", slot_of=lambda n: key_slot(HEARTBEAT.format(name=n).encode()))
    movers = [Mover(table=None, client=cluster_client, name=name) for name in names]
    for mover in movers:
        mover.heartbeat()
    assert movers[0].movers() == 3  # SCAN over every master finds the three heartbeats
    bus = BusScheduler(cluster_client, phases=None)
    for i in range(9):
        bus.schedule_bot(f"game{i}", 0, 1)
    # the take script pops a fair share (9 waiting / 3 movers) from the one list, in push order
    assert movers[0]._pop(32, block=0) == ["game0", "game1", "game2"]
    assert movers[1]._pop(2, block=0) == ["game3", "game4"]
    assert cluster_client.llen(READY) == 4
    cluster_client.delete(READY)
    started = time.monotonic()
    assert movers[2]._pop(5, block=0.2) == [] and time.monotonic() - started < 5  # BRPOP on the cluster


def test_a_movers_pop_whose_reply_was_lost_loses_no_game_on_a_cluster(redis_cluster, cluster_client):
    """A connection that breaks after a master ran the mover's pop, before its reply arrived: the
    games are off the ready list. A Redis Cluster client sends a command again after a connection
    error (by default), and the second pop found nothing: three games of bots waited for ever. The
    mover's client (``mover_client``) raises instead, and the mover's outage handling pushes every
    waiting game again: all three end."""
    import threading

    from services.coordinator.table import InlineScheduler
    from services.phases.hosting import build_table
    from services.phases.mover import mover_client
    from services.rules.core import GameConfig
    from tests.support.lost_reply import ReplyLoss
    from tests.support.wait import wait_for

    loss = ReplyLoss()
    client = mover_client(redis_cluster.url, socket_timeout=10)
    table = build_table(client, ports_mode="embedded", phase_mode="inline")
    table.scheduler = BusScheduler(client, InlineScheduler(None))
    bots = {0: "random", 1: "random", 2: "random"}
    games = [table.create(GameConfig(game="noggin", players=3), seed=f"lost-{n}", bots=bots) for n in range(3)]
    mover = Mover(table, client, batch=4, name="lost-reply")
    mover.heartbeat()  # as the mover's main does: no peer found gone (whose games it would push again)
    assert mover.movers() == 1 and sorted(mover._take(keys=[READY], args=[0, 1]) or []) == []  # the script loaded
    assert client.llen(READY) == 3
    for node in client.get_nodes():  # new connections from here on lose the armed reply
        pool = node.redis_connection.connection_pool
        pool.connection_class = loss.connection_class
        pool.reset()
    store = RedisStore(cluster_client)  # read apart from the mover's client, which its thread uses

    def over() -> list[str]:
        return [store.meta(g)["status"] for g in games]

    loss.arm(lambda packed: b"EVALSHA" in packed and READY.encode() in packed)  # the pop
    thread = threading.Thread(target=mover.run, daemon=True)
    thread.start()
    try:
        wait_for(lambda: over() == ["over"] * 3 or not thread.is_alive(), 30, "every game to end")
    finally:
        mover.stopping.set()
        thread.join(10)
        client.close()
    assert loss.lost == 1, "the pop's reply was not lost"
    assert over() == ["over"] * 3


def test_a_creators_quota_counts_games_on_every_master(redis_cluster, cluster_client):
    store = RedisStore(cluster_client)
    games = one_per_master(redis_cluster, "q")
    who = "address:203.0.113.9"
    for gid in games:
        store.create(gid, META, [])
        cluster_client.zadd(quota_key(who), {gid: 1})
    store.commit(games[1], 1, [], Commit("move", 0, status="over"))
    # the statuses are read in one pipeline over three masters; the game that is over frees its slot
    assert sorted(games_in_play(cluster_client, who)) == sorted([games[0], games[2]])
    assert cluster_client.eval(_RESERVE, 1, quota_key(who), 3, "pending:a", 1) == -1
    assert cluster_client.eval(_RESERVE, 1, quota_key(who), 3, "pending:b", 1) == 3  # full: refused
    pipe = cluster_client.pipeline(transaction=True)  # as the gateway records a made game
    pipe.zadd(quota_key(who), {"made": 2})
    pipe.zrem(quota_key(who), "pending:a")
    assert pipe.execute() == [1, 1]
    assert {m.decode() for m in cluster_client.zrange(quota_key(who), 0, -1)} == {games[0], games[2], "made"}
    assert cluster_client.zcard(GAMES_INDEX) == 3


def test_a_cluster_out_of_reach_raises_connection_errors_as_one_server_does(tmp_path):
    cluster = LoopbackCluster(tmp_path)
    try:
        client = connect(cluster.url, socket_timeout=2, socket_connect_timeout=1)
        store = RedisStore(client)
        store.create("g1", META, [])
    finally:
        cluster.stop()
    # what the movers, the services (UNAVAILABLE), the worker (retries) and the gateway (503) know
    with pytest.raises(redis.ConnectionError) as one:
        store.meta("g1")
    assert outage(one.value) and status_of(one.value).code == grpc.StatusCode.UNAVAILABLE
    with pytest.raises(redis.ConnectionError):
        store.commit_many([("g1", 1, [], Commit("move", 0))])  # a pipeline
    with pytest.raises(redis.ConnectionError):
        connect(cluster.url, socket_connect_timeout=1)  # a new client learns the layout at once
    with pytest.raises(RedisClusterException) as misuse:  # a misuse stays what redis-py says it is
        client.pipeline(shard_hint="x")
    assert not unreachable(misuse.value)


def test_reseal_re_encrypts_the_seeds_of_tournaments_on_every_master(redis_cluster, cluster_client, monkeypatch):
    """The re-encryption of a key rotation scans every master and rewrites each tournament's
    sealed seeds with a one-key script in its own slot (the tag ``{t:<id>}``): one tournament
    on each master, all moved to the new key, readable once the old key is dropped."""
    from services.common import sealing
    from services.common.config import settings
    from services.coordinator import reseal
    from services.tournament import jobs

    def use(*keys: str) -> None:
        monkeypatch.setenv(sealing.ENV, ",".join(keys))
        settings.cache_clear()
        sealing.sealer.cache_clear()

    old, new = sealing.generate_key(), sealing.generate_key()
    tids = one_per_master(redis_cluster, "t", slot_of=lambda name: key_slot(f"t:{name}".encode()))
    spec = jobs.TournamentSpec(games=["resource_hog"], players=2, seed="cluster-tournament-seed",
                               participants=[{"name": "r", "kind": "random"}, {"name": "g", "kind": "greedy"}])
    try:
        use(old)
        store = jobs.TournamentStore(cluster_client)
        for tid in tids:
            store.create(spec, tid=tid)
        use(new, old)
        counts = reseal.reseal_all(cluster_client, sealing.sealer())
        assert (counts.resealed, counts.raced, counts.failed) == (3 * 3, 0, [])  # a spec and two matches each
        use(new)
        assert [store.spec(tid).seed for tid in tids] == [spec.seed] * 3
        assert all(m.seed == jobs.initial_plan(spec)[0].seed for tid in tids for m in store.plan(tid))
    finally:
        monkeypatch.undo()
        settings.cache_clear()
        sealing.sealer.cache_clear()


def test_a_commit_on_a_cluster_takes_no_counters(redis_cluster, cluster_client):
    """A cluster's script touches one hash slot, and a rate limit's counters are not the game's: the
    store says it cannot count them in a commit (the gateway then counts them before the move), and
    refuses a commit that carries some, writing nothing."""
    store = RedisStore(cluster_client)
    assert not store.counts_in_commit
    store.create("cnt0", META, [])
    with pytest.raises(ValueError, match="counters"):
        store.commit("cnt0", 1, [Event("X", {})], Commit("move", 0, counters=Counters(("LIMITS:x",), (5,), (60,))))
    assert store.version("cnt0") == 1 and not cluster_client.exists("LIMITS:x")


def test_an_agents_record_is_read_with_a_claim_across_the_slots(redis_cluster, cluster_client):
    """The mover's desk reads the agent's record (a global key) with the claim script (the game's
    slot; ``Clock.claim_and_clock(read=...)``): on a cluster, whose pipelines take no scripts, one
    after the other, for games on every master, and again after every node lost its scripts."""
    from services.agents.registry import KEY, AgentRegistry

    registry = AgentRegistry(cluster_client)
    aid = registry.register({"name": "a", "protocol": "http", "address": "http://127.0.0.1:9/",
                             "secret": "s" * 20}).agent_id
    clock = Clock(cluster_client)
    for round_ in ("first", "after a script flush"):
        for gid in one_per_master(redis_cluster, f"c-{round_[0]}"):
            taken, held, _, bank, stored = clock.claim_and_clock(gid, 0, 3, "a.1", 2000, read=(KEY, aid))
            assert taken and bank == 2000 and registry.opened(aid, stored) == registry.get(aid), (round_, gid)
            assert clock.claim_and_clock(gid, 0, 3, "b.1", 2000, read=(KEY, aid))[:2] == (False, held)
        for port in redis_cluster.ports:
            redis_cluster.node(port).script_flush()


def test_a_failed_read_of_the_agents_record_leaves_no_claim_on_a_cluster(redis_cluster, cluster_client, monkeypatch):
    """On a cluster the record is read before the claim script runs (every claim's read before any
    script, for several claims at once): a read that fails raises with no claim taken, so the next
    asker takes the decision at once (it would otherwise wait out the lease of a claim nobody renews)."""
    from services.agents.registry import KEY

    clock = Clock(cluster_client)
    (gid,) = one_per_master(redis_cluster, "f")[:1]

    def unreachable_read(*args, **kwargs):
        raise redis.ConnectionError("the registry's node is out of reach")

    monkeypatch.setattr(cluster_client, "hget", unreachable_read)
    with pytest.raises(redis.ConnectionError):
        clock.claim_and_clock(gid, 0, 3, "a.1", 2000, read=(KEY, "someone"))
    monkeypatch.undo()
    assert clock.claim_and_clock(gid, 0, 3, "b.1", 2000)[0]  # nothing was left held
    # several claims (a mover's round): every read goes first, so a read that fails for the second
    # leaves the first game's decision unclaimed too
    first, second = one_per_master(redis_cluster, "m")[:2]
    reads = []
    real_hget = cluster_client.hget

    def second_read_fails(*args, **kwargs):
        reads.append(args)
        if len(reads) == 2:
            raise redis.ConnectionError("the registry's node is out of reach")
        return real_hget(*args, **kwargs)

    monkeypatch.setattr(cluster_client, "hget", second_read_fails)
    with pytest.raises(redis.ConnectionError):
        clock.claim_and_clock_many([ClaimRequest(first, 0, 3, "c.1", 2000, read=(KEY, "someone")),
                                    ClaimRequest(second, 0, 3, "c.2", 2000, read=(KEY, "someone"))])
    monkeypatch.undo()
    assert clock.claim_and_clock(first, 0, 3, "d.1", 2000)[0] and clock.claim_and_clock(second, 0, 3, "d.2", 2000)[0]
