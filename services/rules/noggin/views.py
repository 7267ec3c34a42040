"""The Noggin player view: everything on the table, minus ``State.secret``, plus what a
person needs to decide (the forest trail, a readable Mine, storage and transport
capacities, who the active marker is, the cards on display with their names, the
decision the game waits for) and the seat's own secret (its Friend or Foe card).

Everything here is computed from the state and the content files; nothing depends on
undrawn piles, hidden card sides or the seed.
"""

from __future__ import annotations

from typing import Any

from . import board, content, market, sagas, turns
from .content import BASIC
from .state import TRANSPORTS, Player, State, key, live_peeks, option, saga_peeks

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


def mine_map(state: State) -> dict[str, Any]:
    """The Mine as squares in the move format, the Miner, the empty slots and a picture (5.1).

    Built row by row in one pass (each square's content looked up once); the output is the
    same as listing every square of every placed tile and reading its content
    (``tests/rules/noggin/test_view.py`` checks it against that)."""
    grid = content.load().mine.grid
    width, depth = grid.cols * 4, grid.rows * 4
    placed = {tuple(t["slot"]) for t in state.mine_tiles}
    cubes = state.mine
    miner = list(state.miner)
    miner_r, miner_c = (miner[0], miner[1]) if len(miner) == 2 else (None, None)
    squares: list[dict[str, Any]] = [{"square": [SURFACE_ROW, c], "content": "surface"} for c in range(width)]
    surface = ["M" if miner_r == SURFACE_ROW and c == miner_c else PICTURE["surface"] for c in range(width)]
    picture = ["".join(surface)]
    for r in range(depth):
        line = []
        tile_row = r // 4
        for c in range(width):
            if (tile_row, c // 4) in placed:
                cube = cubes.get(key(r, c))
                what = "rock" if cube is None else (cube or "empty")
                squares.append({"square": [r, c], "content": what})
                line.append("M" if r == miner_r and c == miner_c else PICTURE[what])
            else:
                line.append("M" if r == miner_r and c == miner_c else " ")
        picture.append("".join(line))
    free = [[i, j] for i in range(grid.rows) for j in range(grid.cols) if (i, j) not in placed]
    return {"surface_row": SURFACE_ROW, "width": width, "depth": depth, "squares": squares,
            "miner": miner, "miner_on_surface": bool(state.miner) and state.miner[0] == SURFACE_ROW,
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


def _cards(state: State) -> dict[str, Any]:
    """Names and abilities of the cards on display (6.3-6.5), for people reading the view."""
    sagas_out = []
    for slot, saga in enumerate(state.sagas):
        if saga is None:
            sagas_out.append(None)
            continue
        info = content.saga_index()[saga.card]
        sagas_out.append({"slot": slot, "name": info.name, "money": info.money,
                          "characters": sorted(c for c, w in state.characters.items() if w == f"saga:{slot}"),
                          "nogs": sagas.nogs_on(state, slot) + (sum(saga.current.nogs) if saga.current else 0)})
    inv_out = []
    for slot, inv in enumerate(state.inventions):
        if inv is None:
            inv_out.append(None)
            continue
        info = content.invention_index()[inv.card]
        inv_out.append({"slot": slot, "name": info.name, "ability": info.ability, "once": info.once})
    ch = state.counting_house
    return {"saga_cards": sagas_out, "invention_cards": inv_out,
            "counting_house_card": None if ch is None else {"card": ch, "name": content.counting_house_index()[ch].name},
            "wheel_quarter": content.load().characters.wheel[state.wheel].name if state.reserve else None,
            "nogbad_space": board.nogbad_space(state) if state.reserve else None,
            "exchange_rate": market.rate(state) if state.market else 2}


def player_view(rules: Any, state: State, seat: int | None) -> dict[str, Any]:
    """The view of ``seat`` (``None``: a spectator): the state without ``secret``; per marker
    its ``marker`` index and ``dummy``; ``active_seat``/``active_colour``; the forest trail,
    Mine map, storage and transport capacities; the cards on display by name; ``pending``,
    the decision the game waits for (``bid``, ``keep_card``, ``knut``, ``seers_tower``,
    ``fireworks``, ``draw_reserve``, ``fishing_tokens`` or null); ``my_loyalty``, the
    seat's own Friend or Foe card (null for others and spectators); and ``my_peeks``, the
    Reserve cards the seat saw by Knut (6.1) or the Telescope (appendix) that are still in
    their deck, ``[{"deck", "from_top" (0: the next card from the top), "card"}]``, and
    ``my_saga_peeks``, those of them since drawn onto a Saga, ``[{"saga", "card"}]`` (both
    empty for others and spectators). A Reserve card on a
    Saga shows its resource side only (6.4); undrawn piles show counts only.
    """
    out = rules.table_view(state, seat)
    out["pending"] = turns.pending(state) if state.markers else None
    out.update(extras(state))
    out.update(_cards(state))
    for pv, p in zip(out["players"], state.players):
        pv.update(player_extras(p))
    for i, mv in enumerate(out["markers"]):
        mv["marker"] = i
        mv["dummy"] = state.markers[i].seat is None
    out["my_peeks"] = [{"deck": deck, "from_top": i - state.reserve[deck]["top"], "card": card}
                       for deck, cards in sorted(live_peeks(state, seat).items()) for i, card in sorted(cards.items())]
    out["my_saga_peeks"] = [{"saga": slot, "card": card} for slot, card in sorted(saga_peeks(state, seat).items())]
    loyalty = state.secret.get("loyalty") or []
    out["my_loyalty"] = loyalty[seat] if (seat is not None and 0 <= seat < len(loyalty)
                                          and option(state, "friend_or_foe")) else None
    return out
