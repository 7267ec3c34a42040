"""The trade action of Resource Hog and the trading board (``resource-hog-actions-and-events.txt``,
rows Buy, Sell and Adjust trading board; house rules for the board, ambiguity 15).

A column of the board holds 0-10 goods in five rows of two slots, dearest at the bottom.
Buying takes from the highest filled slot at its row's price, and the bottom row always has
goods; selling fills the lowest free slot at its row's price, and the top row buys without
limit, counting as two goods. Goods travel between areas for 1 money a border, free between
two areas with roads. Per good a seat either buys or sells in one trade phase.
"""

from __future__ import annotations

from typing import Any

from services.rules.core import Event, IllegalMove, public

from .content import GOODS, content
from .state import State, pieces, pieces_per_player, room


def buy_price(good: str, n: int) -> int:
    """Price of one ``good`` bought from a column holding ``n`` (the bottom row when empty)."""
    prices = content().trading.goods[good]
    return prices[max(0, n - 1) // content().trading.slots_per_row]


def sell_price(good: str, n: int) -> int:
    """Price of one ``good`` sold into a column holding ``n`` (the top row when full)."""
    prices = content().trading.goods[good]
    return prices[min(content().trading.rows - 1, n // content().trading.slots_per_row)]


def harbours(state: State, seat: int) -> list[str]:
    """The seat's land areas with a harbour."""
    return [a for a in content().map.ring if state.lands[a].owner == seat and "harbour" in state.lands[a].buildings]


def borders(a: str, b: str) -> int:
    """Borders crossed on the shortest way round the ring from ``a`` to ``b``."""
    ring = content().map.ring
    d = abs(ring.index(a) - ring.index(b))
    return min(d, len(ring) - d)


def ship_fee(state: State, a: str, b: str) -> int:
    """The fee for moving goods from ``a`` to ``b``: 1 money a border, none if both have roads (table: sell)."""
    if "road" in state.lands[a].buildings and "road" in state.lands[b].buildings:
        return 0
    return borders(a, b)


def check(state: State, seat: int, move: dict[str, Any]) -> None:
    """``buy``, ``sell`` and ``ship`` (table: buy, sell). Raises IllegalMove, saying why, for
    a move the seat may not make now; among them goods or a slave bought into an area without a
    harbour (a mercenary joins in any area of the buyer's: house rule, mercenaries march in),
    buying more slaves (each becomes a peasant) or
    mercenaries (each a noble) than the seat has room for among its 50 peasant/noble markers
    on the map (resource-hog-components.md, Components; house rule: slaves and mercenaries),
    and selling as slaves more peasants than the harbour area has free, or than the slave
    stack has markers for (table: adjust trading board, slaves are sold until the stack runs
    out; house rule: slaves)."""
    t, good, n = move["type"], move["good"], move["count"]
    purse = state.players[seat].money
    if t == "ship":
        src, dst = move["from"], move["to"]
        if src == dst:
            raise IllegalMove("goods are shipped to another area")
        if state.lands[src].owner != seat or dst not in state.lands:
            raise IllegalMove(f"goods are shipped from your own land; {src} is not yours")
        if good not in GOODS or state.lands[src].store[good] < n or n < 1:
            raise IllegalMove(f"{src} has {state.lands[src].store.get(good, 0)} {good}, not {n}")
        if purse < ship_fee(state, src, dst):
            raise IllegalMove(f"shipping to {dst} costs {ship_fee(state, src, dst)} money (table: sell)")
        return
    other = "sell" if t == "buy" else "buy"
    if f"{other}:{good}" in state.traded:
        raise IllegalMove(f"you have {'sold' if other == 'sell' else 'bought'} {good} in this trade phase and may "
                          f"not also {t} it (table: buy)")
    if t == "buy":
        if good == "mercenary":
            if state.lands[move["to"]].owner != seat:
                raise IllegalMove("a mercenary joins you in one of your own land areas, any of them (house rule: "
                                  "mercenaries march in)")
        elif move["to"] not in harbours(state, seat):
            raise IllegalMove("bought goods are placed in one of your harbour areas (table: buy)")
        if good == "slave" and state.slaves == 0:
            raise IllegalMove("the slave stack has run out: slaves are no longer bought or sold (table: adjust "
                              "trading board)")
        if good in ("slave", "mercenary"):
            track = state.slave_track if good == "slave" else state.mercenary_track
            if track < n:
                raise IllegalMove(f"{track} {good}(s) on offer, not {n}")
            if room(state, seat) < n:
                becomes = "peasants" if good == "slave" else "nobles"
                raise IllegalMove(f"each {good} bought becomes one of your {becomes}; you have "
                                  f"{pieces(state, seat)} of your {pieces_per_player()} peasant/noble "
                                  f"markers on the map, so room for {room(state, seat)} more, not {n} "
                                  f"(components page)")
            price = n * (content().trading.slave_price if good == "slave" else content().trading.mercenary_price)
        else:
            price = cost_of(state, good, n)
        if purse < price:
            raise IllegalMove(f"{n} {good} cost {price} money; the purse holds {purse} (table: buy)")
        return
    src = move["from"]
    if src not in harbours(state, seat):
        raise IllegalMove("goods are sold from one of your harbour areas (table: sell)")
    if good == "slave":
        if state.slaves < n:
            raise IllegalMove(f"each slave sold takes a slave marker from the stack to the track; the stack holds "
                              f"{state.slaves}, not {n}: once it runs out slaves are no longer bought or sold "
                              f"(table: adjust trading board; house rule: slaves)")
        if not 1 <= n <= sellable_peasants(state, src):
            raise IllegalMove(f"{src} has {sellable_peasants(state, src)} peasants not allocated this round to sell "
                              f"as slaves, not {n} (house rule: slaves)")
        return
    if good not in GOODS or state.lands[src].store[good] < n or n < 1:
        raise IllegalMove(f"{src} has {state.lands[src].store.get(good, 0)} {good}, not {n}")


def sellable_peasants(state: State, area: str) -> int:
    """Peasants of ``area`` that may be sold as slaves: those not allocated to work this round
    (house rule: slaves, docs/house-rules.md, Resource Hog: The trading board)."""
    a = state.lands[area]
    return max(0, a.peasants - sum(a.work.values()))


def cost_of(state: State, good: str, n: int) -> int:
    """What ``n`` of ``good`` bought one after the other cost."""
    have, total = state.board[good], 0
    for _ in range(n):
        total += buy_price(good, have)
        have = max(0, have - 1)
    return total


def legal_moves(state: State, seat: int, mine: list[str], max_count: int) -> list[dict[str, Any]]:
    """The trade action's legal ``buy``, ``sell`` and ``ship`` moves of ``seat`` (which owns the
    areas ``mine``, in ring order), in the order of the rules' candidates: exactly those
    :func:`check` accepts, each condition read once per good or per area. ``max_count`` caps
    the goods one move sells or ships."""
    lands_ = state.lands
    purse = state.players[seat].money
    traded = state.traded
    ports = [a for a in mine if "harbour" in lands_[a].buildings]
    out: list[dict[str, Any]] = []
    for good in GOODS:
        buy = f"sell:{good}" not in traded and purse >= cost_of(state, good, 1)
        sell = f"buy:{good}" not in traded
        for port in ports:
            if buy:
                out.append({"type": "buy", "good": good, "count": 1, "to": port})
            have = lands_[port].store[good]
            if have and sell:
                out.append({"type": "sell", "good": good, "count": min(have, max_count), "from": port})
        for src in mine:
            have = lands_[src].store[good]
            if have:
                n = min(have, max_count)
                out += [{"type": "ship", "good": good, "count": n, "from": src, "to": dst}
                        for dst in mine if dst != src and purse >= ship_fee(state, src, dst)]
    t = content().trading
    space = room(state, seat)
    if (ports and "sell:slave" not in traded and state.slaves and state.slave_track >= 1 and space >= 1
            and purse >= t.slave_price):
        out.append({"type": "buy", "good": "slave", "count": 1, "to": ports[0]})
    if "sell:mercenary" not in traded and state.mercenary_track >= 1 and space >= 1 and purse >= t.mercenary_price:
        out += [{"type": "buy", "good": "mercenary", "count": 1, "to": area} for area in mine]
    if "buy:slave" not in traded and state.slaves >= 1:
        out += [{"type": "sell", "good": "slave", "count": 1, "from": port} for port in ports
                if sellable_peasants(state, port) >= 1]
    return out


def events_of(state: State, seat: int, move: dict[str, Any]) -> list[Event]:
    """``GoodsShipped``, ``GoodsBought`` or ``GoodsSold`` with the money paid or gained.
    ``GoodsSold(seat, good="slave", count, from, money)`` sells peasants as slaves at
    ``trading.json`` ``slave_sell_price`` each (house rule: slaves)."""
    t, good, n = move["type"], move["good"], move["count"]
    if t == "ship":
        return [public("GoodsShipped", seat=seat, good=good, count=n, **{"from": move["from"]}, to=move["to"],
                       fee=ship_fee(state, move["from"], move["to"]))]
    if t == "buy":
        if good in ("slave", "mercenary"):
            price = n * (content().trading.slave_price if good == "slave" else content().trading.mercenary_price)
        else:
            price = cost_of(state, good, n)
        return [public("GoodsBought", seat=seat, good=good, count=n, to=move["to"], money=price)]
    if good == "slave":
        return [public("GoodsSold", seat=seat, good=good, count=n, **{"from": move["from"]},
                       money=n * content().trading.slave_sell_price)]
    have, gained = state.board[good], 0
    for _ in range(n):
        gained += sell_price(good, have)
        have = min(content().trading.capacity, have + 1)
    return [public("GoodsSold", seat=seat, good=good, count=n, **{"from": move["from"]}, money=gained)]


def adjust_board(state: State, chance: Any) -> list[Event]:
    """Adjust the trading board (table): each column one good toward balance, then a d6 moves
    one column two goods (house rule table), then a slave to the track, or a mercenary once
    the slaves are gone."""
    t = content().trading
    board = dict(state.board)
    for g in GOODS:
        if board[g] != t.balance:
            board[g] += 1 if board[g] < t.balance else -1
    roll = 1 + chance(f"resource_hog:d6:{state.draws}").below(6)
    good, delta = t.d6[str(roll)]
    board[good] = max(0, min(content().trading.capacity, board[good] + delta))
    return [public("TradingBoardAdjusted", roll=roll, board=board, slave=state.slaves > 0)]

