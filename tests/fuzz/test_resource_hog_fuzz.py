"""Rule fuzzing of Resource Hog (tests/fuzz/harness.py): seeded games of 2-4 players, legal and
illegal moves mixed (the secret orders are simultaneous decisions), the invariants below checked
after every step.

Where each component may be (resource-hog-actions-and-events.txt, resource-hog-components.md and
docs/house-rules.md, Resource Hog):

* squares (house rule map; table: clear woodland, build): each land area's squares stay the
  map's: a forest square only becomes a field, and a field only a stone head;
* game (table: game growth; house rule map): an area never holds more game than 4 a forest square;
* fish (table: fish growth; house rule map): each water's pool stays between 0 and its maximum;
* the trading board (house rule, ambiguity 15): each column holds 0 to 10 goods;
* slaves (components: 50 markers; table: adjust trading board; house rule: the slave stack): the
  stack and the slave track together never hold more than the stack's 4 at the start (of the 50),
  and buying takes only what the tracks hold;
* pieces (components: 50 peasant/noble markers per player): no seat has more than 50 on the map;
* ownership (house rule): an area belongs to a seat exactly while that seat's peasants or
  nobles are in it; peasants at work are among the area's peasants;
* buildings (table: build; house rule costs): a harbour only on the coast, a mine only with ore,
  one fortification at most (a motte replaces its manor, a castle its motte), one of each other
  building;
* length (house rule): at most 8 rounds.
"""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from services.rules.resource_hog.content import content, game_max, lands
from services.rules.resource_hog.state import FORTS, State

from .harness import fuzz_game, fuzz_settings


def resource_hog_invariant(state: State) -> None:
    """Conservation and limits of the module docstring; AssertionError names what broke."""
    c = content()
    waters = {w.id: w for w in c.map.waters}
    pieces: Counter[int] = Counter()
    for area, land in state.lands.items():
        printed = lands()[area]
        assert land.fields + land.forests + land.stone_heads == printed.fields + printed.forests, f"{area} squares"
        assert land.forests <= printed.forests, f"{area} grew forest"
        assert land.game <= game_max(land.forests), f"{area}: {land.game} game on {land.forests} forest squares"
        assert (land.owner is None) == (land.peasants == 0 and land.nobles == 0), \
            f"{area} owner {land.owner} with {land.peasants} peasants and {land.nobles} nobles"
        assert sum(land.work.values()) <= land.peasants, f"{area}: work {land.work} for {land.peasants} peasants"
        if land.owner is not None:
            pieces[land.owner] += land.peasants + land.nobles
        for seat, n in land.invaders.items():
            pieces[int(seat)] += n
        built = Counter(land.buildings)
        assert all(k == 1 for k in built.values()), f"{area} buildings {land.buildings}"
        assert sum(built[f] for f in FORTS) <= 1, f"{area} fortifications {land.buildings}"
        assert "harbour" not in built or printed.coast is not None, f"{area} harbour inland"
        assert "mine" not in built or land.ore, f"{area} mine without ore"
    for w, n in state.fish.items():
        assert 0 <= n <= waters[w].max, f"{w} holds {n} fish"
    for good, n in state.board.items():
        assert 0 <= n <= content().trading.capacity, f"the {good} column holds {n}"
    assert state.slaves + state.slave_track <= c.setup.components["slave_stack"] <= c.setup.components["slaves"], \
        "slaves"
    for seat, n in pieces.items():
        assert n <= c.setup.components["pieces_per_player"], f"seat {seat} has {n} pieces on the map"
    assert state.round <= c.setup.rounds


@pytest.mark.rules("resource_hog:clear woodland/one-per-worker", "resource_hog:build/stone-head-field",
                   "resource_hog:build/in-order", "resource_hog:fish growth/capped", "resource_hog:game growth/capped",
                   "resource_hog:house rules/ownership", "resource_hog:house rules/eight-rounds",
                   "resource_hog:house rules/board-prices", "resource_hog:trading board/no-slaves-after",
                   "resource_hog:components/pieces-per-player", "resource_hog:components/slave-markers")
@fuzz_settings(default_examples=10)
@given(players=st.integers(2, 4), seed=st.integers(0, 10 ** 6),
       choices=st.lists(st.integers(0, (1 << 30) - 1), max_size=40))
def test_resource_hog_fuzzed_games_keep_the_invariants(players, seed, choices):
    """Every step of a fuzzed Resource Hog game keeps the invariants; refused moves change nothing;
    the game ends; the accepted moves replay to the same log and hash (harness)."""
    report = fuzz_game("resource_hog", players, str(seed), choices, resource_hog_invariant, move_cap=1500)
    assert report.accepted and report.final_hash


def _fresh(players: int = 3) -> State:
    from services.coordinator.table import embedded_table
    from services.rules.core import GameConfig

    table = embedded_table()
    return table.state(table.create(GameConfig(game="resource_hog", players=players), seed="1"))[1]


@pytest.mark.parametrize("tamper", ["forest grown", "game over forests", "fish over max", "owner without pieces",
                                    "two manors", "slave made", "too many pieces"])
def test_the_invariant_sees_what_the_rules_forbid(tamper):
    """The invariant holds after set-up and fails on each kind of breach it states."""
    state = _fresh()
    resource_hog_invariant(state)
    home = next(a for a in state.lands.values() if a.owner == 0)
    if tamper == "forest grown":
        home.forests += 1
        home.fields -= 1 if home.fields else 0
    elif tamper == "game over forests":
        home.game = game_max(home.forests) + 1
    elif tamper == "fish over max":
        water = content().map.waters[0]
        state.fish[water.id] = water.max + 1
    elif tamper == "owner without pieces":
        empty = next(a for a in state.lands.values() if a.owner is None)
        empty.owner = 1
    elif tamper == "two manors":
        home.buildings += ["manor", "motte"]
    elif tamper == "slave made":
        state.slave_track += 1
    else:
        home.peasants = content().setup.components["pieces_per_player"]
    with pytest.raises(AssertionError):
        resource_hog_invariant(state)
