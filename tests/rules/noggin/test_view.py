"""The player view (``NogginRules.view``): what a person needs to decide, JSON-safe and public."""

import json
import random

from services.rules.noggin import content

from services.rules.core.forward import chance_from, play_out

from .helpers import RULES, fresh, normal_turn, run, seated


def test_forest_trail_shows_zone_number_and_trees_of_each_clearing():
    """5.3: a player must be able to tell what the next ``advance`` will cut."""
    s = seated(3)
    s.forest[1] = 1
    s.woodcutter = 1
    v = RULES.view(s, 0)
    trail = content.load().forest.clearings
    assert [c["clearing"] for c in v["forest_trail"]] == [c.id for c in trail]
    assert v["forest_trail"][2] == {"clearing": 2, "zone": 1, "number": trail[2].number, "trees": 1}
    assert v["woodcutter_next"] == {"clearing": 2, "zone": 1, "number": trail[2].number, "trees": 1}


def test_mine_lists_every_square_of_placed_tiles_and_the_surface():
    """5.1, set-up R: rock, empty gallery, Stone and Gold squares keyed like moves ([r, c])."""
    s = seated(3)
    s.mine["0,4"] = ""
    s.mine["1,4"] = "gold"
    v = RULES.view(s, 0)
    m = v["mine_map"]
    sq = {tuple(e["square"]): e["content"] for e in m["squares"]}
    assert sq[(0, 4)] == "empty" and sq[(1, 4)] == "gold" and sq[(0, 5)] == "stone"
    assert sq[(1, 5)] == "rock" and sq[(2, 6)] == "rock"
    width = content.load().mine.grid.cols * 4
    assert [c for (r, c), k in sorted(sq.items()) if r == -1] == list(range(width))
    assert all(k == "surface" for (r, _), k in sq.items() if r == -1)
    assert (0, 0) not in sq  # no tile there yet
    assert len([k for (r, _), k in sq.items() if r >= 0]) == 16
    assert m["surface_row"] == -1 and m["miner"] == [-1, 4] and m["miner_on_surface"] is True
    assert [0, 0] in m["free_slots"] and [0, 1] not in m["free_slots"]
    assert len(m["picture"]) == content.load().mine.grid.rows * 4 + 1


def _mine_map_square_by_square(state):
    """The Mine map of 5.1 the obvious way: every square of the grid visited on its own, its
    content looked up where a tile is placed (the reference for ``views.mine_map``)."""
    grid = content.load().mine.grid
    width, depth = grid.cols * 4, grid.rows * 4
    placed = {tuple(t["slot"]) for t in state.mine_tiles}
    letter = {"surface": "_", "rock": "#", "empty": ".", "stone": "s", "gold": "g"}
    squares, picture = [], []
    for r in range(-1, depth):
        line = ""
        for c in range(width):
            on_tile = r == -1 or (r // 4, c // 4) in placed
            cube = state.mine.get(f"{r},{c}")
            what = "surface" if r == -1 else "rock" if cube is None else cube or "empty"
            if on_tile:
                squares.append({"square": [r, c], "content": what})
            line += "M" if [r, c] == list(state.miner) else letter[what] if on_tile else " "
        picture.append(line)
    return squares, picture


def test_mine_map_is_every_placed_square_with_the_miner_drawn_where_he_stands():
    """5.1: over states of seeded random games (the Miner on the surface and down in the
    Mine, tiles discovered and not), the squares and the picture are those of visiting every
    square in turn; the Miner's square shows ``M``."""
    seen_down = 0
    for n in range(6):
        state, chance = fresh(3, f"mine-{n}"), chance_from(f"mine-{n}")
        rng = random.Random(n)
        for _ in range(8):
            play_out(RULES, state, chance, lambda seat, legal: legal[rng.randrange(len(legal))], 40)
            if RULES.outcome(state) is not None:
                break
            m = RULES.view(state, 0)["mine_map"]
            squares, picture = _mine_map_square_by_square(state)
            assert m["squares"] == squares and m["picture"] == picture
            assert m["miner"] == list(state.miner)
            r, c = state.miner
            assert picture[r + 1][c] == "M"
            seen_down += r >= 0
    assert seen_down > 0  # the Miner went down in some of them


def test_mine_squares_match_the_move_format():
    s = normal_turn(seated(3), 0, [10, 16, 17, 18])
    dig = next(e["square"] for e in RULES.view(s, 0)["mine_map"]["squares"]
               if e["content"] == "stone" and e["square"] == [0, 4])
    run(s, 0, {"type": "miner", "op": "dig", "square": dig})
    v = RULES.view(s, 0)
    assert v["mine_map"]["miner"] == [0, 4] and v["mine_map"]["miner_on_surface"] is False
    assert {"square": [0, 4], "content": "empty"} in v["mine_map"]["squares"]


def test_each_player_shows_storage_and_transport_capacity():
    """3.7, 3.8: Farm of 6 plus building storage; carts and boat of 2, or 4 once upgraded."""
    s = seated(3)
    p = s.players[1]
    p.buildings["granary"] = "meadow"
    p.transports.append("boat")
    p.stock.update(stone=2, harvest=1)
    v = RULES.view(s, 0)["players"][1]
    assert v["storage"]["farm"] == 6
    assert v["storage"]["extra"] == {"stone": 0, "wood": 0, "fish": 0, "harvest": 2}
    assert v["storage"]["room"] == {"stone": 4, "wood": 4, "fish": 4, "harvest": 5}
    assert v["transport_capacity"] == {"mine_cart": 2, "wood_cart": 2, "boat": 4}


def test_active_marker_maps_to_a_seat_or_a_dummy():
    """4.2: ``active`` is a marker index; the view also names its seat (null for a dummy)."""
    s = seated(3)
    s.active = 1
    v = RULES.view(s, None)
    assert v["active"] == 1 and v["active_seat"] == 1 and v["active_colour"] == "blue"
    assert [(m["marker"], m["seat"], m["dummy"]) for m in v["markers"]] == [
        (0, 0, False), (1, 1, False), (2, 2, False), (3, None, True)]
    s.active = 3
    assert RULES.view(s, None)["active_seat"] is None
    s.active = None
    v = RULES.view(s, None)
    assert v["active_seat"] is None and v["active_colour"] is None


def test_view_is_json_safe_deterministic_and_keeps_no_seed():
    s = seated(4)
    v = RULES.view(s, 2)
    text = json.dumps(v, sort_keys=True)
    assert json.loads(text) == v and v == RULES.view(s, 2)
    assert "seed" not in text and "order" not in text
