"""Components (rulebook 1.0, the parts list): the content files hold every deck, tile, token
and cube of the box, and a game set up from them uses exactly those."""

import pytest

from services.rules.core import IllegalMove
from services.rules.noggin import content, decks
from services.rules.noggin.state import CASTLE

from .helpers import (
    RULES,
    chance_of,
    fresh,
    give,
    put_reserve,
    put_saga,
    run,
    scenario,
    totals,
)


@pytest.mark.rules("noggin:1.0/saga-deck")
def test_saga_deck_has_twenty_cards_one_of_them_money():
    """1.0: 20 Saga cards, exactly one the Money Saga; a game's Saga deck is all 20 of them."""
    sagas = content.load().sagas.sagas
    assert len(sagas) == 20 and len({s.id for s in sagas}) == 20
    assert [s.id for s in sagas if s.money] == ["money"]
    order = decks.saga_order(fresh(3), chance_of("7"))
    assert sorted(order) == sorted(s.id for s in sagas)


@pytest.mark.rules("noggin:1.0/invention-deck", "noggin:1.0/counting-house-deck")
def test_invention_and_counting_house_decks():
    """1.0: 11 Invention cards and 15 Counting House cards, each deck shuffled whole."""
    inv = [c.id for c in content.load().inventions.inventions]
    ch = [c.id for c in content.load().counting_house.cards]
    assert len(inv) == len(set(inv)) == 11
    assert len(ch) == len(set(ch)) == 15
    assert sorted(decks._invention_order(chance_of("7"))) == sorted(inv)
    assert sorted(decks._ch_order(chance_of("7"))) == sorted(ch)


@pytest.mark.rules("noggin:1.0/reserve-a", "noggin:1.0/reserve-b", "noggin:1.0/reserve-c")
def test_reserve_decks_sizes():
    """1.0: Reserve decks A, B and C hold 16, 19 and 19 cards; the game's decks have those sizes."""
    assert {d: len(content.reserve_ids(d)) for d in "ABC"} == {"A": 16, "B": 19, "C": 19}
    s = fresh(3)
    assert {d: s.reserve[d]["size"] for d in "ABC"} == {"A": 16, "B": 19, "C": 19}
    for d in "ABC":
        assert sorted(decks.reserve_order(s, chance_of("7"), d)) == sorted(content.reserve_ids(d))


@pytest.mark.rules("noggin:1.0/friend-or-foe-cards")
def test_eight_friend_or_foe_cards_and_one_accusation_each():
    """1.0 and variants: 8 Friend or Foe cards, one dealt to each of the 4 players in secret;
    each player has one Accusation card, so a second accusation is refused."""
    fof = content.load().characters.friend_or_foe
    assert fof.friends + fof.foes == 8
    s = scenario(4, options={"friend_or_foe": True})
    loyalty = s.secret["loyalty"]
    assert len(loyalty) == 4 and set(loyalty) <= {"noggin", "nogbad"}
    run(s, 0, {"type": "accuse", "seat": 1})
    assert s.players[0].accused
    with pytest.raises(IllegalMove, match="already played"):
        RULES.check(s, 0, {"type": "accuse", "seat": 2})
    s.active = 1  # seat 1's turn: its own card is still in hand
    RULES.check(s, 1, {"type": "accuse", "seat": 2})


@pytest.mark.rules("noggin:1.0/player-colours", "noggin:1.0/nogs-per-player")
@pytest.mark.parametrize("players", [2, 3, 4])
def test_four_colours_with_step_markers_and_sixteen_nogs(players):
    """1.0: 4 player colours, each with its large Step marker (all 4 on the track whatever the
    player count); 16 Nogs per player (10 on the Mountains space + 6 in reserve)."""
    assert content.load().setup.colours == ["red", "blue", "yellow", "green"]
    s = fresh(players)
    assert sorted(m.colour for m in s.markers) == ["blue", "green", "red", "yellow"]
    for p in s.players:
        assert p.colour == content.load().setup.colours[p.seat]
        assert p.mountains + p.reserve == 16


@pytest.mark.rules("noggin:1.0/mine-tiles")
def test_six_mine_tiles():
    """1.0: 6 Mine tiles: the starting tile and a face-down pile of 5."""
    tiles = content.load().mine.tiles
    assert len(tiles) == 6 and sum(t.start for t in tiles) == 1
    assert decks.mine_tiles_left(fresh(3)) == 5


@pytest.mark.rules("noggin:1.0/year1-tiles", "noggin:1.0/year2-tiles")
def test_building_tiles_eighteen_and_seventeen():
    """1.0: 18 Year 1 Building tiles and 17 Year 2 Building tiles."""
    assert len(content.year1_tiles()) == 18
    assert len(decks.year1_tiles(fresh(3))) == 18
    assert len(content.year2_tiles()) == 17
    assert not set(content.year1_tiles()) & set(content.year2_tiles())


@pytest.mark.rules("noggin:1.0/transport-tiles")
def test_twelve_transport_tiles_four_of_each():
    """1.0: 12 Transport tiles, 4 wood carts, 4 mine carts, 4 boats (all in play at 4 players)."""
    assert [t.id for t in content.load().transports.transports] == ["mine_cart", "wood_cart", "boat"]
    piles = fresh(4).transport_piles
    assert piles == {"mine_cart": 4, "wood_cart": 4, "boat": 4} and sum(piles.values()) == 12


@pytest.mark.rules("noggin:1.0/cubes")
def test_cubes_in_the_box():
    """1.0: Wood 38, Fish 30, Stone 20, Harvest 24, Gold 5: at 4 players every cube is in play."""
    assert totals(fresh(4)) == {"wood": 38, "fish": 30, "stone": 20, "harvest": 24, "gold": 5}


@pytest.mark.rules("noggin:1.0/fishing-tokens")
def test_ten_fishing_tokens_seven_fish_three_boots():
    """1.0: the bag holds 10 Fishing tokens, 7 with fish and 3 old boots; draws come from all 10."""
    tokens = content.load().fishing.tokens
    assert len(tokens) == 10
    assert sum(t.fish > 0 for t in tokens) == 7 and sum(t.fish == 0 for t in tokens) == 3
    s = fresh(3)
    seen = set()
    for k in range(10):
        s.fishing_draws = k
        drawn = decks.draw_fishing_tokens(s, chance_of("7"), 4)[0].data["tokens"]
        assert len({t["id"] for t in drawn}) == 4
        seen |= {t["id"] for t in drawn}
    assert seen == {t.id for t in tokens}


@pytest.mark.rules("noggin:1.0/coins")
def test_five_coins_come_with_the_money_saga():
    """1.0 and 6.6: 5 coin tokens; they reach the Nog Market when the Money Saga is completed."""
    assert content.load().setup.coins == 5
    s = scenario(3)
    a = next(c.id for c in content.load().reserve.decks["A"] if not c.nogbad)
    b = next(c.id for c in content.load().reserve.decks["B"] if not c.nogbad)
    c = next(c.id for c in content.load().reserve.decks["C"] if not c.nogbad)
    put_saga(s, 0, "money", [{"deck": "A", "card": a, "nogbad": False, "nogs": [1, 0, 0]},
                             {"deck": "B", "card": b, "nogbad": False, "nogs": [0, 1, 0]}])
    put_reserve(s, 0, ["stone"], deck="C", card=c)
    give(s, 0, stone=1)
    assert s.market["coin"] == 0
    events = run(s, 0, {"type": "market_day", "op": "saga", "saga": 0, "condition": 0, "nog": True,
                        "pay": ["stone"]})
    cleared = next(e for e in events if e.type == "SagaCleared").data
    assert cleared["coins"] == 5 and s.market["coin"] == 5 and s.coins


@pytest.mark.rules("noggin:1.0/characters")
def test_seven_characters_besides_nogbad():
    """1.0: 8 character tokens: 7 characters of Noggin's Castle, and Nogbad's apart."""
    ids = [c.id for c in content.load().characters.characters]
    assert ids == ["noggin", "nooka", "knut", "graculus", "thor", "olaf", "romf"]
    assert "nogbad" not in ids
    s = fresh(3)
    assert sorted(s.characters) == sorted(ids) and set(s.characters.values()) == {CASTLE}
