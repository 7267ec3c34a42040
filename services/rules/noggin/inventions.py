"""Inventions (rulebook 6.5, appendix): contributing on Market Day, and who takes the card.

Board domain. Every condition met carries a Nog of the contributing seat (unlike Sagas);
Olaf is recruited with 1 Food from the Castle and stays on the card until it is done
(the Inventor's Workshop lets its owner meet Olaf's condition without him); Olaf's own
ability lets one resource be swapped for another; the Blacksmith spares its owner up
to 2 Wood or Stone per card. When the last condition is met the resources go to the Nog
Market, Olaf back to the Castle, the seat with most Nogs (ties: whose first Nog came
first) takes the card and leaves one Nog on it for the game, and every other seat with
Nogs there scores 4 per Nog and takes them back.
"""

from __future__ import annotations

from typing import Any

from services.rules.core import Event, IllegalMove

from .board import spare_nogs
from .payments import pay_for
from .state import CASTLE, Invention, State

LOSER_POINTS = 4
"""Points per Nog for a seat that helped an Invention but did not take it (6.5)."""
BLACKSMITH_FREE = 2
"""Wood or Stone conditions per Invention the Blacksmith's owner meets with a Nog alone (appendix)."""


def _free_used(inv: Invention, seat: int) -> int:
    return sum(1 for m in inv.met if m is not None and m["seat"] == seat and m.get("free"))


def condition_slots(state: State, seat: int, slot: int, condition: int) -> list[str]:
    """What one condition costs: 1 Food for Olaf, else the resource; ``any`` basic resource
    with Olaf's swap active (6.1)."""
    inv = state.inventions[slot]
    assert inv is not None
    need = inv.needs[condition]
    if need == "olaf":
        return ["food"]
    a = state.action
    if a is not None and a.olaf:
        return ["any"]
    return [need]


def blacksmith_free(state: State, seat: int, slot: int, condition: int) -> bool:
    """True if the Blacksmith lets the seat meet this Wood or Stone condition with no cube."""
    inv = state.inventions[slot]
    assert inv is not None
    return ("blacksmith" in state.players[seat].buildings and inv.needs[condition] in ("wood", "stone")
            and _free_used(inv, seat) < BLACKSMITH_FREE)


def check_contribute(state: State, seat: int, slot: int, condition: int, pay: list[str] | None,
                     market_day: bool = True) -> None:
    """Raise unless the seat may meet condition ``condition`` of Invention ``slot`` now (6.5)."""
    if not 0 <= slot < len(state.inventions) or state.inventions[slot] is None:
        raise IllegalMove(f"there is no Invention card in display slot {slot} (rulebook 6.5)")
    inv = state.inventions[slot]
    if not 0 <= condition < len(inv.needs) or inv.met[condition] is not None:
        raise IllegalMove(f"condition {condition} of that Invention is not open (rulebook 6.5)")
    p = state.players[seat]
    if spare_nogs(state, seat, market_day) < 1:
        raise IllegalMove("every resource on an Invention needs a Nog from your Mountains space (rulebook 6.5)")
    need = inv.needs[condition]
    if need == "olaf" and state.characters["olaf"] != CASTLE and "inventors_workshop" not in p.buildings:
        raise IllegalMove("Olaf must be in Noggin's Castle to be recruited (rulebook 6.5)")
    if pay is not None and not pay and blacksmith_free(state, seat, slot, condition):
        return
    slots = condition_slots(state, seat, slot, condition)
    pay_for(p, slots, pay, f"that condition ({slots[0]})")


def winner(inv: Invention, players: int) -> tuple[int, list[int]]:
    """``(seat taking the card, Nogs per seat)``: most Nogs, ties to the earliest first Nog (6.5)."""
    nogs = [0] * players
    order: list[int] = []
    for m in inv.met:
        assert m is not None
        nogs[m["seat"]] += 1
    for seat in inv_order(inv):
        if seat not in order:
            order.append(seat)
    best = max(nogs)
    tied = [s for s in order if nogs[s] == best]
    return tied[0], nogs


def inv_order(inv: Invention) -> list[int]:
    """Seats in the order their first Nog went on the card (``first`` leads)."""
    seats = [m["seat"] for m in sorted((m for m in inv.met if m is not None), key=lambda m: m["at"])]
    return seats


def contribute(state: State, seat: int, slot: int, condition: int, pay: list[str] | None,
               market_day: bool = True, boat: bool = False) -> list[Event]:
    """Meet one condition with a Nog (6.5); on the last one, complete the Invention.
    ``InventionConditionMet``; then ``InventionCompleted`` and ``PointsScored`` for the others."""
    inv = state.inventions[slot]
    assert inv is not None
    p = state.players[seat]
    need = inv.needs[condition]
    free = pay is not None and not pay and need != "olaf" and blacksmith_free(state, seat, slot, condition)
    if free:
        cubes: list[str] = []
    else:
        slots = condition_slots(state, seat, slot, condition)
        cubes = sorted(pay) if boat and pay is not None else pay_for(p, slots, pay, "that condition")
    at = sum(1 for m in inv.met if m is not None)
    data: dict[str, Any] = {"seat": seat, "invention": slot, "condition": condition, "need": need,
                            "paid": cubes[0] if cubes else None, "at": at}
    if free:
        data["free"] = True
        data["building"] = "blacksmith"
    if need == "olaf" and state.characters["olaf"] != CASTLE and not boat:
        data["character"] = False  # Inventor's Workshop: Olaf stays where he is
        data["building"] = "inventors_workshop"
    a = state.action
    if need != "olaf" and a is not None and a.olaf and cubes and cubes[0] != need and cubes[0] not in ("gold", "coin"):
        data["olaf"] = True
    if not market_day:
        data["market_day"] = False
    events = [Event("InventionConditionMet", data)]
    met = list(inv.met)
    met[condition] = {"seat": seat, "paid": data["paid"], "at": at}
    if all(m is not None for m in met):
        done = Invention(inv.card, inv.needs, met, inv.first if inv.first is not None else seat)
        win, nogs = winner(done, len(state.players))
        events.append(Event("InventionCompleted", {"invention": slot, "card": inv.card, "winner": win, "nogs": nogs,
                                                   "forge": inv.card == "fire_machine"}))
        for s, k in enumerate(nogs):
            if s != win and k:
                events.append(Event("PointsScored", {"seat": s, "points": LOSER_POINTS * k, "for": "invention"}))
    return events
