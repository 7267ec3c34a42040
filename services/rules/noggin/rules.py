"""The Noggin the Nog ``Rules``: planning moves into domain operations, running them, views.

``plan`` routes each move to operations of the domain that owns it (deck, market, board,
score); a move that needs chance gets a ``deck`` operation first whose event the next
operation reads from the state (``state.drawn``). ``handle`` looks each operation up in
:data:`OPERATIONS`. ``follow_up`` carries on what the rules owe after a move or phase,
each step derived from the state so that replays and retries agree: Nogbad's strike
from a turned Reserve card, settling an auction, turning a completed Reserve card,
finishing a Saga, drawing a new Saga, final scoring. The move shapes are in :mod:`.moves`.
"""

from __future__ import annotations

import json
from typing import Any, Callable

from pydantic import TypeAdapter

from services.rules.core import match as core_match
from services.rules.core import Event, GameConfig, IllegalMove, Op, Rules
from services.rules.core.errors import BadConfig

from . import abilities, board, characters, decks, inventions, market, observe, phases, sagas, scoring, turns, views
from .moves import Move
from .state import COW, State, copy_state, evolve, option

VARIANTS = ("another_train", "arrival", "money_money_money", "move_on", "friend_or_foe", "so_long", "sos",
            "you_owe_me_one")
"""The variants of the rulebook, chosen at game creation as ``options`` (``{"sos": true}``)."""

Handler = Callable[[State, dict[str, Any], Any], list[Event]]


def _market_day_board(fn: Callable[[State, dict[str, Any]], list[Event]], pick: str,
                      target: str | None = None) -> Handler:
    """A Market Day option run by the board domain, with Honey & Mead's event when it is the extra pick."""
    def run(state: State, a: dict[str, Any], chance: Any) -> list[Event]:
        seat = a["seat"]
        return [*market.honey_events(state, seat, pick, a.get(target) if target else None), *fn(state, a)]
    return run


OPERATIONS: dict[tuple[str, str], Handler] = {
    # deck: chance and hidden cards
    ("deck", "shuffle_turn_order"): lambda s, a, c: decks.shuffle_turn_order(s, c),
    ("deck", "draw_building_rows"): lambda s, a, c: decks.draw_building_rows(s, c),
    ("deck", "change_building_rows"): lambda s, a, c: decks.change_building_rows(s, c),
    ("deck", "place_first_mine_tile"): lambda s, a, c: decks.place_first_mine_tile(s, c),
    ("deck", "deal_displays"): lambda s, a, c: decks.deal_displays(s, c),
    ("deck", "refresh_cards"): lambda s, a, c: decks.refresh_cards(s, c),
    ("deck", "draw_mine_tile"): lambda s, a, c: decks.draw_mine_tile(s, c),
    ("deck", "draw_fishing_tokens"): lambda s, a, c: decks.draw_fishing_tokens(
        s, c, a["draws"], a.get("wait", False), a.get("replacing")),
    ("deck", "draw_saga"): lambda s, a, c: decks.draw_saga(s, c, a["slot"]),
    ("deck", "draw_reserve"): lambda s, a, c: decks.draw_reserve(s, c, a["saga"], a["deck"], a.get("end", "bottom")),
    ("deck", "turn_reserve"): lambda s, a, c: decks.turn_reserve(s, c, a["saga"]),
    ("deck", "knut_look"): lambda s, a, c: decks.knut_look(s, c, a["seat"], a["deck"]),
    ("deck", "knut_order"): lambda s, a, c: decks.knut_order(s, a["seat"], a["swap"]),
    ("deck", "telescope"): lambda s, a, c: decks.telescope(s, c, a["seat"], a["deck"]),
    # board: pieces, Nogs, characters, cards on the table
    ("board", "resume_turns"): lambda s, a, c: (turns.advance_turns(s, [m.pos for m in s.markers])
                                                if s.ended is None else []),
    ("board", "end_turn"): lambda s, a, c: turns.end_turn(s, a["forced"], a.get("clock", False)),
    ("board", "after_action"): lambda s, a, c: turns.after_action(s),
    ("board", "spend_steps"): lambda s, a, c: [Event("StepsSpent", {
        "marker": a["marker"], "seat": s.markers[a["marker"]].seat, "to": s.markers[a["marker"]].pos + a["steps"]})],
    ("board", "place_nogs"): lambda s, a, c: board.place_nogs(s, a["seat"], a["action"]),
    ("board", "finish"): lambda s, a, c: board.finish_action(s),
    ("board", "change_season"): lambda s, a, c: phases.change_season(s),
    ("board", "turn_wheel"): lambda s, a, c: characters.turn_wheel(s),
    ("board", "dig"): lambda s, a, c: board.dig(s, a["seat"], a["square"]),
    ("board", "walk"): lambda s, a, c: board.walk(s, a["seat"], a["square"]),
    ("board", "discover"): lambda s, a, c: board.discover(s, a["seat"], a["slot"], a["rotation"], a["flip"]),
    ("board", "fish"): lambda s, a, c: board.fish(s, a["seat"]),
    ("board", "advance"): lambda s, a, c: board.advance(s, a["seat"], a.get("skip", 0)),
    ("board", "cut_orchard"): lambda s, a, c: board.cut_orchard(s, a["seat"]),
    ("board", "sow"): lambda s, a, c: board.sow(s, a["seat"], a["field"]),
    ("board", "harvest"): lambda s, a, c: board.harvest(s, a["seat"], a["field"]),
    ("board", "pick_apples"): lambda s, a, c: board.pick_apples(s, a["seat"], a["tree"]),
    ("board", "build"): lambda s, a, c: board.build(s, a["seat"], a["building"], a["space"], a.get("pay")),
    ("board", "upgrade_transport"): lambda s, a, c: board.upgrade_transport(s, a["seat"], a["transport"],
                                                                             a.get("pay")),
    ("board", "ability"): lambda s, a, c: [Event("AbilityUsed", {"seat": a["seat"], "card": a["card"],
                                                                 "once": a["once"]})],
    ("board", "character"): _market_day_board(lambda s, a: characters.use_character(s, a["seat"], a["move"]),
                                              "character"),
    ("board", "evict"): _market_day_board(lambda s, a: characters.evict(s, a["seat"], a["by"], a.get("pay")),
                                          "evict"),
    ("board", "saga"): _market_day_board(lambda s, a: sagas.contribute(
        s, a["seat"], a["saga"], a["condition"], a.get("nog", True), bool(a.get("bonus")), a.get("pay")),
        "saga", "saga"),
    ("board", "invention"): _market_day_board(lambda s, a: inventions.contribute(
        s, a["seat"], a["invention"], a["condition"], a.get("pay")), "invention", "invention"),
    ("board", "nogbad_strikes"): lambda s, a, c: sagas.nogbad_strikes(s),
    ("board", "saga_end_next"): lambda s, a, c: sagas.next_stage(s),
    ("board", "seer"): lambda s, a, c: sagas.seer(s, a["seat"], a["adjust"]),
    ("board", "fireworks"): lambda s, a, c: sagas.fireworks(s, a["seat"], a["play"]),
    ("board", "recall"): lambda s, a, c: sagas.recall(s, a["seat"], a["saga"], a["card"]),
    ("board", "use"): lambda s, a, c: abilities.use(s, a["seat"], a["move"]),
    # market: the economy
    ("market", "trade"): lambda s, a, c: market.trade(s, a["seat"], a["give"], a["take"]),
    ("market", "restock"): lambda s, a, c: market.restock(s, a["seat"], a["kind"], a["amount"], a["orchard"]),
    ("market", "donate"): lambda s, a, c: market.donate(s, a["seat"], a["wood"], a["food"]),
    ("market", "start_auction"): lambda s, a, c: market.start_auction(s, a["seat"]),
    ("market", "bid"): lambda s, a, c: market.bid(s, a["seat"], a["steps"]),
    ("market", "settle_auction"): lambda s, a, c: market.settle_auction(s),
    ("market", "keep"): lambda s, a, c: market.keep(s, a["seat"], a["face"]),
    # score: points, the popularity track, the end
    ("score", "advance_crow"): lambda s, a, c: scoring.advance_crow(s),
    ("score", "restock_points"): lambda s, a, c: scoring.restock_points(s, a["seat"], a["amount"]),
    ("score", "donation_points"): lambda s, a, c: scoring.donation_points(
        s, a["seat"], {**({"wood": a["wood"]} if a["wood"] else {}), **({a["food"]: 1} if a["food"] else {})}),
    ("score", "season_points"): lambda s, a, c: scoring.season_points(s),
    ("score", "finish_saga"): lambda s, a, c: sagas.finish_saga(s),
    ("score", "accuse"): lambda s, a, c: abilities.accuse(s, a["seat"], a["accused"]),
    ("score", "final_scoring"): lambda s, a, c: scoring.final_scoring(s),
}
"""Every operation by ``(domain, name)``: ``handler(state, args, chance) -> events``."""

_BY_DOMAIN: dict[str, dict[str, Handler]] = {}
""":data:`OPERATIONS` by domain, then name (no key tuple made for each operation run)."""
for (_domain, _name), _handler in OPERATIONS.items():
    _BY_DOMAIN.setdefault(_domain, {})[_name] = _handler
del _domain, _name, _handler
_NONE: dict[str, Handler] = {}
"""The operations of an unknown domain: none."""

DECISION_OPS = {
    "bid": lambda seat, m: [Op("market", "bid", {"seat": seat, "steps": m["steps"]})],
    "keep_card": lambda seat, m: [Op("market", "keep", {"seat": seat, "face": m["face"]})],
    "knut": lambda seat, m: [Op("deck", "knut_order", {"seat": seat, "swap": m["swap"]})],
    "seers_tower": lambda seat, m: [Op("board", "seer", {"seat": seat, "adjust": m["adjust"]})],
    "fireworks": lambda seat, m: [Op("board", "fireworks", {"seat": seat, "play": m["play"]})],
    "draw_reserve": lambda seat, m: [Op("deck", "draw_reserve", {"saga": m["saga"], "deck": m["deck"],
                                                                 "end": "bottom"})],
}
"""Operations answering a pending decision (the Coral Necklace's is planned with its action)."""

FINISH = [Op("board", "finish"), Op("board", "after_action")]


class NogginRules(Rules):
    """The whole game of Noggin the Nog for 2-4 players, with its variants (rulebook 1.0-9.0,
    appendix, variants). Stateless: the state is a :class:`State`, moves are the models
    of :mod:`.moves`, and each method delegates to the domain modules.
    """

    name = "noggin"
    title = "Tales of the Northlands: The Sagas of Noggin the Nog"
    min_players = 2
    max_players = 4
    option_names = frozenset(VARIANTS)
    option_help = {
        "another_train": "the first Mine tile is drawn at random, placed with its Gold as far from the start as it goes",
        "arrival": "no Harvest cubes in the fields at the start, 2 trees in each Orchard",
        "money_money_money": "the Money Saga is shuffled among the top 4 Saga cards",
        "move_on": "Noggin's Dragon starts one space nearer the crown",
        "friend_or_foe": "One of us? Friend or Foe? (4 players only): a secret loyalty card each, one accusation",
        "so_long": "an Orchard's trees, once cut, are never replanted",
        "sos": "a character's ability on Market Day costs no Food",
        "you_owe_me_one": "one tile fewer than the players in each transport and building pile",
    }
    """The variants of the rulebook's last page, one line each."""

    _adapter: TypeAdapter | None = None

    # -- set-up and state -----------------------------------------------------------
    def validate_config(self, config: GameConfig) -> None:
        """Players 2-4, known variants with true/false values; Friend or Foe needs 4 players
        (rulebook variants). Raises :class:`BadConfig`."""
        super().validate_config(config)
        for k, v in config.options.items():
            if not isinstance(v, bool):
                raise BadConfig(f"variant {k!r} is switched on with true or off with false, not {json.dumps(v)}")
        if config.options.get("friend_or_foe") and config.players != 4:
            raise BadConfig("One of us? Friend or Foe? is played by 4 players only (rulebook variants)")

    def new_state(self) -> State:
        """An empty :class:`State`; the ``GameCreated`` event sets it up (rulebook 1.0)."""
        return State()

    def setup_ops(self, config: GameConfig) -> list[Op]:
        """Set-up E, F, N-P (and the first Mine tile under Another Train), then the first turn (4.1)."""
        ops = [Op("deck", "shuffle_turn_order"), Op("deck", "draw_building_rows")]
        if config.options.get("another_train"):
            ops.append(Op("deck", "place_first_mine_tile"))
        return ops + [Op("deck", "deal_displays"), Op("board", "resume_turns")]

    def evolve(self, state: State, event: Event) -> None:
        """Apply one event to ``state`` in place. Raises ValueError on an unknown event type."""
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
        if NogginRules._adapter is None:
            NogginRules._adapter = TypeAdapter(Move)
        return NogginRules._adapter

    # -- turns ----------------------------------------------------------------------
    def to_move(self, state: State) -> list[int]:
        """``[seat]`` whose decision it is (the active player, a bidder, a Saga decision), or
        ``[]`` while a phase is pending or after the end."""
        return [] if core_match.over(state) else turns.to_move(state)

    def candidates(self, state: State, seat: int) -> list[dict[str, Any]]:
        """Move dicts worth checking for ``seat`` (unchecked); ``[]`` if it is not its decision."""
        return turns.candidates(state, seat)

    def legal_moves(self, state: State, seat: int) -> list[dict[str, Any]]:
        """The legal moves of ``seat``, in a stable order (:func:`.turns.legal_moves`: the
        same moves as checking every candidate, generated without repeating shared work)."""
        return turns.legal_moves(state, seat)

    def check(self, state: State, seat: int, move: dict[str, Any]) -> None:
        """Return None if ``move`` is legal now; else raise :class:`IllegalMove` (reason cites
        the rulebook) or :class:`NotYourTurn`. Never changes the state."""
        turns.check(state, seat, move)

    def pending_phase(self, state: State) -> str | None:
        """``"change_of_season"`` once the Runestone reaches the Nog Moon (rulebook 4.3), else None."""
        if core_match.over(state):
            return None
        return turns.pending_phase(state)

    def phase_ops(self, state: State, phase: str) -> list[Op]:
        """Operations of the Change of Season (rulebook 7.1, 7.2, 8.0). Raises ValueError for another phase."""
        return phases.phase_ops(state, phase)

    # -- resolution -----------------------------------------------------------------
    def plan(self, state: State, seat: int, move: dict[str, Any]) -> list[Op]:
        """Operations, in order, that resolve a checked ``move``: Nogs placed when an action
        starts (rulebook 5.0), Steps spent, a ``deck`` draw before any chance, the domain
        operation, and ``finish`` for actions that end by themselves. Raises
        :class:`IllegalMove` for an unknown move type."""
        t = move["type"]
        i = state.active
        if t in DECISION_OPS:
            return DECISION_OPS[t](seat, move)
        if t == "fishing_tokens":
            k = move.get("put_back")
            if k is None:
                return [Op("board", "fish", {"seat": seat}), *FINISH]
            return [Op("board", "ability", {"seat": seat, "card": "coral_necklace", "once": "season"}),
                    Op("deck", "draw_fishing_tokens", {"draws": 1, "replacing": k}),
                    Op("board", "fish", {"seat": seat}), *FINISH]
        if t == "end_turn":
            return [Op("board", "end_turn", {"forced": turns.must_act(state, i) or state.recalled,
                                             "clock": bool(move.get("cupola_clock"))})]
        if t == "finish":
            return list(FINISH)
        if t == "donate":
            args = {"seat": seat, "wood": move.get("wood", 0), "food": move.get("food")}
            return [Op("market", "donate", args), Op("score", "donation_points", args)]
        if t == "use":
            if move["card"] == "telescope":
                return [Op("deck", "telescope", {"seat": seat, "deck": move["deck"]})]
            ops = [Op("board", "use", {"seat": seat, "move": move})]
            return ops + [Op("board", "after_action")] if move["card"] == "hnefetfl" else ops
        if t == "recall":
            return [Op("board", "recall", {"seat": seat, "saga": move["saga"], "card": move["card"]})]
        if t == "accuse":
            return [Op("score", "accuse", {"seat": seat, "accused": move["seat"]})]
        ops: list[Op] = []
        if state.action is None:
            ops.append(Op("board", "place_nogs", {"seat": seat, "action": t}))
        cost = turns.step_cost(state, move)
        if cost:
            ops.append(Op("board", "spend_steps", {"marker": i, "steps": cost}))
        args = {k: v for k, v in move.items() if k != "type"}
        args["seat"] = seat
        if t == "miner":
            if move["op"] == "discover":
                ops.append(Op("deck", "draw_mine_tile"))
            ops.append(Op("board", move["op"], args))
        elif t == "fisherman":
            wait = board.necklace_ready(state, seat)
            ops.append(Op("deck", "draw_fishing_tokens", {"draws": move["draws"], "wait": wait}))
            if not wait:
                ops += [Op("board", "fish", args), *FINISH]
        elif t == "woodcutter":
            if move["op"] == "orchard":
                ops.append(Op("board", "cut_orchard", args))
            else:
                ops.append(Op("board", "advance", {"seat": seat, "skip": 1 if move["op"] == "jump" else 0}))
        elif t == "farmer":
            ops.append(Op("board", {"sow": "sow", "harvest": "harvest", "apple": "pick_apples"}[move["op"]], args))
        elif t == "builder":
            ops.append(Op("board", "upgrade_transport" if move.get("transport") else "build", args))
            second_possible = (state.action is None and board.can_use(state.players[seat], "good_genie"))
            if not second_possible:
                ops += FINISH
        elif t == "restock":
            args.setdefault("orchard", 0)
            ops += [Op("market", "restock", args), Op("score", "restock_points", args), *FINISH]
        elif t == "market_day":
            ops += self._plan_market_day(seat, move)
        else:  # pragma: no cover - check() rejects unknown types first
            raise IllegalMove(f"unknown move type {t!r}")
        return ops

    @staticmethod
    def _plan_market_day(seat: int, move: dict[str, Any]) -> list[Op]:
        op = move.get("op", "trade")
        args = {k: v for k, v in move.items() if k not in ("type", "op")}
        args["seat"] = seat
        if op == "trade":
            return [Op("market", "trade", args)]
        if op == "auction":
            return [Op("market", "start_auction", {"seat": seat})]
        if op == "character":
            ops = [Op("board", "character", {"seat": seat, "move": move})]
            if move["character"] == "knut":
                ops.append(Op("deck", "knut_look", {"seat": seat, "deck": move["deck"]}))
            elif move["character"] == "nooka":
                ops.append(Op("deck", "draw_reserve", {"saga": move["saga"], "deck": move["deck"], "end": "bottom"}))
            return ops
        return [Op("board", op, args)]

    def handle(self, state: State, op: Op, chance) -> list[Event]:
        """Run one operation on ``state`` (not changed) and return its events. Raises
        ValueError for an unknown operation or a ``deck`` operation without ``chance``."""
        domain = op.domain
        fn = _BY_DOMAIN.get(domain, _NONE).get(op.name)
        if fn is None:
            raise ValueError(f"unknown Noggin operation {domain}.{op.name}")
        if chance is None and domain == "deck":
            raise ValueError("deck operations need chance")
        return fn(state, op.args, chance)

    def follow_up(self, state: State) -> list[Op]:
        """What the rules still owe after a move or phase, one step at a time, or ``[]``:
        final scoring once the game has ended (9.0); Nogbad's strike from a turned card (6.4 D);
        settling a finished auction (6.3); turning a completed Reserve card (6.4 C); the
        stages of finishing a Saga and drawing its replacement (6.4)."""
        if state.ended is not None:
            return [Op("score", "final_scoring")] if state.final is None else []
        if state.infamy > 0:
            return [Op("board", "nogbad_strikes")]
        au = state.auction
        if au is not None and au["next"] >= len(au["order"]):
            return [Op("market", "settle_auction")]
        slot = sagas.to_turn(state)
        if slot is not None:
            return [Op("deck", "turn_reserve", {"saga": slot})]
        if state.saga_end is not None:
            if state.saga_end["stage"] == "score":
                return [Op("score", "finish_saga")]
            if sagas.waiting_seat(state) is None:
                return [Op("board", "saga_end_next")]
            return []
        if state.saga_vacant:
            return [Op("deck", "draw_saga", {"slot": state.saga_vacant[0]})]
        return []

    # -- views ----------------------------------------------------------------------
    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        """The player view of ``seat`` (``None``: a spectator): everything on the table, what a
        person needs to decide, and the seat's own secret; never the ``secret`` part of the
        state (see :func:`.views.player_view`)."""
        return views.player_view(self, state, seat)

    def outcome(self, state: State) -> dict[str, Any] | None:
        """None until final scoring; then the outcome of :func:`.scoring.outcome` (rulebook 9.0)."""
        return core_match.outcome(state, len(state.players)) or scoring.outcome(state)

    def hash_view(self, state: State) -> Any:
        """The whole state, secrets included (the hash is shown only once the game is over)."""
        return state

    def determinise(self, state: State, seat: int | None, seed: str) -> State:
        """A copy with what ``seat`` cannot see sampled (see :mod:`.observe`)."""
        return observe.determinise(state, seat, seed)

    def state_from_view(self, view: dict[str, Any], seed: str) -> State:
        """A state rebuilt from ``view`` with its hidden parts sampled (see :mod:`.observe`)."""
        return observe.state_from_view(view, seed)


__all__ = ["NogginRules", "OPERATIONS", "VARIANTS", "option"]
