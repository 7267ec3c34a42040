"""What a position of A Game of Gnomes is worth to a seat, in the game's own points (rulebook
H scoring, C.2-C.7): the evaluation the greedy bot, ISMCTS and the expert share.

The value is the score the seat would have if the game ended now (gems, nuggets, golden
mushrooms, treasures, less an open quest's penalty, H) plus what is under way, each in
points less the weeks it still needs (the way-finder of :mod:`.plan`):

* every carried mushroom: the best sale still open to it (C.3: the best gem a buyer has
  left, a Montane King's golden mushroom 8 more, H), less :data:`WEIGHTS` ``distance`` a
  week to that buyer; nothing if it rots (F) or the game ends (H) first. Selling at a buyer
  therefore never loses value: the gem is in the score and the basket's room is worth the
  next mushroom (the old term, 0.5 x the distance to a Montane King whenever the basket had
  room, made every sale look like a loss);
* room in the basket: half the best next round trip (walk to a mushroom, pick it for a
  week, carry it to a buyer);
* an open quest (C.7): its penalty back, less the weeks its task still needs, when the task
  is within reach before week 52 (winter's ice counts for the lake);
* travel cards in hand up to the hand limit (each saves about a week of scouting, C.1,
  C.6, E), items that move or carry more (I), and near the end the mountain's bonus (H);
* the weeks left on the timing track this round (C.1 timer): ``week`` each while the seat's
  turn is still to come or under way, only ``sleep`` each once it has ended (what sleep
  turns them into, D), so ending a turn early is a loss and a move that gains a week of
  way is a gain.
"""

from __future__ import annotations

from typing import Any

WEIGHTS = {"distance": 0.6, "week": 0.5, "sleep": -0.3, "carry": 0.75, "next": 0.5, "card": 0.35, "item": 1.0,
           "quest": 0.9, "mountain": 0.8}
"""The weights of :func:`value`'s terms beyond the score (points a week of travel, a week
used this round, ...); a playing style overrides some."""
SCALE = 3.0
"""The value, above the pace, that makes a search leaf's reward about 0.73."""
PACE = 0.3
"""Points a calendar week a good game makes (about 16 by week 52, H), the reference of
:func:`rewards`."""
ISMCTS_DEPTH = 0
"""Random rollout moves after the search tree (a gnome's turn is a run of moves)."""


def item_worth(item: str, weeks_left: int) -> float:
    """What holding ``item`` is still worth in points with ``weeks_left`` weeks of the game to
    go (its use, not a rule): an item that moves a gnome for a week without a card (I) 0.15 a
    week left until winter takes it (G), a bigger basket 2 a mushroom more (C.2), a bigger
    rucksack 0.5 a card more (E), a Leaf Boat 1, a key 0.5, a starting item nothing beyond."""
    from services.rules.gnomes.state import STARTING_ITEMS, equipment

    if item in STARTING_ITEMS:
        return 0.0
    e = equipment()[item]
    share = min(1.0, weeks_left / 40)
    if e.mushrooms:
        return 2.0 * (e.mushrooms - 1) * share
    if e.hand:
        return 0.5 * (e.hand - 4) * share
    if e.route:
        return 0.5 * share
    if e.move == "water":
        return 1.0 * share
    if e.move:
        return 0.15 * max(0, weeks_left - 15)
    return 0.5 * share


def _sale(state: Any, seat: int, mushroom: str, dist: dict[str, int], w: dict[str, float]) -> float:
    """The best sale of a carried ``mushroom`` still open, less the weeks to its buyer."""
    from . import plan

    p = state.players[seat]
    deadline = min(plan.rot_week(state, mushroom), 52)
    best = 0.0
    for place, pts in plan.buyers(state, mushroom).items():
        d = dist.get(place)
        if d is None:
            continue
        if p.timer + d > 7 and state.calendar + p.timer + d >= deadline:
            continue
        best = max(best, pts - w["distance"] * d)
    return best


def _next_trip(state: Any, seat: int, dist: dict[str, int], w: dict[str, float]) -> float:
    """The best next round trip for an empty basket slot: walk to a mushroom, pick it (1
    week), carry it to a buyer; 0 if none pays."""
    from services.rules.gnomes.state import KING

    from . import plan

    p = state.players[seat]
    means = plan.means(state, seat)
    means = (means[0], frozenset(), *means[2:])
    best = 0.0
    for place, growing in state.mushrooms.items():
        d = dist.get(place)
        if d is None or not growing:
            continue
        for m in set(growing):
            if m == KING and p.kings:
                continue
            deadline = min(plan.rot_week(state, m), 52)
            onward = dict(plan._weeks(place, *means))
            for b, pts in plan.buyers(state, m).items():
                e = onward.get(b)
                if e is None:
                    continue
                total = d + 1 + e
                if p.timer + total > 7 and state.calendar + p.timer + total >= deadline:
                    continue
                best = max(best, pts - w["distance"] * total)
    return best


def _quest(state: Any, seat: int, dist: dict[str, int], w: dict[str, float]) -> float:
    """An open quest's penalty back, less the weeks its task needs, if it is within reach (C.7)."""
    from services.rules.gnomes import geo
    from services.rules.gnomes.content import content
    from services.rules.gnomes.state import quests

    from . import plan

    p = state.players[seat]
    if p.quest is None:
        return 0.0
    q = quests()[p.quest]
    left = 52 - state.calendar - p.timer
    task = q.task
    need: float | None = None
    if "visit" in task:
        houses = {geo.house_of_colour()[o.colour] for o in state.players if o.seat != seat}
        ds = [dist[s] for s, t in state.layout.items() if t in houses and s in dist]
        need = min(ds) if ds else None
    elif "reach" in task:
        need = dist.get(content().board.mountain.summit)
    elif "cross" in task:
        lake = content().board.lake
        if state.frozen or "leaf_boat" in p.equipment:
            ds = [dist[s] for s in lake if s in dist]
            need = min(ds) + 2 if ds else None
        elif state.calendar < content().calendar.freeze_at:
            ds = [dist[s] for s in lake if s in dist]
            need = (min(ds) + 2 + max(0, content().calendar.freeze_at - state.calendar)) if ds else None
    elif "sell" in task:
        at = {s for s, t in state.layout.items() if t in task["at"] and any(state.gems.get(t, {}).values())}
        ds = [dist[s] for s in at if s in dist]
        if ds and task["sell"] in p.basket:
            need = min(ds)
        elif ds and task["sell"] in {m for ms in state.mushrooms.values() for m in ms}:
            need = min(ds) + 4
        elif ds and task["sell"] == "red" and state.calendar < 25:
            need = min(ds) + 4 + (25 - state.calendar)
    if need is None or need > left:
        return 0.0
    return max(0.0, w["quest"] * q.penalty - w["distance"] * min(need, 12) * 0.5)


def value(state: Any, seat: int, weights: dict[str, float] | None = None) -> float:
    """How good ``state`` looks for ``seat`` (see the module docstring), in points.

    Args:
        state: a :class:`services.rules.gnomes.state.State` (a sample rebuilt from the seat's
            view is enough: of the hidden parts only the seat's own hand is read).
        seat: the seat.
        weights: overrides of :data:`WEIGHTS`.
    Returns:
        the final score if the game ended now plus what is under way (a float).
    Raises:
        IndexError: no such seat.
    """
    from services.rules.gnomes import geo, scoring
    from services.rules.gnomes.state import basket_room, hand, hand_limit, travel_cards

    from . import plan

    w = WEIGHTS if weights is None else {**WEIGHTS, **weights}
    p = state.players[seat]
    out = float(scoring.breakdown(state)[seat]["total"])
    if state.final is not None or state.ended is not None:
        return out
    dist = plan.weeks_from(state, seat, cards=False)
    out += w["carry"] * sum(_sale(state, seat, m, dist, w) for m in p.basket)
    if basket_room(p) > 0 and state.calendar + p.timer < 50:
        out += w["next"] * _next_trip(state, seat, dist, w)
    out += _quest(state, seat, dist, w)
    out += w["card"] * min(hand_limit(p), sum(1 for c in hand(state, seat) if c in travel_cards()))
    left = max(0, 52 - state.calendar - p.timer)
    out += w["item"] * sum(item_worth(e, left) for e in p.equipment)
    finished = state.stage != "turns" or seat in state.order[:state.turn]
    out += (w["sleep"] if finished else w["week"]) * max(0, 7 - p.timer)
    if state.calendar >= 45:
        top = max(geo.rank(o.place) for o in state.players)
        if top and geo.rank(p.place) == top:
            out += w["mountain"] * 3
    return out


def rewards(state: Any) -> list[float]:
    """Each seat's reward in [0, 1] for search: its own :func:`value` against the pace of a
    good game (:data:`PACE` points a calendar week), squashed with :data:`SCALE`.

    Each seat's own points, not its lead: points in A Game of Gnomes come from a seat's own
    sales (C.3), and a lead would reward a seat for the poor moves a small search tree tries
    for the others after it ends its turn (measured: with the lead as reward ISMCTS ended
    its turns at once)."""
    import math

    pace = PACE * state.calendar
    out = []
    for s in range(len(state.players)):
        x = (value(state, s) - pace) / SCALE
        out.append(1.0 / (1.0 + math.exp(-max(-50.0, min(50.0, x)))))
    return out


def prior(rules: Any, state: Any, seat: int, legal: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The prior of ISMCTS's progressive widening in A Game of Gnomes: ``legal`` best first by
    the round trip's plain priorities (:func:`.policy.ordered`: sell, pick, walk towards the
    goal, scout, end the turn last), so a small search looks deeper into sensible turns
    instead of random ones."""
    from . import policy

    return policy.ordered(state, seat, legal)


ISMCTS_WIDEN = prior
"""The widening prior :func:`services.bots.ismcts.search` uses for this game."""
