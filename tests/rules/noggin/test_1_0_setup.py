"""Set-up (rulebook 1.0 A-Z) per player count."""

import json

import pytest

from services.rules.core import BadConfig, GameConfig, canonical_json
from services.rules.noggin import content, decks
from services.rules.noggin.state import CASTLE, season_name

from .helpers import (
    RULES,
    chance_of,
    fresh,
    new_game,
    normal_turn,
    resolve_ops,
    run,
    run_phase,
    state_hash,
    totals,
)


@pytest.mark.parametrize("players,harvest,wood,stone,fish", [
    pytest.param(2, 12, 24, 20, 15, marks=pytest.mark.rules("noggin:1.0 setup/c-resources-2")),
    pytest.param(3, 18, 31, 20, 23, marks=pytest.mark.rules("noggin:1.0 setup/c-resources-3")),
    pytest.param(4, 24, 38, 20, 30, marks=pytest.mark.rules("noggin:1.0 setup/c-resources-4")),
])
def test_resource_totals_follow_the_setup_table(players, harvest, wood, stone, fish):
    """Rulebook 1.0 C: the resource table per player count, and 5 Gold cubes (set-up S)."""
    assert totals(fresh(players)) == {"harvest": harvest, "wood": wood, "stone": stone, "fish": fish, "gold": 5}


@pytest.mark.rules("noggin:1.0 setup/h-forest-cubes", "noggin:1.0 setup/l-fjord", "noggin:1.0 setup/u-market-stone",
                   "noggin:1.0 setup/v-market-harvest", "noggin:1.0 setup/w-mountains-nogs",
                   "noggin:1.0 setup/x-reserve-nogs", "noggin:1.0 setup/y-orchard-trees",
                   "noggin:1.0 setup/z-field-harvest", "noggin:1.0 setup/m-scores-zero")
@pytest.mark.parametrize("players,fish", [(2, 15), (3, 23), (4, 30)])
def test_where_the_cubes_start(players, fish):
    """Set-up H (P+2 trees per forest zone), L (all fish in play in the fjord), U (8 Stone at the
    market), V (2 Harvest per player at the market), M (scores 0), W-Z player boards: 10 Nogs on
    the Mountains, 6 in reserve, 2 Orchard trees, a Harvest cube on each of the 4 labourers."""
    s = fresh(players)
    assert s.forest == [players + 2] * 5
    assert s.fjord == fish
    assert s.market == {"stone": 8, "wood": 0, "fish": 0, "harvest": 2 * players, "gold": 0, "coin": 0}
    for p in s.players:
        assert (p.mountains, p.reserve, p.orchard, p.fields) == (10, 6, 2, [2, 2])
        assert p.score == 0
        assert sum(p.stock.values()) == 0
        assert sum(p.placed.values()) == 0


@pytest.mark.rules("noggin:1.0 setup/f-transport-piles")
@pytest.mark.parametrize("players", [2, 3, 4])
def test_transport_piles_hold_one_tile_per_player(players):
    """Set-up F (transport): each transport pile holds as many tiles as players."""
    assert fresh(players).transport_piles == {"mine_cart": players, "wood_cart": players, "boat": players}


@pytest.mark.rules("noggin:1.0 setup/a-season-marker", "noggin:1.0 setup/b-runestone")
def test_spring_and_the_runestone_on_the_nog_moon():
    """Set-up A and B: the game starts in Spring (season 1) with the Runestone on the Nog Moon (0)."""
    s = fresh(3)
    assert s.season == 1 and season_name(s.season) == "spring"
    assert s.runestone == 0 and RULES.pending_phase(s) is None


@pytest.mark.rules("noggin:1.0 setup/d-characters-in-castle", "noggin:1.0 setup/g-nogbad-home",
                   "noggin:1.0 setup/g-infamous-crow")
def test_characters_in_the_castle_nogbad_at_home_crow_on_fish():
    """Set-up D: the 7 characters start in Noggin's Castle, Nogbad not among them; G: Nogbad in
    his own castle (inactive, no action blocked) and the Infamous Crow on the Fish quarter."""
    s = fresh(3)
    assert s.characters == {c: CASTLE for c in ("noggin", "nooka", "knut", "graculus", "thor", "olaf", "romf")}
    assert "nogbad" not in s.characters
    assert s.nogbad == "castle"
    assert s.wheel == 0 and content.load().characters.wheel[s.wheel].id == "fish"
    from services.rules.noggin.board import nogbad_space

    assert nogbad_space(s) is None


@pytest.mark.rules("noggin:1.0 setup/e-dummy-players")
@pytest.mark.parametrize("players", [2, 3, 4])
def test_turn_order_and_dummies(players):
    """Set-up E: four Step markers; the colours without a player are dummies.
    4.1: the first marker in turn order that belongs to a seat acts first (dummies before it move)."""
    s = fresh(players)
    assert len(s.markers) == 4
    assert sorted(m.seat for m in s.markers if m.seat is not None) == list(range(players))
    assert sum(m.seat is None for m in s.markers) == 4 - players
    assert {m.colour for m in s.markers if m.seat is None} == set(["red", "blue", "yellow", "green"][players:])
    first_seat = next(i for i, m in enumerate(s.markers) if m.seat is not None)
    assert s.active == first_seat
    assert all(m.pos == 0 for m in s.markers[first_seat:])
    assert all(m.pos > 0 for m in s.markers[:first_seat])


def _before_first_turn(players: int, seed: str):
    """The state after set-up E (turn order drawn) but before the first turn starts."""
    state = RULES.new_state()
    config = GameConfig(game="noggin", players=players)
    RULES.evolve(state, RULES.created_event(config))
    ops = [op for op in RULES.setup_ops(config) if op.name != "resume_turns"]
    resolve_ops(state, ops, seed)
    return state


@pytest.mark.rules("noggin:1.0 setup/e-markers-start-together")
@pytest.mark.parametrize("seed", ["1", "2", "3", "7"])
def test_markers_start_together_by_the_nog_moon(seed):
    """Set-up E and 4.1: all four Step markers start on the first space, by the Nog Moon (position
    0); only dummies ahead of the first player in turn order move before the first turn."""
    s = _before_first_turn(3, seed)
    assert [m.pos for m in s.markers] == [0, 0, 0, 0] and all(m.turns == 0 for m in s.markers)
    after = fresh(3, seed)
    first_seat = next(i for i, m in enumerate(after.markers) if m.seat is not None)
    assert [m.pos for m in after.markers[first_seat:]] == [0] * (4 - first_seat)


@pytest.mark.rules("noggin:1.0 setup/e-turn-order-random")
def test_turn_order_is_drawn_at_random():
    """Set-up E: the four large Nogs are drawn at random for turn order: each order is a
    permutation of the four colours, and different seeds give different orders."""
    orders = set()
    for k in range(12):
        s = _before_first_turn(3, str(k))
        colours = tuple(m.colour for m in s.markers)
        assert sorted(colours) == ["blue", "green", "red", "yellow"]
        for m in s.markers:  # a colour keeps its seat (or is a dummy) whatever the order
            assert m.seat == (["red", "blue", "yellow"].index(m.colour) if m.colour != "green" else None)
        orders.add(colours)
    assert len(orders) >= 4


@pytest.mark.rules("noggin:1.0 setup/f-two-rows")
@pytest.mark.parametrize("players", [2, 3, 4])
def test_two_building_rows_of_player_count(players):
    """Set-up F: two face-up rows of as many Year 1 tiles as players, from the 18 Year 1 tiles."""
    s = fresh(players)
    assert len(s.rows["bottom"]) == players and len(s.rows["top"]) == players
    assert s.buildings_drawn == 2 * players
    year1 = set(content.year1_ids())
    assert set(s.rows["bottom"] + s.rows["top"]) <= year1
    assert len(content.year1_tiles()) == 18


def _to_season_five(seed: str):
    s = fresh(3, seed)
    normal_turn(s, 0, [40, 42, 43, 44])
    s.season, s.active, s.crow = 4, None, 5
    run_phase(s, seed)
    return s


@pytest.mark.rules("noggin:1.0 setup/f-year2-aside")
def test_year2_tiles_wait_shuffled_for_season_five():
    """Set-up F: the Year 2 tiles are shuffled and set aside: none is on display before season 5;
    at the start of season 5 two rows of Year 2 tiles come out, in an order set by the shuffle."""
    year2 = set(content.year2_tiles())
    s = fresh(3)
    assert s.year2_drawn == 0 and not set(s.rows["bottom"] + s.rows["top"]) & year2
    rows = []
    for seed in ("1", "2", "3", "4", "5"):
        s5 = _to_season_five(seed)
        assert s5.season == 5 and s5.year2_drawn == 6
        assert set(s5.rows["bottom"] + s5.rows["top"]) <= year2
        rows.append((tuple(s5.rows["bottom"]), tuple(s5.rows["top"])))
    assert len(set(rows)) > 1


@pytest.mark.rules("noggin:1.0 setup/h-woodcutter-start")
def test_woodcutter_starts_before_the_first_clearing():
    """Set-up H: the Woodcutter starts on his starting space; his first move is to clearing 0."""
    s = fresh(3)
    assert s.woodcutter == -1
    normal_turn(s, 0, [10, 16, 17, 18])
    events = run(s, 0, {"type": "woodcutter", "op": "advance"})
    assert next(e for e in events if e.type == "WoodcutterMoved").data["clearing"] == 0


@pytest.mark.rules("noggin:1.0 setup/i-dragon-start", "noggin:1.0 setup/j-crow-on-portrait")
@pytest.mark.parametrize("players", [2, 3, 4])
def test_popularity_track_start(players):
    """Set-up I and J: the Dragon as many spaces from the crown as players; Nogbad's Crow on his
    portrait, 8 spaces from the crown (house rule for the track length)."""
    s = fresh(players)
    assert (s.dragon, s.crow) == (players, 8)


@pytest.mark.rules("noggin:1.0 setup/n-display")
def test_one_counting_house_two_inventions_two_sagas_face_up():
    """Set-up N: 1 Counting House card, 2 Invention cards and 2 Saga cards face up."""
    s = fresh(3)
    assert s.counting_house in content.counting_house_index() and s.ch_drawn == 1
    assert len(s.inventions) == 2 and all(i is not None for i in s.inventions)
    assert s.inventions[0].card != s.inventions[1].card and s.inventions_drawn == 2
    assert len(s.sagas) == 2 and all(x is not None for x in s.sagas)
    assert s.sagas[0].card != s.sagas[1].card and s.sagas_drawn == 2


@pytest.mark.rules("noggin:1.0 setup/o-reserve-shuffled")
def test_reserve_decks_shuffled_separately_resource_side_up():
    """Set-up O: each Reserve deck is shuffled on its own (its order changes with the seed, and
    one deck's order does not follow another's); the cards lie resource side up: a player sees
    the conditions of a Reserve card on a Saga, never which card it is (its back)."""
    for deck in "ABC":
        tops = {decks.reserve_order(fresh(3, str(k)), chance_of(str(k)), deck)[0] for k in range(8)}
        assert len(tops) > 1
    s = fresh(3)
    b = decks.reserve_order(s, chance_of("7"), "B")
    c = decks.reserve_order(s, chance_of("7"), "C")
    assert [x[1:] for x in b] != [x[1:] for x in c]  # not the same permutation under both
    view = RULES.view(s, 0)
    hidden = s.secret["saga_cards"]
    assert all(card is not None for card in hidden)
    for slot, card in enumerate(hidden):
        assert s.sagas[slot].current.needs == list(content.reserve_index()[card].needs)
    text = canonical_json(view)
    assert "secret" not in json.loads(text)
    assert all(f'"{card}"' not in text for card in hidden)


@pytest.mark.rules("noggin:1.0 setup/p-a-card-on-each-saga")
def test_each_saga_gets_the_top_a_card():
    """Set-up P: the top card of the A deck goes on each Saga's Harbourside (characters only)."""
    s = fresh(3)
    order = decks.reserve_order(s, chance_of("7"), "A")
    assert s.reserve["A"]["top"] == 2 and s.reserve["A"]["bottom"] == 0
    assert s.secret["saga_cards"] == order[:2]
    for saga in s.sagas:
        assert saga.current.deck == "A" and saga.done == []
        assert set(saga.current.needs) <= set(s.characters)


@pytest.mark.rules("noggin:1.0 setup/q-starting-tile", "noggin:1.0 setup/r-miner-above",
                   "noggin:1.0 setup/s-mine-pile")
@pytest.mark.parametrize("players", [2, 3, 4])
def test_mine_setup(players):
    """Set-up Q: the Mine tile without Gold in the centre of the top row of the Mine grid, its
    tunnel squares filled with Stone; R: the Miner above the first row; S: the other 5 tiles face
    down, 5 Gold cubes beside them."""
    s = fresh(players)
    grid = content.load().mine.grid
    start = next(t for t in content.load().mine.tiles if t.start)
    assert s.mine_tiles == [{"slot": [0, 1], "tile": start.id, "rotation": 0, "flip": ""}]
    assert grid.rows == 2 and grid.cols == 3  # slot (0, 1) is the centre of the top row
    galleries = sum(r.count("G") for r in start.rows)
    assert len(s.mine) == galleries and set(s.mine.values()) == {"stone"}
    assert all(0 <= int(k.split(",")[0]) < 4 and 4 <= int(k.split(",")[1]) < 8 for k in s.mine)
    assert s.miner[0] == -1
    assert decks.mine_tiles_left(s) == 5 and s.mine_drawn == 0 and s.gold_supply == 5
    assert s.market["gold"] == 0


@pytest.mark.rules("noggin:1.0 setup/t-coins-aside")
def test_coins_wait_beside_the_board():
    """Set-up T: the coins are beside the board, not at the Nog Market: nobody can trade for a
    coin until the Money Saga is completed (see the components test for their arrival)."""
    from services.rules.core import IllegalMove

    s = fresh(3)
    assert s.market["coin"] == 0 and not s.coins
    normal_turn(s, 0, [10, 16, 17, 18])
    s.players[0].stock.update(wood=2)
    with pytest.raises(IllegalMove, match="Money Saga"):
        RULES.check(s, 0, {"type": "market_day", "give": ["wood", "wood"], "take": "coin"})


@pytest.mark.rules("noggin:1.0 setup/k-fish-bag")
def test_the_ten_fishing_tokens_are_in_the_bag():
    """Set-up K: the 10 Fishing tokens go in the bag: none is out at the start, and a draw of 4
    can bring any of the 10."""
    s = fresh(3)
    assert s.drawn == {} and s.fishing_draws == 0
    seen = set()
    for k in range(12):
        s.fishing_draws = k
        seen |= {t["id"] for t in decks.draw_fishing_tokens(s, chance_of("7"), 4)[0].data["tokens"]}
    assert seen == {t.id for t in content.load().fishing.tokens}


@pytest.mark.rules("noggin:1.0 setup/same-seed-same-setup")
def test_same_seed_same_setup_other_seed_differs():
    """Set-up shuffles come from the seed only (not the game id): the same seed gives the same
    set-up, other seeds give other set-ups."""
    t1, g1 = new_game(3, "7")
    t2, g2 = new_game(3, "7")
    assert t1.summary(g1)["state_hash"] == t2.summary(g2)["state_hash"]
    assert state_hash(fresh(3, "7")) == state_hash(fresh(3, "7"))
    assert state_hash(fresh(3, "7")) != state_hash(fresh(3, "8"))
    seeds = [fresh(3, str(k)) for k in range(6)]
    assert len({tuple(m.colour for m in s.markers) for s in seeds}) > 1


def test_player_count_is_checked():
    """The game takes 2 to 4 players."""
    with pytest.raises(BadConfig):
        RULES.validate_config(GameConfig(game="noggin", players=5))
