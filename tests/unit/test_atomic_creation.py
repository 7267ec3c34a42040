"""Issue: operability, atomic creation (acceptance 4). A game is created and set up in one commit:
a fault at any point before that commit (the seed stored, each of the set-up's domain calls)
leaves no game at all, and one after it (handing the game over to its bots) a whole game, set
up, listed, at version 2. Played on a real Redis store with the deck's seeds in Redis."""

from __future__ import annotations

import pytest

from services.coordinator.ports import embedded_ports
from services.coordinator.projection import Projections
from services.coordinator.redis_store import GAMES_INDEX, UNCLAIMED_SEED_TTL, RedisSeeds, RedisStore, key
from services.coordinator.store import GameNotFound
from services.coordinator.table import InlineScheduler, Table
from services.rules.core import Event, GameConfig, events_to_json


class Crash(Exception):
    """The fault injected (stands for the process dying at that point)."""


def _table(redis_client, scheduler=None) -> Table:
    store = RedisStore(redis_client)
    projections = Projections(store)
    return Table(store, embedded_ports(store, RedisSeeds(redis_client), projections=projections),
                 scheduler or InlineScheduler(), projections=projections)


def _crash_at_call(table: Table, n: int) -> list[str]:
    """Make the ``n``-th domain call (open_game counted first) raise :class:`Crash`; returns the
    log of calls made."""
    calls: list[str] = []
    deck = table.ports["deck"]
    real_open = deck.open_game

    def open_game(game_id, seed):
        calls.append("deck.open_game")
        if len(calls) == n:
            raise Crash("open_game")
        real_open(game_id, seed)

    deck.open_game = open_game
    for domain, port in table.ports.items():
        def apply(*args, _real=port.apply, _domain=domain, **kwargs):
            calls.append(f"{_domain}.apply")
            if len(calls) == n:
                raise Crash(_domain)
            return _real(*args, **kwargs)

        port.apply = apply
    return calls


def _keys_of(redis_client, gid: str) -> dict[str, int]:
    """The game's keys (last name part) and their TTLs."""
    return {k.decode().rsplit(":", 1)[1]: redis_client.ttl(k) for k in redis_client.scan_iter(match=f"game:{{{gid}}}:*")}


def test_the_creation_is_one_commit_of_two_entries(redis_client):
    table = _table(redis_client)
    gid = table.create(GameConfig(game="noggin", players=3), seed="one-commit", game_id="g-one")
    entries = table.store.read(gid)
    assert [(e.version, e.kind, e.seat) for e in entries] == [(1, "create", -1), (2, "setup", -1)]
    assert entries[1].events  # noggin's set-up shuffles and deals
    meta = table.store.meta(gid)
    assert (meta["version"], meta["status"], meta["moves"]) == (2, "active", 0)
    assert redis_client.zscore(GAMES_INDEX, gid) is not None
    assert _keys_of(redis_client, gid) == {"meta": -1, "log": -1, "seed": -1}  # the seed no longer expires
    fields = redis_client.xrange(key(gid, "log"))[1][1]
    assert fields[b"kind"] == b"setup" and int(fields[b"t"]) > 0
    with pytest.raises(ValueError, match="exists"):
        table.create(GameConfig(game="noggin", players=2), seed="other", game_id="g-one")
    assert [e.kind for e in table.store.read(gid)] == ["create", "setup"]


def test_the_store_refuses_a_taken_id_and_writes_nothing(redis_client):
    store = RedisStore(redis_client)
    created = [Event("GameCreated", {"config": {"game": "step_race", "players": 2}})]
    assert store.create("g-taken", {"game": "step_race", "players": 2}, created, setup=[Event("X", {})]) == 2
    with pytest.raises(ValueError, match="exists"):
        store.create("g-taken", {"game": "step_race", "players": 3}, created, setup=[Event("Y", {})])
    [first, second] = store.read("g-taken")
    assert events_to_json(second.events) == events_to_json([Event("X", {})])
    assert store.meta("g-taken")["players"] == 2


@pytest.mark.parametrize("game", ["noggin", "gnomes", "resource_hog"])
def test_a_crash_at_any_point_before_the_commit_leaves_no_game(redis_client, game):
    probe = _table(redis_client)
    calls = _crash_at_call(probe, 0)  # counts the calls of a creation that goes through
    probe.create(GameConfig(game=game, players=2), seed="count", game_id="g-count")
    assert calls[0] == "deck.open_game" and len(calls) >= 2
    for n in range(1, len(calls) + 1):  # the seed stored, then each domain call of the set-up
        table = _table(redis_client)
        _crash_at_call(table, n)
        gid = f"g-crash-{game}-{n}"
        with pytest.raises(Crash):
            table.create(GameConfig(game=game, players=2), seed=f"crash-{n}", game_id=gid)
        with pytest.raises(GameNotFound):
            table.store.meta(gid)
        keys = _keys_of(redis_client, gid)
        assert set(keys) <= {"seed"}, (n, keys)  # no meta, no log: not even half a game
        assert all(0 < ttl <= UNCLAIMED_SEED_TTL for ttl in keys.values())  # an unused seed expires
        assert redis_client.zscore(GAMES_INDEX, gid) is None
        again = _table(redis_client).create(GameConfig(game=game, players=2), seed=f"crash-{n}", game_id=gid)
        assert [e.kind for e in _table(redis_client).store.read(again)] == ["create", "setup"]


class _FailingHandOver(InlineScheduler):
    """A scheduler that dies when the new game is handed to its bot seat: after the commit."""

    def schedule_bot(self, game_id, seat, version):
        raise Crash("hand-over")


def test_a_crash_after_the_commit_leaves_a_whole_game(redis_client):
    table = _table(redis_client, _FailingHandOver())
    with pytest.raises(Crash):
        table.create(GameConfig(game="noggin", players=2), seed="after", game_id="g-after",
                     bots={0: {"kind": "random", "seed": "b0"}, 1: {"kind": "random", "seed": "b1"}})
    fresh = _table(redis_client)
    assert [e.kind for e in fresh.store.read("g-after")] == ["create", "setup"]
    assert fresh.summary("g-after")["version"] == 2 and fresh.summary("g-after")["to_move"]
    assert redis_client.zscore(GAMES_INDEX, "g-after") is not None
    assert fresh.bots("g-after") == {0: {"kind": "random", "seed": "b0"}, 1: {"kind": "random", "seed": "b1"}}


def test_no_table_method_finishes_a_half_made_game():
    assert not hasattr(Table, "finish_setup")  # nothing is ever half made, so nothing finishes one
    assert not hasattr(RedisStore, "ensure_listed")
