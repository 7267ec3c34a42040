"""Market domain: the Nog Market supply, Market Day trading, Restock and Winter donations.

Implements rulebook 6.0 and 6.6 (trading 2 resources for 1 at the 2:1 rate, any number
of trades for one Step; Gold may be spent in place of any resource, 5.1), 5.6 (Restock
trees or fish: exactly 4, 8 or 12 cubes from the Nog Market) and 7.2 (donations of Wood
and Food in Winter). Spent cubes, Gold included, return to the Nog Market (3.7), where
any resource present may be taken in trade (6.6).

The other Market Day options of 6.0 (characters, Nogbad, Counting House, Sagas,
Inventions) are not part of the core game yet; they will be further ``market_day``
move shapes next to ``trade``.
"""

from __future__ import annotations

from services.rules.core import Event, IllegalMove

from . import content
from .board import fits
from .content import BASIC
from .state import State, season_name

RATE = 2
"""The Nog Market's exchange rate (6.6); 3:1 only with Nogbad on the market, out of scope."""
RESTOCK_AMOUNTS = (4, 8, 12)
RESTOCK_POINTS = {4: 0, 8: 2, 12: 4}
"""Points for restocking 4, 8 or 12 cubes (rulebook 5.6)."""


def check_trade(state: State, seat: int, give: list[str], take: str) -> None:
    """Trade 2 resources (Gold included) for 1 resource present at the market (6.6); Gold
    taken needs no Farm space (3.7)."""
    p = state.players[seat]
    if len(give) != RATE:
        raise IllegalMove(f"the Nog Market takes {RATE} resources for 1 (rulebook 6.6)")
    if take in give:
        raise IllegalMove("taking back a resource you give is no trade")
    for r in set(give):
        if p.stock[r] < give.count(r):
            raise IllegalMove(f"you do not have {give.count(r)} {r} to give (rulebook 6.6)")
    if state.market[take] < 1:
        raise IllegalMove(f"there is no {take} at the Nog Market (rulebook 6.6)")
    after = {r: -give.count(r) for r in BASIC}
    if take in after:
        after[take] += 1
    if not fits(p, after):
        raise IllegalMove(f"your Farm has no room for 1 more {take} (rulebook 3.7, no waste)")


def trade(state: State, seat: int, give: list[str], take: str) -> list[Event]:
    """One 2:1 trade at the Nog Market (6.6). ``Traded`` with ``seat, give, take``."""
    return [Event("Traded", {"seat": seat, "give": sorted(give), "take": take})]


def forest_places(state: State, trees: int) -> list[int] | None:
    """Forest zones receiving ``trees`` cubes, one per clearing in trail order from the
    Woodcutter's clearing, skipping full ones (5.6); ``None`` if the forest has no room."""
    forest = content.load().forest
    hexes = {z.id: z.hexes for z in forest.zones}
    level = list(state.forest)
    if trees > sum(hexes[z] - level[z] for z in hexes):
        return None
    n = len(forest.clearings)
    i = max(state.woodcutter, 0)
    out = []
    while len(out) < trees:
        zone = forest.clearings[i % n].zone
        if level[zone] < hexes[zone]:
            level[zone] += 1
            out.append(zone)
        i += 1
    return out


def check_restock(state: State, seat: int, kind: str, amount: int, orchard: int) -> None:
    """Restock exactly 4, 8 or 12 trees or fish from the Nog Market (5.6)."""
    p = state.players[seat]
    if amount not in RESTOCK_AMOUNTS:
        raise IllegalMove("restock exactly 4, 8 or 12 (rulebook 5.6)")
    # the move's shape first, then the player's Orchard, then what the market and forest hold
    if kind == "fish" and orchard:
        raise IllegalMove("fish are restocked in the fjord, not the Orchard (rulebook 5.6)")
    if kind == "trees":
        cap = content.load().setup.orchard_trees
        if orchard > 0 and "orchard" in p.buildings.values():
            raise IllegalMove("your Orchard has a building on it (rulebook 5.5)")
        if p.orchard + orchard > cap:
            raise IllegalMove(f"your Orchard holds at most {cap} trees (rulebook 5.6)")
    cube = "wood" if kind == "trees" else "fish"
    if state.market[cube] < amount:
        raise IllegalMove(f"the Nog Market has {state.market[cube]} {cube}, not {amount} "
                          f"(rulebook 5.6: choose a lower number)")
    if kind == "trees" and (orchard > amount or forest_places(state, amount - orchard) is None):
        raise IllegalMove("the forest has no room for that many trees (rulebook 5.6)")


def restock(state: State, seat: int, kind: str, amount: int, orchard: int) -> list[Event]:
    """Move the cubes from the Nog Market to the fjord, or to the Orchard and forest (5.6).
    ``Restocked`` with ``seat, kind, amount, orchard, forest`` (zone of each forest cube)."""
    forest = forest_places(state, amount - orchard) if kind == "trees" else []
    return [Event("Restocked", {"seat": seat, "kind": kind, "amount": amount,
                                "orchard": orchard if kind == "trees" else 0, "forest": forest})]


def check_donate(state: State, seat: int, wood: int, food: str | None) -> None:
    """Donate Wood and/or one Food to the market, in Winter only (7.2)."""
    p = state.players[seat]
    if season_name(state.season) != "winter":
        raise IllegalMove("donations are only made in Winter (rulebook 7.2)")
    if not wood and food is None:
        raise IllegalMove("donate at least one Wood or Food (rulebook 7.2)")
    if wood and p.stock["wood"] < 1:
        raise IllegalMove("you have no Wood to donate (rulebook 7.2)")
    if food is not None and p.stock[food] < 1:
        raise IllegalMove(f"you have no {food} to donate (rulebook 7.2)")


def donate(state: State, seat: int, wood: int, food: str | None) -> list[Event]:
    """Return Wood and/or Food to the Nog Market (7.2). ``Donated`` with ``given``."""
    given = {}
    if wood:
        given["wood"] = 1
    if food is not None:
        given[food] = 1
    return [Event("Donated", {"seat": seat, "given": given})]
