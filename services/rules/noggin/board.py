"""Board domain: player boards, Nog placement and the Nog actions on the game board.

Implements rulebook 3.7 and 3.8 (storage: Farm of 6, building storage, transports of 2
or 4, no waste), 5.0 (placing Nogs, the rising cost of repeating an action, Market Day
always 1 Nog; actions Nogbad blocks, 8.0), 5.1 Miner (dig, discover, walk, Gold; the Moon
Stone), 5.2 Fisherman (the Coral Necklace), 5.3 Woodcutter (forest trail and Orchard;
the Bird's Crown, the Fire Machine's Forge token), 5.4 Farmer (by season) and 5.5
Builder (Year 1 and Year 2 buildings, transport upgrades, paying with Gold or coins,
the Good Genie).

``check_*`` functions raise :class:`IllegalMove` with the rulebook section; the action
functions (named after the rulebook's actions) return events and trust that the move
was checked. None of them changes the state.
"""

from __future__ import annotations

from functools import lru_cache

from services.rules.core import Event, IllegalMove

from . import content
from .content import BASIC
from .decks import mine_tiles_left
from .payments import pay_for
from .state import Action, Player, State, key, orient, place_tile, season_name

BLOCKED_BY_NOGBAD = {0: "fisherman", 2: "woodcutter"}
"""Actions Nogbad blocks from his quarter of the Wheel of Infamy: the fjord and the woods (8.0)."""

# -- storage (3.7, 3.8, 5.0 note) --------------------------------------------------------


def storage_extra(p: Player) -> dict[str, int]:
    """Extra storage of each basic resource given by the player's buildings (appendix)."""
    return dict(building_storage(tuple(p.buildings)))


@lru_cache(maxsize=1024)
def building_storage(buildings: tuple[str, ...]) -> dict[str, int]:
    """:func:`storage_extra` of the buildings named, worked out once for each set (shared: read only)."""
    extra = {r: 0 for r in BASIC}
    idx = content.building_index()
    for b in buildings:
        for r, k in idx[b].storage.items():
            extra[r] += k
    return extra


FARM = content.load().setup.farm_capacity
"""Cubes of any basic resource the Farm stores (3.7)."""


def fits(p: Player, add: dict[str, int]) -> bool:
    """True if the stock plus ``add`` fits the Farm (6 of any basic) and building storage.

    Gold takes no space in the Farm (3.7).
    """
    extra = building_storage(tuple(p.buildings))
    over = sum(max(0, p.stock[r] + add.get(r, 0) - extra[r]) for r in BASIC)
    return over <= FARM


def room(p: Player, resource: str, cart: dict[str, int] | None = None) -> int:
    """How many more ``resource`` cubes the player can store (on top of ``cart``, still to
    unload): the building storage of that resource left, plus the Farm's free spaces (3.7,
    3.8). Gold needs none (this is for the four basic resources)."""
    extra = building_storage(tuple(p.buildings))
    stock = p.stock
    held = {r: stock[r] + cart.get(r, 0) for r in BASIC} if cart else stock
    others = 0
    for r in BASIC:
        if r != resource and held[r] > extra[r]:
            others += held[r] - extra[r]
    if others > FARM:
        return 0
    return max(0, FARM - others + extra[resource] - held[resource])


_TRANSPORT_CAPACITY = content.load().setup.transport_capacity
_UPGRADED_CAPACITY = content.load().setup.upgraded_capacity
"""A transport's capacity, and an upgraded one's (set-up, 3.8 F), read once."""


def capacity(p: Player, transport: str) -> int:
    """Capacity of a transport: 2, or 4 once upgraded (3.8 F, 5.5); the wood cart carries 1
    more with the Forge token of the Fire Machine (6.5, appendix)."""
    base = _UPGRADED_CAPACITY if transport in p.transports else _TRANSPORT_CAPACITY
    return base + (1 if transport == "wood_cart" and p.forge else 0)


def has_artefact(p: Player, card: str) -> bool:
    """True if the seat owns Counting House card ``card`` face up (6.3: face down never acts)."""
    for c in p.counting_house:  # a loop, not any(...): no generator made at each of its many calls
        if c["card"] == card and c["up"]:
            return True
    return False


def can_use(p: Player, card: str) -> bool:
    """True if the seat owns ``card`` (face-up artefact, Invention or Year 2 building) and has
    not laid its Nog down this season or turn (6.3, 6.5)."""
    owned = has_artefact(p, card) or card in p.inventions or card in p.buildings
    return owned and card not in p.used and card not in p.turn_used


def spare_nogs(state: State, seat: int, market_day: bool = True) -> int:
    """Nogs on the seat's Mountains space still free for a card once the Market Day that a
    move would start has taken its own Nog (5.0, 6.0)."""
    starting = market_day and state.action is None
    return state.players[seat].mountains - (1 if starting else 0)


def nogbad_space(state: State) -> str | None:
    """The action space Nogbad stands on while active (8.0), else None."""
    if state.nogbad != "active":
        return None
    return content.load().characters.wheel[state.wheel].space


def nogbad_blocks(state: State, what: str) -> bool:
    """True if active Nogbad blocks ``what``: ``"fisherman"``, ``"woodcutter"`` or ``"saga"``
    (Trouble at Home: no contributions to a Saga) (8.0)."""
    if state.nogbad != "active":
        return False
    return what == BLOCKED_BY_NOGBAD.get(state.wheel) or (what == "saga" and state.wheel == 1)


# -- Nog placement (5.0) ------------------------------------------------------------------


def nogs_needed(p: Player, action: str) -> int:
    """Nogs to place for ``action`` now: 1 more than the times used this season; Market Day 1 (5.0, 6.0)."""
    return 1 if action == "market_day" else p.uses[action] + 1


def check_place_nogs(state: State, seat: int, action: str) -> None:
    """Raise unless the seat has enough Nogs on its Mountains space for ``action`` (5.0) and
    Nogbad does not block it (8.0)."""
    p = state.players[seat]
    if nogbad_blocks(state, action):
        raise IllegalMove(f"Nogbad blocks the {action} action while he is there (rulebook 8.0)")
    need = nogs_needed(p, action)
    if p.mountains < need:
        if action == "market_day":
            raise IllegalMove("you have no Nog left on your Mountains space (rulebook 5.0)")
        raise IllegalMove(f"repeating the {action} action this season needs {need} Nogs and you have "
                          f"{p.mountains} on your Mountains space (rulebook 5.0)")


def place_nogs(state: State, seat: int, action: str) -> list[Event]:
    """Place the Nogs for a new action (5.0). ``ActionStarted`` with ``seat, action, nogs``."""
    return [Event("ActionStarted", {"seat": seat, "action": action,
                                    "nogs": nogs_needed(state.players[seat], action)})]


def finish_action(state: State) -> list[Event]:
    """End the current action: cart contents go to the Farm (5.1, 5.3). ``ActionFinished``."""
    a = state.action
    assert a is not None
    return [Event("ActionFinished", {"seat": a.seat, "action": a.kind, "unloaded": dict(a.cart)})]


# -- Miner (5.1) --------------------------------------------------------------------------


MINE_WIDTH = content.load().mine.grid.cols * 4
"""Squares across the Mine grid (and along the surface row above it)."""


def _passable(state: State, sq: list[int]) -> bool:
    r, c = sq
    if r == -1:
        return 0 <= c < MINE_WIDTH
    return state.mine.get(key(r, c)) == ""


def _adjacent(a: list[int], b: list[int]) -> bool:
    return abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1


def _neighbours(sq: list[int]) -> list[list[int]]:
    r, c = sq
    return [[r - 1, c], [r + 1, c], [r, c - 1], [r, c + 1]]


MINE_DEPTH = content.load().mine.grid.rows * 4
SURFACE = frozenset(f"-1,{c}" for c in range(MINE_WIDTH))
"""The squares of the surface row above the Mine, always walkable (set-up R, house rule)."""
NEIGHBOURS = {f"{r},{c}": tuple(f"{nr},{nc}" for nr, nc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
                                if -1 <= nr < MINE_DEPTH and 0 <= nc < MINE_WIDTH)
              for r in range(-1, MINE_DEPTH) for c in range(MINE_WIDTH)}
"""Each square's orthogonal neighbours on the surface and in the Mine grid, by ``"r,c"`` key."""
SQUARE = {k: tuple(int(x) for x in k.split(",")) for k in NEIGHBOURS}


ROW0 = tuple(f"0,{c}" for c in range(MINE_WIDTH))
"""The Mine's top row, below the surface, by key."""
_ROW0 = frozenset(ROW0)
_IN_MINE = {k: tuple(nb for nb in v if nb not in SURFACE) for k, v in NEIGHBOURS.items()}
"""Each square's neighbours inside the Mine grid (the surface row left out)."""


_reach: tuple[dict[str, str], dict[str, list[tuple[int, int]]]] = ({}, {})
"""The last Mine walked (a copy) and, for each walkable square, the squares of its walkable
region in order: while a game's Mine stays the same, the Miner's walks read their region
from here (:func:`reachable` compares the Mine with the copy first, so the cache can only
save work, never change an answer)."""


def reachable(state: State) -> list[list[int]]:
    """Empty squares the Miner can walk to in one Walk (5.1), in a stable order: ``[r, c]``
    lists, row by row.

    The surface row above the Mine counts as empty (set-up R, house rule): it is reached
    whole, from the Miner on it or from any empty square of the Mine's top row.
    """
    r0, c0 = state.miner[0], state.miner[1]
    return [[r, c] for r, c in walk_region(state) if r != r0 or c != c0]


def walk_region(state: State) -> list[tuple[int, int]]:
    """The squares ``(r, c)`` of the walkable region the Miner stands in, row by row: his own
    square (when it is walkable) and every square of :func:`reachable`. Shared while the Mine
    stays the same: read only."""
    global _reach
    mine = state.mine
    start = key(state.miner[0], state.miner[1])
    if not (start in SURFACE or mine.get(start) == ""):  # the Miner off the galleries (a state made up by hand)
        return sorted(map(SQUARE.__getitem__, _region(mine, start) - {start}))
    seen_mine, regions = _reach
    if seen_mine != mine:
        seen_mine, regions = _reach = (dict(mine), {})
    region = regions.get(start)
    if region is None:
        region = sorted(map(SQUARE.__getitem__, _region(mine, start)))
        for k in map(key, *zip(*region)):
            regions[k] = region
    return region


def _region(mine: dict[str, str], start: str) -> set[str]:
    """``start`` and every empty square joined to it by empty squares, the surface included."""
    get = mine.get
    seen = {start}
    queue = [start]
    surfaced = False
    while queue:
        here = queue.pop()
        if not surfaced and (here in SURFACE or here in _ROW0):
            surfaced = True
            seen.update(SURFACE)
            for k in ROW0:
                if k not in seen and get(k) == "":
                    seen.add(k)
                    queue.append(k)
        for nb in _IN_MINE[here]:
            if nb not in seen and get(nb) == "":
                seen.add(nb)
                queue.append(nb)
    return seen


def _cart(state: State) -> dict[str, int]:
    return state.action.cart if state.action is not None else {}


def check_dig(state: State, seat: int, square: list[int]) -> None:
    """Dig: the square must be orthogonally next to the Miner and hold Stone or Gold; the
    mine cart must have room and the Farm room for the Stone (5.1, 3.7, 5.0 note)."""
    if not _adjacent(state.miner, square):
        raise IllegalMove("the Miner can only dig a square orthogonally next to him (rulebook 5.1)")
    cube = state.mine.get(key(*square))
    if not cube:
        raise IllegalMove("there is no Stone or Gold to dig on that square (rulebook 5.1)")
    p = state.players[seat]
    cart = _cart(state)
    if sum(cart.values()) >= capacity(p, "mine_cart"):
        raise IllegalMove(f"your mine cart is full ({capacity(p, 'mine_cart')} cubes, rulebook 3.8)")
    if cube == "stone" and room(p, "stone", cart) < 1:
        raise IllegalMove("your Farm has no room for 1 more Stone (rulebook 3.7, no waste)")


def dig(state: State, seat: int, square: list[int]) -> list[Event]:
    """Miner digs 1 Stone or Gold into the mine cart and moves onto the square (5.1). ``StoneDug``."""
    return [Event("StoneDug", {"seat": seat, "square": list(square), "cube": state.mine[key(*square)]})]


def check_walk(state: State, seat: int, square: list[int]) -> None:
    """Walk: to another empty square joined to the Miner by empty squares (5.1)."""
    if list(square) == list(state.miner):
        raise IllegalMove("the Miner is already on that square")
    if square not in reachable(state):
        raise IllegalMove("the Miner can only walk through empty gallery squares (rulebook 5.1)")


def free_walk(state: State, seat: int) -> bool:
    """The Moon Stone makes one Walk of each Miner action free (appendix)."""
    a = state.action
    return has_artefact(state.players[seat], "moon_stone") and not (a is not None and a.free_walk)


def walk(state: State, seat: int, square: list[int]) -> list[Event]:
    """Move the Miner through empty gallery squares for 1 Step, or free once per action with
    the Moon Stone (5.1, appendix). ``MinerWalked``."""
    data = {"seat": seat, "square": list(square)}
    if free_walk(state, seat):
        data["free"] = True
        data["artefact"] = "moon_stone"
    return [Event("MinerWalked", data)]


def _slot_empty(state: State, slot: list[int]) -> bool:
    return all(t["slot"] != list(slot) for t in state.mine_tiles)


DISCOVER_STONE = 9
"""Stone the Nog Market must hold for a discovery (5.1)."""


def check_discover(state: State, seat: int, slot: list[int]) -> None:
    """Discover: 9+ Stone at the Nog Market, a tile left, the slot empty and the Miner in a
    tunnel square orthogonally next to it (5.1)."""
    grid = content.load().mine.grid
    if state.market["stone"] < DISCOVER_STONE:
        raise IllegalMove(f"discovering needs at least {DISCOVER_STONE} Stone at the Nog Market, there are "
                          f"{state.market['stone']} (rulebook 5.1)")
    if mine_tiles_left(state) <= 0:
        raise IllegalMove("there is no Mine tile left to discover")
    r, c = slot
    if not (0 <= r < grid.rows and 0 <= c < grid.cols) or not _slot_empty(state, slot):
        raise IllegalMove("a new Mine tile must go on an empty space of the Mine grid (rulebook 5.1)")
    if state.miner[0] < 0 or not any(
            _adjacent(state.miner, [r * 4 + i, c * 4 + j]) for i in range(4) for j in range(4)):
        raise IllegalMove("the Miner must be in a tunnel square orthogonally next to the empty "
                          "space (rulebook 5.1)")


def discover_slots(state: State) -> list[list[int]]:
    """Empty Mine slots next to the Miner's square (for listing moves)."""
    r, c = state.miner[0], state.miner[1]
    out: list[list[int]] = []
    taken = None
    for nr, nc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
        if 0 <= nr < MINE_DEPTH and 0 <= nc < MINE_WIDTH:
            slot = [nr // 4, nc // 4]
            if slot in out:
                continue
            if taken is None:
                taken = [t["slot"] for t in state.mine_tiles]
            if slot not in taken:
                out.append(slot)
    return sorted(out)


def discover(state: State, seat: int, slot: list[int], rotation: int, flip: str) -> list[Event]:
    """Place the drawn Mine tile in the chosen orientation; put a Gold cube on its nugget and
    fill its gallery squares with Stone from the Nog Market (5.1). ``MineTileDiscovered``."""
    tile = state.drawn["mine_tile"]
    rows = orient(content.mine_tile_index()[tile].rows, rotation, flip)
    gold, gallery = place_tile(state, slot, rows)
    stone = gallery[:state.market["stone"]]
    return [Event("MineTileDiscovered", {
        "seat": seat, "slot": list(slot), "tile": tile, "rotation": rotation, "flip": flip,
        "gold": gold if state.gold_supply > 0 else None, "gallery": gallery, "stone": stone})]


# -- Fisherman (5.2) ----------------------------------------------------------------------


def check_fisherman(state: State, seat: int) -> None:
    """Fishing needs fish in the fjord and room to store at least one (5.2, 5.0 note)."""
    a = state.action
    if a is not None and a.tokens is not None:
        raise IllegalMove("the Fishing tokens are drawn: keep them or put one back (Coral Necklace)")
    if state.fjord < 1:
        raise IllegalMove("the fjord is empty; restock fish first (rulebook 5.2, 5.6)")
    if room(state.players[seat], "fish") < 1:
        raise IllegalMove("you have no room to store a fish (rulebook 3.7, no waste)")


def necklace_ready(state: State, seat: int) -> bool:
    """The Coral Necklace can put a drawn token back this season (appendix)."""
    return can_use(state.players[seat], "coral_necklace")


def check_catch(state: State, seat: int, redraw: int | None) -> None:
    """After drawing with the Coral Necklace ready: keep the tokens, or put one back and draw
    another (appendix, once per season)."""
    a = state.action
    if a is None or a.kind != "fisherman" or a.tokens is None:
        raise IllegalMove("there are no Fishing tokens waiting (rulebook 5.2)")
    if redraw is not None and not 0 <= redraw < len(a.tokens):
        raise IllegalMove(f"there are {len(a.tokens)} Fishing tokens; put back one of 0-{len(a.tokens) - 1}")


def fish(state: State, seat: int) -> list[Event]:
    """Take the fish shown on the drawn tokens (+1 with the Lookout Tower) from the fjord,
    up to the boat's capacity, the fjord's stock and the storage room (5.2). ``FishCaught``
    with ``fish`` (caught), ``shown`` (on the tokens, bonus included), ``thrown_back``
    (taken from the fjord and put back: boat or storage full) and ``not_in_fjord`` (shown
    but missing from the fjord); ``shown == fish + thrown_back + not_in_fjord``."""
    p = state.players[seat]
    idx = content.building_index()
    total = state.drawn.get("fish", 0) + sum(idx[b].fish_bonus for b in p.buildings)
    present = min(total, state.fjord)
    caught = min(present, capacity(p, "boat"), room(p, "fish"))
    return [Event("FishCaught", {"seat": seat, "fish": caught, "shown": total,
                                 "thrown_back": present - caught, "not_in_fjord": total - present})]


# -- Woodcutter (5.3) ---------------------------------------------------------------------


def next_clearing(state: State, skip: int = 0) -> int:
    """The clearing the Woodcutter walks to next, counter-clockwise along the trail (after
    jumping over ``skip`` clearings: the Bird's Crown)."""
    return (state.woodcutter + 1 + skip) % len(content.load().forest.clearings)


def check_advance(state: State, seat: int) -> None:
    """Walk to the next clearing: not after cutting in the Orchard, and only while the
    wood cart is not full (5.3). Like fishing, the action may not start without room to
    store at least 1 Wood; once started it may move on to a clearing with no wood
    (house rule: 5.0 no-waste note, 5.3)."""
    a = state.action
    p = state.players[seat]
    if a is None and nogbad_blocks(state, "woodcutter"):
        raise IllegalMove("Nogbad's bears are in the woods: no wood-cutting (rulebook 8.0)")
    if a is None and room(p, "wood") < 1:
        raise IllegalMove("you have no room to store any Wood, so the Woodcutter action cannot start "
                          "(rulebook 5.0 no waste, 5.3; house rule)")
    if a is not None and a.mode == "orchard":
        raise IllegalMove("Wood comes from the forest OR the Orchard in one action (rulebook 5.3)")
    if a is not None and a.ops > 0 and a.cart.get("wood", 0) >= capacity(p, "wood_cart"):
        raise IllegalMove("your wood cart is full; the Woodcutter may only move on while it is not "
                          "(rulebook 5.3)")


def check_jump(state: State, seat: int) -> None:
    """The Bird's Crown: once per season, jump over the next clearing for the same Step
    (appendix); otherwise as a walk to the next clearing (5.3)."""
    if not can_use(state.players[seat], "birds_crown"):
        raise IllegalMove("only the owner of a face-up Bird's Crown may jump a clearing, once per season")
    check_advance(state, seat)


def advance(state: State, seat: int, skip: int = 0) -> list[Event]:
    """Move the Woodcutter to the next clearing (or the one after, ``skip`` = 1 with the Bird's
    Crown) and cut the printed number of trees, as far as the zone, the wood cart and
    storage allow (5.3, no waste). ``WoodcutterMoved`` (and ``AbilityUsed`` for a jump)."""
    forest = content.load().forest
    nxt = next_clearing(state, skip)
    clearing = forest.clearings[nxt]
    p = state.players[seat]
    cart = _cart(state)
    wood = min(clearing.number, state.forest[clearing.zone],
               capacity(p, "wood_cart") - cart.get("wood", 0), room(p, "wood", cart))
    events = [Event("WoodcutterMoved", {"seat": seat, "clearing": nxt, "zone": clearing.zone, "wood": max(0, wood)})]
    if skip:
        events.insert(0, Event("AbilityUsed", {"seat": seat, "card": "birds_crown", "once": "season"}))
    return events


def check_cut_orchard(state: State, seat: int) -> None:
    """Cut one Orchard tree into the Farm (5.3)."""
    a = state.action
    p = state.players[seat]
    if a is None and nogbad_blocks(state, "woodcutter"):
        raise IllegalMove("Nogbad's bears are in the woods: no cutting in the Orchards either (rulebook 8.0)")
    if a is not None and a.mode == "forest":
        raise IllegalMove("Wood comes from the forest OR the Orchard in one action (rulebook 5.3)")
    if p.orchard < 1:
        raise IllegalMove("there is no tree left in your Orchard (rulebook 5.3)")
    if room(p, "wood") < 1:
        raise IllegalMove("your Farm has no room for 1 more Wood (rulebook 3.7, no waste)")


def cut_orchard(state: State, seat: int) -> list[Event]:
    """Cut one Orchard tree for 1 Step (5.3). ``OrchardTreeCut``."""
    return [Event("OrchardTreeCut", {"seat": seat})]


# -- Farmer (5.4) -------------------------------------------------------------------------


def _built_on(p: Player, space: str) -> bool:
    return space in p.buildings.values()


def check_sow(state: State, seat: int, field_: int) -> None:
    """Sow one field with 2 Harvest from the Nog Market, in Spring only (5.4, house rule: one field per Step)."""
    p = state.players[seat]
    if season_name(state.season) != "spring":
        raise IllegalMove("fields can only be sown in Spring (rulebook 5.4)")
    if _built_on(p, f"field{field_}"):
        raise IllegalMove("that field has a building on it (rulebook 5.5)")
    if p.fields[field_] > 0:
        raise IllegalMove("that field is already sown (rulebook 5.4)")
    need = content.load().setup.field_harvest
    if state.market["harvest"] < need:
        raise IllegalMove(f"sowing needs {need} Harvest at the Nog Market (rulebook 5.4)")


def sow(state: State, seat: int, field_: int) -> list[Event]:
    """Place 2 Harvest from the Nog Market on a field's labourers (5.4). ``FieldSown``."""
    return [Event("FieldSown", {"seat": seat, "field": field_, "harvest": content.load().setup.field_harvest})]


def check_harvest(state: State, seat: int, field_: int) -> None:
    """Reap a sown field in Summer or Autumn into storage (5.4, 3.7)."""
    p = state.players[seat]
    if season_name(state.season) not in ("summer", "autumn"):
        raise IllegalMove("fields can only be harvested in Summer or Autumn (rulebook 5.4)")
    if p.fields[field_] < 1:
        raise IllegalMove("that field has no Harvest on it (rulebook 5.4)")
    if room(p, "harvest") < p.fields[field_]:
        raise IllegalMove(f"your Farm has no room for {p.fields[field_]} more Harvest "
                          f"(rulebook 3.7, no waste)")


def harvest(state: State, seat: int, field_: int) -> list[Event]:
    """Move a field's Harvest cubes to storage for 1 Step (5.4). ``FieldHarvested``."""
    return [Event("FieldHarvested", {"seat": seat, "field": field_,
                                     "harvest": state.players[seat].fields[field_]})]


def check_pick_apples(state: State, seat: int, tree: int) -> None:
    """In Autumn each Orchard tree gives 1 Harvest from the Nog Market per Step, once per
    Farmer action (5.4, house rule)."""
    p = state.players[seat]
    if season_name(state.season) != "autumn":
        raise IllegalMove("apples can only be picked in Autumn (rulebook 5.4)")
    if tree >= p.orchard:
        raise IllegalMove(f"your Orchard has {p.orchard} tree(s) (rulebook 5.4)")
    if state.action is not None and tree in state.action.apples:
        raise IllegalMove("that tree was already picked in this Farmer action (rulebook 5.4)")
    if state.market["harvest"] < 1:
        raise IllegalMove("there is no Harvest cube at the Nog Market (rulebook 5.4)")
    if room(p, "harvest") < 1:
        raise IllegalMove("your Farm has no room for 1 more Harvest (rulebook 3.7, no waste)")


def pick_apples(state: State, seat: int, tree: int) -> list[Event]:
    """Take 1 Harvest from the Nog Market for one Orchard tree (5.4). ``ApplePicked``."""
    return [Event("ApplePicked", {"seat": seat, "tree": tree})]


# -- Builder (5.5) ------------------------------------------------------------------------


def building_cost() -> list[str]:
    """The price of a building as payment slots, ``["stone", "wood", "wood"]`` from content
    (rulebook 5.5)."""
    c = content.load().buildings.cost
    return ["stone"] * c.stone + ["wood"] * c.wood


def transport_cost() -> list[str]:
    """The price of a transport upgrade as payment slots, ``["wood", "wood"]`` (rulebook 5.5)."""
    return ["wood"] * content.load().transports.cost.wood


BESIDE = "beside"
"""Where the New Land tile goes: beside the Player Board, on no board space (5.5, appendix)."""


def free_spaces(p: Player) -> list[str]:
    """Board spaces with no building yet; the New Land adds one once built (3.8, appendix)."""
    spaces = ["mountains", "field0", "field1", "orchard", "meadow"]
    if "new_land" in p.buildings:
        spaces.append("new_land")
    return [s for s in spaces if not _built_on(p, s)]


def available_buildings(state: State) -> list[tuple[str, str]]:
    """``(source, tile)`` pairs a Builder may take now: the bottom row (``"row"``), and from
    season 5 also any tile of the face-up Year 1 pile (``"pile"``); from season 5 the rows
    hold Year 2 tiles (5.5, appendix)."""
    out = [("row", t) for t in state.rows.get("bottom", []) if t]
    if state.season >= 5:
        out += [("pile", t) for t in state.year1_pile]
    return out


def genie_build(state: State, seat: int) -> bool:
    """True if this Builder sub-move is the Good Genie's second build (appendix)."""
    a = state.action
    return a is not None and a.kind == "builder" and a.builds == 1


def _check_second_build(state: State, seat: int) -> None:
    a = state.action
    if a is not None and a.kind == "builder" and a.builds >= 1:
        if a.builds >= 2 or not can_use(state.players[seat], "good_genie"):
            raise IllegalMove("one building or upgrade per Builder action; the Good Genie allows a "
                              "second once per season (rulebook 5.5, appendix)")


def check_build(state: State, seat: int, building: str, space: str, pay: list[str] | None = None) -> None:
    """Build a tile from the bottom row (or, from season 5, the Year 1 pile) on a free space,
    paying 2 Wood and 1 Stone (Gold or coins may replace any) (5.5)."""
    _check_second_build(state, seat)
    p = state.players[seat]
    sources = {t for _, t in available_buildings(state)}
    if building not in sources:
        where = "the bottom row or the Year 1 pile" if state.season >= 5 else "the bottom row"
        raise IllegalMove(f"there is no {building} tile in {where} (rulebook 5.5)")
    if building in p.buildings:
        raise IllegalMove("you may not have 2 identical buildings (rulebook 5.5)")
    info = content.building_index()[building]
    if info.adds_space:
        if space != BESIDE:
            raise IllegalMove(f"the {info.name} tile is placed beside your Player Board (space "
                              f"\"{BESIDE}\"), not on a board space (rulebook 5.5)")
    elif space not in free_spaces(p):
        raise IllegalMove(f"the {space} space is not free to build on (rulebook 5.5)")
    if info.spaces == "mountains" and space != "mountains":
        raise IllegalMove(f"the {info.name} may only be built on the Mountains space (rulebook 5.5)")
    if info.spaces != "mountains" and space == "mountains":
        raise IllegalMove("only the Long House may be built on the Mountains space (rulebook 5.5)")
    if space.startswith("field") and p.fields[int(space[-1])] > 0:
        raise IllegalMove("you cannot build on a field with Harvest on it (rulebook 5.5)")
    if space == "orchard" and p.orchard > 0:
        raise IllegalMove("you cannot build on an Orchard with trees on it (rulebook 5.5)")
    pay_for(p, building_cost(), pay, "a building (2 Wood and 1 Stone, rulebook 5.5)")


def build(state: State, seat: int, building: str, space: str, pay: list[str] | None = None) -> list[Event]:
    """Pay, take the tile, place it and gain its Nogs from the reserve (Year 1 only) (5.5).
    ``BuildingBuilt`` with ``paid``, ``nogs``, ``from`` (row or pile) and ``genie``."""
    p = state.players[seat]
    source = "row" if building in state.rows.get("bottom", []) else "pile"
    nogs = min(content.building_index()[building].nogs, p.reserve)
    data = {"seat": seat, "building": building, "space": space, "nogs": nogs, "from": source,
            "paid": pay_for(p, building_cost(), pay, "a building")}
    if genie_build(state, seat):
        data["genie"] = True
    return [Event("BuildingBuilt", data)]


def check_upgrade(state: State, seat: int, transport: str, pay: list[str] | None = None) -> None:
    """Upgrade a transport once, from its pile, for 2 Wood (Gold or coins may replace any) (5.5)."""
    _check_second_build(state, seat)
    p = state.players[seat]
    if transport in p.transports:
        raise IllegalMove("each means of transport can only be upgraded once (rulebook 5.5)")
    if state.transport_piles[transport] < 1:
        raise IllegalMove(f"no {transport} tile is left (set-up F)")
    pay_for(p, transport_cost(), pay, "a transport upgrade (2 Wood, rulebook 5.5)")


def upgrade_transport(state: State, seat: int, transport: str, pay: list[str] | None = None) -> list[Event]:
    """Pay 2 Wood and raise the transport's capacity to 4 (5.5). ``TransportUpgraded``."""
    p = state.players[seat]
    data = {"seat": seat, "transport": transport, "paid": pay_for(p, transport_cost(), pay, "an upgrade")}
    if genie_build(state, seat):
        data["genie"] = True
    return [Event("TransportUpgraded", data)]


def action_of(state: State) -> Action | None:
    """The action in progress, or None between actions."""
    return state.action
