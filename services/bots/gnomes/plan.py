"""A way-finder and the market of A Game of Gnomes, for the bots (their knowledge, not rules).

Everything here reads only what a seat's player view shows (a :class:`State` rebuilt from
it is fine: the hidden parts are never read, except the seat's own hand).

* :func:`weeks_from`: the fewest weeks from the gnome's place to every place (Dijkstra over
  the board's routes, rulebook C.1, G): a land route costs 1 week with an item that crosses
  it (Canteen, Short Axe, Hill Boots, Compass, I) or a travel card of its terrain in hand,
  else :data:`CARDLESS` weeks (scout a card, then play it, C.6); the black route to the
  tower :data:`BLACK` weeks without a Compass (three for free), 1 in winter (G); water 2
  weeks with a Leaf Boat or on the ice (C.1, G); a map's climb and the tunnel with a key
  :data:`FREE_STEP` (no time, C.1 mountain, B equipment).
* :func:`sale_value`: the best gem a buyer still pays for a mushroom (C.3), 8 more for a
  Montane King's golden mushroom (C.3, H).
* :func:`buyers`: where each colour can be sold now.
"""

from __future__ import annotations

import heapq
from functools import lru_cache

from services.rules.gnomes import geo
from services.rules.gnomes.content import content
from services.rules.gnomes.state import KING, State, equipment, held, travel_cards

CARDLESS = 2
"""Weeks a land route costs without an item or a matching card in hand: scouting a card
(1 week, C.6) and playing it (1 week, C.1), on average."""
BLACK = 3
"""Weeks the black route to the Sorcerer's tower costs without a Compass or the winter path:
three for free with about three weeks of cards (C.1 tower)."""
FREE_STEP = 0.01
"""What a step that takes no time (a map's climb, the tunnel with a key) counts, so that the
way-finder still sees it as a step."""
GEM_ORDER = ("white", "green", "brown")
"""Gems best first (B gems: white 3, green 2, brown 1)."""
ITEM_TERRAIN = {"canteen": "meadow", "short_axe": "forest", "hill_boots": "mountain", "compass": "black"}
"""The land routes an item crosses for 1 week without a card (I)."""


def means(state: State, seat: int) -> tuple[frozenset[str], frozenset[str], bool, bool, tuple, tuple]:
    """What moves ``seat``'s gnome: ``(item terrains, card terrains in hand, water, winter,
    maps' routes, tunnel sites with a key)`` (C.1, G, I, B equipment)."""
    from services.rules.gnomes.actions import tunnel_sites

    p = state.players[seat]
    items = frozenset(ITEM_TERRAIN[e] for e in p.equipment if e in ITEM_TERRAIN)
    hand = state.secret["hands"][seat] if state.secret else []
    cards: set[str] = set()
    for c in hand:
        t = travel_cards().get(c)
        if t is None:
            continue
        if t.kind == "free":
            cards |= geo.LAND_ICONS
        elif t.terrain:
            cards.add(t.terrain)
    if state.frog == seat:
        cards |= geo.LAND_ICONS | {"black"}
    water = state.frozen or "leaf_boat" in p.equipment
    maps = tuple(sorted(tuple(equipment()[m].route or ()) for m in held(p, "map")))
    keys = any(k in p.equipment for k in ("tunnel_key", "spare_key"))
    tunnel = tuple(sorted(tunnel_sites(state))) if keys and state.layout else ()
    return items, frozenset(cards), water, state.frozen, maps, tunnel


def weeks_from(state: State, seat: int, start: str | None = None, cards: bool = True) -> dict[str, float]:
    """The fewest weeks from ``start`` (default the gnome's place) to every place it can reach
    with its means (:func:`means`; see the module docstring); ``cards=False`` counts no card
    in hand (each land route without an item :data:`CARDLESS` weeks), as an evaluation that
    values the cards themselves does."""
    p = state.players[seat]
    m = means(state, seat)
    if not cards:
        m = (m[0], frozenset({"black"}) if state.frog == seat else frozenset(), *m[2:])
    return dict(_weeks(start or p.place, *m))


@lru_cache(maxsize=4096)
def _weeks(start: str, items: frozenset[str], cards: frozenset[str], water: bool, winter: bool,
           maps: tuple, tunnel: tuple) -> tuple[tuple[str, float], ...]:
    out = {start: 0}
    todo = [(0, start)]
    while todo:
        d, at = heapq.heappop(todo)
        if d > out.get(at, 1 << 30):
            continue
        steps = []
        for n, icons in geo.land_routes().get(at, ()):
            if icons & items or icons & cards:
                cost = 1
            elif "black" in icons:
                cost = 1 if winter else BLACK
            else:
                cost = CARDLESS
            steps.append((n, cost))
        if water:
            steps += [(n, 2) for n, _ in geo.water_routes().get(at, ())]
        steps += [(x, FREE_STEP) for route in maps if at in route for x in route if x != at]
        if at in tunnel:
            steps += [(x, FREE_STEP) for x in tunnel if x != at]
        for n, cost in steps:
            if d + cost < out.get(n, 1 << 30):
                out[n] = d + cost
                heapq.heappush(todo, (d + cost, n))
    return tuple(sorted(out.items()))


def best_gem(gems: dict[str, int] | None) -> str | None:
    """The most valuable gem left in ``gems`` (C.3 play tip: take the most valuable), or None."""
    for g in GEM_ORDER:
        if gems and gems.get(g, 0) > 0:
            return g
    return None


def buyers(state: State, mushroom: str) -> dict[str, int]:
    """``place -> points a sale of ``mushroom`` brings there now``: every village that buys it
    (C.3: the colours that do not grow there; any village a Montane King) with a gem left,
    paying its best gem, and the Sorcerer's tower (a brown gem from the supply, or variant
    J's own gems); a Montane King adds its golden mushroom (8, H)."""
    values = content().tiles.gem_values
    golden = content().cards.golden_mushroom if mushroom == KING else 0
    out = {}
    for site, tile in state.layout.items():
        if geo.tile_kinds()[tile] != "village":
            continue
        if mushroom != KING and mushroom not in geo.village_buys()[tile]:
            continue
        g = best_gem(state.gems.get(tile))
        if g is not None:
            out[site] = values[g] + golden
    tower = content().board.tower
    if "tower" in state.gems:
        g = best_gem(state.gems["tower"])
        if g is not None:
            out[tower] = values[g] + golden
    else:
        out[tower] = values[content().tiles.sorcerer_pays] + golden
    return out


def rot_week(state: State, mushroom: str) -> int:
    """The calendar week at which ``mushroom`` next rots (F), or the game's end (52) if it
    does not rot before then; a Montane King never rots."""
    cal = content().calendar
    for week in sorted(int(w) for w in cal.rot):
        if week > state.calendar and mushroom in cal.rot[str(week)]:
            return week
    return cal.end


def weeks_left(state: State) -> int:
    """Weeks of the game left (H: it ends at week 52), less the weeks this round the seat with
    the most time used has already spent (the calendar moves by the exhausted gnome, D)."""
    used = max((p.timer for p in state.players), default=0)
    return max(0, content().calendar.end - state.calendar - used)


def route_to(state: State, seat: int, goals: set[str]) -> tuple[float, str | None]:
    """``(weeks, goal)``: the nearest of ``goals`` by :func:`weeks_from`, or ``(big, None)``."""
    dist = weeks_from(state, seat)
    best = (1 << 20, None)
    for g in goals:
        if g in dist and dist[g] < best[0]:
            best = (dist[g], g)
    return best


__all__ = ["BLACK", "CARDLESS", "best_gem", "buyers", "means", "rot_week", "route_to", "weeks_from",
           "weeks_left"]
