"""Legal moves of A Game of Gnomes: the candidates of each decision and the check of a move.

``candidates`` lists every move worth checking for the seat whose decision it is (a turn,
a sleep, a discard); ``check`` routes a move to the check of its action
(:mod:`.actions`, :mod:`.rounds`), after making sure it belongs to the decision now.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Iterator

from services.rules.core import IllegalMove, NotYourTurn

from . import actions, geo, rounds
from .content import content
from .moves import TURN_MOVES
from .state import KING, State, basket_room, equipment, gem_value, hand, held, quests, travel_cards, treasures

STAGE_OF = {**{t: "turns" for t in TURN_MOVES}, "sleep": "sleep", "discard": "hand"}
"""The stage in which each move type is a decision."""
STAGE_WORDS = {"turns": "during a turn (rulebook C)", "sleep": "while sleeping (rulebook D)",
               "hand": "when cutting a hand to its limit (rulebook E)"}


def to_move(state: State) -> list[int]:
    """``[seat]`` whose decision it is, or ``[]``."""
    seat = rounds.current(state)
    return [] if seat is None else [seat]


def check(state: State, seat: int, move: dict[str, Any]) -> None:
    """Raise NotYourTurn or IllegalMove unless ``move`` is legal for ``seat`` now."""
    if seat not in to_move(state):
        raise NotYourTurn(f"seat {seat} may not move now; waiting for seat(s) {to_move(state)}")
    t = move["type"]
    stage = STAGE_OF.get(t)
    if stage is None:
        raise IllegalMove(f"unknown move type {t!r}")
    if stage != state.stage:
        waits = {"turns": "a turn's moves", "sleep": "a sleep move", "hand": "a discard move"}[state.stage]
        raise IllegalMove(f"the {t} move is made {STAGE_WORDS[stage]}; now the game waits for {waits}")
    if t == "end_turn":
        return
    if t == "sleep":
        rounds.check_sleep(state, seat, move)
    elif t == "discard":
        rounds.check_discard(state, seat, move)
    else:
        actions.CHECKS[t](state, seat, move)


def candidates(state: State, seat: int) -> Iterator[dict[str, Any]]:
    """Every move worth checking for ``seat`` now, in a stable order."""
    if seat not in to_move(state):
        return
    if state.stage == "sleep":
        for piles in rounds.sleep_choices(state, seat):
            yield {"type": "sleep", "piles": piles}
        return
    if state.stage == "hand":
        for cards in rounds.multiset_combinations(hand(state, seat), rounds.excess(state, seat)):
            yield {"type": "discard", "cards": cards}
        return
    yield from _turn_candidates(state, seat)


def _turn_candidates(state: State, seat: int) -> Iterator[dict[str, Any]]:
    p = state.players[seat]
    h = hand(state, seat)
    travel = sorted({c for c in h if c in travel_cards()})
    yield {"type": "end_turn"}
    for card in travel:
        icons = actions.card_icons(state, seat, card)
        for n in geo.neighbours(p.place, icons):
            yield {"type": "travel", "card": card, "path": [n]}
            if travel_cards()[card].kind == "double":
                for n2 in geo.neighbours(n, icons):
                    yield {"type": "travel", "card": card, "path": [n, n2]}
    cards_in_hand = [c for c in h if c in travel_cards()]
    combos = [c for k in (2, 3) for c in rounds.multiset_combinations(cards_in_hand, k)
              if actions.icons_of(c) >= 3 and all(actions.icons_of(c) - travel_cards()[x].icons < 3 for x in c)]
    if combos:
        for n in geo.neighbours(p.place, actions.ANY_ROUTE):
            for c in combos:
                yield {"type": "three_for_free", "cards": c, "to": n}
    for item in sorted(set(p.equipment)):
        if item not in actions.ITEM_MOVES:
            continue
        e = equipment()[item]
        if item in actions.KEYS:
            a, b = actions.tunnel_sites(state)
            if p.place in (a, b):
                yield {"type": "equipment", "item": item, "to": b if p.place == a else a}
        elif e.move == "water":
            for n, _ in geo.water_routes().get(p.place, ()):
                yield {"type": "equipment", "item": item, "to": n}
        else:
            for n in geo.neighbours(p.place, frozenset({e.move})):
                yield {"type": "equipment", "item": item, "to": n}
    if state.frozen:
        for n, _ in geo.water_routes().get(p.place, ()):
            yield {"type": "ice", "to": n}
        for n in geo.neighbours(p.place, frozenset({"black"})):
            yield {"type": "winter_path", "to": n}
    for m in sorted(set(held(p, "map"))):
        route = equipment()[m].route or []
        if p.place in route:
            for to in route:
                if to != p.place and not actions.climbed(p.route, p.place, to):
                    yield {"type": "climb", "map": m, "to": to}
    yield {"type": "pond_pipes"}
    for m in sorted(set(state.mushrooms.get(p.place, []))):
        yield {"type": "pick", "mushroom": m}
    for m in sorted(set(p.basket)):
        for gem in ("brown", "green", "white"):
            yield {"type": "sell", "mushroom": m, "gem": gem}
    tile = state.layout.get(p.place)
    if tile and geo.tile_kinds()[tile] == "shop":
        nuggets = h.count("nugget")
        maps = held(p, "map")
        for card in sorted(set(state.shops[tile])):
            third = card in equipment() and equipment()[card].route and len(maps) >= content().cards.max_maps
            for n in range(min(nuggets, actions.price(card)) + 1):
                for rm in (sorted(set(maps)) if third else [None]):
                    yield {"type": "buy", "card": card, "nuggets": n, **({"return_map": rm} if rm else {})}
        yield {"type": "restock"}
    yield {"type": "scout"}
    if p.place == content().board.tower and p.quest is None:
        yield from _quest_candidates(state, p)


def legal_moves(state: State, seat: int) -> list[dict[str, Any]]:
    """The candidates that pass :func:`check`, in a stable order, each once: generated legal,
    each action's conditions read once for all its moves rather than checked move by move
    (``tests/rules/gnomes/test_legal_moves.py`` holds it to the candidates filtered by
    :func:`check`)."""
    if seat not in to_move(state):
        return []
    if state.stage == "sleep":  # every choice fits the sleep weeks and takes nonempty piles once (D)
        return [{"type": "sleep", "piles": piles} for piles in rounds.sleep_choices(state, seat)]
    if state.stage == "hand":  # every choice discards exactly the excess from the hand (E)
        return [{"type": "discard", "cards": cards}
                for cards in rounds.multiset_combinations(hand(state, seat), rounds.excess(state, seat))]
    return _turn_moves(state, seat) if state.stage == "turns" else []


def _turn_moves(state: State, seat: int) -> list[dict[str, Any]]:
    """The legal moves of a turn, in the order of :func:`_turn_candidates` (C.1-C.7)."""
    p = state.players[seat]
    place = p.place
    h = hand(state, seat)
    tc = travel_cards()
    room = actions.TRACK_END - p.timer  # an action fits if its weeks are at most this (C.1 timer, C end)
    out: list[dict[str, Any]] = [{"type": "end_turn"}]
    for card in sorted({c for c in h if c in tc}):
        t = tc[card]
        if t.weeks > room:
            continue
        icons = actions.card_icons(state, seat, card)
        for n in _neighbours(place, icons):
            out.append({"type": "travel", "card": card, "path": [n]})
            if t.kind == "double":
                for n2 in _neighbours(n, icons):
                    out.append({"type": "travel", "card": card, "path": [n, n2]})
    combos = _free_combos(tuple(c for c in h if c in tc))
    if combos:
        fitting = [c for c, weeks in combos if weeks <= room]
        for n in _neighbours(place, actions.ANY_ROUTE):
            for c in fitting:
                out.append({"type": "three_for_free", "cards": list(c), "to": n})
    for item in sorted(set(p.equipment)):
        if item not in actions.ITEM_MOVES:
            continue
        e = equipment()[item]
        if item in actions.KEYS:
            if state.layout.get(place) in content().tiles.tunnel and 0 <= room:  # at one end of the tunnel
                a, b = actions.tunnel_sites(state)
                out.append({"type": "equipment", "item": item, "to": b if place == a else a})
        elif (e.weeks or 0) <= room:
            ends = _water_neighbours(place) if e.move == "water" else _neighbours(place, frozenset({e.move}))
            out.extend({"type": "equipment", "item": item, "to": n} for n in ends)
    if state.frozen:
        if actions.WINTER_WEEKS["ice"] <= room:
            out.extend({"type": "ice", "to": n} for n in _water_neighbours(place))
        if actions.WINTER_WEEKS["winter_path"] <= room:
            out.extend({"type": "winter_path", "to": n} for n in _neighbours(place, frozenset({"black"})))
    for m in sorted(set(held(p, "map"))):
        route = equipment()[m].route or []
        if place in route:
            seen = set()
            for to in route:
                if to != place and to not in seen and not actions.climbed(p.route, place, to):
                    seen.add(to)
                    out.append({"type": "climb", "map": m, "to": to})
    if ("pond_pipes" in p.equipment and state.calendar >= content().calendar.sun_from
            and not state.frog_used):
        out.append({"type": "pond_pipes"})
    here = state.mushrooms.get(place, [])
    if here and 1 <= room and basket_room(p) >= 1:
        for m in sorted(set(here)):
            if m != KING or p.kings < 1:
                out.append({"type": "pick", "mushroom": m})
    if p.basket:
        out.extend(_sales(state, seat, p))
    tile = state.layout.get(place)
    if tile and geo.tile_kinds()[tile] == "shop":
        nuggets = h.count("nugget")
        maps = held(p, "map")
        worth = gem_value(p.gems)
        for card in sorted(set(state.shops[tile])):
            third = card in equipment() and equipment()[card].route and len(maps) >= content().cards.max_maps
            cost = actions.price(card)
            for n in range(min(nuggets, cost) + 1):
                if worth < cost - n:  # gems and nugget cards pay the cost (C.4)
                    continue
                for rm in (sorted(set(maps)) if third else [None]):
                    if _gains(p, card, rm or None, maps):
                        out.append({"type": "buy", "card": card, "nuggets": n, **({"return_map": rm} if rm else {})})
        if 2 <= room:
            out.append({"type": "restock"})
    if (state.travel_size or state.travel_discard) and 1 <= room:
        out.append({"type": "scout"})
    if place == content().board.tower and p.quest is None:
        out.extend(m for m in _quest_candidates(state, p) if _passes(actions.check_quest, state, seat, m))
    return out


def _sales(state: State, seat: int, p: Any) -> list[dict[str, Any]]:
    """The legal ``sell`` moves of ``p`` where it stands, in the order of the candidates (C.3;
    :func:`.actions.check_sell`, its conditions read once)."""
    kind = actions.tile_kind(state, p.place)
    if kind == "village":
        who = source = state.layout[p.place]
    elif kind == "tower":
        who, source = "tower", ("tower" if "tower" in state.gems else None)
    else:
        return []
    if source is None:
        gems = [content().tiles.sorcerer_pays]
    else:
        left = state.gems.get(source, {})
        if not any(left.values()):
            return []
        gems = [g for g in ("brown", "green", "white") if left.get(g, 0) >= 1]
    buys = None if who == "tower" else geo.village_buys()[who]
    out = []
    for m in sorted(set(p.basket)):
        if buys is not None and m != KING and m not in buys:
            continue
        for gem in ("brown", "green", "white"):
            if gem in gems:
                out.append({"type": "sell", "mushroom": m, "gem": gem})
    return out


def _gains(p: Any, card: str, return_map: str | None, maps: list[str]) -> bool:
    """Whether ``p`` may gain ``card`` handing back ``return_map``: :func:`.actions.check_item_gain`
    as a test (a basket big enough for the mushrooms carried, a map handed back for a third)."""
    e = equipment().get(card)
    if e is not None and e.mushrooms is not None and e.mushrooms < len(p.basket):
        return False
    third = e is not None and e.route is not None and len(maps) >= content().cards.max_maps
    return return_map in maps if third else return_map is None


def _quest_candidates(state: State, p: Any) -> Iterator[dict[str, Any]]:
    """The ``quest`` candidates at the tower (C.7), as :func:`_turn_candidates` lists them."""
    maps = held(p, "map")
    for q in state.quests:
        reward = quests()[q].reward
        if "item_from" not in reward:
            yield {"type": "quest", "quest": q}
            continue
        stock = sorted({c for c in state.shops[str(reward["item_from"])] if c not in treasures()})
        if not stock:
            yield {"type": "quest", "quest": q}
        for item in stock:
            third = equipment()[item].route and len(maps) >= content().cards.max_maps
            for rm in (sorted(set(maps)) if third else [None]):
                yield {"type": "quest", "quest": q, "item": item, **({"return_map": rm} if rm else {})}


def _passes(fn: Any, state: State, seat: int, move: dict[str, Any]) -> bool:
    try:
        fn(state, seat, move)
    except IllegalMove:
        return False
    return True


@lru_cache(maxsize=None)
def _neighbours(place: str, icons: frozenset[str]) -> tuple[str, ...]:
    """:func:`.geo.neighbours`, each place once (two routes may join the same places)."""
    return tuple(dict.fromkeys(geo.neighbours(place, icons)))


@lru_cache(maxsize=None)
def _water_neighbours(place: str) -> tuple[str, ...]:
    """Places one river section or lake crossing away, each once, in a stable order."""
    return tuple(dict.fromkeys(n for n, _ in geo.water_routes().get(place, ())))


@lru_cache(maxsize=4096)
def _free_combos(cards: tuple[str, ...]) -> tuple[tuple[tuple[str, ...], int], ...]:
    """``((cards, weeks), ...)``: the sets of 2 or 3 of ``cards`` (travel cards in hand) that
    make three for free with none spare (C.1, house rule), in the candidates' order, each
    with the sum of its sand timers."""
    tc = travel_cards()
    out = []
    for k in (2, 3):
        for c in rounds.multiset_combinations(list(cards), k):
            total = actions.icons_of(c)
            if total >= 3 and all(total - tc[x].icons < 3 for x in c):
                out.append((tuple(c), sum(tc[x].weeks for x in c)))
    return tuple(out)


def pending(state: State) -> str | None:
    """The decision the game waits for: ``turn``, ``sleep``, ``discard``, or None."""
    return {"turns": "turn", "sleep": "sleep", "hand": "discard"}.get(state.stage) if to_move(state) else None


__all__ = ["candidates", "check", "legal_moves", "pending", "to_move"]
