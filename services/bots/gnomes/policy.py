"""The hand-written play of A Game of Gnomes that the ``scripted`` and ``expert`` bots share:
pick a mushroom, carry it to the buyer that pays best for the weeks, sell it (rulebook C.1-C.3),
take every dream card the sleep allows (D) and keep the best cards (E).

Every function reads a :class:`State` rebuilt from the seat's player view
(``rules.state_from_view``): of the hidden parts only the seat's own hand, which the view
shows. Distances are weeks by the way-finder (:func:`.plan.weeks_from`).
"""

from __future__ import annotations

from typing import Any

from services.rules.gnomes.content import content
from services.rules.gnomes.state import KING, State, basket_room, equipment, travel_cards, treasures

from . import plan

MOVES = ("travel", "three_for_free", "equipment", "ice", "winter_path", "climb")
"""The move types that move the gnome (C.1, G)."""
CARD_COST = 0.3
"""Weeks a travel card played counts when moves are compared (scouting another takes a week)."""
NUGGET_COST = 1.7
"""Weeks a nugget card played counts: it scores 1 in hand at the end (H), about 1.7 weeks."""
DISTANCE = 0.6
"""Points a week of travel costs when trips are compared (as the evaluation's ``distance``)."""
CARD_KEEP = {"double": 3.0, "free": 2.5, "single": 2.0, "nugget": 4.0}
"""How much a card in hand is worth keeping at the hand limit (E), by kind; a treasure scores
its value (H), so it is kept first."""


def destination(state: State, seat: int, move: dict[str, Any]) -> tuple[str, int, int] | None:
    """``(place, weeks, cards played)`` a moving ``move`` leads to (C.1, G), or None for another move."""
    t = move["type"]
    if t == "travel":
        return move["path"][-1], travel_cards()[move["card"]].weeks, 1
    if t == "three_for_free":
        return move["to"], sum(travel_cards()[c].weeks for c in move["cards"]), len(move["cards"])
    if t == "equipment":
        return move["to"], equipment()[move["item"]].weeks or 0, 0
    if t == "ice":
        return move["to"], 2, 0
    if t == "winter_path":
        return move["to"], 1, 0
    if t == "climb":
        return move["to"], 0, 0
    return None


def sellable(state: State, mushroom: str, weeks: int, timer: int) -> bool:
    """Whether a sale ``weeks`` from now is before ``mushroom`` rots (F) or the game ends (H)."""
    if timer + weeks <= 7:
        return True
    return state.calendar + timer + weeks < min(plan.rot_week(state, mushroom), content().calendar.end)


def sale_targets(state: State, seat: int) -> dict[str, float]:
    """``place -> points`` of selling there what the basket holds (each mushroom at its best
    gem there, C.3), for the places reachable in time."""
    p = state.players[seat]
    dist = plan.weeks_from(state, seat)
    out: dict[str, float] = {}
    for m in p.basket:
        for place, pts in plan.buyers(state, m).items():
            d = dist.get(place)
            if d is not None and sellable(state, m, d, p.timer):
                out[place] = out.get(place, 0.0) + pts
    return out


def best_sale(state: State, seat: int) -> tuple[float, str | None]:
    """``(worth, place)``: the buyer whose points less :data:`DISTANCE` a week is best."""
    dist = plan.weeks_from(state, seat)
    best = (float("-inf"), None)
    for place, pts in sale_targets(state, seat).items():
        worth = pts - DISTANCE * dist[place]
        if worth > best[0]:
            best = (worth, place)
    return best


def best_pick(state: State, seat: int, exclude_king: bool = False) -> tuple[float, str | None]:
    """``(worth, place)``: the mushroom whose round trip (walk there, pick for a week, carry
    it to a buyer) pays best, less :data:`DISTANCE` a week; a Montane King only if the seat
    has picked none (C.2)."""
    p = state.players[seat]
    dist = plan.weeks_from(state, seat)
    m_all = plan.means(state, seat)
    best = (float("-inf"), None)
    for place, growing in state.mushrooms.items():
        d = dist.get(place)
        if d is None:
            continue
        onward = dict(plan._weeks(place, *m_all))
        for m in set(growing):
            if m == KING and (p.kings or exclude_king):
                continue
            for b, pts in plan.buyers(state, m).items():
                e = onward.get(b)
                if e is None or not sellable(state, m, d + 1 + e, p.timer):
                    continue
                worth = pts - DISTANCE * (d + 1 + e)
                if worth > best[0]:
                    best = (worth, place)
    return best


def step_towards(state: State, seat: int, legal: list[dict[str, Any]], goal: str) -> dict[str, Any] | None:
    """The legal moving move that brings the gnome nearest ``goal`` in weeks (the move's own
    weeks plus the way on from where it ends, a card played counting a little), if it gets
    closer than now; else None. A move that takes no time never returns to a place this turn
    has passed (no endless climbing up and down)."""
    now = plan.weeks_from(state, seat).get(goal)
    if now is None or state.players[seat].place == goal:
        return None
    best = None
    best_cost = float("inf")
    for move in legal:
        dest = destination(state, seat, move)
        if dest is None:
            continue
        place, weeks, _ = dest
        if weeks == 0 and place in state.players[seat].route:
            continue  # a free step back to where this turn has been could loop for ever
        on = plan.weeks_from(state, seat, start=place).get(goal)
        if on is None or on >= now:
            continue
        cost = weeks + on + sum(NUGGET_COST if c == "nugget" else CARD_COST for c in move_cards(move))
        if cost < best_cost:
            best, best_cost = move, cost
    return best


def move_cards(move: dict[str, Any]) -> list[str]:
    """The travel cards a move plays."""
    if move["type"] == "travel":
        return [move["card"]]
    return list(move.get("cards", []))


def sell_move(state: State, seat: int, legal: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The best legal sale here (C.3): a Montane King first, then the best gem; but not a sale at
    the Sorcerer's single brown gem while a much better buyer is near."""
    sells = [m for m in legal if m["type"] == "sell"]
    if not sells:
        return None
    values = content().tiles.gem_values
    best = max(sells, key=lambda m: (m["mushroom"] == KING, values[m["gem"]], m["mushroom"]))
    return best


def pick_move(state: State, seat: int, legal: list[dict[str, Any]]) -> dict[str, Any] | None:
    """A legal pick here worth carrying (a buyer reachable before it rots, C.2, C.3, F), a Montane
    King first."""
    p = state.players[seat]
    picks = [m for m in legal if m["type"] == "pick"]
    if not picks or basket_room(p) < 1:
        return None
    dist = plan.weeks_from(state, seat)
    good = []
    for m in picks:
        colour = m["mushroom"]
        ok = any(sellable(state, colour, dist[b] + 1, p.timer) for b in plan.buyers(state, colour) if b in dist)
        if ok:
            good.append(m)
    if not good:
        return None
    return max(good, key=lambda m: (m["mushroom"] == KING, max(plan.buyers(state, m["mushroom"]).values(),
                                                                  default=0)))


def sleep_move(legal: list[dict[str, Any]]) -> dict[str, Any]:
    """The sleep that takes the most dream cards (D)."""
    sizes = {1: 1, 2: 2, 3: 3}
    return max(legal, key=lambda m: (sum(sizes[x] for x in m.get("piles", [])), -len(m.get("piles", []))))


def card_keep(card: str) -> float:
    """How much ``card`` is worth keeping (:data:`CARD_KEEP`; a treasure its value plus 10)."""
    if card in treasures():
        return 10.0 + treasures()[card].value
    return CARD_KEEP.get(travel_cards()[card].kind, 1.0)


def discard_move(legal: list[dict[str, Any]]) -> dict[str, Any]:
    """The discard that keeps the most worth (E)."""
    return min(legal, key=lambda m: sum(card_keep(c) for c in m["cards"]))


def by_type(legal: list[dict[str, Any]], t: str) -> list[dict[str, Any]]:
    """The legal moves of type ``t``."""
    return [m for m in legal if m["type"] == t]


def ordered(state: State, seat: int, legal: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``legal`` best first by the round trip's plain priorities (a search's prior, cheap): a sale
    by its gem, a pick worth carrying, a move by how near it brings the best goal (the buyer
    of what is carried, else the best mushroom), a scout, items and quests, ending the turn
    last while weeks are left; a sleep by the cards it takes, a discard by what it keeps."""
    if not legal:
        return []
    t = legal[0]["type"]
    if t == "sleep":
        best = sleep_move(legal)
        return [best] + [m for m in legal if m is not best]
    if t == "discard":
        return sorted(legal, key=lambda m: sum(card_keep(c) for c in m["cards"]))
    p = state.players[seat]
    values = content().tiles.gem_values
    pick = pick_move(state, seat, legal)
    goal = best_sale(state, seat)[1] if p.basket else None
    if goal is None and basket_room(p) > 0:
        goal = best_pick(state, seat)[1]
    now = plan.weeks_from(state, seat).get(goal) if goal else None

    def score(m: dict[str, Any]) -> float:
        kind = m["type"]
        if kind == "sell":
            return 100.0 + values[m["gem"]] + (50.0 if m["mushroom"] == KING else 0.0)
        if kind == "pick":
            return 60.0 if m is pick else 1.0
        dest = destination(state, seat, m)
        if dest is not None:
            if now is None:
                return -5.0
            place, weeks, _ = dest
            on = plan.weeks_from(state, seat, start=place).get(goal)
            if on is None:
                return -5.0
            cost = weeks + on + sum(NUGGET_COST if c == "nugget" else CARD_COST for c in move_cards(m))
            return (30.0 if on < now else 0.0) - cost
        if kind == "scout":
            return 10.0
        if kind == "end_turn":
            return 50.0 if p.timer >= 7 else -20.0
        if kind == "pond_pipes":
            return -10.0
        return 2.0

    scored = sorted(enumerate(legal), key=lambda im: (-score(im[1]), im[0]))
    return [m for _, m in scored]
