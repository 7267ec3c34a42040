"""Deck domain: every shuffle, draw and hidden card of Noggin the Nog (the only module given chance).

Implements set-up E (turn order of the four Step markers, dummies included), set-up F
and 7.1 (Year 1 building rows; from season 5 the Year 1 pile and the Year 2 rows),
set-up N, O, P and 7.1 (the Saga, Invention and Counting House decks, the Reserve decks
A, B and C with the first A card on each Saga), 6.4 (Reserve cards drawn from the
bottom of B or C, turned over at completion, reshuffled from their discard pile when a
deck runs out: house rule), 6.1 (Knut looks at the top two cards of a deck and orders
them; Nooka's replacement card), the Telescope (appendix), set-up S and 5.1 discover
(the face-down Mine tile pile), 5.2 (Fishing tokens, the Coral Necklace's redraw) and
the variants Another Train, Money Money Money and Friend or Foe.

The order of an undrawn pile is never stored: the state holds how many items were
drawn from each end, and each draw recomputes the permutation from ``chance(<pile>)``.
Labels do not depend on the game id, so one seed gives one game. What only some may
know goes in a private or sealed event: a Reserve card's identity (its back) is sealed
until the card is turned; a peek is private to the peeking seat.
"""

from __future__ import annotations

from typing import Any, Callable

from services.rules.core import Chance, Event, sealed

from . import content
from .content import CHARACTERS
from .state import CASTLE, State, option, orient, place_tile, reserve_place

ChanceFactory = Callable[[str], Chance]


def dealt(state: State, label: str) -> list[str] | None:
    """The order of pile ``label`` fixed by a determinisation (``state.secret["dealt"]``, see
    :func:`services.rules.noggin.observe.determinise`), or None: a real game never has one,
    and its piles come from ``chance(label)`` as before."""
    orders = state.secret.get("dealt")
    out = orders.get(label) if orders else None
    return None if out is None else list(out)


def _shuffled(state: State | None, chance: ChanceFactory, label: str, items: list[str]) -> list[str]:
    """Pile ``label`` from the top: the dealt order if a determinisation fixed one, else
    ``items`` shuffled by ``chance(label)``."""
    out = None if state is None else dealt(state, label)
    return out if out is not None else chance(label).shuffled(items)


# -- building tiles -----------------------------------------------------------------------

def year1_tiles(state: State) -> list[str]:
    """The Year 1 tiles in play: 3 of each of the six kinds (house rule, ambiguity 2), one
    fewer than the players of each under You Owe Me One (variants)."""
    each = content.load().buildings.copies.each
    if option(state, "you_owe_me_one"):
        each = min(each, len(state.players) - 1)
    return [b.id for b in content.load().buildings.year1 for _ in range(each)]


def _building_order(state: State, chance: ChanceFactory) -> list[str]:
    return _shuffled(state, chance, "buildings", year1_tiles(state))


def _year2_order(chance: ChanceFactory, state: State | None = None) -> list[str]:
    return _shuffled(state, chance, "buildings:year2", list(content.year2_tiles()))


def shuffle_turn_order(state: State, chance: ChanceFactory) -> list[Event]:
    """Draw the four large Nogs at random for turn order (set-up E).

    Seat i plays colour i; colours without a seat are dummy players. Returns one
    ``TurnOrderDrawn`` event with ``markers``: ``[{"colour", "seat"}]`` in turn order.
    """
    colours = content.load().setup.colours
    n = len(state.players)
    order = chance("turn_order").shuffled(list(range(len(colours))))
    markers = [{"colour": colours[i], "seat": i if i < n else None} for i in order]
    return [Event("TurnOrderDrawn", {"markers": markers})]


def draw_building_rows(state: State, chance: ChanceFactory) -> list[Event]:
    """Set-up F: draw one face-up row per player count, twice (bottom row first).

    Returns two ``BuildingRowDrawn`` events (``row``: "bottom" then "top", ``tiles``).
    """
    order = _building_order(state, chance)
    n = len(state.players)
    k = state.buildings_drawn
    return [Event("BuildingRowDrawn", {"row": "bottom", "tiles": order[k:k + n]}),
            Event("BuildingRowDrawn", {"row": "top", "tiles": order[k + n:k + 2 * n]})]


def change_building_rows(state: State, chance: ChanceFactory) -> list[Event]:
    """Change of Season (7.1, 7.2, 5.5, appendix); ``state.season`` is the new season.

    * seasons 2 and 3: the bottom row is discarded, the top row moves down and a new top
      row is drawn (``BuildingRowsChanged`` with ``drawn``);
    * season 4 (Winter of Year 1): the rows move down but no new row is drawn, so one
      row is on display as 7.2 shows (house rule);
    * season 5: every Year 1 tile not built forms a face-up pile (``Year1PileFormed``)
      and two rows of Year 2 tiles are drawn as at set-up (5.5, 7.2);
    * seasons 6-8: the Year 2 rows change as in seasons 2 and 3 (7.1), while tiles last.
    """
    season = state.season
    n = len(state.players)
    if season in (2, 3):
        order = _building_order(state, chance)
        k = state.buildings_drawn
        return [Event("BuildingRowsChanged", {"drawn": order[k:k + n]})]
    if season == 4:
        return [Event("BuildingRowsChanged", {"drawn": []})]
    if season == 5:
        order = _building_order(state, chance)
        rest = [t for row in ("bottom", "top") for t in state.rows[row] if t]
        rest += state.building_discard + order[state.buildings_drawn:]
        y2 = _year2_order(chance, state)
        return [Event("Year1PileFormed", {"tiles": sorted(rest), "total": len(order)}),
                Event("BuildingRowDrawn", {"row": "bottom", "tiles": y2[:n], "year": 2}),
                Event("BuildingRowDrawn", {"row": "top", "tiles": y2[n:2 * n], "year": 2})]
    if season in (6, 7, 8):
        y2 = _year2_order(chance, state)
        k = state.year2_drawn
        return [Event("BuildingRowsChanged", {"drawn": y2[k:k + n], "year": 2})]
    return []


# -- the Mine and the fish bag ------------------------------------------------------------

def _mine_pile(state: State, chance: ChanceFactory) -> list[str]:
    """The face-down Mine tiles: every tile but the first one placed (set-up Q, S)."""
    ids = [t.id for t in content.load().mine.tiles if t.id != state.mine_first]
    return _shuffled(state, chance, "mine_tiles", ids)


def mine_tiles_left(state: State) -> int:
    """Mine tiles still face down (set-up S)."""
    return len(content.load().mine.tiles) - 1 - state.mine_drawn


def place_first_mine_tile(state: State, chance: ChanceFactory) -> list[Event]:
    """Another Train (variants): a random first Mine tile, placed with its Gold as far as
    possible from the starting row; its gallery squares filled with Stone, the rest of the
    20 Stone on the Nog Market. ``FirstMineTilePlaced`` (house rule: orientation search)."""
    tiles = content.load().mine.tiles
    tile = tiles[chance("mine:first").below(len(tiles))]
    slot = list(content.load().mine.grid.start_slot)
    best = None
    for rotation in (0, 90, 180, 270):
        for flip in ("h", "v"):
            rows = orient(tile.rows, rotation, flip)
            gold, gallery = place_tile(state, slot, rows)
            depth = gold[0] if gold is not None else 0
            if best is None or depth > best[0]:
                best = (depth, rotation, flip, gold, gallery)
    assert best is not None
    _, rotation, flip, gold, gallery = best
    start_stone = len([sq for sq in state.mine if state.mine[sq] == "stone"])
    stone = gallery[:start_stone]
    return [Event("FirstMineTilePlaced", {"tile": tile.id, "slot": slot, "rotation": rotation, "flip": flip,
                                          "gallery": gallery, "stone": stone, "gold": gold,
                                          "market_stone": start_stone - len(stone)})]


def draw_mine_tile(state: State, chance: ChanceFactory) -> list[Event]:
    """Draw the next face-down Mine tile (5.1 discover). ``MineTileDrawn`` with ``tile``.

    Raises ValueError if the pile is empty (``check`` forbids discovering then).
    """
    pile = _mine_pile(state, chance)
    if state.mine_drawn >= len(pile):
        raise ValueError("the Mine tile pile is empty")
    return [Event("MineTileDrawn", {"tile": pile[state.mine_drawn]})]


def draw_fishing_tokens(state: State, chance: ChanceFactory, draws: int, wait: bool = False,
                        replacing: int | None = None) -> list[Event]:
    """Draw ``draws`` (1..4) Fishing tokens from the bag without replacement (5.2).

    All tokens go back in the bag after the action, so each draw shuffles the full bag
    under its own label. With ``replacing`` (the Coral Necklace, appendix) one token put
    back in the bag is replaced by a new draw from the whole bag; ``wait`` keeps the
    tokens on the table for that decision. ``FishingTokensDrawn`` with ``tokens``:
    ``[{"id", "fish"}]``.
    """
    tokens = content.load().fishing.tokens
    order = chance(f"fishing:{state.fishing_draws}").shuffled(list(range(len(tokens))))
    if replacing is not None and state.action is not None and state.action.tokens is not None:
        held = [t["id"] for i, t in enumerate(state.action.tokens) if i != replacing]
        order = [i for i in order if tokens[i].id not in held]
    drawn = [{"id": tokens[i].id, "fish": tokens[i].fish} for i in order[:draws]]
    data: dict[str, Any] = {"tokens": drawn}
    if wait:
        data["wait"] = True
    if replacing is not None:
        data["replacing"] = replacing
    return [Event("FishingTokensDrawn", data)]


# -- Saga, Invention and Counting House decks ------------------------------------------------

def saga_order(state: State, chance: ChanceFactory) -> list[str]:
    """The Saga deck from the top (set-up N). Money Money Money (variants): 3 cards drawn
    in secret and the Money Saga shuffled together on top of the deck."""
    fixed = dealt(state, "sagas")
    if fixed is not None:
        return fixed
    sagas = content.load().sagas.sagas
    money = next(s.id for s in sagas if s.money)
    if not option(state, "money_money_money"):
        return chance("sagas").shuffled([s.id for s in sagas])
    rest = chance("sagas").shuffled([s.id for s in sagas if not s.money])
    return chance("sagas:money").shuffled([*rest[:3], money]) + rest[3:]


def _invention_order(chance: ChanceFactory, state: State | None = None) -> list[str]:
    return _shuffled(state, chance, "inventions", [c.id for c in content.load().inventions.inventions])


def _ch_order(chance: ChanceFactory, state: State | None = None) -> list[str]:
    return _shuffled(state, chance, "counting_house", [c.id for c in content.load().counting_house.cards])


def draw_saga(state: State, chance: ChanceFactory, slot: int) -> list[Event]:
    """Draw the next Saga card into display ``slot`` and its first Reserve card from the top
    of the A deck (set-up N, P; 6.4 steps 7 and 8). Nothing if the Saga deck is empty."""
    order = saga_order(state, chance)
    if state.sagas_drawn >= len(order):
        return []
    card = order[state.sagas_drawn]
    events = [Event("SagaDrawn", {"slot": slot, "card": card, "needed": content.saga_index()[card].reserve})]
    return events + draw_reserve(state, chance, slot, "A", "top", fresh_saga=True)


def deal_displays(state: State, chance: ChanceFactory) -> list[Event]:
    """Set-up N and P: 2 Sagas (each with an A card), 2 Inventions and 1 Counting House card
    face up; Friend or Foe (variants): one card dealt in secret to each seat."""
    events: list[Event] = []
    sim = _Sim(state)
    for slot in range(len(state.sagas)):
        new = draw_saga(sim.state, chance, slot)
        sim.apply(new)
        events += new
    inv = _invention_order(chance, state)
    for slot in range(len(state.inventions)):
        events.append(Event("InventionDrawn", {"slot": slot, "card": inv[slot]}))
    events.append(Event("CountingHouseDrawn", {"card": _ch_order(chance, state)[0]}))
    if option(state, "friend_or_foe"):
        fof = content.load().characters.friend_or_foe
        cards = chance("friend_or_foe").shuffled(["noggin"] * fof.friends + ["nogbad"] * fof.foes)
        for seat in range(len(state.players)):
            events.append(Event("LoyaltyDealt", {"seat": seat, "card": cards[seat]}, to=seat))
    return events


def refresh_cards(state: State, chance: ChanceFactory) -> list[Event]:
    """Change of Season (7.1): the Counting House card and every Invention card with no
    resources on it are discarded; new cards fill the display while the decks last."""
    events: list[Event] = []
    if state.counting_house is not None:
        events.append(Event("CountingHouseDiscarded", {"card": state.counting_house}))
    ch = _ch_order(chance, state)
    if state.ch_drawn < len(ch):
        events.append(Event("CountingHouseDrawn", {"card": ch[state.ch_drawn]}))
    inv = _invention_order(chance, state)
    k = state.inventions_drawn
    for slot, card in enumerate(state.inventions):
        if card is not None and any(m is not None for m in card.met):
            continue
        if card is not None:
            events.append(Event("InventionDiscarded", {"slot": slot, "card": card.card}))
        if k < len(inv):
            events.append(Event("InventionDrawn", {"slot": slot, "card": inv[k]}))
            k += 1
    return events


# -- the Reserve decks (6.4) ------------------------------------------------------------------

def reserve_order(state: State, chance: ChanceFactory, deck: str) -> list[str]:
    """Deck ``deck`` in its current epoch, top first, with Knut's swaps applied (6.1, 6.4); the
    order a determinisation dealt, if any (:func:`dealt`)."""
    r = state.reserve[deck]
    pool = state.secret["pool"].get(deck) if r["epoch"] else list(content.reserve_ids(deck))
    order = _shuffled(state, chance, f"reserve:{deck}:{r['epoch']}", list(pool))
    for i, j in state.secret["swaps"].get(deck, []):
        order[i], order[j] = order[j], order[i]
    return order


def reserve_left(state: State, deck: str) -> int:
    """Cards still in Reserve deck ``deck`` (its discard pile not counted)."""
    r = state.reserve[deck]
    return r["size"] - r["top"] - r["bottom"]


def can_draw(state: State, deck: str) -> bool:
    """True if a card can come from ``deck``: it has one, or its discard pile can be reshuffled."""
    return reserve_left(state, deck) > 0 or state.reserve[deck]["discard"] > 0


def draw_reserve(state: State, chance: ChanceFactory, saga: int, deck: str, end: str,
                 fresh_saga: bool = False) -> list[Event]:
    """Draw a Reserve card onto Saga ``saga``'s Harbourside, resource side up (6.4).

    From the ``"top"`` (A cards: set-up P, step 8) or the ``"bottom"`` (B and C: "Choosing a
    Reserve Deck"; house rule for ambiguity 3). An empty deck is first made again from its
    discard pile, shuffled (house rule). A character the new card asks for who is already
    on the Saga goes back to the Castle (6.4 note). Public ``ReserveCardDrawn`` with the
    front; the card's identity (hence its back) in a sealed ``ReserveCardSealed``.
    """
    events: list[Event] = []
    sim = _Sim(state)
    if reserve_left(state, deck) == 0:
        cards = list(state.secret["discard"][deck])
        if not cards:
            return []
        events += [sealed("ReservePoolSealed", deck=deck, cards=cards),
                   Event("ReserveDeckReshuffled", {"deck": deck, "size": len(cards)})]
        sim.apply(events)
    s = sim.state
    order = reserve_order(s, chance, deck)
    card = order[reserve_place(s, deck, end)]
    info = content.reserve_index()[card]
    on_saga = [] if fresh_saga else [ch for ch, where in s.characters.items() if where == f"saga:{saga}"]
    recalled = sorted(ch for ch in info.needs if ch in CHARACTERS and ch in on_saga)
    data: dict[str, Any] = {"saga": saga, "deck": deck, "end": end, "needs": list(info.needs)}
    if info.bonus:
        data["bonus"] = True
    if recalled:
        data["recalled"] = recalled
    return events + [Event("ReserveCardDrawn", data), sealed("ReserveCardSealed", saga=saga, card=card)]


def turn_reserve(state: State, chance: ChanceFactory, saga: int) -> list[Event]:
    """6.4 completion step C: the completed Reserve card is turned over; its back shows
    Nogbad's portrait or Nooka's knife. ``ReserveCardTurned`` (public) with ``card`` and
    ``nogbad``."""
    card = state.secret["saga_cards"][saga]
    return [Event("ReserveCardTurned", {"saga": saga, "card": card,
                                        "nogbad": content.reserve_index()[card].nogbad})]


def _sides(card: str) -> dict[str, Any]:
    info = content.reserve_index()[card]
    return {"card": card, "needs": list(info.needs), "bonus": info.bonus, "nogbad": info.nogbad}


def knut_look(state: State, chance: ChanceFactory, seat: int, deck: str) -> list[Event]:
    """Knut (6.1): the seat alone sees both sides of the top two cards of ``deck`` (private
    ``ReserveCardsPeeked``); a public ``DecisionOpened`` asks it for their order."""
    order = reserve_order(state, chance, deck)
    n = min(2, reserve_left(state, deck))
    positions = [reserve_place(state, deck, "top", k) for k in range(n)]
    return [Event("ReserveCardsPeeked", {"seat": seat, "deck": deck, "by": "knut",
                                         "cards": [_sides(order[i]) for i in positions]}, to=seat),
            Event("DecisionOpened", {"kind": "knut", "seat": seat, "deck": deck, "cards": n})]


def knut_order(state: State, seat: int, swap: bool) -> list[Event]:
    """Knut puts the two cards back in the order the seat chose (6.1): a private
    ``KnutOrdered`` (the only place the choice is written) and a public
    ``ReserveCardsReturned`` that looks the same whatever was chosen."""
    d = state.decision
    assert d is not None and d["kind"] == "knut"
    deck = d["deck"]
    positions = [reserve_place(state, deck, "top", k) for k in range(2)]
    return [Event("KnutOrdered", {"seat": seat, "deck": deck, "swap": bool(swap) and d["cards"] == 2,
                                  "positions": positions}, to=seat),
            Event("ReserveCardsReturned", {"seat": seat, "deck": deck})]


def telescope(state: State, chance: ChanceFactory, seat: int, deck: str) -> list[Event]:
    """The Telescope (appendix): the seat alone sees both sides of the bottom card of
    ``deck`` and puts it back (private ``ReserveCardsPeeked``; the use itself is public)."""
    order = reserve_order(state, chance, deck)
    cards = [_sides(order[reserve_place(state, deck, "bottom")])] if reserve_left(state, deck) else []
    return [Event("AbilityUsed", {"seat": seat, "card": "telescope", "once": "season", "deck": deck}),
            Event("ReserveCardsPeeked", {"seat": seat, "deck": deck, "by": "telescope", "cards": cards}, to=seat)]


class _Sim:
    """A scratch copy that a deck operation advances through its own events, so that one
    operation can draw several cards in order. :attr:`state` is the operation's state itself
    (read only) until the first :meth:`apply`, which copies it first."""

    def __init__(self, state: State):
        self.state = state
        self._copied = False

    def apply(self, events: list[Event]) -> None:
        from .state import copy_state, evolve

        if not self._copied:
            self.state = copy_state(self.state)
            self._copied = True
        for e in events:
            evolve(self.state, e)


__all__ = ["CASTLE", "can_draw", "change_building_rows", "deal_displays", "draw_building_rows",
           "draw_fishing_tokens", "draw_mine_tile", "draw_reserve", "draw_saga", "knut_look", "knut_order",
           "mine_tiles_left", "place_first_mine_tile", "refresh_cards", "reserve_left", "reserve_order",
           "saga_order", "shuffle_turn_order", "telescope", "turn_reserve", "year1_tiles"]
