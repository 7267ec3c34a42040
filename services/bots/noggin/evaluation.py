"""What a Noggin position is worth to a seat (rulebook 9.0, 6.4, 6.5): the evaluation that the
greedy bot, ISMCTS and the expert share.

The rulebook's end (noggin-the-nog-rulebook.txt 9.0) decides its shape: if Nogbad takes the
crown every player has lost, and the "Leader in Exile" has nothing to be proud of, so a
Nogbad ending is worth :data:`NOGBAD_ENDING` to every seat, below any ending where Noggin
keeps the crown; the Dragon's distance to the crown (6.4 "Completing a Saga") is part of
every seat's value, and of every seat's search reward (:func:`rewards`), so progress that
all seats share no longer cancels out. Under Friend or Foe (variants) a seat whose card is
Nogbad's wins with him, and for that seat both are reversed.
"""

from __future__ import annotations

from typing import Any

WEIGHTS = {
    "food": 0.5, "material": 1.5, "cart": 1.0, "placed": 1.0, "building": 8.0, "year2": 4.0, "transport": 4.0,
    "tile_nog": 1.0, "locked": 1.0, "card_per_season": 2.0, "card": 3.0, "saga_nog": 2.5, "saga_condition": 1.5,
    "saga_card": 3.0, "saga_stock": 0.0, "progress": 0.0, "invention_nog": 3.0, "dragon": 12.0, "nogbad_loss": 1000.0, "draw": 1.0,
}
"""How much :func:`noggin_value` weighs each thing beyond the final score (its defaults)."""


def value(state: Any, seat: int, weights: dict[str, float] | None = None) -> float:
    """How good ``state`` looks for ``seat`` in Noggin (rulebook 9.0 and 6.4-6.5): the final
    score if the game ended now, plus what is under way (resources in stock and carts,
    buildings, face-up Counting House cards still to score, Nogs on Sagas and Inventions,
    Nogs out on actions that will come home), plus Noggin's progress toward the crown
    (every player loses if Nogbad takes it). A game Nogbad won is worth
    ``-weights["nogbad_loss"]`` (:data:`NOGBAD_ENDING` by default) to every seat, whatever its
    score; under Friend or Foe a Nogbad seat's value is reversed (:func:`is_foe`).

    Args:
        state: a Noggin :class:`services.rules.noggin.state.State` (a true or sampled one).
        seat: 0-based seat.
        weights: override :data:`WEIGHTS`.
    Raises:
        IndexError: ``seat`` is not a seat of ``state``.
    """
    from services.rules.noggin import content
    from services.rules.noggin import sagas as sagas_mod
    from services.rules.noggin.scoring import final_breakdown

    w = WEIGHTS if weights is None else {**WEIGHTS, **weights}
    p = state.players[seat]
    side = 1.0 if not is_foe(state, seat) else -1.0
    if state.ended is not None and state.ended.get("crown") == "nogbad":
        if side > 0:
            return -w["nogbad_loss"]
        return w["nogbad_loss"] + float(final_breakdown(state)[seat]["total"])
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
    if w["saga_stock"]:
        value += w["saga_stock"] * saga_stock(state, seat)
    if w["progress"]:
        value += side * w["progress"] * progress(state)
    for inv in state.inventions:
        if inv is not None:
            value += w["invention_nog"] * sum(1 for m in inv.met if m is not None and m["seat"] == seat)
    value += side * w["dragon"] * (len(state.players) + 1 - state.dragon)
    if side < 0 and state.ended is not None and state.ended.get("crown") == "noggin":
        value -= w["nogbad_loss"]
    if sagas_mod.needs_draw(state) is not None:
        value += w["draw"]
    return value


def saga_stock(state: Any, seat: int) -> int:
    """How many of the cubes in ``seat``'s stock an open condition of a Reserve card on a Saga
    asks for (6.4: Stone, Wood, Fish, Harvest by name, Food as Fish or Harvest), each condition
    counted once."""
    need: dict[str, int] = {}
    for saga in state.sagas:
        cur = saga.current if saga is not None else None
        if cur is None:
            continue
        for n, m in zip(cur.needs, cur.met):
            if m is None and n in ("stone", "wood", "fish", "harvest", "food"):
                need[n] = need.get(n, 0) + 1
    stock = state.players[seat].stock
    left = {r: stock[r] for r in ("stone", "wood", "fish", "harvest")}
    held = 0
    for r in ("stone", "wood", "fish", "harvest"):
        k = min(left[r], need.get(r, 0))
        held += k
        left[r] -= k
    return held + min(need.get("food", 0), left["fish"] + left["harvest"])


GREEDY_WEIGHTS = {"progress": 120.0, "saga_stock": 4.0, "saga_nog": 8.0}
"""The greedy bot's weights over :data:`WEIGHTS` (ISMCTS and the expert keep the defaults). A
one-move look-ahead sees no Saga finished, so it needs a reason on every step: Noggin's
:func:`progress` toward the crown (which, unlike ``saga_condition`` and ``saga_card``, does
not fall when a Reserve card or a Saga is completed, 6.4), the cubes it holds that open Saga
conditions ask for (:func:`saga_stock`), and a Nog on a Saga worth more than the cube it
costs. Measured (greedy against random, 2 seats, 10 games, seeds ``gr``): the defaults crown
Noggin 2/10 (greedy wins 2); ``progress`` 60 alone 5/10; these weights 8/10 (greedy wins 8).
On the 30-game ladder greedy beat random 13-0 (7/30 before), rating 19.7±2.5 against 15.3±2.5:
still not a full sigma apart. Without its 10 % random moves: no better (15/30 against 14/30)."""

SCALE = 8.0
"""The value difference that makes a search leaf's reward about 0.73."""
NOGBAD_ENDING = -WEIGHTS["nogbad_loss"]
"""The value of a game Nogbad won, to every seat not on his side (9.0)."""
SHARED = 0.5
"""The share of a leaf's reward that is the Dragon's progress toward the crown, which every
seat shares (:func:`progress`); the rest is the seat's lead (:func:`rewards`)."""


PARTIAL = 0.5
"""What a whole Saga's worth of Reserve cards done counts toward the Dragon's spaces (a Saga
moves it at least 1 space, 6.4 step 1)."""


def is_foe(state: Any, seat: int) -> bool:
    """Whether ``seat`` plays on Nogbad's side: its Friend or Foe card is Nogbad's (variants;
    ``state.secret["loyalty"]``, the seat's own card or a sampled one for the others)."""
    loyalty = state.secret.get("loyalty") or []
    return 0 <= seat < len(loyalty) and loyalty[seat] == "nogbad"


def progress(state: Any) -> float:
    """Noggin's progress toward keeping the crown, in [0, 1], the same for every seat: the
    Dragon's spaces covered out of those it started from (set-up I, 6.4), each Saga's
    Reserve cards done and conditions met counting as :data:`PARTIAL` of a space per whole
    Saga. 1 when Noggin kept the crown, 0 when Nogbad took it (9.0)."""
    if state.ended is not None:
        return 1.0 if state.ended.get("crown") == "noggin" else 0.0
    start = max(1, len(state.players))
    partial = 0.0
    for saga in state.sagas:
        if saga is None:
            continue
        cur = saga.current
        met = 0.0 if cur is None or not cur.needs else sum(1 for m in cur.met if m is not None) / len(cur.needs)
        partial += (len(saga.done) + met) / max(1, saga.needed)
    covered = max(0.0, start - state.dragon + PARTIAL * partial)
    return min(1.0, covered / start)


def rewards(state: Any) -> list[float]:
    """Each seat's reward in [0, 1] at a search leaf that is not the end:
    ``SHARED * progress + (1 - SHARED) * lead``, where ``progress`` is :func:`progress`
    (``1 - progress`` for a Nogbad seat under Friend or Foe) and ``lead`` the seat's
    :func:`value` over the best other seat's, squashed by :data:`SCALE`
    (:func:`services.bots.evaluation.relative_rewards`). The end itself is scored by
    :func:`services.bots.evaluation.rewards` (winners share 1, nobody wins when Nogbad does).
    """
    from services.bots.evaluation import relative_rewards

    n = len(state.players)
    lead = relative_rewards([value(state, s) for s in range(n)], SCALE)
    shared = progress(state)
    return [SHARED * ((1.0 - shared) if is_foe(state, s) else shared) + (1.0 - SHARED) * lead[s] for s in range(n)]
