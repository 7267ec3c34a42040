"""Sagas and Reserve cards (rulebook 6.4; 5.0 B).

Board domain: contributing to the Reserve card of one Saga on Market Day (a character
recruited from the Castle with 1 Food, or a resource; a Nog placed on the card or 1
point taken at once; the Counting House bonus of C cards), drawing the next Reserve
card from the bottom of B or C, the Nogbad portrait on a turned card (6.4 D, 8.0),
characters going back to the Castle, and taking Nogs back from an unfinished Saga (5.0 B).
Score domain: finishing a Saga (the Dragon moves by Nogs / 6 rounded up, with the Seer's
Tower and the Fireworks; points per Nog by depth; Nogs home; the game ends the moment
the Dragon reaches the crown, 9.0).

The completion steps A-F of a Reserve card run in order across operations: the last
condition met (here), the card turned over (deck), Nogbad's strike (here), then either
the next card's deck chosen by the active player or the Saga finished.
"""

from __future__ import annotations

from typing import Any

from services.rules.core import Event, IllegalMove

from . import content
from .board import has_artefact, nogbad_blocks, spare_nogs as board_spare
from .content import CHARACTERS
from .decks import can_draw
from .payments import pay_for
from .state import CASTLE, ReserveCard, State

SAGA_POINT = 1
"""Points taken at once instead of placing a Nog on a condition (6.4 B)."""
BONUS_PER_CARD = 2
"""Counting House bonus: points per Counting House card owned (6.4)."""
NOGS_PER_DRAGON_STEP = 6
"""Nogs on a finished Saga per space the Dragon moves, rounded up (6.4 step 1)."""
TOP_CARD_POINTS = 2
"""Points per Nog on the last (topmost) Reserve card; each card further down gives 1 more (6.4 step 2)."""
SEER_POINTS = 4
"""The Seer's Tower's points when its adjustment moves the Dragon further (appendix)."""


# -- what a condition costs ---------------------------------------------------------------

def free_recruit(state: State, seat: int, slot: int, need: str) -> bool:
    """A character comes to the Saga without Food: Knut with Knut's Carriage, any other
    character onto a Saga where Nooka is, with Nooka's Knife (appendix)."""
    p = state.players[seat]
    if need == "knut" and has_artefact(p, "knuts_carriage"):
        return True
    return need != "nooka" and has_artefact(p, "nookas_knife") and state.characters.get("nooka") == f"saga:{slot}"


def condition_slots(state: State, seat: int, slot: int, need: str) -> list[str]:
    """The payment slots of one condition: 1 Food for a character (none when free), else the
    resource itself (``food`` for Fish or Harvest) (6.4)."""
    if need in CHARACTERS:
        return [] if free_recruit(state, seat, slot, need) else ["food"]
    return [need]


def open_conditions(card: ReserveCard) -> list[int]:
    """Indices of the conditions of ``card`` not met yet."""
    return [i for i, m in enumerate(card.met) if m is None]


def can_claim_bonus(state: State, seat: int, card: ReserveCard, need: str) -> bool:
    """The C-card Counting House bonus (6.4): icon on the card, not claimed yet, a resource
    provided with a Nog, and the seat owns a Counting House card."""
    return (card.bonus and card.bonus_seat is None and need not in CHARACTERS
            and bool(state.players[seat].counting_house))


# -- contributing (Market Day, 6.4) ---------------------------------------------------------

def check_contribute(state: State, seat: int, slot: int, condition: int, nog: bool, bonus: bool,
                     pay: list[str] | None, market_day: bool = True, boat: bool = False) -> None:
    """Raise :class:`IllegalMove` unless the seat may meet condition ``condition`` of the
    Reserve card on Saga ``slot`` now, paying ``pay``, with a Nog (``nog``) or for 1 point.
    ``boat``: the character comes by Flying Boat, whose Food is checked by its caller."""
    if not 0 <= slot < len(state.sagas) or state.sagas[slot] is None:
        raise IllegalMove(f"there is no Saga card in display slot {slot} (rulebook 6.4)")
    if nogbad_blocks(state, "saga"):
        raise IllegalMove("Trouble at Home: while Nogbad is there nobody contributes to a Saga (rulebook 8.0)")
    saga = state.sagas[slot]
    card = saga.current
    if card is None:
        raise IllegalMove("that Saga has no Reserve card on its Harbourside; draw one first (rulebook 6.4)")
    if not 0 <= condition < len(card.needs) or card.met[condition] is not None:
        raise IllegalMove(f"condition {condition} of that Reserve card is not open (rulebook 6.4)")
    need = card.needs[condition]
    p = state.players[seat]
    if need in CHARACTERS and state.characters[need] != CASTLE and not boat:
        raise IllegalMove(f"{need} is not in Noggin's Castle, so cannot be recruited (rulebook 6.4)")
    slots = condition_slots(state, seat, slot, need)
    if not boat:
        pay_for(p, slots, pay, f"that condition ({', '.join(slots) or 'free'})")
    if bonus:
        if not nog:
            raise IllegalMove("the Counting House bonus needs a Nog placed on its icon (rulebook 6.4)")
        if not can_claim_bonus(state, seat, card, need):
            raise IllegalMove("the Counting House bonus needs a C card with the icon, unclaimed, a resource "
                              "and a Counting House card of yours (rulebook 6.4)")
    if nog and board_spare(state, seat, market_day) < 1:
        raise IllegalMove("you have no Nog on your Mountains space to place; take the point instead (rulebook 6.4)")


def contribute(state: State, seat: int, slot: int, condition: int, nog: bool, bonus: bool,
               pay: list[str] | None, market_day: bool = True, boat: bool = False) -> list[Event]:
    """Meet one condition (6.4): ``SagaConditionMet``; 1 point at once without a Nog, 2 per
    Counting House card owned for the bonus (``PointsScored``)."""
    saga = state.sagas[slot]
    assert saga is not None and saga.current is not None
    need = saga.current.needs[condition]
    slots = condition_slots(state, seat, slot, need)
    p = state.players[seat]
    cubes = sorted(pay) if boat and pay is not None else pay_for(p, slots, pay, "that condition")
    data: dict[str, Any] = {"seat": seat, "saga": slot, "condition": condition, "need": need,
                            "paid": cubes[0] if cubes else None, "nog": 1 if nog else 0}
    if bonus:
        data["bonus"] = True
    if need in CHARACTERS and not slots and not boat:
        data["artefact"] = "knuts_carriage" if need == "knut" and has_artefact(p, "knuts_carriage") else "nookas_knife"
    if not market_day:
        data["market_day"] = False
    events = [Event("SagaConditionMet", data)]
    if not nog:
        events.append(Event("PointsScored", {"seat": seat, "points": SAGA_POINT, "for": "saga condition"}))
    if bonus:
        events.append(Event("PointsScored", {"seat": seat, "points": BONUS_PER_CARD * len(p.counting_house),
                                             "for": "counting house bonus"}))
    return events


def card_complete(card: ReserveCard | None) -> bool:
    """Every condition of the card is met (6.4 "Completing a Reserve card")."""
    return card is not None and None not in card.met


def to_turn(state: State) -> int | None:
    """The Saga slot whose Reserve card is complete and not yet turned, if any."""
    for i, saga in enumerate(state.sagas):
        if saga is not None and saga.current is not None and None not in saga.current.met:
            return i
    return None


# -- the next Reserve card (6.4 F, "Choosing a Reserve Deck") -----------------------------------

def needs_draw(state: State) -> int | None:
    """The Saga slot waiting for its next Reserve card, which the active player draws from
    the deck of their choice (6.4 F), or None. A Saga whose B and C decks and discard piles
    are all empty waits (house rule)."""
    if state.saga_end is not None:
        return None
    for i, saga in enumerate(state.sagas):
        if saga is not None and saga.current is None and len(saga.done) < saga.needed:
            if can_draw(state, "B") or can_draw(state, "C"):
                return i
    return None


def check_draw_reserve(state: State, seat: int, slot: int, deck: str) -> None:
    """The completing player draws the next card from the bottom of B or C (6.4)."""
    if needs_draw(state) != slot:
        raise IllegalMove("no Saga of this Market Day waits for a new Reserve card (rulebook 6.4)")
    if deck not in ("B", "C"):
        raise IllegalMove("after the first card, Reserve cards come from the B or C deck (rulebook 6.4)")
    if not can_draw(state, deck):
        raise IllegalMove(f"the {deck} deck and its discard pile are empty")


# -- Nogbad's portrait (6.4 D, 8.0) -----------------------------------------------------------

def nogbad_strikes(state: State) -> list[Event]:
    """A turned Reserve card showed Nogbad: the Infamous Crow moves one quarter clockwise and
    Nogbad leaves his castle (or escapes the Royal Dungeon, his gaoler going home) for that
    quarter's space (6.4 D, 8.0, appendix)."""
    quarter = (state.wheel + 1) % 4
    return [Event("CrowTurned", {"quarter": quarter, "by": "reserve card"}),
            Event("NogbadMoved", {"to": "active", "quarter": quarter, "strike": True,
                                  "escaped": state.nogbad == "dungeon"})]


# -- finishing a Saga (6.4 "Completing a Saga") -------------------------------------------------

def nogs_on(state: State, slot: int) -> int:
    """Nogs on all the Reserve cards of the Saga in ``slot`` (6.4 step 1)."""
    saga = state.sagas[slot]
    return 0 if saga is None else sum(sum(c["nogs"]) for c in saga.done)


def dragon_steps(nogs: int) -> int:
    """Spaces the Dragon moves for a finished Saga: Nogs / 6 rounded up (6.4 step 1)."""
    return -(-nogs // NOGS_PER_DRAGON_STEP)


def owner_of(state: State, card: str, face_up: bool = True) -> int | None:
    """The seat owning Year 2 building or Counting House card ``card`` (face up), if any."""
    for p in state.players:
        if card in p.buildings or (has_artefact(p, card) if face_up else False):
            return p.seat
    return None


def seer_matters(state: State) -> int | None:
    """The Seer's Tower owner when a +/-1 Nog would change the Dragon's move (appendix)."""
    end = state.saga_end
    if end is None:
        return None
    owner = owner_of(state, "seers_tower")
    n = nogs_on(state, end["saga"])
    if owner is None or n % NOGS_PER_DRAGON_STEP not in (0, 1):
        return None
    return owner


def fireworks_owner(state: State) -> int | None:
    """The owner of face-up Fireworks, who may play it as a Saga finishes (appendix)."""
    return owner_of(state, "fireworks")


def waiting_seat(state: State) -> int | None:
    """The seat whose decision a finishing Saga waits for (Seer's Tower, then Fireworks)."""
    end = state.saga_end
    if end is None:
        return None
    if end["stage"] == "seer":
        return seer_matters(state)
    if end["stage"] == "fireworks":
        return fireworks_owner(state)
    return None


def next_stage(state: State) -> list[Event]:
    """Skip a Saga-end stage nobody has to decide. ``SagaEndStage``."""
    assert state.saga_end is not None
    stage = {"seer": "fireworks", "fireworks": "score"}[state.saga_end["stage"]]
    return [Event("SagaEndStage", {"stage": stage})]


def check_seer(state: State, seat: int, adjust: int) -> None:
    """The Seer's Tower owner adjusts the Nog count by -1, 0 or +1 (appendix)."""
    if state.saga_end is None or state.saga_end["stage"] != "seer" or seer_matters(state) != seat:
        raise IllegalMove("no Saga is finishing that your Seer's Tower can adjust")
    if adjust not in (-1, 0, 1):
        raise IllegalMove("the Seer's Tower adjusts the total by -1, 0 or +1 (appendix)")


def seer(state: State, seat: int, adjust: int) -> list[Event]:
    """Record the Seer's Tower adjustment (appendix). ``SagaEndStage``."""
    return [Event("SagaEndStage", {"stage": "fireworks", "adjust": adjust, "seat": seat})]


def check_fireworks(state: State, seat: int) -> None:
    """The Fireworks owner decides as a Saga finishes (appendix)."""
    if state.saga_end is None or state.saga_end["stage"] != "fireworks" or fireworks_owner(state) != seat:
        raise IllegalMove("no Saga is finishing for your Fireworks")


def fireworks(state: State, seat: int, play: bool) -> list[Event]:
    """Play the Fireworks (+1 to Noggin's popularity; the card leaves the game, its Nog
    goes home: house rule) or keep it (appendix). ``SagaEndStage``."""
    data: dict[str, Any] = {"stage": "score", "seat": seat}
    if play:
        data["fireworks"] = True
    return [Event("SagaEndStage", data)]


def finish_saga(state: State) -> list[Event]:
    """6.4 "Completing a Saga" steps 1-3 and the Dragon check; steps 4-6 if the game goes on.

    ``DragonMoved`` (``by``: Nogs / 6 rounded up, Seer's Tower and Fireworks included),
    ``PointsScored`` per seat (2 per Nog on the top card, 3 on the next one down, ...),
    ``SagaNogsHome``; then ``GameEnded`` if the Dragon reached the crown (9.0), else
    ``SagaCleared`` (characters to the Castle, cards to the discard piles, coins released
    by the Money Saga, 6.6).
    """
    end = state.saga_end
    assert end is not None
    slot = end["saga"]
    saga = state.sagas[slot]
    assert saga is not None
    n = nogs_on(state, slot)
    steps = dragon_steps(n + end["adjust"]) + (1 if end["fireworks"] else 0)
    to = max(0, state.dragon - steps)
    events = [Event("DragonMoved", {"by": steps, "to": to, "nogs": n, "saga": saga.card})]
    owner = owner_of(state, "seers_tower")
    if owner is not None and end["adjust"] and dragon_steps(n + end["adjust"]) > dragon_steps(n):
        events.append(Event("PointsScored", {"seat": owner, "points": SEER_POINTS, "for": "seer's tower"}))
    players = len(state.players)
    points = [0] * players
    for depth, card in enumerate(reversed(saga.done)):
        for seat, k in enumerate(card["nogs"]):
            points[seat] += k * (TOP_CARD_POINTS + depth)
    for seat, pts in enumerate(points):
        if pts:
            events.append(Event("PointsScored", {"seat": seat, "points": pts, "for": "saga"}))
    home = [sum(c["nogs"][seat] for c in saga.done) for seat in range(players)]
    events.append(Event("SagaNogsHome", {"saga": slot, "nogs": home}))
    if to == 0:
        events.append(Event("GameEnded", {"reason": "Noggin's Dragon reached the crown", "crown": "noggin"}))
        return events
    data: dict[str, Any] = {"saga": slot, "card": saga.card}
    if content.saga_index()[saga.card].money:
        data["coins"] = content.load().setup.coins
    events.append(Event("SagaCleared", data))
    return events


# -- taking Nogs back from an unfinished Saga (5.0 B) ------------------------------------------

def recall_sources(state: State, seat: int) -> list[tuple[int, int]]:
    """``(saga slot, card)`` pairs holding a Nog of ``seat`` on an unfinished Saga; card
    ``len(done)`` is the current Reserve card."""
    out = []
    for slot, saga in enumerate(state.sagas):
        if saga is None or (state.saga_end is not None and state.saga_end["saga"] == slot):
            continue
        for k, c in enumerate(saga.done):
            if c["nogs"][seat]:
                out.append((slot, k))
        if saga.current is not None and saga.current.nogs[seat]:
            out.append((slot, len(saga.done)))
    return out


def check_recall(state: State, seat: int, slot: int, card: int) -> None:
    """5.0 B: with no Nog left on the Mountains space, on the seat's own turn and between
    actions, a Nog may come back from an unfinished Saga for an action; more may follow,
    from more than one Saga, when the action needs more than one."""
    if state.action is not None:
        raise IllegalMove(f"finish your {state.action.kind} action first")
    if state.players[seat].mountains > 0 and not state.recalled:
        raise IllegalMove("Nogs come back from a Saga only when none is left on your Mountains space (rulebook 5.0)")
    if (slot, card) not in recall_sources(state, seat):
        raise IllegalMove("you have no Nog on that card of an unfinished Saga (rulebook 5.0)")


def recall(state: State, seat: int, slot: int, card: int) -> list[Event]:
    """Take one Nog back from a card of an unfinished Saga; its space stays empty (5.0 B). ``NogsRecalled``."""
    return [Event("NogsRecalled", {"seat": seat, "saga": slot, "card": card})]
