"""Asking external agents for their moves, under the server's clock, exactly once a decision.

When a commit leaves a game waiting for a seat held by an agent (``{"kind": "agent"}``), the
Table's scheduler queues :func:`ask_agent` (the Celery task ``longhouse.ask_agent`` on the queue
:data:`QUEUE`; inline in an embedded table). The task:

1. finds the decision: the version it began at (:meth:`~services.coordinator.table.Table.decision_start`:
   seats deciding at once, as Resource Hog's orders, each face one decision however many of the
   others have answered since), and skips a task of a decision that is over;
2. claims it (:meth:`Clock.claim`): a claim is a lease of :data:`LEASE_MS` that its asker renews
   while it waits for the answer. Another task for the same decision (a duplicate, a copy the
   broker redelivers while the first still waits, a worker's start-up re-arm) that finds the
   lease renewed leaves the decision to its holder and asks nobody; one that finds it lapsed
   (the holder's worker died) takes the decision over;
3. reads the seat's clock (:class:`Clock`): when the decision was first asked (stored once, so
   no redelivery or re-arm gives it more time) and the seat's bank;
4. sends the agent its player view, the legal moves and the time left (``move_ms`` plus bank,
   less the time already gone since the first ask), and waits at most that long by the
   engine's clock (no time left: a strike at once);
5. commits the answer (a choice among the legal moves offered) with
   :meth:`~services.coordinator.table.Table.play_for_agent`, or, for a late, crashed, malformed
   or illegal answer, or any exception while asking, a strike and the default move (or the
   forfeit). Only the attempt whose commit counts takes the time over ``move_ms`` from the
   bank, once per decision.

Every commit is version-checked, so whatever plays first for a decision stands and a late
answer changes nothing. When a commit leaves exactly one agent decision of the same game owed
(agents taking turns), the task asks it itself instead of queuing a task for it
(:func:`ask_chained`, bounded by :data:`CHAIN_DECISIONS` and :data:`CHAIN_S`; if asking it
raises, it is queued again). At the end of a game, :func:`end_match` tells each agent the result,
once. A forfeit writes the audit line ``seat.forfeit`` (game, seat, agent, the failure).
"""

from __future__ import annotations

import contextlib
import threading
import time
import uuid
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any, Callable

from redis.cluster import RedisCluster
from redis.exceptions import (ConnectionError as RedisConnectionError, NoScriptError, ResponseError,
                              TimeoutError as RedisTimeout)

from services.common import logs, metrics
from services.common.redis_client import text

QUEUE = "longhouse.agents"
"""Broker queue of agent decisions (and result notices)."""
ASK_TASK = "longhouse.ask_agent"
END_TASK = "longhouse.end_match"
START_TIMEOUT_S = 5.0
"""How long the start-of-match notice may take (a failure is logged, not a strike)."""
END_TIMEOUT_S = 5.0
"""How long the end-of-match notice may take (a failure is logged)."""
CLOCK_TTL_S = 86_400
"""A game's clock keys expire a day after their last write."""
LEASE_MS = 3_000
"""How long a claim on a decision lasts unless its asker renews it (ms): a task that finds a
lease lapsed takes the decision over, so a killed worker's decision is asked again within this
of a re-arm, always within the decision's stored deadline if time is left."""
RENEW_S = 1.0
"""How often an asker renews its lease while it waits for the agent (seconds)."""
POLL_S = 0.2
"""How often a task that found a decision claimed looks at the claim again (seconds)."""
ONCE_MEMO = 100_000
"""Most once-only notices a :class:`Clock` remembers as asked (then it forgets them all, and asks
Redis again)."""
CHAIN_DECISIONS = 32
"""Most decisions one task asks one after another (:func:`ask_chained`): a game of agents moves
on without a broker round trip a decision, and a task still gives its thread back this often."""
CHAIN_S = 0.25
"""Seconds after which one task starts no further decision (:func:`ask_chained`; the decision
under way when they pass runs to its end): the worker's threads are shared by every game with
agents, and a game whose task waits for a thread waits for the chains ahead of it (a slow agent
gains nothing from a chain: the broker's round trip is small beside its answer)."""

NOT_READ = object()
"""What :meth:`Clock.claim_and_clock` gives for a read it did not make."""

log = logs.get_logger()


def now_ms() -> int:
    """The server's wall clock in milliseconds (shared by every worker of the stack)."""
    return int(time.time() * 1000)


_HELD_BY_ANOTHER = """
local held = redis.call('HGET', KEYS[1], ARGV[1])
local live = false
if held then
  local holder, lapses = string.match(held, '^(.*)@(%d+)$')
  live = lapses ~= nil and tonumber(lapses) > tonumber(ARGV[3])
     and holder ~= string.match(ARGV[2], '^(.*)@%d+$')
end
"""
"""The opening of :data:`_CLAIM` and :data:`_CLAIM_AND_CLOCK`: ``held``, the claim field ARGV[1]'s
value, and ``live``, true when another attempt's lease in it lapses after ARGV[3] (now, ms). The
same attempt's own claim (ARGV[2]'s token) is not another's: a script that ran but whose reply was
lost is sent again (by :meth:`Clock._resent_once`, or by a client that retries on a connection
error, as a Redis Cluster client does by default), and must find the claim its own."""

_CLAIM = _HELD_BY_ANOTHER + """
if live then return {0, held} end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
redis.call('EXPIRE', KEYS[1], ARGV[4])
return {1, ARGV[2]}
"""
"""Take a claim field (ARGV[1]) for ARGV[2] (``token@lapses_ms``) unless another attempt holds a
lease in it that lapses after ARGV[3] (now, ms); returns ``{taken, the claim held now}``."""

_RENEW = """
local held = redis.call('HGET', KEYS[1], ARGV[1])
if held and string.sub(held, 1, string.len(ARGV[2]) + 1) == ARGV[2] .. '@' then
  redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
  if ARGV[4] == '1' then redis.call('HDEL', KEYS[1], ARGV[1]) end
  if ARGV[5] ~= '' then redis.call('HDEL', KEYS[1], ARGV[5]) end
  return 1
end
return 0
"""
"""Renew (or, with ARGV[4] ``1``, release) the claim field ARGV[1] if token ARGV[2] holds it; with a
field named in ARGV[5] (a decision's first-asked time), delete that too in the same step."""


_CLAIM_AND_CLOCK = _HELD_BY_ANOTHER + """
if live then return {0, held, '0', '0'} end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
redis.call('HSETNX', KEYS[1], ARGV[5], ARGV[3])
redis.call('HSETNX', KEYS[1], ARGV[6], ARGV[7])
local got = redis.call('HMGET', KEYS[1], ARGV[5], ARGV[6])
redis.call('EXPIRE', KEYS[1], ARGV[4])
return {1, ARGV[2], got[1], got[2]}
"""
""":data:`_CLAIM`, and when the claim is taken :meth:`Clock.asked_and_bank` in the same step: the
first-ask field ARGV[5] set to now (ARGV[3]) and the bank field ARGV[6] to ARGV[7] unless set;
returns ``{taken, the claim held now, first asked, bank}``."""


@dataclass(frozen=True, slots=True)
class ClaimRequest:
    """One claim for :meth:`Clock.claim_and_clock_many`: decision ``(seat, start)`` of ``game_id``
    for attempt ``token``, the seat's bank set to ``initial`` ms if it has none, and ``read``, a
    ``(hash key, field)`` read beside it (or None)."""

    game_id: str
    seat: int
    start: int
    token: str
    initial: int
    read: tuple[str, str] | None = None


class Clock:
    """Per-game decision records: who is asking (a lease per decision), when each decision was
    first asked, each seat's bank, the once-only notices. In Redis (``client``; one hash per
    game, in the game's hash slot) or in memory.

    A decision is ``(seat, start)``: the seat and the version its decision began at
    (:meth:`~services.coordinator.table.Table.decision_start`).

    Args:
        client: Redis client of the game store, or None.
    """

    def __init__(self, client: Any | None = None):
        self.client = client
        self._memory: dict[str, str] = {}
        self._lock = threading.Lock()
        self._scripts: dict[str, Any] = {}
        self._asked: set[tuple[str, str]] = set()

    @staticmethod
    def _key(game_id: str) -> str:
        from services.coordinator.redis_store import key

        return key(game_id, "clock")

    @staticmethod
    def _resent_once(call: Any) -> Any:
        """``call()``, sent once more after a connection error or a timeout: a claim is safe to send
        again, since the same attempt's token finds its own claim (:data:`_HELD_BY_ANOTHER`), and
        its reply may be all that was lost. The stack's clients do not send anything again by
        themselves (``mover_client``; a plain client from a URL), so without this a claim taken but
        unanswered blocked its decision for the 3 s lease. Raises the second error."""
        try:
            return call()
        except (RedisConnectionError, RedisTimeout):
            return call()

    def _script(self, text: str) -> Any:
        script = self._scripts.get(text)
        if script is None:
            script = self._scripts[text] = self.client.register_script(text)
        return script

    def _setnx(self, game_id: str, field: str, value: str) -> str:
        """Set ``field`` if unset; return its value."""
        if self.client is None:
            with self._lock:
                return self._memory.setdefault(f"{game_id}:{field}", value)
        k = self._key(game_id)
        pipe = self.client.pipeline(transaction=True)  # one key: a transaction on a Redis Cluster too
        pipe.hsetnx(k, field, value)
        pipe.hget(k, field)
        pipe.expire(k, CLOCK_TTL_S)
        _, got, _ = pipe.execute()
        return text(got)

    def claim(self, game_id: str, seat: int, start: int, token: str,
              lease_ms: int = LEASE_MS) -> tuple[bool, str]:
        """Claim decision ``(seat, start)`` for ``token`` (one asking attempt) for ``lease_ms``,
        unless another claim on it has not lapsed.

        Returns:
            ``(True, claim)`` if ``token`` holds it now (it was free, or its lease had lapsed:
            its asker died, or ``token`` held it already: the same call again, as a client that
            retries sends a command whose reply a connection error lost; its lease is then
            extended);
            ``(False, claim)`` with the live claim, ``"<token>@<lapses, ms>"``, whose change shows
            that its holder is alive and renewing it.
        """
        field = f"claim:{seat}:{start}"
        now = now_ms()
        mine = f"{token}@{now + lease_ms}"
        if self.client is None:
            with self._lock:
                held = self._memory.get(f"{game_id}:{field}")
                holder, _, lapses = (held or "").rpartition("@")
                if held is not None and int(lapses or 0) > now and holder != token:
                    return False, held
                self._memory[f"{game_id}:{field}"] = mine
                return True, mine
        script = self._script(_CLAIM)
        taken, held = self._resent_once(lambda: script(keys=[self._key(game_id)], args=[field, mine, now, CLOCK_TTL_S]))
        return bool(int(taken)), text(held)

    def claim_and_clock(self, game_id: str, seat: int, start: int, token: str, initial: int,
                        lease_ms: int = LEASE_MS, read: tuple[str, str] | None = None
                        ) -> tuple[bool, str, int, int, Any]:
        """:meth:`claim`, and if the claim is taken :meth:`asked_and_bank` with it, in one round
        trip to Redis (one key, one script): ``(taken, claim held now, first asked ms, bank ms,
        read)``; the first-asked time and the bank are 0 when the claim was not taken.

        ``read``: ``(hash key, field)`` of a global key (another hash slot than the game's) read in
        the same round trip, in a pipeline beside the script: the agent's registry record, so that a
        decision makes one round trip where it made two. On a Redis Cluster, whose pipelines take
        no scripts, the read goes first and the script after it (a failed read raises before any
        claim is taken). The field's value (None if unset) is the fifth item; :data:`NOT_READ`
        without ``read``, in memory, or where the pipelined read failed (the claim then stands, and
        the asker reads the record itself). The one-claim case of :meth:`claim_and_clock_many`."""
        got = self.claim_and_clock_many([ClaimRequest(game_id, seat, start, token, initial, read)], lease_ms)[0]
        if isinstance(got, Exception):
            raise got
        return got

    def claim_and_clock_many(self, requests: list["ClaimRequest"], lease_ms: int = LEASE_MS
                             ) -> list[tuple[bool, str, int, int, Any] | Exception]:
        """:meth:`claim_and_clock` for each of ``requests``, all in one round trip to Redis (one
        pipeline of the claim script, each with its read beside it), in order: a mover's round
        begins the decisions of several games at once (:meth:`~services.phases.agent_desk.AgentDesk.begin_many`),
        where one round trip each made the round wait for them one after another. Each claim is
        still one script on its game's key, atomic on its own, and a claim whose script failed
        (a game's clock key of the wrong type) comes back as its exception in its place, the
        others taken as if alone. On a Redis Cluster (no scripts in its pipelines) every read goes
        first, one after another, then the scripts (a failed read raises before any claim is
        taken); in memory, one after another. Raises a connection error that is the second in a
        row (:meth:`_resent_once`: claims are safe to send again); claims taken before it lapse
        with their lease. A lost script cache is loaded again."""
        if self.client is None:
            out: list[tuple[bool, str, int, int, Any] | Exception] = []
            for r in requests:
                taken, held = self.claim(r.game_id, r.seat, r.start, r.token, lease_ms)
                clock = self.asked_and_bank(r.game_id, r.seat, r.start, r.initial) if taken else (0, 0)
                out.append((taken, held, *clock, NOT_READ))
            return out
        now = now_ms()
        script = self._script(_CLAIM_AND_CLOCK)

        def keys_args(r: ClaimRequest) -> tuple[list[str], list[Any]]:
            return [self._key(r.game_id)], [f"claim:{r.seat}:{r.start}", f"{r.token}@{now + lease_ms}", now,
                                            CLOCK_TTL_S, f"asked:{r.seat}:{r.start}", f"bank:{r.seat}", r.initial]

        def alone(r: ClaimRequest) -> Any:
            keys, args = keys_args(r)
            try:
                return self._resent_once(lambda: script(keys=keys, args=args))
            except ResponseError as exc:  # the script failed on this game's key: in its place
                return exc

        got: list[tuple[Any, Any]] = []
        if isinstance(self.client, RedisCluster):  # its pipelines take no scripts: one after another,
            values = [self.client.hget(*r.read) if r.read is not None else NOT_READ for r in requests]
            got = [(alone(r), value) for r, value in zip(requests, values)]  # every read first
        else:
            def pipelined() -> list[Any]:
                pipe = self.client.pipeline(transaction=False)
                for r in requests:
                    keys, args = keys_args(r)
                    pipe.evalsha(script.sha, len(keys), *keys, *args)
                    if r.read is not None:
                        pipe.hget(*r.read)
                return pipe.execute(raise_on_error=False)

            replies = iter(self._resent_once(pipelined))
            for r in requests:
                reply = next(replies)
                value = next(replies) if r.read is not None else NOT_READ
                if isinstance(value, Exception):  # the claim may stand: the asker reads it again itself
                    value = NOT_READ
                if isinstance(reply, NoScriptError):  # Redis lost its scripts (a restart): load it, once
                    reply = alone(r)
                got.append((reply, value))
        return [reply if isinstance(reply, Exception) else
                (bool(int(reply[0])), text(reply[1]), int(text(reply[2])), int(text(reply[3])), value)
                for reply, value in got]

    def renew(self, game_id: str, seat: int, start: int, token: str, lease_ms: int = LEASE_MS,
              release: bool = False, restart: bool = False) -> bool:
        """Extend ``token``'s claim on decision ``(seat, start)`` by ``lease_ms`` from now (or,
        with ``release``, give it up so another task may take it at once; with ``restart`` too,
        forget when it was first asked, so that the next asker's clock starts afresh). False if
        ``token`` no longer holds it (its lease lapsed and another attempt took it): nothing
        changes then."""
        field = f"claim:{seat}:{start}"
        mine = f"{token}@{now_ms() + lease_ms}"
        forget = f"asked:{seat}:{start}" if release and restart else ""
        if self.client is None:
            with self._lock:
                held = self._memory.get(f"{game_id}:{field}", "")
                if held.rpartition("@")[0] != token:
                    return False
                if release:
                    del self._memory[f"{game_id}:{field}"]
                    self._memory.pop(f"{game_id}:{forget}", None)
                else:
                    self._memory[f"{game_id}:{field}"] = mine
                return True
        done = self._script(_RENEW)(keys=[self._key(game_id)],
                                    args=[field, token, mine, "1" if release else "0", forget])
        return bool(int(done))

    def asked_at(self, game_id: str, seat: int, start: int) -> int:
        """When decision ``(seat, start)`` was first asked (ms; recorded now if it was not): its
        deadline is this plus ``move_ms`` and the bank, whoever asks later."""
        return int(self._setnx(game_id, f"asked:{seat}:{start}", str(now_ms())))

    def asked_and_bank(self, game_id: str, seat: int, start: int, initial: int) -> tuple[int, int]:
        """:meth:`asked_at` and :meth:`bank` together, in one round trip to Redis (one key, one
        transaction): ``(first asked, ms; the seat's bank, ms)``."""
        if self.client is None:
            return self.asked_at(game_id, seat, start), self.bank(game_id, seat, initial)
        k = self._key(game_id)
        asked, bank = f"asked:{seat}:{start}", f"bank:{seat}"
        pipe = self.client.pipeline(transaction=True)
        pipe.hsetnx(k, asked, str(now_ms()))
        pipe.hsetnx(k, bank, str(initial))
        pipe.hmget(k, [asked, bank])
        pipe.expire(k, CLOCK_TTL_S)
        _, _, (first, left), _ = pipe.execute()
        return int(text(first)), int(text(left))

    def bank(self, game_id: str, seat: int, initial: int) -> int:
        """The seat's bank in ms (``initial`` until the first overage)."""
        return int(self._setnx(game_id, f"bank:{seat}", str(initial)))

    def spend(self, game_id: str, seat: int, start: int, overage: int, initial: int) -> int:
        """Take ``overage`` ms from the seat's bank, once per decision ``(seat, start)``; returns
        the bank left."""
        if overage <= 0 or not self.once(game_id, f"spent:{seat}:{start}"):
            return self.bank(game_id, seat, initial)
        left = max(0, self.bank(game_id, seat, initial) - overage)
        if self.client is None:
            with self._lock:
                self._memory[f"{game_id}:bank:{seat}"] = str(left)
        else:
            self.client.hset(self._key(game_id), f"bank:{seat}", str(left))
        return left

    def once(self, game_id: str, what: str) -> bool:
        """True the first time ``what`` is asked for this game, False ever after (what this
        process has seen asked is answered without a round trip to Redis: once asked, it
        stays asked)."""
        if (game_id, what) in self._asked:
            return False
        token = uuid.uuid4().hex
        first = self._setnx(game_id, f"once:{what}", token) == token
        if len(self._asked) >= ONCE_MEMO:
            self._asked.clear()
        self._asked.add((game_id, what))
        return first

    def was(self, game_id: str, what: str) -> bool:
        """True if :meth:`once` was ever asked for ``what`` of this game, by any process (one read,
        unless this process asked it)."""
        if (game_id, what) in self._asked:
            return True
        if self.client is None:
            with self._lock:
                return f"{game_id}:once:{what}" in self._memory
        return bool(self.client.hexists(self._key(game_id), f"once:{what}"))

    def seen(self, game_id: str, what: str) -> bool:
        """True if this process has asked :meth:`once` for ``what`` of this game (no round trip:
        then ``once`` would answer False); False may also mean only that its memo was emptied."""
        return (game_id, what) in self._asked


class _Lease:
    """Renews an asker's claim every :data:`RENEW_S` in a daemon thread until :meth:`stop`, at
    most ``for_s`` seconds (the decision's time and a margin)."""

    def __init__(self, clock: Clock, game_id: str, seat: int, start: int, token: str, for_s: float):
        self._stop = threading.Event()
        self._args = (clock, game_id, seat, start, token)
        self._rounds = int(for_s / RENEW_S) + 1
        self._thread = threading.Thread(target=self._run, name=f"lease-{game_id}-{seat}", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        clock, game_id, seat, start, token = self._args
        for _ in range(self._rounds):
            if self._stop.wait(RENEW_S):
                return
            try:
                if not clock.renew(game_id, seat, start, token):
                    log.warning("agent_claim_lost", game_id=game_id, seat=seat, start=start)
                    return
            except Exception as exc:  # noqa: BLE001 - a blip: the next round tries again
                log.warning("agent_claim_renew_failed", game_id=game_id, seat=seat, error=type(exc).__name__)

    def stop(self) -> None:
        """Stop renewing (the thread ends at once)."""
        self._stop.set()
        self._thread.join(RENEW_S + 1)


CLIENTS_KEPT = 256
"""Agent clients a process keeps (:func:`client_for`); past that the least recently used is let
go (not closed: a call may still be using it; its connections close when it is collected)."""
_clients: OrderedDict[tuple[str, str, str, tuple[str, ...]], Any] = OrderedDict()
_clients_lock = threading.Lock()


def client_for(record: Any) -> Any:
    """The engine's client of a registered agent (one per agent, address and set of signing
    secrets, reused; a rotation window's end makes a new one that signs with the new secret only).
    At most :data:`CLIENTS_KEPT` are kept, the least recently used let go first, so that a
    tournament of more agents keeps the clients of those playing now."""
    from services.agents.client import make_client

    cache_key = (record.agent_id, record.protocol, record.address, tuple(record.signing_secrets()))
    with _clients_lock:
        client = _clients.get(cache_key)
        if client is not None:
            _clients.move_to_end(cache_key)
            return client
        client = _clients[cache_key] = make_client(record.model_dump())
        while len(_clients) > CLIENTS_KEPT:
            _clients.popitem(last=False)
        return client


def close_clients() -> None:
    """Close every client :func:`client_for` keeps (a process that is stopping): a gRPC call still
    running on a thread is cancelled with its channel, a webhook session of the agent loop closed.
    A later :func:`client_for` makes a new client."""
    with _clients_lock:
        clients = list(_clients.values())
        _clients.clear()
    for client in clients:
        try:
            client.close()
        except Exception:  # noqa: BLE001 - the process is stopping: one client's fault stops no other
            log.warning("agent_client_close_failed", client=repr(client))


def clock_for(table: Any) -> Clock:
    """The clock that goes with ``table`` (the Redis of its store, or one in memory)."""
    existing = getattr(table, "_agent_clock", None)
    if existing is None:
        existing = Clock(getattr(table.store, "r", None))
        table._agent_clock = existing
    return existing


def open_decision(table: Any, game_id: str, seat: int,
                   known: tuple[int, int] | None = None) -> tuple[int | None, tuple[Any, Any, int]]:
    """``(start, latest)``: the version the decision ``seat`` faces now began at, or None if it is
    not to move, and the ``(rules, state, version)`` it was read from. ``known``: a version and the
    start worked out there; at that very version the start is the same (it depends on the log up
    to it alone), so it is not worked out again."""
    rules, state, current = table.state(game_id, cow=True)
    if seat not in rules.to_move(state):
        return None, (rules, state, current)
    if known is not None and known[0] == current:
        return known[1], (rules, state, current)
    return table.decision_start(game_id, seat, current), (rules, state, current)


def _take(table: Any, clock: Clock, game_id: str, seat: int, start: int, token: str) -> str:
    """Claim decision ``(seat, start)`` for ``token``, watching a live claim until it lapses (its
    asker died: ``"mine"``), is renewed (its asker is alive: ``"busy"``) or the decision is
    committed (``"answered"``). Bounded by a lease and a second."""
    seen: str | None = None
    rounds = int((LEASE_MS / 1000 + 1) / POLL_S) + 1
    for _ in range(rounds):
        taken, held = clock.claim(game_id, seat, start, token)
        if taken:
            return "mine"
        if seen is not None and held != seen:
            return "busy"
        seen = held
        if open_decision(table, game_id, seat)[0] != start:
            return "answered"
        time.sleep(POLL_S)
    return "busy"


def ask_agent(table: Any, game_id: str, seat: int, version: int, token: str | None = None) -> str:
    """Ask the agent of ``seat`` for its decision at ``version`` and commit what it counts for,
    exactly once per decision whatever the broker redelivers (module docstring).

    Args:
        table: the Table (hosted or embedded).
        version: the version the task was queued at (the decision's start or a later version
            of the same simultaneous decision).
        token: the asking task's id (each call adds its own attempt suffix); None: a fresh one.
    Returns:
        ``"played"`` (the agent's move), ``"default"`` (a strike and the default move),
        ``"forfeit"``, ``"busy"`` (a live asker holds the decision), ``"answered"`` (the
        decision was committed while this task looked), or ``"skipped"`` (the game has moved
        on, or the seat is not an agent's).
    Raises:
        GameNotFound; the store's errors before the decision is claimed, and when even the
        strike cannot be committed (the claim is then released, so a retry takes it at once).
    """
    rules, state, current = table.state(game_id, cow=True)
    bot = table.bots(game_id).get(seat)
    if version > current or seat not in rules.to_move(state) or not bot or bot.get("kind") != "agent":
        return "skipped"
    start = table.decision_start(game_id, seat, current)
    if version < start:
        return "skipped"  # a task of a decision the seat has made
    control = table.control(game_id)
    clock = clock_for(table)
    attempt = f"{token or 'inline'}.{uuid.uuid4().hex[:12]}"
    taken = _take(table, clock, game_id, seat, start, attempt)
    if taken == "mine":
        now_start, latest = open_decision(table, game_id, seat, known=(current, start))
        if now_start != start:
            # the decision was committed while this task worked out its start (from a state just
            # before the commit): another claim, now void
            clock.renew(game_id, seat, start, attempt, release=True)
            taken = "answered"
    if taken != "mine":
        log.info("agent_decision", game_id=game_id, seat=seat, version=start, agent=bot.get("agent"),
                 outcome=taken, task=token, task_version=version)
        return taken
    lease = _Lease(clock, game_id, seat, start, attempt,
                   (control.move_ms + control.bank_ms) / 1000 + START_TIMEOUT_S + 60)
    try:
        return _decide(table, clock, game_id, seat, start, bot, control, attempt, token, latest)
    finally:
        lease.stop()


def _decide(table: Any, clock: Clock, game_id: str, seat: int, start: int, bot: dict[str, Any], control: Any,
            attempt: str, token: str | None, latest: tuple[Any, Any, int]) -> str:
    """Ask the agent for decision ``(seat, start)`` (this attempt holds its claim) and commit;
    ``latest``: ``(rules, state, version)`` read since the claim was taken."""
    asked, bank = clock.asked_and_bank(game_id, seat, start, control.bank_ms)
    decision = Decision(game_id, seat, start, bot, control, attempt, token, asked, bank)
    failure, detail, move = ask_safely(table, clock, decision, latest)
    return settle(table, clock, decision, failure, detail, move)


@dataclass(slots=True)
class Decision:
    """One claimed agent decision being asked: ``(seat, start)`` of ``game_id``, its controller
    ``bot``, the game's time control, the claim's ``attempt`` token, the asking task's ``token``,
    and the clock read at the claim: ``asked`` (first asked, ms) and the seat's ``bank`` (ms);
    ``record``: the agent's stored registry text read with the claim (None: no such agent), or
    :data:`NOT_READ` (then :func:`_ask` reads it)."""

    game_id: str
    seat: int
    start: int
    bot: dict[str, Any]
    control: Any
    attempt: str
    token: str | None
    asked: int
    bank: int
    record: Any = NOT_READ


def ask_safely(table: Any, clock: Clock, decision: Decision,
               latest: tuple[Any, Any, int]) -> tuple[str | None, str, dict[str, Any] | None]:
    """:func:`_ask` for ``decision`` from ``latest`` (``(rules, state, version)``), any exception
    made a ``crash`` failure (a fault while asking is a strike, never silence): ``(failure,
    detail, move)``."""
    d = decision
    try:
        return _ask(table, clock, d.game_id, d.seat, d.bot, d.control, d.asked, d.bank, latest, d.record)
    except Exception as exc:  # noqa: BLE001 - any fault while asking is a strike, never silence
        log.exception("agent_ask_failed", game_id=d.game_id, seat=d.seat, version=d.start)
        return "crash", f"{type(exc).__name__}: {exc}", None


def late(decision: Decision, failure: str | None, detail: str,
         move: dict[str, Any] | None, at: int | None = None) -> tuple[str | None, str, dict[str, Any] | None, int]:
    """``(failure, detail, move, used ms)``: an answer given after the decision's time (``move_ms``
    plus the bank, from its first ask) made a ``timeout``; ``at``: when the answer arrived (ms;
    default now)."""
    used = (now_ms() if at is None else at) - decision.asked
    if failure is None and used > decision.control.move_ms + decision.bank:
        return "timeout", f"answered after {used} ms", None, used
    return failure, detail, move, used


def settle(table: Any, clock: Clock, decision: Decision, failure: str | None, detail: str,
           move: dict[str, Any] | None, at: int | None = None) -> str:
    """Commit what the agent's answer counts for (:meth:`~services.coordinator.table.Table.play_for_agent`):
    ``move``, or for a ``failure`` (or a late answer, :func:`late`) a strike and the default move or
    the forfeit; then :func:`recorded`. A commit of the answer that raises becomes a ``crash`` strike.

    Returns:
        the outcome (:func:`ask_agent`).
    Raises:
        what the strike's commit raises (the claim is released first, so a retry takes it at once).
    """
    game_id, seat, start = decision.game_id, decision.seat, decision.start
    failure, detail, move, used = late(decision, failure, detail, move, at)
    try:
        try:
            result = table.play_for_agent(game_id, seat, start, None if failure else move, failure)
        except Exception as exc:
            if failure is not None:
                raise
            log.exception("agent_commit_failed", game_id=game_id, seat=seat, version=start)
            failure, detail, move = "crash", f"{type(exc).__name__}: {exc}", None
            result = table.play_for_agent(game_id, seat, start, None, failure)
    except BaseException:
        with contextlib.suppress(Exception):  # the store may be what failed: the lease lapses anyway
            clock.renew(game_id, seat, start, decision.attempt, release=True)
        raise
    return recorded(clock, decision, result, failure, detail, used)


def recorded(clock: Clock, decision: Decision, result: dict[str, Any] | None, failure: str | None, detail: str,
             used: int) -> str:
    """After a decision's commit (``result``: what :meth:`~services.coordinator.table.Table.play_for_agent`
    returns, None if nothing was committed): charge the bank for the time over ``move_ms``, count
    it (metrics), write its log line (and the forfeit's audit line). Returns the outcome
    (:func:`ask_agent`)."""
    game_id, seat, start, control = decision.game_id, decision.seat, decision.start, decision.control
    # only the attempt whose commit counts charges the bank, once per decision; within the move's
    # time nothing is charged, and the bank is the one read for this decision
    bank_left = (clock.spend(game_id, seat, start, used - control.move_ms, control.bank_ms)
                 if result is not None and used > control.move_ms else decision.bank)
    outcome = ("skipped" if result is None else "played" if failure is None
               else "forfeit" if result["move"] is None else "default")
    if result is not None:
        metrics.agent_decision(failure)  # answered, late, crashed or illegal (README, Metrics)
    log.info("agent_decision", game_id=game_id, seat=seat, version=start, agent=decision.bot.get("agent"),
             outcome=outcome, failure=failure, detail=detail[:200], used_ms=used, bank_ms=bank_left,
             task=decision.token)
    if outcome == "forfeit":
        log.info("audit", action="seat.forfeit", game_id=game_id, seat=seat, agent=decision.bot.get("agent"),
                 failure=failure, max_strikes=control.max_strikes)
    return outcome


class _Refused(Exception):
    """What ends a decision before its request is sent: a failure ``kind`` and its detail."""

    def __init__(self, kind: str, detail: str):
        super().__init__(detail)
        self.kind = kind


def _client_of(table: Any, bot: dict[str, Any], stored: Any) -> Any:
    """The client of the agent that holds a seat (``bot``), from its registry text ``stored`` as
    read with the claim (else read now). Raises _Refused (``crash``) for an agent not registered."""
    from services.agents.registry import UnknownAgent, registry_for

    try:
        registry = registry_for(table)
        record = registry.get(bot["agent"]) if stored is NOT_READ else registry.opened(bot["agent"], stored)
    except UnknownAgent as exc:
        raise _Refused("crash", str(exc)) from None
    return client_for(record)


def _request(game_id: str, seat: int, control: Any, asked: int, bank: int,
             latest: tuple[Any, Any, int]) -> tuple[Any, list[Any], int]:
    """``(request, legal, left_ms)``: the seat's move request at ``latest`` (``(rules, state,
    version)``) with the time left counted from ``asked``, and the legal moves it offers. Raises
    _Refused (``timeout``) when no time is left."""
    from services.agents.protocol import MoveRequest
    from services.rules.core.canonical import plain_json

    rules, state, version = latest
    left = control.move_ms + bank - (now_ms() - asked)
    if left <= 0:
        raise _Refused("timeout", "no time left for this decision")
    legal = rules.legal_moves(state, seat)
    # built by the engine from the rules' own plain data (a view and moves are JSON objects of
    # plain values: tests/unit/test_agent_desk.py), so neither walked again nor validated again
    request = MoveRequest.model_construct(match_id=game_id, game=rules.name, seat=seat, version=version,
                                          view_json=plain_json(rules.view(state, seat)),
                                          legal_moves_json=[plain_json(m) for m in legal],
                                          time_left_ms=left, bank_ms=bank)
    return request, legal, left


def _ask(table: Any, clock: Clock, game_id: str, seat: int, bot: dict[str, Any], control: Any, asked: int,
         bank: int, latest: tuple[Any, Any, int], stored: Any = NOT_READ
         ) -> tuple[str | None, str, dict[str, Any] | None]:
    """Send the agent its request for the seat's decision at ``latest`` (``(rules, state, version)``;
    the time left counted from ``asked``) and read its answer: ``(failure, detail, move)``,
    failure None for a legal answer in time. ``stored``: the agent's registry text as read with
    the claim (:meth:`Clock.claim_and_clock`), else read here. Raises whatever else goes wrong (the
    caller makes it a strike)."""
    from services.agents.client import AgentFailure
    from services.agents.protocol import MatchStart, choice_to_move
    from services.rules.core import canonical_json

    rules, state, version = latest
    try:
        client = _client_of(table, bot, stored)
        if clock.once(game_id, f"started:{seat}"):
            start = MatchStart(match_id=game_id, game=rules.name, seat=seat, players=_players(table, game_id),
                               options_json=canonical_json(_options(state)), time_control=control.model_dump())
            try:
                client.start(start, min(START_TIMEOUT_S, control.move_ms / 1000))
            except AgentFailure as exc:
                log.info("agent_start_failed", game_id=game_id, seat=seat, agent=bot.get("agent"), kind=exc.kind)
        request, legal, left = _request(game_id, seat, control, asked, bank, latest)
    except _Refused as exc:
        return exc.kind, str(exc), None
    try:
        choice = client.choose(request, left / 1000)
        return None, "", choice_to_move(choice, legal)
    except AgentFailure as exc:
        return exc.kind, str(exc), None
    except (ValueError, IndexError, TypeError) as exc:
        return "illegal", str(exc), None


def ask_many_async(table: Any, clock: Clock,
                   asks: list[tuple[Decision, tuple[Any, Any, int],
                                    Callable[[tuple[str | None, str, dict[str, Any] | None]], None]]]) -> list[bool]:
    """Ask each ``(decision, latest, done)`` of ``asks`` without holding a thread while the agent
    thinks, where its client can (:attr:`~services.agents.client.AgentClient.asks_without_thread`:
    a gRPC agent at an IP address, by a future, or any webhook, from the agent loop of
    :mod:`services.agents.aio`) and nothing else is owed first: this process has seen the seat's
    match-start notice go out (:meth:`Clock.seen`). The decisions that go to the same agent's client
    go to its :meth:`~services.agents.client.AgentClient.choose_many_async` together (batches: one
    ``ChooseMoves`` call, or one webhook POST of ``moves``, for an agent that serves them). The
    agent's record is the one read with the claim (read now where the claim read none: a table in
    memory). Each request is built from ``latest`` (``(rules, state, version)``) and the calls are
    on their way before this returns; ``done((failure, detail, move))``, the outcome
    :func:`ask_safely` gives, is called once when its call ends, from the client's own thread
    (gRPC's callback thread, the agent loop's; from this one, at once, for a call refused before it
    is sent). Returns, for each ask in order, whether it was sent: False, having sent nothing, where
    a thread must ask (:func:`ask_safely`), and where building the request fails (the thread's ask
    meets the fault again and makes it a strike, so the mover's loop never raises it)."""
    taken = [False] * len(asks)
    by_client: dict[int, tuple[Any, list[tuple[Decision, Any, list[Any], float, Callable[..., None]]]]] = {}
    for i, (d, latest, done) in enumerate(asks):
        if not clock.seen(d.game_id, f"started:{d.seat}"):
            continue
        try:
            client = _client_of(table, d.bot, d.record)
            if not getattr(client, "asks_without_thread", False):  # a client of its own (tests) asks in a thread
                continue
            request, legal, left = _request(d.game_id, d.seat, d.control, d.asked, d.bank, latest)
        except Exception:  # noqa: BLE001 - the thread's ask meets it again and makes it a strike (ask_safely)
            continue
        taken[i] = True
        by_client.setdefault(id(client), (client, []))[1].append((d, request, legal, left / 1000, done))
    for client, group in by_client.values():
        _ask_group(client, group)
    return taken


def _ask_group(client: Any, group: list[tuple[Decision, Any, list[Any], float, Callable[..., None]]]) -> None:
    """Ask ``client`` each ``(decision, request, legal moves, timeout_s, done)`` of ``group`` at once; a fault of
    the engine's while asking is a ``crash`` for each decision not yet told its outcome."""
    told: set[int] = set()

    def telling(k: int, legal: list[Any], done: Callable[..., None]) -> Callable[[Any], None]:
        answered = _answering(legal, done)

        def tell(result: Any) -> None:
            if k in told:  # a second outcome (after a fault above made this one a crash): not given
                log.warning("agent_outcome_repeated", seat=group[k][0].seat, game_id=group[k][0].game_id)
                return
            told.add(k)
            answered(result)
        return tell

    try:
        client.choose_many_async([(request, timeout_s, telling(k, legal, done))
                                  for k, (_, request, legal, timeout_s, done) in enumerate(group)])
    except Exception as exc:  # noqa: BLE001 - any fault while asking is a strike, never silence
        for k, (d, *_, done) in enumerate(group):
            if k not in told:
                told.add(k)
                log.exception("agent_ask_failed", game_id=d.game_id, seat=d.seat, version=d.start)
                done(("crash", f"{type(exc).__name__}: {exc}", None))


def _answering(legal: list[Any], done: Callable[[tuple[str | None, str, dict[str, Any] | None]], None]
               ) -> Callable[[Any], None]:
    """The client's callback for a request offering ``legal``: its choice or AgentFailure made
    ``done``'s ``(failure, detail, move)``."""
    from services.agents.client import AgentFailure
    from services.agents.protocol import choice_to_move

    def answered(result: Any) -> None:
        if isinstance(result, AgentFailure):
            done((result.kind, str(result), None))
            return
        try:
            move = choice_to_move(result, legal)  # the client checked the index
        except Exception as exc:  # noqa: BLE001 - a strike, never a decision left unanswered
            done(("crash", f"{type(exc).__name__}: {exc}", None))
            return
        done((None, "", move))

    return answered


class _Capture(threading.local):
    """The decisions of one game this thread's commits leave owed (:func:`ask_chained`)."""

    def __init__(self) -> None:
        self.game_id: str | None = None
        self.owed: list[tuple[int, int]] = []


_capture = _Capture()


def captured(game_id: str, seat: int, version: int) -> bool:
    """Called by a scheduler before it queues the decision ``(seat, version)`` of ``game_id``:
    True if this thread's :func:`ask_chained` takes it instead (it then asks it itself, or
    queues it when it stops), False to queue it as usual."""
    if _capture.game_id != game_id:
        return False
    _capture.owed.append((seat, version))
    return True


def ask_chained(table: Any, game_id: str, seat: int, version: int, token: str | None,
                queue: Any, most: int = CHAIN_DECISIONS, within_s: float = CHAIN_S) -> str:
    """:func:`ask_agent`, then the game's next agent decision in the same task while the commit
    leaves exactly one owed (a game of agents taking turns), at most ``most`` decisions and
    ``within_s`` seconds (no decision started after them); whatever is owed when it stops, or
    the decision it took over when asking it raises, is queued with ``queue(game_id, seat,
    version)``, as the scheduler would have (seats deciding at once are each queued, so they are
    asked at the same time).

    Each decision keeps :func:`ask_agent`'s exactly-once claim, clock and commit; what the chain
    saves is the broker's round trip and a task a decision. A worker that dies between a commit
    and the next ask leaves that decision to the worker's start-up re-arm
    (:func:`services.phases.worker.requeue_agent_decisions`), as a bot's run of moves on the bus does.

    Returns:
        the first decision's outcome (:func:`ask_agent`).
    Raises:
        what :func:`ask_agent` raises (anything owed is queued first).
    """
    began = time.monotonic()
    first: str | None = None
    for n in range(max(1, most)):
        _capture.game_id, _capture.owed = game_id, []
        try:
            outcome = ask_agent(table, game_id, seat, version, token=token if n == 0 else f"{token}+{n}")
        except BaseException:
            if n:  # a decision this task took over from its commit: queued again, as if never chained
                _capture.owed.insert(0, (seat, version))  # (a retry of the task redoes only the first)
            _release(queue, game_id)
            raise
        first = outcome if first is None else first
        owed = _capture.owed
        if (len(owed) != 1 or outcome not in ("played", "default") or n + 1 >= most
                or time.monotonic() - began >= within_s):
            break
        seat, version = owed[0]
    _release(queue, game_id)
    return first or "skipped"


def _release(queue: Any, game_id: str) -> None:
    """Stop capturing; queue what is owed."""
    owed, _capture.game_id, _capture.owed = _capture.owed, None, []
    for seat, version in owed:
        queue(game_id, seat, version)


def _players(table: Any, game_id: str) -> int:
    return int(table.store.meta(game_id)["players"])


def _options(state: Any) -> dict[str, Any]:
    config = getattr(state, "config", None) or {}
    return dict(config.get("options") or {}) if isinstance(config, dict) else {}


def end_match(table: Any, game_id: str) -> int:
    """Tell each agent of a finished game the result (once per seat, whoever calls), where it was
    told the match started: a seat forfeited before its first request (its agent deleted, say)
    was never sent MatchStart, so it is not sent MatchEnd either (protos/agent.proto: a start,
    the moves, an end). Returns how many agents were told. A failure is logged, never raised (the
    game is over)."""
    from services.agents.client import AgentFailure
    from services.agents.protocol import MatchEnd
    from services.agents.registry import UnknownAgent, registry_for
    from services.rules.core import canonical_json

    rules, state, _ = table.state(game_id, cow=True)
    result = rules.outcome(state)
    if result is None:
        return 0
    from services.rules.core import match as core_match

    clock = clock_for(table)
    told = 0
    players = _players(table, game_id)
    report = {**result, "strikes": [core_match.strikes(state, s) for s in range(players)]}
    for seat, bot in sorted(table.bots(game_id).items()):
        if (bot.get("kind") != "agent" or not clock.was(game_id, f"started:{seat}")
                or not clock.once(game_id, f"ended:{seat}")):
            continue
        try:
            client_for(registry_for(table).get(bot["agent"])).end(
                MatchEnd(match_id=game_id, seat=seat, result_json=canonical_json(report)), END_TIMEOUT_S)
            told += 1
        except (AgentFailure, UnknownAgent) as exc:
            log.info("agent_end_failed", game_id=game_id, seat=seat, error=type(exc).__name__)
    return told

