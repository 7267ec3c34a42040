"""Characters and Nogbad: the special abilities (rulebook 6.1), evicting Nogbad (6.2) and
the Wheel of Infamy (8.0). Board domain.

A character's ability is the first thing a Market Day may do (6.0): 1 Food, the
character in Noggin's Castle (Graculus need not be), the S.O.S. variant waiving the Food.
Nogbad is in his castle, active on the space of the Infamous Crow's quarter (blocking it,
8.0), or imprisoned in the Royal Dungeon (appendix). The Crow moves one quarter clockwise
at every Change of Season and whenever a turned Reserve card shows Nogbad (8.0, 6.4 D);
Thor Nogson and the Darkness Tome move it one quarter either way while he is inactive.
"""

from __future__ import annotations

from typing import Any

from services.rules.core import Event, IllegalMove

from . import content
from .board import has_artefact, nogbad_space
from .content import CHARACTERS
from .decks import can_draw, reserve_left
from .payments import pay_for
from .state import ACTIONS, CASTLE, State, option

THOR_POINTS = 1
"""Prestige for evicting Nogbad with Thor Nogson (6.2)."""
PAIR_POINTS = 2
"""Prestige for evicting Nogbad with Graculus and Romf, or alone with the Roman Medal (6.2, appendix)."""
DUNGEON_POINTS = 6
"""Points for each imprisonment in the Royal Dungeon (appendix)."""
EVICTIONS = {"thor": (("thor",), 1, THOR_POINTS), "graculus_romf": (("graculus", "romf"), 2, PAIR_POINTS),
             "romf": (("romf",), 1, PAIR_POINTS), "graculus": (("graculus",), 1, PAIR_POINTS)}
"""Ways to evict Nogbad: characters needed in the Castle, Food paid, points (6.2; Romf or
Graculus alone only with the Roman Medal)."""


def food_slots(state: State, n: int = 1) -> list[str]:
    """``n`` Food for a character's ability, or none under S.O.S. (6.1, variants)."""
    return [] if option(state, "sos") else ["food"] * n


# -- the Wheel of Infamy (8.0) ----------------------------------------------------------------

def quarter_name(quarter: int) -> str:
    """The name of a quarter of the Wheel of Infamy (8.0)."""
    return content.load().characters.wheel[quarter].name


def turn_wheel(state: State) -> list[Event]:
    """Change of Season (8.0, 7.1): the Infamous Crow moves one quarter; active Nogbad
    follows it to the new space. ``CrowTurned`` and, if he moves, ``NogbadMoved``."""
    quarter = (state.wheel + 1) % 4
    events = [Event("CrowTurned", {"quarter": quarter, "by": "change of season"})]
    if state.nogbad == "active":
        events.append(Event("NogbadMoved", {"to": "active", "quarter": quarter}))
    return events


def check_crow_step(state: State, direction: int) -> None:
    """Thor Nogson or the Darkness Tome: only while Nogbad is inactive, one quarter either way
    (6.1, appendix)."""
    if state.nogbad == "active":
        raise IllegalMove("the Crow can only be moved this way while Nogbad is inactive (rulebook 6.1)")
    if direction not in (-1, 1):
        raise IllegalMove("the Crow moves one quarter forward (1) or backward (-1)")


# -- character abilities (6.1) ---------------------------------------------------------------

def check_character(state: State, seat: int, move: dict[str, Any]) -> None:
    """Raise unless the seat may use ``move["character"]``'s ability now (6.1)."""
    ch = move["character"]
    if ch not in CHARACTERS:
        raise IllegalMove(f"unknown character {ch!r}")
    if ch != "graculus" and state.characters[ch] != CASTLE:
        raise IllegalMove(f"{ch} must be in Noggin's Castle to use his ability (rulebook 6.1)")
    pay_for(state.players[seat], food_slots(state), move.get("pay"), "a character's ability (1 Food, rulebook 6.1)")
    if ch == "noggin":
        owner, action = move.get("owner"), move.get("action")
        if owner is None or not 0 <= owner < len(state.players) or action not in ACTIONS:
            raise IllegalMove('Noggin names the "owner" seat and the "action" space of the Nog he replaces')
        if state.players[owner].placed[action] < 1:
            raise IllegalMove(f"seat {owner} has no Nog on the {action} space (rulebook 6.1)")
        if action == nogbad_space(state) and action != "market_day":
            raise IllegalMove("no Nog comes back from the space where Nogbad is (rulebook 8.0)")
    elif ch == "nooka":
        slot, deck = move.get("saga"), move.get("deck")
        if slot is None or not 0 <= slot < len(state.sagas) or state.sagas[slot] is None:
            raise IllegalMove("Nooka names the Saga whose Reserve card she discards")
        card = state.sagas[slot].current
        if card is None:
            raise IllegalMove("that Saga has no Reserve card to discard (rulebook 6.1)")
        if any(m is not None for m in card.met):
            raise IllegalMove("Nooka discards only a Reserve card with nothing on it yet (house rule, 6.1)")
        if deck not in ("B", "C") or not can_draw(state, deck):
            raise IllegalMove("Nooka's new card comes from the B or C deck, which must have one (rulebook 6.1)")
    elif ch == "knut":
        deck = move.get("deck")
        if deck not in ("A", "B", "C") or reserve_left(state, deck) < 1:
            raise IllegalMove("Knut looks at the top cards of a Reserve deck that has cards (rulebook 6.1)")
    elif ch == "graculus":
        target = move.get("target")
        if target not in CHARACTERS or target == "graculus" or state.characters[target] == CASTLE:
            raise IllegalMove("Graculus brings back a character who is away from the Castle (rulebook 6.1)")
    elif ch == "thor":
        check_crow_step(state, move.get("direction", 0))
    elif ch == "romf":
        top, bottom = move.get("top"), move.get("bottom")
        rows = state.rows
        if (top is None or bottom is None or not 0 <= top < len(rows["top"]) or not 0 <= bottom < len(rows["bottom"])
                or not rows["top"][top] or not rows["bottom"][bottom]):
            raise IllegalMove("Romf swaps a tile of the top row with a tile of the bottom row; "
                              "not with an empty space (rulebook 6.1)")


def use_character(state: State, seat: int, move: dict[str, Any]) -> list[Event]:
    """Pay and carry out a character's ability (6.1). ``CharacterUsed`` then the ability's events
    (Knut and Nooka go on in the deck domain)."""
    ch = move["character"]
    paid = pay_for(state.players[seat], food_slots(state), move.get("pay"), "a character's ability")
    events = [Event("CharacterUsed", {"seat": seat, "character": ch, "paid": paid})]
    if ch == "noggin":
        events.append(Event("NogginSwapped", {"seat": seat, "owner": move["owner"], "action": move["action"]}))
    elif ch == "nooka":
        events.append(Event("ReserveCardDiscarded", {"saga": move["saga"], "by": "nooka"}))
    elif ch == "graculus":
        events.append(Event("CharacterMoved", {"character": move["target"], "to": CASTLE, "by": "graculus"}))
        if state.characters["graculus"] != CASTLE:
            events.append(Event("CharacterMoved", {"character": "graculus", "to": CASTLE, "by": "graculus"}))
    elif ch == "thor":
        events.append(Event("CrowTurned", {"quarter": (state.wheel + move["direction"]) % 4, "by": "thor"}))
    elif ch == "romf":
        events.append(Event("TilesSwapped", {"top": move["top"], "bottom": move["bottom"]}))
    return events


# -- evicting Nogbad (6.2) and the Royal Dungeon (appendix) -----------------------------------

def check_evict(state: State, seat: int, by: str, pay: list[str] | None) -> None:
    """Evict Nogbad (6.2): he must be blocking an action; Thor Nogson in the Castle and 1 Food,
    or Graculus and Romf together and 2 Food; with the Roman Medal Romf or Graculus alone
    for 1 Food."""
    if state.nogbad != "active":
        raise IllegalMove("Nogbad is not blocking any action (rulebook 6.2)")
    if by not in EVICTIONS:
        raise IllegalMove("evict Nogbad by thor, graculus_romf, or with the Roman Medal romf or graculus")
    chars, food, _ = EVICTIONS[by]
    if by in ("romf", "graculus") and not has_artefact(state.players[seat], "roman_medal"):
        raise IllegalMove("Romf or Graculus act alone only for the owner of the Roman Medal (appendix)")
    for ch in chars:
        if state.characters[ch] != CASTLE:
            raise IllegalMove(f"{ch} must be in Noggin's Castle to evict Nogbad (rulebook 6.2)")
    pay_for(state.players[seat], ["food"] * food, pay, f"the eviction ({food} Food, rulebook 6.2)")


def dungeon_keeper(state: State) -> int | None:
    """The Royal Dungeon's owner if a Nog can keep watch there (appendix)."""
    for p in state.players:
        if "royal_dungeon" in p.buildings and p.mountains > 0:
            return p.seat
    return None


def evict(state: State, seat: int, by: str, pay: list[str] | None) -> list[Event]:
    """Nogbad flees to his castle, or into the Royal Dungeon with a gaoler Nog of its owner,
    who scores 6 (6.2, appendix). ``NogbadEvicted``, ``PointsScored``, ``NogbadMoved``."""
    chars, food, points = EVICTIONS[by]
    paid = pay_for(state.players[seat], ["food"] * food, pay, "the eviction")
    data = {"seat": seat, "by": by, "paid": paid, "space": nogbad_space(state)}
    if by in ("romf", "graculus"):
        data["artefact"] = "roman_medal"
    events = [Event("NogbadEvicted", data),
              Event("PointsScored", {"seat": seat, "points": points, "for": "evicting nogbad"})]
    keeper = dungeon_keeper(state)
    if keeper is None:
        events.append(Event("NogbadMoved", {"to": CASTLE}))
    else:
        events += [Event("NogbadMoved", {"to": "dungeon", "gaoler": keeper}),
                   Event("PointsScored", {"seat": keeper, "points": DUNGEON_POINTS, "for": "royal dungeon"})]
    return events
