"""What a position of A Game of Gnomes is worth to a seat (rulebook H, C): the evaluation that
the greedy bot, ISMCTS and the expert share."""

from __future__ import annotations

from typing import Any

WEIGHTS = {"mushroom": 2.0, "king": 9.0, "card": 0.4, "item": 1.0, "distance": 1.0, "week": 0.25,
                  "mountain": 1.0}
"""How much :func:`gnomes_value` weighs each thing beyond the final score (its defaults)."""


def item_worth(item: str) -> float:
    """What an item is worth to the greedy bot at the start of a game, in points (its use, not
    a rule): a moving item 3, a bigger basket 3 per extra mushroom, a rucksack 1.5 per
    extra card, a map 2.5, a key 1, a starting item nothing."""
    from services.rules.gnomes.state import STARTING_ITEMS, equipment

    if item in STARTING_ITEMS:
        return 0.0
    e = equipment()[item]
    if e.mushrooms:
        return 3.0 * (e.mushrooms - 1)
    if e.hand:
        return 1.5 * (e.hand - 4)
    if e.route:
        return 2.5
    if e.move:
        return 3.0
    return 1.0


def value(state: Any, seat: int, weights: dict[str, float] | None = None) -> float:
    """How good ``state`` looks for ``seat`` in A Game of Gnomes (rulebook H and C): the final
    score if the game ended now, plus carried mushrooms (a Montane King brings the golden
    mushroom), cards in hand and items, less the steps to the nearest buyer of what it
    carries (or to a mushroom while the basket has room) and the weeks already used this
    round, plus the mountain's level as the end nears. ``weights`` override
    :data:`WEIGHTS`."""
    from services.rules.gnomes import scoring
    from services.rules.gnomes.bot_hints import reach, steps_to_goal
    from services.rules.gnomes.state import basket_room, equipment

    w = WEIGHTS if weights is None else {**WEIGHTS, **weights}
    p = state.players[seat]
    value = float(scoring.breakdown(state)[seat]["total"])
    value += sum(w["king"] if m == "king" else w["mushroom"] for m in p.basket)
    value += w["card"] * p.hand_size
    left = max(0.2, (52 - state.calendar) / 52)
    value += w["item"] * left * sum(item_worth(e) for e in p.equipment)
    if p.kings == 0:  # a map up to a Montane King still growing is worth the golden mushroom's chance
        kings = {pl for pl, ms in state.mushrooms.items() if "king" in ms}
        if kings and basket_room(p) > 0:
            near = [d for pl, d in reach(state, seat).items() if pl in kings]
            value -= w["distance"] * 0.5 * (min(near) if near else 12)
        value += w["item"] * left * sum(3.0 for e in p.equipment
                                        if equipment()[e].route and kings & set(equipment()[e].route or ()))
    value -= w["distance"] * steps_to_goal(state, seat)
    value -= w["week"] * p.timer
    if state.calendar >= 40:
        value += w["mountain"] * scoring.geo.rank(p.place)
    return value


SCALE = 3.0
"""The value difference that makes a search leaf's reward about 0.73."""
