"""Issue: operability, secrets at rest (acceptance 5). Agent secrets and game seeds are stored
encrypted with MultiFernet under ``LONGHOUSE_SECRET_KEYS`` (first key encrypts, all decrypt), and
the key rotates: put the new key first, re-encrypt what is stored
(``python -m services.coordinator.reseal``), drop the old key."""

from __future__ import annotations

import json

import pytest

from services.agents.registry import KEY as AGENTS, AgentRegistry
from services.common import sealing
from services.common.config import settings
from services.common.sealing import PREFIX, Sealer, UnsealError, generate_key, parse_keys, sealer_from
from services.coordinator import reseal
from services.coordinator.ports import embedded_ports
from services.coordinator.projection import Projections
from services.coordinator.redis_store import RedisSeeds, RedisStore, key
from services.coordinator.table import InlineScheduler, Table
from services.rules.core import GameConfig


def test_the_first_key_seals_and_every_key_opens():
    old, new = generate_key(), generate_key()
    sealed_old = Sealer([old]).seal("a seed")
    assert sealed_old.startswith(PREFIX) and "a seed" not in sealed_old
    assert Sealer([old]).seal("a seed") != sealed_old  # a fresh IV each time
    both = Sealer([new, old])
    assert both.unseal(sealed_old) == "a seed"
    assert not both.current(sealed_old) and both.current(both.seal("x"))
    with pytest.raises(UnsealError):
        Sealer([old]).unseal(both.seal("y"))
    assert both.unseal("written before encryption") == "written before encryption"  # no prefix: plain


def test_reseal_moves_a_value_to_the_first_key_and_leaves_current_ones():
    old, new = generate_key(), generate_key()
    both = Sealer([new, old])
    moved = both.reseal(Sealer([old]).seal("s"))
    assert moved is not None and Sealer([new]).unseal(moved) == "s"
    assert both.reseal(moved) is None
    assert Sealer([new]).unseal(both.reseal("plain") or "") == "plain"
    with pytest.raises(UnsealError):
        both.reseal(Sealer([generate_key()]).seal("stranger"))


def test_keys_are_parsed_in_order_and_a_bad_one_is_named_by_position_only():
    a, b = generate_key(), generate_key()
    assert parse_keys(f" {a} ,, {b} ") == [a, b]
    with pytest.raises(ValueError, match="key 2 is not a Fernet key") as caught:
        parse_keys(f"{a},not-a-key-at-all")
    assert "not-a-key-at-all" not in str(caught.value)
    made, development = sealer_from("")
    assert development and made.unseal(Sealer([sealing.development_key()]).seal("d")) == "d"
    assert sealer_from(a)[1] is False


@pytest.fixture
def keys(monkeypatch):
    """Set ``LONGHOUSE_SECRET_KEYS`` for the test (the process's sealer re-read each time)."""

    def use(*ks: str) -> None:
        monkeypatch.setenv(sealing.ENV, ",".join(ks))
        settings.cache_clear()
        sealing.sealer.cache_clear()

    yield use
    monkeypatch.undo()
    settings.cache_clear()
    sealing.sealer.cache_clear()


def _stored_text(redis_client) -> str:
    """Everything stored in the database, read by type, as one text."""
    out = []
    for name in redis_client.scan_iter():
        kind = redis_client.type(name)
        if kind == b"string":
            out.append(redis_client.get(name))
        elif kind == b"hash":
            out.extend(b"%s=%s" % kv for kv in redis_client.hgetall(name).items())
        elif kind == b"stream":
            out.extend(json.dumps({k.decode(): v.decode() for k, v in f.items()}).encode()
                       for _, f in redis_client.xrange(name))
    return b"\n".join(out).decode()


def test_a_rotation_re_encrypts_seeds_bot_seeds_and_agent_secrets(redis_client, keys):
    old, new = generate_key(), generate_key()
    keys(old)
    store = RedisStore(redis_client)
    projections = Projections(store)
    table = Table(store, embedded_ports(store, RedisSeeds(redis_client), projections=projections),
                  InlineScheduler(), projections=projections)
    gid = table.create(GameConfig(game="noggin", players=2), seed="rotating-game-seed",
                       bots={1: {"kind": "random", "seed": "rotating-bot-seed"}})
    agent = AgentRegistry(redis_client).register(
        {"name": "a", "protocol": "http", "address": "http://127.0.0.1:9/", "secret": "rotating-agent-secret"})
    redis_client.set(key("legacy", "seed"), "legacy-plain-seed")  # stored before encryption
    text = _stored_text(redis_client)
    for plain in ("rotating-game-seed", "rotating-bot-seed", "rotating-agent-secret"):
        assert plain not in text

    keys(new, old)  # step 1: the new key first, the old one still opens
    counts = reseal.reseal_all(redis_client, sealing.sealer())
    assert (counts.resealed, counts.current, counts.failed) == (4, 0, [])  # seed, bot seed, agent secret, legacy
    assert reseal.reseal_all(redis_client, sealing.sealer()).resealed == 0  # idempotent

    keys(new)  # step 3: the old key dropped; everything still opens
    assert RedisSeeds(redis_client).get(gid) == "rotating-game-seed"
    assert RedisSeeds(redis_client).get("legacy") == "legacy-plain-seed"
    fresh = Table(store, embedded_ports(store, RedisSeeds(redis_client)), InlineScheduler())
    assert fresh.bots(gid)[1]["seed"] == "rotating-bot-seed"
    assert AgentRegistry(redis_client).get(agent.agent_id).secret == "rotating-agent-secret"
    assert "legacy-plain-seed" not in _stored_text(redis_client)
    assert json.loads(redis_client.hget(AGENTS, agent.agent_id))["secret"].startswith(PREFIX)

    keys(generate_key())  # a key that never sealed anything opens nothing, and says so
    assert len(reseal.reseal_all(redis_client, sealing.sealer()).failed) == 4
    with pytest.raises(UnsealError):
        RedisSeeds(redis_client).get(gid)


def test_a_tournaments_seeds_are_stored_sealed_and_a_rotation_re_encrypts_them(redis_client, keys):
    """The tournament seed (every match's game and bot seeds derive from it) and each planned
    match's and result's game seed are in no stored byte; the store reads them back; a spec stored
    before encryption is read as it is; the re-encryption moves them all to the new key."""
    from services.tournament import jobs

    old, new = generate_key(), generate_key()
    keys(old)
    store = jobs.TournamentStore(redis_client)
    spec = jobs.TournamentSpec(games=["resource_hog"], players=2, seed="rotating-tournament-seed",
                               participants=[{"name": "r", "kind": "random"}, {"name": "g", "kind": "greedy"}])
    tid = store.create(spec)
    plan = jobs.initial_plan(spec)
    assert len(plan) == 2 and len({m.seed for m in plan}) == 1  # two seat rotations of one deal
    store.record(tid, jobs.MatchResult(index=0, game="resource_hog", seats=plan[0].seats, scores=[1, 2],
                                       winners=[1], strikes=[0, 0], default_moves=[0, 0], seed=plan[0].seed))
    legacy = spec.model_copy(update={"seed": "legacy-plain-tournament-seed"})
    redis_client.set("tournament:{t:legacy}:spec", legacy.model_dump_json())  # stored before encryption
    plain = [spec.seed, plan[0].seed, *(jobs.seat_seed(spec, m, s) for m in plan for s in range(2))]
    text = _stored_text(redis_client)
    assert "rotating-tournament-seed" not in text and plan[0].seed not in text and PREFIX in text
    assert "legacy-plain-tournament-seed" in text  # the reading sees plain text where it is
    assert store.spec(tid).seed == spec.seed and [m.seed for m in store.plan(tid)] == [m.seed for m in plan]
    assert [r.seed for r in store.results(tid)] == [plan[0].seed]
    assert store.spec("legacy").seed == "legacy-plain-tournament-seed"

    keys(new, old)
    counts = reseal.reseal_all(redis_client, sealing.sealer())
    assert (counts.resealed, counts.current, counts.failed) == (5, 0, [])  # spec, two matches, result, legacy
    assert reseal.reseal_all(redis_client, sealing.sealer()).resealed == 0
    keys(new)
    assert store.spec(tid).seed == spec.seed and store.results(tid)[0].seed == plan[0].seed
    assert store.spec("legacy").seed == "legacy-plain-tournament-seed"
    text = _stored_text(redis_client)
    assert not any(seed in text for seed in [*plain, "legacy-plain-tournament-seed"])
    keys(generate_key())
    assert len(reseal.reseal_all(redis_client, sealing.sealer()).failed) == 5
    with pytest.raises(UnsealError):
        store.spec(tid)


def test_reseal_names_every_document_the_tournament_store_seals():
    """The re-encryption sits below the tournament layer and names its keys itself: they must be
    the ones the store writes, with the same sealed fields."""
    from fnmatch import fnmatchcase

    from services.tournament import jobs

    assert reseal.TOURNAMENT_FIELDS == jobs.SEALED_FIELDS
    for part, kind in (("spec", "string"), ("plan", "hash"), ("results", "hash")):
        matched = [p for p in reseal.TOURNAMENT_DOCUMENTS if fnmatchcase(jobs._key("abc123", part), p)]
        assert matched and reseal.TOURNAMENT_DOCUMENTS[matched[0]] == kind, part


def test_the_command_refuses_to_run_without_keys(keys, capsys):
    keys()
    assert reseal.main(["--url", "redis://127.0.0.1:1/0"]) == 2
    assert "LONGHOUSE_SECRET_KEYS is not set" in capsys.readouterr().err
