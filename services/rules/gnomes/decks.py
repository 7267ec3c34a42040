"""The deck domain of A Game of Gnomes: every draw of chance (rulebook B, C.4-C.7, D, G, J).

Each function reads the state (never changes it) and returns the events of its draws.
A draw picks uniformly from what is left (``Chance`` labelled by the count of chance
events so far), so no undrawn order is ever stored. The travel deck is made again from
its discards when a draw finds it empty (C.6); the shop item deck is drawn from its
shuffled part first, then from the cards a restock put under it, in order (C.5); once
winter has come a drawn card with the no-winter icon leaves the game and another is
drawn (G).
"""

from __future__ import annotations

from typing import Any

from services.rules.core import Chance, Event, public

from .actions import shop_here
from .content import content
from .state import PLAYER_COLOURS, SHOP_ORDER, State, equipment, quests, treasures

ChanceFactory = Any


def _chance(state: State, chance: ChanceFactory, kind: str) -> Chance:
    return chance(f"gnomes:{kind}:{state.draws}")


def _pick(rng: Chance, counts: dict[str, int]) -> str:
    """Take one card, uniformly, from the multiset ``counts`` (changed): the ``k``-th of the
    cards in name order, each name as many times as it counts, ``k`` drawn below their number."""
    k = rng.below(sum(counts.values()))
    for card in sorted(counts):
        k -= counts[card]
        if k < 0:
            break
    counts[card] -= 1
    if not counts[card]:
        del counts[card]
    return card


def choose_gnomes(state: State, chance: ChanceFactory) -> list[Event]:
    """``GnomesChosen``: each seat's gnome colour (and so its timer and gnome house), drawn at
    random from the four (B: players choose their gnomes; the engine draws for them, house
    rule ``gnomes:B/gnomes-drawn``, so that no place in the turn order always gets the same
    house). ``colours``: by seat."""
    colours = _chance(state, chance, "gnomes").shuffled(list(PLAYER_COLOURS))
    return [public("GnomesChosen", colours=colours[:len(state.players)])]


def place_layout(state: State, chance: ChanceFactory) -> list[Event]:
    """``LayoutPlaced``: the first-game layout, or (option ``random_layout``) every location
    tile shuffled onto the sites (B)."""
    board = content().board
    if not state.config.get("options", {}).get("random_layout"):
        return [public("LayoutPlaced", layout=dict(board.first_game), random=False)]
    tiles = _chance(state, chance, "layout").shuffled(sorted(board.first_game.values()))
    return [public("LayoutPlaced", layout=dict(zip(board.sites, tiles)), random=True)]


def mix_gems(state: State, chance: ChanceFactory) -> list[Event]:
    """``GemsMixed`` (variant J): 13 brown, 13 green and 13 white gems mixed, 3 at random on each
    village A-L and on the Sorcerer's tower."""
    pool = ["brown"] * 13 + ["green"] * 13 + ["white"] * 13
    pool = _chance(state, chance, "gems").shuffled(pool)
    spots = [v.id for v in content().tiles.villages] + ["tower"]
    gems = {}
    for i, spot in enumerate(spots):
        got = pool[3 * i:3 * i + 3]
        gems[spot] = {g: got.count(g) for g in ("brown", "green", "white")}
    return [public("GemsMixed", gems=gems)]


def deal_shops(state: State, chance: ChanceFactory) -> list[Event]:
    """Set-up B: Canteen, Short Axe and Hill Boots shuffled one to each shop, three more cards
    drawn for each shop, then the 8 treasures shuffled into the shop item deck."""
    c = content()
    starters = sorted(e.id for e in c.cards.shop if e.starter)
    dealt = _chance(state, chance, "starters").shuffled(starters)
    shops = [s.id for s in c.tiles.shops]
    rng = _chance(state, chance, "shops")
    deck = dict(state.secret["shop_deck"])
    draws = [[shop, _pick(rng, deck)] for shop in shops for _ in range(c.cards.shop_stock - 1)]
    return [public("StarterItemsDealt", shops=dict(zip(shops, dealt))),
            public("ShopCardsDrawn", draws=draws),
            public("TreasuresShuffledIn", treasures=sorted(treasures()))]


class _ShopDeck:
    """A scratch copy of the shop item deck for a run of draws."""

    def __init__(self, state: State, rng: Chance, bottom_extra: list[str] | None = None):
        self.deck = dict(state.secret["shop_deck"])
        self.bottom = list(state.shop_bottom) + list(bottom_extra or [])
        self.rng = rng
        self.winter = state.frozen

    def __len__(self) -> int:
        return sum(self.deck.values()) + len(self.bottom)

    def draw(self, draws: list[list[Any]], shop: str) -> bool:
        """Draw one card for ``shop`` into ``draws``; False when the deck is empty."""
        while len(self):
            card = _pick(self.rng, self.deck) if self.deck else self.bottom.pop(0)
            if self.winter and card in equipment() and equipment()[card].no_winter:
                draws.append([None, card])
                continue
            draws.append([shop, card])
            return True
        return False


def refill_shops(state: State, chance: ChanceFactory, winter: bool = False) -> list[Event]:
    """``ShopCardsDrawn``: every shop refilled to 4 cards, one card per shop in turn from
    Hillview Hut down, until all are full or the deck is empty (C.4 end of turn, G). Nothing
    when every shop is full (most turns' ends), without copying the deck."""
    have = {s: len(state.shops[s]) for s in SHOP_ORDER}
    full = content().cards.shop_stock
    if all(n >= full for n in have.values()):
        return []
    deck = _ShopDeck(state, _chance(state, chance, "refill"))
    deck.winter = deck.winter or winter
    draws: list[list[Any]] = []
    while any(n < full for n in have.values()) and len(deck):
        for shop in SHOP_ORDER:
            if have[shop] < full and deck.draw(draws, shop):
                have[shop] += 1
    return [public("ShopCardsDrawn", draws=draws)] if draws else []


def restock(state: State, chance: ChanceFactory, seat: int) -> list[Event]:
    """C.5: the shop's cards go under the shop item deck and four new ones are dealt."""
    shop = shop_here(state, seat)
    returned = list(state.shops[shop])
    deck = _ShopDeck(state, _chance(state, chance, "restock"), returned)
    draws: list[list[Any]] = []
    for _ in range(content().cards.shop_stock):
        if not deck.draw(draws, shop):
            break
    out = [public("ShopRestocked", seat=seat, shop=shop, returned=returned, weeks=2)]
    return out + ([public("ShopCardsDrawn", draws=draws)] if draws else [])


def _draw_travel(state: State, rng: Chance, n: int) -> tuple[list[Event], list[str]]:
    """Up to ``n`` travel cards (fewer if deck and discards run out), with the reshuffle
    event first when one is needed (C.6)."""
    deck = dict(state.secret["travel_deck"])
    discard = list(state.travel_discard)
    events: list[Event] = []
    cards: list[str] = []
    for _ in range(n):
        if not deck:
            if not discard:
                break
            events.append(public("TravelDeckReshuffled", cards=len(discard)))
            for c in discard:
                deck[c] = deck.get(c, 0) + 1
            discard = []
        cards.append(_pick(rng, deck))
    return events, cards


def scout(state: State, chance: ChanceFactory, seat: int) -> list[Event]:
    """C.6: the seat draws a travel card (seen by it alone) for 1 week."""
    events, cards = _draw_travel(state, _chance(state, chance, "scout"), 1)
    return [*events, public("Scouted", seat=seat, weeks=1), Event("TravelCardDrawn", {"seat": seat, "card": cards[0]}, seat)]


def refill_dream(state: State, chance: ChanceFactory) -> list[Event]:
    """D: the dream piles of 1, 2 and 3 cards refilled from the travel deck (set-up B too)."""
    need = {k: int(k) - len(v) for k, v in state.dream.items()}
    rng = _chance(state, chance, "dream")
    events, cards = _draw_travel(state, rng, sum(need.values()))
    piles: dict[str, list[str]] = {}
    for k in sorted(need):
        piles[k], cards = cards[:need[k]], cards[need[k]:]
    return [*events, public("DreamPilesRefilled", piles=piles)]


def draw_quests(state: State, chance: ChanceFactory, winter: bool = False) -> list[Event]:
    """``QuestsDrawn``: the quest display filled to 3 from the quest pile if possible (C.7);
    once winter has come, drawn winter quests are removed (G)."""
    want = content().cards.quest_display - len(state.quests)
    pile = list(state.quest_deck)
    rng = _chance(state, chance, "quests")
    got: list[str] = []
    removed: list[str] = []
    winter = winter or state.frozen
    while len(got) < want and pile:
        q = pile.pop(rng.below(len(pile)))
        (removed if winter and quests()[q].no_winter else got).append(q)
    return [public("QuestsDrawn", quests=got, removed=removed)] if got or removed else []
