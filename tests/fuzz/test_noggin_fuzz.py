"""Rule fuzzing of Noggin (tests/fuzz/harness.py): seeded games of 2-4 players with random
variants, legal and illegal moves mixed, the invariants below checked after every step.

Where each component may be (noggin-the-nog-rulebook.txt):

* cubes (1.0 Components, set-up C, 3.7): every Wood, Fish, Stone, Harvest and Gold cube in play
  is in the Nog Market, the fjord, the forest zones, an Orchard, a field, a player's stock, the
  Mine, the cart of the action under way, on a Saga's or Invention's condition it paid, or
  locked on a card; their totals stay the set-up's (tests/rules/noggin/helpers.totals), less
  the fields' Harvest under Arrival (house rule arrival-harvest-boxed);
* coins (1.0, 6.6): at most the 5 coin tokens are in the Market and the players' stocks;
* Nogs (1.0 nogs-per-player, 5.0): each player's 16 Nogs are on the Mountains space, in the
  reserve, on action spaces, on Year 2 tiles (and the Royal Dungeon), on Saga cards (current
  and done), on Invention conditions, one on each Invention won and on each Counting House
  card held;
* characters (1.0, 6.1): the 7 characters are in the Castle, on a Saga on the board, on an
  Invention on the board or on an action space;
* cards (1.0): no more Sagas than the 20, Inventions than the 11, Counting House cards than
  the 15 and Mine tiles than the 5 besides the first are ever drawn.

Limits: storage (3.7 Farm of 6 plus building storage, 5.0 no waste) holds for every player,
the cubes in the cart of the action under way included; a mine cart, wood cart or boat never
carries more than its capacity (3.7, 3.8).
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from services.rules.noggin import board, content
from services.rules.noggin.rules import VARIANTS
from services.rules.noggin.state import CASTLE, State
from tests.rules.noggin.helpers import totals

from .harness import fuzz_game, fuzz_settings

SETUP_CUBES = {2: {"harvest": 12, "wood": 24, "stone": 20, "fish": 15, "gold": 5},
               3: {"harvest": 18, "wood": 31, "stone": 20, "fish": 23, "gold": 5},
               4: {"harvest": 24, "wood": 38, "stone": 20, "fish": 30, "gold": 5}}
"""Cubes in play by player count (set-up C; Gold: the 5 cubes of 1.0, set-up S)."""
NOGS = 16
"""Nogs per player (1.0)."""
COINS = 5
"""Coin tokens (1.0)."""
CART_OF = {"miner": "mine_cart", "woodcutter": "wood_cart", "fisherman": "boat"}
"""The transport an action fills (3.8)."""


def nogs_of(state: State, seat: int) -> int:
    """Every Nog of ``seat``, wherever the rules put it (module docstring)."""
    p = state.players[seat]
    n = p.mountains + p.reserve + sum(p.placed.values()) + sum(p.tile_nogs.values())
    n += len(p.inventions) + len(p.counting_house)
    for saga in state.sagas:
        if saga is not None:
            n += (saga.current.nogs[seat] if saga.current is not None else 0)
            n += sum(c["nogs"][seat] for c in saga.done)
    for inv in state.inventions:
        if inv is not None:
            n += sum(1 for m in inv.met if m is not None and m["seat"] == seat)
    return n


def noggin_invariant(state: State) -> None:
    """Conservation and limits of the module docstring; AssertionError names what broke."""
    players = len(state.players)
    expected = dict(SETUP_CUBES[players])
    if state.config.get("options", {}).get("arrival"):  # the fields' Harvest stays in the box (house rule)
        expected["harvest"] -= players * len(state.players[0].fields) * content.load().setup.field_harvest
    assert totals(state) == expected, f"cubes {totals(state)} != set-up {expected}"
    coins = state.market.get("coin", 0) + sum(p.stock.get("coin", 0) for p in state.players)
    assert coins <= COINS, f"{coins} coins in play"
    assert [nogs_of(state, s) for s in range(players)] == [NOGS] * players, "a Nog appeared or vanished"
    c = content.load()
    for ch, where in state.characters.items():
        kind, _, rest = where.partition(":")
        assert where == CASTLE or (kind == "saga" and state.sagas[int(rest)] is not None) or \
            (kind == "invention" and state.inventions[int(rest)] is not None) or kind == "action", f"{ch} at {where}"
    assert len(state.characters) == 7, f"characters {sorted(state.characters)}"
    assert state.sagas_drawn <= len(c.sagas.sagas) and state.inventions_drawn <= len(c.inventions.inventions)
    assert state.ch_drawn <= len(c.counting_house.cards) and state.mine_drawn <= len(c.mine.tiles) - 1
    for p in state.players:
        cart = state.action.cart if state.action is not None and state.action.seat == p.seat else {}
        assert board.fits(p, {r: k for r, k in cart.items() if r in board.BASIC}), \
            f"seat {p.seat} stores more than its Farm and buildings hold: {p.stock} + cart {cart}"
    a = state.action
    if a is not None and a.kind in CART_OF:
        held = sum(a.cart.values())
        assert held <= board.capacity(state.players[a.seat], CART_OF[a.kind]), f"{a.kind} cart holds {a.cart}"


@pytest.mark.rules("noggin:1.0/cubes", "noggin:1.0/nogs-per-player", "noggin:1.0/coins", "noggin:1.0/characters",
                   "noggin:1.0 setup/c-resources-2", "noggin:1.0 setup/c-resources-3",
                   "noggin:1.0 setup/c-resources-4", "noggin:house rules/arrival-harvest-boxed", "noggin:3.7/farm-six", "noggin:3.7/transport-two",
                   "noggin:5.0/no-waste")
@fuzz_settings(default_examples=4)
@given(players=st.integers(2, 4), seed=st.integers(0, 10 ** 6),
       variants=st.sets(st.sampled_from([v for v in VARIANTS if v != "friend_or_foe"]), max_size=3),
       foe=st.booleans(), choices=st.lists(st.integers(0, (1 << 30) - 1), max_size=40))
def test_noggin_fuzzed_games_keep_the_invariants(players, seed, variants, foe, choices):
    """Every step of a fuzzed Noggin game keeps the invariants; refused moves change nothing; the
    game ends; the accepted moves replay to the same log and hash (harness)."""
    options = {v: True for v in variants}
    if foe and players == 4:
        options["friend_or_foe"] = True
    negative_ok = {".miner[]", ".woodcutter"}  # above the Mine, before the first clearing (set-up R, H)
    if options.get("friend_or_foe"):  # a wrong accusation loses 10 (variants)
        negative_ok |= {".players[].score", ".final.scores[]", ".final.breakdown[].play", ".final.breakdown[].total"}
    report = fuzz_game("noggin", players, str(seed), choices, noggin_invariant, move_cap=1500, options=options,
                       negative_ok=frozenset(negative_ok))
    assert report.accepted and report.final_hash


def _fresh(players: int = 3):
    from services.coordinator.table import embedded_table
    from services.rules.core import GameConfig

    table = embedded_table()
    return table.state(table.create(GameConfig(game="noggin", players=players), seed="1"))[1]


@pytest.mark.parametrize("tamper", ["cube lost", "nog added", "farm overfull", "character lost"])
def test_the_invariant_sees_what_the_rules_forbid(tamper):
    """The invariant holds after set-up and fails on each kind of breach it states."""
    state = _fresh()
    noggin_invariant(state)
    p = state.players[0]
    if tamper == "cube lost":
        state.fjord -= 1
    elif tamper == "nog added":
        p.mountains += 1
    elif tamper == "farm overfull":  # 7 Stone moved from the Market to a Farm of 6: totals unchanged
        state.market["stone"] -= 7
        p.stock["stone"] += 7
    else:
        state.characters.pop("olaf")
    with pytest.raises(AssertionError):
        noggin_invariant(state)
