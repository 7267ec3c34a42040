"""Phases between turns: the Change of Season (rulebook 7.1, 8.0) and the start of Winter (7.2).

Order at a Change of Season (house rule for ambiguity 1: 7.1's list, in which the
popularity-track Crow comes first; 8.0's "first action" is read as the first step of
the Wheel of Infamy, right after it):

1. Nogbad's Crow moves one space toward the crown (3.5, 7.1); if it reaches the crown
   the game ends at once and nothing else happens (9.0);
2. the Infamous Crow moves one quarter on the Wheel of Infamy; active Nogbad follows it (8.0);
3. the Season marker advances; Nogs on action spaces return to their owners, except
   those on the space where Nogbad now stands (trapped until next season; never on
   Market Day; never the Silver Gong owner's), and the per-season counts reset (5.0,
   7.1, 8.0, appendix); Noggin and the Nogs of the Royal Kitchens and Windmill come
   home; abilities laid down stand up (6.3, 6.5); at the start of Winter the harvests
   still in the fields die (7.2);
4. the building rows change (7.1, 7.2, appendix; see ``decks.change_building_rows``);
5. the Counting House card and Inventions with nothing on them are replaced (7.1);
6. face-up Counting House cards score 2 each; EcoNogology scores 3 at the start of Winter
   (7.1, appendix);
7. turns resume: dummies move if last, then the next seat's turn starts (4.2, 4.3).
"""

from __future__ import annotations

from services.rules.core import Event, Op

from .board import has_artefact, nogbad_space
from .state import ACTIONS, State, season_name
from .turns import pending_phase

CHANGE_OF_SEASON = "change_of_season"


def phase_ops(state: State, phase: str) -> list[Op]:
    """Operations of ``phase``. Raises ValueError for an unknown phase."""
    if phase != CHANGE_OF_SEASON:
        raise ValueError(f"Noggin the Nog has no phase {phase!r}")
    if state.crow <= 1:
        return [Op("score", "advance_crow")]
    return [Op("score", "advance_crow"), Op("board", "turn_wheel"), Op("board", "change_season"),
            Op("deck", "change_building_rows"), Op("deck", "refresh_cards"), Op("score", "season_points"),
            Op("board", "resume_turns")]


def spared(state: State) -> dict[str, str]:
    """Seat -> the action space whose Nogs the Silver Gong saves from Nogbad's trap (appendix)."""
    space = nogbad_space(state)
    if space is None or space == "market_day":
        return {}
    return {str(p.seat): space for p in state.players if p.placed.get(space) and has_artefact(p, "silver_gong")}


def trapped(state: State) -> dict[str, str]:
    """Seat -> the action space whose Nogs Nogbad traps at this Change of Season (7.1, 8.0):
    where he now stands, never Market Day, never the Silver Gong owner's Nogs."""
    space = nogbad_space(state)
    if space is None or space == "market_day":
        return {}
    return {str(p.seat): space for p in state.players
            if p.placed.get(space) and not has_artefact(p, "silver_gong")}


def change_season(state: State) -> list[Event]:
    """Season marker, Nogs back from action spaces (but trapped ones), Winter wilting (7.1, 7.2, 8.0)."""
    season = state.season + 1
    caught = trapped(state)
    returned = [sum(n for a, n in p.placed.items() if a in ACTIONS and caught.get(str(p.seat)) != a)
                for p in state.players]
    events = [Event("SeasonAdvanced", {"season": season, "name": season_name(season)}),
              Event("NogsReturned", {"nogs": returned, "trapped": caught, **(
                  {"spared": spared(state), "artefact": "silver_gong"} if spared(state) else {})})]
    if season_name(season) == "winter":
        events.append(Event("HarvestsWilted", {"harvest": [sum(p.fields) for p in state.players]}))
    return events


__all__ = ["CHANGE_OF_SEASON", "change_season", "pending_phase", "phase_ops", "trapped"]
