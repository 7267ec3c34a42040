"""Whose decision it is, and everything between turns: the end of a turn, sleep, the hand
limit and the change of round on the phase worker (rulebook C, C end, D, E, F, G, H).

A round: every seat takes one turn in the order of the timer stack (C); each turn ends
with ``end_turn``, which discards the cards played, settles the mountain's one gnome per
space by displacement (C.1 mountain) and refills the shops (C.4). Then the gnomes with
weeks in hand sleep, one decision each in order (D), and seats over their hand limit
discard (E, house rule for ambiguity 11: after sleep, not at the end of each turn).
The phase ``round_end`` (on the Celery worker) moves the calendar, rots and sprouts
mushrooms, brings winter and starts the next round or ends the game (D, F, G, H).
"""

from __future__ import annotations

from itertools import combinations
from typing import Any, Iterator

from services.rules.core import Event, IllegalMove, public

from . import geo
from .content import content
from .state import State, equipment, hand, hand_limit, quests, supply_left

ROUND_END = "round_end"
"""The phase between rounds (D-G), run by the phase worker."""


def current(state: State) -> int | None:
    """The seat whose decision it is, or None (a phase, or the end)."""
    if state.stage == "turns" and state.turn < len(state.order):
        return state.order[state.turn]
    if state.stage == "sleep" and state.sleep_next < len(state.sleepers):
        return state.sleepers[state.sleep_next]
    if state.stage == "hand":
        over = over_limit(state)
        return over[0] if over else None
    return None


def stack_order(state: State) -> list[int]:
    """Seats from the top of the timer stack down (all timers on one space: higher stamp on top, D)."""
    return sorted(range(len(state.players)), key=lambda i: -state.players[i].stamp)


def over_limit(state: State) -> list[int]:
    """Seats whose hand is over their rucksack's limit, top of the stack first (E)."""
    return [i for i in stack_order(state) if state.players[i].hand_size > hand_limit(state.players[i])]


# -- end of a turn -------------------------------------------------------------------------

def displacement(state: State, seat: int) -> list[dict[str, Any]]:
    """Gnomes pushed back along ``seat``'s route when it ends its turn on an occupied mountain
    space (C.1 mountain): the gnome there goes to the space the mover last came from, and
    so on back along the route until one lands on a free space or off the mountain. A
    route that runs out leaves the last gnome on its first space (house rule)."""
    p = state.players[seat]
    if not geo.on_mountain(p.place):
        return []
    where = {o.seat: o.place for o in state.players}
    pushed = [o.seat for o in state.players if o.seat != seat and o.place == p.place]
    if not pushed:
        return []
    out = []
    gnome = pushed[0]
    route = [x for x in p.route[:-1] if x != p.place]
    for target in reversed(route):
        out.append({"seat": gnome, "from": where[gnome], "to": target})
        where[gnome] = target
        if not geo.on_mountain(target):
            break
        nxt = [o for o, at in where.items() if at == target and o not in (seat, gnome)]
        if not nxt:
            break
        gnome = nxt[0]
    return out


def end_turn(state: State, seat: int) -> list[Event]:
    """``TurnEnded`` (cards played to the discard pile, displacement), and ``SleepBegan`` after
    the last turn of the round (D: the exhausted gnomes are the furthest timers; the
    others sleep nearest first, the upper of a stack first)."""
    p = state.players[seat]
    out = [public("TurnEnded", seat=seat, discarded=list(p.played), displaced=displacement(state, seat),
                  timer=p.timer)]
    if state.turn + 1 >= len(state.order):
        exhausted = max(o.timer for o in state.players)
        sleepers = sorted((o for o in state.players if o.timer < exhausted), key=lambda o: (-o.timer, -o.stamp))
        out.append(public("SleepBegan", exhausted=exhausted, sleepers=[o.seat for o in sleepers]))
    return out


# -- D sleep -------------------------------------------------------------------------------

def sleep_weeks(state: State, seat: int) -> int:
    """Weeks between ``seat``'s timer and the exhausted gnomes (D)."""
    return state.exhausted - state.players[seat].timer


def sleep_choices(state: State, seat: int) -> list[list[int]]:
    """Every set of dream piles ``seat`` may take: nonempty piles whose costs (1, 2, 3 weeks)
    add up to no more than its sleep weeks, the empty set included (D)."""
    piles = [int(k) for k, v in sorted(state.dream.items()) if v]
    weeks = sleep_weeks(state, seat)
    out = []
    for n in range(len(piles) + 1):
        for combo in combinations(piles, n):
            if sum(combo) <= weeks:
                out.append(list(combo))
    return out


def check_sleep(state: State, seat: int, move: dict[str, Any]) -> None:
    """Take dream piles worth at most the sleep weeks, each pile once (D)."""
    piles = sorted(move["piles"])
    if len(set(piles)) != len(piles):
        raise IllegalMove("each dream pile can be taken once")
    for k in piles:
        if not state.dream.get(str(k)):
            raise IllegalMove(f"there is no dream pile {k}, or it is empty (rulebook D)")
    if sum(piles) > sleep_weeks(state, seat):
        raise IllegalMove(f"piles {piles} cost {sum(piles)} sleep weeks and you have {sleep_weeks(state, seat)} "
                          f"(rulebook D)")


def do_sleep(state: State, seat: int, move: dict[str, Any]) -> list[Event]:
    """``Slept``: the piles' cards to the hand, the timer on top of the exhausted stack (D)."""
    piles = sorted(move["piles"])
    cards = [c for k in piles for c in state.dream[str(k)]]
    return [public("Slept", seat=seat, piles=piles, cards=cards, weeks=sleep_weeks(state, seat))]


# -- E hand limit --------------------------------------------------------------------------

def multiset_combinations(items: list[str], k: int) -> Iterator[list[str]]:
    """Each distinct sub-multiset of ``items`` with ``k`` elements, once, in sorted order."""
    counts: dict[str, int] = {}
    for x in items:
        counts[x] = counts.get(x, 0) + 1
    kinds = sorted(counts)

    def rec(i: int, left: int) -> Iterator[list[str]]:
        if left == 0:
            yield []
            return
        if i == len(kinds):
            return
        for take in range(min(counts[kinds[i]], left), -1, -1):
            for rest in rec(i + 1, left - take):
                yield [kinds[i]] * take + rest

    yield from rec(0, k)


def excess(state: State, seat: int) -> int:
    """Cards ``seat`` must discard to meet its hand limit (E)."""
    p = state.players[seat]
    return max(0, p.hand_size - hand_limit(p))


def check_discard(state: State, seat: int, move: dict[str, Any]) -> None:
    """Discard exactly the cards over the rucksack's limit, chosen from the hand (E)."""
    need = excess(state, seat)
    cards = move["cards"]
    if len(cards) != need:
        raise IllegalMove(f"your rucksack holds {hand_limit(state.players[seat])} cards: discard exactly {need}, "
                          f"not {len(cards)} (rulebook E)")
    h = list(hand(state, seat))
    for c in cards:
        if c not in h:
            raise IllegalMove(f"card {c!r} is not in your hand")
        h.remove(c)


def do_discard(state: State, seat: int, move: dict[str, Any]) -> list[Event]:
    """``HandDiscarded``: travel cards to the travel discard pile, treasures to the shop item
    discard pile (E)."""
    return [public("HandDiscarded", seat=seat, cards=sorted(move["cards"]))]


# -- the change of round (F, G, H) ---------------------------------------------------------

def calendar_target(state: State) -> int:
    """The week the calendar reaches at the end of this round: moved by the exhausted gnomes'
    weeks, at least one (house rule), stopping on the last week (house rule, H)."""
    cal = content().calendar
    return min(state.calendar + max(state.exhausted, 1), max(cal.end, state.calendar + 1))


def end_round(state: State) -> list[Event]:
    """D, F, G: the calendar moves by the exhausted gnomes' weeks (at least one, house rule);
    each season reached rots and sprouts its colours (from the board and from baskets);
    winter freezes the water, raises the winter tower and removes no-winter items from
    shops and displays and no-winter quests from the display; the frog goes back."""
    cal = content().calendar
    out: list[Event] = []
    start = state.calendar
    to = calendar_target(state)
    out.append(public("CalendarMoved", **{"from": start, "to": to, "weeks": to - start, "season": cal.season_at(to)}))
    marks = sorted({int(w) for w in (*cal.rot, *cal.sprout)} | {cal.freeze_at})
    board = {k: list(v) for k, v in state.mushrooms.items()}
    baskets = [list(p.basket) for p in state.players]
    for week in marks:
        if not start < week <= to:
            continue
        rot = cal.rot.get(str(week), [])
        if rot:
            out.append(public("MushroomsRotted", week=week, colours=list(rot),
                              board=sorted(k for k, v in board.items() if set(v) & set(rot)),
                              baskets={str(i): sum(b.count(c) for c in rot) for i, b in enumerate(baskets)}))
            board = {k: [m for m in v if m not in rot] for k, v in board.items()}
            baskets = [[m for m in b if m not in rot] for b in baskets]
        for colour in cal.sprout.get(str(week), []):
            places = sprout_places(state, colour, board, baskets)
            for pl in places:
                board.setdefault(pl, []).append(colour)
            out.append(public("MushroomsSprouted", week=week, colour=colour, places=places))
        if week == cal.freeze_at:
            out.append(winter(state))
    if state.frog is not None:
        out.append(public("FrogReturned", seat=state.frog))
    return out


def sprout_places(state: State, colour: str, board: dict[str, list[str]], baskets: list[list[str]]) -> list[str]:
    """Sites whose tile grows ``colour`` and has none now, in site order while wooden
    mushrooms last (F; ten of each colour, A)."""
    left = supply_left(colour, board, baskets)
    out = []
    for site in content().board.sites:
        tile = state.layout.get(site)
        if tile and colour in geo.grows().get(tile, ()) and colour not in board.get(site, []) and left > 0:
            out.append(site)
            left -= 1
    return out


def winter(state: State) -> Event:
    """``WinterCame`` (G): what perishes in shops and displays, and the winter quests on display."""
    eq = equipment()
    return public("WinterCame",
                  equipment={str(p.seat): [e for e in p.equipment if eq[e].no_winter] for p in state.players
                             if any(eq[e].no_winter for e in p.equipment)},
                  shops={s: [e for e in cards if e in eq and eq[e].no_winter] for s, cards in state.shops.items()
                         if any(e in eq and eq[e].no_winter for e in cards)},
                  quests=[q for q in state.quests if quests()[q].no_winter])


def new_round(state: State) -> list[Event]:
    """``RoundStarted`` with the order of the stack, top first (D), or ``GameEnded`` once the
    calendar has reached week 52 (H)."""
    if state.calendar >= content().calendar.end:
        return [public("GameEnded", reason="calendar", week=state.calendar)]
    return [public("RoundStarted", round=state.round + 1, order=stack_order(state))]
