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


def test_the_command_refuses_to_run_without_keys(keys, capsys):
    keys()
    assert reseal.main(["--url", "redis://127.0.0.1:1/0"]) == 2
    assert "LONGHOUSE_SECRET_KEYS is not set" in capsys.readouterr().err
