"""Contributing to a Saga: Reserve cards, recruiting, the Counting House bonus, completing a
card and finishing a Saga (rulebook 6.4; 8.0 for Nogbad's portrait; 9.0 for the Dragon's end)."""

import json

import pytest

from services.rules.core import IllegalMove, NotYourTurn
from services.rules.core.errors import MalformedMove
from services.rules.core.events import SEALED
from services.rules.noggin import content, decks, sagas
from services.rules.noggin.content import CHARACTERS

from .helpers import (BASIC, RULES, activate_nogbad, chance_of, give, legal, own_card, points, put_reserve,
                      put_saga, run, scenario, types)


def chance():
    """The chance the helpers' ``run`` uses (seed "7"), to know which card a deck gives."""
    return chance_of("7")


def saga_move(condition, pay, saga=0, nog=True, bonus=None):
    move = {"type": "market_day", "op": "saga", "saga": saga, "condition": condition, "nog": nog, "pay": pay}
    if bonus is not None:
        move["bonus"] = bonus
    return move


def premet(state, slot, condition, seat, paid, nog=True):
    """Mark a condition of Saga ``slot``'s current card as met earlier by ``seat`` (its Nog
    taken from the Mountains space, as the move would have)."""
    card = state.sagas[slot].current
    card.met[condition] = {"seat": seat, "paid": paid, "nog": 1 if nog else 0}
    if nog:
        nogs = list(card.nogs)
        nogs[seat] += 1
        card.nogs = nogs
        state.players[seat].mountains -= 1


def done_card(deck, card, nogs, nogbad=False):
    return {"deck": deck, "card": card, "nogbad": nogbad, "nogs": list(nogs)}


def finishing(players=3, seat=0, saga="the_dragon_hunt", done=None, last=("wood", "wood"), last_card="C02",
              last_deck="C", pre=None):
    """``seat`` to act; Saga 0 is ``saga`` with ``done`` cards under it (their Nogs taken from
    the owners' Mountains spaces) and a current card whose conditions but the last are met
    (``pre``: seat and whether with a Nog, per earlier condition)."""
    s = scenario(players, seat=seat)
    done = done if done is not None else []
    put_saga(s, 0, saga, done=done)
    for c in done:
        for i, k in enumerate(c["nogs"]):
            s.players[i].mountains -= k
    put_reserve(s, 0, list(last), deck=last_deck, card=last_card)
    for cond, (who, nog) in enumerate(pre or [(seat, True)] * (len(last) - 1)):
        premet(s, 0, cond, who, last[cond], nog)
    give(s, seat, **{(last[-1] if last[-1] in BASIC else "fish"): 1})
    return s


# -- the number of Reserve cards and the A deck -------------------------------------------------

@pytest.mark.rules("noggin:6.4/reserve-count", "noggin:6.4/complete-f-finished")
def test_the_monster_finishes_with_its_fourth_reserve_card_not_before():
    """6.4: The Monster's corner says 4 (the Dragon Hunt's 3): completing its third card only
    asks for a fourth; completing the fourth (4 cards under the Saga) finishes it."""
    idx = content.saga_index()
    assert idx["the_monster"].reserve == 4 and idx["the_dragon_hunt"].reserve == 3
    s = finishing(saga="the_monster", done=[done_card("A", "A13", [1, 0, 0]), done_card("B", "B09", [1, 0, 0])],
                  last=("wood",), pre=[])
    events = run(s, 0, saga_move(0, ["wood"]))
    assert "DragonMoved" not in types(events) and s.saga_end is None
    assert len(s.sagas[0].done) == 3 and s.sagas[0].card == "the_monster" and s.sagas[0].current is None
    assert legal(s, 0) == [{"type": "draw_reserve", "saga": 0, "deck": "B"},
                           {"type": "draw_reserve", "saga": 0, "deck": "C"}]
    run(s, 0, {"type": "draw_reserve", "saga": 0, "deck": "C"})
    card = s.sagas[0].current
    give(s, 0, **{r: 2 for r in ("stone", "wood", "fish", "harvest")})
    events = []
    for cond, need in enumerate(card.needs):
        events = run(s, 0, saga_move(cond, ["fish" if need == "food" else need]))
    assert types(events)[:2] == ["SagaConditionMet", "ReserveCardTurned"]
    moved = [e for e in events if e.type == "DragonMoved"]
    assert len(moved) == 1 and moved[0].data["saga"] == "the_monster"
    assert "the_monster" in s.sagas_done


@pytest.mark.rules("noggin:6.4/a-first")
def test_each_saga_starts_with_the_top_cards_of_the_a_deck():
    """6.4 (and set-up P): as soon as a Saga comes into play it gets a Reserve card from the A
    deck, the top one (house rule for ambiguity 3)."""
    s = scenario(3)
    order = decks.reserve_order(s, chance(), "A")
    assert [saga.current.deck for saga in s.sagas] == ["A", "A"]
    assert s.secret["saga_cards"] == order[:2]
    assert [saga.current.needs for saga in s.sagas] == [content.reserve_index()[c].needs for c in order[:2]]
    assert s.reserve["A"]["top"] == 2 and s.reserve["A"]["bottom"] == 0
    assert s.reserve["B"] == s.reserve["C"] == {"epoch": 0, "size": 19, "top": 0, "bottom": 0, "discard": 0}


@pytest.mark.rules("noggin:6.4/a-only-first", "noggin:6.4/never-a-again")
def test_after_the_first_card_the_a_deck_can_never_be_chosen():
    """6.4: the A deck gives only a Saga's first card; the player completing a card may choose
    B or C, never A (the move shape refuses it, and so does the check)."""
    s = finishing(saga="the_dragon_hunt", last=("noggin",), last_deck="A", last_card="A01", pre=[])
    run(s, 0, saga_move(0, ["fish"]))
    assert [m["deck"] for m in legal(s, 0)] == ["B", "C"]
    with pytest.raises(IllegalMove, match="B or C deck"):
        RULES.check(s, 0, {"type": "draw_reserve", "saga": 0, "deck": "A"})
    with pytest.raises(MalformedMove):
        RULES.parse_move({"type": "draw_reserve", "saga": 0, "deck": "A"})
    top_a = s.reserve["A"]["top"]
    run(s, 0, {"type": "draw_reserve", "saga": 0, "deck": "B"})
    assert s.sagas[0].current.deck == "B" and s.reserve["A"]["top"] == top_a


@pytest.mark.rules("noggin:6.4/a-characters-only", "noggin:6.4/b-mixed", "noggin:6.4/c-resources-only")
def test_what_each_reserve_deck_asks_for():
    """6.4: A cards ask only for characters, B cards for characters and/or resources, C cards
    only for resources; the content loader refuses a deck that breaks this."""
    cards = content.load().reserve.decks
    chars = set(CHARACTERS)
    assert all(set(c.needs) <= chars for c in cards["A"])
    assert not any(set(c.needs) & chars for c in cards["C"])
    kinds = {("chars" if set(c.needs) <= chars else "res" if not set(c.needs) & chars else "mixed") for c in cards["B"]}
    assert kinds == {"chars", "res", "mixed"}
    raw = json.loads((content.CONTENT_DIR / "reserve.json").read_text(encoding="utf-8"))
    bad_a = json.loads(json.dumps(raw))
    bad_a["decks"]["A"][0]["needs"] = ["noggin", "stone"]
    with pytest.raises(ValueError, match="A cards ask only for characters"):
        content.Reserve.model_validate(bad_a)
    bad_c = json.loads(json.dumps(raw))
    bad_c["decks"]["C"][0]["needs"] = ["knut", "stone"]
    with pytest.raises(ValueError, match="C cards ask only for resources"):
        content.Reserve.model_validate(bad_c)
    content.Reserve.model_validate(raw)


# -- the rulebook's examples -----------------------------------------------------------------------

@pytest.mark.rules("noggin:6.4/dragon-hunt-example", "noggin:6.4/recruit-food",
                   "noggin:6.4/complete-a-characters-stay", "noggin:6.4/complete-f-next-card")
def test_dragon_hunt_example_nooka_romf_and_noggin_for_three_food():
    """6.4 example: the Dragon Hunt (3 Reserve cards) starts with an A card asking for Nooka,
    Romf and Noggin; each is recruited from the Castle for 1 Food placed on its icon, then
    the second card is drawn from B or C by the player who completed the first."""
    s = scenario(3)
    put_saga(s, 0, "the_dragon_hunt")
    put_reserve(s, 0, ["nooka", "romf", "noggin"], deck="A", card="A13")
    give(s, 0, fish=2, harvest=1)
    market = dict(s.market)
    run(s, 0, saga_move(0, ["fish"]))
    run(s, 0, saga_move(1, ["harvest"]))
    card = s.sagas[0].current
    assert card.met[0]["paid"] == "fish" and card.met[1]["paid"] == "harvest" and card.met[2] is None
    assert s.characters["nooka"] == s.characters["romf"] == "saga:0" and s.characters["noggin"] == "castle"
    events = run(s, 0, saga_move(2, ["fish"]))
    assert types(events) == ["SagaConditionMet", "ReserveCardTurned"]
    p = s.players[0]
    assert p.stock["fish"] == p.stock["harvest"] == 0
    assert (s.market["fish"], s.market["harvest"]) == (market["fish"] + 2, market["harvest"] + 1)
    assert {c: s.characters[c] for c in ("nooka", "romf", "noggin")} == dict.fromkeys(("nooka", "romf", "noggin"),
                                                                                      "saga:0")
    assert s.sagas[0].done == [done_card("A", "A13", [3, 0, 0])] and s.sagas[0].current is None
    assert RULES.to_move(s) == [0]
    assert legal(s, 0) == [{"type": "draw_reserve", "saga": 0, "deck": "B"},
                           {"type": "draw_reserve", "saga": 0, "deck": "C"}]
    run(s, 0, {"type": "draw_reserve", "saga": 0, "deck": "C"})
    new = s.sagas[0].current
    assert new.deck == "C"
    give(s, 0, **{r: 1 for r in ("stone", "wood", "fish", "harvest")})
    pos = s.markers[0].pos
    need = new.needs[0]
    events = run(s, 0, saga_move(0, ["fish" if need == "food" else need]))
    assert types(events) == ["SagaConditionMet"] and s.markers[0].pos == pos  # same Market Day goes on


@pytest.mark.rules("noggin:6.4/knut-example", "noggin:6.4/resources-from-stock",
                   "noggin:6.4/complete-b-resources-back")
def test_knut_example_knut_one_stone_and_one_food():
    """6.4 example: a B card asks for Knut (1 Food, Knut to the Saga), 1 Stone and 1 Food;
    the cubes come from the stock onto the icons, and back to the Nog Market once done."""
    s = scenario(3)
    put_reserve(s, 0, ["knut", "stone", "food"], deck="B", card="B01")
    give(s, 0, harvest=1, stone=1, fish=1)
    market = dict(s.market)
    run(s, 0, saga_move(0, ["harvest"]))
    assert s.characters["knut"] == "saga:0" and s.players[0].stock["harvest"] == 0
    run(s, 0, saga_move(1, ["stone"]))
    card = s.sagas[0].current
    assert [m and m["paid"] for m in card.met] == ["harvest", "stone", None]
    assert s.players[0].stock == {"stone": 0, "wood": 0, "fish": 1, "harvest": 0, "gold": 0, "coin": 0}
    assert s.market == market  # still on the card's icons
    events = run(s, 0, saga_move(2, ["fish"]))
    assert "ReserveCardTurned" in types(events)
    assert s.players[0].stock == {"stone": 0, "wood": 0, "fish": 0, "harvest": 0, "gold": 0, "coin": 0}
    assert s.market == {**market, "harvest": market["harvest"] + 1, "stone": market["stone"] + 1,
                        "fish": market["fish"] + 1}
    assert s.characters["knut"] == "saga:0"


@pytest.mark.rules("noggin:6.4/resources-from-stock")
def test_a_resource_must_be_in_the_stock_and_match_its_icon():
    """6.4: the resources come from the player's own stock and must match the icon."""
    s = scenario(3)
    put_reserve(s, 0, ["stone", "wood"], deck="C", card="C07")
    give(s, 0, wood=1)
    with pytest.raises(IllegalMove, match="cannot pay that condition"):
        RULES.check(s, 0, {"type": "market_day", "op": "saga", "saga": 0, "condition": 0})  # cubes not named
    with pytest.raises(IllegalMove, match="do not pay"):
        RULES.check(s, 0, saga_move(0, ["wood"]))
    with pytest.raises(IllegalMove, match="do not have"):
        RULES.check(s, 0, saga_move(0, ["stone"]))
    run(s, 0, saga_move(1, ["wood"]))
    assert s.players[0].stock["wood"] == 0 and s.sagas[0].current.met[1]["paid"] == "wood"


@pytest.mark.rules("noggin:6.4/recruit-in-castle")
def test_a_character_away_from_the_castle_cannot_be_recruited():
    """6.4: a required character is recruited only from Noggin's Castle."""
    s = scenario(3)
    put_reserve(s, 0, ["thor", "fish"], deck="B", card="B04")
    give(s, 0, fish=2)
    s.characters["thor"] = "saga:1"
    with pytest.raises(IllegalMove, match="thor is not in Noggin's Castle"):
        RULES.check(s, 0, saga_move(0, ["fish"]))
    assert not any(m.get("op") == "saga" and m["saga"] == 0 and m["condition"] == 0 for m in legal(s, 0))
    s.characters["thor"] = "castle"
    run(s, 0, saga_move(0, ["fish"]))
    assert s.characters["thor"] == "saga:0"


@pytest.mark.rules("noggin:6.4/recruit-food")
def test_recruiting_costs_one_food_fish_or_harvest():
    """6.4: a character costs 1 Food, a Fish or a Harvest cube, put on its icon; not Stone."""
    s = scenario(3)
    put_reserve(s, 0, ["graculus", "thor"], deck="B", card="B13")
    give(s, 0, stone=2, fish=1, harvest=1)
    with pytest.raises(IllegalMove, match="do not pay that condition \\(food\\)"):
        RULES.check(s, 0, saga_move(0, ["stone"]))
    with pytest.raises(IllegalMove, match="takes 1 cube"):
        RULES.check(s, 0, saga_move(0, ["fish", "harvest"]))
    run(s, 0, saga_move(0, ["fish"]))
    run(s, 0, saga_move(1, ["harvest"]))
    assert s.players[0].stock["fish"] == s.players[0].stock["harvest"] == 0 and s.players[0].stock["stone"] == 2
    assert s.characters["graculus"] == s.characters["thor"] == "saga:0"


@pytest.mark.rules("noggin:6.4/character-called-again")
def test_a_character_asked_for_again_goes_back_to_the_castle():
    """6.4 note: when a new Reserve card asks for a character already on that Saga, the
    character returns to the Castle and has to be recruited (1 Food) again."""
    s = scenario(3)
    put_reserve(s, 0, ["fish"], deck="C", card="C03")
    give(s, 0, fish=1)
    bottom = decks.reserve_order(s, chance(), "B")[-1]
    needs = content.reserve_index()[bottom].needs
    again = next(n for n in needs if n in CHARACTERS)  # the card the seed puts at B's bottom asks for one
    s.characters[again] = "saga:0"
    run(s, 0, saga_move(0, ["fish"]))
    events = run(s, 0, {"type": "draw_reserve", "saga": 0, "deck": "B"})
    assert events[0].data["recalled"] == [again]
    assert s.characters[again] == "castle"
    card = s.sagas[0].current
    cond = card.needs.index(again)
    assert card.met[cond] is None
    give(s, 0, harvest=1)
    run(s, 0, saga_move(cond, ["harvest"]))
    assert s.characters[again] == "saga:0" and s.players[0].stock["harvest"] == 0


@pytest.mark.rules("noggin:6.4/one-saga")
def test_only_one_saga_card_per_contribution():
    """6.4 (6.0): one Market Day's contribution works on a single Saga card."""
    s = scenario(3)
    put_reserve(s, 0, ["stone", "wood"], deck="C", card="C07")
    put_reserve(s, 1, ["stone", "stone"], deck="C", card="C01")
    give(s, 0, stone=3, wood=1)
    run(s, 0, saga_move(0, ["stone"]))
    with pytest.raises(IllegalMove, match="one option"):
        RULES.check(s, 0, saga_move(0, ["stone"], saga=1))
    assert not any(m.get("saga") == 1 for m in legal(s, 0))
    run(s, 0, saga_move(1, ["wood"]))  # more on the same Saga is fine


# -- a Nog or a point ------------------------------------------------------------------------------

@pytest.mark.rules("noggin:6.4/nog-per-condition")
def test_each_condition_places_a_nog_or_scores_one_point():
    """6.4 A/B: for each condition met, a Nog from the Mountains space goes on the card, or
    the player scores 1 point at once instead."""
    s = scenario(3)
    put_reserve(s, 0, ["stone", "stone", "wood"], deck="C", card="C07")
    give(s, 0, stone=2, wood=1)
    m = s.players[0].mountains
    events = run(s, 0, saga_move(0, ["stone"], nog=True))
    assert points(events, 0) == 0 and s.players[0].mountains == m - 2  # Market Day's Nog and the card's
    assert s.sagas[0].current.nogs == [1, 0, 0]
    events = run(s, 0, saga_move(1, ["stone"], nog=False))
    assert points(events, 0, "saga condition") == 1 and s.players[0].score == 1
    assert s.players[0].mountains == m - 2 and s.sagas[0].current.nogs == [1, 0, 0]
    s.players[0].mountains = 0
    with pytest.raises(IllegalMove, match="take the point instead"):
        RULES.check(s, 0, saga_move(2, ["wood"], nog=True))
    RULES.check(s, 0, saga_move(2, ["wood"], nog=False))


# -- completing a Reserve card ---------------------------------------------------------------------

@pytest.mark.rules("noggin:6.4/complete-c-turn-over", "noggin:6.4/complete-e-under-saga",
                   "noggin:6.4/complete-b-resources-back")
def test_a_completed_card_is_turned_and_slid_under_the_saga_with_its_nogs():
    """6.4 C and E: the completed card is turned over (its back revealed) and goes under the
    Saga, below any already there, with the Nogs that were on it; its cubes go back (B)."""
    s = finishing(saga="the_monster", done=[done_card("A", "A05", [0, 2, 0])], last=("stone", "wood"),
                  last_card="C07", pre=[(1, True)])
    market = dict(s.market)
    events = run(s, 0, saga_move(1, ["wood"]))
    turned = [e for e in events if e.type == "ReserveCardTurned"]
    assert [e.data for e in turned] == [{"saga": 0, "card": "C07", "nogbad": False}]
    assert s.sagas[0].done == [done_card("A", "A05", [0, 2, 0]), done_card("C", "C07", [1, 1, 0])]
    assert s.sagas[0].current is None and s.secret["saga_cards"][0] is None
    assert s.market["stone"] == market["stone"] + 1 and s.market["wood"] == market["wood"] + 1


@pytest.mark.rules("noggin:6.4/complete-d-nogbad")
def test_nogbads_portrait_moves_the_infamous_crow_and_activates_nogbad():
    """6.4 D and 8.0: a turned card showing Nogbad moves the Infamous Crow one quarter
    clockwise and Nogbad becomes active there, from his castle or from wherever he is; a
    card with Nooka's knife does nothing of the kind."""
    s = scenario(3)
    put_reserve(s, 0, ["knut", "stone", "food"], deck="B", card="B01")  # Nooka's knife
    give(s, 0, fish=2, stone=1)
    for cond, pay in enumerate((["fish"], ["stone"], ["fish"])):
        events = run(s, 0, saga_move(cond, pay))
    assert "CrowTurned" not in types(events) and s.nogbad == "castle" and s.wheel == 0

    s = scenario(3)
    put_reserve(s, 0, ["knut", "stone", "food"], deck="B", card="B02")  # the twin with Nogbad's portrait
    give(s, 0, fish=2, stone=1)
    for cond, pay in enumerate((["fish"], ["stone"], ["fish"])):
        events = run(s, 0, saga_move(cond, pay))
    assert types(events) == ["SagaConditionMet", "ReserveCardTurned", "CrowTurned", "NogbadMoved"]
    assert events[1].data["nogbad"] is True and s.sagas[0].done[-1]["nogbad"] is True
    assert s.wheel == 1 and s.nogbad == "active" and s.infamy == 0

    s = scenario(3)
    activate_nogbad(s, 2)  # already active in the woods
    put_reserve(s, 0, ["stone"], deck="C", card="C15")
    give(s, 0, stone=1)
    events = run(s, 0, saga_move(0, ["stone"]))
    assert [e.data for e in events if e.type == "CrowTurned"] == [{"quarter": 3, "by": "reserve card"}]
    assert s.wheel == 3 and s.nogbad == "active"


@pytest.mark.rules("noggin:6.4/one-step-total")
def test_a_whole_contribution_costs_one_step():
    """6.4: however many resources are placed, across a completed card and the next one,
    the contribution costs a single Step."""
    s = scenario(3)
    put_reserve(s, 0, ["stone", "stone", "wood"], deck="C", card="C07")
    give(s, 0, stone=4, wood=3, fish=3, harvest=3)
    assert s.markers[0].pos == 0
    run(s, 0, saga_move(0, ["stone"]))
    assert s.markers[0].pos == 1
    run(s, 0, saga_move(1, ["stone"]))
    run(s, 0, saga_move(2, ["wood"]))
    run(s, 0, {"type": "draw_reserve", "saga": 0, "deck": "C"})
    card = s.sagas[0].current
    for cond, need in enumerate(card.needs[:2]):
        events = run(s, 0, saga_move(cond, ["fish" if need == "food" else need]))
        assert "StepsSpent" not in types(events)
    run(s, 0, {"type": "finish"})
    assert s.markers[0].pos == 1 and s.players[0].placed["market_day"] == 1


@pytest.mark.rules("noggin:6.4/choose-b-or-c", "noggin:6.4/complete-f-next-card")
def test_the_player_who_completed_the_card_chooses_b_or_c():
    """6.4 F: with more cards needed, the active player who completed the card draws the next
    one from the deck of their choice, B or C; nobody else decides, and nothing else comes
    first (house rule: the draw is owed before any other move)."""
    for deck in ("B", "C"):
        s = scenario(3)
        put_reserve(s, 0, ["stone"], deck="C", card="C14")
        give(s, 0, stone=1, wood=1)
        run(s, 0, saga_move(0, ["stone"]))
        assert RULES.to_move(s) == [0]
        with pytest.raises(NotYourTurn):
            RULES.check(s, 1, {"type": "draw_reserve", "saga": 0, "deck": deck})
        with pytest.raises(IllegalMove, match="draw reserve decision first"):
            RULES.check(s, 0, {"type": "finish"})
        run(s, 0, {"type": "draw_reserve", "saga": 0, "deck": deck})
        card = s.sagas[0].current
        assert card.deck == deck and s.reserve[deck]["bottom"] == 1
        assert s.secret["saga_cards"][0] in content.reserve_ids(deck)


@pytest.mark.rules("noggin:6.4/from-bottom")
def test_the_next_card_comes_from_the_bottom_of_the_chosen_deck():
    """6.4 "Choosing a Reserve Deck": the card is taken from the bottom of B or C (house rule
    for ambiguity 3); two draws take the last and then the last-but-one card."""
    s = scenario(3)
    put_saga(s, 0, "the_monster")
    put_reserve(s, 0, ["stone"], deck="C", card="C14")
    give(s, 0, stone=1)
    order = decks.reserve_order(s, chance(), "C")
    run(s, 0, saga_move(0, ["stone"]))
    events = run(s, 0, {"type": "draw_reserve", "saga": 0, "deck": "C"})
    assert events[0].data["end"] == "bottom"
    assert s.secret["saga_cards"][0] == order[-1]
    assert s.sagas[0].current.needs == content.reserve_index()[order[-1]].needs
    assert s.reserve["C"]["bottom"] == 1 and s.reserve["C"]["top"] == 0
    card = s.sagas[0].current
    s.sagas[0].current.met = [{"seat": 1, "paid": None, "nog": 0}] * (len(card.needs) - 1) + [None]
    last = card.needs[-1]
    give(s, 0, **{("fish" if last == "food" else last): 1})
    run(s, 0, saga_move(len(card.needs) - 1, ["fish" if last == "food" else last]))
    run(s, 0, {"type": "draw_reserve", "saga": 0, "deck": "C"})
    assert s.secret["saga_cards"][0] == order[-2] and s.reserve["C"]["bottom"] == 2


@pytest.mark.rules("noggin:6.4/back-hidden")
def test_nobody_sees_the_back_of_a_reserve_card_before_it_is_turned():
    """6.4: the back of a drawn card is hidden from everyone: the public event shows its
    front only, its identity travels in a sealed event, and no view holds it."""
    s = scenario(3)
    put_reserve(s, 0, ["stone"], deck="C", card="C14")
    give(s, 0, stone=1)
    run(s, 0, saga_move(0, ["stone"]))
    events = run(s, 0, {"type": "draw_reserve", "saga": 0, "deck": "B"})
    drawn, sealed_ = events
    card = s.secret["saga_cards"][0]
    assert drawn.type == "ReserveCardDrawn" and drawn.to is None
    assert "card" not in drawn.data and "nogbad" not in drawn.data
    assert sealed_.type == "ReserveCardSealed" and sealed_.to == SEALED and sealed_.data["card"] == card
    for seat in (0, 1, 2, None):
        view = RULES.view(s, seat)
        text = json.dumps(view)
        assert "secret" not in view and f'"{card}"' not in text
        assert set(view["sagas"][0]["current"]) == {"deck", "needs", "met", "nogs", "bonus", "bonus_seat"}


# -- the Counting House bonus of C cards -----------------------------------------------------------

def bonus_state(players=3):
    s = scenario(players)
    put_reserve(s, 0, ["stone", "stone", "stone"], deck="C", bonus=True, card="C18")
    give(s, 0, stone=3)
    return s


@pytest.mark.rules("noggin:6.4/bonus-conditions", "noggin:6.4/point-no-bonus")
def test_the_bonus_needs_the_icon_unclaimed_a_nog_and_a_counting_house_card():
    """6.4: the bonus is claimed only on a card with the icon, not yet claimed, for a
    resource provided with a Nog, by an owner of a Counting House card; taking the point
    instead of a Nog gives no bonus."""
    s = bonus_state()
    with pytest.raises(IllegalMove, match="Counting House card of yours"):
        RULES.check(s, 0, saga_move(0, ["stone"], bonus=True))  # no Counting House card
    own_card(s, 0, "telescope")
    with pytest.raises(IllegalMove, match="needs a Nog placed on its icon"):
        RULES.check(s, 0, saga_move(0, ["stone"], nog=False, bonus=True))
    RULES.check(s, 0, saga_move(0, ["stone"], bonus=True))
    offered = [m for m in legal(s, 0) if m.get("bonus")]
    assert offered and all(m["nog"] is True for m in offered)

    s.sagas[0].current.bonus_seat = 2  # claimed already
    with pytest.raises(IllegalMove, match="unclaimed"):
        RULES.check(s, 0, saga_move(0, ["stone"], bonus=True))

    s = scenario(3)
    own_card(s, 0, "telescope")
    put_reserve(s, 0, ["wood", "wood"], deck="C", card="C02")  # no icon
    give(s, 0, wood=2)
    with pytest.raises(IllegalMove, match="C card with the icon"):
        RULES.check(s, 0, saga_move(0, ["wood"], bonus=True))
    assert not any(m.get("bonus") for m in legal(s, 0))


@pytest.mark.rules("noggin:6.4/bonus-points")
def test_the_bonus_scores_two_per_counting_house_card_up_or_down():
    """6.4: 2 points per Counting House card owned, face up or face down."""
    s = bonus_state()
    own_card(s, 0, "telescope", up=True)
    own_card(s, 0, "war_banner", up=False)
    own_card(s, 0, "moon_stone", up=False)
    events = run(s, 0, saga_move(0, ["stone"], bonus=True))
    assert points(events, 0, "counting house bonus") == 6 and points(events, 0) == 6
    assert s.players[0].score == 6


@pytest.mark.rules("noggin:6.4/bonus-nog-on-icon")
def test_the_bonus_nog_sits_on_the_icon_and_counts_as_on_the_card():
    """6.4: the bonus Nog goes on the Counting House icon (one Nog, not two) so the bonus is
    not claimed again, and it goes under the Saga with the card to score at the end."""
    s = bonus_state()
    own_card(s, 0, "telescope")
    own_card(s, 1, "moon_stone")
    m = s.players[0].mountains
    run(s, 0, saga_move(0, ["stone"], bonus=True))
    card = s.sagas[0].current
    assert card.bonus_seat == 0 and card.nogs == [1, 0, 0] and s.players[0].mountains == m - 2
    with pytest.raises(IllegalMove, match="unclaimed"):
        RULES.check(s, 0, saga_move(1, ["stone"], bonus=True))
    run(s, 0, saga_move(1, ["stone"]))
    events = run(s, 0, saga_move(2, ["stone"]))
    assert "ReserveCardTurned" in types(events)
    assert s.sagas[0].done[-1]["nogs"] == [3, 0, 0]


@pytest.mark.rules("noggin:6.4/bonus-needs-mountains-nog")
def test_no_bonus_without_a_nog_on_the_mountains_space():
    """6.4: with no Nog left on the Mountains space the bonus cannot be claimed (the point may
    still be taken)."""
    s = bonus_state()
    own_card(s, 0, "telescope")
    s.players[0].mountains = 1  # Market Day takes it
    with pytest.raises(IllegalMove, match="no Nog on your Mountains space"):
        RULES.check(s, 0, saga_move(0, ["stone"], bonus=True))
    assert not any(m.get("bonus") or m.get("nog") for m in legal(s, 0) if m.get("op") == "saga")
    events = run(s, 0, saga_move(0, ["stone"], nog=False))
    assert points(events, 0) == 1 and s.sagas[0].current.bonus_seat is None


@pytest.mark.rules("noggin:6.4/bonus-only-contributor")
def test_a_counting_house_owner_who_did_not_contribute_earns_no_bonus():
    """6.4: when a bonus card is completed, an owner of Counting House cards who put nothing
    on it scores nothing."""
    s = bonus_state()
    own_card(s, 1, "telescope")
    own_card(s, 1, "moon_stone")
    for cond in range(3):
        events = run(s, 0, saga_move(cond, ["stone"]))
        assert points(events, 1) == 0
    assert "ReserveCardTurned" in types(events)
    assert s.players[1].score == 0 and s.players[0].score == 0


# -- finishing a Saga ------------------------------------------------------------------------------

@pytest.mark.rules("noggin:6.4/finish-1-dragon")
@pytest.mark.parametrize("nogs, steps", [(1, 1), (5, 1), (6, 1), (7, 2), (12, 2), (13, 3)])
def test_the_dragon_moves_nogs_divided_by_six_rounded_up(nogs, steps):
    """6.4 step 1: the Nogs on all the Saga's cards divided by 6, rounded up, is how far the
    Dragon moves toward the crown (4 players: it starts 4 spaces away)."""
    spread = [(nogs - 1 + 3 - i) // 4 for i in range(4)]  # the earlier Nogs, shared by the 4 seats
    s = finishing(players=4, done=[done_card("A", "A13", spread)], saga="the_firecake",
                  last=("wood",), pre=[])
    assert s.dragon == 4
    events = run(s, 0, saga_move(0, ["wood"]))
    moved = [e.data for e in events if e.type == "DragonMoved"]
    assert moved == [{"by": steps, "to": 4 - steps, "nogs": nogs, "saga": "the_firecake"}]
    assert s.dragon == 4 - steps


@pytest.mark.rules("noggin:6.4/dragon-hunt-scoring-example", "noggin:6.4/finish-1-dragon",
                   "noggin:6.4/finish-2-points-by-depth")
def test_dragon_hunt_scoring_example():
    """6.4 example: the Dragon Hunt finishes with its third card; 7 Nogs move the Dragon 2.
    Top card: Yellow and Blue 2 each; middle card: Blue 6 (2 Nogs); bottom card: Yellow 8
    (2 Nogs) and Red 4. Seats 0, 1, 2 are Red, Blue, Yellow; Blue meets the last condition."""
    s = finishing(seat=1, saga="the_dragon_hunt",
                  done=[done_card("A", "A13", [1, 0, 2]), done_card("B", "B09", [0, 2, 0])],
                  last=("stone", "wood"), last_card="C07", pre=[(2, True)])
    assert [p.colour for p in s.players] == ["red", "blue", "yellow"] and s.dragon == 3
    events = run(s, 1, saga_move(1, ["wood"]))
    assert [e.data for e in events if e.type == "DragonMoved"] == [
        {"by": 2, "to": 1, "nogs": 7, "saga": "the_dragon_hunt"}]
    assert [points(events, seat, "saga") for seat in range(3)] == [4, 2 + 6, 2 + 8]
    assert [p.score for p in s.players] == [4, 8, 10]


@pytest.mark.rules("noggin:6.4/finish-2-points-by-depth")
def test_points_per_nog_grow_by_one_for_each_card_further_down():
    """6.4 step 2: 2 per Nog on the top (last) card, 3 on the next down, 4, then 5 on the
    bottom card of a four-card Saga."""
    s = finishing(saga="the_monster", done=[done_card("A", "A13", [1, 0, 0]), done_card("B", "B09", [0, 1, 0]),
                                            done_card("B", "B11", [0, 0, 1])], last=("wood",), pre=[])
    events = run(s, 0, saga_move(0, ["wood"]))
    assert [points(events, seat, "saga") for seat in range(3)] == [5 + 2, 4, 3]


@pytest.mark.rules("noggin:6.4/finish-3-nogs-home", "noggin:6.4/finish-4-characters-home",
                   "noggin:6.4/finish-5-discard", "noggin:6.4/finish-7-new-saga", "noggin:6.4/finish-8-new-a-card")
def test_after_scoring_nogs_and_characters_go_home_and_a_new_saga_comes():
    """6.4 steps 3-8 (the Dragon short of the crown): Nogs back to their owners' Mountains
    spaces, characters back to the Castle, the Reserve cards on their discard piles, the
    next Saga card in the same place with the top card of the A deck."""
    s = finishing(saga="the_dragon_hunt", done=[done_card("A", "A13", [1, 0, 2]), done_card("B", "B09", [0, 2, 0])],
                  last=("stone", "wood"), last_card="C07", pre=[(1, True)])
    for ch in ("nooka", "romf", "noggin"):
        s.characters[ch] = "saga:0"
    s.characters["olaf"] = "saga:1"
    mountains = [p.mountains for p in s.players]
    discard = {d: s.reserve[d]["discard"] for d in "ABC"}
    next_saga = decks.saga_order(s, chance())[s.sagas_drawn]
    a_top = s.reserve["A"]["top"]
    next_a = decks.reserve_order(s, chance(), "A")[a_top]
    events = run(s, 0, saga_move(1, ["wood"]))
    assert types(events)[-5:] == ["SagaNogsHome", "SagaCleared", "SagaDrawn", "ReserveCardDrawn",
                                  "ReserveCardSealed"]
    assert [p.mountains for p in s.players] == [mountains[0] - 2 + 2, mountains[1] + 3, mountains[2] + 2]
    assert all(s.characters[c] == "castle" for c in ("nooka", "romf", "noggin"))
    assert s.characters["olaf"] == "saga:1"
    assert {d: s.reserve[d]["discard"] - discard[d] for d in "ABC"} == {"A": 1, "B": 1, "C": 1}
    assert s.secret["discard"] == {"A": ["A13"], "B": ["B09"], "C": ["C07"]}
    assert s.sagas_done == ["the_dragon_hunt"]
    assert s.sagas[0].card == next_saga and s.sagas[0].done == []
    assert s.sagas[0].needed == content.saga_index()[next_saga].reserve
    assert s.sagas[0].current.deck == "A" and s.reserve["A"]["top"] == a_top + 1
    assert s.secret["saga_cards"][0] == next_a


@pytest.mark.rules("noggin:6.4/finish-dragon-ends-game", "noggin:9.0/stops-at-crown", "noggin:9.0/noggin-council")
def test_the_dragon_reaching_the_crown_ends_the_game_at_once():
    """6.4 and 9.0: after the points (steps 1-3), if the Dragon reaches or passes the crown the
    game is over and final scoring follows: no characters go home, no new Saga, no further
    move; Noggin keeps the crown and the top scorer is elected to the Council of Elders."""
    s = finishing(saga="the_dragon_hunt", done=[done_card("A", "A13", [1, 0, 2]), done_card("B", "B09", [0, 2, 0])],
                  last=("stone", "wood"), last_card="C07", pre=[(1, True)])
    s.dragon = 1  # 7 Nogs move it 2: past the crown
    for ch in ("nooka", "romf", "noggin"):
        s.characters[ch] = "saga:0"
    events = run(s, 0, saga_move(1, ["wood"]))
    assert types(events)[-4:] == ["PointsScored", "SagaNogsHome", "GameEnded", "FinalScored"]
    assert "SagaCleared" not in types(events) and "SagaDrawn" not in types(events)
    assert "SeasonAdvanced" not in types(events)
    assert s.dragon == 0 and s.characters["nooka"] == "saga:0" and s.sagas[0].card == "the_dragon_hunt"
    assert RULES.to_move(s) == [] and RULES.pending_phase(s) is None
    with pytest.raises(IllegalMove, match="the game is over"):
        RULES.check(s, 0, {"type": "finish"})
    out = RULES.outcome(s)
    assert out["crown"] == out["winning_side"] == "noggin"
    assert out["reason"] == "Noggin's Dragon reached the crown"
    top = max(out["scores"])
    assert out["winners"] == out["council_of_elders"] == [i for i, v in enumerate(out["scores"]) if v == top]
    assert "leader_in_exile" not in out


def test_finishing_helper_is_consistent():
    """Sanity of this file's scenario builder: the stock, Nogs and cards add up."""
    s = finishing(saga="the_dragon_hunt", done=[done_card("A", "A13", [1, 0, 2])], last=("stone", "wood"),
                  last_card="C07", pre=[(1, True)])
    assert sagas.nogs_on(s, 0) == 3 and s.sagas[0].current.nogs == [0, 1, 0]
    assert [p.mountains for p in s.players] == [9, 9, 8] and s.players[0].stock["wood"] == 1
