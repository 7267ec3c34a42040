"""The forward model: moves and phases applied straight to a state, with no store or Table.

This is the rules core's interface for search (bots, simulations, benchmarks, rules
tests): :func:`apply` resolves one move exactly as the coordinator does — check, plan,
run each operation (deck operations with the given chance), evolve, follow-ups — but on
a state the caller owns. :func:`clone` copies a state cheaply (copy-on-write); a game's
:meth:`~services.rules.core.game.Rules.determinise` replaces what a seat cannot see by
a sample, so search never reads hidden information.
"""

from __future__ import annotations

from typing import Any, Callable

from .chance import Chance, OutcomeSource
from .events import Event
from .game import ChanceFactory, Op, Rules


def chance_from(seed: str) -> ChanceFactory:
    """A chance factory from a seed (a game's own seed, or a bot's for determinised search)."""
    return lambda label: Chance(seed, label)


def chance_with(source: OutcomeSource) -> ChanceFactory:
    """A chance factory whose every draw's outcome comes from ``source`` (``source(n)`` in
    ``[0, n)``), whatever the label: a research adapter's explicit chance (see
    :mod:`services.rules.core.chance`)."""
    return lambda label: Chance("", label, source)


def start(rules: Rules, config: Any, chance: ChanceFactory) -> tuple[Any, list[Event]]:
    """A new game of ``config`` (a ``GameConfig``) set up on the forward model: returns the state
    and its events (``GameCreated`` and the set-up's)."""
    state = rules.new_state()
    created = rules.created_event(config)
    rules.evolve(state, created)
    return state, [created, *resolve(rules, state, rules.setup_ops(config), chance)]


def resolve(rules: Rules, state: Any, ops: list[Op], chance: ChanceFactory) -> list[Event]:
    """Run ``ops`` and then every follow-up on ``state`` in place; return the events."""
    out: list[Event] = []
    handle, evolve, follow_up = rules.handle, rules.evolve, rules.follow_up
    while ops:
        for op in ops:
            events = handle(state, op, chance if op.domain == "deck" else None)
            for e in events:
                evolve(state, e)
            out += events
        ops = follow_up(state)
    return out


def apply(rules: Rules, state: Any, seat: int, move: dict[str, Any], chance: ChanceFactory,
          checked: bool = False) -> list[Event]:
    """Resolve ``move`` of ``seat`` on ``state`` in place and return its events.

    Args:
        rules: the game's rules.
        state: changed in place (pass :func:`clone` of it to keep the original).
        seat: the seat moving.
        move: a move dict; parsed and checked unless ``checked`` (a move taken from
            ``legal_moves`` of this very state may skip both).
        chance: where deck operations draw from.
    Raises:
        MalformedMove, IllegalMove, NotYourTurn: the move is refused; ``state`` is unchanged.
    """
    if not checked:
        move = rules.parse_move(move)
        rules.require_turn(state, seat)
        rules.check(state, seat, move)
    return resolve(rules, state, rules.plan(state, seat, move), chance)


def apply_phase(rules: Rules, state: Any, chance: ChanceFactory) -> list[Event]:
    """Run the pending phase (if any) on ``state`` in place; return its events (``[]`` if none)."""
    phase = rules.pending_phase(state)
    if not phase:
        return []
    return resolve(rules, state, rules.phase_ops(state, phase), chance)


def play_out(rules: Rules, state: Any, chance: ChanceFactory,
             choose: Callable[[int, list[dict[str, Any]]], dict[str, Any]], max_steps: int) -> int:
    """Play ``state`` on in place until the game ends or ``max_steps`` steps (a phase or a move
    each) were taken: the seat to move plays ``choose(seat, legal)`` (one of ``legal``, taken as
    checked). Returns the steps taken. Search playouts and the benchmarks' random playouts
    share it."""
    steps = 0
    while steps < max_steps and rules.outcome(state) is None:
        steps += 1
        if rules.pending_phase(state):
            apply_phase(rules, state, chance)
            continue
        seat = rules.to_move(state)[0]
        apply(rules, state, seat, choose(seat, rules.legal_moves(state, seat)), chance, checked=True)
    return steps


def clone(rules: Rules, state: Any) -> Any:
    """A copy of ``state`` that search changes through :func:`apply` and :func:`apply_phase`
    (:meth:`Rules.clone`: the parts no move has changed yet stay shared with ``state``, which
    is then also changed only through them while the clone lives)."""
    return rules.clone(state)
