"""Issue: operability, atomic creation (acceptance 4) and secrets at rest (acceptance 5), on the
whole stack.

* The crash point that made half-made games: the gateway worker creating a game is SIGKILLed
  while the set-up's board call is in flight (the boards service stopped with SIGSTOP, so the
  call waits; the deck's set-up calls are done by then). Before, the creation entry was already
  committed at that point, a game at version 1 that nobody could play; now nothing of the game
  is stored (the seed the deck stored expires), and creating it again makes one whole game.
* After an agent is registered, a seeded game with a seeded bot is created and a seeded
  tournament is played to its end, no key of any Redis database (read by type, and its ``DUMP``)
  and no byte of Redis's append-only files holds the agent's secret, the game's seed, the bot's
  seed, the tournament's seed or any seed derived from it (its matches' game seeds and their bot
  seats' seeds) in plain text.
"""

from __future__ import annotations

import os
import signal
import threading
import uuid
from pathlib import Path

import psutil
import pytest
import redis
import requests

from services.coordinator.redis_store import GAMES_INDEX, UNCLAIMED_SEED_TTL, RedisStore, key
from services.tournament import jobs
from tests.stack.test_tournament_stack import wait_done
from tests.support.wait import wait_for

pytestmark = pytest.mark.stack


def _client(url: str) -> redis.Redis:
    return redis.Redis.from_url(url)


def _games(r: redis.Redis) -> set[bytes]:
    """Every game's keys but the seeds, and every id in the listing."""
    return ({k for k in r.scan_iter(match="game:*", count=1000) if not k.endswith(b":seed")}
            | set(r.zrange(GAMES_INDEX, 0, -1)))


def _seeds(r: redis.Redis) -> set[bytes]:
    return set(r.scan_iter(match="game:*:seed", count=1000))


def _unread_bytes_at(port: int) -> int:
    """Bytes that arrived on loopback TCP connections to ``port`` and that the process listening
    there has not read (the ``rx_queue`` of ``/proc/net/tcp``): a stopped service's pending calls."""
    total = 0
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        if not os.path.exists(table):
            continue
        with open(table) as f:
            next(f)
            for line in f:
                fields = line.split()
                local_port = int(fields[1].rsplit(":", 1)[1], 16)
                if local_port == port and fields[3] == "01":  # ESTABLISHED
                    total += int(fields[4].split(":")[1], 16)
    return total


def _gateway_workers(stack) -> set[int]:
    arbiter = stack.stack.supervisor.children["gateway"].pid
    return {p.pid for p in psutil.Process(arbiter).children()}


def _healthy(url: str) -> bool:
    try:
        return requests.get(f"{url}/healthz", timeout=2).status_code == 200
    except requests.RequestException:
        return False


@pytest.mark.timeout(120)
def test_a_gateway_killed_between_creation_and_set_up_leaves_no_game(stack):
    r = _client(stack.redis_url)
    body = {"game": "noggin", "players": 2, "seed": f"atomic-{uuid.uuid4().hex}"}  # set-up: deck, then board
    before, seeds_before = _games(r), _seeds(r)
    boards = stack.stack.supervisor.children["boards"]
    workers = _gateway_workers(stack)
    answer: dict[str, object] = {}

    def create() -> None:  # a client that sends no Idempotency-Key, and loses the answer
        try:
            answer["status"] = requests.post(f"{stack.gateway_url}/games", json=body, headers=stack.operator,
                                             timeout=60).status_code
        except requests.RequestException as exc:
            answer["error"] = type(exc).__name__

    os.kill(boards.pid, signal.SIGSTOP)
    try:
        thread = threading.Thread(target=create, daemon=True)
        thread.start()
        # the seed is stored and the deck's set-up calls answered: the set-up's board call waits
        wait_for(lambda: _unread_bytes_at(stack.settings.boards_port) > 0, 30, "the set-up's call to the stopped boards")
        assert len(_seeds(r) - seeds_before) == 1
        for pid in workers:  # the creating process dies here, between creation and set-up
            os.kill(pid, signal.SIGKILL)
        thread.join(30)
        assert not thread.is_alive() and "status" not in answer, answer  # the client lost its answer
    finally:
        os.kill(boards.pid, signal.SIGCONT)
    wait_for(lambda: (_gateway_workers(stack) - workers) and _healthy(stack.gateway_url), 60,
             "the gateway's new workers")

    assert _games(r) == before  # no game at all: no meta, no log, not listed
    [orphan] = _seeds(r) - seeds_before
    assert 0 < r.ttl(orphan) <= UNCLAIMED_SEED_TTL  # the unused seed expires

    made = requests.post(f"{stack.gateway_url}/games", json=body, headers=stack.operator, timeout=30)
    assert made.status_code == 201, made.text
    gid = made.json()["game_id"]
    assert made.json()["version"] == 2 and made.json()["status"] == "active"
    assert [(e.version, e.kind) for e in RedisStore(r).read(gid)] == [(1, "create"), (2, "setup")]
    assert r.zscore(GAMES_INDEX, gid) is not None and r.ttl(key(gid, "seed")) == -1
    assert requests.get(f"{stack.gateway_url}/games/{gid}", timeout=10).json()["to_move"]


def _databases(r: redis.Redis) -> list[int]:
    return sorted(int(name[2:]) for name in r.info("keyspace"))


def _everything_stored(url: str) -> list[bytes]:
    """Every key of every database of the Redis at ``url``: its name, its ``DUMP`` and its value
    read by type (strings, hashes, lists, sets, sorted sets, streams)."""
    out: list[bytes] = []
    for db in _databases(_client(url)):
        r = _client(url.rsplit("/", 1)[0] + f"/{db}")
        for name in r.scan_iter(count=1000):
            out.append(name)
            dumped = r.dump(name)
            if dumped is not None:
                out.append(dumped)
            kind = r.type(name)
            if kind == b"string":
                out.append(r.get(name) or b"")
            elif kind == b"hash":
                out.extend(k + b"=" + v for k, v in r.hgetall(name).items())
            elif kind == b"list":
                out.extend(r.lrange(name, 0, -1))
            elif kind == b"set":
                out.extend(r.smembers(name))
            elif kind == b"zset":
                out.extend(m for m, _ in r.zrange(name, 0, -1, withscores=True))
            elif kind == b"stream":
                out.extend(k + b"=" + v for _, fields in r.xrange(name) for k, v in fields.items())
    return out


def _append_only_files(data_dir: Path) -> bytes:
    return b"".join(p.read_bytes() for p in sorted((data_dir / "redis").rglob("*")) if p.is_file())


def test_no_agent_secret_or_seed_is_stored_in_plain_text(stack):
    tag = uuid.uuid4().hex
    secret, seed, bot_seed, name = f"agent-secret-{tag}", f"game-seed-{tag}", f"bot-seed-{tag}", f"visible-{tag}"
    registered = requests.post(f"{stack.gateway_url}/agents", headers=stack.operator, timeout=10,
                               json={"name": name, "protocol": "http", "address": "http://127.0.0.1:9/",
                                     "secret": secret})
    assert registered.status_code == 201, registered.text
    made = requests.post(f"{stack.gateway_url}/games", headers=stack.operator, timeout=30,
                         json={"game": "noggin", "players": 2, "seed": seed,
                               "bots": {"1": {"kind": "random", "seed": bot_seed}}})
    assert made.status_code == 201, made.text
    spec = {"games": ["resource_hog"], "format": "round_robin", "players": 2, "seed": f"tournament-seed-{tag}",
            "participants": [{"name": f"random-{tag}", "kind": "random"}, {"name": "greedy", "kind": "greedy"}]}
    created = requests.post(f"{stack.gateway_url}/tournaments", headers=stack.operator, json=spec, timeout=30)
    assert created.status_code == 201, created.text
    doc = wait_done(stack.gateway_url, created.json()["tournament_id"])
    plan = jobs.initial_plan(jobs.TournamentSpec.model_validate(spec))
    assert doc["played"] == len(plan) == 2 and {m["seed"] for m in doc["matches"]} == {m.seed for m in plan}
    derived = [m.seed for m in plan]
    derived += [jobs.seat_seed(jobs.TournamentSpec.model_validate(spec), m, s) for m in plan for s in range(2)]
    stored = b"\n".join(_everything_stored(stack.redis_url))
    on_disk = _append_only_files(stack.data_dir)
    for visible in (name, f"random-{tag}"):  # the reading sees plain text where it is
        assert visible.encode() in stored and visible.encode() in on_disk, visible
    for plain in (secret, seed, bot_seed, spec["seed"], *derived):
        assert plain.encode() not in stored, plain
        assert plain.encode() not in on_disk, plain
    # and the stack still uses them: the seeded game plays on (its bot moves on the bus)
    summary = requests.get(f"{stack.gateway_url}/games/{made.json()['game_id']}", timeout=10).json()
    assert summary["version"] >= 2 and summary["bots"] == {"1": "random"}
