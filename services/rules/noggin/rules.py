"""The Noggin the Nog ``Rules``: move shapes, planning moves into domain operations, views.

``plan`` routes each move to operations of the domain that owns it (deck, market, board,
score); a move that needs chance gets a ``deck`` operation first whose event the next
operation reads from the state (``state.drawn``). ``handle`` dispatches each operation
to the domain module. ``follow_up`` asks for final scoring once when the game ends.

Extension points for the next issue (not implemented, no stubs): Market Day options
beyond trading (6.1-6.5) become further ``market_day`` move models and ``market`` ops;
Sagas, Reserve cards and characters a ``sagas`` domain module whose Dragon moves can end
the game through ``scoring``; Nogbad's Wheel of Infamy a step before ``change_season``
in ``phases.phase_ops``; Year 2 buildings a second source in ``board.available_buildings``.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, Union

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, model_validator

from services.rules.core import Event, GameConfig, IllegalMove, Op, Rules, to_plain

from . import board, decks, market, phases, scoring, turns, views
from .state import State, copy_state, evolve

Square = Annotated[list[int], Field(min_length=2, max_length=2)]


class _Move(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)  # "3", 3.0 and true are not 3


class MinerDig(_Move):
    """``{"type": "miner", "op": "dig", "square": [row, col]}``: dig the Stone or Gold on a
    Mine square orthogonally next to the Miner into the mine cart; the Miner moves onto
    it. 1 Step (rulebook 5.1).
    """

    type: Literal["miner"]
    op: Literal["dig"]
    square: Square


class MinerWalk(_Move):
    """``{"type": "miner", "op": "walk", "square": [row, col]}``: move the Miner to an empty
    gallery square joined to his by empty squares. 1 Step (rulebook 5.1).
    """

    type: Literal["miner"]
    op: Literal["walk"]
    square: Square


class MinerDiscover(_Move):
    """``{"type": "miner", "op": "discover", "slot": [row, col], "rotation": 0|90|180|270,
    "flip": "h"|"v"}``: draw a Mine tile and place it in the empty grid slot next to the
    Miner, turned ``rotation`` degrees clockwise then flipped; needs 9 or more Stone at
    the Nog Market. 1 Step (rulebook 5.1).
    """

    type: Literal["miner"]
    op: Literal["discover"]
    slot: Square
    rotation: Literal[0, 90, 180, 270]
    flip: Literal["h", "v"]


MinerMove = Annotated[Union[MinerDig, MinerWalk, MinerDiscover], Field(discriminator="op")]


class FishermanMove(_Move):
    """``{"type": "fisherman", "draws": 1-4}``: draw that many Fishing tokens and take the
    fish shown from the fjord. ``draws`` Steps; ends the action (rulebook 5.2).
    """

    type: Literal["fisherman"]
    draws: int = Field(ge=1, le=4)


class WoodcutterMove(_Move):
    """``{"type": "woodcutter", "op": "advance"|"orchard"}``: walk to the next forest clearing
    and cut its trees into the wood cart, or cut one Orchard tree. 1 Step each (rulebook 5.3).
    """

    type: Literal["woodcutter"]
    op: Literal["advance", "orchard"]


class FarmerMove(_Move):
    """``{"type": "farmer", "op": "sow"|"harvest", "field": 0|1}`` or ``{"type": "farmer",
    "op": "apple", "tree": 0|1}``: sow a field in Spring, reap it in Summer or Autumn, or
    pick one tree's apples in Autumn. 1 Step each (rulebook 5.4). The wrong target for
    the ``op`` raises ``ValidationError``.
    """

    type: Literal["farmer"]
    op: Literal["sow", "harvest", "apple"]
    field: int | None = Field(default=None, ge=0, le=1)
    tree: int | None = Field(default=None, ge=0, le=1)

    @model_validator(mode="after")
    def _target(self) -> "FarmerMove":
        if self.op == "apple" and (self.tree is None or self.field is not None):
            raise ValueError('picking apples names a "tree" (0 or 1) and no field')
        if self.op != "apple" and (self.field is None or self.tree is not None):
            raise ValueError(f'{self.op} names a "field" (0 or 1) and no tree')
        return self


class BuilderMove(_Move):
    """``{"type": "builder", "building": id, "space": space}`` or ``{"type": "builder",
    "transport": id}``: build a Year 1 building on a board space (``"beside"`` for New
    Land), or upgrade a transport to capacity 4. 2 Steps; ends the action (rulebook 5.5).
    Neither form, or both, raises ``ValidationError``.
    """

    type: Literal["builder"]
    building: Literal["fish_smokery", "granary", "long_house", "lookout_tower", "new_land",
                      "woodcutters_hut"] | None = None
    space: Literal["mountains", "field0", "field1", "orchard", "meadow", "new_land", "beside"] | None = None
    transport: Literal["mine_cart", "wood_cart", "boat"] | None = None

    @model_validator(mode="after")
    def _one_form(self) -> "BuilderMove":
        if self.transport is None and (self.building is None or self.space is None):
            raise ValueError('a Builder move names a "building" and a "space", or a "transport"')
        if self.transport is not None and (self.building is not None or self.space is not None):
            raise ValueError("build a building or upgrade a transport, not both (rulebook 5.5)")
        return self


class RestockMove(_Move):
    """``{"type": "restock", "kind": "trees"|"fish", "amount": 4|8|12, "orchard": 0-2}``:
    move exactly ``amount`` cubes from the Nog Market to the fjord, or to the forest with
    ``orchard`` of them in the player's Orchard, and score for the amount. 2 Steps; ends
    the action (rulebook 5.6).
    """

    type: Literal["restock"]
    kind: Literal["trees", "fish"]
    amount: Literal[4, 8, 12]
    orchard: int = Field(default=0, ge=0, le=2)


class MarketDayMove(_Move):
    """``{"type": "market_day", "give": [r1, r2], "take": r}``: one 2-for-1 trade at the Nog
    Market, Gold included. 1 Step for the action, further trades in it are free
    (rulebook 6.0, 6.6).
    """

    type: Literal["market_day"]
    give: Annotated[list[Literal["stone", "wood", "fish", "harvest", "gold"]], Field(min_length=2, max_length=2)]
    take: Literal["stone", "wood", "fish", "harvest", "gold"]


class DonateMove(_Move):
    """``{"type": "donate", "wood": 0|1, "food": "fish"|"harvest"}``: in Winter, between
    actions, give 1 Wood and/or 1 Food to the Nog Market for points. No Step, no Nog
    (rulebook 7.2).
    """

    type: Literal["donate"]
    wood: int = Field(default=0, ge=0, le=1)
    food: Literal["fish", "harvest"] | None = None


class FinishMove(_Move):
    """``{"type": "finish"}``: finish the current action after at least one sub-move; the
    carts unload into storage. No Step (rulebook 5.1, 5.3).
    """

    type: Literal["finish"]


class EndTurnMove(_Move):
    """``{"type": "end_turn"}``: end the turn between actions; the marker then obeys the
    no-sharing rule, or jumps ahead if it had to act but could not. No Step of its own
    (rulebook 4.2, 4.3, 5.0 A).
    """

    type: Literal["end_turn"]


Move = Annotated[Union[MinerMove, FishermanMove, WoodcutterMove, FarmerMove, BuilderMove, RestockMove,
                       MarketDayMove, DonateMove, FinishMove, EndTurnMove], Field(discriminator="type")]


class NogginRules(Rules):
    """The core game of Noggin the Nog for 2-4 players (rulebook 1.0-9.0, without the parts
    the package docstring leaves out). Stateless: the state is a :class:`State`, moves are
    the models above, and each method delegates to the domain modules.
    """

    name = "noggin"
    title = "Tales of the Northlands: The Sagas of Noggin the Nog"
    min_players = 2
    max_players = 4

    _adapter: TypeAdapter | None = None

    # -- set-up and state -----------------------------------------------------------
    def new_state(self) -> State:
        """An empty :class:`State`; the ``GameCreated`` event sets it up (rulebook 1.0)."""
        return State()

    def setup_ops(self, config: GameConfig) -> list[Op]:
        """Set-up E and F by the deck, then the first turn starts (4.1)."""
        return [Op("deck", "shuffle_turn_order"), Op("deck", "draw_building_rows"), Op("board", "resume_turns")]

    def evolve(self, state: State, event: Event) -> None:
        """Apply one event to ``state`` in place. Raises ValueError on an unknown event type."""
        evolve(state, event)

    def copy(self, state: State) -> State:
        """A deep copy of ``state``."""
        return copy_state(state)

    def move_model(self) -> TypeAdapter:
        """A ``TypeAdapter`` of the discriminated union of every move shape (extra fields forbidden)."""
        if NogginRules._adapter is None:
            NogginRules._adapter = TypeAdapter(Move)
        return NogginRules._adapter

    # -- turns ----------------------------------------------------------------------
    def to_move(self, state: State) -> list[int]:
        """``[seat]`` of the active player, or ``[]`` while a phase is pending or after the end."""
        return turns.to_move(state)

    def candidates(self, state: State, seat: int) -> list[dict[str, Any]]:
        """Move dicts worth checking for ``seat`` (unchecked); ``[]`` if it is not its decision."""
        return turns.candidates(state, seat)

    def check(self, state: State, seat: int, move: dict[str, Any]) -> None:
        """Return None if ``move`` is legal now; else raise :class:`IllegalMove` (reason cites
        the rulebook) or :class:`NotYourTurn`. Never changes the state."""
        turns.check(state, seat, move)

    def pending_phase(self, state: State) -> str | None:
        """``"change_of_season"`` once the Runestone reaches the Nog Moon (rulebook 4.3), else None."""
        return turns.pending_phase(state)

    def phase_ops(self, state: State, phase: str) -> list[Op]:
        """Operations of the Change of Season (rulebook 7.1, 7.2). Raises ValueError for another phase."""
        return phases.phase_ops(state, phase)

    # -- resolution -----------------------------------------------------------------
    def plan(self, state: State, seat: int, move: dict[str, Any]) -> list[Op]:
        """Operations, in order, that resolve a checked ``move``: Nogs placed when an action
        starts (rulebook 5.0), Steps spent, a ``deck`` draw before any chance, the domain
        operation, and ``finish`` for actions that end by themselves. Raises
        :class:`IllegalMove` for an unknown move type."""
        t = move["type"]
        i = state.active
        if t == "end_turn":
            return [Op("board", "end_turn", {"forced": turns.must_act(state, i)})]
        if t == "finish":
            return [Op("board", "finish"), Op("board", "after_action")]
        if t == "donate":
            args = {"seat": seat, "wood": move.get("wood", 0), "food": move.get("food")}
            return [Op("market", "donate", args), Op("score", "donation_points", args)]
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
            ops += [Op("deck", "draw_fishing_tokens", {"draws": move["draws"]}), Op("board", "fish", args)]
        elif t == "woodcutter":
            ops.append(Op("board", "advance" if move["op"] == "advance" else "cut_orchard", args))
        elif t == "farmer":
            ops.append(Op("board", {"sow": "sow", "harvest": "harvest", "apple": "pick_apples"}[move["op"]], args))
        elif t == "builder":
            ops.append(Op("board", "upgrade_transport" if move.get("transport") else "build", args))
        elif t == "restock":
            args.setdefault("orchard", 0)
            ops += [Op("market", "restock", args), Op("score", "restock_points", args)]
        elif t == "market_day":
            ops.append(Op("market", "trade", args))
        else:  # pragma: no cover - check() rejects unknown types first
            raise IllegalMove(f"unknown move type {t!r}")
        if t in turns.AUTO_END:
            ops += [Op("board", "finish"), Op("board", "after_action")]
        return ops

    def handle(self, state: State, op: Op, chance) -> list[Event]:
        """Run one operation on ``state`` (not changed) and return its events. Raises
        ValueError for an unknown operation or a ``deck`` operation without ``chance``."""
        a = op.args
        d, n = op.domain, op.name
        if d == "deck":
            if chance is None:
                raise ValueError("deck operations need chance")
            if n == "shuffle_turn_order":
                return decks.shuffle_turn_order(state, chance)
            if n == "draw_building_rows":
                return decks.draw_building_rows(state, chance)
            if n == "change_building_rows":
                return decks.change_building_rows(state, chance)
            if n == "draw_mine_tile":
                return decks.draw_mine_tile(state, chance)
            if n == "draw_fishing_tokens":
                return decks.draw_fishing_tokens(state, chance, a["draws"])
        elif d == "board":
            if n == "resume_turns":
                return turns.advance_turns(state, [m.pos for m in state.markers]) if state.ended is None else []
            if n == "end_turn":
                return turns.end_turn(state, a["forced"])
            if n == "after_action":
                return turns.after_action(state)
            if n == "spend_steps":
                m = state.markers[a["marker"]]
                return [Event("StepsSpent", {"marker": a["marker"], "seat": m.seat, "to": m.pos + a["steps"]})]
            if n == "place_nogs":
                return board.place_nogs(state, a["seat"], a["action"])
            if n == "finish":
                return board.finish_action(state)
            if n == "change_season":
                return phases.change_season(state)
            if n == "dig":
                return board.dig(state, a["seat"], a["square"])
            if n == "walk":
                return board.walk(state, a["seat"], a["square"])
            if n == "discover":
                return board.discover(state, a["seat"], a["slot"], a["rotation"], a["flip"])
            if n == "fish":
                return board.fish(state, a["seat"])
            if n == "advance":
                return board.advance(state, a["seat"])
            if n == "cut_orchard":
                return board.cut_orchard(state, a["seat"])
            if n == "sow":
                return board.sow(state, a["seat"], a["field"])
            if n == "harvest":
                return board.harvest(state, a["seat"], a["field"])
            if n == "pick_apples":
                return board.pick_apples(state, a["seat"], a["tree"])
            if n == "build":
                return board.build(state, a["seat"], a["building"], a["space"])
            if n == "upgrade_transport":
                return board.upgrade_transport(state, a["seat"], a["transport"])
        elif d == "market":
            if n == "trade":
                return market.trade(state, a["seat"], a["give"], a["take"])
            if n == "restock":
                return market.restock(state, a["seat"], a["kind"], a["amount"], a["orchard"])
            if n == "donate":
                return market.donate(state, a["seat"], a["wood"], a["food"])
        elif d == "score":
            if n == "advance_crow":
                return scoring.advance_crow(state)
            if n == "restock_points":
                return scoring.restock_points(state, a["seat"], a["amount"])
            if n == "donation_points":
                given = {"wood": a["wood"]} if a["wood"] else {}
                if a["food"]:
                    given[a["food"]] = 1
                return scoring.donation_points(state, a["seat"], given)
            if n == "final_scoring":
                return scoring.final_scoring(state)
        raise ValueError(f"unknown Noggin operation {d}.{n}")

    def follow_up(self, state: State) -> list[Op]:
        """Final scoring once the game has ended and is not yet scored (rulebook 9.0), else ``[]``."""
        if state.ended is not None and state.final is None:
            return [Op("score", "final_scoring")]
        return []

    # -- views ----------------------------------------------------------------------
    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        """Everything on the table is public in the core game (undrawn piles are not in the
        state), plus what a person needs to decide, derived from it:

        - ``forest_trail``: per clearing ``{"clearing", "zone", "number", "trees"}`` (printed
          number and the trees left in its zone, 5.3); ``woodcutter_next``: the clearing the
          next ``advance`` reaches, in the same form.
        - ``mine_map``: ``squares`` as ``[{"square": [r, c], "content": ...}]`` (the move
          format) for the surface row (``"surface"``, walkable) and every square of a placed
          tile (``"rock"``, ``"empty"``, ``"stone"`` or ``"gold"``); ``miner`` and
          ``miner_on_surface``; ``free_slots``, the empty tile slots; ``picture``, one string
          per row from the surface down (5.1, set-up R).
        - per player ``storage`` (``farm``, building ``extra``, ``room`` left for each basic
          resource, 3.7, 3.8) and ``transport_capacity`` (2, or 4 once upgraded).
        - per marker its ``marker`` index and ``dummy``; ``active_seat`` and ``active_colour``
          of the active marker (``active_seat`` is null for a dummy or between turns).
        """
        out = to_plain(state)
        out["to_move"] = self.to_move(state)
        out["seat"] = seat
        out["phase"] = self.pending_phase(state)
        out["outcome"] = self.outcome(state)
        out.update(views.extras(state))
        for pv, p in zip(out["players"], state.players):
            pv.update(views.player_extras(p))
        for i, mv in enumerate(out["markers"]):
            mv["marker"] = i
            mv["dummy"] = state.markers[i].seat is None
        return out

    def outcome(self, state: State) -> dict[str, Any] | None:
        """None until final scoring; then ``{"reason", "crown", "scores", "winners",
        "breakdown"}`` (rulebook 9.0)."""
        return scoring.outcome(state)
