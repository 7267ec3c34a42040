"""Distances on the board of A Game of Gnomes, for bots' evaluations (not rules).

:func:`steps_to_goal` counts land routes (any terrain, BFS over :func:`.geo.land_routes`)
from a gnome to the nearest place where it can sell what it carries, or, with an empty
basket, to the nearest mushroom it could pick.
"""

from __future__ import annotations

from collections import deque
from functools import lru_cache

from . import geo
from .state import KING, State, basket_room, equipment, held


def distances(start: str, maps: tuple[tuple[str, ...], ...] = (), water: bool = False,
              tunnel: tuple[str, ...] = ()) -> dict[str, int]:
    """Routes from ``start`` to every place reachable over land (rulebook C.1 routes, any icon),
    climbing for free between the spaces of the ``maps`` held (C.1 mountain), over the river
    and lake when ``water`` (a Leaf Boat, or ice, G) and through the ``tunnel`` (its two
    sites, with a key)."""
    return dict(_distances(start, maps, water, tunnel))


@lru_cache(maxsize=2048)
def _distances(start: str, maps: tuple[tuple[str, ...], ...], water: bool,
               tunnel: tuple[str, ...]) -> tuple[tuple[str, int], ...]:
    out = {start: 0}
    todo = deque([start])
    while todo:
        at = todo.popleft()
        steps = [(n, 1) for n, _ in geo.land_routes().get(at, ())]
        steps += [(x, 0) for route in maps if at in route for x in route if x != at]
        if water:
            steps += [(n, 1) for n, _ in geo.water_routes().get(at, ())]
        if at in tunnel:
            steps += [(x, 1) for x in tunnel if x != at]
        for n, cost in steps:
            if n not in out or out[n] > out[at] + cost:
                out[n] = out[at] + cost
                (todo.appendleft if cost == 0 else todo.append)(n)
    return tuple(sorted(out.items()))


def reach(state: State, seat: int) -> dict[str, int]:
    """:func:`distances` from ``seat``'s gnome with what it holds (maps, a boat, a key) and the ice."""
    from .actions import tunnel_sites

    p = state.players[seat]
    maps = tuple(sorted(tuple(equipment()[m].route or ()) for m in held(p, "map")))
    water = state.frozen or "leaf_boat" in p.equipment
    keys = any(k in p.equipment for k in ("tunnel_key", "spare_key"))
    return distances(p.place, maps, water, tuple(sorted(tunnel_sites(state))) if keys else ())


def steps_to_goal(state: State, seat: int) -> int:
    """Routes to the nearest buyer of a carried mushroom, else to the nearest pickable mushroom
    while the basket has room; 0 if there is no goal."""
    p = state.players[seat]
    dist = reach(state, seat)
    goals = []
    if p.basket:
        for site, tile in state.layout.items():
            if geo.tile_kinds()[tile] != "village" or not any(state.gems.get(tile, {}).values()):
                continue
            if any(m == KING or m in geo.village_buys()[tile] for m in p.basket):
                goals.append(site)
        goals.append("tower")
    elif basket_room(p) > 0:
        goals = [pl for pl, ms in state.mushrooms.items() if ms and (KING not in ms or p.kings == 0)]
    found = [dist[g] for g in goals if g in dist]
    return min(found) if found else 0
