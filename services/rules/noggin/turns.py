"""Turns: the Step track, the Runestone, whose decision it is and which moves are legal.

Implements rulebook 4.1 (first turn: each marker in set-up order takes a single action),
4.2 (A: strictly last must act again; B: neither first nor last may end the turn or act
again; C: strictly first ends the turn; the 9-Step limit; dummy players' moves), 4.3
(end of turn, the Runestone moves under the last marker, the season changes when it
reaches the Nog Moon), the no-sharing rule (4.1) and ending a turn with no Nogs left
(5.0 A).

The Step track uses absolute positions: season s covers Runestone positions
10(s-1)..10s-1, so reaching the next multiple of 10 means passing the Nog Moon. A
marker may never reach Runestone + 10 (4.2), nor land where the no-sharing rule would
push it there (house rule). ``check`` raises :class:`IllegalMove` with a reason a
person can read and never changes the state.
"""

from __future__ import annotations

from typing import Any, Iterator

from services.rules.core import Event, IllegalMove, NotYourTurn

from . import board, content, market
from .content import BASIC
from .state import TRANSPORTS, State, season_name

LAP = 10
"""Steps per season: one circuit of the Central Wheel (2.0)."""
ROTATIONS = (0, 90, 180, 270)
FLIPS = ("h", "v")
AUTO_END = ("fisherman", "builder", "restock")
"""Actions that end by themselves after their single sub-move."""
GIVE_PAIRS = [(a, b) for i, a in enumerate((*BASIC, "gold")) for b in (*BASIC, "gold")[i:]]

# -- the Step track -----------------------------------------------------------------------


def season_end(state: State) -> int:
    """The Runestone position that ends the current season (the Nog Moon)."""
    return LAP * state.season


def pending_phase(state: State) -> str | None:
    """``"change_of_season"`` when the Runestone reached the Nog Moon (4.3, 7.0), else None."""
    if state.ended is None and state.markers and state.runestone >= season_end(state):
        return "change_of_season"
    return None


def standing(state: State, i: int) -> str:
    """``"last"`` / ``"first"`` (strictly, 4.2 A and C) or ``"between"`` (4.2 B)."""
    pos = state.markers[i].pos
    others = [m.pos for j, m in enumerate(state.markers) if j != i]
    if pos < min(others):
        return "last"
    if pos > max(others):
        return "first"
    return "between"


def must_act(state: State, i: int) -> bool:
    """The marker must carry out another action: first turn (4.1) or strictly last (4.2 A)."""
    return state.markers[i].turns == 0 or standing(state, i) == "last"


def _next_free(positions: list[int], i: int, p: int) -> int:
    occupied = {q for j, q in enumerate(positions) if j != i}
    while p in occupied:
        p += 1
    return p


def jump(positions: list[int], i: int, runestone: int) -> int:
    """Where a marker goes that must pass the first marker ahead of it: the next unoccupied
    space beyond it (4.2 dummies, 5.0 A); if that would reach the Runestone + 10, the
    furthest unoccupied space before it; if there is none, it stays where it is, the
    Runestone comes up to it and it plays again (house rules)."""
    pos = positions[i]
    ahead = [q for j, q in enumerate(positions) if j != i and q > pos]
    dest = _next_free(positions, i, (min(ahead) if ahead else pos) + 1)
    if dest >= runestone + LAP:
        occupied = {q for j, q in enumerate(positions) if j != i}
        dest = max([q for q in range(pos + 1, runestone + LAP) if q not in occupied], default=pos)
    return dest


def check_steps(state: State, i: int, cost: int) -> None:
    """The 9-Step limit: the marker may not reach the Runestone + 10, and may not land
    where the no-sharing rule would push it there (4.2, house rule)."""
    if cost <= 0:
        return
    positions = [m.pos for m in state.markers]
    p = positions[i] + cost
    limit = state.runestone + LAP
    if p >= limit or _next_free(positions, i, p) >= limit:
        raise IllegalMove(f"that costs {cost} Step(s) and your Step marker may not reach the "
                          f"Runestone: no more than 9 Steps per turn (rulebook 4.2)")


def advance_turns(state: State, positions: list[int]) -> list[Event]:
    """After a turn ends (or a phase ran): move the Runestone under the last marker (4.3),
    stop if the season ends, let dummy players move when they are last (4.2), and start
    the next seat's turn. ``positions`` already holds the ended turn's result."""
    events: list[Event] = []
    runestone = state.runestone
    while True:
        low = min(positions)
        if low != runestone:
            runestone = low
            events.append(Event("RunestoneMoved", {"to": low}))
        if runestone >= season_end(state):
            return events
        nxt = min(range(len(positions)), key=lambda j: (positions[j], j))
        if state.markers[nxt].seat is None:
            dest = jump(positions, nxt, runestone)
            positions[nxt] = dest
            events.append(Event("DummyMoved", {"marker": nxt, "colour": state.markers[nxt].colour, "to": dest}))
            continue
        events.append(Event("TurnStarted", {"marker": nxt, "seat": state.markers[nxt].seat}))
        return events


def end_turn(state: State, forced: bool) -> list[Event]:
    """End the active seat's turn (4.3): no-sharing push (4.1), or for a seat that must act
    but cannot, the jump past the marker ahead (5.0 A); then :func:`advance_turns`."""
    i = state.active
    assert i is not None
    positions = [m.pos for m in state.markers]
    dest = jump(positions, i, state.runestone) if forced else _next_free(positions, i, positions[i])
    positions[i] = dest
    events = [Event("TurnEnded", {"marker": i, "seat": state.markers[i].seat, "to": dest})]
    return events + advance_turns(state, positions)


def after_action(state: State) -> list[Event]:
    """After an action ends: strictly first ends the turn (4.2 C); on the first turn any
    marker not strictly last ends it (4.1). Otherwise the seat decides."""
    i = state.active
    if i is None or state.action is not None:
        return []
    s = standing(state, i)
    if (state.markers[i].turns == 0 and s != "last") or s == "first":
        return end_turn(state, forced=False)
    return []


def to_move(state: State) -> list[int]:
    """The seat whose decision it is, or nobody during a phase and after the end."""
    if state.ended is not None or state.active is None or pending_phase(state):
        return []
    seat = state.markers[state.active].seat
    return [] if seat is None else [seat]


# -- costs and candidates -----------------------------------------------------------------


def step_cost(state: State, move: dict[str, Any]) -> int:
    """Steps a sub-move costs (5.1-5.6, 6.0: one Step per Market Day visit)."""
    t = move["type"]
    if t in ("miner", "woodcutter", "farmer"):
        return 1
    if t == "fisherman":
        return int(move.get("draws", 1))
    if t in ("builder", "restock"):
        return 2
    if t == "market_day":
        return 0 if state.action is not None else 1
    return 0


def action_moves(state: State, seat: int, kind: str) -> Iterator[dict[str, Any]]:
    """Every sub-move of action ``kind`` worth checking now, in a stable order."""
    p = state.players[seat]
    if kind == "miner":
        for sq in [[state.miner[0] + dr, state.miner[1] + dc] for dr, dc in ((-1, 0), (0, -1), (0, 1), (1, 0))]:
            yield {"type": "miner", "op": "dig", "square": sq}
        for sq in board.reachable(state):
            yield {"type": "miner", "op": "walk", "square": sq}
        for slot in board.discover_slots(state):
            for rot in ROTATIONS:
                for flip in FLIPS:
                    yield {"type": "miner", "op": "discover", "slot": slot, "rotation": rot, "flip": flip}
    elif kind == "fisherman":
        for n in (1, 2, 3, 4):
            yield {"type": "fisherman", "draws": n}
    elif kind == "woodcutter":
        yield {"type": "woodcutter", "op": "advance"}
        yield {"type": "woodcutter", "op": "orchard"}
    elif kind == "farmer":
        for op in ("sow", "harvest"):
            for f in range(len(p.fields)):
                yield {"type": "farmer", "op": op, "field": f}
        for tree in range(2):
            yield {"type": "farmer", "op": "apple", "tree": tree}
    elif kind == "builder":
        _, tiles = board.available_buildings(state)
        for b in sorted(set(tiles)):
            if content.building_index()[b].adds_space:
                yield {"type": "builder", "building": b, "space": board.BESIDE}
                continue
            for space in board.free_spaces(p):
                yield {"type": "builder", "building": b, "space": space}
        for tr in TRANSPORTS:
            yield {"type": "builder", "transport": tr}
    elif kind == "restock":
        for amount in market.RESTOCK_AMOUNTS:
            for orchard in (0, 1, 2):
                yield {"type": "restock", "kind": "trees", "amount": amount, "orchard": orchard}
            yield {"type": "restock", "kind": "fish", "amount": amount, "orchard": 0}
    elif kind == "market_day":
        for give in GIVE_PAIRS:
            if any(p.stock[r] < give.count(r) for r in give):
                continue
            for take in (*BASIC, "gold"):
                yield {"type": "market_day", "give": list(give), "take": take}


def candidates(state: State, seat: int) -> list[dict[str, Any]]:
    """Every move worth checking for ``seat`` now (``legal_moves`` filters them by ``check``)."""
    if seat not in to_move(state):
        return []
    a = state.action
    if a is not None:
        return [*action_moves(state, seat, a.kind), {"type": "finish"}]
    out: list[dict[str, Any]] = []
    for kind in ("miner", "fisherman", "woodcutter", "farmer", "builder", "restock", "market_day"):
        out.extend(action_moves(state, seat, kind))
    if season_name(state.season) == "winter":
        for wood in (0, 1):
            for food in (None, "fish", "harvest"):
                if wood or food:
                    out.append({"type": "donate", "wood": wood, **({"food": food} if food else {})})
    out.append({"type": "end_turn"})
    return out


# -- check --------------------------------------------------------------------------------


def _check_op(state: State, seat: int, move: dict[str, Any]) -> None:
    t = move["type"]
    if t == "miner":
        op = move.get("op")
        if op == "dig":
            board.check_dig(state, seat, list(move["square"]))
        elif op == "walk":
            board.check_walk(state, seat, list(move["square"]))
        elif op == "discover":
            board.check_discover(state, seat, list(move["slot"]))
        else:
            raise IllegalMove("the Miner can dig, walk or discover (rulebook 5.1)")
    elif t == "fisherman":
        board.check_fisherman(state, seat)
    elif t == "woodcutter":
        if move.get("op") == "orchard":
            board.check_cut_orchard(state, seat)
        else:
            board.check_advance(state, seat)
    elif t == "farmer":
        op = move.get("op")
        if op == "sow":
            board.check_sow(state, seat, move["field"])
        elif op == "harvest":
            board.check_harvest(state, seat, move["field"])
        else:
            board.check_pick_apples(state, seat, move["tree"])
    elif t == "builder":
        if move.get("transport"):
            board.check_upgrade(state, seat, move["transport"])
        else:
            board.check_build(state, seat, move["building"], move["space"])
    elif t == "restock":
        market.check_restock(state, seat, move["kind"], move["amount"], move.get("orchard", 0))
    elif t == "market_day":
        market.check_trade(state, seat, list(move["give"]), move["take"])
    else:
        raise IllegalMove(f"unknown move type {t!r}")


def can_start_an_action(state: State, seat: int) -> bool:
    """True if any action may start now (used for 5.0 A: a seat that must act but cannot)."""
    for move in candidates(state, seat):
        if move["type"] in ("end_turn", "donate"):
            continue
        try:
            check(state, seat, move)
        except IllegalMove:
            continue
        return True
    return False


def check(state: State, seat: int, move: dict[str, Any]) -> None:
    """Raise :class:`IllegalMove` (or :class:`NotYourTurn`) unless ``move`` is legal now."""
    if state.ended is not None:
        raise IllegalMove("the game is over (rulebook 9.0)")
    if pending_phase(state):
        raise NotYourTurn("the season is changing; nobody may move until it has (rulebook 4.3, 7.1)")
    if seat not in to_move(state):
        raise NotYourTurn(f"it is not seat {seat}'s turn")
    t = move.get("type")
    a = state.action
    i = state.active
    assert i is not None
    if t == "finish":
        if a is None:
            raise IllegalMove("there is no action to finish")
        if a.ops == 0:
            raise IllegalMove("carry out at least one operation before finishing the action")
        return
    if t == "end_turn":
        if a is not None:
            raise IllegalMove(f"finish your {a.kind} action first")
        if must_act(state, i):
            if can_start_an_action(state, seat):
                if state.markers[i].turns == 0:
                    raise IllegalMove("on the first turn every player carries out an action (rulebook 4.1)")
                raise IllegalMove("your Step marker is strictly last, so you must carry out another "
                                  "action (rulebook 4.2 A)")
        return
    if t == "donate":
        if a is not None:
            raise IllegalMove(f"finish your {a.kind} action first")
        market.check_donate(state, seat, move.get("wood", 0), move.get("food"))
        return
    if a is not None and a.kind != t:
        raise IllegalMove(f"finish your {a.kind} action first")
    if a is None:
        board.check_place_nogs(state, seat, t)
    check_steps(state, i, step_cost(state, move))
    _check_op(state, seat, move)
