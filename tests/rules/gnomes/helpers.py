"""Helpers for A Game of Gnomes rules tests: games on the forward model and states arranged by hand.

``new_game`` sets a game up (rulebook B) with a fixed seed; ``play`` resolves one move
exactly as the coordinator does (parse, turn check, rule check, operations, follow-ups)
and returns its events; ``arrange`` puts a seat's gnome, timer, hand and items where a
test needs them (keeping ``hand_size`` in step with the secret hand); ``legal`` lists
legal moves; ``finish_round`` ends every remaining turn, sleeps taking nothing, discards
the first legal choice and runs the phase.
"""

from __future__ import annotations

from typing import Any

from services.rules.core import Event, GameConfig, IllegalMove
from services.rules.core.forward import apply, apply_phase, chance_from, resolve
from services.rules.gnomes import GAME as RULES
from services.rules.gnomes import geo
from services.rules.gnomes.state import PLAYER_COLOURS, State, site_of


def new_game(players: int = 3, seed: str = "test", drawn: bool = False, **options: bool) -> tuple[State, Any]:
    """A game of ``players`` set up with ``options`` (``random_layout``, ``gem_variant``);
    returns ``(state, chance)``. Unless ``drawn``, the seats then play red, yellow, blue and
    green in seat order, each gnome at its own house, as the tests name them (set-up draws
    the colours, house rule ``gnomes:B/gnomes-drawn``)."""
    config = GameConfig(game="gnomes", players=players, options=options)
    RULES.validate_config(config)
    chance = chance_from(seed)
    state = RULES.new_state()
    created = RULES.created_event(config)
    RULES.evolve(state, created)
    resolve(RULES, state, RULES.setup_ops(config), chance)
    if not drawn:
        houses = geo.house_of_colour()
        for p, colour in zip(state.players, PLAYER_COLOURS):
            p.colour, p.place = colour, site_of(state, houses[colour])
            p.route = [p.place] if p.route else []
    return state, chance


def play(state: State, seat: int, move: dict[str, Any], chance: Any) -> list[Event]:
    """Resolve ``move`` for ``seat`` (checked); raises IllegalMove / NotYourTurn / MalformedMove."""
    return apply(RULES, state, seat, move, chance)


def refused(state: State, seat: int, move: dict[str, Any], chance: Any) -> str:
    """The reason ``move`` is refused (asserts that it is, and that the state did not change)."""
    from services.rules.core import state_hash

    before = state_hash(state)
    try:
        play(state, seat, move, chance)
    except IllegalMove as exc:
        assert state_hash(state) == before
        return str(exc)
    raise AssertionError(f"{move} was accepted")


def legal(state: State, seat: int) -> list[dict[str, Any]]:
    """Legal moves of ``seat`` now."""
    return RULES.legal_moves(state, seat)


def active(state: State) -> int:
    """The seat whose decision it is."""
    return RULES.to_move(state)[0]


def at(state: State, tile: str) -> str:
    """The site a location tile lies on (``at(state, "D")`` is Descina's site)."""
    return site_of(state, tile)


def arrange(state: State, seat: int, *, place: str | None = None, timer: int | None = None,
            hand: list[str] | None = None, equipment: list[str] | None = None, basket: list[str] | None = None,
            gems: dict[str, int] | None = None, quest: str | None = None) -> None:
    """Set parts of ``seat``'s position directly (test arrangement only). ``place`` also
    restarts the turn's route there; ``hand`` replaces the secret hand and its size."""
    p = state.players[seat]
    if place is not None:
        p.place = place
        p.route = [place]
    if timer is not None:
        p.timer = timer
    if hand is not None:
        state.secret["hands"][seat] = sorted(hand)
        p.hand_size = len(hand)
    if equipment is not None:
        p.equipment = list(equipment)
    if basket is not None:
        p.basket = list(basket)
    if gems is not None:
        p.gems = {"brown": 0, "green": 0, "white": 0, **gems}
    if quest is not None:
        p.quest = quest


def types(events: list[Event]) -> list[str]:
    """The event types, in order."""
    return [e.type for e in events]


def first(events: list[Event], type_: str) -> Event:
    """The first event of ``type_`` (asserts there is one)."""
    for e in events:
        if e.type == type_:
            return e
    raise AssertionError(f"no {type_} in {types(events)}")


def end_turns(state: State, chance: Any) -> list[Event]:
    """End every turn left in this round; returns the events."""
    out: list[Event] = []
    while state.stage == "turns":
        out += play(state, active(state), {"type": "end_turn"}, chance)
    return out


def finish_round(state: State, chance: Any) -> list[Event]:
    """End the round: remaining turns end, sleepers take nothing, discards take the first legal
    choice, then the phase runs. Returns every event."""
    out = end_turns(state, chance)
    while state.stage in ("sleep", "hand"):
        seat = active(state)
        move = {"type": "sleep", "piles": []} if state.stage == "sleep" else legal(state, seat)[0]
        out += play(state, seat, move, chance)
    out += apply_phase(RULES, state, chance)
    return out
