"""``legal_moves`` generates exactly the moves that checking every candidate accepts, in the
same order and with the same repeats (the reference is ``Rules.legal_moves`` of the rules core:
every candidate of ``candidates``, then ``check`` on each), at every decision of whole random
games at 2, 3 and 4 seats with the variants switched on at random; and the Miner's reach
(kept while the Mine stays the same) is a plain walk through the empty squares every time."""

import random

import pytest

from services.rules.core import Rules
from services.rules.noggin import board
from services.rules.noggin.board import MINE_WIDTH, key
from tests.support.seeded import random_game

from .helpers import RULES


def _reference(state, seat):
    return Rules.legal_moves(RULES, state, seat)


def _reference_reach(state):
    """Every empty square joined to the Miner's by empty squares (the surface row counts as
    empty), one square at a time."""
    def walkable(r, c):
        return (r == -1 and 0 <= c < MINE_WIDTH) or state.mine.get(key(r, c)) == ""

    start = tuple(state.miner)
    seen, todo = {start}, [start]
    while todo:
        r, c = todo.pop()
        for nb in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
            if nb not in seen and walkable(*nb):
                seen.add(nb)
                todo.append(nb)
    seen.discard(start)
    return [list(sq) for sq in sorted(seen)]


GAMES = [(2, "f"), (2, "k"), (3, "b"), (3, "f"), (4, "c"), (4, "g")]
"""Seats and seeds of the games compared: between them every kind of move comes up."""


def _kind(move):
    return move["type"] + (":" + move["op"] if "op" in move else "") + (":bonus" if move.get("bonus") else "")


@pytest.mark.parametrize("players,seed", GAMES)
def test_generated_legal_moves_equal_generate_and_check(players, seed):
    kinds = set()
    decisions = []

    def compare(state, seat, fast):
        assert fast == _reference(state, seat)
        assert board.reachable(state) == _reference_reach(state)
        for other in range(players):
            if other != seat:
                assert RULES.legal_moves(state, other) == []
        kinds.update(_kind(m) for m in fast)
        decisions.append(seat)

    random_game(RULES, players, seed, 0.5, on_decision=compare)
    assert len(decisions) > 100
    assert {"miner:dig", "miner:walk", "fisherman", "woodcutter:advance", "farmer:sow", "builder", "restock",
            "market_day:character", "market_day:saga", "market_day:trade", "end_turn", "finish"} <= kinds


def test_every_move_kind_is_compared():
    """Across the games above, every kind of move the generators list comes up at least once."""
    kinds = set()
    for players, seed in GAMES:
        random_game(RULES, players, seed, 0.5,
                    on_decision=lambda state, seat, fast: kinds.update(_kind(m) for m in fast))
    assert {"miner:dig", "miner:walk", "miner:discover", "fisherman", "woodcutter:advance", "woodcutter:orchard",
            "woodcutter:jump", "farmer:sow", "farmer:harvest", "farmer:apple", "builder", "restock",
            "market_day:character", "market_day:evict", "market_day:auction", "market_day:saga",
            "market_day:saga:bonus", "market_day:invention", "market_day:trade", "bid", "end_turn",
            "finish", "donate", "recall", "use", "accuse"} <= kinds


def test_reach_follows_a_mine_changed_in_place():
    """The kept region is dropped when the Mine changes, even in the same dict: a square dug
    open next to the region joins it, and closing it again takes it away."""
    state = None

    def grab(s, seat, fast):
        nonlocal state
        if state is None and any(m.get("op") == "dig" for m in fast) and s.miner[0] >= 0:
            state = RULES.copy(s)

    random_game(RULES, 3, "b", 0.5, on_decision=grab)
    assert state is not None
    before = board.reachable(state)
    assert before == _reference_reach(state)
    r, c = state.miner
    square = next(k for k in (key(r - 1, c), key(r, c - 1), key(r, c + 1), key(r + 1, c)) if state.mine.get(k))
    cube = state.mine[square]
    state.mine[square] = ""  # in place: the same dict object
    opened = board.reachable(state)
    assert opened == _reference_reach(state)
    assert [int(x) for x in square.split(",")] in opened and len(opened) > len(before)
    state.mine[square] = cube
    assert board.reachable(state) == before


def test_generated_legal_moves_equal_generate_and_check_for_any_stock():
    """The same at decisions of a random game with the deciding seat's cubes replaced by random
    stocks, many of them filling the Farm and the buildings' storage to the brim (where a trade
    fits or not, and every payment)."""
    rng = random.Random("stocks")
    compared = []

    def compare(state, seat, fast):
        if len(compared) >= 300 or rng.random() < 0.7:
            return
        s = RULES.copy(state)
        p = s.players[seat]
        for r in ("stone", "wood", "fish", "harvest"):
            p.stock[r] = rng.choice((0, 0, 1, 2, 3, 4))
        p.stock["gold"] = rng.choice((0, 0, 1, 2))
        p.stock["coin"] = rng.choice((0, 0, 1))
        s.coins = s.coins or rng.random() < 0.3
        if rng.random() < 0.3:
            s.market["coin"] = s.market.get("coin", 0) + 1
        assert RULES.legal_moves(s, seat) == _reference(s, seat)
        compared.append(sum(m.get("op") == "trade" for m in RULES.legal_moves(s, seat)))

    for players, seed in GAMES:
        random_game(RULES, players, seed, 0.5, on_decision=compare)
    assert len(compared) == 300 and sum(1 for k in compared if k) >= 50
