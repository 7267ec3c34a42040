"""Characters' special abilities on Market Day (rulebook 6.1)."""

import pytest

from services.rules.core import IllegalMove
from services.rules.noggin import decks
from services.rules.noggin.board import nogbad_space

from .helpers import (RULES, activate_nogbad, chance_of, give, legal, normal_turn, put_invention, run,
                      run_phase, scenario, types)


def _turn():
    """Season 2, seat 0 to act on 10 with 2 Fish; the others on 13, 15 and 17."""
    s = scenario(3, season=2, positions=[10, 13, 15, 17])
    return give(s, 0, fish=2)


def _character(**kw):
    return {"type": "market_day", "op": "character", **kw}


@pytest.mark.rules("noggin:6.1/noggin-swap")
def test_noggin_takes_the_place_of_a_nog():
    """6.1: Noggin replaces a Nog on an action space; that Nog goes back to its owner's
    Mountains space (the owner's repeat count is unchanged)."""
    s = _turn()
    q = s.players[1]
    q.placed["miner"], q.uses["miner"], q.mountains = 2, 2, 8
    events = run(s, 0, _character(character="noggin", owner=1, action="miner"))
    assert types(events)[-2:] == ["CharacterUsed", "NogginSwapped"]
    assert q.placed["miner"] == 1 and q.mountains == 9 and q.uses["miner"] == 2
    assert s.characters["noggin"] == "action:miner"
    with pytest.raises(IllegalMove, match="seat 2 has no Nog on the farmer space"):
        RULES.check(_turn(), 0, _character(character="noggin", owner=2, action="farmer"))


@pytest.mark.rules("noggin:6.1/noggin-returns")
def test_noggin_returns_to_the_castle_at_the_change_of_season():
    """6.1: Noggin, left on an action space, is back in the Castle after the Change of Season."""
    s = _turn()
    s.players[1].placed["fisherman"], s.players[1].uses["fisherman"] = 1, 1
    s.players[1].mountains = 9
    run(s, 0, _character(character="noggin", owner=1, action="fisherman"))
    run(s, 0, {"type": "finish"})
    assert s.characters["noggin"] == "action:fisherman"
    normal_turn(s, 0, [20, 22, 23, 24])
    s.season, s.active = 2, None
    run_phase(s)
    assert s.season == 3 and s.characters["noggin"] == "castle"


@pytest.mark.rules("noggin:6.1/nooka-replace")
def test_nooka_replaces_a_reserve_card_from_b_or_c():
    """6.1: Nooka discards the Reserve card of a Saga (to its discard pile) and a new one is
    drawn from the B or C deck (from the bottom, house rule for ambiguity 3); the A deck
    may not be chosen."""
    s = _turn()
    with pytest.raises(IllegalMove, match="B or C deck"):
        RULES.check(s, 0, _character(character="nooka", saga=0, deck="A"))
    old = s.secret["saga_cards"][0]
    expected = decks.reserve_order(s, chance_of("7"), "C")[-1]
    events = run(s, 0, _character(character="nooka", saga=0, deck="C"))
    assert types(events)[-4:] == ["CharacterUsed", "ReserveCardDiscarded", "ReserveCardDrawn", "ReserveCardSealed"]
    assert s.secret["discard"]["A"] == [old] and s.reserve["A"]["discard"] == 1
    assert s.reserve["C"]["bottom"] == 1 and s.secret["saga_cards"][0] == expected
    card = s.sagas[0].current
    assert card.deck == "C" and all(m is None for m in card.met)


@pytest.mark.rules("noggin:6.1/knut-look")
def test_knut_secretly_sees_the_top_two_cards():
    """6.1: Knut shows the top 2 cards of the chosen Reserve deck (both sides) to the active
    seat alone: the event is private to it; the public decision says only how many."""
    s = _turn()
    top = decks.reserve_order(s, chance_of("7"), "B")[:2]
    events = run(s, 0, _character(character="knut", deck="B"))
    peek = next(e for e in events if e.type == "ReserveCardsPeeked")
    assert peek.to == 0 and [c["card"] for c in peek.data["cards"]] == top
    opened = next(e for e in events if e.type == "DecisionOpened")
    assert opened.to is None and opened.data == {"kind": "knut", "seat": 0, "deck": "B", "cards": 2}
    assert RULES.to_move(s) == [0] and legal(s, 0) == [{"type": "knut", "swap": False}, {"type": "knut", "swap": True}]


@pytest.mark.rules("noggin:6.1/knut-order")
def test_knut_puts_the_two_cards_back_in_the_chosen_order():
    """6.1: the player puts Knut's two cards back as they like: swapped, the next Saga's A card
    is the one that was second; kept, the order is unchanged. The choice is private; the
    public event is the same either way."""
    orders = {}
    for swap in (False, True):
        s = _turn()
        top = decks.reserve_order(s, chance_of("7"), "A")[s.reserve["A"]["top"]:][:2]
        run(s, 0, _character(character="knut", deck="A"))
        events = run(s, 0, {"type": "knut", "swap": swap})
        assert [e.type for e in events] == ["KnutOrdered", "ReserveCardsReturned"]
        assert events[0].to == 0 and events[1].to is None and events[1].data == {"seat": 0, "deck": "A"}
        assert s.decision is None and RULES.to_move(s) == [0]
        drawn = decks.draw_reserve(s, chance_of("7"), 0, "A", "top", fresh_saga=True)
        orders[swap] = (top, next(e.data["card"] for e in drawn if e.type == "ReserveCardSealed"))
    (top, first), (_, swapped) = orders[False], orders[True]
    assert first == top[0] and swapped == top[1]


@pytest.mark.rules("noggin:6.1/graculus-bring-back")
def test_graculus_brings_a_character_back_to_the_castle():
    """6.1: Graculus brings a character away from the Castle (here Knut, on a Saga) back; a
    character already in the Castle cannot be chosen."""
    s = _turn()
    with pytest.raises(IllegalMove, match="away from the Castle"):
        RULES.check(s, 0, _character(character="graculus", target="knut"))
    s.characters["knut"] = "saga:0"
    events = run(s, 0, _character(character="graculus", target="knut"))
    assert [e.data for e in events if e.type == "CharacterMoved"] == [
        {"character": "knut", "to": "castle", "by": "graculus"}]
    assert s.characters["knut"] == "castle"


@pytest.mark.rules("noggin:6.1/graculus-anywhere")
def test_graculus_acts_from_an_invention_and_ends_in_the_castle():
    """6.1: Graculus need not start in the Castle (here he is on an Invention) but ends there."""
    s = _turn()
    s.characters.update(graculus="invention:1", olaf="invention:0")
    run(s, 0, _character(character="graculus", target="olaf"))
    assert s.characters["graculus"] == "castle" and s.characters["olaf"] == "castle"


@pytest.mark.rules("noggin:6.1/thor-crow")
def test_thor_moves_the_crow_one_quarter_either_way():
    """6.1: with Nogbad inactive, Thor Nogson moves the Infamous Crow one quarter forward or
    back (from Fish back to Bad News, round the wheel)."""
    s = _turn()
    assert s.wheel == 0 and s.nogbad == "castle"
    events = run(s, 0, _character(character="thor", direction=-1))
    assert events[-1].type == "CrowTurned" and events[-1].data == {"quarter": 3, "by": "thor"}
    assert s.wheel == 3 and s.nogbad == "castle"
    s = _turn()
    run(s, 0, _character(character="thor", direction=1))
    assert s.wheel == 1


@pytest.mark.rules("noggin:6.1/thor-not-if-active")
def test_thor_cannot_move_the_crow_while_nogbad_is_active():
    """6.1: Thor's ability needs Nogbad inactive."""
    s = activate_nogbad(_turn(), 2)
    with pytest.raises(IllegalMove, match="only be moved this way while Nogbad is inactive"):
        RULES.check(s, 0, _character(character="thor", direction=1))
    assert s.wheel == 2 and nogbad_space(s) == "woodcutter"


@pytest.mark.rules("noggin:6.1/olaf-swap")
def test_olaf_lets_one_resource_of_an_invention_be_another():
    """6.1: after Olaf's ability, one resource placed on an Invention may replace the one it
    asks for (Wood for Stone); only one: the next Stone must be Stone."""
    s = _turn()
    give(s, 0, wood=3)
    put_invention(s, 0, "grottophoneum")  # Olaf, Stone, Stone
    with pytest.raises(IllegalMove, match=r"do not pay that condition \(stone\)"):
        RULES.check(s, 0, {"type": "market_day", "op": "invention", "invention": 0, "condition": 1,
                           "pay": ["wood"]})
    run(s, 0, _character(character="olaf"))
    assert s.action.olaf
    events = run(s, 0, {"type": "market_day", "op": "invention", "invention": 0, "condition": 1, "pay": ["wood"]})
    assert events[-1].data["paid"] == "wood" and events[-1].data["olaf"] is True
    assert s.players[0].stock["wood"] == 2 and not s.action.olaf
    with pytest.raises(IllegalMove, match=r"do not pay that condition \(stone\)"):
        RULES.check(s, 0, {"type": "market_day", "op": "invention", "invention": 0, "condition": 2,
                           "pay": ["wood"]})


@pytest.mark.rules("noggin:6.1/romf-swap")
def test_romf_swaps_a_top_tile_with_a_bottom_tile():
    """6.1: Romf swaps a Building tile of the top row with one of the bottom row."""
    s = _turn()
    s.rows = {"top": ["new_land", "granary", "woodcutters_hut"], "bottom": ["long_house", "fish_smokery", "granary"]}
    run(s, 0, _character(character="romf", top=0, bottom=1))
    assert s.rows == {"top": ["fish_smokery", "granary", "woodcutters_hut"],
                      "bottom": ["long_house", "new_land", "granary"]}


@pytest.mark.rules("noggin:6.1/romf-no-empty")
def test_romf_cannot_swap_with_an_empty_space():
    """6.1: a space emptied by a Builder cannot be swapped with."""
    s = _turn()
    s.rows = {"top": ["new_land", "granary", "woodcutters_hut"], "bottom": ["long_house", "", "granary"]}
    with pytest.raises(IllegalMove, match="not with an empty space"):
        RULES.check(s, 0, _character(character="romf", top=0, bottom=1))
    assert not any(m.get("character") == "romf" and m["bottom"] == 1 for m in legal(s, 0))
    RULES.check(s, 0, _character(character="romf", top=0, bottom=2))
