"""Set-up (rulebook 1.0) per player count."""

import pytest

from services.rules.core import GameConfig, BadConfig
from services.rules.noggin import content

from .helpers import RULES, fresh, new_game, totals


@pytest.mark.parametrize("players,harvest,wood,stone,fish", [(2, 12, 24, 20, 15), (3, 18, 31, 20, 23), (4, 24, 38, 20, 30)])
def test_resource_totals_follow_the_setup_table(players, harvest, wood, stone, fish):
    """Rulebook 1.0 C: the resource table per player count, and 5 Gold cubes (set-up S)."""
    assert totals(fresh(players)) == {"harvest": harvest, "wood": wood, "stone": stone, "fish": fish, "gold": 5}


@pytest.mark.parametrize("players", [2, 3, 4])
def test_where_the_cubes_start(players):
    """Set-up H (P+2 trees per forest zone), L (fish in the fjord), Q and U (12 Stone in the
    starting tile, 8 at the market), V (2 Harvest per player at the market), W-Z player boards."""
    s = fresh(players)
    assert s.forest == [players + 2] * 5
    assert s.market == {"stone": 8, "wood": 0, "fish": 0, "harvest": 2 * players, "gold": 0, "coin": 0}
    assert sum(1 for c in s.mine.values() if c == "stone") == 12
    assert s.miner[0] == -1
    for p in s.players:
        assert (p.mountains, p.reserve, p.orchard, p.fields) == (10, 6, 2, [2, 2])
        assert sum(p.stock.values()) == 0
    assert s.transport_piles == {"mine_cart": players, "wood_cart": players, "boat": players}


@pytest.mark.parametrize("players", [2, 3, 4])
def test_turn_order_and_dummies(players):
    """Set-up E: four Step markers in random order on the first space; unused colours are dummies.
    4.1: the first marker in turn order that belongs to a seat acts first (dummies before it move)."""
    s = fresh(players)
    assert len(s.markers) == 4
    assert sorted(m.seat for m in s.markers if m.seat is not None) == list(range(players))
    assert sum(m.seat is None for m in s.markers) == 4 - players
    first_seat = next(i for i, m in enumerate(s.markers) if m.seat is not None)
    assert s.active == first_seat
    assert all(m.pos == 0 for m in s.markers[first_seat:])
    assert all(m.pos > 0 for m in s.markers[:first_seat])


@pytest.mark.parametrize("players", [2, 3, 4])
def test_two_building_rows_of_player_count(players):
    """Set-up F: two face-up rows of as many Year 1 tiles as players; 18 tiles in all."""
    s = fresh(players)
    assert len(s.rows["bottom"]) == players and len(s.rows["top"]) == players
    assert s.buildings_drawn == 2 * players
    assert len(content.year1_tiles()) == 18


def test_popularity_track_start():
    """Set-up I and J: the Dragon as many spaces from the crown as players; the Crow 8 away (house rule)."""
    for n in (2, 3, 4):
        s = fresh(n)
        assert (s.dragon, s.crow) == (n, 8)


def test_same_seed_same_setup_other_seed_differs():
    """Set-up shuffles come from the seed only (not the game id)."""
    t1, g1 = new_game(3, "7")
    t2, g2 = new_game(3, "7")
    assert t1.summary(g1)["state_hash"] == t2.summary(g2)["state_hash"]
    seeds = [fresh(3, str(k)) for k in range(6)]
    assert len({tuple(m.colour for m in s.markers) for s in seeds}) > 1


def test_player_count_is_checked():
    """The core game takes 2 to 4 players."""
    with pytest.raises(BadConfig):
        RULES.validate_config(GameConfig(game="noggin", players=5))
