"""A Game of Gnomes, picking and selling mushrooms (a-game-of-gnomes-rulebook.txt C.2, C.3),
with the house rules on basket sizes (ambiguity 10), who grows what and the Sorcerer's price
(ambiguity 12), played through the forward model."""

from __future__ import annotations

import pytest

from services.rules.gnomes import geo, scoring
from services.rules.gnomes.state import mushroom_supply

from .helpers import (
    RULES,
    active,
    arrange,
    at,
    first,
    legal,
    new_game,
    play,
    refused,
    types,
)

BLUE_GROWERS = ("C", "D", "E", "F", "G", "H", "J", "K")
YELLOW_RED_VILLAGES = ("A", "B", "I", "L")
HOUSES = ("house_red", "house_yellow", "house_blue", "house_green")


# -- C.2 pick a mushroom ---------------------------------------------------------------------

@pytest.mark.rules("gnomes:C.2/pick-one", "gnomes:C.2/into-spare-slot", "gnomes:C.2/pick-one-week")
def test_a_pick_takes_one_mushroom_into_the_basket_for_one_week():
    """C.2: one mushroom leaves the gnome's location for a free slot of its basket, and the
    gnome timer moves on one week."""
    state, chance = new_game()
    site = at(state, "D")
    state.mushrooms[site] = ["blue", "blue"]
    arrange(state, 0, place=site, equipment=["small_basket", "tiny_rucksack"], basket=[])
    events = play(state, 0, {"type": "pick", "mushroom": "blue"}, chance)
    assert types(events) == ["MushroomPicked"]
    assert state.mushrooms[site] == ["blue"]
    assert state.players[0].basket == ["blue"]
    assert state.players[0].timer == 1
    play(state, 0, {"type": "pick", "mushroom": "blue"}, chance)
    assert site not in state.mushrooms
    assert state.players[0].basket == ["blue", "blue"]
    assert state.players[0].timer == 2


@pytest.mark.rules("gnomes:C.2/pick-example")
def test_blue_picks_a_yellow_mushroom_and_moves_his_timer_one_week():
    """C.2 example: Blue (seat 2) picks a yellow mushroom into his basket and his timer moves
    along one week."""
    state, chance = new_game()
    end_turns_until(state, chance, 2)
    home = state.players[2].place
    state.mushrooms[home] = ["yellow"]
    before = state.players[2].timer
    events = play(state, 2, {"type": "pick", "mushroom": "yellow"}, chance)
    assert first(events, "MushroomPicked").data["mushroom"] == "yellow"
    assert state.players[2].basket == ["yellow"]
    assert state.players[2].timer == before + 1
    assert home not in state.mushrooms


def end_turns_until(state, chance, seat):
    """End turns until it is ``seat``'s."""
    while active(state) != seat:
        play(state, active(state), {"type": "end_turn"}, chance)


@pytest.mark.rules("gnomes:C.2/pick-on-mountain")
def test_a_montane_king_is_picked_on_a_mountain_space():
    """C.2: mushrooms may be picked on a space of Gnome Mountain too (the Montane King on a
    snow space, B)."""
    state, chance = new_game()
    arrange(state, 0, place="n1")
    assert {"type": "pick", "mushroom": "king"} in legal(state, 0)
    play(state, 0, {"type": "pick", "mushroom": "king"}, chance)
    assert state.players[0].basket == ["king"]
    assert "n1" not in state.mushrooms


@pytest.mark.rules("gnomes:C.2/pick-needs-mushroom")
def test_no_mushroom_of_that_colour_here_no_pick():
    """C.2: a pick needs a mushroom at the gnome's location; another colour elsewhere does not do."""
    state, chance = new_game()
    arrange(state, 0, place=at(state, "D"))  # Descina has a blue mushroom only
    assert "no yellow mushroom" in refused(state, 0, {"type": "pick", "mushroom": "yellow"}, chance)
    arrange(state, 0, place=at(state, "A"))  # Amanita has none at set-up
    assert "C.2" in refused(state, 0, {"type": "pick", "mushroom": "blue"}, chance)
    assert not [m for m in legal(state, 0) if m["type"] == "pick"]


@pytest.mark.rules("gnomes:C.2/pick-needs-room", "gnomes:C.2/no-discarding")
def test_a_full_basket_refuses_a_pick_and_nothing_but_a_sale_empties_it():
    """C.2: the Tiny Basket full, no pick is allowed, and no move throws a carried mushroom
    away: every legal move keeps the basket unless it sells a mushroom (C.3)."""
    state, chance = new_game()
    site = at(state, "D")
    arrange(state, 0, place=site, basket=["yellow"], hand=["meadow", "forest", "nugget"])
    assert "basket is full" in refused(state, 0, {"type": "pick", "mushroom": "blue"}, chance)
    moves = legal(state, 0)
    assert any(m["type"] == "sell" for m in moves)
    for move in moves:
        trial = RULES.copy(state)
        events = play(trial, 0, move, chance)
        if trial.stage == "turns" and "MushroomSold" not in types(events):
            assert trial.players[0].basket == ["yellow"], move


@pytest.mark.rules("gnomes:C.2/amb10-basket-capacity")
def test_the_small_basket_holds_two_and_the_large_basket_three():
    """C.2, house rule (ambiguity 10): a Small Basket takes a second mushroom but not a third;
    a Large Basket takes a third but not a fourth."""
    state, chance = new_game()
    site = at(state, "D")
    state.mushrooms[site] = ["blue"] * 4
    arrange(state, 0, place=site, equipment=["small_basket"], basket=["red"])
    play(state, 0, {"type": "pick", "mushroom": "blue"}, chance)
    assert len(state.players[0].basket) == 2
    assert "basket is full" in refused(state, 0, {"type": "pick", "mushroom": "blue"}, chance)
    arrange(state, 0, equipment=["large_basket"])
    play(state, 0, {"type": "pick", "mushroom": "blue"}, chance)
    assert len(state.players[0].basket) == 3
    assert "basket is full" in refused(state, 0, {"type": "pick", "mushroom": "blue"}, chance)


@pytest.mark.rules("gnomes:C.2/one-montane-king")
def test_only_one_montane_king_a_game_even_after_selling_it():
    """C.2: a player picks at most one Montane King in the whole game; selling the first does
    not allow a second, while another player may still pick one."""
    state, chance = new_game()
    arrange(state, 0, place="n1")
    play(state, 0, {"type": "pick", "mushroom": "king"}, chance)
    arrange(state, 0, place=at(state, "D"))
    play(state, 0, {"type": "sell", "mushroom": "king", "gem": "white"}, chance)
    assert state.players[0].basket == []
    arrange(state, 0, place="n2")
    assert "only one Montane King" in refused(state, 0, {"type": "pick", "mushroom": "king"}, chance)
    play(state, 0, {"type": "end_turn"}, chance)
    arrange(state, 1, place="n2")
    play(state, 1, {"type": "pick", "mushroom": "king"}, chance)
    assert state.players[1].basket == ["king"]


# -- C.3 sell a mushroom ---------------------------------------------------------------------

@pytest.mark.rules("gnomes:C.3/sell-where")
def test_mushrooms_sell_only_at_a_village_or_the_tower():
    """C.3: a shop, a gnome house and a mountain space buy nothing; a village and the
    Sorcerer's tower do."""
    state, chance = new_game()
    for place in (at(state, "market_meadow"), at(state, "house_yellow"), "g1"):
        arrange(state, 0, place=place, basket=["blue"])
        assert "village or the Sorcerer's tower" in refused(
            state, 0, {"type": "sell", "mushroom": "blue", "gem": "brown"}, chance)
    arrange(state, 0, place=at(state, "A"))
    play(state, 0, {"type": "sell", "mushroom": "blue", "gem": "brown"}, chance)
    arrange(state, 0, place="tower", basket=["blue"])
    play(state, 0, {"type": "sell", "mushroom": "blue", "gem": "brown"}, chance)
    assert state.players[0].gems["brown"] == 2


@pytest.mark.rules("gnomes:C.3/border-colours", "gnomes:C.3/blue-border", "gnomes:C.3/red-yellow-border",
                   "gnomes:C.3/buys-what-does-not-grow")
def test_a_blue_border_buys_blue_and_a_red_yellow_border_buys_red_and_yellow():
    """C.3: Amanita (blue border) buys blue and refuses yellow and red; Descina (red and yellow
    border) buys yellow and red and refuses blue, the colour growing there."""
    state, chance = new_game()
    amanita, descina = at(state, "A"), at(state, "D")
    arrange(state, 0, place=amanita, equipment=["large_basket"], basket=["blue", "red", "yellow"])
    for colour in ("yellow", "red"):
        assert "does not buy" in refused(state, 0, {"type": "sell", "mushroom": colour, "gem": "brown"}, chance)
    play(state, 0, {"type": "sell", "mushroom": "blue", "gem": "brown"}, chance)
    arrange(state, 0, place=descina, basket=["blue", "red", "yellow"])
    assert "grows blue" in refused(state, 0, {"type": "sell", "mushroom": "blue", "gem": "brown"}, chance)
    play(state, 0, {"type": "sell", "mushroom": "yellow", "gem": "brown"}, chance)
    play(state, 0, {"type": "sell", "mushroom": "red", "gem": "green"}, chance)
    assert state.players[0].basket == ["blue"]
    view = RULES.view(state, 0)["places"]
    assert view[amanita]["buys"] == ["blue"] and view[descina]["buys"] == ["red", "yellow"]


@pytest.mark.rules("gnomes:C.3/who-grows-blue", "gnomes:C.3/who-grows-yellow-red")
def test_which_villages_grow_blue_and_which_grow_yellow_and_red():
    """C.3, house rule: Calvatia to Kolus (C-H, J, K) grow blue, get set-up's blue mushrooms and
    buy red and yellow; Amanita, Boletus, Inocybe, Lactarius and the houses grow yellow and red,
    and those villages buy blue."""
    state, _ = new_game()
    grows, buys = geo.grows(), geo.village_buys()
    for v in BLUE_GROWERS:
        assert grows[v] == ("blue",) and buys[v] == {"red", "yellow"}
        assert state.mushrooms[at(state, v)] == ["blue"]
    for v in YELLOW_RED_VILLAGES:
        assert set(grows[v]) == {"yellow", "red"} and buys[v] == {"blue"}
        assert at(state, v) not in state.mushrooms
    for h in HOUSES:
        assert set(grows[h]) == {"yellow", "red"} and h not in buys


@pytest.mark.rules("gnomes:C.3/sorcerer-any-colour", "gnomes:C.3/amb12-sorcerer-pays-brown")
def test_the_sorcerer_buys_every_colour_for_a_brown_gem_from_the_supply():
    """C.3: the Sorcerer buys blue, yellow, red and a Montane King; house rule (ambiguity 12): he
    pays one brown gem from the supply each time, never another colour, and never runs out."""
    state, chance = new_game()
    arrange(state, 0, place="tower", equipment=["large_basket"], basket=["blue", "red", "yellow"])
    gems_on_board = {k: dict(v) for k, v in state.gems.items()}
    assert "pays one brown" in refused(state, 0, {"type": "sell", "mushroom": "red", "gem": "white"}, chance)
    for colour in ("blue", "red", "yellow"):
        play(state, 0, {"type": "sell", "mushroom": colour, "gem": "brown"}, chance)
    arrange(state, 0, basket=["king"])
    play(state, 0, {"type": "sell", "mushroom": "king", "gem": "brown"}, chance)
    assert state.players[0].gems == {"brown": 4, "green": 0, "white": 0}
    assert state.gems == gems_on_board


@pytest.mark.rules("gnomes:C.3/one-gem-per-mushroom", "gnomes:C.3/gem-kept", "gnomes:C.3/gem-worth")
def test_each_mushroom_sold_earns_one_gem_from_the_village():
    """C.3: every sale moves exactly one gem from the village to the seller, who keeps it; two
    sales bring two gems worth 3 + 2 (B gems)."""
    state, chance = new_game()
    site = at(state, "D")
    arrange(state, 0, place=site, equipment=["small_basket"], basket=["yellow", "red"])
    play(state, 0, {"type": "sell", "mushroom": "yellow", "gem": "white"}, chance)
    assert state.gems["D"] == {"brown": 1, "green": 1, "white": 0}
    assert state.players[0].gems == {"brown": 0, "green": 0, "white": 1}
    play(state, 0, {"type": "sell", "mushroom": "red", "gem": "green"}, chance)
    assert state.gems["D"] == {"brown": 1, "green": 0, "white": 0}
    assert state.players[0].gems == {"brown": 0, "green": 1, "white": 1}
    assert scoring.breakdown(state)[0]["gems"] == 5


@pytest.mark.rules("gnomes:C.3/take-the-best")
def test_the_seller_chooses_the_gem():
    """C.3: the seller picks any gem left at the location (the best is the white); the one
    chosen is the one taken."""
    state, chance = new_game()
    site = at(state, "D")
    arrange(state, 0, place=site, basket=["yellow"])
    sells = [m for m in legal(state, 0) if m["type"] == "sell"]
    assert sorted(m["gem"] for m in sells) == ["brown", "green", "white"]
    play(state, 0, {"type": "sell", "mushroom": "yellow", "gem": "brown"}, chance)
    assert state.gems["D"] == {"brown": 0, "green": 1, "white": 1}
    arrange(state, 0, basket=["red"])
    assert "no brown gem" in refused(state, 0, {"type": "sell", "mushroom": "red", "gem": "brown"}, chance)


@pytest.mark.rules("gnomes:C.3/no-gem-no-sale", "gnomes:C.3/empty-village-closed")
def test_a_village_without_gems_buys_nothing_more():
    """C.3: three sales empty a village of its three gems; then it buys no more mushrooms, of
    any colour it used to buy."""
    state, chance = new_game()
    site = at(state, "D")
    arrange(state, 0, place=site, equipment=["large_basket"], basket=["yellow", "yellow", "red"])
    for gem in ("white", "green", "brown"):
        play(state, 0, {"type": "sell", "mushroom": state.players[0].basket[0], "gem": gem}, chance)
    assert state.gems["D"] == {"brown": 0, "green": 0, "white": 0}
    arrange(state, 0, basket=["yellow", "red"])
    for colour in ("yellow", "red"):
        for gem in ("white", "brown"):
            assert "no buyer, no sale" in refused(state, 0, {"type": "sell", "mushroom": colour, "gem": gem},
                                                  chance)
    assert not [m for m in legal(state, 0) if m["type"] == "sell"]


@pytest.mark.rules("gnomes:C.3/sold-aside", "gnomes:C.3/sell-no-time")
def test_a_sold_mushroom_goes_beside_the_board_and_selling_takes_no_time():
    """C.3: the sold mushroom is not put on the village but back beside the board (the wooden
    supply grows by one), and the gnome timer does not move."""
    state, chance = new_game()
    site = at(state, "D")
    arrange(state, 0, place=site, timer=3, basket=["yellow"])
    supply = mushroom_supply(state, "yellow")
    play(state, 0, {"type": "sell", "mushroom": "yellow", "gem": "white"}, chance)
    assert state.mushrooms[site] == ["blue"]
    assert mushroom_supply(state, "yellow") == supply + 1
    assert state.players[0].timer == 3


@pytest.mark.rules("gnomes:C.3/sell-example")
def test_blue_sells_at_a_village_and_takes_the_white_gem():
    """C.3 example: Blue (seat 2) sells a mushroom at a village, takes its white gem, worth the
    most, and the mushroom is set aside."""
    state, chance = new_game()
    end_turns_until(state, chance, 2)
    arrange(state, 2, place=at(state, "J"), basket=["yellow"])
    events = play(state, 2, {"type": "sell", "mushroom": "yellow", "gem": "white"}, chance)
    sold = first(events, "MushroomSold").data
    assert (sold["at"], sold["gem"], sold["from"]) == ("J", "white", "J")
    assert state.players[2].gems["white"] == 1 and state.gems["J"]["white"] == 0
    assert state.players[2].basket == []
    assert "yellow" not in state.mushrooms.get(at(state, "J"), [])


@pytest.mark.rules("gnomes:C.3/montane-king-sale", "gnomes:C.3/golden-mushroom", "gnomes:C.3/golden-eight",
                   "gnomes:C.3/king-any-village")
def test_a_montane_king_sells_for_a_gem_and_a_golden_mushroom_worth_8():
    """C.3: a Montane King sells like any mushroom, one gem from the village (house rule: any
    village buys it, blue-border or not), and brings a golden mushroom token scoring 8 (H)."""
    state, chance = new_game()
    for seat, tile in ((0, "A"), (1, "D")):
        if seat:
            end_turns_until(state, chance, seat)
        arrange(state, seat, place=at(state, tile), basket=["king"])
        before = scoring.breakdown(state)[seat]
        events = play(state, seat, {"type": "sell", "mushroom": "king", "gem": "white"}, chance)
        assert first(events, "MushroomSold").data["mushroom"] == "king"
        p = state.players[seat]
        assert p.golden == 1 and p.gems["white"] == 1 and p.basket == []
        assert state.gems[tile]["white"] == 0
        after = scoring.breakdown(state)[seat]
        assert after["golden"] == 8 and after["total"] == before["total"] + 8 + 3


@pytest.mark.rules("gnomes:C.3/variant-tower-gems")
def test_variant_j_the_sorcerer_pays_with_the_towers_gems_until_none_are_left():
    """C.3 with variant J (house rule): the Sorcerer pays with one of the tower's own gems, the
    seller's choice, and with none left he buys nothing."""
    state, chance = new_game(gem_variant=True)
    state.gems["tower"] = {"brown": 0, "green": 1, "white": 1}
    arrange(state, 0, place="tower", equipment=["large_basket"], basket=["blue", "red", "yellow"])
    assert "no brown gem" in refused(state, 0, {"type": "sell", "mushroom": "blue", "gem": "brown"}, chance)
    play(state, 0, {"type": "sell", "mushroom": "blue", "gem": "white"}, chance)
    play(state, 0, {"type": "sell", "mushroom": "red", "gem": "green"}, chance)
    assert state.gems["tower"] == {"brown": 0, "green": 0, "white": 0}
    assert state.players[0].gems == {"brown": 0, "green": 1, "white": 1}
    assert "no buyer, no sale" in refused(state, 0, {"type": "sell", "mushroom": "yellow", "gem": "brown"}, chance)
