"""Phases between turns: the Change of Season (rulebook 7.1) and the start of Winter (7.2).

Order at a Change of Season (house rule for ambiguity 1: the popularity-track Crow
first, as 7.1 lists it; the Wheel of Infamy is not in scope yet):

1. Nogbad's Crow moves one space toward the crown (3.5, 7.1); if it reaches the crown
   the game ends at once and nothing else happens (9.0);
2. the Season marker advances;
3. Nogs on action spaces return to their owners and the per-season action counts reset (5.0, 7.1);
4. at the start of Winter the harvests still in the fields die and return to the Nog Market (7.2);
5. the Year 1 building rows change (7.1, 7.2, appendix; see ``decks.change_building_rows``);
6. turns resume: dummies move if last, then the next seat's turn starts (4.2, 4.3).

Steps 1, 5 and 6 belong to the score, deck and board domains; this module lists them
as operations and implements 2-4.
"""

from __future__ import annotations

from services.rules.core import Event, Op

from .state import State, season_name
from .turns import pending_phase

CHANGE_OF_SEASON = "change_of_season"


def phase_ops(state: State, phase: str) -> list[Op]:
    """Operations of ``phase``. Raises ValueError for an unknown phase."""
    if phase != CHANGE_OF_SEASON:
        raise ValueError(f"Noggin the Nog has no phase {phase!r}")
    if state.crow <= 1:
        return [Op("score", "advance_crow")]
    return [Op("score", "advance_crow"), Op("board", "change_season"),
            Op("deck", "change_building_rows"), Op("board", "resume_turns")]


def change_season(state: State) -> list[Event]:
    """Season marker, Nogs back from action spaces, Winter wilting (7.1, 7.2)."""
    season = state.season + 1
    events = [Event("SeasonAdvanced", {"season": season, "name": season_name(season)}),
              Event("NogsReturned", {"nogs": [sum(p.placed.values()) for p in state.players]})]
    if season_name(season) == "winter":
        events.append(Event("HarvestsWilted", {"harvest": [sum(p.fields) for p in state.players]}))
    return events


__all__ = ["CHANGE_OF_SEASON", "change_season", "pending_phase", "phase_ops"]
