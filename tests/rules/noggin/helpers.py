"""Helpers for the Noggin rules tests: build states directly and run moves without a table.

``run`` resolves a move exactly as the coordinator does (check, plan, handle each op with
the deck's chance, evolve), so tests can start from a hand-built state.
"""

from __future__ import annotations

import random
from typing import Any

from services.coordinator.table import embedded_table
from services.rules.core import Chance, Event, GameConfig, get_rules, state_hash
from services.rules.noggin.state import State

RULES = get_rules("noggin")
BASIC = ("stone", "wood", "fish", "harvest")


def new_game(players: int = 3, seed: str = "7"):
    """A table and the id of a fresh game."""
    t = embedded_table()
    return t, t.create(GameConfig(game="noggin", players=players), seed=seed)


def chance_of(seed: str):
    return lambda label: Chance(seed, label)


def resolve_ops(state: State, ops, seed: str) -> list[Event]:
    """Run ``ops`` and every follow-up on ``state`` (deck chance from ``seed``); the events."""
    out = []
    while ops:
        for op in ops:
            events = RULES.handle(state, op, chance_of(seed) if op.domain == "deck" else None)
            for e in events:
                RULES.evolve(state, e)
            out.extend(events)
        ops = RULES.follow_up(state)
    return out


def fresh(players: int = 3, seed: str = "7") -> State:
    """The state right after set-up, built without a table."""
    state = RULES.new_state()
    config = GameConfig(game="noggin", players=players)
    RULES.evolve(state, RULES.created_event(config))
    resolve_ops(state, RULES.setup_ops(config), seed)
    return state


def seated(players: int = 3, seed: str = "7") -> State:
    """A fresh state with the markers in seat order (seat 0 first, dummies last) and seat 0 to act."""
    state = fresh(players, seed)
    colours = ["red", "blue", "yellow", "green"]
    from services.rules.noggin.state import Marker

    state.markers = [Marker(colour=c, seat=i if i < players else None) for i, c in enumerate(colours)]
    state.active = 0
    return state


def normal_turn(state: State, seat: int, positions: list[int]) -> State:
    """Put the markers on ``positions`` (every first turn done) and give ``seat`` the turn."""
    for m, p in zip(state.markers, positions):
        m.pos = p
        m.turns = 1
    state.runestone = min(positions)
    state.season = state.runestone // 10 + 1
    state.active = next(i for i, m in enumerate(state.markers) if m.seat == seat)
    return state


def run(state: State, seat: int, move: dict[str, Any], seed: str = "7") -> list[Event]:
    """Check and resolve ``move`` on ``state`` in place; returns the events."""
    move = RULES.parse_move(move)
    RULES.check(state, seat, move)
    return resolve_ops(state, RULES.plan(state, seat, move), seed)


def run_phase(state: State, seed: str = "7") -> list[Event]:
    phase = RULES.pending_phase(state)
    assert phase
    return resolve_ops(state, RULES.phase_ops(state, phase), seed)


def types(events: list[Event]) -> list[str]:
    return [e.type for e in events]


def totals(state: State) -> dict[str, int]:
    """Every basic cube and Gold wherever it is (supply places of set-up C)."""
    out = {r: state.market[r] for r in BASIC}
    out["gold"] = state.gold_supply + state.market.get("gold", 0)
    out["fish"] += state.fjord
    out["wood"] += sum(state.forest)
    for p in state.players:
        out["wood"] += p.orchard
        out["harvest"] += sum(p.fields)
        for r in (*BASIC, "gold"):
            out[r] += p.stock[r]
    for cube in state.mine.values():
        if cube:
            out[cube] += 1
    if state.action is not None:
        for r, k in state.action.cart.items():
            out[r] += k
    on_cards = [m for saga in state.sagas if saga is not None and saga.current is not None for m in saga.current.met]
    on_cards += [m for inv in state.inventions if inv is not None for m in inv.met]
    for m in on_cards:
        if m is not None and m["paid"] in out:
            out[m["paid"]] += 1
    for p in state.players:
        for held in p.locked.values():
            for r, k in held.items():
                out[r] += k
    return out


def random_game(players: int, seed: str, bot_seed: int = 0, cap: int = 5000):
    """Play a whole game through a table with a uniform random bot; returns (table, id, moves)."""
    t, g = new_game(players, seed)
    rng = random.Random(bot_seed)
    moves = 0
    while True:
        s = t.summary(g)
        if s["status"] == "over":
            return t, g, moves
        rules, state, version = t.state(g)
        seat = s["to_move"][0]
        legal = rules.legal_moves(state, seat)
        assert legal, f"seat {seat} has no legal move"
        t.play(g, seat, rng.choice(legal), version, move_id=f"m{moves}")
        moves += 1
        assert moves < cap, "failure guard: the game did not end"


__all__ = ["BASIC", "RULES", "activate_nogbad", "at_season_end", "complete_stranger", "saga_one_card_left",
           "stranger_last_card", "fresh", "give", "legal", "new_game", "normal_turn", "own_building",
           "own_card", "own_invention", "points", "put_invention", "put_reserve", "put_saga", "random_game", "run",
           "run_phase", "scenario", "seated", "state_hash", "totals", "types"]


# -- scenario builders for the whole game (Sagas, cards, characters, Nogbad) ---------------

def scenario(players: int = 3, seed: str = "7", options: dict | None = None, season: int = 1,
             positions: list[int] | None = None, seat: int = 0) -> State:
    """A state after set-up (with ``options``), markers in seat order, every first turn done,
    the Runestone under the last marker, ``seat`` to act in ``season``. Positions default to
    ``seat``'s marker on the season's first space and the others 6, 7, 8 Steps ahead."""
    state = RULES.new_state()
    config = GameConfig(game="noggin", players=players, options=options or {})
    RULES.evolve(state, RULES.created_event(config))
    resolve_ops(state, RULES.setup_ops(config), seed)
    from services.rules.noggin.state import Marker

    colours = ["red", "blue", "yellow", "green"]
    state.markers = [Marker(colour=c, seat=i if i < players else None) for i, c in enumerate(colours)]
    base = 10 * (season - 1)
    if positions is None:
        positions = [base + 6 + k for k in range(4)]
        positions[seat] = base
        positions = [p if i == seat else base + 5 + i for i, p in enumerate(positions)]
    return normal_turn(state, seat, positions)


def give(state: State, seat: int, **stock: int) -> State:
    """Set cubes in ``seat``'s stock (stone, wood, fish, harvest, gold, coin)."""
    state.players[seat].stock.update(stock)
    return state


def own_card(state: State, seat: int, card: str, up: bool = True) -> State:
    """Give ``seat`` Counting House card ``card`` (face up by default) with its Nog."""
    state.players[seat].counting_house.append({"card": card, "up": up})
    return state


def own_invention(state: State, seat: int, card: str) -> State:
    """Give ``seat`` Invention ``card``."""
    state.players[seat].inventions.append(card)
    return state


def own_building(state: State, seat: int, building: str, space: str = "meadow") -> State:
    """Give ``seat`` building ``building`` on ``space``."""
    state.players[seat].buildings[building] = space
    return state


def put_reserve(state: State, slot: int, needs: list[str], deck: str = "B", bonus: bool = False,
                card: str | None = None) -> State:
    """Put a Reserve card asking for ``needs`` on Saga ``slot`` (resource side up); ``card``
    is its hidden identity (default: a content card of ``deck`` with that front, else any)."""
    from services.rules.noggin import content
    from services.rules.noggin.state import ReserveCard

    saga = state.sagas[slot]
    assert saga is not None
    if card is None:
        same = [c.id for c in content.load().reserve.decks[deck] if c.needs == needs and c.bonus == bonus]
        card = same[0] if same else content.reserve_ids(deck)[0]
    n = len(state.players)
    saga.current = ReserveCard(deck=deck, needs=list(needs), met=[None] * len(needs), nogs=[0] * n, bonus=bonus)
    cards = list(state.secret["saga_cards"])
    cards[slot] = card
    state.secret["saga_cards"] = cards
    return state


def put_saga(state: State, slot: int, card: str, done: list[dict] | None = None) -> State:
    """Replace the Saga in ``slot`` by ``card`` with completed Reserve cards ``done``
    (``{"deck", "card", "nogbad", "nogs"}``, first completed first)."""
    from services.rules.noggin import content
    from services.rules.noggin.state import Saga

    state.sagas[slot] = Saga(card=card, needed=content.saga_index()[card].reserve, done=list(done or []))
    return state


def put_invention(state: State, slot: int, card: str) -> State:
    """Replace the Invention in ``slot`` by ``card`` with no condition met."""
    from services.rules.noggin import content
    from services.rules.noggin.state import Invention

    info = content.invention_index()[card]
    state.inventions[slot] = Invention(card=card, needs=list(info.needs), met=[None] * len(info.needs))
    return state


def activate_nogbad(state: State, quarter: int) -> State:
    """Nogbad active on ``quarter`` of the Wheel of Infamy (0 fish, 1 home, 2 bears, 3 news)."""
    state.nogbad = "active"
    state.wheel = quarter
    return state


def legal(state: State, seat: int) -> list[dict[str, Any]]:
    """The legal moves of ``seat``."""
    return RULES.legal_moves(state, seat)


def points(events: list[Event], seat: int, why: str | None = None) -> int:
    """Points ``seat`` scored in ``events`` (only those ``for`` ``why`` if given)."""
    return sum(e.data["points"] for e in events if e.type == "PointsScored" and e.data["seat"] == seat
               and (why is None or e.data["for"] == why))


def at_season_end(state: State, season: int) -> State:
    """Markers just past the Nog Moon of ``season`` (seat 0's marker first): the Change of
    Season is pending and nobody is to move (4.3)."""
    base = 10 * season
    normal_turn(state, 0, [base, base + 2, base + 3, base + 4])
    state.season = season
    state.active = None
    return state


def saga_one_card_left(state: State, slot: int, saga: str, done_nogs: list[list[int]]) -> State:
    """Saga ``saga`` in ``slot`` with every Reserve card but the last completed (Nogs per seat on
    each, first completed first, backs without Nogbad) and a last card asking for 1 Stone."""
    from services.rules.noggin import content

    decks = content.load().reserve.decks
    a = next(c.id for c in decks["A"] if not c.nogbad)
    bs = [c.id for c in decks["B"] if not c.nogbad]
    c = next(c.id for c in decks["C"] if not c.nogbad)
    done = [{"deck": "A", "card": a, "nogbad": False, "nogs": done_nogs[0]}]
    done += [{"deck": "B", "card": bs[k], "nogbad": False, "nogs": n} for k, n in enumerate(done_nogs[1:])]
    assert len(done) == content.saga_index()[saga].reserve - 1
    put_saga(state, slot, saga, done)
    put_reserve(state, slot, ["stone"], deck="C", card=c)
    return state


def stranger_last_card(state: State, nogs_below: int) -> State:
    """Saga 0 is The Stranger (2 Reserve cards): the first done with ``nogs_below`` Nogs of seat
    0, the second (Stone and Food, C14, no Nogbad on its back) on the Harbourside; seat 0
    holds 1 Stone and 1 Fish to complete it (see :func:`complete_stranger`)."""
    put_saga(state, 0, "the_stranger", done=[{"deck": "A", "card": "A09", "nogbad": False,
                                              "nogs": [nogs_below] + [0] * (len(state.players) - 1)}])
    state.players[0].mountains -= nogs_below
    put_reserve(state, 0, ["stone", "food"], deck="C", card="C14")
    give(state, 0, stone=1, fish=1)
    return state


def complete_stranger(state: State) -> list[Event]:
    """Seat 0 meets both conditions of :func:`stranger_last_card` with Nogs; the events of the
    second (which finishes the Saga)."""
    run(state, 0, {"type": "market_day", "op": "saga", "saga": 0, "condition": 0, "nog": True, "pay": ["stone"]})
    return run(state, 0, {"type": "market_day", "op": "saga", "saga": 0, "condition": 1, "nog": True, "pay": ["fish"]})
