"""Score domain: points during play, the popularity track, the end of the game, final scoring.

Implements rulebook 3.5 (Nogbad's Crow moves one space toward the crown each season),
5.6 (Restock points), 7.1 (2 points per face-up Counting House card each season), 7.2
(donation points), the appendix (EcoNogology's 3 in Winter), and 9.0: the game stops
when the Dragon or the Crow reaches the crown, with no Change of Season; final scoring
of Inventions (40/30/20/10, ties share), Gold (2, or 8 with the Goldsmith), Year 2
buildings, coins (only after the Money Saga, at the exchange rate), Nogs on player
boards and on unfinished Sagas, and resources at the exchange rate. If Noggin keeps the
crown the highest score is elected to the Council of Elders (ties share); if Nogbad
takes it every player has lost and the highest score is only Leader in Exile. Under
Friend or Foe a hidden Nogbad ally wins only if Nogbad takes the crown.
"""

from __future__ import annotations

from typing import Any

from services.rules.core import Event

from . import content
from .board import has_artefact
from .content import BASIC
from .market import rate, restock_points as points_for_restock
from .state import State, option, season_name

GOLD_POINTS = 2
"""Each Gold cube scores 2 (9.0)."""
GOLDSMITH_GOLD_POINTS = 8
"""... or 8 with the Goldsmith (appendix)."""
INVENTION_PLACES = (40, 30, 20, 10)
"""Invention points by rank (9.0)."""
COUNTING_HOUSE_SEASON_POINTS = 2
"""Each face-up Counting House card at every Change of Season (6.3 A, 7.1)."""
ECONOGOLOGY_POINTS = 3
"""EcoNogology scores 3 in Winter (appendix)."""
HILLSIDE_ZONE_POINTS = 3
"""Hillside Farm: 3 per zone of each field with no building, 2 zones per field (appendix)."""
KNUTS_SEAT_POINTS = 4
MERCHANT_POINTS = 4
TOWN_WALLS_POINTS = 3


def restock_points(state: State, seat: int, amount: int) -> list[Event]:
    """Score 0, 2 or 4 points for restocking 4, 8 or 12 (5.6). ``PointsScored`` (or nothing)."""
    pts = points_for_restock(amount)
    return [Event("PointsScored", {"seat": seat, "points": pts, "for": "restock"})] if pts else []


def donation_points(state: State, seat: int, given: dict[str, int]) -> list[Event]:
    """1 point per resource donated, 3 for a Wood and Food pair (7.2). ``PointsScored``."""
    n = sum(given.values())
    pts = 3 if given.get("wood") and n == 2 else n
    return [Event("PointsScored", {"seat": seat, "points": pts, "for": "donation"})]


def season_points(state: State) -> list[Event]:
    """At the Change of Season (``state.season`` is the new one): 2 per face-up Counting House
    card (6.3 A, 7.1); 3 for EcoNogology when Winter begins (appendix)."""
    events = []
    for p in state.players:
        up = sum(1 for c in p.counting_house if c["up"])
        if up:
            events.append(Event("PointsScored", {"seat": p.seat, "points": COUNTING_HOUSE_SEASON_POINTS * up,
                                                 "for": "counting house"}))
        if "econogology" in p.inventions and season_name(state.season) == "winter":
            events.append(Event("PointsScored", {"seat": p.seat, "points": ECONOGOLOGY_POINTS, "for": "econogology"}))
    return events


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


def invention_points(counts: list[int]) -> list[int]:
    """40/30/20/10 by number of Inventions; tied seats share the places they cover; no
    Invention, no points (9.0)."""
    out = [0] * len(counts)
    ranked = sorted({c for c in counts if c > 0}, reverse=True)
    place = 0
    for c in ranked:
        seats = [s for s, k in enumerate(counts) if k == c]
        pts = sum(INVENTION_PLACES[place:place + len(seats)])
        for s in seats:
            out[s] = pts // len(seats)
        place += len(seats)
    return out


def year2_points(state: State, seat: int) -> int:
    """End-of-game points of the seat's Year 2 buildings (appendix): Hillside Farm, Knut's
    Seat, Merchant, the gardens and trough once full, Town Walls."""
    p = state.players[seat]
    pts = 0
    b = p.buildings
    if "hillside_farm" in b:
        pts += HILLSIDE_ZONE_POINTS * 2 * sum(1 for f in ("field0", "field1") if f not in b.values())
    if "knuts_seat" in b:
        pts += KNUTS_SEAT_POINTS * p.tile_nogs.get("knuts_seat", 0)
    if "merchant" in b:
        pts += MERCHANT_POINTS * len(p.transports)
    for card in ("nookas_kitchen_garden", "omruds_ornamental_garden", "royal_horse_trough"):
        info = content.building_index()[card]
        if card in b and all(p.locked.get(card, {}).get(r, 0) >= k for r, k in info.holds.items()):
            pts += info.points
    if "town_walls" in b:
        tiles = sum(1 for x in b if x != "new_land")
        if "new_land" in b and "new_land" in b.values():
            tiles += 1  # an empty New Land scores nothing (appendix)
        pts += TOWN_WALLS_POINTS * tiles
    return pts


def saga_nogs(state: State, seat: int) -> int:
    """The seat's Nogs on unfinished Sagas, 1 point each (9.0)."""
    n = 0
    for saga in state.sagas:
        if saga is None:
            continue
        n += sum(c["nogs"][seat] for c in saga.done)
        if saga.current is not None:
            n += saga.current.nogs[seat]
    return n


def final_breakdown(state: State) -> list[dict[str, int]]:
    """Per seat (9.0, house rule for ambiguity 7): in-game points, Inventions, Gold, Year 2
    buildings, coins (only after the Money Saga), Nogs on the Mountains space and on
    unfinished Sagas (Nogs on action spaces, cards and tiles score only through their
    own rules), and basic resources at the exchange rate. Gold and coins count only as
    themselves."""
    r = rate(state)
    inv = invention_points([len(p.inventions) for p in state.players])
    out = []
    for p in state.players:
        basic = sum(p.stock[x] for x in BASIC)
        gold = (GOLDSMITH_GOLD_POINTS if "goldsmith" in p.buildings else GOLD_POINTS) * p.stock["gold"]
        row = {"play": p.score, "inventions": inv[p.seat], "gold": gold, "buildings": year2_points(state, p.seat),
               "coins": r * p.stock["coin"] if state.coins else 0,
               "nogs": p.mountains + saga_nogs(state, p.seat), "resources": basic // r}
        row["total"] = sum(row.values())
        out.append(row)
    return out


def _best(scores: list[int], seats: list[int]) -> list[int]:
    if not seats:
        return []
    top = max(scores[s] for s in seats)
    return [s for s in seats if scores[s] == top]


def final_scoring(state: State) -> list[Event]:
    """Final scoring (9.0). ``FinalScored`` with ``scores``, ``breakdown``, ``winners``,
    ``winning_side`` and the title of the top scorers (``council_of_elders`` or
    ``leader_in_exile``), and the Friend or Foe cards revealed."""
    breakdown = final_breakdown(state)
    scores = [b["total"] for b in breakdown]
    everyone = list(range(len(scores)))
    crown = state.ended["crown"] if state.ended else "nogbad"
    data: dict[str, Any] = {"scores": scores, "breakdown": breakdown, "winning_side": crown}
    if option(state, "friend_or_foe"):
        loyalty = list(state.secret.get("loyalty", []))
        foes = [s for s in everyone if loyalty[s] == "nogbad" and not state.players[s].unmasked]
        friends = [s for s in everyone if s not in foes]
        data["loyalty"] = loyalty
        data["winners"] = foes if crown == "nogbad" else _best(scores, friends)
    else:
        data["winners"] = [] if crown == "nogbad" else _best(scores, everyone)
    if crown == "noggin":
        data["council_of_elders"] = list(data["winners"])
    else:
        data["leader_in_exile"] = _best(scores, everyone)
    return [Event("FinalScored", data)]


def outcome(state: State) -> dict[str, Any] | None:
    """``None`` until final scoring; then ``{"reason", "crown", "winning_side", "winners",
    "scores", "breakdown"}`` plus ``council_of_elders`` (Noggin kept the crown) or
    ``leader_in_exile`` (Nogbad took it; ``winners`` is then empty: everyone lost) and,
    under Friend or Foe, every seat's ``loyalty`` (rulebook 9.0, variants)."""
    if state.final is None or state.ended is None:
        return None
    out = {"reason": state.ended["reason"], "crown": state.ended["crown"]}
    out.update({k: (list(v) if isinstance(v, list) else v) for k, v in state.final.items()})
    return out


__all__ = ["advance_crow", "donation_points", "final_breakdown", "final_scoring", "has_artefact",
           "invention_points", "outcome", "restock_points", "season_points", "year2_points"]
