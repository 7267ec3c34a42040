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
from functools import lru_cache
from typing import Any

from services.rules.core.match import MatchRecord

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


@lru_cache(maxsize=1)
def _route_rows() -> tuple[tuple[tuple[str, str, tuple[str, ...]], ...], tuple[tuple[str, str, str], ...]]:
    """``(land, water)`` of :func:`routes` as sorted tuples, worked out once (the board's routes
    are content: the same in every game)."""
    land = sorted({(min(a, b), max(a, b), tuple(sorted(icons)))
                   for a, nbrs in geo.land_routes().items() for b, icons in nbrs})
    water = sorted({(min(a, b), max(a, b), kind) for a, nbrs in geo.water_routes().items() for b, kind in nbrs})
    return tuple(land), tuple(water)


def routes() -> dict[str, Any]:
    """The board's routes for a client drawing or reading the map (C.1, G): ``land``, each
    ``[a, b, icons]`` (the travel icons that cross it; ``black`` leads to the tower), and
    ``water``, each ``[a, b, "river" | "lake"]``. New lists at each call (a view's caller may
    change its own)."""
    land, water = _route_rows()
    return {"land": [[a, b, list(icons)] for a, b, icons in land], "water": [[a, b, kind] for a, b, kind in water]}


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
    """``(travel, shop)``: the travel cards and the shop item cards (equipment and treasure)
    ``seat`` has not seen where they are now, one entry per physical card, sorted: every
    copy (content) less the cards in view (discard piles, dream piles, cards played this
    turn, shop stock, cards a restock put under the shop deck, items in front of anyone,
    cards out of the game) and the seat's own hand. These are the cards the hidden places
    hold: the travel deck, the shop item deck and the other hands."""
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
    """A copy whose hidden parts are dealt again, with ``seed``, from exactly the cards ``seat``
    has not seen (:func:`_unseen`), uniformly among the worlds its view allows.

    What is hidden (rulebook C.4, C.6, E; ``State.secret``): the other seats' hands (travel
    and treasure cards), the travel draw deck and the shuffled part of the shop item draw
    deck (the cards a restock put under it, ``shop_bottom``, are known). Every size is
    public and kept. An equipment card the seat has not seen can only be in the shop item
    deck (equipment lies face up, I), so the deck takes every one of them and is filled up
    with unseen treasures; the travel deck takes its size of unseen travel cards; the
    cards left over (travel and treasure) are shuffled together and dealt to the other
    hands. Each step is a uniform draw, so every world consistent with the view is equally
    likely. ``seat`` ``None`` (a spectator) redeals every hand. Never raises for a
    consistent state; an inconsistent one (more hidden places than unseen cards) gets
    short hands rather than invented cards.
    """
    rng = random.Random(f"{seed}:determinise")
    out = copy_state(state)
    travel, shop = _unseen(state, seat)
    treasure = [x for x in shop if x in treasures()]
    items = [x for x in shop if x not in treasures()]
    rng.shuffle(travel)
    rng.shuffle(treasure)
    deck_cards, loose = travel[:state.travel_size], travel[state.travel_size:]
    shuffled_part = max(0, state.shop_size - len(state.shop_bottom))
    in_deck = max(0, shuffled_part - len(items))
    shop_cards = items[:shuffled_part] + treasure[:in_deck]
    loose += treasure[in_deck:]
    rng.shuffle(loose)
    hands = []
    for p in state.players:
        if p.seat == seat:
            hands.append(list(state.secret["hands"][seat]))
            continue
        hands.append(sorted(loose[:p.hand_size]))
        loose = loose[p.hand_size:]
    deck: dict[str, int] = {}
    for x in deck_cards:
        deck[x] = deck.get(x, 0) + 1
    shop_deck: dict[str, int] = {}
    for x in shop_cards:
        shop_deck[x] = shop_deck.get(x, 0) + 1
    out.secret = {"hands": hands, "travel_deck": deck, "shop_deck": shop_deck}
    for p, h in zip(out.players, hands):
        p.hand_size = len(h)
    out.travel_size = sum(deck.values())
    out.shop_size = sum(shop_deck.values()) + len(state.shop_bottom)
    return out


def match_record(data: Any) -> MatchRecord | None:
    """The match record (strikes, forfeits; :mod:`services.rules.core.match`) of a view's
    ``match`` entry: ``None``, a :class:`MatchRecord`, or its plain form ``{"strikes":
    {seat: count}, "forfeited": [seat]}`` whose seat keys may be strings (JSON).

    Raises:
        ValueError: a seat that is not a whole number.
    """
    if data is None or isinstance(data, MatchRecord):
        return None if data is None else data.copy()
    return MatchRecord({int(k): int(v) for k, v in (data.get("strikes") or {}).items()},
                       [int(s) for s in data.get("forfeited") or []])


def state_from_view(view: dict[str, Any], seed: str) -> State:
    """A :class:`State` rebuilt from a player view (``rules.view(state, seat)``, as a dict or
    as its JSON round trip), the hidden parts sampled as by :func:`determinise`; the match
    record after a strike or forfeit is rebuilt too (:func:`match_record`).

    Raises:
        KeyError: ``view`` lacks ``players``.
    """
    names = {f.name for f in fields(State)}
    data = {k: v for k, v in view.items() if k in names and k != "secret"}
    pnames = {f.name for f in fields(Player)}
    data["players"] = [Player(**{k: v for k, v in p.items() if k in pnames}) for p in view["players"]]
    data["match"] = match_record(view.get("match"))
    state = State(**data)
    seat = view.get("seat")
    state.secret = {"hands": [list(view["hand"]) if i == seat and view.get("hand") is not None else []
                              for i in range(len(state.players))], "travel_deck": {}, "shop_deck": {}}
    return determinise(state, seat, seed)


__all__ = ["determinise", "match_record", "player_view", "state_from_view", "timing_track"]
