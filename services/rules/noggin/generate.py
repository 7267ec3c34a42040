"""The legal sub-moves of the Nog actions, generated legal rather than generated and checked.

Each function returns exactly the moves of :func:`.turns.action_moves` (``pruned``) for its
action that :func:`.turns.check` accepts, given the Step costs the active marker may still
spend (``costs``, :func:`.turns._affordable`), in the same order and with the same repeats;
the action's Nogs (5.0, 8.0) are the caller's to check. Each rule's conditions are read once
for all the moves they decide instead of once per move: the payments listed are the seat's
own (:func:`.payments.payment_options`), so every one of them fits its cost, and what else
a check asks is the same for every payment of one move. ``tests/rules/noggin/test_legal_moves.py``
holds them to the candidates filtered by ``check`` at every decision of seeded random games.

Rulebook sections: 5.1 Miner, 5.2 Fisherman, 5.3 Woodcutter, 5.4 Farmer, 5.5 Builder, 5.6 Restock, 6.0-6.6 Market
Day (the order of picks, characters, evicting Nogbad, the auction, Sagas, Inventions, trade),
8.0 Nogbad's blocks; the appendix for the cards named.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations_with_replacement
from typing import Any

from services.rules.core import IllegalMove

from . import board, content, inventions, market, sagas
from .board import (BESIDE, DISCOVER_STONE, FARM, can_use, capacity, check_discover, discover_slots, free_walk,
                    has_artefact, nogbad_blocks, nogbad_space, room, spare_nogs, walk_region)
from .characters import EVICTIONS, food_slots
from .content import BASIC, CHARACTERS
from .decks import can_draw, mine_tiles_left, reserve_left
from .payments import payment_choices
from .state import ACTIONS, CASTLE, DECKS, TRANSPORTS, State, key, option, season_name

Move = dict[str, Any]


BUILDING_COST = tuple(board.building_cost())
TRANSPORT_COST = tuple(board.transport_cost())
ROTATIONS = (0, 90, 180, 270)
FLIPS = ("h", "v")


_DIGS = {(r, c): tuple((sq, key(*sq)) for sq in ((r - 1, c), (r, c - 1), (r, c + 1), (r + 1, c)))
         for r in range(-1, board.MINE_DEPTH) for c in range(board.MINE_WIDTH)}
"""Each square the Miner may stand on: the four squares he may dig from it, in the order of
:func:`.turns.action_moves`, each with its Mine key."""


def miner(state: State, seat: int, costs: frozenset[int]) -> list[Move]:
    """The Miner's digs, walks and discoveries (5.1), 1 Step each (a walk free once per action
    with the Moon Stone): a dig is legal by what lies on its square alone (the cube, the
    cart's and the Farm's room, :func:`.board.check_dig`); every square of the Miner's reach
    is a legal walk; a discovery's legality does not depend on the tile's orientation, so
    each slot is checked once for its eight, and none is legal without 9 Stone at the Nog
    Market and a Mine tile left."""
    out: list[Move] = []
    p = state.players[seat]
    r0, c0 = state.miner[0], state.miner[1]
    step = 1 in costs
    if step:
        get = state.mine.get
        a = state.action
        cart = a.cart if a is not None else {}
        if sum(cart.values()) < capacity(p, "mine_cart"):
            stone_room: bool | None = None
            digs = _DIGS.get((r0, c0))
            if digs is None:  # the Miner off the board (a state made up by hand)
                digs = tuple((sq, key(*sq)) for sq in ((r0 - 1, c0), (r0, c0 - 1), (r0, c0 + 1), (r0 + 1, c0)))
            for (r, c), k in digs:
                cube = get(k)
                if not cube:
                    continue
                if cube == "stone":
                    if stone_room is None:
                        stone_room = room(p, "stone", cart) >= 1
                    if not stone_room:
                        continue
                out.append({"type": "miner", "op": "dig", "square": [r, c]})
    if (0 if free_walk(state, seat) else 1) in costs:
        out += [{"type": "miner", "op": "walk", "square": [r, c]} for r, c in walk_region(state)
                if r != r0 or c != c0]
    if step and state.market["stone"] >= DISCOVER_STONE and mine_tiles_left(state) > 0:
        for slot in discover_slots(state):
            if _ok(check_discover, state, seat, slot):
                out += [{"type": "miner", "op": "discover", "slot": slot, "rotation": rot, "flip": flip}
                        for rot in ROTATIONS for flip in FLIPS]
    return out


def fisherman(state: State, seat: int, costs: frozenset[int]) -> list[Move]:
    """Fishing with 1-4 Fishing tokens (5.2): each costs its draws in Steps; all or none are
    legal by :func:`.board.check_fisherman`."""
    a = state.action
    if (a is not None and a.tokens is not None) or state.fjord < 1 or room(state.players[seat], "fish") < 1:
        return []
    return [{"type": "fisherman", "draws": n} for n in (1, 2, 3, 4) if n in costs]


def woodcutter(state: State, seat: int, costs: frozenset[int]) -> list[Move]:
    """The Woodcutter's walk, Orchard cut and the Bird's Crown jump (5.3, appendix), 1 Step each:
    the conditions of :func:`.board.check_advance` and :func:`.board.check_cut_orchard` (the
    jump is legal when a walk is and the Crown may be used), the Farm's room read once."""
    a = state.action
    if 1 not in costs or (a is None and nogbad_blocks(state, "woodcutter")):
        return []
    p = state.players[seat]
    space = room(p, "wood")
    if a is None:
        walk = space >= 1
    else:
        walk = a.mode != "orchard" and not (a.ops > 0 and a.cart.get("wood", 0) >= capacity(p, "wood_cart"))
    out: list[Move] = []
    if walk:
        out.append({"type": "woodcutter", "op": "advance"})
    if (a is None or a.mode != "forest") and p.orchard >= 1 and space >= 1:
        out.append({"type": "woodcutter", "op": "orchard"})
    if walk and can_use(p, "birds_crown"):
        out.append({"type": "woodcutter", "op": "jump"})
    return out


def farmer(state: State, seat: int, costs: frozenset[int]) -> list[Move]:
    """Sowing (Spring), harvesting (Summer, Autumn) and picking apples (Autumn), 1 Step each
    (5.4): the conditions of :func:`.board.check_sow`, :func:`.board.check_harvest` and
    :func:`.board.check_pick_apples`, with the Farm's room worked out once."""
    if 1 not in costs:
        return []
    p = state.players[seat]
    season = season_name(state.season)
    harvest_left = state.market["harvest"]
    out: list[Move] = []
    if season == "spring" and harvest_left >= content.load().setup.field_harvest:
        built = set(p.buildings.values())
        out += [{"type": "farmer", "op": "sow", "field": f} for f, h in enumerate(p.fields)
                if h <= 0 and f"field{f}" not in built]
    if season in ("summer", "autumn"):
        space = room(p, "harvest")
        out += [{"type": "farmer", "op": "harvest", "field": f} for f, h in enumerate(p.fields) if 1 <= h <= space]
    if season == "autumn" and harvest_left >= 1 and room(p, "harvest") >= 1:
        picked = state.action.apples if state.action is not None else ()
        out += [{"type": "farmer", "op": "apple", "tree": t} for t in range(2) if t < p.orchard and t not in picked]
    return out


def builder(state: State, seat: int, costs: frozenset[int]) -> list[Move]:
    """Buildings and transport upgrades (5.5), 2 Steps (none for the Good Genie's second build):
    the conditions of :func:`.board.check_build` and :func:`.board.check_upgrade`, once per
    building and space or per transport for all its payments."""
    a = state.action
    if (0 if a is not None else 2) not in costs:
        return []
    p = state.players[seat]
    if (a is not None and a.kind == "builder" and a.builds >= 1
            and (a.builds >= 2 or not can_use(p, "good_genie"))):
        return []
    out: list[Move] = []
    choices = payment_choices(p)
    pays = choices(BUILDING_COST)
    if pays:
        free = board.free_spaces(p)
        index = content.building_index()
        for _, b in sorted(set(board.available_buildings(state))):
            if b in p.buildings:
                continue
            info = index[b]
            for space in [BESIDE] if info.adds_space else free:
                if ((info.spaces == "mountains") != (space == "mountains")
                        or (space.startswith("field") and p.fields[int(space[-1])] > 0)
                        or (space == "orchard" and p.orchard > 0)):
                    continue
                out += [{"type": "builder", "building": b, "space": space, "pay": pay} for pay in pays]
    for tr in TRANSPORTS:
        if tr not in p.transports and state.transport_piles[tr] >= 1:
            out += [{"type": "builder", "transport": tr, "pay": pay} for pay in choices(TRANSPORT_COST)]
    return out


_RESTOCK_AMOUNTS = {net: tuple(sorted(set(market.RESTOCK_AMOUNTS) | (set(market.NET_AMOUNTS) if net else set())))
                    for net in (False, True)}
"""The amounts a Restock lists, without and with the Butterfly Net (:func:`.market.restock_amounts`)."""
_FEWEST_TREES = min(market.RESTOCK_AMOUNTS)
"""Below this much Wood at the Nog Market no trees can be restocked."""
_FEWEST_FISH = min(min(amounts) for amounts in _RESTOCK_AMOUNTS.values())
"""Below this much Fish at the Nog Market no fish can be restocked (with or without the Net)."""


def restock(state: State, seat: int, costs: frozenset[int]) -> list[Move]:
    """Restocking 4, 8 or 12 trees (some into the Orchard) or fish (3, 7 or 11 with the Butterfly
    Net), 2 Steps (5.6): the conditions of :func:`.market.check_restock`, the forest's room
    counted once."""
    if 2 not in costs:
        return []
    wood, fish = state.market.get("wood", 0), state.market.get("fish", 0)
    if wood < _FEWEST_TREES and fish < _FEWEST_FISH:  # nothing to restock with (most turns)
        return []
    p = state.players[seat]
    c = content.load()
    space = sum(z.hexes - state.forest[z.id] for z in c.forest.zones)
    replant = not option(state, "so_long") and "orchard" not in p.buildings.values()
    orchards = [k for k in (0, 1, 2) if (replant or k == 0) and p.orchard + k <= c.setup.orchard_trees]
    out: list[Move] = []
    for amount in _RESTOCK_AMOUNTS[has_artefact(p, "butterfly_net")]:
        if amount in market.RESTOCK_AMOUNTS and amount <= wood:
            out += [{"type": "restock", "kind": "trees", "amount": amount, "orchard": k} for k in orchards
                    if k <= amount and amount - k <= space]
        if amount <= fish:
            out.append({"type": "restock", "kind": "fish", "amount": amount, "orchard": 0})
    return out


_OPTIONS = frozenset(market.OPTIONS)
"""Market Day's options (6.0), as a set."""


def market_day(state: State, seat: int, costs: frozenset[int]) -> list[Move]:
    """Market Day's sub-moves (6.0: 1 Step to start, none once started): a character's ability
    (6.1), evicting Nogbad (6.2), the auction (6.3), a Saga (6.4), an Invention (6.5) and
    trades (6.6), each allowed by the order of picks (:func:`.market.check_pick`, read once)."""
    a = state.action
    if (0 if a is not None else 1) not in costs:
        return []
    p = state.players[seat]
    picks = a.picks if a is not None else []
    last = picks[-1] if picks else None
    if picks:  # Honey & Mead allows one more pick than a character and then one option (6.0, appendix)
        honey = len(picks) < 3 and can_use(p, "honey_and_mead")
        optioned = not _OPTIONS.isdisjoint(picks)  # an option picked already
        option_ok = honey or not optioned  # a new option
        character_ok = honey or not ("character" in picks or optioned)
    else:
        option_ok = character_ok = True
    where = state.characters
    pays = payment_choices(p)  # the seat's payments, each cost worked out once
    out: list[Move] = []
    if character_ok:
        food_pays = pays(tuple(food_slots(state)))
        if food_pays:
            out += _characters(state, food_pays)
    if state.nogbad == "active" and option_ok:
        medal = has_artefact(p, "roman_medal")
        for by, (chars, n, _) in EVICTIONS.items():
            if by in ("romf", "graculus") and not medal:
                continue
            home = True  # every character the eviction needs at the Castle (a loop: no generator a card)
            for c in chars:
                if where[c] != CASTLE:
                    home = False
                    break
            if not home:
                continue
            out += [{"type": "market_day", "op": "evict", "by": by, "pay": pay} for pay in pays(("food",) * n)]
    if state.counting_house is not None and option_ok and market.first_turns_over(state):
        out.append({"type": "market_day", "op": "auction"})
    spare = spare_nogs(state, seat, True) >= 1
    if not nogbad_blocks(state, "saga"):
        claims = spare and bool(p.counting_house)  # the C-card bonus (:func:`.sagas.can_claim_bonus`)
        for slot, saga in enumerate(state.sagas):
            if saga is None or saga.current is None:
                continue
            if not (option_ok or (last == "saga" and a is not None and a.saga == slot)):
                continue
            card = saga.current
            needs = card.needs
            bonus_card = claims and card.bonus and card.bonus_seat is None
            for cond, met in enumerate(card.met):
                if met is not None:
                    continue
                need = needs[cond]
                if need in CHARACTERS:
                    if where[need] != CASTLE:
                        continue
                    options = pays(tuple(sagas.condition_slots(state, seat, slot, need)))
                    bonus = False
                else:
                    options = pays((need,))
                    bonus = bonus_card
                for pay in options:
                    if spare:
                        out.append({"type": "market_day", "op": "saga", "saga": slot, "condition": cond, "nog": True,
                                    "pay": pay})
                    out.append({"type": "market_day", "op": "saga", "saga": slot, "condition": cond, "nog": False,
                                "pay": pay})
                    if bonus:
                        out.append({"type": "market_day", "op": "saga", "saga": slot, "condition": cond, "nog": True,
                                    "bonus": True, "pay": pay})
    if spare:
        olaf = where["olaf"] == CASTLE or "inventors_workshop" in p.buildings
        swap = a is not None and a.olaf  # Olaf's swap: any resource for any (6.1)
        smith = "blacksmith" in p.buildings
        for slot, inv in enumerate(state.inventions):
            if inv is None or not (option_ok or (last == "invention" and a is not None and a.invention == slot)):
                continue
            needs = inv.needs
            for cond, met in enumerate(inv.met):
                if met is not None:
                    continue
                need = needs[cond]
                if need == "olaf":
                    if not olaf:
                        continue
                    options = pays(("food",))
                else:
                    options = pays(("any",) if swap else (need,))
                    if smith and need in ("wood", "stone") and inventions.blacksmith_free(state, seat, slot, cond):
                        options = [[], *options]
                if options:
                    out += [{"type": "market_day", "op": "invention", "invention": slot, "condition": cond,
                             "pay": pay} for pay in options]
    if option_ok or last == "trade":
        out += _trades(state, p)
    return out


def _characters(state: State, food_pays: list[list[str]]) -> list[Move]:
    """Every character's ability that Market Day may use now (6.1: the conditions of
    :func:`.characters.check_character`), each with each of ``food_pays``."""
    out: list[Move] = []
    where = state.characters
    for ch in CHARACTERS:
        if ch != "graculus" and where[ch] != CASTLE:
            continue
        if ch == "noggin":
            blocked = nogbad_space(state)
            out += [{"type": "market_day", "op": "character", "character": ch, "owner": o.seat, "action": x, "pay": pay}
                    for o in state.players for x in ACTIONS if o.placed[x] and (x != blocked or x == "market_day")
                    for pay in food_pays]
        elif ch == "nooka":
            decks = [d for d in ("B", "C") if can_draw(state, d)]
            out += [{"type": "market_day", "op": "character", "character": ch, "saga": i, "deck": d, "pay": pay}
                    for i, s in enumerate(state.sagas)
                    if s is not None and s.current is not None and s.current.met.count(None) == len(s.current.met)
                    for d in decks for pay in food_pays]
        elif ch == "knut":
            out += [{"type": "market_day", "op": "character", "character": ch, "deck": d, "pay": pay}
                    for d in DECKS if reserve_left(state, d) >= 1 for pay in food_pays]
        elif ch == "graculus":
            out += [{"type": "market_day", "op": "character", "character": ch, "target": c, "pay": pay}
                    for c in CHARACTERS if c != "graculus" and where[c] != CASTLE for pay in food_pays]
        elif ch == "thor":
            if state.nogbad != "active":
                out += [{"type": "market_day", "op": "character", "character": ch, "direction": d, "pay": pay}
                        for d in (1, -1) for pay in food_pays]
        elif ch == "olaf":
            out += [{"type": "market_day", "op": "character", "character": ch, "pay": pay} for pay in food_pays]
        elif ch == "romf":
            out += [{"type": "market_day", "op": "character", "character": ch, "top": i, "bottom": j, "pay": pay}
                    for i, t in enumerate(state.rows.get("top", [])) if t
                    for j, b in enumerate(state.rows.get("bottom", [])) if b for pay in food_pays]
    return out


def _trades(state: State, p: Any) -> list[Move]:
    """Trades at the Nog Market (6.6: ``rate`` cubes, or 1 coin, for 1 cube present there, Gold
    never taken, coins only after the Money Saga), those whose result fits the Farm (3.7:
    :func:`.board.fits`, the cubes over the buildings' storage counted once per give)."""
    stock = p.stock
    takes = [t for t in market.TRADE_GOODS if t not in market.NOT_TAKEN and state.market.get(t, 0) > 0
             and (t != "coin" or state.coins)]
    if not takes:
        return []
    out: list[Move] = []
    for give, blocked in _trade_gives(tuple(stock.items()), tuple(p.buildings), market.rate(state)):
        given = list(give)
        out += [{"type": "market_day", "op": "trade", "give": given, "take": take} for take in takes
                if take not in blocked]
    return out


@lru_cache(maxsize=4096)
def _trade_gives(stock: tuple[tuple[str, int], ...], buildings: tuple[str, ...],
                 r: int) -> tuple[tuple[tuple[str, ...], frozenset[str]], ...]:
    """The gives of :func:`_trades` for a seat's ``stock`` (its items, in the stock's order),
    ``buildings`` (their names) and the rate ``r``: each give the seat holds whose result fits
    the Farm (3.7), in the order of the trades, with the kinds it may not take (those it gives,
    and, with the Farm full after it, those without room in their buildings' storage).
    Worked out once per stock, buildings and rate; read only."""
    have = dict(stock)
    goods = [g for g in market.TRADE_GOODS if have.get(g, 0) > 0]
    gives: list[tuple[str, ...]] = list(combinations_with_replacement(goods, r))
    if have.get("coin", 0) > 0 and r != 1:
        gives.append(("coin",))
    extra = board.building_storage(buildings)
    spill = {b: have[b] - extra[b] for b in BASIC}  # cubes of each kind beyond its buildings' storage
    over_now = sum(v for v in spill.values() if v > 0)
    full = frozenset(b for b in BASIC if spill[b] >= 0)
    out = []
    for give in gives:
        counts = {g: give.count(g) for g in give}
        if any(have[g] < k for g, k in counts.items()):
            continue
        over = over_now
        for g, k in counts.items():
            if g in spill and spill[g] > 0:
                over -= min(k, spill[g])
        if over > FARM:
            continue
        # taking one more needs a Farm space unless the kind's storage has room (3.7)
        out.append((give, frozenset(counts) | full if over >= FARM else frozenset(counts)))
    return tuple(out)


def _ok(check: Any, *args: Any) -> bool:
    try:
        check(*args)
    except IllegalMove:
        return False
    return True


GENERATED = {"miner": miner, "fisherman": fisherman, "woodcutter": woodcutter, "farmer": farmer, "builder": builder,
             "restock": restock, "market_day": market_day}
"""Each action's generator of legal sub-moves."""
