"""The player view of A Game of Gnomes, and search over what a seat knows.

A view is the state without ``secret``, plus the seat's own ``hand`` (travel and treasure
cards, C.4, E), every seat's hand size, the timing track as stacks, the season, which
decision the game waits for and the locations by name. The travel deck and the
shuffled part of the shop item deck show their sizes only; other seats' hands never
appear (rulebook C.4, C.6).

:func:`determinise` and :func:`state_from_view` sample what a seat cannot see — the other
hands and the undrawn decks — from the cards it has not seen, so search never reads
hidden information.
"""

from __future__ import annotations

import random
from dataclasses import fields
from typing import Any

from . import geo, rounds, turns
from .content import content
from .state import Player, State, copy_state, treasures


def timing_track(state: State) -> list[list[int]]:
    """Seats on each space 0-7 of the timing track, bottom of the stack first (C.1 timer)."""
    track: list[list[int]] = [[] for _ in range(8)]
    for p in sorted(state.players, key=lambda p: p.stamp):
        track[min(p.timer, 7)].append(p.seat)
    return track


def places(state: State) -> dict[str, dict[str, Any]]:
    """Each site's tile with its name and kind, what a village buys, and the tower."""
    t = content().tiles
    names = {**{v.id: v.name for v in t.villages}, **{s.id: s.name for s in t.shops},
             **{h.id: f"{h.colour} gnome house" for h in t.houses}}
    out = {}
    for site, tile in sorted(state.layout.items()):
        kind = geo.tile_kinds()[tile]
        entry = {"tile": tile, "name": names[tile], "kind": kind}
        if kind == "village":
            entry["buys"] = sorted(geo.village_buys()[tile])
        out[site] = entry
    out[content().board.tower] = {"tile": None, "name": "the Sorcerer's tower", "kind": "tower", "buys": "any"}
    return out


def routes() -> dict[str, Any]:
    """The board's routes for a client drawing or reading the map (C.1, G): ``land``, each
    ``[a, b, icons]`` (the travel icons that cross it; ``black`` leads to the tower), and
    ``water``, each ``[a, b, "river" | "lake"]``."""
    land = sorted({(min(a, b), max(a, b), tuple(sorted(icons)))
                   for a, nbrs in geo.land_routes().items() for b, icons in nbrs})
    water = sorted({(min(a, b), max(a, b), kind) for a, nbrs in geo.water_routes().items() for b, kind in nbrs})
    return {"land": [[a, b, list(icons)] for a, b, icons in land], "water": [list(w) for w in water]}


def player_view(rules: Any, state: State, seat: int | None) -> dict[str, Any]:
    """The view of ``seat`` (``None``: a spectator): see the module docstring. ``hand`` is the
    seat's own cards (``None`` for a spectator)."""
    out = rules.table_view(state, seat)
    out["pending"] = turns.pending(state)
    out["hand"] = list(state.secret["hands"][seat]) if seat is not None and 0 <= seat < len(state.players) \
        and state.secret else None
    out["season"] = content().calendar.season_at(state.calendar)
    out["timing_track"] = timing_track(state)
    out["places"] = places(state) if state.layout else {}
    out["routes"] = routes()
    if state.stage == "sleep" and rounds.current(state) is not None:
        out["sleep_weeks"] = rounds.sleep_weeks(state, rounds.current(state))
    return out


# -- search over what a seat knows ---------------------------------------------------------

def _unseen(state: State, seat: int | None) -> tuple[list[str], list[str]]:
    """Travel cards and shop item cards ``seat`` has not seen where they are now."""
    c = content().cards
    travel = {t.id: t.copies for t in c.travel}
    shop = {e.id: e.copies for e in c.shop}
    for t in treasures():
        shop[t] = 1

    def less(pool: dict[str, int], cards: list[str]) -> None:
        for x in cards:
            if pool.get(x, 0) > 0:
                pool[x] -= 1

    seen_travel = list(state.travel_discard) + [x for v in state.dream.values() for x in v]
    seen_shop = [x for v in state.shops.values() for x in v] + state.shop_bottom + state.shop_discard + \
        [x for x in state.removed if x in shop]
    for p in state.players:
        seen_travel += p.played
        seen_shop += [e for e in p.equipment if e in shop]
    if seat is not None:
        own = state.secret["hands"][seat]
        seen_travel += [x for x in own if x in travel]
        seen_shop += [x for x in own if x in treasures()]
    less(travel, seen_travel)
    less(shop, seen_shop)
    return ([x for x in sorted(travel) for _ in range(travel[x])], [x for x in sorted(shop) for _ in range(shop[x])])


def determinise(state: State, seat: int | None, seed: str) -> State:
    """A copy whose other hands, travel deck and shop item deck are a sample, drawn with ``seed``,
    of the cards ``seat`` has not seen (hand sizes and deck sizes kept)."""
    rng = random.Random(f"{seed}:determinise")
    out = copy_state(state)
    travel, shop = _unseen(state, seat)
    rng.shuffle(travel)
    rng.shuffle(shop)
    treasure_pool = [x for x in shop if x in treasures()]
    # the travel deck's size is public: it takes its share first, the other hands the rest
    deck_cards, travel = travel[:state.travel_size], travel[state.travel_size:]
    hands = []
    for p in state.players:
        if p.seat == seat:
            hands.append(list(state.secret["hands"][seat]))
            continue
        h = []
        for _ in range(p.hand_size):
            if travel:
                h.append(travel.pop())
            elif treasure_pool:
                t = treasure_pool.pop()
                shop.remove(t)
                h.append(t)
        hands.append(sorted(h))
    deck: dict[str, int] = {}
    for x in deck_cards:
        deck[x] = deck.get(x, 0) + 1
    shop_deck: dict[str, int] = {}
    for x in shop[:max(0, state.shop_size - len(state.shop_bottom))]:
        shop_deck[x] = shop_deck.get(x, 0) + 1
    out.secret = {"hands": hands, "travel_deck": deck, "shop_deck": shop_deck}
    out.travel_size = sum(deck.values())
    out.shop_size = sum(shop_deck.values()) + len(state.shop_bottom)
    return out


def state_from_view(view: dict[str, Any], seed: str) -> State:
    """A :class:`State` rebuilt from a player view, the hidden parts sampled as by :func:`determinise`."""
    names = {f.name for f in fields(State)}
    data = {k: v for k, v in view.items() if k in names and k != "secret"}
    pnames = {f.name for f in fields(Player)}
    data["players"] = [Player(**{k: v for k, v in p.items() if k in pnames}) for p in view["players"]]
    state = State(**data)
    seat = view.get("seat")
    state.secret = {"hands": [list(view["hand"]) if i == seat and view.get("hand") is not None else []
                              for i in range(len(state.players))], "travel_deck": {}, "shop_deck": {}}
    return determinise(state, seat, seed)


__all__ = ["determinise", "player_view", "state_from_view", "timing_track"]
