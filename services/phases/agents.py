"""Asking external agents for their moves, under the server's clock.

When a commit leaves a game waiting for a seat held by an agent (``{"kind": "agent"}``), the
Table's scheduler queues :func:`ask_agent` (the Celery task ``longhouse.ask_agent`` on the queue
:data:`QUEUE`; inline in an embedded table). The task:

1. claims the decision ``(game, seat, version)`` so that a duplicate task asks nobody (a task the
   broker redelivers after its worker died has the same id and may go on);
2. reads the seat's clock (:class:`Clock`): when the agent was first asked for this decision
   (recorded once, so a redelivered task gives it no more time) and its bank;
3. sends the agent its player view, the legal moves and the time left (``move_ms`` plus bank,
   less the time already gone), and waits at most that long by the engine's clock;
4. commits the answer (a choice among the legal moves offered) with
   :meth:`~services.coordinator.table.Table.play_for_agent`, or, for a late, crashed, malformed
   or illegal answer, a strike and the default move (or the forfeit): the time over ``move_ms``
   comes out of the bank.

Every commit is version-checked, so whatever plays first for a decision stands and a late
answer changes nothing. At the end of a game, :func:`end_match` tells each agent the result,
once. A forfeit writes the audit line ``seat.forfeit`` (game, seat, agent, the failure).
"""

from __future__ import annotations

import threading
import time
import uuid
from typing import Any

from services.common import logs, metrics

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

log = logs.get_logger()


def now_ms() -> int:
    """The server's wall clock in milliseconds (shared by every worker of the stack)."""
    return int(time.time() * 1000)


class Clock:
    """Per-game decision records: who is asking, when each decision was first asked, each
    seat's bank, the once-only notices. In Redis (``client``; keys in the game's hash slot) or
    in memory.

    Args:
        client: Redis client of the game store, or None.
    """

    def __init__(self, client: Any | None = None):
        self.client = client
        self._memory: dict[str, str] = {}
        self._lock = threading.Lock()

    @staticmethod
    def _key(game_id: str) -> str:
        from services.coordinator.redis_store import key

        return key(game_id, "clock")

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
        return got.decode() if isinstance(got, bytes) else got

    def claim(self, game_id: str, seat: int, version: int, token: str, hold_ms: int) -> bool:
        """True if ``token`` may ask for decision ``(seat, version)``: the first to claim it,
        the same token again (a redelivered task), or anyone once the holder's claim is
        ``hold_ms`` old (its task died and was not redelivered). A second asker can only ever
        cause a second question: the commit's version check still lets one answer count."""
        field = f"claim:{seat}:{version}"
        mine = f"{token}@{now_ms() + hold_ms}"
        held = self._setnx(game_id, field, mine)
        holder, _, until = held.rpartition("@")
        if holder == token:
            return True
        if now_ms() < int(until or 0):
            return False
        if self.client is None:
            with self._lock:
                self._memory[f"{game_id}:{field}"] = mine
        else:
            self.client.hset(self._key(game_id), field, mine)
        return True

    def asked_at(self, game_id: str, seat: int, version: int) -> int:
        """When decision ``(seat, version)`` was first asked (ms; recorded now if it was not)."""
        return int(self._setnx(game_id, f"asked:{seat}:{version}", str(now_ms())))

    def bank(self, game_id: str, seat: int, initial: int) -> int:
        """The seat's bank in ms (``initial`` until the first overage)."""
        return int(self._setnx(game_id, f"bank:{seat}", str(initial)))

    def spend(self, game_id: str, seat: int, version: int, overage: int, initial: int) -> int:
        """Take ``overage`` ms from the seat's bank, once per decision; returns the bank left."""
        if overage <= 0 or not self.once(game_id, f"spent:{seat}:{version}"):
            return self.bank(game_id, seat, initial)
        left = max(0, self.bank(game_id, seat, initial) - overage)
        if self.client is None:
            with self._lock:
                self._memory[f"{game_id}:bank:{seat}"] = str(left)
        else:
            self.client.hset(self._key(game_id), f"bank:{seat}", str(left))
        return left

    def once(self, game_id: str, what: str) -> bool:
        """True the first time ``what`` is asked for this game, False ever after."""
        token = uuid.uuid4().hex
        return self._setnx(game_id, f"once:{what}", token) == token


_clients: dict[tuple[str, str, str, tuple[str, ...]], Any] = {}
_clients_lock = threading.Lock()


def client_for(record: Any) -> Any:
    """The engine's client of a registered agent (one per agent, address and set of signing
    secrets, reused; a rotation window's end makes a new one that signs with the new secret only)."""
    from services.agents.client import make_client

    cache_key = (record.agent_id, record.protocol, record.address, tuple(record.signing_secrets()))
    with _clients_lock:
        client = _clients.get(cache_key)
        if client is None:
            if len(_clients) > 256:
                _clients.clear()
            client = _clients[cache_key] = make_client(record.model_dump())
        return client


def clock_for(table: Any) -> Clock:
    """The clock that goes with ``table`` (the Redis of its store, or one in memory)."""
    existing = getattr(table, "_agent_clock", None)
    if existing is None:
        existing = Clock(getattr(table.store, "r", None))
        table._agent_clock = existing
    return existing


def ask_agent(table: Any, game_id: str, seat: int, version: int, token: str | None = None) -> str:
    """Ask the agent of ``seat`` for its decision at ``version`` and commit what it counts for.

    Args:
        table: the Table (hosted or embedded).
        token: the asking task's id (a redelivered task keeps it); None: a fresh one.
    Returns:
        ``"played"`` (the agent's move), ``"default"`` (a strike and the default move),
        ``"forfeit"``, ``"busy"`` (another task holds the decision), or ``"skipped"`` (the game
        has moved on, or the seat is not an agent's).
    Raises:
        GameNotFound.
    """
    from services.agents.client import AgentFailure
    from services.agents.protocol import MatchStart, MoveRequest, choice_to_move
    from services.agents.registry import UnknownAgent, registry_for
    from services.rules.core import canonical_json

    rules, state, current = table.state(game_id)
    bot = table.bots(game_id).get(seat)
    if current != version or seat not in rules.to_move(state) or not bot or bot.get("kind") != "agent":
        return "skipped"
    clock = clock_for(table)
    control = table.control(game_id)
    hold_ms = control.move_ms + control.bank_ms + int((START_TIMEOUT_S + 30) * 1000)
    if not clock.claim(game_id, seat, version, token or uuid.uuid4().hex, hold_ms):
        return "busy"
    asked = clock.asked_at(game_id, seat, version)
    bank = clock.bank(game_id, seat, control.bank_ms)
    legal = rules.legal_moves(state, seat)
    failure: str | None = None
    move: dict[str, Any] | None = None
    detail = ""
    try:
        record = registry_for(table).get(bot["agent"])
        client = client_for(record)
    except UnknownAgent as exc:
        failure, detail = "crash", str(exc)
    else:
        if clock.once(game_id, f"started:{seat}"):
            start = MatchStart(match_id=game_id, game=rules.name, seat=seat, players=_players(table, game_id),
                               options_json=canonical_json(_options(state)), time_control=control.model_dump())
            try:
                client.start(start, min(START_TIMEOUT_S, control.move_ms / 1000))
            except AgentFailure as exc:
                log.info("agent_start_failed", game_id=game_id, seat=seat, agent=record.agent_id, kind=exc.kind)
        left = control.move_ms + bank - (now_ms() - asked)
        if left <= 0:
            failure, detail = "timeout", "no time left for this decision"
        else:
            request = MoveRequest(match_id=game_id, game=rules.name, seat=seat, version=version,
                                  view_json=canonical_json(rules.view(state, seat)),
                                  legal_moves_json=[canonical_json(m) for m in legal],
                                  time_left_ms=left, bank_ms=bank)
            try:
                choice = client.choose(request, left / 1000)
                move = choice_to_move(choice, legal)
            except AgentFailure as exc:
                failure, detail = exc.kind, str(exc)
            except (ValueError, IndexError, TypeError) as exc:
                failure, detail = "illegal", str(exc)
    used = now_ms() - asked
    if failure is None and used > control.move_ms + bank:
        failure, detail, move = "timeout", f"answered after {used} ms", None
    bank_left = clock.spend(game_id, seat, version, used - control.move_ms, control.bank_ms)
    result = table.play_for_agent(game_id, seat, version, None if failure else move, failure)
    outcome = ("skipped" if result is None else "played" if failure is None
               else "forfeit" if result["move"] is None else "default")
    if result is not None:
        metrics.agent_decision(failure)  # answered, late, crashed or illegal (README, Metrics)
    log.info("agent_decision", game_id=game_id, seat=seat, version=version, agent=bot.get("agent"),
             outcome=outcome, failure=failure, detail=detail[:200], used_ms=used, bank_ms=bank_left)
    if outcome == "forfeit":
        log.info("audit", action="seat.forfeit", game_id=game_id, seat=seat, agent=bot.get("agent"),
                 failure=failure, max_strikes=control.max_strikes)
    return outcome


def _players(table: Any, game_id: str) -> int:
    return int(table.store.meta(game_id)["players"])


def _options(state: Any) -> dict[str, Any]:
    config = getattr(state, "config", None) or {}
    return dict(config.get("options") or {}) if isinstance(config, dict) else {}


def end_match(table: Any, game_id: str) -> int:
    """Tell each agent of a finished game the result (once per seat, whoever calls). Returns
    how many agents were told. A failure is logged, never raised (the game is over)."""
    from services.agents.client import AgentFailure
    from services.agents.protocol import MatchEnd
    from services.agents.registry import UnknownAgent, registry_for
    from services.rules.core import canonical_json

    rules, state, _ = table.state(game_id)
    result = rules.outcome(state)
    if result is None:
        return 0
    from services.rules.core import match as core_match

    clock = clock_for(table)
    told = 0
    players = _players(table, game_id)
    report = {**result, "strikes": [core_match.strikes(state, s) for s in range(players)]}
    for seat, bot in sorted(table.bots(game_id).items()):
        if bot.get("kind") != "agent" or not clock.once(game_id, f"ended:{seat}"):
            continue
        try:
            client_for(registry_for(table).get(bot["agent"])).end(
                MatchEnd(match_id=game_id, seat=seat, result_json=canonical_json(report)), END_TIMEOUT_S)
            told += 1
        except (AgentFailure, UnknownAgent) as exc:
            log.info("agent_end_failed", game_id=game_id, seat=seat, error=type(exc).__name__)
    return told

