"""The A Game of Gnomes ``Rules``: planning moves into domain operations, running them, views.

Domains: ``deck`` draws (layout, gems of variant J, shop items, travel cards, dream piles,
quests), ``board`` moves gnomes and timers, picks mushrooms, ends turns and runs sleep,
the hand limit and the change of round, ``market`` sells, buys and pays quest rewards,
``score`` scores the end (rulebook H). ``follow_up`` carries on what the rules owe:
refilling the dream piles after a sleeper (D), ending a sleep nobody can take part in,
closing the hand limit (E), final scoring. The change of round is the phase
``round_end``, run on the phase worker (D-G).
"""

from __future__ import annotations

from typing import Any, Callable

from pydantic import TypeAdapter

from services.rules.core import match as core_match
from services.rules.core import Event, GameConfig, Op, Rules, public
from services.rules.core.errors import BadConfig

from . import actions, decks, rounds, scoring, turns, views
from .content import content
from .moves import Move
from .state import COW, State, copy_state, evolve

OPTIONS = ("random_layout", "gem_variant")
"""Game options: ``random_layout`` (later games, B: tiles shuffled onto the sites) and
``gem_variant`` (the game variant, J: mixed gems on villages and the tower)."""

Handler = Callable[[State, dict[str, Any], Any], list[Event]]


def _action(t: str) -> Handler:
    return lambda s, a, c: actions.DOES[t](s, a["seat"], a["move"])


OPERATIONS: dict[tuple[str, str], Handler] = {
    ("deck", "choose_gnomes"): lambda s, a, c: decks.choose_gnomes(s, c),
    ("deck", "place_layout"): lambda s, a, c: decks.place_layout(s, c),
    ("deck", "mix_gems"): lambda s, a, c: decks.mix_gems(s, c),
    ("deck", "deal_shops"): lambda s, a, c: decks.deal_shops(s, c),
    ("deck", "refill_dream"): lambda s, a, c: decks.refill_dream(s, c),
    ("deck", "draw_quests"): lambda s, a, c: decks.draw_quests(s, c),
    ("deck", "refill_shops"): lambda s, a, c: decks.refill_shops(s, c),
    ("deck", "restock"): lambda s, a, c: decks.restock(s, c, a["seat"]),
    ("deck", "scout"): lambda s, a, c: decks.scout(s, c, a["seat"]),
    **{("board", t): _action(t) for t in ("travel", "three_for_free", "equipment", "ice", "winter_path", "climb",
                                          "pond_pipes", "pick")},
    **{("market", t): _action(t) for t in ("sell", "buy", "quest")},
    ("board", "end_turn"): lambda s, a, c: rounds.end_turn(s, a["seat"]),
    ("board", "sleep"): lambda s, a, c: rounds.do_sleep(s, a["seat"], a["move"]),
    ("board", "sleep_ended"): lambda s, a, c: [public("SleepEnded")],
    ("board", "discard"): lambda s, a, c: rounds.do_discard(s, a["seat"], a["move"]),
    ("board", "hands_checked"): lambda s, a, c: [public("HandsChecked")],
    ("board", "end_round"): lambda s, a, c: rounds.end_round(s),
    ("board", "new_round"): lambda s, a, c: rounds.new_round(s),
    ("score", "final_scoring"): lambda s, a, c: scoring.final_scoring(s),
}
"""Every operation by ``(domain, name)``: ``handler(state, args, chance) -> events``."""

DOMAIN_OF = {"travel": "board", "three_for_free": "board", "equipment": "board", "ice": "board",
             "winter_path": "board", "climb": "board", "pond_pipes": "board", "pick": "board",
             "sell": "market", "buy": "market", "quest": "market", "sleep": "board", "discard": "board"}


class GnomesRules(Rules):
    """The whole of A Game of Gnomes for 2-4 players, with random layouts and variant J
    (rulebook A-J). Stateless: the state is a :class:`.state.State`, moves are the models
    of :mod:`.moves`."""

    name = "gnomes"
    title = "A Game of Gnomes"
    min_players = 2
    max_players = 4
    option_names = frozenset(OPTIONS)
    option_help = {
        "random_layout": "a later game: the location tiles shuffled onto the sites (rulebook B)",
        "gem_variant": "the game variant: mixed gems on the villages and the Sorcerer's tower (rulebook J)",
    }
    """The two options, one line each."""

    _adapter: TypeAdapter | None = None

    def validate_config(self, config: GameConfig) -> None:
        """Players 2-4 and known options with true/false values. Raises :class:`BadConfig`."""
        super().validate_config(config)
        for k, v in config.options.items():
            if not isinstance(v, bool):
                raise BadConfig(f"option {k!r} is switched on with true or off with false, not {v!r}")

    def new_state(self) -> State:
        """An empty :class:`State`; ``GameCreated`` sets it up (rulebook B)."""
        return State()

    def setup_ops(self, config: GameConfig) -> list[Op]:
        """Set-up B: the gnomes, the layout, variant J's gems, the shops, the dream piles, the
        quests, round 1."""
        ops = [Op("deck", "choose_gnomes"), Op("deck", "place_layout")]
        if config.options.get("gem_variant"):
            ops.append(Op("deck", "mix_gems"))
        return ops + [Op("deck", "deal_shops"), Op("deck", "refill_dream"), Op("deck", "draw_quests"),
                      Op("board", "new_round")]

    def evolve(self, state: State, event: Event) -> None:
        """Apply one event. Raises ValueError on an unknown event type."""
        evolve(state, event)

    def copy(self, state: State) -> State:
        """A deep copy of ``state``."""
        return copy_state(state)

    def clone(self, state: State) -> State:
        """A copy-on-write clone of ``state`` (:data:`.state.COW`): changed only through
        :meth:`evolve`, like ``state`` while the clone lives."""
        return COW.clone(state)

    def move_model(self) -> TypeAdapter:
        """A ``TypeAdapter`` of the discriminated union of every move shape (extra fields forbidden)."""
        if GnomesRules._adapter is None:
            GnomesRules._adapter = TypeAdapter(Move)
        return GnomesRules._adapter

    def to_move(self, state: State) -> list[int]:
        """``[seat]`` whose turn, sleep or discard it is, or ``[]``."""
        return [] if core_match.over(state) else turns.to_move(state)

    def candidates(self, state: State, seat: int):
        """Moves worth checking for ``seat`` (unchecked)."""
        return turns.candidates(state, seat)

    def legal_moves(self, state: State, seat: int) -> list[dict[str, Any]]:
        """The legal moves of ``seat`` in a stable order (empty if not its decision)."""
        return turns.legal_moves(state, seat)

    def check(self, state: State, seat: int, move: dict[str, Any]) -> None:
        """Raise IllegalMove (reason cites the rulebook) or NotYourTurn unless ``move`` is legal."""
        turns.check(state, seat, move)

    def pending_phase(self, state: State) -> str | None:
        """``"round_end"`` once every seat has had its turn, slept and met its hand limit (D-G)."""
        if core_match.over(state):
            return None
        return rounds.ROUND_END if state.stage == "round_end" else None

    def phase_ops(self, state: State, phase: str) -> list[Op]:
        """The change of round (D-G): calendar and seasons, winter's refill of shops and quests
        (G), then the next round or the end (H). Raises ValueError for another phase."""
        if phase != rounds.ROUND_END:
            raise ValueError(f"gnomes has no phase {phase!r}")
        cal = content().calendar
        to = rounds.calendar_target(state)
        ops = [Op("board", "end_round")]
        if state.calendar < cal.freeze_at <= to:
            ops += [Op("deck", "refill_shops"), Op("deck", "draw_quests")]
        return ops + [Op("board", "new_round")]

    def plan(self, state: State, seat: int, move: dict[str, Any]) -> list[Op]:
        """Operations that resolve a checked ``move``, in order."""
        t = move["type"]
        args = {"seat": seat, "move": move}
        if t == "end_turn":
            return [Op("board", "end_turn", {"seat": seat}), Op("deck", "refill_shops")]
        if t == "scout":
            return [Op("deck", "scout", {"seat": seat})]
        if t == "restock":
            return [Op("deck", "restock", {"seat": seat})]
        ops = [Op(DOMAIN_OF[t], t, args)]
        if t == "quest":
            ops.append(Op("deck", "draw_quests"))
        return ops

    def handle(self, state: State, op: Op, chance) -> list[Event]:
        """Run one operation on ``state`` (not changed) and return its events. Raises ValueError
        for an unknown operation or a ``deck`` operation without ``chance``."""
        fn = OPERATIONS.get((op.domain, op.name))
        if fn is None:
            raise ValueError(f"unknown Gnomes operation {op.domain}.{op.name}")
        if op.domain == "deck" and chance is None:
            raise ValueError("deck operations need chance")
        return fn(state, op.args, chance)

    def follow_up(self, state: State) -> list[Op]:
        """What the rules owe: final scoring (H), a dream refill after a sleeper (D), the end of a
        sleep with no sleeper left, a sleeper with nothing to take, the end of the hand limit (E)."""
        if state.ended is not None:
            return [Op("score", "final_scoring")] if state.final is None else []
        if state.dream_refill:
            return [Op("deck", "refill_dream")]
        if state.stage == "sleep":
            if state.sleep_next >= len(state.sleepers):
                return [Op("board", "sleep_ended")]
            seat = state.sleepers[state.sleep_next]
            if rounds.sleep_choices(state, seat) == [[]]:
                return [Op("board", "sleep", {"seat": seat, "move": {"type": "sleep", "piles": []}})]
        if state.stage == "hand" and not rounds.over_limit(state):
            return [Op("board", "hands_checked")]
        return []

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        """The player view of ``seat`` (see :func:`.views.player_view`)."""
        return views.player_view(self, state, seat)

    def outcome(self, state: State) -> dict[str, Any] | None:
        """None until final scoring; then ``{"reason", "scores", "winners", "breakdown"}`` (H)."""
        return core_match.outcome(state, len(state.players)) or scoring.outcome(state)

    def determinise(self, state: State, seat: int | None, seed: str) -> State:
        """A copy with what ``seat`` cannot see sampled (see :mod:`.views`)."""
        return views.determinise(state, seat, seed)

    def state_from_view(self, view: dict[str, Any], seed: str) -> State:
        """A state rebuilt from ``view`` with its hidden parts sampled."""
        return views.state_from_view(view, seed)


__all__ = ["GnomesRules", "OPERATIONS", "OPTIONS"]
