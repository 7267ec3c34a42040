"""Market domain: the Nog Market, Market Day, trading, the Counting House auction, Restock
and Winter donations.

Implements rulebook 6.0 (Market Day: one Step, then a character's ability and/or one
option, in that order; Honey & Mead adds one more, appendix), 6.6 (trading at 2:1, or
3:1 while Nogbad brings Bad News, 8.0; any number of trades for one Step; coins once the
Money Saga is done: bought at the rate, spent 1 for any resource), 6.3 (auctioning the
Counting House card round the table in Steps, face up or face down; the Ring of Nudrug),
5.6 (Restock trees or fish: exactly 4, 8 or 12 cubes; 3, 7 or 11 fish with the Butterfly
Net; no replanting of Orchards under So Long) and 7.2 (donations of Wood and Food in
Winter). Spent cubes, Gold and coins included, return to the Nog Market (3.7), where any
resource present may be taken in trade (6.6).
"""

from __future__ import annotations

from typing import Any

from services.rules.core import Event, IllegalMove

from . import content
from .board import can_use, fits, has_artefact
from .content import BASIC
from .state import State, option, season_name
from .steps import LAP, landing

RATE = 2
"""The Nog Market's exchange rate (6.6)."""
BAD_NEWS_RATE = 3
"""The rate while Nogbad is on the trading space (8.0, quarter 4)."""
RESTOCK_AMOUNTS = (4, 8, 12)
RESTOCK_POINTS = {4: 0, 8: 2, 12: 4}
"""Points for restocking 4, 8 or 12 cubes (rulebook 5.6)."""
NET_AMOUNTS = {3: 4, 7: 8, 11: 12}
"""The Butterfly Net fills the fjord with one fish less: 3, 7 or 11 count as 4, 8, 12 (appendix)."""
FACE_DOWN_POINTS = 8
"""A Counting House card turned face down scores 8 at once (6.3 B)."""
OPTIONS = ("evict", "auction", "saga", "invention", "trade")
"""The second part of Market Day: one of these (6.0)."""
TRADE_GOODS = (*BASIC, "gold", "coin")
"""What may be given in trade (6.6: Gold and coins included)."""
NOT_TAKEN = frozenset({"gold"})
"""What the Nog Market never gives in trade (house rule "Trading"): spent Gold lies there (3.7)
but comes back only from the Mine (5.1), or 2 Wood would buy a Gold worth 8 with the
Goldsmith."""


def rate(state: State) -> int:
    """The current exchange rate: 2, or 3 while Nogbad is active on Bad News (6.6, 8.0)."""
    return BAD_NEWS_RATE if state.nogbad == "active" and state.wheel == 3 else RATE


# -- the two parts of Market Day (6.0) ----------------------------------------------------

def pick_needs_honey(picks: list[str], pick: str) -> bool:
    """True if ``pick`` after ``picks`` goes beyond one character then one option (6.0),
    so that only Honey & Mead allows it (appendix)."""
    if pick == "character":
        return "character" in picks or any(p in OPTIONS for p in picks)
    return any(p in OPTIONS for p in picks)


def continuing(state: State, pick: str, target: int | None = None) -> bool:
    """True if the move goes on with the option already chosen (more trades, more of the same
    Saga or Invention) rather than choosing a new one."""
    a = state.action
    if a is None or not a.picks or a.picks[-1] != pick:
        return False
    if pick == "saga":
        return a.saga is not None and a.saga == target
    if pick == "invention":
        return a.invention is not None and a.invention == target
    return pick == "trade"


def check_pick(state: State, seat: int, pick: str, target: int | None = None) -> None:
    """Raise unless Market Day allows ``pick`` now: first a character's ability, then one
    option, in that order (6.0); Honey & Mead allows one more of either, once a season."""
    if continuing(state, pick, target):
        return
    a = state.action
    picks = a.picks if a is not None else []
    if not pick_needs_honey(picks, pick):
        return
    if len(picks) >= 3 or not can_use(state.players[seat], "honey_and_mead"):
        raise IllegalMove("Market Day is a character's ability and/or one option, in that order "
                          "(rulebook 6.0); Honey & Mead allows one more once a season")


def honey_events(state: State, seat: int, pick: str, target: int | None = None) -> list[Event]:
    """``AbilityUsed`` for Honey & Mead when this pick is the extra one (appendix)."""
    if continuing(state, pick, target):
        return []
    a = state.action
    if pick_needs_honey(a.picks if a is not None else [], pick):
        return [Event("AbilityUsed", {"seat": seat, "card": "honey_and_mead", "once": "season"})]
    return []


# -- trading (6.6) ----------------------------------------------------------------------------

def check_trade(state: State, seat: int, give: list[str], take: str) -> None:
    """Trade ``rate`` resources (Gold and coins included) for 1 resource present at the market,
    or 1 coin for any resource (6.6); Gold and coins taken need no Farm space (3.7, 6.6)."""
    p = state.players[seat]
    check_pick(state, seat, "trade")
    r = rate(state)
    if give != ["coin"] and len(give) != r:
        raise IllegalMove(f"the Nog Market takes {r} resources for 1, or 1 coin for 1 (rulebook 6.6, 8.0)")
    if take in give:
        raise IllegalMove("taking back a resource you give is no trade")
    for g in set(give):
        if g not in TRADE_GOODS:
            raise IllegalMove(f"{g!r} is not a resource")
        if p.stock[g] < give.count(g):
            raise IllegalMove(f"you do not have {give.count(g)} {g} to give (rulebook 6.6)")
    if take in NOT_TAKEN:
        raise IllegalMove("the Nog Market does not sell Gold: it comes only from the Mine (rulebook 5.1, 6.6; "
                          "house rule)")
    if take == "coin" and not state.coins:
        raise IllegalMove("coins come to the Nog Market only once the Money Saga is completed (rulebook 6.6)")
    if state.market[take] < 1:
        raise IllegalMove(f"there is no {take} at the Nog Market (rulebook 6.6)")
    after = {b: -give.count(b) for b in BASIC}
    if take in after:
        after[take] += 1
    if not fits(p, after):
        raise IllegalMove(f"your Farm has no room for 1 more {take} (rulebook 3.7, no waste)")


def trade(state: State, seat: int, give: list[str], take: str) -> list[Event]:
    """One trade at the Nog Market (6.6). ``Traded`` with ``seat, give, take, rate``."""
    return [*honey_events(state, seat, "trade"),
            Event("Traded", {"seat": seat, "give": sorted(give), "take": take, "rate": rate(state)})]


# -- the Counting House auction (6.3) ---------------------------------------------------------------

def bid_cost(state: State, seat: int, steps: int) -> int:
    """Steps a winning bid really costs: 1 less with the Ring of Nudrug (appendix)."""
    return max(0, steps - (1 if has_artefact(state.players[seat], "ring_of_nudrug") else 0))


def max_bid(state: State, seat: int) -> int:
    """The highest bid of ``seat``: its Step marker must stay short of the Runestone after
    moving and the no-sharing push (6.3 with 4.2; house rule for ambiguity 4: a bid equal
    to the gap is refused). 0 without a Nog on the Mountains space (6.3). No seat bids before
    its first turn: no auction starts until every marker has had one (:func:`check_auction`)."""
    p = state.players[seat]
    if p.mountains < 1:
        return 0
    i = next(k for k, m in enumerate(state.markers) if m.seat == seat)
    ring = 1 if has_artefact(p, "ring_of_nudrug") else 0  # :func:`bid_cost`
    pos = state.markers[i].pos
    occupied = {m.pos for k, m in enumerate(state.markers) if k != i}
    limit = state.runestone + LAP
    best = 0
    for steps in range(1, 10):  # where the marker lands (:func:`.steps.landing`) never comes nearer as the bid grows
        to = pos + max(0, steps - ring)
        while to in occupied:
            to += 1
        if to >= limit:
            break
        best = steps
    return best


def auction_order(state: State, seat: int) -> list[int]:
    """Bidders from the active player's left round to the active player (6.3)."""
    n = len(state.players)
    return [(seat + k) % n for k in range(1, n + 1)]


def first_turns_over(state: State) -> bool:
    """Whether every Step marker, dummies' included, has had its first turn (4.1)."""
    for m in state.markers:  # a loop, not all(...): no generator made at each call
        if m.turns <= 0:
            return False
    return True


def check_auction(state: State, seat: int) -> None:
    """Start the auction of the face-up Counting House card (6.3), only once every marker has
    had its first turn (house rule: until then the other seats may only pass, so the card
    would go to the active seat uncontested)."""
    check_pick(state, seat, "auction")
    if state.counting_house is None:
        raise IllegalMove("there is no Counting House card to auction this season (rulebook 6.3, 7.1)")
    if not first_turns_over(state):
        raise IllegalMove("no Counting House auction until every player has had a first turn "
                          "(house rule, rulebook 4.1 and 6.3)")


def start_auction(state: State, seat: int) -> list[Event]:
    """``AuctionStarted`` with the card and the bidding ``order`` (6.3)."""
    return [*honey_events(state, seat, "auction"),
            Event("AuctionStarted", {"seat": seat, "card": state.counting_house, "order": auction_order(state, seat)})]


def bidder(state: State) -> int | None:
    """The seat whose bid it is, or None."""
    au = state.auction
    if au is None or au["next"] >= len(au["order"]):
        return None
    return au["order"][au["next"]]


def check_bid(state: State, seat: int, steps: int) -> None:
    """Raise the bid (in Steps) or pass (0): more than the highest bid, at most the seat's
    limit, and only with a Nog on the Mountains space (6.3)."""
    if bidder(state) != seat:
        raise IllegalMove("it is not your bid")
    if steps == 0:
        return
    au = state.auction
    assert au is not None
    if steps <= au["bid"]:
        raise IllegalMove(f"a bid must be more than the highest, {au['bid']} Step(s) (rulebook 6.3)")
    if steps > max_bid(state, seat):
        raise IllegalMove(f"you may bid at most {max_bid(state, seat)} Step(s): your Step marker may not reach "
                          f"the Runestone, and you need a Nog for the card (rulebook 6.3)")


def bid(state: State, seat: int, steps: int) -> list[Event]:
    """``BidMade`` (``steps`` 0 is a pass) (6.3)."""
    return [Event("BidMade", {"seat": seat, "steps": steps})]


def settle_auction(state: State) -> list[Event]:
    """After the last bidder: the highest bid wins; the winner's Step marker moves by the bid
    (no-sharing applied) and the winner chooses the card's side next (6.3). ``AuctionWon``
    or ``AuctionLost`` (nobody bid; the card stays)."""
    au = state.auction
    assert au is not None
    seat = au["leader"]
    if seat is None:
        return [Event("AuctionLost", {"card": au["card"]})]
    i = next(k for k, m in enumerate(state.markers) if m.seat == seat)
    cost = bid_cost(state, seat, au["bid"])
    to = landing(state, i, cost)
    assert to is not None
    data = {"seat": seat, "card": au["card"], "steps": au["bid"], "paid": cost, "marker": i, "to": to}
    if cost < au["bid"]:
        data["artefact"] = "ring_of_nudrug"
    return [Event("AuctionWon", data)]


def check_keep(state: State, seat: int, face: str) -> None:
    """The auction's winner keeps the card face up or turns it face down (6.3 A/B)."""
    d = state.decision
    if d is None or d["kind"] != "keep_card" or d["seat"] != seat:
        raise IllegalMove("you have no Counting House card to place")
    if face not in ("up", "down"):
        raise IllegalMove('a Counting House card is kept face "up" or "down" (rulebook 6.3)')


def keep(state: State, seat: int, face: str) -> list[Event]:
    """Place the card beside the board with a Nog; face down scores 8 now (6.3).
    ``CountingHouseCardKept`` (+ ``PointsScored``)."""
    d = state.decision
    assert d is not None
    events = [Event("CountingHouseCardKept", {"seat": seat, "card": d["card"], "up": face == "up"})]
    if face == "down":
        events.append(Event("PointsScored", {"seat": seat, "points": FACE_DOWN_POINTS, "for": "counting house"}))
    return events


# -- Restock (5.6) -------------------------------------------------------------------------------

def forest_places(state: State, trees: int) -> list[int] | None:
    """Forest zones receiving ``trees`` cubes, one per clearing in trail order from the
    Woodcutter's clearing, skipping full ones (5.6); ``None`` if the forest has no room."""
    forest = content.load().forest
    hexes = {z.id: z.hexes for z in forest.zones}
    level = list(state.forest)
    if trees > sum(hexes[z] - level[z] for z in hexes):
        return None
    n = len(forest.clearings)
    i = max(state.woodcutter, 0)
    out = []
    while len(out) < trees:
        zone = forest.clearings[i % n].zone
        if level[zone] < hexes[zone]:
            level[zone] += 1
            out.append(zone)
        i += 1
    return out


def restock_amounts(state: State, seat: int, kind: str) -> tuple[int, ...]:
    """Amounts a Restock may move: 4, 8, 12; fish also 3, 7, 11 with the Butterfly Net."""
    if kind == "fish" and has_artefact(state.players[seat], "butterfly_net"):
        return (*NET_AMOUNTS, *RESTOCK_AMOUNTS)
    return RESTOCK_AMOUNTS


def restock_points(amount: int) -> int:
    """Points for a Restock of ``amount`` cubes (5.6; Butterfly Net amounts count one more)."""
    return RESTOCK_POINTS[NET_AMOUNTS.get(amount, amount)]


def check_restock(state: State, seat: int, kind: str, amount: int, orchard: int) -> None:
    """Restock exactly 4, 8 or 12 trees or fish from the Nog Market (5.6)."""
    p = state.players[seat]
    if amount not in restock_amounts(state, seat, kind):
        raise IllegalMove("restock exactly 4, 8 or 12 (3, 7 or 11 fish with the Butterfly Net) (rulebook 5.6)")
    if kind == "fish" and orchard:
        raise IllegalMove("fish are restocked in the fjord, not the Orchard (rulebook 5.6)")
    if kind == "trees":
        cap = content.load().setup.orchard_trees
        if orchard > 0 and option(state, "so_long"):
            raise IllegalMove("So Long: Orchard trees once cut are never replanted (variants)")
        if orchard > 0 and "orchard" in p.buildings.values():
            raise IllegalMove("your Orchard has a building on it (rulebook 5.5)")
        if p.orchard + orchard > cap:
            raise IllegalMove(f"your Orchard holds at most {cap} trees (rulebook 5.6)")
    cube = "wood" if kind == "trees" else "fish"
    if state.market[cube] < amount:
        raise IllegalMove(f"the Nog Market has {state.market[cube]} {cube}, not {amount} "
                          f"(rulebook 5.6: choose a lower number)")
    if kind == "trees" and (orchard > amount or forest_places(state, amount - orchard) is None):
        raise IllegalMove("the forest has no room for that many trees (rulebook 5.6)")


def restock(state: State, seat: int, kind: str, amount: int, orchard: int) -> list[Event]:
    """Move the cubes from the Nog Market to the fjord, or to the Orchard and forest (5.6).
    ``Restocked`` with ``seat, kind, amount, orchard, forest`` (zone of each forest cube)."""
    forest = forest_places(state, amount - orchard) if kind == "trees" else []
    data = {"seat": seat, "kind": kind, "amount": amount, "orchard": orchard if kind == "trees" else 0,
            "forest": forest}
    if amount in NET_AMOUNTS:
        data["artefact"] = "butterfly_net"
    return [Event("Restocked", data)]


# -- donations (7.2) ---------------------------------------------------------------------------

def check_donate(state: State, seat: int, wood: int, food: str | None) -> None:
    """Donate Wood and/or one Food to the market, in Winter only (7.2)."""
    p = state.players[seat]
    if season_name(state.season) != "winter":
        raise IllegalMove("donations are only made in Winter (rulebook 7.2)")
    if not wood and food is None:
        raise IllegalMove("donate at least one Wood or Food (rulebook 7.2)")
    if wood and p.stock["wood"] < 1:
        raise IllegalMove("you have no Wood to donate (rulebook 7.2)")
    if food is not None and p.stock[food] < 1:
        raise IllegalMove(f"you have no {food} to donate (rulebook 7.2)")


def donate(state: State, seat: int, wood: int, food: str | None) -> list[Event]:
    """Return Wood and/or Food to the Nog Market (7.2). ``Donated`` with ``given``."""
    given: dict[str, Any] = {}
    if wood:
        given["wood"] = 1
    if food is not None:
        given[food] = 1
    return [Event("Donated", {"seat": seat, "given": given})]
