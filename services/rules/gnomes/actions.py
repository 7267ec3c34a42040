"""The actions of a turn (rulebook C.1-C.7): their checks and their events.

Each action has ``check_<type>(state, seat, move)``, which raises :class:`IllegalMove`
with a reason that cites the rulebook and never changes the state, and
``do_<type>(state, seat, move)``, which returns the events of a checked move (the board
and market domains; draws of chance are in :mod:`.decks`). Every action that costs
weeks must fit the timing track: a gnome timer never passes week 7 (C.1 timer, C end),
while 0-week actions stay allowed at 7.

Moves (C.1): ``travel`` plays one travel card (single, double, free; on the frog any
card and any route, B equipment), ``three_for_free`` plays cards with 3 or more icons
for any one land route, ``equipment`` uses an item (Canteen, Short Axe, Hill Boots,
Compass, Leaf Boat, Tunnel or Spare Key), ``ice`` crosses frozen water and
``winter_path`` follows the Sorcerer's footprints (G), ``climb`` changes level with a
map (free, C.1 mountain), ``pond_pipes`` mounts the frog.
"""

from __future__ import annotations

from typing import Any

from services.rules.core import Event, IllegalMove, public

from . import geo
from .content import content
from .state import (
    KING,
    Player,
    State,
    basket_room,
    change,
    equipment,
    gem_value,
    hand,
    held,
    quests,
    travel_cards,
    treasures,
)

TRACK_END = 7
"""The last space of the timing track (C.1 timer: no action may take a timer past 7)."""
ANY_ROUTE = frozenset({"meadow", "forest", "mountain", "black"})
"""Every land route: three for free and the frog cross any of them (C.1, B equipment)."""
ITEM_MOVES = ("canteen", "short_axe", "hill_boots", "compass", "leaf_boat", "tunnel_key", "spare_key")
"""Items that move a gnome without a card (B equipment, I)."""
KEYS = ("tunnel_key", "spare_key")


def fits(p: Player, weeks: int) -> None:
    """Raise unless ``weeks`` more fit on ``p``'s timing track (C.1 timer, C end)."""
    if p.timer + weeks > TRACK_END:
        raise IllegalMove(f"that takes {weeks} week(s) and the gnome timer is on {p.timer}: no action may take it "
                          f"past week {TRACK_END} (rulebook C.1, C end)")


def tile_kind(state: State, place: str) -> str | None:
    """``village``, ``shop``, ``house`` for a site, ``tower``, or None on the mountain."""
    if place == content().board.tower:
        return "tower"
    tile = state.layout.get(place)
    return geo.tile_kinds()[tile] if tile else None


def tunnel_sites(state: State) -> tuple[str, str]:
    """The sites of the tunnel's two villages (Grifola and Hydnum, B equipment)."""
    a, b = content().tiles.tunnel
    site_a = site_b = None
    for site, tile in state.layout.items():
        if tile == a:
            site_a = site
        elif tile == b:
            site_b = site
    if site_a is None or site_b is None:
        raise KeyError(a if site_a is None else b)
    return site_a, site_b


def frog_rider(state: State, seat: int) -> bool:
    """True if ``seat`` rides the frog this round (Pond Pipes, B equipment)."""
    return state.frog == seat


# -- quests ------------------------------------------------------------------------------------

def quest_events(state: State, seat: int, path: list[str] | None = None, crossed: str | None = None,
                 sold: tuple[str, str] | None = None) -> list[Event]:
    """``QuestCompleted`` if this action did the held quest's task (C.7): passing the summit
    or another player's house on ``path``, crossing the lake, selling ``(colour, tile)``."""
    p = state.players[seat]
    if p.quest is None:
        return []
    task = quests()[p.quest].task
    done = False
    if "reach" in task and path:
        done = content().board.mountain.summit in path
    elif "visit" in task and path:
        houses = {geo.house_of_colour()[o.colour] for o in state.players if o.seat != seat}
        done = any(state.layout.get(x) in houses for x in path)
    elif "cross" in task:
        done = crossed == "lake"
    elif "sell" in task and sold:
        done = sold[0] == task["sell"] and sold[1] in task["at"]
    return [public("QuestCompleted", seat=seat, quest=p.quest)] if done else []


def _moved(state: State, seat: int, path: list[str], weeks: int, by: str, cards: list[str] | None = None,
           item: str | None = None, crossed: str | None = None) -> list[Event]:
    data: dict[str, Any] = {"seat": seat, "from": state.players[seat].place, "path": path, "by": by, "weeks": weeks}
    if cards:
        data["cards"] = cards
    if item:
        data["item"] = item
    if crossed:
        data["crossed"] = crossed
    if frog_rider(state, seat):
        data["frog"] = True
    return [Event("GnomeMoved", data), *quest_events(state, seat, path=path, crossed=crossed)]


def _has_cards(state: State, seat: int, cards: list[str]) -> None:
    h = list(hand(state, seat))
    for c in cards:
        if c not in h:
            raise IllegalMove(f"card {c!r} is not in your hand")
        h.remove(c)


# -- C.1 travel with one card ------------------------------------------------------------------

def card_icons(state: State, seat: int, card: str) -> frozenset[str]:
    """The routes one ``card`` crosses: its terrain (single, double), any of meadow, forest and
    mountain (free), none (nugget); on the frog any route at all (C.1, B equipment)."""
    t = travel_cards()[card]
    if frog_rider(state, seat):
        return ANY_ROUTE
    if t.kind == "free":
        return geo.LAND_ICONS
    return frozenset({t.terrain}) if t.terrain else frozenset()


def check_travel(state: State, seat: int, move: dict[str, Any]) -> None:
    """One travel card: a single or free card crosses one route, a double up to two of its
    terrain, each route matching the card's icon (C.1); its sand timer in weeks."""
    card, path = move["card"], move["path"]
    if card not in travel_cards():
        raise IllegalMove(f"{card!r} is not a travel card")
    _has_cards(state, seat, [card])
    t = travel_cards()[card]
    steps = 2 if t.kind == "double" else 1
    if not 1 <= len(path) <= steps:
        raise IllegalMove(f"a {t.kind} card moves {'one or two routes' if steps == 2 else 'one route'}, "
                          f"not {len(path)} (rulebook C.1)")
    icons = card_icons(state, seat, card)
    if not icons:
        raise IllegalMove("a nugget card moves a gnome only in three for free (or on the frog) (rulebook C.1)")
    at = state.players[seat].place
    for nxt in path:
        if not geo.crosses(at, nxt, icons):
            raise IllegalMove(f"no route from {at} to {nxt} that a {card} card crosses (rulebook C.1)")
        at = nxt
    fits(state.players[seat], t.weeks)


def do_travel(state: State, seat: int, move: dict[str, Any]) -> list[Event]:
    """``GnomeMoved`` by one card."""
    return _moved(state, seat, list(move["path"]), travel_cards()[move["card"]].weeks, "card", cards=[move["card"]])


# -- C.1 three for free ------------------------------------------------------------------------

def icons_of(cards: list[str]) -> int:
    """Icons ``cards`` give towards three for free (a double gives 2, C.1)."""
    return sum(travel_cards()[c].icons for c in cards)


def check_three_for_free(state: State, seat: int, move: dict[str, Any]) -> None:
    """Cards with at least 3 icons, none of them spare (house rule), move the gnome along any
    one land route, the tower's black route and the mountain's levels included; the weeks
    are the sum of their sand timers (C.1)."""
    cards = move["cards"]
    for c in cards:
        if c not in travel_cards():
            raise IllegalMove(f"{c!r} is not a travel card")
    _has_cards(state, seat, cards)
    total = icons_of(cards)
    if total < 3:
        raise IllegalMove(f"three for free needs cards with 3 icons; these give {total} (rulebook C.1)")
    if any(total - travel_cards()[c].icons >= 3 for c in cards):
        raise IllegalMove("three for free plays only the cards it needs: without one of these there would still "
                          "be 3 icons (house rule)")
    at = state.players[seat].place
    if not geo.crosses(at, move["to"], ANY_ROUTE):
        raise IllegalMove(f"no land route from {at} to {move['to']} (rulebook C.1)")
    fits(state.players[seat], sum(travel_cards()[c].weeks for c in cards))


def do_three_for_free(state: State, seat: int, move: dict[str, Any]) -> list[Event]:
    """``GnomeMoved`` by three for free."""
    cards = sorted(move["cards"])
    return _moved(state, seat, [move["to"]], sum(travel_cards()[c].weeks for c in cards), "three_for_free",
                  cards=cards)


# -- C.1 equipment, ice, winter tower, maps, the frog ----------------------------------------

def item_route(state: State, seat: int, item: str, to: str) -> tuple[int, str | None]:
    """``(weeks, crossed)`` of a move by ``item`` to ``to``. Raises IllegalMove if it cannot go there."""
    e = equipment()[item]
    at = state.players[seat].place
    if item in KEYS:
        ends = tunnel_sites(state)
        if {at, to} != set(ends):
            raise IllegalMove("a key only opens the tunnel between Grifola and Hydnum (rulebook B equipment, I)")
        return 0, None
    if e.move == "water":
        kind = geo.water(at, to)
        if kind is None:
            raise IllegalMove(f"the Leaf Boat goes to the next riverside or another lakeside location; "
                              f"{to} is not one from {at} (rulebook C.1, I)")
        return e.weeks or 0, kind
    if not geo.crosses(at, to, frozenset({e.move})):
        raise IllegalMove(f"the {e.name} crosses {e.move} routes only; none joins {at} and {to} (rulebook I)")
    return e.weeks or 0, None


def check_equipment(state: State, seat: int, move: dict[str, Any]) -> None:
    """An item that moves without a card (B equipment, I)."""
    item = move["item"]
    if item not in ITEM_MOVES:
        raise IllegalMove(f"{item!r} does not move a gnome")
    if item not in state.players[seat].equipment:
        raise IllegalMove(f"you do not have the {equipment()[item].name}")
    weeks, _ = item_route(state, seat, item, move["to"])
    fits(state.players[seat], weeks)


def do_equipment(state: State, seat: int, move: dict[str, Any]) -> list[Event]:
    """``GnomeMoved`` by an item (a key is used up, B equipment)."""
    weeks, crossed = item_route(state, seat, move["item"], move["to"])
    return _moved(state, seat, [move["to"]], weeks, "equipment", item=move["item"], crossed=crossed)


WINTER_WEEKS = {"ice": 2, "winter_path": 1}
"""Weeks to cross frozen water, and to follow the footprints to or from the tower (G)."""


def check_ice(state: State, seat: int, move: dict[str, Any]) -> None:
    """In winter a gnome walks over the frozen river or lake to the next location for 2 weeks, no card (G)."""
    if not state.frozen:
        raise IllegalMove("the river and lake are walked on only when frozen, in winter (rulebook C.1, G)")
    if geo.water(state.players[seat].place, move["to"]) is None:
        raise IllegalMove(f"no river section or lake crossing joins {state.players[seat].place} and {move['to']}")
    fits(state.players[seat], WINTER_WEEKS["ice"])


def do_ice(state: State, seat: int, move: dict[str, Any]) -> list[Event]:
    """``GnomeMoved`` over the ice."""
    crossed = geo.water(state.players[seat].place, move["to"])
    return _moved(state, seat, [move["to"]], WINTER_WEEKS["ice"], "ice", crossed=crossed)


def check_winter_path(state: State, seat: int, move: dict[str, Any]) -> None:
    """In winter the black route to or from the tower takes 1 week and no card (G; both ways, house rule)."""
    if not state.frozen:
        raise IllegalMove("the winter tower's footprints are there only in winter (rulebook G)")
    if not geo.crosses(state.players[seat].place, move["to"], frozenset({"black"})):
        raise IllegalMove("the footprints follow a black route to or from the Sorcerer's tower (rulebook G)")
    fits(state.players[seat], WINTER_WEEKS["winter_path"])


def do_winter_path(state: State, seat: int, move: dict[str, Any]) -> list[Event]:
    """``GnomeMoved`` along the footprints."""
    return _moved(state, seat, [move["to"]], WINTER_WEEKS["winter_path"], "winter_path")


def check_climb(state: State, seat: int, move: dict[str, Any]) -> None:
    """A map moves a gnome between levels, between spaces its route shows, for no time (C.1 mountain)."""
    m = move["map"]
    p = state.players[seat]
    if m not in held(p, "map"):
        raise IllegalMove(f"you hold no map {m!r} (rulebook C.1 mountain: no map, no climb)")
    route = equipment()[m].route or []
    if p.place not in route or move["to"] not in route or move["to"] == p.place:
        raise IllegalMove(f"map {m} joins {', '.join(route)}; it does not take you from {p.place} to {move['to']}")
    if climbed(p.route, p.place, move["to"]):
        raise IllegalMove(f"you already climbed from {p.place} to {move['to']} this turn (house rule: each climb "
                          "once a turn, docs/house-rules.md, C.1 mountain)")


def climbed(route: list[str], place: str, to: str) -> bool:
    """Whether this turn's ``route`` (places passed, start first) already went from ``place``
    straight to ``to``. Moves between levels are made only by map (C.1 mountain), so a level
    change in the route is a climb; house rule: a gnome makes each climb once a turn, as free
    climbs (no time, no action) would otherwise never end a turn."""
    return any(a == place and b == to for a, b in zip(route, route[1:]))


def do_climb(state: State, seat: int, move: dict[str, Any]) -> list[Event]:
    """``GnomeMoved`` by a map."""
    return _moved(state, seat, [move["to"]], 0, "map", item=move["map"])


def check_pond_pipes(state: State, seat: int, move: dict[str, Any]) -> None:
    """Pond Pipes put the gnome on the frog for the round: from summer, one player a round (B equipment, F)."""
    if "pond_pipes" not in state.players[seat].equipment:
        raise IllegalMove("you have no Pond Pipes (rulebook B equipment)")
    if state.calendar < content().calendar.sun_from:
        raise IllegalMove("the frog can be used from summer, the sun symbols, onward (rulebook F)")
    if state.frog_used:
        raise IllegalMove("only one player a round may use Pond Pipes (rulebook B equipment)")


def do_pond_pipes(state: State, seat: int, move: dict[str, Any]) -> list[Event]:
    """``PondPipesUsed``."""
    return [public("PondPipesUsed", seat=seat)]


# -- C.2 pick, C.3 sell ------------------------------------------------------------------------

def check_pick(state: State, seat: int, move: dict[str, Any]) -> None:
    """Pick one mushroom where the gnome is, into a free basket slot, for 1 week; one Montane
    King a game (C.2)."""
    p = state.players[seat]
    m = move["mushroom"]
    if m not in state.mushrooms.get(p.place, []):
        raise IllegalMove(f"there is no {m} mushroom at {p.place} (rulebook C.2)")
    if basket_room(p) < 1:
        raise IllegalMove("your basket is full, and mushrooms in it cannot be thrown away (rulebook C.2)")
    if m == KING and p.kings >= 1:
        raise IllegalMove("a player may pick only one Montane King mushroom in the whole game (rulebook C.2)")
    fits(p, 1)


def do_pick(state: State, seat: int, move: dict[str, Any]) -> list[Event]:
    """``MushroomPicked``."""
    return [public("MushroomPicked", seat=seat, mushroom=move["mushroom"], place=state.players[seat].place, weeks=1)]


def village_name(tile: str) -> str:
    """A village tile's name (``D`` -> ``Descina``)."""
    return next(v.name for v in content().tiles.villages if v.id == tile)


def buyer(state: State, seat: int) -> tuple[str, str | None]:
    """``(who, gem source)`` where ``seat`` stands: a village (its tile, gems from it) or the
    tower (``tower``; the supply pays brown, or in variant J its own gems). Raises
    IllegalMove elsewhere (C.3)."""
    place = state.players[seat].place
    kind = tile_kind(state, place)
    if kind == "village":
        tile = state.layout[place]
        return tile, tile
    if kind == "tower":
        return "tower", ("tower" if "tower" in state.gems else None)
    raise IllegalMove("mushrooms are sold only at a village or the Sorcerer's tower (rulebook C.3)")


def check_sell(state: State, seat: int, move: dict[str, Any]) -> None:
    """Sell a carried mushroom where it is bought for one gem of the seller's choice from the
    location (C.3): a village buys the colours that do not grow there, any village a
    Montane King (house rule), the Sorcerer any colour; no gem, no sale."""
    p = state.players[seat]
    m, gem = move["mushroom"], move["gem"]
    if m not in p.basket:
        raise IllegalMove(f"you carry no {m} mushroom")
    who, source = buyer(state, seat)
    if who != "tower" and m != KING and m not in geo.village_buys()[who]:
        raise IllegalMove(f"{village_name(who)} grows {m} mushrooms and does not buy them; a village buys the "
                          f"colours that do not grow there (rulebook C.3)")
    if source is None:
        pays = content().tiles.sorcerer_pays
        if gem != pays:
            raise IllegalMove(f"the Sorcerer pays one {pays} gem from the supply (house rule, ambiguity 12)")
        return
    left = state.gems.get(source, {})
    if not any(left.values()):
        raise IllegalMove("no gem is left here: no buyer, no sale (rulebook C.3)")
    if left.get(gem, 0) < 1:
        raise IllegalMove(f"no {gem} gem is left here; there are {', '.join(g for g, n in left.items() if n)}")


def do_sell(state: State, seat: int, move: dict[str, Any]) -> list[Event]:
    """``MushroomSold`` (a Montane King brings a golden mushroom too) and the quest it completes."""
    who, source = buyer(state, seat)
    data = {"seat": seat, "mushroom": move["mushroom"], "at": who, "gem": move["gem"], "from": source}
    return [public("MushroomSold", **data), *quest_events(state, seat, sold=(move["mushroom"], who))]


# -- C.4 buy, C.5 restock, C.6 scout, C.7 quest ---------------------------------------------

def shop_here(state: State, seat: int) -> str:
    """The shop the gnome is at. Raises IllegalMove elsewhere (C.4, C.5)."""
    tile = state.layout.get(state.players[seat].place)
    if tile is None or geo.tile_kinds()[tile] != "shop":
        raise IllegalMove("you are not at a shop (rulebook C.4)")
    return tile


def replaced(p: Player, card: str) -> list[str]:
    """Items a new ``card`` replaces: the basket or rucksack held (C.4)."""
    e = equipment().get(card)
    if e is None:
        return []
    if e.mushrooms:
        return held(p, "basket")
    if e.hand:
        return held(p, "rucksack")
    return []


def check_item_gain(state: State, seat: int, card: str, return_map: str | None) -> None:
    """What gaining ``card`` needs: a basket big enough for the mushrooms carried (none can be
    thrown away, C.2, house rule), and a map handed back to the shop when it would be a
    third (C.4)."""
    p = state.players[seat]
    e = equipment().get(card)
    if e is not None and e.mushrooms is not None and e.mushrooms < len(p.basket):
        raise IllegalMove(f"the {e.name} holds {e.mushrooms} mushrooms and you carry {len(p.basket)}; mushrooms "
                          f"cannot be thrown away (rulebook C.2, house rule)")
    maps = held(p, "map")
    third = e is not None and e.route is not None and len(maps) >= content().cards.max_maps
    if third and return_map not in maps:
        raise IllegalMove(f"a player carries at most {content().cards.max_maps} maps: name one of {maps} as "
                          f"return_map to add it to the shop (rulebook C.4)")
    if not third and return_map is not None:
        raise IllegalMove("return_map is only for buying a third map (rulebook C.4)")


def check_buy(state: State, seat: int, move: dict[str, Any]) -> None:
    """Buy a card on offer at this shop for its cost in brown gems, paid with gems (change from
    the supply) and nugget cards, each worth one (C.4)."""
    shop = shop_here(state, seat)
    card = move["card"]
    if card not in state.shops[shop]:
        raise IllegalMove(f"{card!r} is not for sale at this shop; it offers {', '.join(state.shops[shop]) or 'nothing'}")
    cost = price(card)
    nuggets = move.get("nuggets", 0)
    if nuggets > hand(state, seat).count("nugget"):
        raise IllegalMove(f"you hold {hand(state, seat).count('nugget')} nugget card(s), not {nuggets}")
    if nuggets > cost:
        raise IllegalMove(f"the {card} costs {cost}; paying {nuggets} nugget cards is more than that")
    if gem_value(state.players[seat].gems) < cost - nuggets:
        held_nuggets = hand(state, seat).count("nugget")
        raise IllegalMove(f"the {card} costs {cost}; your gems are worth {gem_value(state.players[seat].gems)} and "
                          f"this move pays {nuggets} of your {held_nuggets} nugget card(s) (rulebook C.4)")
    check_item_gain(state, seat, card, move.get("return_map"))


def price(card: str) -> int:
    """A shop card's cost in brown gems (C.4)."""
    return treasures()[card].cost if card in treasures() else equipment()[card].cost


def _gain(state: State, seat: int, card: str, return_map: str | None) -> dict[str, Any]:
    extra: dict[str, Any] = {}
    old = replaced(state.players[seat], card)
    if old:
        extra["replaced"] = old
    if return_map:
        extra["return_map"] = return_map
    return extra


def do_buy(state: State, seat: int, move: dict[str, Any]) -> list[Event]:
    """``CardBought``: the buyer's gems after paying, as change from the supply (white first)."""
    p = state.players[seat]
    card = move["card"]
    nuggets = move.get("nuggets", 0)
    left = gem_value(p.gems) - (price(card) - nuggets)
    gems = dict(p.gems) if price(card) == nuggets else change(left)
    return [public("CardBought", seat=seat, shop=shop_here(state, seat), card=card, cost=price(card),
                   nuggets=nuggets, gems=gems, **_gain(state, seat, card, move.get("return_map")))]


def check_restock(state: State, seat: int, move: dict[str, Any]) -> None:
    """At a shop, wait 2 weeks for new stock (C.5)."""
    shop_here(state, seat)
    fits(state.players[seat], 2)


def check_scout(state: State, seat: int, move: dict[str, Any]) -> None:
    """Draw a travel card for 1 week (C.6), while the deck or its discards hold one."""
    if state.travel_size == 0 and not state.travel_discard:
        raise IllegalMove("the travel deck and its discard pile are empty (rulebook C.6)")
    fits(state.players[seat], 1)


def check_quest(state: State, seat: int, move: dict[str, Any]) -> None:
    """At the tower, take a quest on display while holding none (C.7); an item reward names a
    card of that shop (treasure excluded), if it has one."""
    p = state.players[seat]
    if tile_kind(state, p.place) != "tower":
        raise IllegalMove("quests are taken at the Sorcerer's tower (rulebook C.7)")
    if p.quest is not None:
        raise IllegalMove("you may hold only one quest at a time (rulebook C.7)")
    q = move["quest"]
    if q not in state.quests:
        raise IllegalMove(f"{q!r} is not on display; the quests are {', '.join(state.quests) or 'gone'}")
    reward = quests()[q].reward
    item = move.get("item")
    if "item_from" in reward:
        stock = [c for c in state.shops[str(reward["item_from"])] if c not in treasures()]
        if item is None and stock:
            raise IllegalMove(f"the reward is an item from {reward['item_from']}: name one of {stock} as item")
        if item is not None and item not in stock:
            raise IllegalMove(f"{item!r} is not an item on offer at {reward['item_from']} (treasure excluded)")
        if item is not None:
            check_item_gain(state, seat, item, move.get("return_map"))
    elif item is not None or move.get("return_map") is not None:
        raise IllegalMove("this quest's reward is gems, not an item")


def do_quest(state: State, seat: int, move: dict[str, Any]) -> list[Event]:
    """``QuestAccepted`` with its reward paid at once (C.7); the display is refilled by the deck domain."""
    q = move["quest"]
    reward = quests()[q].reward
    out = []
    if "brown" in reward:
        out.append(public("QuestAccepted", seat=seat, quest=q, gems={"brown": int(reward["brown"])}))
    else:
        out.append(public("QuestAccepted", seat=seat, quest=q))
        item = move.get("item")
        if item is not None:
            out.append(public("QuestRewardTaken", seat=seat, shop=str(reward["item_from"]), card=item,
                              **_gain(state, seat, item, move.get("return_map"))))
    return out


CHECKS = {
    "travel": check_travel, "three_for_free": check_three_for_free, "equipment": check_equipment,
    "ice": check_ice, "winter_path": check_winter_path, "climb": check_climb, "pond_pipes": check_pond_pipes,
    "pick": check_pick, "sell": check_sell, "buy": check_buy, "restock": check_restock, "scout": check_scout,
    "quest": check_quest,
}
"""The check of every turn action by move type."""
DOES = {
    "travel": do_travel, "three_for_free": do_three_for_free, "equipment": do_equipment, "ice": do_ice,
    "winter_path": do_winter_path, "climb": do_climb, "pond_pipes": do_pond_pipes, "pick": do_pick,
    "sell": do_sell, "buy": do_buy, "quest": do_quest,
}
"""The events of every turn action resolved by the board or market domain."""
