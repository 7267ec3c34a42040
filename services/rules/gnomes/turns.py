"""Legal moves of A Game of Gnomes: the candidates of each decision and the check of a move.

``candidates`` lists every move worth checking for the seat whose decision it is (a turn,
a sleep, a discard); ``check`` routes a move to the check of its action
(:mod:`.actions`, :mod:`.rounds`), after making sure it belongs to the decision now.
"""

from __future__ import annotations

from typing import Any, Iterator

from services.rules.core import IllegalMove, NotYourTurn

from . import actions, geo, rounds
from .content import content
from .moves import TURN_MOVES
from .state import State, equipment, hand, held, quests, travel_cards, treasures

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


def legal_moves(state: State, seat: int) -> list[dict[str, Any]]:
    """The candidates that pass :func:`check`, in a stable order, each once."""
    out = []
    seen = set()
    for move in candidates(state, seat):
        key = repr(sorted(move.items()))
        if key in seen:
            continue
        try:
            check(state, seat, move)
        except IllegalMove:
            continue
        seen.add(key)
        out.append(move)
    return out


def pending(state: State) -> str | None:
    """The decision the game waits for: ``turn``, ``sleep``, ``discard``, or None."""
    return {"turns": "turn", "sleep": "sleep", "hand": "discard"}.get(state.stage) if to_move(state) else None


__all__ = ["candidates", "check", "legal_moves", "pending", "to_move"]
