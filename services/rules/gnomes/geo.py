"""The geography of A Game of Gnomes: which places join which, and by what (rulebook C.1, G).

Places are the 19 tile sites (``s01``-``s19``), the Sorcerer's ``tower`` and the spaces of
Gnome Mountain (``g1``-``g4`` grass, ``r1``-``r4`` rock, ``n1``-``n2`` snow). Everything
here is derived once from ``content/board.json`` and ``tiles.json``:

* land routes, each with the travel icons that cross it: a board path its terrain
  (``meadow``, ``forest``, ``mountain`` or ``black`` to the tower); neighbouring spaces
  of the grass level ``meadow`` or ``forest``, of the rock and snow levels ``mountain``
  (C.1 "Moving along the same level");
* water routes: ``river`` between neighbouring riverside sites, ``lake`` between any
  two lakeside sites (C.1 "Moving on rivers and the lake", G);
* the mountain's levels, ranked grass 1, rock 2, snow 3 (off the mountain 0), for the
  bonus and the tie-break of H.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations

from .content import content

LEVEL_RANK = {"grass": 1, "rock": 2, "snow": 3}
"""Height of each mountain level (H: the highest level earns the bonus)."""
LAND_ICONS = frozenset({"meadow", "forest", "mountain"})
"""The icons travel cards carry (no card shows ``black``, C.1 tower)."""


@lru_cache(maxsize=1)
def land_routes() -> dict[str, tuple[tuple[str, frozenset[str]], ...]]:
    """``place -> ((neighbour, icons that cross the route), ...)`` in a stable order."""
    c = content().board
    out: dict[str, list[tuple[str, frozenset[str]]]] = {}

    def add(a: str, b: str, icons: frozenset[str]) -> None:
        out.setdefault(a, []).append((b, icons))
        out.setdefault(b, []).append((a, icons))

    for p in c.paths:
        add(p.a, p.b, frozenset({p.terrain}))
    m = c.mountain
    for level, spaces in m.levels.items():
        icons = frozenset(m.lateral[level])
        pairs = list(zip(spaces, spaces[1:]))
        if m.rings[level] and len(spaces) > 2:
            pairs.append((spaces[-1], spaces[0]))
        for a, b in pairs:
            add(a, b, icons)
    return {k: tuple(sorted(v)) for k, v in out.items()}


@lru_cache(maxsize=1)
def water_routes() -> dict[str, tuple[tuple[str, str], ...]]:
    """``site -> ((neighbour, "river" | "lake"), ...)``: river sections and lake crossings (C.1, G)."""
    c = content().board
    out: dict[str, list[tuple[str, str]]] = {}
    for a, b in zip(c.river, c.river[1:]):
        out.setdefault(a, []).append((b, "river"))
        out.setdefault(b, []).append((a, "river"))
    for a, b in combinations(c.lake, 2):
        out.setdefault(a, []).append((b, "lake"))
        out.setdefault(b, []).append((a, "lake"))
    return {k: tuple(sorted(v)) for k, v in out.items()}


@lru_cache(maxsize=1)
def mountain_level() -> dict[str, str]:
    """``space -> level`` for every mountain space."""
    return {s: level for level, spaces in content().board.mountain.levels.items() for s in spaces}


def rank(place: str) -> int:
    """How high ``place`` is on Gnome Mountain: 3 snow, 2 rock, 1 grass, 0 off the mountain (H)."""
    level = mountain_level().get(place)
    return LEVEL_RANK[level] if level else 0


def on_mountain(place: str) -> bool:
    """True for a space of Gnome Mountain (one gnome per space at the end of a turn, C.1)."""
    return place in mountain_level()


def crosses(place: str, to: str, icons: frozenset[str]) -> bool:
    """True if a land route joins ``place`` and ``to`` that one of ``icons`` crosses."""
    return any(n == to and route & icons for n, route in land_routes().get(place, ()))


def neighbours(place: str, icons: frozenset[str]) -> list[str]:
    """Places one land route away that one of ``icons`` crosses, in a stable order."""
    return [n for n, route in land_routes().get(place, ()) if route & icons]


def water(place: str, to: str) -> str | None:
    """``"river"`` or ``"lake"`` if a water route joins the two places, else None."""
    for n, kind in water_routes().get(place, ()):
        if n == to:
            return kind
    return None


@lru_cache(maxsize=1)
def tile_kinds() -> dict[str, str]:
    """``tile id -> "village" | "shop" | "house"``."""
    t = content().tiles
    return {**{v.id: "village" for v in t.villages}, **{s.id: "shop" for s in t.shops},
            **{h.id: "house" for h in t.houses}}


@lru_cache(maxsize=1)
def grows() -> dict[str, tuple[str, ...]]:
    """``tile id -> mushroom colours growing there`` (its symbols, B, F)."""
    t = content().tiles
    return {x.id: tuple(x.grows) for x in (*t.villages, *t.houses)}


@lru_cache(maxsize=1)
def village_buys() -> dict[str, frozenset[str]]:
    """``village id -> colours it buys`` (those that do not grow there, C.3)."""
    return {v.id: v.buys for v in content().tiles.villages}


@lru_cache(maxsize=1)
def house_of_colour() -> dict[str, str]:
    """``gnome colour -> house tile id``."""
    return {h.colour: h.id for h in content().tiles.houses}
