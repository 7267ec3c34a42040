"""The state of a game of A Game of Gnomes as plain data, and ``evolve`` (one event at a time).

Set-up (rulebook B) starts from the ``GameCreated`` event; every chance outcome (the
layout of a later game, the shops' first stock, the dream piles, the quests on display,
the mixed gems of variant J, every card drawn later) arrives in its own event, so
replaying the log never needs the seed. The order of undrawn piles is never stored:
a draw picks from what is left.

What no client may see lives in ``State.secret`` alone (views drop it): each seat's hand
(travel and treasure cards, C.4, E) and what is left in the travel deck and in the
shuffled part of the shop item deck. Events that show a card to one seat only are
private (``TravelCardDrawn``).

All values are ints, strings, bools, lists and dicts (canonical JSON, no floats, no sets).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from services.rules.core import Event
from services.rules.core import match as core_match
from services.rules.core.canonical import OMIT_IF_NONE
from services.rules.core.cow import CopyOnWrite, shared_field
from services.rules.core.match import MatchRecord

from . import geo
from .content import COLOURS, Equipment, Quest, TravelCard, Treasure, content

PLAYER_COLOURS = ("red", "yellow", "blue", "green")
"""The four gnome colours (A): each is a gnome, its timer and its house. Set-up draws one
for each seat (``GnomesChosen``, house rule ``gnomes:B/gnomes-drawn``)."""
STARTING_ITEMS = ("tiny_basket", "tiny_rucksack", "tunnel_key", "pond_pipes")
"""The four items every player starts with (B equipment)."""
SHOP_ORDER = ("hillview_hut", "forest_fete", "market_meadow")
"""The order shops are refilled in, one card each in turn (G: Hillview Hut first, "working down")."""
KING = "king"
"""A Montane King mushroom in a basket or on a mountain space (B, C.2, C.3)."""
WOODEN_MUSHROOMS = 10
"""Wooden mushrooms of each colour (A); sold and rotten ones go back beside the board."""


@lru_cache(maxsize=1)
def travel_cards() -> dict[str, TravelCard]:
    """Travel card kinds by id."""
    return {t.id: t for t in content().cards.travel}


@lru_cache(maxsize=1)
def equipment() -> dict[str, Equipment]:
    """Every equipment card (starting and shop) by id."""
    c = content().cards
    return {e.id: e for e in (*c.starting_equipment, *c.shop)}


@lru_cache(maxsize=1)
def treasures() -> dict[str, Treasure]:
    """Treasure cards by id."""
    return {t.id: t for t in content().cards.treasures}


@lru_cache(maxsize=1)
def quests() -> dict[str, Quest]:
    """Quest cards by id."""
    return {q.id: q for q in content().cards.quests}


def gem_value(gems: dict[str, int]) -> int:
    """Total value of ``{"brown", "green", "white"}`` counts (B gems: 1, 2, 3)."""
    values = content().tiles.gem_values
    return sum(values[g] * n for g, n in gems.items())


def change(value: int) -> dict[str, int]:
    """``value`` as the fewest gems from the supply, white first (B gems: change at any time)."""
    white, rest = divmod(value, 3)
    green, brown = divmod(rest, 2)
    return {"brown": brown, "green": green, "white": white}


@dataclass(slots=True)
class Player:
    """One seat's gnome and what lies in front of it (B, C).

    ``place``: a site id, ``tower`` or a mountain space; ``equipment``: item ids face up
    (B equipment); ``basket``: mushroom colours carried (``king`` for a Montane King);
    ``gems``: counts by colour; ``golden``: golden mushroom tokens; ``kings``: Montane
    Kings picked (one per game, C.2); ``quest``: the quest held (C.7); ``played``: travel
    cards played this turn (discarded at its end, C.1); ``route``: the places this turn's
    moves passed, start first (for displacement, C.1 mountain); ``timer``/``stamp``: the
    gnome timer's space on the timing track and when it landed there (a higher stamp is
    higher in a stack, C.1 timer); ``hand_size``: cards in hand (the cards are secret).
    """

    seat: int
    colour: str
    place: str = ""
    equipment: list[str] = field(default_factory=list)
    basket: list[str] = field(default_factory=list)
    gems: dict[str, int] = field(default_factory=lambda: {"brown": 0, "green": 0, "white": 0})
    golden: int = 0
    kings: int = 0
    quest: str | None = None
    quests_done: list[str] = field(default_factory=list)
    played: list[str] = field(default_factory=list)
    route: list[str] = field(default_factory=list)
    timer: int = 0
    stamp: int = 0
    hand_size: int = 0


@dataclass(slots=True)
class State:
    """Everything on the table (rulebook B-H) as plain data.

    ``layout``: site -> tile; ``mushrooms``: place -> colours growing there now;
    ``gems``: tile id (or ``tower``, variant J) -> gem counts; ``shops``: shop -> stock;
    ``shop_bottom``: cards put under the shop item deck by a restock, in order (C.5);
    ``shop_discard`` and ``removed`` (out of the game); ``travel_discard``; ``dream``:
    the three dream piles by cost ``"1"``, ``"2"``, ``"3"`` (D); ``quests`` on display
    and ``quest_deck`` (contents, no order) and ``quest_discard``; ``calendar`` week;
    ``round``; ``order``: this round's turn order and ``turn`` its index; ``stage``:
    ``turns``, ``sleep``, ``hand`` (hand limit, E), ``round_end`` or ``over``;
    ``sleepers``/``sleep_next``/``exhausted`` during sleep (D); ``stamp``: the last
    stamp given; ``frog``: the seat riding the frog this round and ``frog_used``;
    ``frozen`` (G); ``dream_refill``: the dream piles are owed a refill; ``travel_size`` and
    ``shop_size``: cards left in those decks; ``draws``: chance events so far (each draw's
    label); ``ended`` and
    ``final`` at the end (H); ``secret``: ``hands`` per seat, ``travel_deck`` and
    ``shop_deck`` counts.
    """

    config: dict[str, Any] = field(default_factory=dict)
    players: list[Player] = field(default_factory=list)
    layout: dict[str, str] = field(default_factory=dict)
    mushrooms: dict[str, list[str]] = field(default_factory=dict)
    gems: dict[str, dict[str, int]] = field(default_factory=dict)
    shops: dict[str, list[str]] = field(default_factory=dict)
    shop_bottom: list[str] = field(default_factory=list)
    shop_discard: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    travel_discard: list[str] = field(default_factory=list)
    dream: dict[str, list[str]] = field(default_factory=dict)
    quests: list[str] = field(default_factory=list)
    quest_deck: list[str] = field(default_factory=list)
    quest_discard: list[str] = field(default_factory=list)
    calendar: int = 0
    round: int = 0
    order: list[int] = field(default_factory=list)
    turn: int = 0
    stage: str = "setup"
    sleepers: list[int] = field(default_factory=list)
    sleep_next: int = 0
    exhausted: int = 0
    stamp: int = 0
    frog: int | None = None
    frog_used: bool = False
    frozen: bool = False
    dream_refill: bool = False
    travel_size: int = 0
    shop_size: int = 0
    draws: int = 0
    ended: dict[str, Any] | None = None
    final: dict[str, Any] | None = None
    match: MatchRecord | None = field(default=None, metadata={OMIT_IF_NONE: True})  # strikes, forfeit (core.match)
    secret: dict[str, Any] = field(default_factory=dict)
    shared: frozenset[str] = shared_field()  # bookkeeping of copy-on-write clones, not state (core.cow)


def _copy_player(p: Player) -> Player:
    return Player(p.seat, p.colour, p.place, list(p.equipment), list(p.basket), dict(p.gems), p.golden, p.kings,
                  p.quest, list(p.quests_done), list(p.played), list(p.route), p.timer, p.stamp, p.hand_size)


def copy_state(s: State) -> State:
    """A deep copy of ``s``, field by field (search copies states often; ``copy.deepcopy`` is
    several times slower). ``config``, ``ended`` and ``final`` are never changed in place."""
    secret = s.secret
    return State(
        config=s.config, players=[_copy_player(p) for p in s.players], layout=s.layout,
        mushrooms={k: list(v) for k, v in s.mushrooms.items()}, gems={k: dict(v) for k, v in s.gems.items()},
        shops={k: list(v) for k, v in s.shops.items()}, shop_bottom=list(s.shop_bottom),
        shop_discard=list(s.shop_discard), removed=list(s.removed), travel_discard=list(s.travel_discard),
        dream={k: list(v) for k, v in s.dream.items()}, quests=list(s.quests), quest_deck=list(s.quest_deck),
        quest_discard=list(s.quest_discard), calendar=s.calendar, round=s.round, order=list(s.order), turn=s.turn,
        stage=s.stage, sleepers=list(s.sleepers), sleep_next=s.sleep_next, exhausted=s.exhausted, stamp=s.stamp,
        frog=s.frog, frog_used=s.frog_used, frozen=s.frozen, dream_refill=s.dream_refill,
        travel_size=s.travel_size, shop_size=s.shop_size, draws=s.draws, ended=s.ended, final=s.final,
        match=None if s.match is None else s.match.copy(),
        secret={"hands": [list(h) for h in secret["hands"]], "travel_deck": dict(secret["travel_deck"]),
                "shop_deck": dict(secret["shop_deck"])} if secret else {})


def _copy_secret(secret: dict[str, Any]) -> dict[str, Any]:
    return {"hands": [list(h) for h in secret["hands"]], "travel_deck": dict(secret["travel_deck"]),
            "shop_deck": dict(secret["shop_deck"])} if secret else {}


_dict_of_lists = lambda v: {k: list(x) for k, x in v.items()}  # noqa: E731
COPIERS: dict[str, Any] = {
    "players": lambda v: [_copy_player(p) for p in v], "mushrooms": _dict_of_lists,
    "gems": lambda v: {k: dict(x) for k, x in v.items()}, "shops": _dict_of_lists, "shop_bottom": list,
    "shop_discard": list, "removed": list, "travel_discard": list, "dream": _dict_of_lists, "quests": list,
    "quest_deck": list, "quest_discard": list, "order": list, "sleepers": list,
    "match": lambda m: None if m is None else m.copy(), "secret": _copy_secret,
}
"""How a copy-on-write clone copies each part an event may change in place (as :func:`copy_state`
does; ``config``, ``layout``, ``ended`` and ``final`` are never changed in place)."""
_ITEM = ("players", "secret", "removed", "shop_discard", "shops")  # an item gained, replaced or used up
WRITES: dict[str, tuple[str, ...]] = {
    "GnomesChosen": ("players",),
    "ShopCardsDrawn": ("secret", "shop_bottom", "removed", "shops"),
    "TreasuresShuffledIn": ("secret",),
    "TravelDeckReshuffled": ("secret", "travel_discard"),
    "DreamPilesRefilled": ("secret", "dream"),
    "QuestsDrawn": ("quest_deck", "quests", "removed"),
    "RoundStarted": ("players", "order"),
    "GnomeMoved": ("players", "secret", "removed", "shop_discard"),
    "PondPipesUsed": ("players", "removed", "shop_discard"),
    "MushroomPicked": ("players", "mushrooms"),
    "MushroomSold": ("players", "gems"),
    "CardBought": _ITEM,
    "ShopRestocked": ("players", "shops", "shop_bottom"),
    "Scouted": ("players",),
    "TravelCardDrawn": ("secret",),
    "QuestAccepted": ("players", "quests"),
    "QuestRewardTaken": _ITEM,
    "QuestCompleted": ("players", "quest_discard"),
    "TurnEnded": ("players", "travel_discard"),
    "SleepBegan": ("sleepers",),
    "Slept": ("players", "secret", "dream"),
    "SleepEnded": (),
    "HandDiscarded": ("players", "secret", "shop_discard", "travel_discard"),
    "HandsChecked": (),
    "CalendarMoved": (),
    "MushroomsRotted": ("players", "mushrooms"),
    "MushroomsSprouted": ("mushrooms",),
    "WinterCame": ("players", "removed", "shops", "quests"),
    "FrogReturned": (),
    "GameEnded": (),
    "MountainBonus": ("players",),
    "FinalScored": (),
    **{t: ("match",) for t in core_match.EVENTS},
}
"""The parts each event's handler changes in place (``tests/rules/test_clone.py`` holds every
handler to it); the set-up events, absent, may change any part."""
COW = CopyOnWrite(State, COPIERS, WRITES)
"""Copy-on-write clones of a :class:`State` (:mod:`services.rules.core.cow`)."""


def option(state: State, name: str) -> bool:
    """True if game option ``name`` (``random_layout``, ``gem_variant``) is on."""
    return bool(state.config.get("options", {}).get(name))


def tile_at(state: State, place: str) -> str | None:
    """The location tile on ``place`` (None for the tower and mountain spaces)."""
    return state.layout.get(place)


def site_of(state: State, tile: str) -> str:
    """The site a location tile lies on."""
    for site, t in state.layout.items():
        if t == tile:
            return site
    raise KeyError(tile)


def hand(state: State, seat: int) -> list[str]:
    """The cards in ``seat``'s hand (secret), sorted."""
    return state.secret["hands"][seat]


def held(p: Player, kind: str) -> list[str]:
    """``p``'s items with a ``kind`` of ``basket`` (holds mushrooms), ``rucksack`` (hand size) or ``map``."""
    eq = equipment()
    if kind == "basket":
        return [e for e in p.equipment if eq[e].mushrooms]
    if kind == "rucksack":
        return [e for e in p.equipment if eq[e].hand]
    return [e for e in p.equipment if eq[e].route]


def basket_room(p: Player) -> int:
    """Mushrooms ``p``'s basket still has room for (C.2; house rule sizes for baskets, ambiguity 10)."""
    cap = max((equipment()[e].mushrooms or 0 for e in held(p, "basket")), default=0)
    return cap - len(p.basket)


def hand_limit(p: Player) -> int:
    """The hand size ``p``'s rucksack allows (E: 4, 5 or 6)."""
    return max((equipment()[e].hand or 0 for e in held(p, "rucksack")), default=0)


def mushroom_supply(state: State, colour: str) -> int:
    """Wooden mushrooms of ``colour`` beside the board (A: ten of each, less those in play)."""
    return supply_left(colour, state.mushrooms, [p.basket for p in state.players])


def supply_left(colour: str, board: dict[str, list[str]], baskets: list[list[str]]) -> int:
    """Wooden mushrooms of ``colour`` not on ``board`` (place -> mushrooms) nor in ``baskets``."""
    return WOODEN_MUSHROOMS - sum(v.count(colour) for v in board.values()) - sum(b.count(colour) for b in baskets)


# -- set-up ---------------------------------------------------------------------------------

def setup(state: State, config: dict[str, Any]) -> None:
    """Set-up B from the config alone (the chance parts follow in their own events): gnomes
    and their four items, the calendar on week 0, Montane Kings by player count, the full
    travel, shop and quest decks (the starters and treasures set aside)."""
    c = content()
    n = config["players"]
    state.config = dict(config)
    state.players = [Player(seat=i, colour=PLAYER_COLOURS[i], equipment=list(STARTING_ITEMS),
                            stamp=n - i) for i in range(n)]
    state.stamp = n
    state.calendar = c.calendar.start
    state.mushrooms = {s: [KING] for s in c.board.montane_kings[str(n)]}
    state.quest_deck = sorted(q.id for q in c.cards.quests)
    travel = {t.id: t.copies for t in c.cards.travel}
    shop = Counter({e.id: e.copies for e in c.cards.shop})
    for e in c.cards.shop:
        if e.starter:
            shop[e.id] -= 1
    shop = +shop  # a starter of one copy leaves none in the deck
    state.secret = {"hands": [[] for _ in range(n)], "travel_deck": travel, "shop_deck": dict(shop)}
    state.travel_size = sum(travel.values())
    state.shop_size = sum(shop.values())
    state.dream = {str(k): [] for k in c.cards.dream_piles}
    state.shops = {s.id: [] for s in c.tiles.shops}


# -- helpers used by evolve -----------------------------------------------------------------

def _take(counts: dict[str, int], card: str) -> None:
    counts[card] -= 1
    if not counts[card]:
        del counts[card]


def _to_hand(s: State, seat: int, cards: list[str]) -> None:
    h = s.secret["hands"][seat]
    h.extend(cards)
    h.sort()
    s.players[seat].hand_size = len(h)


def _from_hand(s: State, seat: int, cards: list[str]) -> None:
    h = s.secret["hands"][seat]
    for c in cards:
        h.remove(c)
    s.players[seat].hand_size = len(h)


def _advance_timer(s: State, p: Player, weeks: int) -> None:
    if weeks:
        p.timer += weeks
        s.stamp += 1
        p.stamp = s.stamp


def _draw_shop(s: State, card: str) -> None:
    """The shuffled part of the shop item deck is drawn first, then the cards a restock put
    under it, in order (C.5)."""
    deck = s.secret["shop_deck"]
    if deck:
        _take(deck, card)
    else:
        s.shop_bottom.remove(card)
    s.shop_size -= 1


def _discard_item(s: State, item: str) -> None:
    """A used-up or replaced item: a starting item leaves the game, a shop item goes to the
    shop item discard pile (B equipment, C.4, I)."""
    (s.removed if item in STARTING_ITEMS else s.shop_discard).append(item)


# -- evolve ---------------------------------------------------------------------------------

def _game_created(s: State, d: dict) -> None:
    setup(s, d["config"])


def _gnomes_chosen(s: State, d: dict) -> None:
    for p, colour in zip(s.players, d["colours"]):
        p.colour = colour


def _layout_placed(s: State, d: dict) -> None:
    s.layout = dict(d["layout"])
    for site, tile in s.layout.items():
        if "blue" in geo.grows().get(tile, ()):
            s.mushrooms.setdefault(site, []).append("blue")
        if geo.tile_kinds()[tile] == "village" and not option(s, "gem_variant"):
            s.gems[tile] = dict(content().tiles.village_gems)
    houses = geo.house_of_colour()
    for p in s.players:
        p.place = site_of(s, houses[p.colour])


def _gems_mixed(s: State, d: dict) -> None:
    s.gems = {k: dict(v) for k, v in d["gems"].items()}


def _starters_dealt(s: State, d: dict) -> None:
    for shop, card in sorted(d["shops"].items()):
        s.shops[shop].append(card)


def _shop_cards_drawn(s: State, d: dict) -> None:
    for shop, card in d["draws"]:
        _draw_shop(s, card)
        (s.removed if shop is None else s.shops[shop]).append(card)


def _treasures_shuffled_in(s: State, d: dict) -> None:
    deck = s.secret["shop_deck"]
    for t in d["treasures"]:
        deck[t] = deck.get(t, 0) + 1
    s.shop_size += len(d["treasures"])


def _travel_reshuffled(s: State, d: dict) -> None:
    deck = s.secret["travel_deck"]
    for c in s.travel_discard:
        deck[c] = deck.get(c, 0) + 1
    s.travel_size += len(s.travel_discard)
    s.travel_discard = []


def _dream_refilled(s: State, d: dict) -> None:
    for pile, cards in d["piles"].items():
        for c in cards:
            _take(s.secret["travel_deck"], c)
        s.travel_size -= len(cards)
        s.dream[pile] = s.dream[pile] + list(cards)
    s.dream_refill = False


def _quests_drawn(s: State, d: dict) -> None:
    for q in d["quests"]:
        s.quest_deck.remove(q)
        s.quests.append(q)
    for q in d.get("removed", []):
        s.quest_deck.remove(q)
        s.removed.append(q)


def _round_started(s: State, d: dict) -> None:
    s.round = d["round"]
    s.order = list(d["order"])
    s.turn = 0
    s.stage = "turns"
    s.frog_used = False  # Pond Pipes: one player a round, so a new round frees the frog (B equipment)
    for p in s.players:
        p.timer = 0
        p.route = [p.place]


def _gnome_moved(s: State, d: dict) -> None:
    p = s.players[d["seat"]]
    cards = d.get("cards", [])
    _from_hand(s, p.seat, cards)
    p.played.extend(cards)
    item = d.get("item")
    if item and equipment()[item].once:
        p.equipment.remove(item)
        _discard_item(s, item)
    p.route.extend(d["path"])
    p.place = d["path"][-1]
    _advance_timer(s, p, d["weeks"])


def _pond_pipes_used(s: State, d: dict) -> None:
    p = s.players[d["seat"]]
    p.equipment.remove("pond_pipes")
    _discard_item(s, "pond_pipes")
    s.frog = p.seat
    s.frog_used = True


def _mushroom_picked(s: State, d: dict) -> None:
    p = s.players[d["seat"]]
    s.mushrooms[p.place].remove(d["mushroom"])
    if not s.mushrooms[p.place]:
        del s.mushrooms[p.place]
    p.basket.append(d["mushroom"])
    if d["mushroom"] == KING:
        p.kings += 1
    _advance_timer(s, p, 1)


def _mushroom_sold(s: State, d: dict) -> None:
    p = s.players[d["seat"]]
    p.basket.remove(d["mushroom"])
    gem = d["gem"]
    source = d.get("from")
    if source is not None:
        s.gems[source][gem] -= 1
    p.gems[gem] += 1
    if d["mushroom"] == KING:
        p.golden += 1


def _card_bought(s: State, d: dict) -> None:
    p = s.players[d["seat"]]
    card = d["card"]
    s.shops[d["shop"]].remove(card)
    p.gems = dict(d["gems"])
    nuggets = ["nugget"] * d.get("nuggets", 0)
    _from_hand(s, p.seat, nuggets)
    p.played.extend(nuggets)
    _gain_item(s, p, card, d)


def _gain_item(s: State, p: Player, card: str, d: dict) -> None:
    if card in treasures():
        _to_hand(s, p.seat, [card])
        return
    for old in d.get("replaced", []):
        p.equipment.remove(old)
        _discard_item(s, old)
    returned = d.get("return_map")
    if returned:
        p.equipment.remove(returned)
        s.shops[d["shop"]].append(returned)
    p.equipment.append(card)


def _shop_restocked(s: State, d: dict) -> None:
    p = s.players[d["seat"]]
    s.shop_bottom.extend(s.shops[d["shop"]])
    s.shop_size += len(s.shops[d["shop"]])
    s.shops[d["shop"]] = []
    _advance_timer(s, p, 2)


def _scouted(s: State, d: dict) -> None:
    p = s.players[d["seat"]]
    s.travel_size -= 1
    p.hand_size += 1
    _advance_timer(s, p, 1)


def _travel_card_drawn(s: State, d: dict) -> None:
    _take(s.secret["travel_deck"], d["card"])
    h = s.secret["hands"][d["seat"]]
    h.append(d["card"])
    h.sort()


def _quest_accepted(s: State, d: dict) -> None:
    p = s.players[d["seat"]]
    s.quests.remove(d["quest"])
    p.quest = d["quest"]
    for g, n in d.get("gems", {}).items():
        p.gems[g] += n


def _reward_taken(s: State, d: dict) -> None:
    p = s.players[d["seat"]]
    s.shops[d["shop"]].remove(d["card"])
    _gain_item(s, p, d["card"], d)


def _quest_completed(s: State, d: dict) -> None:
    p = s.players[d["seat"]]
    p.quest = None
    p.quests_done.append(d["quest"])
    s.quest_discard.append(d["quest"])


def _turn_ended(s: State, d: dict) -> None:
    p = s.players[d["seat"]]
    s.travel_discard.extend(p.played)
    p.played = []
    for m in d.get("displaced", []):
        s.players[m["seat"]].place = m["to"]
        s.players[m["seat"]].route = [m["to"]]  # a pushed gnome's next turn starts where it was pushed
    p.route = [p.place]
    s.turn += 1


def _sleep_began(s: State, d: dict) -> None:
    s.stage = "sleep"
    s.sleepers = list(d["sleepers"])
    s.sleep_next = 0
    s.exhausted = d["exhausted"]


def _slept(s: State, d: dict) -> None:
    p = s.players[d["seat"]]
    cards: list[str] = []
    for pile in d["piles"]:
        cards += s.dream[str(pile)]
        s.dream[str(pile)] = []
    _to_hand(s, p.seat, cards)
    p.timer = s.exhausted
    s.stamp += 1
    p.stamp = s.stamp
    s.sleep_next += 1
    s.dream_refill = bool(d["piles"])


def _sleep_ended(s: State, d: dict) -> None:
    s.stage = "hand"


def _hand_discarded(s: State, d: dict) -> None:
    _from_hand(s, d["seat"], d["cards"])
    for c in d["cards"]:
        (s.shop_discard if c in treasures() else s.travel_discard).append(c)


def _hands_checked(s: State, d: dict) -> None:
    s.stage = "round_end"


def _calendar_moved(s: State, d: dict) -> None:
    s.calendar = d["to"]


def _mushrooms_rotted(s: State, d: dict) -> None:
    colours = set(d["colours"])
    s.mushrooms = {k: v for k, v in ((k, [m for m in ms if m not in colours]) for k, ms in s.mushrooms.items()) if v}
    for p in s.players:
        p.basket = [m for m in p.basket if m not in colours]


def _mushrooms_sprouted(s: State, d: dict) -> None:
    for place in d["places"]:
        s.mushrooms.setdefault(place, []).append(d["colour"])


def _winter_came(s: State, d: dict) -> None:
    s.frozen = True
    for seat, items in sorted(d["equipment"].items()):  # sorted: a stored event's keys come back sorted
        p = s.players[int(seat)]
        for e in items:
            p.equipment.remove(e)
            s.removed.append(e)
    for shop, items in sorted(d["shops"].items()):
        for e in items:
            s.shops[shop].remove(e)
            s.removed.append(e)
    for q in d["quests"]:
        s.quests.remove(q)
        s.removed.append(q)


def _frog_returned(s: State, d: dict) -> None:
    s.frog = None


def _game_ended(s: State, d: dict) -> None:
    s.stage = "over"
    s.ended = dict(d)


def _mountain_bonus(s: State, d: dict) -> None:
    for seat in d["seats"]:
        s.players[seat].gems[d["gem"]] += 1


def _final_scored(s: State, d: dict) -> None:
    s.final = dict(d)


_HANDLERS = {
    "GameCreated": _game_created,
    "GnomesChosen": _gnomes_chosen,
    "LayoutPlaced": _layout_placed,
    "GemsMixed": _gems_mixed,
    "StarterItemsDealt": _starters_dealt,
    "ShopCardsDrawn": _shop_cards_drawn,
    "TreasuresShuffledIn": _treasures_shuffled_in,
    "TravelDeckReshuffled": _travel_reshuffled,
    "DreamPilesRefilled": _dream_refilled,
    "QuestsDrawn": _quests_drawn,
    "RoundStarted": _round_started,
    "GnomeMoved": _gnome_moved,
    "PondPipesUsed": _pond_pipes_used,
    "MushroomPicked": _mushroom_picked,
    "MushroomSold": _mushroom_sold,
    "CardBought": _card_bought,
    "ShopRestocked": _shop_restocked,
    "Scouted": _scouted,
    "TravelCardDrawn": _travel_card_drawn,
    "QuestAccepted": _quest_accepted,
    "QuestRewardTaken": _reward_taken,
    "QuestCompleted": _quest_completed,
    "TurnEnded": _turn_ended,
    "SleepBegan": _sleep_began,
    "Slept": _slept,
    "SleepEnded": _sleep_ended,
    "HandDiscarded": _hand_discarded,
    "HandsChecked": _hands_checked,
    "CalendarMoved": _calendar_moved,
    "MushroomsRotted": _mushrooms_rotted,
    "MushroomsSprouted": _mushrooms_sprouted,
    "WinterCame": _winter_came,
    "FrogReturned": _frog_returned,
    "GameEnded": _game_ended,
    "MountainBonus": _mountain_bonus,
    "FinalScored": _final_scored,
}

PRIVATE_EVENTS = frozenset({"TravelCardDrawn"})
"""Events only their ``seat`` may see (a scouted card, C.6)."""
CHANCE_EVENTS = frozenset({"GnomesChosen", "LayoutPlaced", "GemsMixed", "StarterItemsDealt", "ShopCardsDrawn",
                           "TravelDeckReshuffled", "DreamPilesRefilled", "QuestsDrawn", "Scouted"})
"""Public events that carry a chance outcome; their count labels the next draw."""
EVENT_TYPES = frozenset(_HANDLERS)
"""Every event type A Game of Gnomes emits."""


def visibility(event_type: str) -> str:
    """``"private"`` or ``"public"``: who may see events of this type (none is sealed)."""
    return "private" if event_type in PRIVATE_EVENTS else "public"


def evolve(state: State, event: Event) -> None:
    """Apply one event to ``state`` in place (first copying the parts it changes that a
    copy-on-write clone shares, :data:`WRITES`). Raises ValueError on an unknown event type."""
    if state.shared:
        COW.before(state, event.type)
    if event.type in core_match.EVENTS:
        state.match = core_match.evolve(state.match, event)
        return
    fn = _HANDLERS.get(event.type)
    if fn is None:
        raise ValueError(f"A Game of Gnomes has no event {event.type!r}")
    fn(state, event.data)
    if event.type in CHANCE_EVENTS:
        state.draws += 1


__all__ = ["COLOURS", "EVENT_TYPES", "KING", "Player", "State", "evolve", "visibility"]
