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
id already has a result (a client move needs no read before its commit). A move posted to the
gateway also counts its rate-limit counters in that script, first, and is not committed if one
is over (:class:`~services.coordinator.store.Counters`), so the move is one round trip. A
game's creation is one script too: its ``create`` and ``setup`` entries, its meta and (on a
single server) its place in the listing, so no game is ever stored half made
(:meth:`RedisStore.create`). On a
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

from .store import Commit, Counters, Entry, GameNotFound, MoveRecorded, OverLimit, VersionConflict

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
  for i = 3, 7 do redis.call('EXPIRE', KEYS[i], ARGV[8]) end
end
return {1, nv}
"""
# KEYS: meta, log, then :data:`RETIRED` (KEYS[3] to KEYS[7]); ARGV: :meth:`RedisStore._commit_args`.

_COUNT = """
for i = 8, #KEYS do
  local n = redis.call('INCRBY', KEYS[i], 1)
  if n == 1 then redis.call('EXPIRE', KEYS[i], ARGV[2 * i - 6]) end
  if n > tonumber(ARGV[2 * i - 7]) then return {3, i - 8, redis.call('TTL', KEYS[i])} end
end
"""
# A commit's counters (:class:`~services.coordinator.store.Counters`), counted before the commit in
# the same script: KEYS[8..] the counters, ARGV[9..] their amounts and windows in pairs; the
# ``limits`` library's fixed window (its ``incr_expire.lua``: INCRBY, EXPIRE on the first hit) and
# its test (over when the count passes the amount). ``{3, index, ttl}``: that counter is over, and
# nothing more is counted or written.

_COMMIT_COUNTED = _COUNT + _COMMIT

# Every key of a game but its record (``log`` and ``meta``); the commit that ends the game
# gives them a time to live. ``moves`` and ``ended`` come first: the commit script writes them.
# The commit script counts on five (KEYS[3] to KEYS[7]), its counters following them.
RETIRED = ("moves", "ended", "seed", "seats", "phase_nudge")

GAMES_INDEX = "longhouse:games"

UNCLAIMED_SEED_TTL = 3600
"""Seconds a seed stored for a game not (yet) created lives: the creation that stored it died
before its commit, so no game will use it. The creation's commit makes it last."""


def key(game_id: str, name: str) -> str:
    """The Redis key ``game:{<game_id>}:<name>``."""
    return f"game:{{{game_id}}}:{name}"


def games_in_status(client: redis.Redis, status: str | tuple[str, ...], limit: int = 10_000) -> Iterator[str]:
    """Ids of the newest ``limit`` games (by :data:`GAMES_INDEX`) whose status is ``status``
    (``active``, ``phase`` or ``over``; or any of a tuple of them), newest first: the start-up
    sweeps' walk."""
    wanted = {one.encode() for one in ((status,) if isinstance(status, str) else status)}
    for raw in client.zrevrange(GAMES_INDEX, 0, limit - 1):
        game_id = raw.decode()
        if client.hget(key(game_id, "meta"), "status") in wanted:
            yield game_id


def _commit_keys(game_id: str) -> list[str]:
    """KEYS of the commit script: meta, log, then :data:`RETIRED` (``moves``, ``ended`` first)."""
    return [key(game_id, "meta"), key(game_id, "log"), *(key(game_id, name) for name in RETIRED)]


def _counter_args(counters: Counters) -> list[int]:
    """ARGV of the counted commit script after the commit's own: each counter's amount and window."""
    return [n for pair in zip(counters.amounts, counters.windows) for n in pair]


def _outcome(game_id: str, base_version: int, commit: Commit, reply: list[Any]) -> int | Exception:
    """The new version of a commit script's reply, or the exception that says why nothing was
    committed (GameNotFound, VersionConflict, MoveRecorded, OverLimit)."""
    ok, v = reply[0], reply[1]
    if ok == -1:
        return GameNotFound(game_id)
    if ok == 0:
        return VersionConflict(base_version, int(v))
    if ok == 2:
        return MoveRecorded(game_id, commit.move_key)  # type: ignore[arg-type]
    if ok == 3:
        return OverLimit(int(v), max(0, int(reply[2])))
    return int(v)


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
        self._commit_counted = client.register_script(_COMMIT_COUNTED)
        self._shas: dict[str, str] = {}
        self.counts_in_commit = not isinstance(client, RedisCluster)
        """Whether a commit may carry :class:`~services.coordinator.store.Counters`: on a single
        server; not on a Redis Cluster, where a script touches the keys of one hash slot only and
        the counters are not the game's."""

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

        The commit's counters (``commit.counters``, :class:`~services.coordinator.store.Counters`),
        if it has some not counted yet, are counted first in the same script (one round trip).

        Raises:
            VersionConflict: the game is at another version (nothing written).
            MoveRecorded: the commit's client move id has a stored result already (nothing written):
                the same script checks it, so a move needs no read of its id before its commit.
            OverLimit: one of the commit's counters went over its limit (nothing but the counters
                written).
            GameNotFound: no such game.
            ValueError: counters on a Redis Cluster (:attr:`counts_in_commit`).
        """
        counters = self._counters_of(commit)
        keys, args = _commit_keys(game_id), self._commit_args(base_version, events, commit)
        if counters is None:
            reply = self._commit(keys=keys, args=args)
        else:
            reply = self._commit_counted(keys=keys + list(counters.keys), args=args + _counter_args(counters))
            counters.counted = True
        out = _outcome(game_id, base_version, commit, reply)
        if isinstance(out, Exception):
            raise out
        return out

    def _counters_of(self, commit: Commit) -> Counters | None:
        """The commit's counters still to count, or ``None``. Raises ValueError on a cluster."""
        counters = commit.counters
        if counters is None or counters.counted:
            return None
        if not self.counts_in_commit:
            raise ValueError("a commit on a Redis Cluster cannot count counters (counts_in_commit is false)")
        return counters

    def commit_many(self, commits: list[tuple[str, int, list[Event], Commit]]) -> list[int | Exception]:
        """Many games' commits in one round trip (a pipeline of the commit script, each still
        atomic and checked by version on its own, counting its counters first if it has some). A
        commit that failed comes back as its exception (VersionConflict, GameNotFound, MoveRecorded,
        OverLimit) in its place.

        On a Redis Cluster the pipeline sends each node its games' commits; it carries the script
        itself (``EVAL``: redis-py's cluster pipeline has neither ``evalsha`` nor ``eval``), which
        each node runs from its script cache after the first time."""
        if not commits:
            return []
        cluster = isinstance(self.r, RedisCluster)
        pipe = self.r.pipeline(transaction=False)
        counted = []
        for game_id, base, events, commit in commits:
            keys, args = _commit_keys(game_id), self._commit_args(base, events, commit)
            counters = self._counters_of(commit)
            script = _COMMIT
            if counters is not None:
                keys, args, script = keys + list(counters.keys), args + _counter_args(counters), _COMMIT_COUNTED
                counted.append(counters)
            if cluster:
                pipe.execute_command("EVAL", script, len(keys), *keys, *args)
            else:
                pipe.evalsha(self._sha(script), len(keys), *keys, *args)
        try:
            replies = pipe.execute()
        except redis.exceptions.NoScriptError:  # the server restarted and forgot the script
            self._shas.clear()
            return self.commit_many(commits)
        for counters in counted:
            counters.counted = True
        return [_outcome(game_id, base, commit, reply) for (game_id, base, _e, commit), reply in zip(commits, replies)]

    def _sha(self, script: str) -> str:
        """The SHA1 of ``script``, loaded into the server's script cache the first time."""
        sha = self._shas.get(script)
        if sha is None:
            sha = self._shas[script] = self.r.script_load(script)
        return sha

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
