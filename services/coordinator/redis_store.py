"""The Redis event store: one stream per game, commits checked by version in Lua.

Keys of game ``G`` all carry the hash tag ``{G}`` so a Redis Cluster keeps a game in
one slot:

* ``game:{G}:log``: the event log, a stream; entry ``v`` has the explicit id ``v-0``
  and fields ``v``, ``kind``, ``seat``, ``events`` (canonical JSON list of events) and
  ``t``, the Redis server's clock at the commit in milliseconds (not part of the game:
  for latency figures only);
* ``game:{G}:meta``: hash with ``game``, ``players``, ``version``, ``status``, ``moves``
  (moves committed) and ``meta`` (JSON: the bot seats);
* ``game:{G}:moves``: hash ``"<seat>:<client move id>"`` -> first result (JSON);
* ``game:{G}:ended``: a stream with one entry, written by the commit that ends the game
  (waiters block on it instead of waking at every move);
* ``game:{G}:seed``: the secret seed, encrypted (:mod:`services.common.sealing`), read and
  written by the deck service only; it expires unless the game's creation commits;
* ``game:{G}:seats``: seat tokens' digests (written by the gateway, :mod:`gateway.auth`);
* ``game:{G}:phase_nudge``: a short-lived marker of the gateway's nudges.

A commit (append the entry, bump the version, store the move result) is one Lua script,
so it is atomic and fails with nothing written if the version moved on, or if its client move
id already has a result (a client move needs no read before its commit). A game's creation is
one script too: its ``create`` and ``setup`` entries, its meta and (on a single server) its
place in the listing, so no game is ever stored half made (:meth:`RedisStore.create`). On a
Redis Cluster every script touches only keys of one game (one hash slot), as the cluster
requires, and the listing is written right after the creation script.

Retention: the log and the meta hash are the record of a game and stay. The commit that
ends a game sets a time to live (``finished_ttl`` seconds, ``LONGHOUSE_FINISHED_TTL``,
default one day) on every other key of the game (:data:`RETIRED`), so Redis does not grow
with games that ended long ago beyond their logs. Nothing writes those keys after the end:
seats are claimed only in a game not over (:func:`gateway.auth.claim_seat`).
"""

from __future__ import annotations

import json
import time
from typing import Any, Iterator

import redis
from redis.cluster import RedisCluster

from services.rules.core import Event, canonical_json, events_from_json, events_to_json

from .store import Commit, Entry, GameNotFound, MoveRecorded, VersionConflict

_CREATE = """
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
local v = 1
redis.call('XADD', KEYS[2], '1-0', 'v', 1, 'kind', 'create', 'seat', -1, 'events', ARGV[4])
local now = redis.call('TIME')
if ARGV[5] ~= '' then
  local ms = tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000)
  redis.call('XADD', KEYS[2], '2-0', 'v', 2, 'kind', 'setup', 'seat', -1, 'events', ARGV[5], 't', ms)
  v = 2
end
redis.call('HSET', KEYS[1], 'game', ARGV[1], 'players', ARGV[2], 'version', v, 'status', ARGV[6], 'meta', ARGV[3])
redis.call('PERSIST', KEYS[5])
if ARGV[6] == 'over' then
  redis.call('XADD', KEYS[4], '1-0', 'version', v)
  for i = 3, 7 do redis.call('EXPIRE', KEYS[i], ARGV[7]) end
end
if #KEYS > 7 then redis.call('ZADD', KEYS[8], tonumber(now[1]), ARGV[8]) end
return v
"""
# The creation: the ``create`` entry and (when given) the ``setup`` entry, the meta hash, and
# the listing (:data:`GAMES_INDEX`, KEYS[8]) on a single server, all in one script, so a game is
# stored whole or not at all. The seed the deck service stored for the game (KEYS[5]) stops
# expiring (:data:`UNCLAIMED_SEED_TTL`). KEYS: meta, log, then :data:`RETIRED`, then the listing.

_COMMIT = """
local v = tonumber(redis.call('HGET', KEYS[1], 'version'))
if v == nil then return {-1, 0} end
if v ~= tonumber(ARGV[1]) then return {0, v} end
if ARGV[6] ~= '' and redis.call('HEXISTS', KEYS[3], ARGV[6]) == 1 then return {2, v} end
local nv = v + 1
local now = redis.call('TIME')
local ms = tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000)
redis.call('XADD', KEYS[2], nv .. '-0', 'v', nv, 'kind', ARGV[2], 'seat', ARGV[3], 'events', ARGV[4], 't', ms)
redis.call('HSET', KEYS[1], 'version', nv, 'status', ARGV[5])
if ARGV[2] == 'move' then redis.call('HINCRBY', KEYS[1], 'moves', 1) end
if ARGV[6] ~= '' then redis.call('HSET', KEYS[3], ARGV[6], ARGV[7]) end
if ARGV[5] == 'over' then
  redis.call('XADD', KEYS[4], '1-0', 'version', nv)
  for i = 3, #KEYS do redis.call('EXPIRE', KEYS[i], ARGV[8]) end
end
return {1, nv}
"""

# Every key of a game but its record (``log`` and ``meta``); the commit that ends the game
# gives them a time to live. ``moves`` and ``ended`` come first: the commit script writes them.
RETIRED = ("moves", "ended", "seed", "seats", "phase_nudge")

GAMES_INDEX = "longhouse:games"

UNCLAIMED_SEED_TTL = 3600
"""Seconds a seed stored for a game not (yet) created lives: the creation that stored it died
before its commit, so no game will use it. The creation's commit makes it last."""


def key(game_id: str, name: str) -> str:
    """The Redis key ``game:{<game_id>}:<name>``."""
    return f"game:{{{game_id}}}:{name}"


def games_in_status(client: redis.Redis, status: str, limit: int = 10_000) -> Iterator[str]:
    """Ids of the newest ``limit`` games (by :data:`GAMES_INDEX`) whose status is ``status``
    (``active``, ``phase`` or ``over``), newest first: the start-up sweeps' walk."""
    wanted = status.encode()
    for raw in client.zrevrange(GAMES_INDEX, 0, limit - 1):
        game_id = raw.decode()
        if client.hget(key(game_id, "meta"), "status") == wanted:
            yield game_id


def _commit_keys(game_id: str) -> list[str]:
    """KEYS of the commit script: meta, log, then :data:`RETIRED` (``moves``, ``ended`` first)."""
    return [key(game_id, "meta"), key(game_id, "log"), *(key(game_id, name) for name in RETIRED)]


def entry_id(version: int) -> str:
    """Stream entry id of version ``version`` (also the SSE event id)."""
    return f"{version}-0"


def entry_from_fields(fields: dict[Any, Any]) -> Entry:
    """Build an :class:`Entry` from a stream entry's fields (bytes or str keys)."""
    f = {(k.decode() if isinstance(k, bytes) else k): (v.decode() if isinstance(v, bytes) else v)
         for k, v in fields.items()}
    return Entry(int(f["v"]), f["kind"], int(f["seat"]), tuple(events_from_json(f["events"])))


class RedisStore:
    """:class:`services.coordinator.store.EventStore` over a Redis server.

    Args:
        client: a ``redis.Redis`` client (``decode_responses=False``).
        finished_ttl: seconds the keys in :data:`RETIRED` live after the game ends
            (default: the ``finished_ttl`` setting, one day).
    """

    def __init__(self, client: redis.Redis, finished_ttl: int | None = None):
        self.r = client
        if finished_ttl is None:
            from services.common.config import settings

            finished_ttl = settings().finished_ttl
        if finished_ttl < 1:
            raise ValueError(f"finished_ttl must be at least 1 second, not {finished_ttl}")
        self.finished_ttl = int(finished_ttl)
        self._create = client.register_script(_CREATE)
        self._commit = client.register_script(_COMMIT)
        self._commit_sha: str | None = None

    @classmethod
    def from_url(cls, url: str) -> "RedisStore":
        """A store on the Redis at ``url`` (a ``redis+cluster://`` URL: a Redis Cluster;
        :func:`services.common.redis_client.connect`)."""
        from services.common.redis_client import connect

        return cls(connect(url))

    def create(self, game_id: str, meta: dict[str, Any], events: list[Event],
               setup: list[Event] | None = None, status: str = "active") -> int:
        """Store a new game in one atomic step (one Lua script): entry 1 (``create``) with
        ``events``, and, with ``setup`` (a list, maybe empty), entry 2 (``setup``) with the
        set-up's events, the game then being in ``status``; its meta hash; and, on a single
        server, its place in the listing (:data:`GAMES_INDEX`). A crash before the script leaves
        no trace of the game, after it the whole game. Returns the version stored (2 with
        ``setup``, else 1).

        On a Redis Cluster the listing lies in another hash slot, so it is written right after
        the script (a game whose creator died between the two is whole but not listed).

        Raises:
            ValueError: the id is taken (nothing is written).
        """
        cluster = isinstance(self.r, RedisCluster)
        keys = [key(game_id, "meta"), key(game_id, "log"), *(key(game_id, name) for name in RETIRED)]
        if not cluster:
            keys.append(GAMES_INDEX)
        version = self._create(
            keys=keys,
            args=[meta["game"], meta["players"], canonical_json(meta), events_to_json(events),
                  events_to_json(setup) if setup is not None else "", status if setup is not None else "active",
                  self.finished_ttl, game_id],
        )
        if not version:
            raise ValueError(f"game {game_id!r} exists")
        if cluster:
            self.r.zadd(GAMES_INDEX, {game_id: int(time.time())})
        return int(version)

    def meta(self, game_id: str) -> dict[str, Any]:
        """``game``, ``players``, ``version``, ``status`` of a game. Raises GameNotFound."""
        raw = self.r.hgetall(key(game_id, "meta"))
        if not raw:
            raise GameNotFound(game_id)
        m = {k.decode(): v.decode() for k, v in raw.items()}
        out: dict[str, Any] = json.loads(m.get("meta", "{}"))
        out.update(game=m["game"], players=int(m["players"]), version=int(m["version"]), status=m["status"],
                   moves=int(m.get("moves", 0)))
        return out

    def version(self, game_id: str) -> int:
        """Current version. Raises GameNotFound."""
        v = self.r.hget(key(game_id, "meta"), "version")
        if v is None:
            raise GameNotFound(game_id)
        return int(v)

    def read(self, game_id: str, after: int = 0, upto: int | None = None) -> list[Entry]:
        """Entries with ``after < version <= upto`` (``upto=None``: to the end)."""
        rows = self.r.xrange(key(game_id, "log"), min=entry_id(after + 1),
                             max=entry_id(upto) if upto is not None else "+")
        if not rows and after == 0 and not self.r.exists(key(game_id, "meta")):
            raise GameNotFound(game_id)
        return [entry_from_fields(fields) for _id, fields in rows]

    def commit(self, game_id: str, base_version: int, events: list[Event], commit: Commit) -> int:
        """Append one entry atomically if the game is at ``base_version``.

        Raises:
            VersionConflict: the game is at another version (nothing written).
            MoveRecorded: the commit's client move id has a stored result already (nothing written):
                the same script checks it, so a move needs no read of its id before its commit.
            GameNotFound: no such game.
        """
        ok, v = self._commit(keys=_commit_keys(game_id), args=self._commit_args(base_version, events, commit))
        if ok == -1:
            raise GameNotFound(game_id)
        if ok == 0:
            raise VersionConflict(base_version, int(v))
        if ok == 2:
            raise MoveRecorded(game_id, commit.move_key)  # type: ignore[arg-type]
        return int(v)

    def commit_many(self, commits: list[tuple[str, int, list[Event], Commit]]) -> list[int | Exception]:
        """Many games' commits in one round trip (a pipeline of the commit script, each still
        atomic and checked by version on its own). A commit that failed comes back as its
        exception (VersionConflict, GameNotFound) in its place.

        On a Redis Cluster the pipeline sends each node its games' commits; it carries the script
        itself (``EVAL``: redis-py's cluster pipeline has neither ``evalsha`` nor ``eval``), which
        each node runs from its script cache after the first time."""
        if not commits:
            return []
        cluster = isinstance(self.r, RedisCluster)
        if self._commit_sha is None and not cluster:
            self._commit_sha = self.r.script_load(_COMMIT)
        pipe = self.r.pipeline(transaction=False)
        for game_id, base, events, commit in commits:
            keys = _commit_keys(game_id)
            if cluster:
                pipe.execute_command("EVAL", _COMMIT, len(keys), *keys, *self._commit_args(base, events, commit))
            else:
                pipe.evalsha(self._commit_sha, len(keys), *keys, *self._commit_args(base, events, commit))
        try:
            replies = pipe.execute()
        except redis.exceptions.NoScriptError:  # the server restarted and forgot the script
            self._commit_sha = None
            return self.commit_many(commits)
        out: list[int | Exception] = []
        for (game_id, base, _e, _c), (ok, v) in zip(commits, replies):
            if ok == -1:
                out.append(GameNotFound(game_id))
            elif ok == 0:
                out.append(VersionConflict(base, int(v)))
            elif ok == 2:
                out.append(MoveRecorded(game_id, _c.move_key))  # type: ignore[arg-type]
            else:
                out.append(int(v))
        return out

    def _commit_args(self, base_version: int, events: list[Event], commit: Commit) -> list[Any]:
        """ARGV of the commit script."""
        move_field = f"{commit.move_key[0]}:{commit.move_key[1]}" if commit.move_key else ""
        return [base_version, commit.kind, commit.seat, events_to_json(events), commit.status, move_field,
                canonical_json(commit.result) if commit.result is not None else "", self.finished_ttl]

    def move_result(self, game_id: str, seat: int, move_id: str) -> dict[str, Any] | None:
        """The first result of ``(seat, move_id)``, or ``None``."""
        raw = self.r.hget(key(game_id, "moves"), f"{seat}:{move_id}")
        return json.loads(raw) if raw is not None else None


class RedisSeeds:
    """The deck service's seed store: ``game:{G}:seed``, first write wins, encrypted at rest
    (:mod:`services.common.sealing`: a seed stored before encryption is read as it is)."""

    def __init__(self, client: redis.Redis):
        self.r = client

    def put(self, game_id: str, seed: str) -> None:
        """Store the secret seed of a game unless one is stored already. It expires after
        :data:`UNCLAIMED_SEED_TTL` seconds unless the game's creation commits meanwhile."""
        from services.common.sealing import sealer

        self.r.set(key(game_id, "seed"), sealer().seal(seed), nx=True, ex=UNCLAIMED_SEED_TTL)

    def get(self, game_id: str) -> str:
        """The seed of a game. Raises KeyError if none; UnsealError if no configured key opens it."""
        from services.common.sealing import sealer

        raw = self.r.get(key(game_id, "seed"))
        if raw is None:
            raise KeyError(f"no seed stored for game {game_id!r}")
        return sealer().unseal(raw)
