"""The coordinator: :class:`Table` drives games through the four ports and the store.

For a move it checks the version and the rules, asks the ports for the events
(consecutive operations of one domain go in one call), commits them in one atomic
versioned step and, if the rules now owe a phase, hands it to the phase scheduler.
A move re-sent with the same client move id is answered with its first result.
The same class runs embedded (memory store, embedded ports, phases inline) and in the
hosted stack (Redis store, gRPC ports, phases on Celery).
"""

from __future__ import annotations

import hashlib
import json
import uuid

import orjson
from dataclasses import dataclass, field
from typing import Any, Callable, Protocol

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from services.common import metrics
from services.rules.core import Event, GameConfig, Op, RulesError, canonical_json, get_rules, state_hash, visible

from .projection import Projections
from .store import Commit, Counters, EventStore, MoveRecorded, VersionConflict


MAX_SIMULTANEOUS = 8
"""Most commits :meth:`Table.decision_start` walks back, and :meth:`Table.play_for_agent` retries,
over one simultaneous decision (one per other seat deciding at once: at most 3 in the games' 4 seats)."""


class StaleVersion(Exception):
    """The client's expected version is not the game's current version."""

    def __init__(self, expected: int, actual: int):
        super().__init__(f"the game is at version {actual}, not {expected}; fetch the view and retry")
        self.expected = expected
        self.actual = actual


class MoveIdReused(Exception):
    """A client move id was used before for a different request (another move or version)."""

    def __init__(self, move_id: str):
        super().__init__(f"move id {move_id!r} was already used for a different move; use a new id")
        self.move_id = move_id


def request_digest(move: Any, expected_version: int) -> str:
    """sha256 of a move request as posted (the move and the version it expects)."""
    try:
        text = orjson.dumps({"move": move, "expected_version": expected_version}, option=orjson.OPT_SORT_KEYS)
    except TypeError:  # not JSON data (a client's oddity): the standard library's lenient form
        text = json.dumps({"move": move, "expected_version": expected_version}, sort_keys=True,
                          separators=(",", ":"), default=str).encode("utf-8")
    return hashlib.sha256(text).hexdigest()


class PhaseScheduler(Protocol):
    """Runs or queues what a commit leaves owed: a pending phase, a bot seat's decision."""

    def schedule(self, game_id: str, phase: str, version: int) -> None: ...

    def schedule_bot(self, game_id: str, seat: int, version: int) -> None: ...

    def schedule_agent(self, game_id: str, seat: int, version: int) -> None: ...

    def schedule_end(self, game_id: str) -> None: ...


class AgentRunner(Protocol):
    """Asks external agents in-process for an :class:`InlineScheduler` (the phases layer
    provides it: :mod:`services.phases.agents`)."""

    def ask_agent(self, table: Any, game_id: str, seat: int, version: int) -> Any:
        """Ask the agent of ``seat`` for its move at ``version`` and commit what counts on ``table``."""
        ...

    def end_match(self, table: Any, game_id: str) -> Any:
        """Tell the finished game's agents the result, once."""
        ...


class InlineScheduler:
    """Runs phases and bot moves at once in the same process (embedded mode), one after
    another (a queue, not recursion, so a game of bots plays to its end from one call).
    Bound to a table later.

    Args:
        agents: who asks agent seats and tells them the result (an :class:`AgentRunner`,
            e.g. :mod:`services.phases.agents`); without one, a game with an agent seat
            raises RuntimeError when an agent is due.
    """

    def __init__(self, agents: AgentRunner | None = None) -> None:
        self.table: Table | None = None
        self.agents = agents
        self._queue: list[tuple[str, str, Any, int]] = []
        self._draining = False

    def schedule(self, game_id: str, phase: str, version: int) -> None:
        """Run the phase now through the bound table (after the work already queued)."""
        self._run(("phase", game_id, phase, version))

    def schedule_bot(self, game_id: str, seat: int, version: int) -> None:
        """Let the bot of ``seat`` move now through the bound table (after the work already queued)."""
        self._run(("bot", game_id, seat, version))

    def schedule_agent(self, game_id: str, seat: int, version: int) -> None:
        """Ask the external agent of ``seat`` now (:meth:`AgentRunner.ask_agent`)."""
        self._run(("agent", game_id, seat, version))

    def schedule_end(self, game_id: str) -> None:
        """Tell the game's agents the result now (:meth:`AgentRunner.end_match`)."""
        self._run(("end", game_id, None, 0))

    def _run(self, job: tuple[str, str, Any, int]) -> None:
        assert self.table is not None, "InlineScheduler is not bound to a table"
        self._queue.append(job)
        if self._draining:
            return
        self._draining = True
        try:
            while self._queue:
                kind, game_id, what, version = self._queue.pop(0)
                if kind == "phase":
                    self.table.run_phase(game_id, what, version)
                elif kind == "bot":
                    self.table.play_bot(game_id, what, version)
                else:
                    if self.agents is None:
                        raise RuntimeError(f"game {game_id} has agent seats and this inline scheduler "
                                           "has no agent runner (InlineScheduler(agents=...))")
                    if kind == "agent":
                        self.agents.ask_agent(self.table, game_id, what, version)
                    else:
                        self.agents.end_match(self.table, game_id)
        finally:
            self._draining = False
            self._queue.clear()


def status_of(rules: Any, state: Any) -> str:
    """``over``, ``phase`` or ``active``, derived from the state."""
    if rules.outcome(state) is not None:
        return "over"
    if rules.pending_phase(state):
        return "phase"
    return "active"


class Table:
    """Coordinator of games over one store, four ports and a phase scheduler.

    Args:
        store: the event store.
        ports: mapping domain -> port (the deck port must have ``open_game``).
        scheduler: where pending phases go; an :class:`InlineScheduler` is bound here.
        new_id: makes game ids (default: 16 random hex digits).
        projections: the state cache to use (share it with embedded ports); a new one if ``None``.
    """

    def __init__(self, store: EventStore, ports: dict[str, Any], scheduler: PhaseScheduler | None = None,
                 new_id: Callable[[], str] | None = None, projections: Projections | None = None):
        self.store = store
        self.ports = ports
        self.projections = projections if projections is not None else Projections(store)
        self.scheduler = scheduler if scheduler is not None else InlineScheduler()
        if isinstance(self.scheduler, InlineScheduler):
            self.scheduler.table = self
        self.new_id = new_id or (lambda: uuid.uuid4().hex[:16])
        self._bots: dict[str, dict[int, dict[str, str]]] = {}
        self._people: dict[str, bool] = {}
        self._controls: dict[str, TimeControl] = {}
        self._fresh: dict[str, int] = {}

    # -- creation -----------------------------------------------------------------
    def create(self, config: GameConfig, seed: str | None = None,
               bots: dict[int, dict[str, Any]] | None = None, game_id: str | None = None,
               control: dict[str, int] | None = None, labels: dict[str, Any] | None = None,
               access: dict[str, Any] | None = None) -> str:
        """Create a game and run its set-up, stored in one commit; returns the game id.

        The set-up's operations are resolved by the domains before anything of the game is
        stored (they get the creation event as pending on base version 0), then the store
        writes the creation entry (version 1) and the set-up entry (version 2) in one atomic
        step (:meth:`EventStore.create`): a failure or a crash at any point before it leaves no
        game, after it a whole one. No game is ever stored half made.

        The seed goes to the deck port only (a fresh secret one if ``None``). ``bots``
        gives seats to built-in bots that decide on the bus: ``{seat: {"kind", "seed"}}``
        (:mod:`services.bots.decide`); they are stored with the game and never change.
        ``game_id``: the id to use (a tournament derives its matches' ids; ValueError if it is
        taken). ``control``: the time control of agent seats (:class:`TimeControl` fields),
        checked whatever the seats and stored with a game that has agent seats. ``labels``: JSON facts kept in the game's meta (the tournament
        and match it belongs to). ``access``: who may claim its seats (the gateway's
        :func:`gateway.invitations.access_record`: whether it is open, its invitations' digests),
        kept in the meta, so it is stored by the same atomic step as the game.
        Raises UnknownGame or BadConfig (also for a bad bot seat or kind, or time control); ValueError if
        ``game_id`` is taken (also when a concurrent creation of that id committed first);
        whatever a domain call raises (DomainCallFailed: nothing is stored then).
        """
        rules = get_rules(config.game)
        rules.validate_config(config)
        bots = normalise_bots(bots or {}, config.players)
        checked_control = parse_time_control(control)  # refused whatever the seats, before anything is stored
        if game_id is not None and self._exists(game_id):
            # before the deck stores a seed under it: an existing game's secret seed must stay
            raise ValueError(f"game {game_id!r} exists")
        game_id = game_id or self.new_id()
        self.ports["deck"].open_game(game_id, seed)
        created = rules.created_event(config)
        meta: dict[str, Any] = {"game": config.game, "players": config.players}
        if bots:
            meta["bots"] = {str(s): seal_bot(b) for s, b in sorted(bots.items())}
        if agent_seats(bots):
            meta["control"] = checked_control
        if labels:
            meta["labels"] = dict(labels)
        if access is not None:
            meta["access"] = dict(access)
        state = rules.new_state()
        rules.evolve(state, created)
        # base version 0: nothing of the game is stored yet; the domains start from its creation event
        events = self._resolve(game_id, 0, rules, state, rules.setup_ops(config), before=[created])[1:]
        version = self.store.create(game_id, meta, [created], setup=events, status=status_of(rules, state))
        self.projections.put(game_id, version, rules, state)
        self.projections.remember(game_id, 1, [created])
        self.projections.remember(game_id, version, events)
        self._schedule_next(game_id, rules, state, version)
        return game_id

    def _exists(self, game_id: str) -> bool:
        from .store import GameNotFound

        try:
            self.store.meta(game_id)
        except GameNotFound:
            return False
        return True

    # -- reading ------------------------------------------------------------------
    def state(self, game_id: str, cow: bool = False) -> tuple[Any, Any, int]:
        """``(rules, state, version)`` of the latest version (a private copy; ``cow``: a
        copy-on-write clone, for a caller that only reads the state or changes it through
        ``rules.evolve``, :meth:`Projections.state_at`)."""
        return self.projections.state_at(game_id, cow=cow)

    def summary(self, game_id: str) -> dict[str, Any]:
        """Public facts: game, version, status, seats to move, outcome, state hash."""
        rules, state, version = self.state(game_id)
        return {
            "game_id": game_id,
            "game": rules.name,
            "version": version,
            "status": status_of(rules, state),
            "to_move": rules.to_move(state),
            "outcome": rules.outcome(state),
            "state_hash": state_hash(rules.hash_view(state)),
        }

    # -- moves --------------------------------------------------------------------
    def play(self, game_id: str, seat: int, move: Any, expected_version: int,
             move_id: str | None = None, trusted: tuple[Any, Any] | None = None,
             hand_over: bool = True, attempt: int = 0, read_first: bool = False,
             counters: Counters | None = None) -> dict[str, Any]:
        """Resolve and commit one move.

        A repeat of ``move_id`` by the same seat with the same move and version is
        answered with the first result, even when it races the first (its commit may land
        between our reads); the same id with a different request is refused.

        Returns:
            ``{"version", "events"}``: the new version and the events the seat may see.
        A move against an older version is still played when only other seats of the same
        simultaneous decision have moved since (:meth:`_independent`), checked against the
        current state: seats deciding at once never race each other.

        Raises:
            StaleVersion: ``expected_version`` is not current (and the move was not independent
                of what happened since).
            MoveIdReused: ``move_id`` already named a different request of this seat.
            MalformedMove, IllegalMove, NotYourTurn: the game is unchanged.

        ``trusted``: ``(rules, state)`` at ``expected_version`` from which ``move`` was taken
        among the legal moves (a bot on the bus); the move is then neither parsed nor
        checked again, and the state is not read again.

        When this process's cached state is at ``expected_version`` (the usual case: the client
        answers what this process told it), the move is resolved on it without reading the store
        first (``optimistic``): the commit script checks the version and the move id itself
        (:class:`~services.coordinator.store.MoveRecorded`), so a game that moved on elsewhere or a
        repeated id is found there, and the answers are those of a move that read first. A refusal
        by the rules is then checked again the reading way, so it is never answered for a state
        that is not the game's current one. ``read_first``: never resolve optimistically.

        ``counters``: counted by the move's commit, in its atomic step, before anything else
        (:class:`~services.coordinator.store.Counters`; the gateway's rate limit of moves, so a move
        is one store round trip); a commit tried again does not count them again. A move refused
        before its commit (by the rules, a stale version found on reading) leaves them uncounted
        (``counters.counted`` false): counting them is then the caller's business.
        Raises OverLimit (nothing committed) when one of them is over its limit.
        """
        digest = request_digest(move, expected_version) if move_id is not None else ""
        if (trusted is None and not read_first and attempt == 0 and expected_version > 0
                and self.projections.version(game_id) == expected_version):
            # a copy-on-write clone, no read: the move changes it through rules.evolve only (_resolve)
            rules, state, version = self.projections.state_at(game_id, expected_version, cow=True)
            try:
                parsed = rules.parse_move(move)
                rules.require_turn(state, seat)
                rules.check(state, seat, parsed)
            except RulesError:
                return self.play(game_id, seat, move, expected_version, move_id, hand_over=hand_over, read_first=True,
                                 counters=counters)
            move = parsed
        elif trusted is not None:
            rules, state = trusted
            state, version = rules.copy(state), expected_version
        else:
            first = self._first_result(game_id, seat, move_id, digest)
            if first is not None:
                return self._repeated(game_id, first, hand_over)
            rules, state, version = self.state(game_id)
            if expected_version != version:
                first = self._first_result(game_id, seat, move_id, digest)
                if first is not None:
                    return self._repeated(game_id, first, hand_over)
                if not self._independent(game_id, seat, expected_version, version):
                    raise StaleVersion(expected_version, version)
            move = rules.parse_move(move)
            rules.require_turn(state, seat)
            rules.check(state, seat, move)
        events = self._resolve(game_id, version, rules, state, rules.plan(state, seat, move))
        # canonical form, so a repeat (answered from the store) is the same bytes as the first answer
        result = json.loads(canonical_json({"version": version + 1,
                                            "events": [e.to_json() for e in visible(events, seat)]}))
        commit = Commit("move", seat, move_key=(seat, move_id) if move_id is not None else None,
                        result={"result": result, "request": digest}, counters=counters)
        try:
            # the state is this call's own and is not changed after its commit: the cache takes it as it is
            self._commit(game_id, version, rules, state, events, commit, hand_over=hand_over, owned=True)
        except MoveRecorded:  # the id has a result: the first answer, or MoveIdReused
            first = self._first_result(game_id, seat, move_id, digest)
            if first is None:  # pragma: no cover - the store said it has one
                raise
            return self._repeated(game_id, first, hand_over)
        except VersionConflict as exc:
            first = self._first_result(game_id, seat, move_id, digest)
            if first is not None:
                return self._repeated(game_id, first, hand_over)
            if trusted is None and attempt < 8 and self._independent(game_id, seat, expected_version, exc.actual):
                # another seat of the same simultaneous decision committed first: go again
                return self.play(game_id, seat, move, expected_version, move_id, hand_over=hand_over,
                                 attempt=attempt + 1, counters=counters)
            raise StaleVersion(expected_version, exc.actual) from None
        return result

    def _repeated(self, game_id: str, first: dict[str, Any], hand_over: bool) -> dict[str, Any]:
        """``first``, the result a move sent again (the same id) gets, after handing the game over
        again (``hand_over``) if it still waits at the version that move made.

        The first request may have failed after its commit: the store's reply lost with a broken
        connection, so it never handed the game on, and its client sent the move again (the bots'
        client and the SDK do after a 503). Without this a game of bots waited on that move until a
        waiting client's nudge. A spare hand-over is a no-op: bot moves and phases are idempotent by
        version, and an agent decision is claimed once. Raises the store's errors."""
        if hand_over:
            self._hand_over(game_id, int(first["version"]))
        return first

    def _independent(self, game_id: str, seat: int, expected: int, current: int) -> bool:
        """True if a move of ``seat`` made against version ``expected`` may still be played at
        ``current``: at ``expected`` the seat was one of several deciding at once, every commit
        since is a move of another of those seats, and the seat still decides. Its move is
        then checked again against the current state; anything else is a real conflict."""
        from .store import GameNotFound

        if not 1 <= expected < current:
            return False
        try:
            rules, before, _ = self.projections.state_at(game_id, expected)
            entries = self.store.read(game_id, after=expected, upto=current)
        except (VersionConflict, GameNotFound):
            return False
        deciding = rules.to_move(before)
        if seat not in deciding or len(deciding) < 2:
            return False
        if any(e.kind != "move" or e.seat == seat or e.seat not in deciding for e in entries):
            return False
        try:  # at ``current`` itself, not a later state: the answer depends on the log up to it alone
            _, now, _ = self.projections.state_at(game_id, current, cow=True)
        except (VersionConflict, GameNotFound):
            return False
        return seat in rules.to_move(now)

    def _first_result(self, game_id: str, seat: int, move_id: str | None, digest: str) -> dict[str, Any] | None:
        """The stored result of ``(seat, move_id)`` if that request was committed before.

        Raises MoveIdReused if the id was committed for a different request.
        """
        if move_id is None:
            return None
        record = self.store.move_result(game_id, seat, move_id)
        if record is None:
            return None
        if record.get("request") != digest:
            raise MoveIdReused(move_id)
        return record["result"]

    def bots(self, game_id: str) -> dict[int, dict[str, str]]:
        """The game's bot seats, ``{seat: {"kind", "seed"}}`` (cached: they never change).
        Raises GameNotFound."""
        cached = self._bots.get(game_id)
        if cached is None:
            meta = self.store.meta(game_id)
            cached = {int(s): unseal_bot(b) for s, b in (meta.get("bots") or {}).items()}
            if len(self._bots) > 4096:
                self._bots.clear()
                self._people.clear()
            self._bots[game_id] = cached
            self._people[game_id] = int(meta["players"]) > len(cached)
        return cached

    def people(self, game_id: str) -> bool:
        """Whether a seat of the game is a person's: neither a built-in bot nor an agent (cached
        with :meth:`bots`: seats never change hands between them). Raises GameNotFound."""
        if game_id not in self._people:
            self._bots.pop(game_id, None)
            self.bots(game_id)
        return self._people[game_id]

    def play_bot(self, game_id: str, seat: int, version: int, run: int = 1) -> bool:
        """Let the built-in bot of ``seat`` make its move if the game is still at ``version``
        waiting for that seat (a bot task: idempotent by version, its move id derived from
        the version, so a redelivered task plays nothing twice).

        With ``run`` > 1 the call goes on while the game keeps waiting for a bot, or for a
        phase (run here), up to ``run`` commits in all, instead of handing each next step
        to the scheduler; when it stops early it hands the next step over as usual.

        Returns True if this call committed the first move.
        """
        from services.bots.decide import decide_for

        first = True
        for _ in range(max(1, run)):
            bots = self.bots(game_id)
            rules, state, current = self.state(game_id)
            if current != version:
                return not first
            phase = rules.pending_phase(state)
            if phase and not first:
                if not self._run_phase_on(game_id, phase, version, rules, state):
                    return not first
                version += 1
                continue
            waiting = [s for s in rules.to_move(state) if s in bots and bots[s]["kind"] != "agent"]
            if first and seat not in waiting:
                return False
            if not waiting:
                return not first
            seat = waiting[0]
            move = decide_for(bots[seat], rules, state, seat, version)
            try:
                self.play(game_id, seat, move, version, trusted=(rules, state), hand_over=False)
            except StaleVersion:
                return not first
            first = False
            version += 1
        self._hand_over(game_id, version)
        return True

    def control(self, game_id: str) -> "TimeControl":
        """The time control of the game's agent seats (defaults if it has none; cached: it never
        changes once the game is made). Raises GameNotFound."""
        cached = self._controls.get(game_id)
        if cached is None:
            cached = TimeControl.model_validate(self.store.meta(game_id).get("control") or {})
            if len(self._controls) > 4096:
                self._controls.clear()
            self._controls[game_id] = cached
        return cached

    def decision_start(self, game_id: str, seat: int, current: int) -> int:
        """The version at which the decision ``seat`` faces at version ``current`` began.

        That is ``current``, or an earlier version when ``seat`` is one of several seats deciding
        at once (Resource Hog's orders) and every commit since is another of those seats' move
        (:meth:`_independent`): one decision however many of the others answered first, so it is
        asked, timed and charged once. The caller has checked that ``seat`` is to move at
        ``current``. Reads at most :data:`MAX_SIMULTANEOUS` log entries back, and none when this
        table's batch committed ``current`` itself from a state where fewer than two seats were
        deciding (or committed a phase there): a decision begins at such a version.
        Raises GameNotFound.
        """
        if self.fresh_decision(game_id, current):
            return current  # this table committed ``current`` from a state where no two seats decided
        start = current
        for _ in range(MAX_SIMULTANEOUS):
            if start <= 1:
                break
            last = self.store.read(game_id, after=start - 1, upto=start)
            if not last or last[-1].kind != "move" or last[-1].seat == seat:
                break  # cheap test first: only another seat's move can continue a simultaneous decision
            if not self._independent(game_id, seat, start - 1, current):
                break
            start -= 1
        return start

    def fresh_decision(self, game_id: str, version: int) -> bool:
        """True if this table's batch (:meth:`run_jobs`) committed ``version`` of the game from a
        state where fewer than two seats decided, or committed a phase there: every decision at
        ``version`` begins there (:meth:`decision_start` reads nothing)."""
        return self._fresh.get(game_id) == version

    def play_for_agent(self, game_id: str, seat: int, version: int, move: dict[str, Any] | None,
                       failure: str | None = None) -> dict[str, Any] | None:
        """Commit the agent seat's decision at ``version``: ``move`` (one of the legal moves it
        was offered), or, with ``failure`` (``timeout``, ``crash``, ``malformed``, ``illegal``),
        a strike and the default move (a seeded random legal move, from the seat's seed and
        the version it is committed at), or the forfeit when the strike reaches the game's
        ``max_strikes``.

        ``version`` is the version the decision was asked at (or began at,
        :meth:`decision_start`). When only other seats of the same simultaneous decision have
        committed since (:meth:`_independent`), the decision is committed at the current
        version, ``move`` checked again against the current state: each seat's answer to a
        simultaneous decision counts. One controller per seat: whatever commits first for the
        decision stands, and anything later is refused (the seat has moved), so a late answer
        changes nothing. Returns ``{"version", "move", "events"}`` (public events) of the
        commit, or None if the game was no longer waiting for that decision of ``seat``.
        Raises GameNotFound; IllegalMove if ``move`` is not legal (the caller offered it, so
        this is a bug, not the agent's fault).
        """
        from services.bots.decide import decide
        from services.rules.core import match as core_match

        if failure is None and move is None:
            raise ValueError("play_for_agent needs a move or a failure")
        for _ in range(MAX_SIMULTANEOUS):
            # a copy-on-write clone: read, and changed through rules.evolve only (the strike, _resolve)
            rules, state, current = self.state(game_id, cow=True)
            if seat not in rules.to_move(state):
                return None
            if current != version and not self._independent(game_id, seat, version, current):
                return None
            bot = self.bots(game_id).get(seat) or {}
            prefix: list[Event] = []
            chosen = move
            if failure is not None:
                prefix = core_match.strike_events(state, seat, failure, self.control(game_id).max_strikes)
                for event in prefix:
                    rules.evolve(state, event)
                chosen = None if core_match.over(state) else decide("random", str(bot.get("seed", "")), rules,
                                                                     state, seat, current)
            else:
                rules.check(state, seat, chosen)
            events = (self._resolve(game_id, current, rules, state, rules.plan(state, seat, chosen), before=prefix)
                      if chosen is not None else prefix)
            try:
                # the state is this call's own and is not changed after its commit: the cache takes it as it is
                new_version = self._commit(game_id, current, rules, state, events, Commit("move", seat), owned=True)
            except VersionConflict:
                continue  # another seat of the decision committed meanwhile: look again
            return {"version": new_version, "move": chosen, "events": [e.to_json() for e in visible(events, None)]}
        return None

    def _hand_over(self, game_id: str, version: int) -> None:
        """Give the scheduler what the game at ``version`` waits for (a phase, bot seats)."""
        rules, state, current = self.state(game_id)
        if current != version:
            return
        self._schedule_next(game_id, rules, state, version)

    def _schedule_next(self, game_id: str, rules: Any, state: Any, version: int) -> None:
        """Hand the game at ``version`` to whoever acts next: its pending phase to the phase
        scheduler, each bot seat to move to the bus, each agent seat to move to the agent
        queue; at the end, the agents' result notice."""
        phase = rules.pending_phase(state)
        if phase:
            self.scheduler.schedule(game_id, phase, version)
            return
        status = status_of(rules, state)
        bots = self.bots(game_id)
        if status == "over":
            if agent_seats(bots):
                self.scheduler.schedule_end(game_id)
            return
        if status == "active":
            for s in rules.to_move(state):
                bot = bots.get(s)
                if bot is None:
                    continue
                if bot["kind"] == "agent":
                    self.scheduler.schedule_agent(game_id, s, version)
                else:
                    self.scheduler.schedule_bot(game_id, s, version)

    def _run_phase_on(self, game_id: str, phase: str, version: int, rules: Any, state: Any) -> bool:
        events = self._resolve(game_id, version, rules, state, rules.phase_ops(state, phase))
        try:
            self._commit(game_id, version, rules, state, events, Commit("phase"), hand_over=False)
        except VersionConflict:
            return False
        return True

    def run_phase(self, game_id: str, phase: str, version: int) -> bool:
        """Run phase ``phase`` if the game is still at ``version`` waiting for it.

        Idempotent: a repeated or late call finds the version moved on and commits nothing. One
        that finds the phase committed just before (the game one version on, waiting at it) hands
        the game over again: the first call may have failed after its commit, its reply from the
        store lost with a broken connection, before it handed the game on, and the phase task is
        retried on such errors (a spare hand-over is a no-op, as for a move sent again).
        Returns True if this call committed the phase.
        """
        rules, state, current = self.state(game_id)
        if current != version or rules.pending_phase(state) != phase:
            if current == version + 1:  # nothing but the pending phase commits at ``version``
                self._schedule_next(game_id, rules, state, current)
            return False
        events = self._resolve(game_id, version, rules, state, rules.phase_ops(state, phase))
        try:
            self._commit(game_id, version, rules, state, events, Commit("phase"))
        except VersionConflict:
            return False
        return True

    # -- many games at once (the bus) ------------------------------------------------
    def run_jobs(self, jobs: list["Job"]) -> list["Job"]:
        """Resolve and commit many games' next steps at once: each job is a bot move or a
        phase of one game at its current version. The domain calls go in lockstep — in each
        round every unfinished job sends its next group of same-domain operations, and the
        groups of one domain travel in one ``apply_batch`` call — so a move costs one call
        per domain it touches per round, shared by every game in the batch. Each job meets
        exactly the calls, in the order, that :meth:`play` or :meth:`run_phase` would make,
        so the events are the same. The commits go together (one pipeline where the store
        has one). Returns the jobs, each with ``version`` (new) or ``error`` set; hands over
        nothing (the caller decides what each game does next).
        """
        active = [j for j in jobs if j.error is None]
        for job in active:
            job.queue = list(job.ops)
            # before any event: a commit from a state where no two seats decide begins every decision
            job.fresh = job.commit.kind != "move" or len(job.rules.to_move(job.state)) < 2
        while active:
            by_domain: dict[str, list[tuple[Job, list[Op]]]] = {}
            for job in active:
                if not job.queue:
                    job.queue = job.rules.follow_up(job.state)
                    if not job.queue:
                        job.resolved = True
                        continue
                k = 1
                while k < len(job.queue) and job.queue[k].domain == job.queue[0].domain:
                    k += 1
                group, job.queue = job.queue[:k], job.queue[k:]
                by_domain.setdefault(group[0].domain, []).append((job, group))
            waiting = []
            for domain, items in by_domain.items():
                calls = [(j.game_id, j.base, j.events, g, self.projections.recent(j.game_id, j.base))
                         for j, g in items]
                port = self.ports[domain]
                if len(by_domain) > 1 and hasattr(port, "apply_batch_async"):  # in flight together
                    waiting.append((items, port.apply_batch_async(calls)))
                else:
                    results = port.apply_batch(calls)
                    waiting.append((items, lambda r=results: r))
            for items, collect in waiting:
                results = collect()
                for (job, _), result in zip(items, results):
                    if isinstance(result, Exception):
                        job.error = result
                        continue
                    for event in result:
                        job.rules.evolve(job.state, event)
                    job.events.extend(result)
            active = [j for j in active if j.error is None and not j.resolved]
        ready = [j for j in jobs if j.error is None]
        for job in ready:
            job.commit.status = status_of(job.rules, job.state)
        outcomes = self.store.commit_many([(j.game_id, j.base, j.events, j.commit) for j in ready])
        for job, outcome in zip(ready, outcomes):
            if isinstance(outcome, Exception):
                job.error = outcome
                continue
            job.version = outcome
            if job.fresh:
                if len(self._fresh) > 4096:
                    self._fresh.clear()
                self._fresh[job.game_id] = outcome
            if job.commit.kind == "move":
                metrics.move_accepted(job.rules.name)
            self.projections.put(job.game_id, outcome, job.rules, job.state, owned=True)
            self.projections.remember(job.game_id, outcome, job.events)
        return jobs

    def next_job(self, game_id: str, version: int | None = None,
                 ask: Callable[[str, int, tuple[Any, Any, int]], None] | None = None,
                 deciding: Callable[[str, int, dict[str, Any]], bool] | None = None) -> "Job | None":
        """The job a game on the bus waits for now: its pending phase, or the move of the bot
        whose decision it is (decided here); None if it waits for a client or is over.
        ``version``: the version the caller knows the game is at (its own last commit),
        read from the cache without asking the store; a game that moved on since then
        fails at its commit, harmlessly. An agent seat to move is handed to ``ask(game_id,
        seat, (rules, state, version))`` (a mover's :class:`~services.phases.agent_desk.AgentDesk`;
        the state is the one read here, for reading only), or without one to the scheduler's
        agent queue. ``deciding(game_id, version, bot)``, asked before a bot decides, returning
        False: another process is deciding it (None is returned). The job's state is a
        copy-on-write clone (:meth:`run_jobs` changes it through ``rules.evolve`` only)."""
        from services.bots.decide import decide_for

        rules, state, version = self.projections.state_at(game_id, version, cow=True)
        phase = rules.pending_phase(state)
        if phase:
            return Job(game_id, version, rules, state, rules.phase_ops(state, phase), Commit("phase"))
        bots = self.bots(game_id)
        status = status_of(rules, state)
        if status != "active":
            if status == "over" and agent_seats(bots):
                self.scheduler.schedule_end(game_id)  # idempotent: told once
            return None
        for seat in rules.to_move(state):
            if seat in bots and bots[seat]["kind"] == "agent":
                # the mover's desk or the agent queue asks it; the mover lets go of the game meanwhile
                if ask is not None:
                    ask(game_id, seat, (rules, state, version))
                else:
                    self.scheduler.schedule_agent(game_id, seat, version)
                continue
            if seat in bots:
                if deciding is not None and not deciding(game_id, version, bots[seat]):
                    return None
                move = decide_for(bots[seat], rules, state, seat, version)
                # no move id: a bot's move is keyed by the version it was decided at, and the
                # commit's version check already refuses a second one there
                return Job(game_id, version, rules, state, rules.plan(state, seat, move), Commit("move", seat),
                           seat=seat)
        return None

    # -- internals ----------------------------------------------------------------
    def _resolve(self, game_id: str, version: int, rules: Any, state: Any, ops: list[Op],
                 before: list[Event] | None = None) -> list[Event]:
        """Run ``ops`` and then the rules' follow-ups; ``state`` ends up including the events.
        ``before``: events of this commit already applied to ``state`` (the ports see them as
        pending); they start the list returned."""
        pending: list[Event] = list(before or [])
        while ops:
            i = 0
            while i < len(ops):
                j = i
                while j < len(ops) and ops[j].domain == ops[i].domain:
                    j += 1
                new = self.ports[ops[i].domain].apply(game_id, version, pending, ops[i:j],
                                                      recent=self.projections.recent(game_id, version))
                for event in new:
                    rules.evolve(state, event)
                pending.extend(new)
                i = j
            ops = rules.follow_up(state)
        return pending

    def _commit(self, game_id: str, version: int, rules: Any, state: Any, events: list[Event],
                commit: Commit, hand_over: bool = True, owned: bool = False) -> int:
        """Commit ``events`` at ``version`` (:meth:`RedisStore.commit`), cache ``state`` as the new
        version (``owned``: the caller hands it over and changes it no more, so it is not copied)
        and hand the next step over. Returns the new version; raises what the store's commit raises."""
        commit.status = status_of(rules, state)
        new_version = self.store.commit(game_id, version, events, commit)
        if commit.kind == "move":
            metrics.move_accepted(rules.name)  # one per "move" entry of the log (README, Metrics)
        self.projections.put(game_id, new_version, rules, state, owned=owned)
        self.projections.remember(game_id, new_version, events)
        if hand_over:
            self._schedule_next(game_id, rules, state, new_version)
        return new_version


@dataclass(slots=True)
class Job:
    """One game's next step on the bus: a bot move or a phase, at version ``base``, resolved
    by :meth:`Table.run_jobs` (``queue`` of operations still to send, ``events`` caused so
    far; after the run ``version`` is the committed version, or ``error`` says why not)."""

    game_id: str
    base: int
    rules: Any
    state: Any
    ops: list[Op]
    commit: Commit
    seat: int | None = None
    queue: list[Op] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)
    resolved: bool = False
    version: int | None = None
    error: Exception | None = None
    fresh: bool = False


class TimeControl(BaseModel):
    """The time control of a game's agent seats (as Kaggle's environments do it): each decision
    may take ``move_ms``; time beyond it is taken from the seat's bank of ``bank_ms`` for the
    whole match, and a decision that outruns both gets the default move and a strike;
    ``max_strikes`` strikes forfeit the match (:mod:`services.rules.core.match`). Enforced by
    the server's clock from the moment the agent is first asked.

    Attributes (milliseconds, strikes): ``move_ms`` 1-600000 (default 2000), ``bank_ms``
    0-3600000 (default 10000), ``max_strikes`` 1-1000 (default 3).
    """

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    move_ms: int = Field(default=2000, ge=1, le=600_000)
    bank_ms: int = Field(default=10_000, ge=0, le=3_600_000)
    max_strikes: int = Field(default=3, ge=1, le=1000)


def parse_time_control(control: dict[str, Any] | None) -> dict[str, int]:
    """``control`` checked as a :class:`TimeControl` (defaults filled in), as plain data.
    Raises BadConfig saying which field is wrong."""
    from services.rules.core import BadConfig
    from services.rules.core.game import validation_reason

    try:
        return TimeControl.model_validate(control or {}).model_dump()
    except ValidationError as exc:
        raise BadConfig(f"time_control: {validation_reason(exc)}") from None


def seal_bot(bot: dict[str, Any]) -> dict[str, Any]:
    """A seat's controller as the game's meta stores it: its ``seed`` (which fixes every choice
    of the bot, and an agent seat's default moves) encrypted (:mod:`services.common.sealing`)."""
    from services.common.sealing import sealer

    return {**bot, "seed": sealer().seal(str(bot["seed"]))} if "seed" in bot else dict(bot)


def unseal_bot(stored: dict[str, Any]) -> dict[str, Any]:
    """The controller of :func:`seal_bot`'s form with its seed in plain text (a seed stored before
    encryption is taken as it is). Raises UnsealError if no configured key opens it."""
    from services.common.sealing import sealer

    return {**stored, "seed": sealer().unseal(stored["seed"])} if "seed" in stored else dict(stored)


def agent_seats(bots: dict[int, dict[str, Any]]) -> list[int]:
    """The seats of ``bots`` (a game's controllers, :func:`normalise_bots`) held by external agents."""
    return [s for s, b in bots.items() if b.get("kind") == "agent"]


def normalise_bots(bots: dict[Any, Any], players: int) -> dict[int, dict[str, Any]]:
    """``{seat: kind}`` or ``{seat: {"kind", "seed", ...}}`` -> ``{seat: {"kind", "seed", ...}}``.

    A seat's controller is a built-in bot (``kind`` one of :data:`~services.bots.decide.BOT_KINDS`,
    with an optional ``seed``; the search kinds, ``ismcts`` and ``expert``, also take
    ``iterations``, 1-100000) or an external
    agent (``{"kind": "agent", "agent": <agent id>, "seed": <default-move seed>}``). A bot
    without a seed gets a random one. Raises BadConfig for a seat out of range, an unknown
    kind or a field that kind does not take."""
    from services.bots.decide import BOT_KINDS, SEARCH_KINDS, check_iterations
    from services.rules.core import BadConfig

    allowed = {**{k: {"iterations"} for k in SEARCH_KINDS}, "agent": {"agent"}}
    out: dict[int, dict[str, Any]] = {}
    for raw_seat, spec in bots.items():
        try:
            seat = int(raw_seat)
        except (TypeError, ValueError):
            raise BadConfig(f"bot seat {raw_seat!r} is not a seat number") from None
        if not 0 <= seat < players:
            raise BadConfig(f"bot seat {seat} is not a seat of a {players}-seat game")
        spec = {"kind": spec} if isinstance(spec, str) else dict(spec) if isinstance(spec, dict) else {"kind": spec}
        kind = spec.get("kind")
        if kind not in BOT_KINDS + ("agent",) or set(spec) - {"kind", "seed"} - allowed.get(kind, set()):
            raise BadConfig(f"a seat's bot is a kind ({', '.join(BOT_KINDS)}) or {{\"kind\": <kind>, \"seed\": <text>}} "
                            f"({' and '.join(SEARCH_KINDS)} may add \"iterations\"; an agent is "
                            f"{{\"kind\": \"agent\", \"agent\": <id>}}), "
                            f"not {json.dumps(spec, sort_keys=True, default=str)}")
        entry: dict[str, Any] = {"kind": kind, "seed": str(spec.get("seed") or uuid.uuid4().hex)}
        if kind == "agent":
            if not isinstance(spec.get("agent"), str) or not spec["agent"]:
                raise BadConfig("an agent seat names its registered agent: {\"kind\": \"agent\", \"agent\": <id>}")
            entry["agent"] = spec["agent"]
        if "iterations" in spec:
            try:
                entry["iterations"] = check_iterations(spec["iterations"])
            except ValueError as exc:
                raise BadConfig(f"{kind} {exc}") from None
        out[seat] = entry
    return out


def embedded_table(new_id: Callable[[], str] | None = None, agents: AgentRunner | None = None) -> Table:
    """A single-process table: memory store, embedded ports, phases inline (agent seats asked
    through ``agents``, e.g. :mod:`services.phases.agents`)."""
    from .ports import embedded_ports
    from .store import MemoryStore

    store = MemoryStore()
    projections = Projections(store)
    return Table(store, embedded_ports(store, projections=projections), InlineScheduler(agents),
                 new_id=new_id, projections=projections)
