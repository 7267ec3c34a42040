"""One game on the forward model, stepped one decision or one chance outcome at a time: what
the OpenSpiel, PettingZoo and Gymnasium adapters share.

The forward model (:mod:`services.rules.core.forward`) resolves a move in one call, drawing
chance as it goes. An :class:`Episode` runs the same resolution (plan, each operation's
``handle``, ``evolve``, follow-ups, then any phase that falls due) in the caller's own stack.
A deck operation's ``handle`` (the one place the rules draw chance) runs there too until it
needs a new draw; it is then started again in a worker greenlet whose chance has an outcome
source (:class:`services.rules.core.chance.Chance`'s ``source``), where each new uniform draw
``below(n)`` suspends it and becomes an explicit ``n``-way chance node, and the outcome chosen
outside resumes it. ``handle`` never changes the state, so the second start is safe; only the
part of an operation before its first new draw ever runs twice, and a move that draws nothing
new switches no greenlet.

Chance keeps the engine's meaning of a label: the engine's ``Chance(seed, label)`` is a fixed
stream, so the rules draw the same outcomes whenever they ask again under the same label (a
Noggin pile is shuffled again under its label at every draw from it, and must come out in the
same order). An episode records each label's outcomes (:class:`_Stream`): the ``k``-th draw
among ``n`` under a label is the ``k``-th recorded one if it was among the same ``n``, else a
chance node whose outcome is recorded. The records are the episode's hidden future (the
order of its piles): copies share them, a resample starts without them.

An episode copied while a draw is pending (search clones, pickling) keeps where the resolution
stands: the operations and the one under way; the copy runs that operation's ``handle`` again
(operations' ``handle`` never changes the state), its earlier draws answered from the records,
and stops at the same pending draw.

Bounds (issue 24): a decision offers at most :data:`BOUNDS` ``[game]`` actions. When a seat
has more legal moves, it picks in steps of the same seat: a block of moves first, then a
move within it (more levels if needed), digits of the move's index in base of the bound;
a draw among more than :data:`CHANCE_BOUND` outcomes is split the same way, each level with
the probabilities that keep the draw uniform. The rules' own move lists are unchanged.

Sequential imperfect information: when several seats decide at once (Resource Hog's sealed
orders), the lowest seat moves first and the rules keep its choice secret (its event is
private), so the next seat decides without seeing it.

Information records: the log of an episode is a chain of :class:`Entry` steps, one for each
stretch of resolution between two nodes (a seat's move and the events it caused up to the next
node, or the events that followed a chance outcome), shared between copies. Each operation's
visible events are serialised once as they are handled and read back only when asked for. A
seat's information state is the steps it saw: its own moves and the events it may see
(``Event.visible_to``); its observation is its player view (``rules.view``).
"""

from __future__ import annotations

import threading
from typing import Any, Iterator, Sequence

import greenlet
import orjson

from services.bots import evaluation
from services.common.integers import whole_number, whole_number_within
from services.rules.core import GameConfig, Rules, get_rules
from services.rules.core.canonical import canonical_json, plain_json, state_hash
from services.rules.core.events import Event
from services.rules.core.chance import Chance
from services.rules.core.game import Op

BOUNDS = {"noggin": 256, "gnomes": 128, "resource_hog": 64}
"""Most actions a decision offers, by game (``num_distinct_actions``). Random play reaches 122
legal moves in Noggin, 72 in Gnomes and 26 in Resource Hog (issue 24); larger sets (a ransom,
a discard, a payment) are chosen in steps."""
DEFAULT_BOUND = 256
"""The bound of a game missing from :data:`BOUNDS`."""
CHANCE_BOUND = 64
"""Most outcomes a chance node offers (``max_chance_outcomes``); random play draws among at
most 34 (a Gnomes shuffle). Larger draws are taken in steps."""
MAX_LEVELS = 3
"""Steps of one decision at most, for ``max_game_length``: ``bound ** 3`` legal moves (262,144
at the smallest bound) is far beyond any move list of the three games."""
DEFAULT_MAX_MOVES = 1000
"""Moves (seats' decisions, not chance or steps) after which an episode is truncated. The
rules do not bound a game's length; random games take 90-400 moves."""
UTILITIES = ("win", "score", "rank")
"""The utilities an episode pays at its end (see :meth:`Episode.returns`)."""
SCORE_SCALE = {"noggin": 20.0, "gnomes": 20.0, "resource_hog": 10.0}
"""Points of a seat above the table's mean that make its ``score`` utility 1 (clipped to
[-1, 1]): about a good win's margin in each game's random and bot play."""

CHANCE = -1
"""``current()`` at a chance node (OpenSpiel's ``PlayerId.CHANCE``)."""
TERMINAL = -4
"""``current()`` at the end (OpenSpiel's ``PlayerId.TERMINAL``)."""
_dumps, _loads, _SORTED = orjson.dumps, orjson.loads, orjson.OPT_SORT_KEYS
_DONE = object()
"""What a worker answers when the ``handle`` it ran is over: ``(_DONE, events)``."""
_POOL = threading.local()
"""Idle worker greenlets of this thread (greenlets run only in the thread that made them):
making one costs about ten times a switch, so finished workers wait here for the next job."""
POOL_SIZE = 8


def _work(job: tuple[Any, ...]) -> None:
    """A worker greenlet: run jobs ``(episode, op)`` (one deck operation's ``handle``), answering
    ``(_DONE, events)`` after each."""
    while True:
        ep, op = job
        events = ep._deck(op)
        ep = op = job = None  # an idle worker holds no episode
        job = greenlet.getcurrent().parent.switch((_DONE, events))


def _worker() -> Any:
    idle = getattr(_POOL, "idle", None)
    if idle:
        w = idle.pop()
        here = greenlet.getcurrent()
        if w.parent is not here:
            w.parent = here
        return w
    return greenlet.greenlet(_work)


def _rest(worker: Any) -> None:
    idle = getattr(_POOL, "idle", None)
    if idle is None:
        idle = _POOL.idle = []
    if len(idle) < POOL_SIZE:
        idle.append(worker)


class _NewDraw(BaseException):
    """Raised out of a deck operation run directly (no worker) at its first draw that needs a
    chance node; a ``BaseException`` so that no ``except Exception`` of the rules can take it."""


_DREW: dict[str, dict[str, bool]] = {}
"""Whether a deck operation (game, then name) needed a chance node the last time it ran in a worker:
such an operation goes straight to a worker rather than being run directly and started again
(a guess that only saves time; the outcome is the same either way)."""


class _Stream:
    """The outcome source of one ``Chance(label)`` of an episode's deck operation: its ``k``-th
    draw among ``n`` is the label's ``k``-th recorded draw if that was among ``n`` too (the
    engine's seeded chance gives a label the same stream every time), else a chance node whose
    outcome is recorded in place of the rest (a draw among one is recorded, never asked). Run
    ``direct`` (in the caller's stack), it raises :class:`_NewDraw` instead of asking."""

    __slots__ = ("ep", "label", "k", "direct")

    def __init__(self, ep: Episode, label: str, direct: bool):
        self.ep, self.label, self.k, self.direct = ep, label, 0, direct

    def __call__(self, n: int) -> int:
        ep, k = self.ep, self.k
        self.k = k + 1
        known = ep._memo.get(self.label, ())
        if k < len(known):
            drawn = known[k]
            if drawn[0] == n:
                return drawn[1]
        if n == 1:
            v = 0
        elif self.direct:
            raise _NewDraw()
        else:
            v = greenlet.getcurrent().parent.switch(n)
        if ep._memo_shared:  # a copy shares the records: copy them before writing
            ep._memo = dict(ep._memo)
            ep._memo_shared = False
        ep._memo[self.label] = known[:k] + ((n, v),)
        return v


Fact = tuple[str, "int | None", str]
"""An event as the log keeps it: ``(type, to, data as canonical JSON)`` (text, so a long log
costs the garbage collector nothing)."""


def facts(events: list[Event] | tuple[Event, ...]) -> tuple[Fact, ...]:
    """The events some seat may see, as :data:`Fact` s (sealed events are left out)."""
    return tuple([(e.type, e.to, plain_json(e.data)) for e in events if e.to is None or e.to >= 0])


def pack(events: list[Event] | tuple[Event, ...]) -> bytes | None:
    """:func:`facts` of ``events`` packed in one canonical JSON text ``[[type, to, data], ...]``
    (one serialisation for the whole operation; :attr:`Entry.events` unpacks it when first read),
    or ``None`` if no seat may see any of them."""
    seen = [(e.type, e.to, e.data) for e in events if e.to is None or e.to >= 0]
    return _dumps(seen, option=_SORTED) if seen else None


def unpack(packed: bytes) -> tuple[Fact, ...]:
    """The :data:`Fact` s of :func:`pack`'s text: the same as :func:`facts` of the events packed."""
    return tuple([(kind, to, plain_json(data)) for kind, to, data in _loads(packed)])


def _joined(parts: list[bytes]) -> bytes | None:
    """Several :func:`pack` texts (none empty) as one, in order; ``None`` for none."""
    if not parts:
        return None
    if len(parts) == 1:
        return parts[0]
    return b"[" + b",".join([p[1:-1] for p in parts]) + b"]"


_INDICES = list(range(DEFAULT_BOUND + 1))
"""``0, 1, ...``: a decision's actions are a slice of it (cheaper than a new ``range`` list)."""


class Entry:
    """One step of an episode's log; immutable once made and shared by every copy.

    Attributes:
        parent: the step before (``None`` at the start).
        depth: steps from the start (1 for the first).
        seat: the seat that moved (``move``), the seat a ``note`` is for, or -1 (events).
        move: the canonical JSON of the move a seat made, or ``None``.
        events: the facts that some seat may see (:func:`facts`) of the operations this step
            resolved; given ``packed`` (:func:`pack` texts, joined) instead, they are unpacked
            when first read, so a step nobody reads (random play) costs one serialisation per
            operation.
        note: text only ``seat`` sees (a state rebuilt from its view), or ``None``.
    """

    __slots__ = ("parent", "depth", "seat", "move", "_events", "_packed", "note", "_text")

    def __init__(self, parent: Entry | None, seat: int = -1, move: str | None = None,
                 events: tuple[Fact, ...] = (), note: str | None = None, packed: bytes | None = None):
        self.parent = parent
        self.depth = 1 if parent is None else parent.depth + 1
        self.seat = seat
        self.move = move
        self._events = events
        self._packed = packed
        self.note = note
        self._text: dict[int, str] | None = None

    @property
    def events(self) -> tuple[Fact, ...]:
        """The facts of this step (see the class docstring)."""
        packed = self._packed
        if packed is not None:
            self._events, self._packed = unpack(packed), None
        return self._events

    def text(self, seat: int, public_only: bool) -> str:
        """What ``seat`` saw of this step, one line per fact (empty if nothing); with
        ``public_only``, only the public events (the step lies before a resample for another
        seat, whose secrets the sample does not keep)."""
        key = -seat - 1 if public_only else seat
        if self._text is None:
            self._text = {}
        out = self._text.get(key)
        if out is None:
            lines = []
            if self.move is not None and self.seat == seat and not public_only:
                lines.append(f"{seat} moved {self.move}")
            if self.note is not None and self.seat == seat and not public_only:
                lines.append(self.note)
            for kind, to, data in self.events:
                if to is None or (to == seat and not public_only):
                    lines.append(f"{kind} {data}" + ("" if to is None else " (to you)"))
            out = "\n".join(lines)
            self._text[key] = out
        return out

    def chain(self) -> list[Entry]:
        """This step and every one before it, oldest first."""
        out = []
        e: Entry | None = self
        while e is not None:
            out.append(e)
            e = e.parent
        out.reverse()
        return out


def span(n: int, bound: int, prefix: tuple[int, ...]) -> tuple[int, int, int]:
    """Where the digits ``prefix`` lead among ``n`` items taken in steps of at most ``bound``:
    ``(lo, hi, chunk)``, the items ``[lo, hi)`` still open and the items each next digit
    stands for (1 at the last step). Raises ValueError if a digit is out of range."""
    size = bound
    while size < n:
        size *= bound
    lo, hi = 0, n
    for d in prefix:
        size //= bound
        if d < 0 or d >= bound or lo + d * size >= hi:
            raise ValueError(f"step {d} is out of range")
        lo += d * size
        hi = min(hi, lo + size)
    return lo, hi, max(1, size // bound)


_UNIFORM: dict[int, list[tuple[int, float]]] = {}


def draw_outcomes(n: int, bound: int, prefix: tuple[int, ...]) -> list[tuple[int, float]]:
    """The outcomes of one step of a uniform draw among ``n`` taken in steps of at most ``bound``
    after the digits ``prefix``: ``[(digit, probability)]``, each digit's probability the share
    of the open outcomes it leads to, so that every one of the ``n`` ends with ``1 / n``."""
    if n <= bound:
        out = _UNIFORM.get(n)
        if out is None:
            out = _UNIFORM[n] = [(k, 1.0 / n) for k in range(n)]
        return list(out)
    lo, hi, chunk = span(n, bound, prefix)
    width = hi - lo
    return [(k, (min(hi, lo + (k + 1) * chunk) - (lo + k * chunk)) / width) for k in range(-(-width // chunk))]


def check_max_moves(max_moves: Any) -> int:
    """``max_moves`` as an episode's length: a whole number of at least 1
    (:func:`services.common.integers.whole_number`: NumPy integers too; every adapter's
    ``max_moves``). Returns it as an int. Raises ValueError for anything else, saying what is wrong."""
    n = whole_number_within(max_moves, 1)
    if n is None:
        raise ValueError(f"max_moves must be a whole number of at least 1, not {max_moves!r}")
    return n


def action_index(action: Any) -> int:
    """``action`` as an action number: an ``int``, a NumPy integer, or an integer array of one
    element (what Gymnasium's and PettingZoo's ``Discrete`` spaces and the libraries around them
    hand over). Raises TypeError for anything else: a float such as 1.7 is refused, not rounded,
    and so is a bool."""
    one = action[0] if getattr(action, "size", None) == 1 and getattr(action, "ndim", 0) == 1 else action
    try:
        return whole_number(one)
    except TypeError:
        raise TypeError(f"an action is a whole number, not {action!r}") from None


def options(rules: Rules, players: int, values: dict[str, Any] | None) -> dict[str, Any]:
    """The options (variants) of a game of ``rules`` from ``values`` (name -> truth), the
    ones switched on only; raises :class:`services.rules.core.BadConfig` for an unknown name or
    a seat count the game does not take."""
    chosen = {k: True for k, v in sorted((values or {}).items()) if v}
    rules.validate_config(GameConfig(game=rules.name, players=players, options=chosen))
    return chosen


class Episode:
    """One game of ``game`` for ``players`` seats, stepped one decision or chance outcome at a
    time (see the module docstring).

    Args:
        game: ``"noggin"``, ``"gnomes"`` or ``"resource_hog"`` (any registered game).
        players: seats, within the game's range.
        variants: the game's options switched on (``{"sos": True}``).
        max_moves: moves (seats' decisions) after which the episode ends, truncated.
        bound: most actions a decision offers (default :data:`BOUNDS` of the game).
    Raises:
        services.rules.core.BadConfig: the seats or options do not fit the game.
        services.rules.core.UnknownGame: no such game.
        ValueError: ``max_moves`` is not a whole number of at least 1.
    """

    __slots__ = ("rules", "config", "players", "max_moves", "bound", "state", "moves", "log", "cuts",
                 "prefix", "draw", "draw_prefix", "_flight", "_cont", "_memo", "_memo_shared",
                 "_seat", "_over", "_legal", "_views")

    def __init__(self, game: str, players: int, variants: dict[str, Any] | None = None,
                 max_moves: int = DEFAULT_MAX_MOVES, bound: int | None = None, *, _empty: bool = False):
        self.rules = get_rules(game)
        self.players = players
        self.max_moves = check_max_moves(max_moves)
        self.bound = bound or BOUNDS.get(game, DEFAULT_BOUND)
        self._views: dict[int | None, dict[str, Any]] | None = None
        if _empty:
            return
        self.config = GameConfig(game=game, players=players, options=options(self.rules, players, variants))
        self.state = self.rules.new_state()
        created = self.rules.created_event(self.config)
        self.rules.evolve(self.state, created)
        self.moves = 0
        self.log: Entry | None = Entry(None, events=facts((created,)))
        self.cuts: tuple[tuple[int, int], ...] = ()
        self.prefix: tuple[int, ...] = ()
        self.draw: int | None = None
        self.draw_prefix: tuple[int, ...] = ()
        self._flight: Any = None
        self._cont: tuple[Sequence[Op], int] | None = None
        self._memo: dict[str, tuple[tuple[int, int], ...]] = {}
        self._memo_shared = False
        self._legal: list[dict[str, Any]] | None = None
        self._seat, self._over = CHANCE, False
        self._resolve(self.rules.setup_ops(self.config), 0)

    # -- running the rules: deck operations' handle in a greenlet --------------------------------
    def _deck(self, op: Op, direct: bool = False) -> list[Event]:
        """A deck operation's ``handle`` (in a worker, or ``direct``), each ``chance(label)``
        drawing from the label's records, then from chance nodes (:class:`_Stream`)."""
        return self.rules.handle(self.state, op, lambda label: Chance("", label, _Stream(self, label, direct)))

    def _resolve(self, ops: Sequence[Op], i: int, events: list[Event] | None = None, seat: int = -1,
                 move: str | None = None) -> None:
        """Resolve ``ops`` from the ``i``-th (whose ``events``, if given, are already handled),
        then follow-ups and any phase due, in the caller's stack, until a draw is pending or
        nothing is left; then settle the node. The log gains one step: ``seat``'s ``move`` (its
        canonical JSON, if this resolves a move) and the facts of every operation resolved here,
        each operation's serialised as soon as it is handled."""
        rules, state = self.rules, self.state
        handle, evolve = rules.handle, rules.evolve
        drew = _DREW.get(rules.name)
        if drew is None:
            drew = _DREW[rules.name] = {}
        parts: list[bytes] = []
        while True:
            n = len(ops)
            while i < n:
                if events is None:
                    op = ops[i]
                    if op.domain != "deck":
                        events = handle(state, op, None)
                    else:
                        name = op.name
                        if not drew.get(name):
                            try:  # directly, as long as it draws nothing new (handle changes nothing)
                                events = self._deck(op, True)
                            except _NewDraw:
                                pass
                        if events is None:  # in a worker, up to its first new draw
                            events = self._start(ops, i)
                            drew[name] = events is None
                            if events is None:  # a draw is pending: a chance node
                                if parts or move is not None:
                                    self.log = Entry(self.log, seat, move, (), None, _joined(parts))
                                return
                if events:
                    for e in events:
                        evolve(state, e)
                    packed = pack(events)
                    if packed is not None:
                        parts.append(packed)
                events = None
                i += 1
            ops, i = rules.follow_up(state), 0
            if ops:
                continue
            outcome = rules.outcome(state)
            phase = rules.pending_phase(state) if outcome is None else None
            if not phase:
                break
            ops = rules.phase_ops(state, phase)
        if parts or move is not None:
            self.log = Entry(self.log, seat, move, (), None, _joined(parts))
        self._settle(outcome)

    def _settle(self, outcome: Any = _DONE) -> None:
        """Nothing left to resolve: the seat to decide, or the end (``outcome``: the rules' outcome
        of the state as it stands, if the caller has it)."""
        self._flight = self._cont = None
        self.draw = None
        if outcome is _DONE:
            outcome = self.rules.outcome(self.state)
        movers = self.rules.to_move(self.state)
        self._over = outcome is not None or self.moves >= self.max_moves or not movers
        self._seat = TERMINAL if self._over else movers[0]

    def _start(self, ops: Sequence[Op], i: int) -> list[Event] | None:
        """Run the deck operation ``ops[i]`` in a worker: its events, or ``None`` when it waits
        for a draw (the node is then a chance node)."""
        flight = _worker()
        result = flight.switch((self, ops[i]))
        if result.__class__ is tuple:  # (_DONE, events)
            _rest(flight)
            return result[1]
        self._flight, self._cont = flight, (ops, i)
        self.draw = int(result)
        self._seat = CHANCE
        return None

    def _feed(self, value: int) -> None:
        """Answer the pending draw with ``value`` and run on to the next draw or node."""
        self._views = self._legal = None
        flight = self._flight
        if flight is None:  # a copy: run the operation under way again up to its pending draw
            ops, i = self._cont
            flight = _worker()
            asked = flight.switch((self, ops[i]))
            if asked != self.draw:
                raise RuntimeError(f"a resumed copy asked for a draw among {asked}, not {self.draw}")
            self._flight = flight
        else:
            here = greenlet.getcurrent()
            if flight.parent is not here:
                flight.parent = here
        result = flight.switch(int(value))
        if result.__class__ is not tuple:  # the next draw of the same operation
            self.draw = int(result)
            return
        _rest(flight)
        ops, i = self._cont
        self._flight = self._cont = None
        self._resolve(ops, i, result[1])

    # -- the node -------------------------------------------------------------------------------
    def current(self) -> int:
        """The seat to decide, :data:`CHANCE` or :data:`TERMINAL`."""
        return self._seat

    def is_over(self) -> bool:
        """True once the rules ended the game or ``max_moves`` moves were made."""
        return self._seat == TERMINAL

    def truncated(self) -> bool:
        """True if the episode ended at ``max_moves`` before the rules ended the game."""
        return self._seat == TERMINAL and self.rules.outcome(self.state) is None

    def legal_moves(self) -> list[dict[str, Any]]:
        """The legal moves of the seat to decide (empty at chance and at the end), the rules' own."""
        legal = self._legal
        if legal is None:
            seat = self._seat
            if seat < 0:
                return []
            legal = self._legal = self.rules.legal_moves(self.state, seat)
            if not legal:
                raise RuntimeError(f"{self.rules.name}: seat {seat} has no legal move")
        return legal

    def actions(self) -> list[int]:
        """The actions of this decision: indices into the legal moves, or (more than ``bound``
        legal moves) the digits of this step; empty at chance and at the end."""
        legal = self._legal
        n = len(legal if legal is not None else self.legal_moves())
        if n <= self.bound:
            return _INDICES[:n] if n <= len(_INDICES) else list(range(n))
        lo, hi, chunk = span(n, self.bound, self.prefix)
        return list(range(-(-(hi - lo) // chunk)))

    def step(self, action: int) -> dict[str, Any] | None:
        """Take one of :meth:`actions` for the seat to decide; returns the move made, or ``None``
        for a step towards it. Raises ValueError for an action not offered."""
        if self._seat == TERMINAL:
            raise ValueError(f"the game is over: action {action} cannot be taken")
        legal = self._legal
        if legal is None:
            legal = self.legal_moves()
        n = len(legal)
        if n <= self.bound:
            if not 0 <= action < n:
                raise ValueError(f"action {action} is not among the {n} legal moves")
            index = action
        else:
            lo, hi, _ = span(n, self.bound, self.prefix + (action,))
            if hi - lo > 1:
                self.prefix += (action,)
                return None
            index, self.prefix = lo, ()
        move = legal[index]
        self.play(move)
        return move

    def play(self, move: dict[str, Any]) -> None:
        """Make ``move`` (one of :meth:`legal_moves`, taken as checked) for the seat to decide."""
        seat = self._seat
        self.prefix = ()
        self.moves += 1
        self._views = self._legal = None
        text = _dumps(move, option=_SORTED).decode()  # before the rules see the move (plain_json's text)
        self._resolve(self.rules.plan(self.state, seat, move), 0, None, seat, text)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """``[(outcome, probability)]`` at a chance node (at most :data:`CHANCE_BOUND`), else []."""
        n = self.draw
        if n is None:
            return []
        if n <= CHANCE_BOUND:
            out = _UNIFORM.get(n)
            if out is not None:
                return list(out)
        return draw_outcomes(n, CHANCE_BOUND, self.draw_prefix)

    def chance(self, outcome: int) -> None:
        """Apply a chance outcome (one of :meth:`chance_outcomes`). Raises ValueError otherwise."""
        n = self.draw
        if n is None:
            raise ValueError("not a chance node")
        if n <= CHANCE_BOUND:
            if not 0 <= outcome < n:
                raise ValueError(f"chance outcome {outcome} is not among {n}")
            self._feed(outcome)
            return
        lo, hi, chunk = span(n, CHANCE_BOUND, self.draw_prefix + (outcome,))
        if hi - lo > 1:
            self.draw_prefix += (outcome,)
            return
        self.draw_prefix = ()
        self._feed(lo)

    # -- what a seat knows ----------------------------------------------------------------------
    def _known(self, seat: int) -> Iterator[str]:
        cuts = [d for s, d in self.cuts if s != seat]
        cut = max(cuts, default=0)
        for e in self.log.chain():
            line = e.text(seat, e.depth <= cut)
            if line:
                yield line

    def information(self, seat: int) -> str:
        """``seat``'s information state: every step it saw, one fact a line (its moves, the events
        it may see), then the steps it has taken towards its current decision."""
        text = "\n".join(self._known(seat))
        if self.prefix and seat == self._seat:
            text += f"\nchoosing among moves {self.choosing()}"
        return text

    def choosing(self) -> str:
        """The legal moves still open at a decision taken in steps, ``"lo-hi"`` (inclusive)."""
        lo, hi, _ = span(len(self.legal_moves()), self.bound, self.prefix)
        return f"{lo}-{hi - 1}"

    def view(self, seat: int | None) -> dict[str, Any]:
        """The player view of ``seat`` (``rules.view``; ``None`` = a spectator), kept until the
        state changes: treat it as read-only."""
        views = self._views
        if views is None:
            views = self._views = {}
        out = views.get(seat)
        if out is None:
            out = views[seat] = self.rules.view(self.state, seat)
        return out

    def observation(self, seat: int) -> str:
        """``seat``'s observation: the canonical JSON of its player view, and the moves still
        open if it is deciding in steps."""
        view = self.view(seat)
        try:
            text = plain_json(view)
        except TypeError:
            text = canonical_json(view)
        if self.prefix and seat == self._seat:
            text += f"\nchoosing among moves {self.choosing()}"
        return text

    def action_string(self, seat: int, action: int) -> str:
        """A readable action: the move's JSON, ``moves lo-hi`` for a step, ``chance k of n``."""
        if seat == CHANCE:
            return f"chance {action} of {self.draw}" + (f" step {len(self.draw_prefix)}" if self.draw and
                                                          self.draw > CHANCE_BOUND else "")
        legal = self.legal_moves()
        if len(legal) <= self.bound:
            return plain_json(legal[action]) if 0 <= action < len(legal) else f"action {action}"
        lo, hi, chunk = span(len(legal), self.bound, self.prefix + (action,))
        return plain_json(legal[lo]) if hi - lo == 1 and chunk == 1 else f"moves {lo}-{hi - 1}"

    # -- the end ----------------------------------------------------------------------------------
    def scores(self) -> list[float]:
        """Each seat's points: the final scores once the rules ended the game, else (truncated or
        under way) the game's evaluation (:func:`services.bots.evaluation.value`, the points a
        seat would end with plus what is under way), 0 for a game without one."""
        out = self.rules.outcome(self.state)
        if out is not None and out.get("scores") is not None:
            return [float(s) for s in out["scores"]]
        if not evaluation.has_value(self.rules.name):
            return [0.0] * self.players
        return [float(evaluation.value(self.rules.name, self.state, s)) for s in range(self.players)]

    def returns(self, utility: str) -> list[float]:
        """Each seat's utility at the end (zeros before):

        * ``win``: the winners share 1 (rulebook tie-breaks, ``rules.outcome``); nobody gets
          anything when nobody won (Nogbad's crown) or the episode was truncated. In [0, 1].
        * ``score``: ``(points - mean points of the table) / SCORE_SCALE[game]``, clipped to
          [-1, 1] (:meth:`scores`).
        * ``rank``: the share of the other seats a seat finished above, a tie counting half,
          winners above everyone else: 1 for a clear first, 0 for a clear last. In [0, 1].

        Raises ValueError for another utility.
        """
        if utility not in UTILITIES:
            raise ValueError(f"utility must be one of {', '.join(UTILITIES)}, not {utility!r}")
        n = self.players
        if not self.is_over():
            return [0.0] * n
        out = self.rules.outcome(self.state)
        winners = set(out.get("winners") or []) if out is not None else set()
        if utility == "win":
            return [1.0 / len(winners) if s in winners else 0.0 for s in range(n)]
        points = self.scores()
        if utility == "score":
            mean = sum(points) / n
            scale = SCORE_SCALE.get(self.rules.name, 10.0)
            return [max(-1.0, min(1.0, (p - mean) / scale)) for p in points]
        keys = [(s in winners, points[s]) for s in range(n)]
        return [sum(1.0 if keys[s] > keys[o] else 0.5 if keys[s] == keys[o] else 0.0
                    for o in range(n) if o != s) / (n - 1) for s in range(n)]

    def hash(self) -> str:
        """The state hash of the rules' state (``services.rules.core.state_hash``)."""
        return state_hash(self.rules.hash_view(self.state))

    # -- search -----------------------------------------------------------------------------------
    def resample(self, seat: int, seed: str) -> Episode:
        """A copy in which everything ``seat`` has not seen is sampled with ``seed`` by the
        game's own honest determinisation (``rules.determinise``): ``seat``'s information
        state, the seat to decide and (if it is ``seat``) its actions are kept; other seats
        keep only the public part of their past (the sample does not know their secrets), and
        another seat's steps towards a decision are forgotten.

        Raises:
            ValueError: at a chance node: the draw under way belongs to an operation already
                running on the true state (a shuffle half done), which a sample cannot take over;
                resample at a seat's decision (where OpenSpiel's ISMCTS does) or at the end.
        """
        if self.draw is not None:
            raise ValueError(f"cannot resample at a chance node (a draw among {self.draw} is under way on the true "
                             "state, part of an operation a sample cannot take over): resample at a seat's decision "
                             "or at the end")
        out = self.copy(self.rules.determinise(self.state, seat, seed))
        out.cuts = self.cuts + ((seat, self.log.depth),)
        out._legal = None if self._seat != seat else self._legal
        if self._seat != seat:
            out.prefix = ()
        return out

    @classmethod
    def from_view(cls, game: str, view: dict[str, Any], seed: str, max_moves: int = DEFAULT_MAX_MOVES,
                  bound: int | None = None) -> Episode:
        """An episode whose state is rebuilt from ``view`` (a seat's player view, what an agent is
        sent) by ``rules.state_from_view`` with ``seed``: its hidden parts sampled. Its log holds
        only the view (for the view's seat), so other seats' past is unknown to it;
        ``max_moves`` counts from here.

        Raises:
            NotImplementedError: the game cannot rebuild a state from a view.
        """
        rules = get_rules(game)
        ep = cls(game, len(view["players"]), max_moves=max_moves, bound=bound, _empty=True)
        ep.config = GameConfig(game=game, players=ep.players, options=dict(view.get("config", {}).get("options") or {}))
        ep.state = rules.state_from_view(view, seed)
        ep.moves = 0
        seat = int(view["seat"])
        ep.log = Entry(None, seat=seat, note=f"view {plain_json(view)}")
        ep.cuts = ((seat, 1),)
        ep.prefix, ep.draw, ep.draw_prefix = (), None, ()
        ep._memo, ep._memo_shared, ep._legal = {}, False, None
        ep._settle()
        return ep

    # -- copies -----------------------------------------------------------------------------------
    def copy(self, state: Any = None) -> Episode:
        """An independent copy (the rules' copy-on-write ``clone`` of the state, or ``state`` if given; the log
        is shared, as it never changes). A copy made while a draw is pending resumes from where
        the draw stands."""
        out = Episode.__new__(Episode)
        out.rules, out.config, out.players, out.max_moves, out.bound = (
            self.rules, self.config, self.players, self.max_moves, self.bound)
        out._views = self._views if state is None else None
        out.state = self.rules.clone(self.state) if state is None else state
        out.moves, out.log, out.cuts, out.prefix = self.moves, self.log, self.cuts, self.prefix
        out.draw, out.draw_prefix = self.draw, self.draw_prefix
        out._seat, out._legal = self._seat, self._legal
        out._over = self._over
        out._flight, out._cont = None, self._cont
        if state is None:
            out._memo, out._memo_shared = self._memo, True
            self._memo_shared = True
        else:  # a sample: its hidden future is its own
            out._memo, out._memo_shared = {}, False
        return out

    def __deepcopy__(self, memo: dict[int, Any]) -> Episode:
        return self.copy()

    def __getstate__(self) -> dict[str, Any]:
        entries = [(e.seat, e.move, [list(x) for x in e.events], e.note) for e in self.log.chain()]
        return {"game": self.rules.name, "config": self.config.model_dump(), "players": self.players,
                "max_moves": self.max_moves, "bound": self.bound, "state": self.state, "moves": self.moves,
                "log": entries, "cuts": self.cuts, "prefix": self.prefix, "draw": self.draw,
                "draw_prefix": self.draw_prefix, "seat": self._seat, "over": self._over,
                "plan": [([o.to_json() for o in c[0]], c[1]) for c in [self._cont] if c is not None],
                "draws": {label: [list(x) for x in drawn] for label, drawn in self._memo.items()}}

    def __setstate__(self, d: dict[str, Any]) -> None:
        self.rules = get_rules(d["game"])
        self.config = GameConfig(**d["config"])
        self.players, self.max_moves, self.bound = d["players"], d["max_moves"], d["bound"]
        self._views = None
        self.state, self.moves = d["state"], d["moves"]
        log = None
        for seat, move, events, note in d["log"]:
            log = Entry(log, seat=seat, move=move, events=tuple(tuple(x) for x in events), note=note)
        self.log = log
        self.cuts, self.prefix = tuple(tuple(c) for c in d["cuts"]), tuple(d["prefix"])
        self.draw, self.draw_prefix = d["draw"], tuple(d["draw_prefix"])
        self._seat, self._over, self._legal = d["seat"], d["over"], None
        self._flight, self._cont = None, None
        for ops, i in d["plan"]:
            self._cont = (tuple(Op.from_json(o) for o in ops), i)
        self._memo = {label: tuple((n, v) for n, v in drawn) for label, drawn in d["draws"].items()}
        self._memo_shared = False


__all__ = ["BOUNDS", "CHANCE", "CHANCE_BOUND", "DEFAULT_MAX_MOVES", "Entry", "Episode", "Fact", "facts", "MAX_LEVELS",
           "SCORE_SCALE", "TERMINAL", "UTILITIES", "draw_outcomes", "options", "span"]
