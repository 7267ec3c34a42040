"""Abilities used as free actions on a seat's own turn, between actions (rulebook appendix,
6.3, 6.5; variants): Counting House artefacts, Inventions, Year 2 buildings, and the
Friend or Foe accusation.

Board domain, except the points they score (score domain). One move shape serves them
all: ``{"type": "use", "card": <id>, ...}``. An ability marked "once per season" lays its
Nog down until the Change of Season; "once per turn" until the turn ends (6.3, 6.5).
Abilities that act inside an action live with that action: the Moon Stone and Coral
Necklace in :mod:`.board`, the Good Genie with the Builder, Honey & Mead with Market Day,
Knut's Carriage and Nooka's Knife with Sagas, the Ring of Nudrug with the auction, the
Roman Medal with evicting Nogbad, the Silver Gong with the Change of Season, the Seer's
Tower and Fireworks with finishing a Saga, the Cupola Clock with ending a turn.
"""

from __future__ import annotations

from typing import Any

from services.rules.core import Event, IllegalMove

from . import content
from .board import can_use, has_artefact, nogbad_space, room
from .characters import check_crow_step
from .content import BASIC, CHARACTERS
from .decks import reserve_left
from .payments import pay_for
from .state import ACTIONS, CASTLE, State, option, season_name
from .steps import check_steps

FREE_ABILITIES = ("knuts_seat", "royal_kitchens", "windmill", "nookas_kitchen_garden", "omruds_ornamental_garden",
                  "royal_horse_trough", "darkness_tome", "telescope", "war_banner", "potion", "heated_storkery",
                  "hnefetfl", "flying_boat")
"""Cards whose ability is a free action of their owner's turn."""
WINDMILL_POINTS = {1: 4, 2: 8}
"""Windmill: 1 Nog + 1 Harvest for 4, + 2 Harvest for 8 (appendix)."""
KITCHENS_HARVEST = 2
"""Royal Kitchens: Harvest per Nog (appendix)."""
STORKERY_HARVEST = 2
"""Heated Storkery: Harvest gained in Spring, once per turn (appendix)."""
ONCE = {"knuts_seat": "season", "royal_kitchens": "season", "windmill": "season", "darkness_tome": "season",
        "telescope": "season", "war_banner": "season", "potion": "season", "heated_storkery": "turn",
        "hnefetfl": "turn"}
"""How often each free ability may be used (appendix)."""


def owned(state: State, seat: int) -> set[str]:
    """Every card the seat owns: face-up artefacts, Inventions won, Year 2 buildings built
    (the cards :func:`owns` answers True for)."""
    p = state.players[seat]
    return {c["card"] for c in p.counting_house if c["up"]} | set(p.inventions) | set(p.buildings)


def owns(state: State, seat: int, card: str) -> bool:
    """The seat owns ``card``: a face-up artefact, an Invention won or a Year 2 building built."""
    p = state.players[seat]
    return has_artefact(p, card) or card in p.inventions or card in p.buildings


def _lock_need(state: State, seat: int, card: str) -> dict[str, int]:
    """Resources still to lock on a Year 2 garden or trough (appendix)."""
    info = content.building_index()[card]
    have = state.players[seat].locked.get(card, {})
    return {r: k - have.get(r, 0) for r, k in info.holds.items() if k > have.get(r, 0)}


def check_use(state: State, seat: int, move: dict[str, Any]) -> None:
    """Raise :class:`IllegalMove` unless the seat may use ``move["card"]`` now (appendix)."""
    card = move["card"]
    p = state.players[seat]
    if card not in FREE_ABILITIES:
        raise IllegalMove(f"{card!r} has no ability to use between actions")
    if not owns(state, seat, card):
        kind = ("Counting House card (face up)" if card in content.counting_house_index()
                else "Invention" if card in content.invention_index() else "Year 2 building")
        raise IllegalMove(f"you do not own the {card} {kind}")
    once = ONCE.get(card)
    if state.recalled and card in ("knuts_seat", "royal_kitchens", "windmill"):
        raise IllegalMove("Nogs taken back from a Saga are only for an action (rulebook 5.0 B)")
    if once and not can_use(p, card):
        raise IllegalMove(f"{card} was already used this {once} (its Nog is laid down, rulebook 6.3, 6.5)")
    if card == "knuts_seat":
        if p.mountains < 1:
            raise IllegalMove("Knut's Seat needs a Nog from your Mountains space (appendix)")
    elif card == "royal_kitchens":
        if p.mountains < 1:
            raise IllegalMove("the Royal Kitchens need a Nog from your Mountains space (appendix)")
        if min(KITCHENS_HARVEST, state.market["harvest"], room(p, "harvest")) < 1:
            raise IllegalMove("no Harvest to take, or no room to store it (appendix, no waste)")
    elif card == "windmill":
        k = move.get("harvest")
        if k not in WINDMILL_POINTS:
            raise IllegalMove("the Windmill takes 1 or 2 Harvest with its Nog (appendix)")
        if p.mountains < 1:
            raise IllegalMove("the Windmill needs a Nog from your Mountains space (appendix)")
        pay_for(state.players[seat], ["harvest"] * k, move.get("pay"), f"{k} Harvest")
    elif card in ("nookas_kitchen_garden", "omruds_ornamental_garden", "royal_horse_trough"):
        r = move.get("resource")
        if r not in _lock_need(state, seat, card):
            raise IllegalMove(f"the {card} does not take a {r} now; it needs {_lock_need(state, seat, card)} (appendix)")
        if p.stock[r] < 1:
            raise IllegalMove(f"you have no {r} to place on it")
    elif card == "darkness_tome":
        check_crow_step(state, move.get("direction", 0))
    elif card == "telescope":
        deck = move.get("deck")
        if deck not in ("A", "B", "C") or reserve_left(state, deck) < 1:
            raise IllegalMove("the Telescope looks at the bottom card of a Reserve deck that has cards (appendix)")
    elif card == "war_banner":
        action = move.get("action")
        if action not in ACTIONS or p.placed[action] < 1:
            raise IllegalMove("the War Banner takes back one of your Nogs from an action space (appendix)")
        if action == nogbad_space(state) and action != "market_day":
            raise IllegalMove("no Nog comes back from the space where Nogbad is (rulebook 8.0)")
        pay_for(state.players[seat], ["food"], move.get("pay"), "1 Food")
    elif card == "potion":
        r = move.get("resource")
        if r not in BASIC or p.stock[r] < 1:
            raise IllegalMove("the Potion copies a resource you have in your Farm (appendix)")
        if state.market[r] < 1 or room(p, r) < 1:
            raise IllegalMove(f"the Nog Market has no {r}, or you have no room for it (appendix)")
    elif card == "heated_storkery":
        if season_name(state.season) != "spring":
            raise IllegalMove("the Heated Storkery gives Harvest in Spring (appendix)")
        if min(STORKERY_HARVEST, state.market["harvest"], room(p, "harvest")) < 1:
            raise IllegalMove("no Harvest to take, or no room to store it (appendix, no waste)")
    elif card == "hnefetfl":
        steps = move.get("steps")
        if steps not in (1, 2):
            raise IllegalMove("Hnefetfl spends 1 or 2 Steps (appendix)")
        check_steps(state, state.active, steps)
    elif card == "flying_boat":
        _check_boat(state, seat, move)


def _check_boat(state: State, seat: int, move: dict[str, Any]) -> None:
    """The Flying Boat: 1 Food moves a character from a Saga or Invention card to another
    card that asks for it, meeting that condition (appendix; house rule: the Food is the
    condition's cube, and a Saga condition takes a Nog or gives the point as usual)."""
    from . import sagas

    ch = move.get("character")
    where = state.characters.get(ch or "", "")
    if ch not in CHARACTERS or not (where.startswith("saga:") or where.startswith("invention:")):
        raise IllegalMove("the Flying Boat moves a character who is on a Saga or Invention card (appendix)")
    target, slot, cond = move.get("to"), move.get("slot"), move.get("condition")
    if state.recalled and (target == "invention" or move.get("nog")):
        raise IllegalMove("Nogs taken back from a Saga are only for an action (rulebook 5.0 B)")
    if f"{target}:{slot}" == where:
        raise IllegalMove("the Flying Boat moves the character to another card (appendix)")
    if target == "saga":
        saga = state.sagas[slot] if isinstance(slot, int) and 0 <= slot < len(state.sagas) else None
        if saga is None or saga.current is None or not 0 <= (cond or 0) < len(saga.current.needs) \
                or saga.current.needs[cond] != ch:
            raise IllegalMove(f"that Saga's Reserve card does not ask for {ch} there (appendix)")
        sagas.check_contribute(state, seat, slot, cond, bool(move.get("nog")), False, None, market_day=False,
                               boat=True)
    elif target == "invention":
        inv = state.inventions[slot] if isinstance(slot, int) and 0 <= slot < len(state.inventions) else None
        if inv is None or not 0 <= (cond or 0) < len(inv.needs) or inv.needs[cond] != ch:
            raise IllegalMove(f"that Invention does not ask for {ch} there (appendix)")
        if inv.met[cond] is not None:
            raise IllegalMove("that condition is already met")
        if state.players[seat].mountains < 1:
            raise IllegalMove("an Invention condition needs a Nog (rulebook 6.5)")
    else:
        raise IllegalMove('the Flying Boat goes "to" a "saga" or an "invention"')
    pay_for(state.players[seat], ["food"], move.get("pay"), "1 Food")


def use(state: State, seat: int, move: dict[str, Any]) -> list[Event]:
    """Carry out a free ability (appendix). ``AbilityUsed`` plus its effects. The Telescope
    is the deck domain's (:func:`.decks.telescope`)."""
    card = move["card"]
    p = state.players[seat]
    data: dict[str, Any] = {"seat": seat, "card": card}
    if card in ONCE:
        data["once"] = ONCE[card]
    extra: list[Event] = []
    if card == "knuts_seat":
        data["nogs"] = 1
    elif card == "royal_kitchens":
        data["nogs"] = 1
        data["gained"] = {"harvest": min(KITCHENS_HARVEST, state.market["harvest"], room(p, "harvest"))}
    elif card == "windmill":
        k = move["harvest"]
        data["nogs"] = 1
        data["paid"] = pay_for(state.players[seat], ["harvest"] * k, move.get("pay"), "Harvest")
        extra.append(Event("PointsScored", {"seat": seat, "points": WINDMILL_POINTS[k], "for": "windmill"}))
    elif card in ("nookas_kitchen_garden", "omruds_ornamental_garden", "royal_horse_trough"):
        data["locked"] = {move["resource"]: 1}
    elif card == "darkness_tome":
        return [Event("CrowTurned", {"quarter": (state.wheel + move["direction"]) % 4, "by": "darkness tome",
                                     "seat": seat, "used": "darkness_tome"})]
    elif card == "war_banner":
        data["paid"] = pay_for(state.players[seat], ["food"], move.get("pay"), "1 Food")
        data["action_nog"] = move["action"]
    elif card == "potion":
        data["gained"] = {move["resource"]: 1}
    elif card == "heated_storkery":
        data["gained"] = {"harvest": min(STORKERY_HARVEST, state.market["harvest"], room(p, "harvest"))}
    elif card == "hnefetfl":
        i = state.active
        assert i is not None
        extra += [Event("StepsUsed", {"marker": i, "seat": seat, "to": state.markers[i].pos + move["steps"]}),
                  Event("PointsScored", {"seat": seat, "points": move["steps"], "for": "hnefetfl"})]
    elif card == "flying_boat":
        return _boat(state, seat, move)
    return [Event("AbilityUsed", data), *extra]


def _boat(state: State, seat: int, move: dict[str, Any]) -> list[Event]:
    from . import inventions, sagas

    ch = move["character"]
    paid = pay_for(state.players[seat], ["food"], move.get("pay"), "1 Food")
    events = [Event("CharacterMoved", {"character": ch, "to": CASTLE, "by": "flying boat"})]
    if move["to"] == "saga":
        return events + sagas.contribute(state, seat, move["slot"], move["condition"], bool(move.get("nog")), False,
                                         paid, market_day=False, boat=True)
    return events + inventions.contribute(state, seat, move["slot"], move["condition"], paid, market_day=False,
                                          boat=True)


# -- Friend or Foe (variants) ---------------------------------------------------------------------

def check_accuse(state: State, seat: int, accused: int) -> None:
    """Play the Accusation card once, against another seat not yet unmasked (variants)."""
    if not option(state, "friend_or_foe"):
        raise IllegalMove("accusations belong to the Friend or Foe variant")
    p = state.players[seat]
    if p.accused:
        raise IllegalMove("your Accusation card is already played (variants: once per game)")
    if not 0 <= accused < len(state.players) or accused == seat:
        raise IllegalMove("accuse another seat")
    if state.players[accused].unmasked:
        raise IllegalMove("that seat is already unmasked")


def accuse(state: State, seat: int, accused: int) -> list[Event]:
    """Right: +10 to the accuser and the accused is unmasked (plays as a friend from now on);
    wrong: -10 (variants). ``Accused`` reveals the accused seat's card."""
    pts = content.load().characters.friend_or_foe.accusation_points
    card = state.secret["loyalty"][accused]
    right = card == "nogbad"
    return [Event("Accused", {"seat": seat, "accused": accused, "card": card, "right": right}),
            Event("PointsScored", {"seat": seat, "points": pts if right else -pts, "for": "accusation"})]
