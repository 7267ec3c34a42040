"""Turns: the Step track, the Runestone, whose decision it is and which moves are legal.

Implements rulebook 4.1 (first turn: each marker in set-up order takes a single action),
4.2 (A: strictly last must act again; B: neither first nor last may end the turn or act
again; C: strictly first ends the turn; the 9-Step limit; dummy players' moves), 4.3
(end of turn, the Runestone moves under the last marker, the season changes when it
reaches the Nog Moon), the no-sharing rule (4.1), ending a turn with no Nogs left (5.0
A), taking Nogs back from a Saga for an action (5.0 B), and the decisions other seats
make inside a turn: bids for the Counting House card (6.3), the Seer's Tower and the
Fireworks as a Saga finishes (appendix); and the active seat's own pending decisions
(Knut's order, 6.1; the next Reserve deck, 6.4; the Coral Necklace, appendix).

The Step track uses absolute positions: season s covers Runestone positions
10(s-1)..10s-1, so reaching the next multiple of 10 means passing the Nog Moon. A
marker may never reach Runestone + 10 (4.2), nor land where the no-sharing rule would
push it there (house rule). ``check`` raises :class:`IllegalMove` with a reason a
person can read and never changes the state.
"""

from __future__ import annotations

from typing import Any, Iterator

from services.rules.core import Event, IllegalMove, NotYourTurn

from . import abilities, board, characters, content, generate, inventions, market, sagas
from .content import BASIC, CHARACTERS
from .decks import can_draw, reserve_left
from .generate import FLIPS, ROTATIONS
from .market import bidder
from .payments import payment_options
from .sagas import needs_draw, waiting_seat
from .steps import LAP, check_steps, jump, landing, next_free, season_end
from .state import ACTIONS, CASTLE, DECKS, TRANSPORTS, State, option, season_name

AUTO_END = ("fisherman", "builder", "restock")
"""Actions that end by themselves after their single sub-move (the Builder waits when the
Good Genie allows a second build; the Fisherman when the Coral Necklace may redraw)."""
DECISIONS = ("bid", "keep_card", "knut", "seers_tower", "fireworks", "draw_reserve", "fishing_tokens")
"""Move types that answer a pending decision."""
FREE_MOVES = ("donate", "use", "recall", "accuse")
"""Moves made between actions on a seat's own turn without a Nog (7.2, appendix, 5.0 B, variants)."""

# -- the Step track -----------------------------------------------------------------------


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
        nxt = positions.index(low)  # the last marker (the first of equals): the Runestone's
        if state.markers[nxt].seat is None:
            dest = jump(positions, nxt, runestone)
            positions[nxt] = dest
            events.append(Event("DummyMoved", {"marker": nxt, "colour": state.markers[nxt].colour, "to": dest}))
            continue
        events.append(Event("TurnStarted", {"marker": nxt, "seat": state.markers[nxt].seat}))
        return events


def clock_target(state: State, i: int, dest: int) -> int | None:
    """The Cupola Clock (appendix): after the turn ends on ``dest`` the marker moves back one
    space, if that space is free and the marker is then still not last (house rule)."""
    back = dest - 1
    others = [m.pos for j, m in enumerate(state.markers) if j != i]
    if back in others or back <= min(others):
        return None
    return back


def end_turn(state: State, forced: bool, clock: bool = False) -> list[Event]:
    """End the active seat's turn (4.3): no-sharing push (4.1), or for a seat that must act
    but cannot, the jump past the marker ahead (5.0 A); the Cupola Clock's step back;
    then :func:`advance_turns`."""
    i = state.active
    assert i is not None
    positions = [m.pos for m in state.markers]
    dest = jump(positions, i, state.runestone) if forced else next_free(positions, i, positions[i])
    data: dict[str, Any] = {"marker": i, "seat": state.markers[i].seat, "to": dest}
    if clock:
        back = clock_target(state, i, dest)
        assert back is not None
        data.update(to=back, clock=True)
        dest = back
    positions[i] = dest
    return [Event("TurnEnded", data)] + advance_turns(state, positions)


def after_action(state: State) -> list[Event]:
    """After an action ends: strictly first ends the turn (4.2 C); on the first turn any
    marker not strictly last ends it (4.1). Otherwise the seat decides."""
    i = state.active
    if i is None or state.action is not None or state.ended is not None or decider(state) != state.markers[i].seat:
        return []
    s = standing(state, i)
    if (state.markers[i].turns == 0 and s != "last") or s == "first":
        return end_turn(state, forced=False)
    return []


# -- whose decision ------------------------------------------------------------------------

def pending(state: State) -> str | None:
    """The decision the game waits for, if any (a move type of :data:`DECISIONS`)."""
    if bidder(state) is not None:
        return "bid"
    return _pending_after_bids(state, waiting_seat(state))


def _pending_after_bids(state: State, waiting: int | None) -> str | None:
    """:func:`pending` once no bid is due, ``waiting`` being :func:`.sagas.waiting_seat`."""
    if state.decision is not None:
        return state.decision["kind"]
    if waiting is not None:
        return "seers_tower" if state.saga_end["stage"] == "seer" else "fireworks"
    if needs_draw(state) is not None:
        return "draw_reserve"
    a = state.action
    if a is not None and a.kind == "fisherman" and a.tokens is not None:
        return "fishing_tokens"
    return None


def decider(state: State) -> int | None:
    """The seat whose decision it is now, or None (a phase, the end, a dummy)."""
    return _decision(state, False)[0]


def _decision(state: State, kind_too: bool = True) -> tuple[int | None, str | None]:
    """``(seat, kind)``: :func:`decider` and, with ``kind_too``, :func:`pending` worked out
    together (each rule read once; the kind None without it); ``(None, None)`` during a phase
    and after the end."""
    active = state.active
    if state.ended is not None or active is None or pending_phase(state):
        return None, None
    b = bidder(state)
    if b is not None:
        return b, "bid"
    waiting = waiting_seat(state)
    kind = _pending_after_bids(state, waiting) if kind_too else None
    if state.decision is not None:
        return state.decision["seat"], kind
    if waiting is not None:
        return waiting, kind
    return state.markers[active].seat, kind


def to_move(state: State) -> list[int]:
    """The seat whose decision it is, or nobody during a phase and after the end."""
    seat = _decision(state, False)[0]
    return [] if seat is None else [seat]


# -- costs and candidates -----------------------------------------------------------------


def step_cost(state: State, move: dict[str, Any]) -> int:
    """Steps a sub-move costs (5.1-5.6, 6.0: one Step per Market Day visit; a free Walk with
    the Moon Stone; nothing for the Good Genie's second build or the Coral Necklace)."""
    t = move["type"]
    seat = state.markers[state.active].seat if state.active is not None else None
    if t == "miner":
        return 0 if move.get("op") == "walk" and seat is not None and board.free_walk(state, seat) else 1
    if t in ("woodcutter", "farmer"):
        return 1
    if t == "fisherman":
        return int(move.get("draws", 1))
    if t == "builder":
        return 0 if state.action is not None else 2
    if t == "restock":
        return 2
    if t == "market_day":
        return 0 if state.action is not None else 1
    return 0


def _pays(p: Any, slots: list[str]) -> list[list[str]]:
    return payment_options(p, slots) if slots else [[]]


def _market_day_moves(state: State, seat: int) -> Iterator[dict[str, Any]]:
    """Market Day's sub-moves worth checking."""
    p = state.players[seat]
    known: dict[tuple[str, ...], list[list[str]]] = {}

    def pays(slots: list[str]) -> list[list[str]]:  # the seat's payments, each cost worked out once
        key = tuple(slots)
        out = known.get(key)
        if out is None:
            out = known[key] = _pays(p, slots)
        return out

    yield from _character_moves(state, p, pays(characters.food_slots(state)))
    if state.nogbad == "active":
        for by, (_, n, _) in characters.EVICTIONS.items():
            for pay in pays(["food"] * n):
                yield {"type": "market_day", "op": "evict", "by": by, "pay": pay}
    if state.counting_house is not None and market.first_turns_over(state):
        yield {"type": "market_day", "op": "auction"}
    for slot, saga in enumerate(state.sagas):
        if saga is None or saga.current is None:
            continue
        card = saga.current
        for cond in sagas.open_conditions(card):
            need = card.needs[cond]
            for pay in pays(sagas.condition_slots(state, seat, slot, need)):
                for nog in (True, False):
                    yield {"type": "market_day", "op": "saga", "saga": slot, "condition": cond, "nog": nog, "pay": pay}
                if sagas.can_claim_bonus(state, seat, card, need):
                    yield {"type": "market_day", "op": "saga", "saga": slot, "condition": cond, "nog": True,
                           "bonus": True, "pay": pay}
    for slot, inv in enumerate(state.inventions):
        if inv is None:
            continue
        for cond, m in enumerate(inv.met):
            if m is not None:
                continue
            options = pays(inventions.condition_slots(state, seat, slot, cond))
            if inventions.blacksmith_free(state, seat, slot, cond):
                options = [[], *options]
            for pay in options:
                yield {"type": "market_day", "op": "invention", "invention": slot, "condition": cond, "pay": pay}
    r = market.rate(state)
    goods = [g for g in market.TRADE_GOODS if p.stock.get(g, 0) > 0]
    gives: list[list[str]] = []
    _combos(goods, r, 0, [], gives)
    if p.stock.get("coin", 0) > 0 and r != 1:
        gives.append(["coin"])
    for give in gives:
        if any(p.stock[g] < give.count(g) for g in set(give)):
            continue
        for take in market.TRADE_GOODS:
            if take not in give and take not in market.NOT_TAKEN and state.market.get(take, 0) > 0:
                yield {"type": "market_day", "op": "trade", "give": give, "take": take}


def _character_moves(state: State, p: Any, food_pays: list[list[str]]) -> Iterator[dict[str, Any]]:
    """Every character's ability that Market Day may use now, each with each of ``food_pays``
    (the seat's payments of the character's Food, 6.1)."""
    for ch in CHARACTERS:
        if ch != "graculus" and state.characters[ch] != CASTLE:
            continue
        base = {"type": "market_day", "op": "character", "character": ch}
        variants: list[dict[str, Any]] = []
        if ch == "noggin":
            variants = [{"owner": o.seat, "action": a} for o in state.players for a in ACTIONS if o.placed[a]]
        elif ch == "nooka":
            variants = [{"saga": i, "deck": d} for i, s in enumerate(state.sagas)
                        if s is not None and s.current is not None for d in ("B", "C")]
        elif ch == "knut":
            variants = [{"deck": d} for d in DECKS if reserve_left(state, d)]
        elif ch == "graculus":
            variants = [{"target": c} for c in CHARACTERS if c != "graculus" and state.characters[c] != CASTLE]
        elif ch == "thor":
            variants = [{"direction": 1}, {"direction": -1}]
        elif ch == "olaf":
            variants = [{}]
        elif ch == "romf":
            variants = [{"top": i, "bottom": j} for i, t in enumerate(state.rows.get("top", [])) if t
                        for j, b in enumerate(state.rows.get("bottom", [])) if b]
        for v in variants:
            for pay in food_pays:
                yield {**base, **v, "pay": pay}


def _combos(goods: list[str], k: int, start: int, acc: list[str], out: list[list[str]]) -> None:
    if len(acc) == k:
        out.append(list(acc))
        return
    for i in range(start, len(goods)):
        acc.append(goods[i])
        _combos(goods, k, i, acc, out)
        acc.pop()


def action_moves(state: State, seat: int, kind: str) -> Iterator[dict[str, Any]]:
    """Every sub-move of action ``kind`` worth checking now, in a stable order (the candidates
    :func:`check` filters; :mod:`.generate` lists the legal ones directly, in this order)."""
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
        if board.can_use(p, "birds_crown"):
            yield {"type": "woodcutter", "op": "jump"}
    elif kind == "farmer":
        for op in ("sow", "harvest"):
            for f in range(len(p.fields)):
                yield {"type": "farmer", "op": op, "field": f}
        for tree in range(2):
            yield {"type": "farmer", "op": "apple", "tree": tree}
    elif kind == "builder":
        pays = payment_options(p, board.building_cost())
        if pays:
            free = board.free_spaces(p)
            for _, b in sorted(set(board.available_buildings(state))):
                for space in [board.BESIDE] if content.building_index()[b].adds_space else free:
                    for pay in pays:
                        yield {"type": "builder", "building": b, "space": space, "pay": pay}
        upgrade_pays = payment_options(p, board.transport_cost())
        for tr in TRANSPORTS:
            for pay in upgrade_pays:
                yield {"type": "builder", "transport": tr, "pay": pay}
    elif kind == "restock":
        for amount in sorted(set(market.RESTOCK_AMOUNTS) | set(market.restock_amounts(state, seat, "fish"))):
            if amount in market.RESTOCK_AMOUNTS:
                for orchard in (0, 1, 2):
                    yield {"type": "restock", "kind": "trees", "amount": amount, "orchard": orchard}
            yield {"type": "restock", "kind": "fish", "amount": amount, "orchard": 0}
    elif kind == "market_day":
        yield from _market_day_moves(state, seat)


def _decision_moves(state: State, seat: int, kind: str) -> list[dict[str, Any]]:
    if kind == "bid":
        au = state.auction
        assert au is not None
        return [{"type": "bid", "steps": 0}] + [{"type": "bid", "steps": k}
                                                 for k in range(au["bid"] + 1, market.max_bid(state, seat) + 1)]
    if kind == "keep_card":
        return [{"type": "keep_card", "face": "up"}, {"type": "keep_card", "face": "down"}]
    if kind == "knut":
        d = state.decision
        assert d is not None
        return [{"type": "knut", "swap": False}] + ([{"type": "knut", "swap": True}] if d["cards"] == 2 else [])
    if kind == "seers_tower":
        return [{"type": "seers_tower", "adjust": k} for k in (-1, 0, 1)]
    if kind == "fireworks":
        return [{"type": "fireworks", "play": True}, {"type": "fireworks", "play": False}]
    if kind == "draw_reserve":
        slot = sagas.needs_draw(state)
        return [{"type": "draw_reserve", "saga": slot, "deck": d} for d in ("B", "C") if can_draw(state, d)]
    if kind == "fishing_tokens":
        a = state.action
        assert a is not None and a.tokens is not None
        return [{"type": "fishing_tokens", "put_back": None}] + [
            {"type": "fishing_tokens", "put_back": k} for k in range(len(a.tokens))]
    return []


def _free_moves(state: State, seat: int) -> Iterator[dict[str, Any]]:
    p = state.players[seat]
    if season_name(state.season) == "winter":
        for wood in (0, 1):
            for food in (None, "fish", "harvest"):
                if wood or food:
                    yield {"type": "donate", "wood": wood, **({"food": food} if food else {})}
    for slot, card in sagas.recall_sources(state, seat):
        yield {"type": "recall", "saga": slot, "card": card}
    yield from _use_moves(state, seat, abilities.owned(state, seat))
    if option(state, "friend_or_foe") and not p.accused:
        for other in range(len(state.players)):
            if other != seat:
                yield {"type": "accuse", "seat": other}


def _use_moves(state: State, seat: int, owned: set[str]) -> Iterator[dict[str, Any]]:
    """The uses of the free abilities among the cards ``owned``, worth checking (appendix)."""
    p = state.players[seat]
    for card in abilities.FREE_ABILITIES:
        if card not in owned:
            continue
        base = {"type": "use", "card": card}
        if card == "windmill":
            for k in (1, 2):
                for pay in payment_options(p, ["harvest"] * k):
                    yield {**base, "harvest": k, "pay": pay}
        elif card in ("nookas_kitchen_garden", "omruds_ornamental_garden", "royal_horse_trough"):
            for r in BASIC:
                yield {**base, "resource": r}
        elif card == "darkness_tome":
            yield {**base, "direction": 1}
            yield {**base, "direction": -1}
        elif card == "telescope":
            for d in DECKS:
                yield {**base, "deck": d}
        elif card == "war_banner":
            for a in ACTIONS:
                if p.placed[a]:
                    for pay in payment_options(p, ["food"]):
                        yield {**base, "action": a, "pay": pay}
        elif card == "potion":
            for r in BASIC:
                yield {**base, "resource": r}
        elif card == "hnefetfl":
            yield {**base, "steps": 1}
            yield {**base, "steps": 2}
        elif card == "flying_boat":
            yield from _boat_moves(state, seat, base)
        else:
            yield base


def _boat_moves(state: State, seat: int, base: dict[str, Any]) -> Iterator[dict[str, Any]]:
    p = state.players[seat]
    pays = payment_options(p, ["food"])
    for ch, where in state.characters.items():
        if not (where.startswith("saga:") or where.startswith("invention:")):
            continue
        for slot, saga in enumerate(state.sagas):
            if saga is None or saga.current is None:
                continue
            for cond in sagas.open_conditions(saga.current):
                if saga.current.needs[cond] == ch:
                    for pay in pays:
                        for nog in (True, False):
                            yield {**base, "character": ch, "to": "saga", "slot": slot, "condition": cond,
                                   "nog": nog, "pay": pay}
        for slot, inv in enumerate(state.inventions):
            if inv is None:
                continue
            for cond, m in enumerate(inv.met):
                if m is None and inv.needs[cond] == ch:
                    for pay in pays:
                        yield {**base, "character": ch, "to": "invention", "slot": slot, "condition": cond,
                               "pay": pay}


def candidates(state: State, seat: int) -> list[dict[str, Any]]:
    """Every move worth checking for ``seat`` now (``legal_moves`` filters them by ``check``)."""
    decider_seat, kind = _decision(state)  # the seat and its pending decision, read once
    if seat != decider_seat:
        return []
    if kind is not None:
        return _decision_moves(state, seat, kind)
    a = state.action
    if a is not None:
        return [*action_moves(state, seat, a.kind), {"type": "finish"}]
    out: list[dict[str, Any]] = []
    for kind in ACTIONS:
        out.extend(action_moves(state, seat, kind))
    out.extend(_free_moves(state, seat))
    out.append({"type": "end_turn"})
    if board.can_use(state.players[seat], "cupola_clock"):
        out.append({"type": "end_turn", "cupola_clock": True})
    return out


# -- check --------------------------------------------------------------------------------


def _check_market_day(state: State, seat: int, move: dict[str, Any]) -> None:
    """Raise unless the Market Day sub-move is legal now."""
    op = move.get("op", "trade")
    if op == "trade":
        market.check_trade(state, seat, list(move["give"]), move["take"])
    elif op == "character":
        market.check_pick(state, seat, "character")
        characters.check_character(state, seat, move)
    elif op == "evict":
        market.check_pick(state, seat, "evict")
        characters.check_evict(state, seat, move["by"], move.get("pay"))
    elif op == "auction":
        market.check_auction(state, seat)
    elif op == "saga":
        market.check_pick(state, seat, "saga", move["saga"])
        sagas.check_contribute(state, seat, move["saga"], move["condition"], move.get("nog", True),
                               move.get("bonus", False), move.get("pay"))
    elif op == "invention":
        market.check_pick(state, seat, "invention", move["invention"])
        inventions.check_contribute(state, seat, move["invention"], move["condition"], move.get("pay"))
    else:
        raise IllegalMove(f"unknown Market Day option {op!r} (rulebook 6.0)")


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
        op = move.get("op")
        if op == "orchard":
            board.check_cut_orchard(state, seat)
        elif op == "jump":
            board.check_jump(state, seat)
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
            board.check_upgrade(state, seat, move["transport"], move.get("pay"))
        else:
            board.check_build(state, seat, move["building"], move["space"], move.get("pay"))
    elif t == "restock":
        market.check_restock(state, seat, move["kind"], move["amount"], move.get("orchard", 0))
    elif t == "market_day":
        _check_market_day(state, seat, move)
    else:
        raise IllegalMove(f"unknown move type {t!r}")


def can_start_an_action(state: State, seat: int) -> bool:
    """True if any action may start now (used for 5.0 A: a seat that must act but cannot)."""
    for kind in ACTIONS:
        for move in action_moves(state, seat, kind):
            try:
                check(state, seat, move)
            except IllegalMove:
                continue
            return True
    return False


def _check_decision(state: State, seat: int, kind: str, move: dict[str, Any]) -> None:
    t = move["type"]
    if t != kind:
        raise IllegalMove(f"the game waits for your {kind.replace('_', ' ')} decision first")
    if t == "bid":
        market.check_bid(state, seat, move["steps"])
    elif t == "keep_card":
        market.check_keep(state, seat, move["face"])
    elif t == "knut":
        if move["swap"] and state.decision["cards"] < 2:
            raise IllegalMove("Knut saw only one card; there is nothing to swap")
    elif t == "seers_tower":
        sagas.check_seer(state, seat, move["adjust"])
    elif t == "fireworks":
        sagas.check_fireworks(state, seat)
    elif t == "draw_reserve":
        sagas.check_draw_reserve(state, seat, move["saga"], move["deck"])
    elif t == "fishing_tokens":
        board.check_catch(state, seat, move.get("put_back"))


def _check_free(state: State, seat: int, move: dict[str, Any]) -> None:
    t = move["type"]
    if state.action is not None:
        raise IllegalMove(f"finish your {state.action.kind} action first")
    if t == "donate":
        market.check_donate(state, seat, move.get("wood", 0), move.get("food"))
    elif t == "use":
        abilities.check_use(state, seat, move)
    elif t == "recall":
        sagas.check_recall(state, seat, move["saga"], move["card"])
    elif t == "accuse":
        abilities.check_accuse(state, seat, move["seat"])


# -- legal moves, generated with the shared facts computed once --------------------------------


def _legal(fn: Any, *args: Any) -> bool:
    try:
        fn(*args)
    except IllegalMove:
        return False
    return True


_BUDGETS = tuple(frozenset(range(k + 1)) for k in range(LAP))


def _affordable(state: State, i: int) -> frozenset[int]:
    """Step costs the active marker may still spend this turn (0 always; 4.2, house rule):
    those whose landing, after the no-sharing push, stays short of the Runestone + 10. A cost
    of c lands on the first space from c on that no other marker holds, so the costs that
    fit are 0 up to the last such space before that limit (at most LAP - 1)."""
    markers = state.markers
    pos = markers[i].pos
    occupied = [m.pos for j, m in enumerate(markers) if j != i]
    last = state.runestone + LAP - 1  # the last free space short of the limit
    while last in occupied:
        last -= 1
    return _BUDGETS[min(LAP - 1, last - pos) if last > pos else 0]


def _legal_free_moves(state: State, seat: int) -> list[dict[str, Any]]:
    """The free moves :func:`_check_free` accepts between actions, in the order of
    :func:`_free_moves`: a donation of cubes the seat has (7.2), a Nog back from a Saga only
    with none left on the Mountains space or after one came back this turn (5.0 B), each
    ability use as :func:`.abilities.check_use` says, an accusation of a seat not unmasked
    yet (variants)."""
    p = state.players[seat]
    out: list[dict[str, Any]] = []
    if season_name(state.season) == "winter":
        stock = p.stock
        for wood in (0, 1):
            for food in (None, "fish", "harvest"):
                if (wood or food) and (not wood or stock["wood"] >= 1) and (food is None or stock[food] >= 1):
                    out.append({"type": "donate", "wood": wood, **({"food": food} if food else {})})
    if p.mountains <= 0 or state.recalled:
        out += [{"type": "recall", "saga": slot, "card": card} for slot, card in sagas.recall_sources(state, seat)]
    owned = abilities.owned(state, seat)
    if not owned.isdisjoint(abilities.FREE_ABILITIES):
        out += [m for m in _use_moves(state, seat, owned) if _legal(abilities.check_use, state, seat, m)]
    if option(state, "friend_or_foe") and not p.accused:
        out += [{"type": "accuse", "seat": other} for other in range(len(state.players))
                if other != seat and not state.players[other].unmasked]
    return out


def legal_moves(state: State, seat: int) -> list[dict[str, Any]]:
    """Every legal move of ``seat`` now, in the order of :func:`candidates` and exactly the
    moves :func:`check` accepts among them, generated legal rather than checked one by one:
    what is the same for all (whose turn, the pending decision, the Step budget, whether each
    action may start, whether any action may start at all) is worked out once, and each
    action's sub-moves come from :mod:`.generate`."""
    decider_seat, kind = _decision(state)  # the seat and its pending decision, read once
    if seat != decider_seat:
        return []
    if kind is not None:
        if kind == "bid":  # the seat bidding, every bid listed from above the highest to its limit (6.3)
            return _decision_moves(state, seat, kind)
        return [m for m in _decision_moves(state, seat, kind) if _legal(_check_decision, state, seat, kind, m)]
    i = state.active
    assert i is not None
    costs = _affordable(state, i)
    a = state.action
    if a is not None:  # the action's sub-moves (:mod:`.generate`), then finishing it
        moves = generate.GENERATED[a.kind](state, seat, costs)
        if a.ops > 0:
            moves.append({"type": "finish"})
        return moves
    out: list[dict[str, Any]] = []
    p = state.players[seat]
    for k in ACTIONS:  # the Nogs an action needs and Nogbad's blocks (:func:`.board.check_place_nogs`)
        if p.mountains >= board.nogs_needed(p, k) and not board.nogbad_blocks(state, k):
            out += generate.GENERATED[k](state, seat, costs)
    can_act = bool(out)
    out += _legal_free_moves(state, seat)
    if not ((must_act(state, i) or state.recalled) and can_act):
        out.append({"type": "end_turn"})
        clock = {"type": "end_turn", "cupola_clock": True}
        if board.can_use(state.players[seat], "cupola_clock") and _legal(check, state, seat, clock):
            out.append(clock)
    return out


def check(state: State, seat: int, move: dict[str, Any]) -> None:
    """Raise :class:`IllegalMove` (or :class:`NotYourTurn`) unless ``move`` is legal now."""
    if state.ended is not None:
        raise IllegalMove("the game is over (rulebook 9.0)")
    if pending_phase(state):
        raise NotYourTurn("the season is changing; nobody may move until it has (rulebook 4.3, 7.1)")
    if seat not in to_move(state):
        raise NotYourTurn(f"it is not seat {seat}'s decision")
    t = move.get("type")
    kind = pending(state)
    if kind is not None:
        _check_decision(state, seat, kind, move)
        return
    if t in DECISIONS:
        raise IllegalMove(f"there is no {t.replace('_', ' ')} decision to make now")
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
        if must_act(state, i) or state.recalled:
            if can_start_an_action(state, seat):
                if state.recalled:
                    raise IllegalMove("Nogs taken back from a Saga are for an action (rulebook 5.0 B)")
                if state.markers[i].turns == 0:
                    raise IllegalMove("on the first turn every player carries out an action (rulebook 4.1)")
                raise IllegalMove("your Step marker is strictly last, so you must carry out another "
                                  "action (rulebook 4.2 A)")
        if move.get("cupola_clock"):
            p = state.players[seat]
            if not board.can_use(p, "cupola_clock"):
                raise IllegalMove("the Cupola Clock is used once per season by its owner (appendix)")
            if must_act(state, i):
                raise IllegalMove("the Cupola Clock needs a turn that ends normally (appendix)")
            positions = [m.pos for m in state.markers]
            if clock_target(state, i, next_free(positions, i, positions[i])) is None:
                raise IllegalMove("the space behind your marker is taken, or you would be last (appendix)")
        return
    if t in FREE_MOVES:
        _check_free(state, seat, move)
        return
    if a is not None and a.kind != t:
        raise IllegalMove(f"finish your {a.kind} action first")
    if a is None:
        board.check_place_nogs(state, seat, t)
    check_steps(state, i, step_cost(state, move))
    _check_op(state, seat, move)
