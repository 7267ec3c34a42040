"""Variants (rulebook, Variants): chosen when the game is created, each changing set-up or a rule."""

from collections import Counter

import pytest

from services.coordinator.table import embedded_table
from services.rules.core import GameConfig, IllegalMove
from services.rules.core.errors import BadConfig
from services.rules.noggin import content
from services.rules.noggin.decks import saga_order, year1_tiles

from .helpers import (
    RULES,
    chance_of,
    give,
    normal_turn,
    put_reserve,
    put_saga,
    resolve_ops,
    run,
    run_phase,
    scenario,
    types,
)


def _setup_events(players, options, seed="7"):
    """A state right after set-up with ``options`` and every event of the set-up."""
    state = RULES.new_state()
    config = GameConfig(game="noggin", players=players, options=options)
    created = RULES.created_event(config)
    RULES.evolve(state, created)
    return state, [created, *resolve_ops(state, RULES.setup_ops(config), seed)]


# -- chosen at creation --------------------------------------------------------------------

@pytest.mark.rules("noggin:variants/chosen-at-creation")
def test_variants_are_fixed_in_the_game_created_event():
    """Variants: the players agree on the variants before the game; they are switched on at
    creation, written in its first event and in force from the set-up (Move on here)."""
    t = embedded_table()
    g = t.create(GameConfig(game="noggin", players=3, options={"move_on": True, "sos": True}), seed="3")
    first = t.store.read(g)[0].events[0]
    assert first.type == "GameCreated"
    assert first.data["config"]["options"] == {"move_on": True, "sos": True}
    _, state, _ = t.state(g)
    assert state.config["options"] == {"move_on": True, "sos": True} and state.dragon == 3 - 1


@pytest.mark.rules("noggin:variants/chosen-at-creation")
@pytest.mark.parametrize("options, message", [
    ({"free_parking": True}, "unknown option"),
    ({"sos": "yes"}, "switched on with true or off with false"),
])
def test_unknown_or_malformed_variants_are_refused_at_creation(options, message):
    """Variants: only the rulebook's variants exist, each on (true) or off (false)."""
    t = embedded_table()
    with pytest.raises(BadConfig, match=message):
        t.create(GameConfig(game="noggin", players=3, options=options), seed="3")


# -- set-up variants -----------------------------------------------------------------------

def _edge(tile_rows):
    """True if the tile's Gold square is on its rim (some orientation puts it on the bottom row)."""
    for i, row in enumerate(tile_rows):
        for j, ch in enumerate(row):
            if ch == "A":
                return i in (0, 3) or j in (0, 3)
    return None


@pytest.mark.rules("noggin:variants/another-train")
def test_another_train_first_mine_tile_is_random_with_its_gold_deep():
    """Variants, Another Train: the first Mine tile is drawn at random and placed with its Gold
    as far as possible from the starting row: the bottom row of the tile (row 3) when the
    nugget lies on the tile's rim, row 2 when it is inside (a 4x4 turn or flip keeps inner
    squares inside). Its galleries take Stone from the 12 of the starting tile, the rest of
    the 20 goes to the Nog Market (house rule another-train-stone)."""
    tiles = {t.id: t for t in content.load().mine.tiles}
    seen = set()
    for seed in map(str, range(1, 13)):
        s, events = _setup_events(3, {"another_train": True}, seed)
        placed = next(e for e in events if e.type == "FirstMineTilePlaced").data
        seen.add(placed["tile"])
        assert s.mine_first == placed["tile"] and s.mine_tiles[0]["tile"] == placed["tile"]
        if placed["gold"] is not None:
            assert placed["gold"][0] == (3 if _edge(tiles[placed["tile"]].rows) else 2)
            assert s.mine[f"{placed['gold'][0]},{placed['gold'][1]}"] == "gold" and s.gold_supply == 4
        stone = sum(1 for v in s.mine.values() if v == "stone")
        assert stone + s.market["stone"] == 20
    assert len(seen) >= 3 and seen - {"start"}  # drawn at random, not always the starting tile
    base, events = _setup_events(3, {})
    assert "FirstMineTilePlaced" not in types(events) and base.mine_first == "start"


@pytest.mark.rules("noggin:variants/arrival")
@pytest.mark.parametrize("players", [2, 3, 4])
def test_arrival_fields_start_empty_orchards_with_two_trees(players):
    """Variants, Arrival: no Harvest on the fields' labourers at the start, 2 trees in each
    Orchard (house rule arrival-harvest-boxed: the Nog Market still gets its 2 per player)."""
    s = scenario(players, options={"arrival": True})
    assert all(p.fields == [0, 0] and p.orchard == 2 for p in s.players)
    assert s.market["harvest"] == 2 * players
    base = scenario(players)
    assert all(p.fields == [2, 2] for p in base.players)


@pytest.mark.rules("noggin:variants/money-money-money")
def test_money_money_money_puts_the_money_saga_in_the_top_four():
    """Variants, Money Money Money: 3 Saga cards drawn at random and the Money Saga are shuffled
    together on top of the Saga deck, so the Money Saga is always among the first 4 cards (at
    a random place among them); the deck still holds all 20."""
    sagas = content.load().sagas.sagas
    money = next(x.id for x in sagas if x.money)
    s = scenario(3, options={"money_money_money": True})
    places, shown = Counter(), 0
    for seed in map(str, range(40)):
        order = saga_order(s, chance_of(seed))
        assert sorted(order) == sorted(x.id for x in sagas)
        places[order.index(money)] += 1
        t, _ = _setup_events(3, {"money_money_money": True}, seed)
        shown += money in [x.card for x in t.sagas]
        assert [x.card for x in t.sagas] == order[:2]
    assert set(places) == {0, 1, 2, 3}
    assert shown > 0
    base = scenario(3)
    assert any(saga_order(base, chance_of(str(k))).index(money) >= 4 for k in range(40))


@pytest.mark.rules("noggin:variants/move-on")
@pytest.mark.parametrize("players", [2, 3, 4])
def test_move_on_dragon_starts_one_space_nearer_the_crown(players):
    """Variants, Move on: the Dragon starts one space closer to the crown than the usual one
    space per player (set-up I)."""
    assert scenario(players, options={"move_on": True}).dragon == players - 1
    assert scenario(players).dragon == players


@pytest.mark.rules("noggin:variants/you-owe-me-one")
@pytest.mark.parametrize("players, each", [(2, 1), (3, 2), (4, 3)])
def test_you_owe_me_one_one_tile_fewer_than_players(players, each):
    """Variants, You Owe Me One: each Transport pile and each Year 1 building kind has one tile
    fewer than the players (house rule you-owe-me-one-year1: at most the 3 that exist)."""
    s = scenario(players, options={"you_owe_me_one": True})
    assert s.transport_piles == {"mine_cart": players - 1, "wood_cart": players - 1, "boat": players - 1}
    kinds = Counter(year1_tiles(s))
    assert set(kinds.values()) == {each} and len(kinds) == 6
    shown = Counter(s.rows["bottom"] + s.rows["top"])
    assert all(shown[k] <= each for k in kinds)
    base = scenario(players)
    assert base.transport_piles["boat"] == players and set(Counter(year1_tiles(base)).values()) == {3}


# -- Friend or Foe -------------------------------------------------------------------------

@pytest.mark.rules("noggin:variants/friend-or-foe-four-players")
@pytest.mark.parametrize("players", [2, 3])
def test_friend_or_foe_needs_four_players(players):
    """Variants, One of us? Friend or Foe?: played by 4 players only."""
    t = embedded_table()
    with pytest.raises(BadConfig, match="4 players only"):
        t.create(GameConfig(game="noggin", players=players, options={"friend_or_foe": True}), seed="1")
    t.create(GameConfig(game="noggin", players=4, options={"friend_or_foe": True}), seed="1")


@pytest.mark.rules("noggin:variants/friend-or-foe-deal")
def test_friend_or_foe_one_secret_card_per_player():
    """Variants: the 8 Friend or Foe cards are shuffled and one dealt to each player, who alone
    sees it (a private event per seat; each view shows only its own card)."""
    deck = content.load().characters.friend_or_foe
    assert deck.friends + deck.foes == 8
    foes = Counter()
    for seed in map(str, range(12)):
        s, events = _setup_events(4, {"friend_or_foe": True}, seed)
        dealt = [e for e in events if e.type == "LoyaltyDealt"]
        assert [(e.data["seat"], e.to) for e in dealt] == [(0, 0), (1, 1), (2, 2), (3, 3)]
        cards = [e.data["card"] for e in dealt]
        assert set(cards) <= {"noggin", "nogbad"} and cards.count("nogbad") <= deck.foes
        assert s.secret["loyalty"] == cards
        for seat in range(4):
            assert RULES.view(s, seat)["my_loyalty"] == cards[seat]
        assert RULES.view(s, None)["my_loyalty"] is None
        foes[cards.count("nogbad")] += 1
    assert len(foes) > 1  # the deal is random
    _, events = _setup_events(4, {})
    assert "LoyaltyDealt" not in types(events)


def _fof(seat=0, loyalty=("noggin", "nogbad", "noggin", "nogbad")):
    s = scenario(4, season=2, seat=seat, options={"friend_or_foe": True})
    s.secret["loyalty"] = list(loyalty)
    return s


def _nogbad_crowned(s):
    """The Crow one space from the crown at the end of season 8: Nogbad takes it (9.0)."""
    normal_turn(s, 0, [80, 82, 83, 84])
    s.season, s.active, s.crow = 8, None, 1
    run_phase(s)
    return RULES.outcome(s)


def _noggin_crowned(s):
    """A Saga finishes with 1 Nog while the Dragon is 1 space from the crown (6.4, 9.0)."""
    normal_turn(s, 0, [10, 16, 17, 18])
    s.dragon = 1
    put_saga(s, 0, "the_stranger", done=[{"deck": "A", "card": "A09", "nogbad": False, "nogs": [1, 0, 0, 0]}])
    put_reserve(s, 0, ["stone", "food"], deck="C", card="C14")
    give(s, 0, stone=1, fish=1)
    run(s, 0, {"type": "market_day", "op": "saga", "saga": 0, "condition": 0, "nog": False, "pay": ["stone"]})
    run(s, 0, {"type": "market_day", "op": "saga", "saga": 0, "condition": 1, "nog": False, "pay": ["fish"]})
    out = RULES.outcome(s)
    assert out["crown"] == "noggin"
    return out


@pytest.mark.rules("noggin:variants/friend-or-foe-foe-wins-with-nogbad")
def test_nogbad_cards_win_only_when_nogbad_takes_the_crown():
    """Variants: a player holding Nogbad wins only if Nogbad takes the crown (then every such
    player wins, whatever the score); when Noggin keeps it the foe cannot win even with the
    highest score, and the best friend is elected."""
    s = _fof()
    for seat, score in enumerate((20, 50, 30, 5)):
        s.players[seat].score = score
    out = _nogbad_crowned(s)
    assert out["winners"] == [1, 3] and out["loyalty"] == ["noggin", "nogbad", "noggin", "nogbad"]
    t = _fof()
    for seat, score in enumerate((20, 50, 30, 5)):
        t.players[seat].score = score
    out = _noggin_crowned(t)
    assert out["winners"] == [2] and out["council_of_elders"] == [2]
    assert max(out["scores"]) == out["scores"][1]  # the foe had the most points


@pytest.mark.rules("noggin:variants/accusation-once", "noggin:variants/accusation-wrong")
def test_a_wrong_accusation_loses_ten_and_the_card_is_spent():
    """Variants: the Accusation card is played once, as a free action; accusing a friend loses
    10 points (and shows the accused's card); afterwards no second accusation is possible."""
    s = _fof(seat=2)
    pos = s.markers[2].pos
    events = run(s, 2, {"type": "accuse", "seat": 0})
    assert types(events) == ["Accused", "PointsScored"]
    assert events[0].data == {"seat": 2, "accused": 0, "card": "noggin", "right": False}
    assert events[1].data["points"] == -10 and s.players[2].score == -10
    assert s.players[2].accused and not s.players[0].unmasked and s.markers[2].pos == pos
    with pytest.raises(IllegalMove, match="already played"):
        RULES.check(s, 2, {"type": "accuse", "seat": 1})
    assert not any(m["type"] == "accuse" for m in RULES.legal_moves(s, 2))


@pytest.mark.rules("noggin:variants/accusation-right", "noggin:variants/accusation-once")
def test_unmasking_a_foe_scores_ten_and_makes_it_a_friend():
    """Variants: accusing a Nogbad holder scores 10 and unmasks it; from then on it plays as a
    friend: it no longer wins with Nogbad, and may win if Noggin keeps the crown. Each player
    has an Accusation card of its own."""
    s = _fof(seat=2)
    events = run(s, 2, {"type": "accuse", "seat": 1})
    assert events[0].data["right"] is True and events[1].data["points"] == 10
    assert s.players[1].unmasked and s.players[2].score == 10
    normal_turn(s, 3, [16, 17, 15, 10])
    with pytest.raises(IllegalMove, match="already unmasked"):
        RULES.check(s, 3, {"type": "accuse", "seat": 1})
    RULES.check(s, 3, {"type": "accuse", "seat": 0})  # seat 3 still holds its own card
    out = _nogbad_crowned(s)
    assert out["winners"] == [3]  # the unmasked seat 1 no longer wins with Nogbad
    t = _fof(seat=2)
    run(t, 2, {"type": "accuse", "seat": 1})
    for seat, score in enumerate((20, 50, 30, 5)):
        t.players[seat].score = score
    out = _noggin_crowned(t)
    assert out["winners"] == [1]  # now a friend, with the most points


@pytest.mark.rules("noggin:variants/accusation-once")
def test_no_accusation_without_the_variant():
    """Variants: Accusation cards belong to Friend or Foe."""
    s = scenario(4, season=2)
    with pytest.raises(IllegalMove, match="Friend or Foe variant"):
        RULES.check(s, 0, {"type": "accuse", "seat": 1})


# -- rule variants -------------------------------------------------------------------------

@pytest.mark.rules("noggin:variants/so-long")
def test_so_long_cut_orchard_trees_are_never_replanted():
    """Variants, So Long (house rule so-long-no-replanting): a Restock puts no tree back in an
    Orchard; the forest is restocked as usual. Without the variant the Orchard is replanted."""
    for so_long in (True, False):
        s = scenario(3, season=2, options={"so_long": True} if so_long else {})
        run(s, 0, {"type": "woodcutter", "op": "orchard"})
        run(s, 0, {"type": "finish"})
        assert s.players[0].orchard == 1 and s.players[0].orchard_cut
        s.forest[0] -= 4
        s.market["wood"] += 4
        refill = {"type": "restock", "kind": "trees", "amount": 4, "orchard": 1}
        if so_long:
            with pytest.raises(IllegalMove, match="So Long"):
                RULES.check(s, 0, refill)
            run(s, 0, {**refill, "orchard": 0})
            assert s.players[0].orchard == 1 and sum(s.forest) == 25
        else:
            run(s, 0, refill)
            assert s.players[0].orchard == 2 and sum(s.forest) == 24


THOR = {"type": "market_day", "op": "character", "character": "thor", "direction": 1}


@pytest.mark.rules("noggin:variants/sos")
def test_sos_character_abilities_need_no_food():
    """Variants, S.O.S.: on Market Day a character's ability needs no Food; without the
    variant it costs 1 Food (6.1)."""
    s = scenario(3, season=2, options={"sos": True})
    assert all(s.players[0].stock[f] == 0 for f in ("fish", "harvest"))
    events = run(s, 0, {**THOR, "pay": []})
    assert next(e for e in events if e.type == "CharacterUsed").data["paid"] == []
    assert s.wheel == 1 and s.markers[0].pos == 11
    t = scenario(3, season=2, options={"sos": True})
    give(t, 0, fish=1)
    with pytest.raises(IllegalMove, match="takes 0 cube"):
        RULES.check(t, 0, {**THOR, "pay": ["fish"]})
    base = scenario(3, season=2)
    with pytest.raises(IllegalMove, match="cannot pay a character's ability|takes 1 cube"):
        RULES.check(base, 0, {**THOR, "pay": []})
    with pytest.raises(IllegalMove, match="cannot pay"):
        RULES.check(base, 0, THOR)
