"""A Game of Gnomes, the Sorcerer's quests (a-game-of-gnomes-rulebook.txt C.7, the quest
cards and their example card), with the house rules on the quest deck, the display and
what counts as doing a task, played through the forward model."""

from __future__ import annotations

import pytest

from services.rules.gnomes import scoring
from services.rules.gnomes.state import quests

from .helpers import (
    RULES,
    arrange,
    at,
    finish_round,
    first,
    legal,
    new_game,
    play,
    refused,
    types,
)

ALL_QUESTS = ("cross_the_lake", "forest_fete_item", "hillview_hut_item", "market_meadow_item", "reach_the_summit",
              "red_for_gems", "visit_a_house")


def display(state, shown, deck=None):
    """Lay ``shown`` face up at the tower; the rest (or ``deck``) make the quest draw pile."""
    state.quests = list(shown)
    state.quest_deck = sorted(q for q in ALL_QUESTS if q not in shown) if deck is None else sorted(deck)


def stock(state, shop, cards):
    """Put ``cards`` on offer at ``shop`` (the old stock back into the shop item deck)."""
    deck = state.secret["shop_deck"]
    for c in state.shops[shop]:
        deck[c] = deck.get(c, 0) + 1
    for c in cards:
        if deck.get(c):
            deck[c] -= 1
            if not deck[c]:
                del deck[c]
    state.shops[shop] = list(cards)


def take(state, seat, quest, chance, **kw):
    """Put ``seat`` at the tower and accept ``quest``; returns the events."""
    arrange(state, seat, place="tower")
    return play(state, seat, {"type": "quest", "quest": quest, **kw}, chance)


def sell(state, seat, tile, colour, chance):
    arrange(state, seat, place=at(state, tile), basket=[colour])
    return play(state, seat, {"type": "sell", "mushroom": colour, "gem": "brown"}, chance)


@pytest.mark.rules("gnomes:C.7/quest-at-tower", "gnomes:C.7/take-face-up", "gnomes:C.7/reward-up-front",
                   "gnomes:C.7/quest-no-time", "gnomes:C.7/refill-display")
def test_a_quest_is_taken_at_the_tower_paid_at_once_and_replaced_on_display():
    """C.7: away from the tower no quest can be taken; there a face-up quest goes face up before
    the player (others see it), its 4 brown gems are paid at once, no time passes, and the
    display is refilled from the quest pile."""
    state, chance = new_game()
    display(state, ["cross_the_lake", "visit_a_house", "red_for_gems"])
    arrange(state, 0, place=at(state, "E"), timer=3)
    assert "Sorcerer's tower" in refused(state, 0, {"type": "quest", "quest": "red_for_gems"}, chance)
    events = take(state, 0, "red_for_gems", chance)
    assert types(events) == ["QuestAccepted", "QuestsDrawn"]
    p = state.players[0]
    assert p.quest == "red_for_gems" and p.gems["brown"] == 4 and p.timer == 3
    assert RULES.view(state, 1)["players"][0]["quest"] == "red_for_gems"
    new = first(events, "QuestsDrawn").data["quests"]
    assert len(new) == 1 and new[0] not in ("cross_the_lake", "visit_a_house", "red_for_gems")
    assert len(state.quests) == 3 and "red_for_gems" not in state.quests
    assert len(state.quest_deck) == 3


@pytest.mark.rules("gnomes:C.7/refill-display")
def test_with_the_quest_pile_empty_the_display_stays_short():
    """C.7: the taken quest is replaced only if the draw pile has one."""
    state, chance = new_game()
    display(state, ["cross_the_lake", "visit_a_house", "red_for_gems"], deck=[])
    events = take(state, 0, "visit_a_house", chance)
    assert types(events) == ["QuestAccepted"]
    assert state.quests == ["cross_the_lake", "red_for_gems"]


@pytest.mark.rules("gnomes:C.7/one-quest-at-a-time", "gnomes:C.7/no-discarding-quests")
def test_a_held_quest_blocks_another_and_cannot_be_thrown_away():
    """C.7: holding a quest, the player may take no other; and no move sheds it without doing
    its task, nor does the end of the round."""
    state, chance = new_game()
    display(state, ["cross_the_lake", "visit_a_house", "red_for_gems"])
    take(state, 0, "cross_the_lake", chance)
    assert "one quest at a time" in refused(state, 0, {"type": "quest", "quest": "visit_a_house"}, chance)
    arrange(state, 0, hand=["forest", "meadow", "nugget", "double_forest"], basket=["red"])
    moves = legal(state, 0)
    assert not [m for m in moves if m["type"] == "quest"]
    for move in moves:
        trial = RULES.copy(state)
        events = play(trial, 0, move, chance)
        assert "QuestCompleted" not in types(events)
        assert trial.players[0].quest == "cross_the_lake", move
    finish_round(state, chance)
    assert state.players[0].quest == "cross_the_lake"


@pytest.mark.rules("gnomes:C.7/requirement", "gnomes:C.7/completed-discarded", "gnomes:C.7/new-quest-after",
                   "gnomes:C.7/quest-red-exidea-hydnum")
def test_doing_the_task_discards_the_quest_and_frees_the_player_for_another():
    """C.7: the red-for-gems quest pays 4 brown gems; selling red in Kolus does not do it, selling
    red in Hydnum does: the card leaves the player's display for the discards, and the player
    may then take another quest at the tower."""
    state, chance = new_game()
    display(state, ["cross_the_lake", "visit_a_house", "red_for_gems"])
    take(state, 0, "red_for_gems", chance)
    assert "QuestCompleted" not in types(sell(state, 0, "K", "red", chance))
    assert state.players[0].quest == "red_for_gems"
    events = sell(state, 0, "H", "red", chance)
    assert first(events, "QuestCompleted").data["quest"] == "red_for_gems"
    p = state.players[0]
    assert p.quest is None and state.quest_discard == ["red_for_gems"] and p.quests_done == ["red_for_gems"]
    assert scoring.breakdown(state)[0]["quest"] == 0
    take(state, 0, "visit_a_house", chance)
    assert state.players[0].quest == "visit_a_house"


@pytest.mark.rules("gnomes:C.7/example-card", "gnomes:C.7/penalty")
def test_the_summit_quest_pays_5_brown_and_costs_10_if_not_done():
    """C.7 example card: reaching the summit pays 5 brown gems up front; not done by the end it
    costs 10 points (H), other quests 5; climbing onto the summit with a map does it."""
    state, chance = new_game()
    display(state, ["reach_the_summit", "visit_a_house", "red_for_gems"])
    take(state, 0, "reach_the_summit", chance)
    assert state.players[0].gems["brown"] == 5
    row = scoring.breakdown(state)[0]
    assert row["quest"] == -10 and row["total"] == 5 - 10
    assert {q.id: q.penalty for q in quests().values() if q.id != "reach_the_summit"} == {
        q: 5 for q in ALL_QUESTS if q != "reach_the_summit"}
    arrange(state, 0, place="r1", equipment=["tiny_basket", "map_r1_n1"])
    events = play(state, 0, {"type": "climb", "map": "map_r1_n1", "to": "n1"}, chance)
    assert first(events, "QuestCompleted").data["quest"] == "reach_the_summit"
    assert scoring.breakdown(state)[0]["quest"] == 0


@pytest.mark.rules("gnomes:C.7/quest-market-meadow")
def test_the_market_meadow_quest_gives_an_item_but_no_treasure_and_wants_yellow_in_descina_or_jafnea():
    """C.7: the reward is one item of the Market Meadow Shop's (not a treasure); selling yellow
    in Calvatia does not do the task, selling it in Jafnea does; the penalty is 5."""
    state, chance = new_game()
    display(state, ["market_meadow_item", "visit_a_house", "red_for_gems"])
    stock(state, "market_meadow", ["acorn_cup", "compass", "spare_key", "small_basket"])
    arrange(state, 0, place="tower")
    assert "treasure excluded" in refused(
        state, 0, {"type": "quest", "quest": "market_meadow_item", "item": "acorn_cup"}, chance)
    assert "name one of" in refused(state, 0, {"type": "quest", "quest": "market_meadow_item"}, chance)
    events = take(state, 0, "market_meadow_item", chance, item="compass")
    assert first(events, "QuestRewardTaken").data["card"] == "compass"
    assert "compass" in state.players[0].equipment and "compass" not in state.shops["market_meadow"]
    assert scoring.breakdown(state)[0]["quest"] == -5
    assert "QuestCompleted" not in types(sell(state, 0, "C", "yellow", chance))
    assert "QuestCompleted" in types(sell(state, 0, "J", "yellow", chance))


@pytest.mark.rules("gnomes:C.7/quest-forest-fete")
def test_the_forest_fete_quest_gives_its_item_and_wants_yellow_in_calvatia_or_fuligo():
    """C.7: one item of the Forest Fete Shop's; selling yellow in Descina does not do it,
    in Fuligo it does; the penalty is 5."""
    state, chance = new_game()
    display(state, ["forest_fete_item", "visit_a_house", "red_for_gems"])
    stock(state, "forest_fete", ["short_axe", "dew_pearl", "leaf_boat", "canteen"])
    arrange(state, 0, place="tower")
    offered = {m["item"] for m in legal(state, 0) if m["type"] == "quest" and m["quest"] == "forest_fete_item"}
    assert offered == {"short_axe", "leaf_boat", "canteen"}
    take(state, 0, "forest_fete_item", chance, item="leaf_boat")
    assert "leaf_boat" in state.players[0].equipment
    assert scoring.breakdown(state)[0]["quest"] == -5
    assert "QuestCompleted" not in types(sell(state, 0, "D", "yellow", chance))
    assert "QuestCompleted" in types(sell(state, 0, "F", "yellow", chance))


@pytest.mark.rules("gnomes:C.7/quest-hillview")
def test_the_hillview_quest_gives_its_item_and_wants_red_in_grifola_or_kolus():
    """C.7: one item of the Hillview Hut Shop's; selling red in Exidea does not do it, in
    Grifola it does; the penalty is 5."""
    state, chance = new_game()
    display(state, ["hillview_hut_item", "visit_a_house", "red_for_gems"])
    stock(state, "hillview_hut", ["hill_boots", "moonstone", "canteen", "small_rucksack"])
    take(state, 0, "hillview_hut_item", chance, item="small_rucksack")
    assert "small_rucksack" in state.players[0].equipment and "tiny_rucksack" in state.removed
    assert scoring.breakdown(state)[0]["quest"] == -5
    assert "QuestCompleted" not in types(sell(state, 0, "E", "red", chance))
    assert "QuestCompleted" in types(sell(state, 0, "G", "red", chance))


@pytest.mark.rules("gnomes:C.7/quest-lake")
def test_the_lake_quest_pays_3_brown_and_is_done_by_boat_or_on_the_ice_across_the_lake():
    """C.7: the reward is 3 brown gems; a leaf boat down the river does not do it, across the
    lake it does; in winter walking across the frozen lake (G) does it too."""
    for how in ("leaf_boat", "ice"):
        state, chance = new_game()
        display(state, ["cross_the_lake", "visit_a_house", "red_for_gems"])
        take(state, 0, "cross_the_lake", chance)
        assert state.players[0].gems["brown"] == 3 and scoring.breakdown(state)[0]["quest"] == -5
        arrange(state, 0, place=at(state, "B"), equipment=["tiny_basket", "leaf_boat"])
        events = play(state, 0, {"type": "equipment", "item": "leaf_boat", "to": at(state, "forest_fete")}, chance)
        assert "QuestCompleted" not in types(events)
        arrange(state, 0, place=at(state, "I"), timer=0)
        if how == "ice":
            state.frozen = True
            move = {"type": "ice", "to": at(state, "K")}
        else:
            move = {"type": "equipment", "item": "leaf_boat", "to": at(state, "K")}
        events = play(state, 0, move, chance)
        assert first(events, "GnomeMoved").data["crossed"] == "lake"
        assert first(events, "QuestCompleted").data["quest"] == "cross_the_lake"


@pytest.mark.rules("gnomes:C.7/quest-other-house", "gnomes:C.7/visit-seated-houses")
def test_the_house_quest_pays_2_brown_and_needs_the_house_of_a_seated_player():
    """C.7: the reward is 2 brown gems; house rule: with three players (red, yellow, blue) the
    red gnome's own house and the green house nobody plays do not count, the yellow house
    does; with four players the green house counts."""
    state, chance = new_game()
    display(state, ["cross_the_lake", "visit_a_house", "red_for_gems"])
    take(state, 0, "visit_a_house", chance)
    assert state.players[0].gems["brown"] == 2 and scoring.breakdown(state)[0]["quest"] == -5
    arrange(state, 0, place=at(state, "hillview_hut"), hand=["meadow", "meadow", "meadow", "mountain"])
    assert "QuestCompleted" not in types(play(state, 0, {"type": "travel", "card": "meadow",
                                                        "path": [at(state, "house_red")]}, chance))
    arrange(state, 0, place=at(state, "L"))
    assert "QuestCompleted" not in types(play(state, 0, {"type": "travel", "card": "meadow",
                                                        "path": [at(state, "house_green")]}, chance))
    arrange(state, 0, place=at(state, "A"))
    events = play(state, 0, {"type": "travel", "card": "meadow", "path": [at(state, "house_yellow")]}, chance)
    assert first(events, "QuestCompleted").data["quest"] == "visit_a_house"

    state, chance = new_game(players=4)
    display(state, ["cross_the_lake", "visit_a_house", "red_for_gems"])
    take(state, 0, "visit_a_house", chance)
    arrange(state, 0, place=at(state, "L"), hand=["meadow"])
    events = play(state, 0, {"type": "travel", "card": "meadow", "path": [at(state, "house_green")]}, chance)
    assert "QuestCompleted" in types(events)


@pytest.mark.rules("gnomes:C.7/task-on-the-way")
def test_passing_a_house_or_the_summit_on_the_way_does_the_task():
    """C.7, house rule: a double card that passes through the red house on its way to the
    mountain does Yellow's house quest; a double mountain card through the summit and back
    does the summit quest."""
    state, chance = new_game()
    display(state, ["reach_the_summit", "visit_a_house", "red_for_gems"])
    play(state, 0, {"type": "end_turn"}, chance)
    take(state, 1, "visit_a_house", chance)
    arrange(state, 1, place=at(state, "hillview_hut"), hand=["double_meadow"])
    events = play(state, 1, {"type": "travel", "card": "double_meadow", "path": [at(state, "house_red"), "g1"]},
                  chance)
    assert state.players[1].place == "g1"
    assert first(events, "QuestCompleted").data["quest"] == "visit_a_house"

    state, chance = new_game()
    display(state, ["reach_the_summit", "visit_a_house", "red_for_gems"])
    take(state, 0, "reach_the_summit", chance)
    arrange(state, 0, place="n2", hand=["double_mountain"])
    events = play(state, 0, {"type": "travel", "card": "double_mountain", "path": ["n1", "n2"]}, chance)
    assert state.players[0].place == "n2"
    assert first(events, "QuestCompleted").data["quest"] == "reach_the_summit"


@pytest.mark.rules("gnomes:C.7/no-item-no-reward")
def test_an_item_quest_at_a_shop_with_no_item_gives_nothing():
    """C.7, house rule: with only treasures on offer at the Forest Fete Shop its quest can still
    be taken, but the reward is nothing; the shop keeps its cards."""
    state, chance = new_game()
    display(state, ["forest_fete_item", "visit_a_house", "red_for_gems"])
    stock(state, "forest_fete", ["dew_pearl", "moonstone"])
    arrange(state, 0, place="tower")
    offered = [m for m in legal(state, 0) if m["type"] == "quest" and m["quest"] == "forest_fete_item"]
    assert offered == [{"type": "quest", "quest": "forest_fete_item"}]
    before = (list(state.players[0].equipment), state.players[0].hand_size, dict(state.players[0].gems))
    events = take(state, 0, "forest_fete_item", chance)
    assert "QuestRewardTaken" not in types(events) and state.players[0].quest == "forest_fete_item"
    assert (list(state.players[0].equipment), state.players[0].hand_size, dict(state.players[0].gems)) == before
    assert state.shops["forest_fete"] == ["dew_pearl", "moonstone"]


@pytest.mark.rules("gnomes:C.7/seven-quests", "gnomes:C.7/three-on-display", "gnomes:C.7/winter-quests")
def test_seven_quests_three_face_up_and_the_two_yellow_quests_bear_the_winter_symbol():
    """C.7, house rule: the six printed quests and the summit example make a deck of 7; set-up
    lays 3 face up and leaves 4 in the pile; the two yellow-selling quests are the winter ones."""
    state, _ = new_game()
    assert sorted(quests()) == sorted(ALL_QUESTS)
    assert len(state.quests) == 3 and len(state.quest_deck) == 4
    assert sorted(state.quests + state.quest_deck) == sorted(ALL_QUESTS)
    assert {q.id for q in quests().values() if q.no_winter} == {"market_meadow_item", "forest_fete_item"}
    assert all(q.task.get("sell") == "yellow" for q in quests().values() if q.no_winter)
