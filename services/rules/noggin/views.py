"""Derived, public parts of the Noggin player view: the forest trail, a readable Mine,
storage and transport capacities, and who the active marker is.

Everything here is computed from the state and the content files; nothing depends on
undrawn piles or the seed.
"""

from __future__ import annotations

from typing import Any

from . import board, content
from .content import BASIC
from .state import TRANSPORTS, Player, State, key

SURFACE_ROW = -1
"""The row above the Mine where the Miner starts and may walk (set-up R, house rule)."""
PICTURE = {"surface": "_", "rock": "#", "empty": ".", "stone": "s", "gold": "g"}
"""One character per square in ``mine_map.picture``; ``M`` is the Miner, a space no tile yet."""


def _clearing(state: State, i: int) -> dict[str, int]:
    c = content.load().forest.clearings[i]
    return {"clearing": c.id, "zone": c.zone, "number": c.number, "trees": state.forest[c.zone]}


def forest_trail(state: State) -> list[dict[str, int]]:
    """Each clearing in trail order with its forest zone, printed number and the trees left (5.3)."""
    if not state.forest:  # before set-up
        return []
    return [_clearing(state, i) for i in range(len(content.load().forest.clearings))]


def _square_content(state: State, r: int, c: int) -> str:
    if r == SURFACE_ROW:
        return "surface"
    cube = state.mine.get(key(r, c))
    if cube is None:
        return "rock"
    return cube or "empty"


def mine_map(state: State) -> dict[str, Any]:
    """The Mine as squares in the move format, the Miner, the empty slots and a picture (5.1)."""
    grid = content.load().mine.grid
    width, depth = grid.cols * 4, grid.rows * 4
    placed = {tuple(t["slot"]) for t in state.mine_tiles}
    squares = [{"square": [SURFACE_ROW, c], "content": "surface"} for c in range(width)]
    picture = []
    for r in range(SURFACE_ROW, depth):
        line = []
        for c in range(width):
            on_tile = r == SURFACE_ROW or (r // 4, c // 4) in placed
            if on_tile and r != SURFACE_ROW:
                squares.append({"square": [r, c], "content": _square_content(state, r, c)})
            if [r, c] == list(state.miner):
                line.append("M")
            else:
                line.append(PICTURE[_square_content(state, r, c)] if on_tile else " ")
        picture.append("".join(line))
    free = [[i, j] for i in range(grid.rows) for j in range(grid.cols) if (i, j) not in placed]
    return {"surface_row": SURFACE_ROW, "width": width, "depth": depth, "squares": squares,
            "miner": list(state.miner), "miner_on_surface": bool(state.miner) and state.miner[0] == SURFACE_ROW,
            "free_slots": free, "picture": picture}


def extras(state: State) -> dict[str, Any]:
    """View fields for the whole table."""
    active = state.markers[state.active] if state.active is not None and state.markers else None
    out: dict[str, Any] = {
        "active_seat": None if active is None else active.seat,
        "active_colour": None if active is None else active.colour,
        "forest_trail": forest_trail(state),
        "woodcutter_next": _clearing(state, board.next_clearing(state)) if state.forest else None,
    }
    if state.mine_tiles:
        out["mine_map"] = mine_map(state)
    return out


def player_extras(p: Player) -> dict[str, Any]:
    """Storage (Farm, building extras, room left per resource) and transport capacities (3.7, 3.8)."""
    return {
        "storage": {"farm": content.load().setup.farm_capacity, "extra": board.storage_extra(p),
                    "room": {r: board.room(p, r) for r in BASIC}},
        "transport_capacity": {t: board.capacity(p, t) for t in TRANSPORTS},
    }
