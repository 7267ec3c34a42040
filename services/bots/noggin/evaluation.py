"""What a Noggin position is worth to a seat (rulebook 9.0, 6.4, 6.5): the evaluation that the
greedy bot, ISMCTS and the expert share."""

from __future__ import annotations

from typing import Any

WEIGHTS = {
    "food": 0.5, "material": 1.5, "cart": 1.0, "placed": 1.0, "building": 8.0, "year2": 4.0, "transport": 4.0,
    "tile_nog": 1.0, "locked": 1.0, "card_per_season": 2.0, "card": 3.0, "saga_nog": 2.5, "saga_condition": 1.5,
    "saga_card": 3.0, "invention_nog": 3.0, "dragon": 12.0, "nogbad_loss": 50.0, "draw": 1.0,
}
"""How much :func:`noggin_value` weighs each thing beyond the final score (its defaults)."""


def value(state: Any, seat: int, weights: dict[str, float] | None = None) -> float:
    """How good ``state`` looks for ``seat`` in Noggin (rulebook 9.0 and 6.4-6.5): the final
    score if the game ended now, plus what is under way (resources in stock and carts,
    buildings, face-up Counting House cards still to score, Nogs on Sagas and Inventions,
    Nogs out on actions that will come home), plus Noggin's progress toward the crown
    (every player loses if Nogbad takes it), minus a great deal if he has lost it.
    ``weights`` override :data:`WEIGHTS`."""
    from services.rules.noggin import content
    from services.rules.noggin import sagas as sagas_mod
    from services.rules.noggin.scoring import final_breakdown

    w = WEIGHTS if weights is None else {**WEIGHTS, **weights}
    p = state.players[seat]
    value = float(final_breakdown(state)[seat]["total"])
    value += w["placed"] * sum(p.placed.values())
    value += w["food"] * sum(p.stock[r] for r in ("fish", "harvest"))
    value += w["material"] * sum(p.stock[r] for r in ("stone", "wood"))
    if state.action is not None and state.action.seat == seat:
        value += w["cart"] * sum(state.action.cart.values())
    year1 = content.year1_ids()
    value += w["building"] * len(p.buildings) + w["year2"] * sum(1 for b in p.buildings if b not in year1)
    value += w["transport"] * len(p.transports) + w["tile_nog"] * sum(p.tile_nogs.values())
    value += w["locked"] * sum(sum(held.values()) for held in p.locked.values())
    # a face-up Counting House card scores 2 at every Change of Season still to come, and acts
    seasons_left = max(0, 8 - state.season)
    value += sum(w["card_per_season"] * seasons_left + w["card"] for c in p.counting_house if c["up"])
    for saga in state.sagas:
        if saga is None:
            continue
        own = sum(c["nogs"][seat] for c in saga.done) + (saga.current.nogs[seat] if saga.current else 0)
        value += w["saga_nog"] * own
        if saga.current is not None:
            value += w["saga_condition"] * sum(1 for m in saga.current.met if m is not None)
        value += w["saga_card"] * len(saga.done)
    for inv in state.inventions:
        if inv is not None:
            value += w["invention_nog"] * sum(1 for m in inv.met if m is not None and m["seat"] == seat)
    value += w["dragon"] * (len(state.players) + 1 - state.dragon)
    if state.ended is not None and state.ended.get("crown") == "nogbad":
        value -= w["nogbad_loss"]
    if sagas_mod.needs_draw(state) is not None:
        value += w["draw"]
    return value


SCALE = 8.0
"""The value difference that makes a search leaf's reward about 0.73."""
