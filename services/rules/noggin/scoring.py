"""Score domain: points during play, the popularity track, the end of the game, final scoring.

Implements rulebook 3.5 (Nogbad's Crow moves one space toward the crown each season),
5.6 (Restock points), 7.2 (donation points), 9.0 (the game stops when the Dragon or the
Crow reaches the crown, with no Change of Season; final scoring of Gold, Nogs on player
boards and resources; ties share the win).

Out of scope for now, with their place marked below: Inventions, Year 2 buildings,
coins, Nogs on Saga cards.
"""

from __future__ import annotations

from typing import Any

from services.rules.core import Event

from .content import BASIC
from .market import RATE, RESTOCK_POINTS
from .state import State

GOLD_POINTS = 2
"""Each Gold cube scores 2 (9.0; 8 with the Goldsmith, a Year 2 building)."""


def restock_points(state: State, seat: int, amount: int) -> list[Event]:
    """Score 0, 2 or 4 points for restocking 4, 8 or 12 (5.6). ``PointsScored`` (or nothing)."""
    pts = RESTOCK_POINTS[amount]
    return [Event("PointsScored", {"seat": seat, "points": pts, "for": "restock"})] if pts else []


def donation_points(state: State, seat: int, given: dict[str, int]) -> list[Event]:
    """1 point per resource donated, 3 for a Wood and Food pair (7.2). ``PointsScored``."""
    n = sum(given.values())
    pts = 3 if given.get("wood") and n == 2 else n
    return [Event("PointsScored", {"seat": seat, "points": pts, "for": "donation"})]


def advance_crow(state: State) -> list[Event]:
    """Change of Season, first step (7.1): Nogbad's Crow one space toward the crown.

    ``CrowAdvanced`` with ``to`` (spaces left); if it reaches the crown, ``GameEnded``
    (9.0, no Change of Season follows).
    """
    to = max(0, state.crow - 1)
    events = [Event("CrowAdvanced", {"to": to})]
    if to == 0:
        events.append(Event("GameEnded", {"reason": "Nogbad's Crow reached the crown", "crown": "nogbad"}))
    return events


def final_breakdown(state: State) -> list[dict[str, int]]:
    """Per seat: in-game points, Gold (2 each), Nogs on the player board (1 each; Nogs on
    action spaces 0) and resources (1 per 2, the exchange rate) (9.0). Gold counts only
    as Gold (house rule)."""
    out = []
    for p in state.players:
        basic = sum(p.stock[r] for r in BASIC)
        row = {"play": p.score, "gold": GOLD_POINTS * p.stock["gold"], "nogs": p.mountains,
               "resources": basic // RATE}
        # Inventions, Year 2 buildings, coins and Nogs on unfinished Sagas join here.
        row["total"] = sum(row.values())
        out.append(row)
    return out


def final_scoring(state: State) -> list[Event]:
    """Final scoring (9.0). ``FinalScored`` with ``scores``, ``breakdown``, ``winners`` (ties share)."""
    breakdown = final_breakdown(state)
    scores = [b["total"] for b in breakdown]
    best = max(scores)
    winners = [i for i, s in enumerate(scores) if s == best]
    return [Event("FinalScored", {"scores": scores, "breakdown": breakdown, "winners": winners})]


def outcome(state: State) -> dict[str, Any] | None:
    """``None`` until final scoring; then ``{"reason", "crown", "scores", "winners", "breakdown"}``."""
    if state.final is None or state.ended is None:
        return None
    return {"reason": state.ended["reason"], "crown": state.ended["crown"],
            "scores": list(state.final["scores"]), "winners": list(state.final["winners"]),
            "breakdown": [dict(b) for b in state.final["breakdown"]]}
