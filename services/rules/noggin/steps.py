"""The Step track: where a Step marker lands and how far it may go (rulebook 2.0, 4.1, 4.2).

The track uses absolute positions: season s covers Runestone positions 10(s-1)..10s-1, so
reaching the next multiple of 10 means passing the Nog Moon. A marker may never reach
Runestone + 10 (4.2), nor land where the no-sharing rule (4.1) would push it there (house
rule). These functions read the state and never change it; the turn order that moves the
markers is :mod:`services.rules.noggin.turns`, and the abilities and the Counting House
auction that spend Steps use the same limits from here.
"""

from __future__ import annotations

from services.rules.core import IllegalMove

from .state import State

LAP = 10
"""Steps per season: one circuit of the Central Wheel (2.0)."""


def season_end(state: State) -> int:
    """The Runestone position that ends the current season (the Nog Moon)."""
    return LAP * state.season


def next_free(positions: list[int], i: int, p: int) -> int:
    """The first space from ``p`` on that no marker but marker ``i`` occupies (the no-sharing
    rule, 4.1); ``positions`` holds every marker's position."""
    occupied = {q for j, q in enumerate(positions) if j != i}
    while p in occupied:
        p += 1
    return p


def landing(state: State, i: int, cost: int) -> int | None:
    """Where marker ``i`` ends after ``cost`` Steps and the no-sharing push, or None if that
    would reach the Runestone + 10 (4.1, 4.2; house rule)."""
    positions = [m.pos for m in state.markers]
    to = next_free(positions, i, positions[i] + cost)
    return None if to >= state.runestone + LAP else to


def jump(positions: list[int], i: int, runestone: int) -> int:
    """Where a marker goes that must pass the first marker ahead of it: the next unoccupied
    space beyond it (4.2 dummies, 5.0 A); if that would reach the Runestone + 10, the
    furthest unoccupied space before it; if there is none, it stays where it is, the
    Runestone comes up to it and it plays again (house rules)."""
    pos = positions[i]
    ahead = [q for j, q in enumerate(positions) if j != i and q > pos]
    dest = next_free(positions, i, (min(ahead) if ahead else pos) + 1)
    if dest >= runestone + LAP:
        occupied = {q for j, q in enumerate(positions) if j != i}
        dest = max([q for q in range(pos + 1, runestone + LAP) if q not in occupied], default=pos)
    return dest


def check_steps(state: State, i: int, cost: int) -> None:
    """The 9-Step limit: the marker may not reach the Runestone + 10, and may not land
    where the no-sharing rule would push it there (4.2, house rule)."""
    if cost <= 0:
        return
    if landing(state, i, cost) is None:
        raise IllegalMove(f"that costs {cost} Step(s) and your Step marker may not reach the "
                          f"Runestone: no more than 9 Steps per turn (rulebook 4.2)")
