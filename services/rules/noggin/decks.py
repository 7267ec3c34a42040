"""Deck domain: every shuffle and draw of Noggin the Nog (the only module given chance).

Implements set-up E (turn order of the four Step markers, dummies included), set-up F
and 7.1 (Year 1 building rows), set-up S and 5.1 discover (the face-down Mine tile
pile), 5.2 (Fishing tokens from the bag) and the Appendix "from Season 5" face-up pile.

The order of an undrawn pile is never stored: the state holds how many items were
drawn, and each draw recomputes the permutation from ``chance("<pile>")`` and takes
item number k. Labels do not depend on the game id, so one seed gives one game.
Every draw is written into a public event.
"""

from __future__ import annotations

from typing import Callable

from services.rules.core import Chance, Event

from . import content
from .state import State

ChanceFactory = Callable[[str], Chance]


def _building_order(chance: ChanceFactory) -> list[str]:
    return chance("buildings").shuffled(content.year1_tiles())


def shuffle_turn_order(state: State, chance: ChanceFactory) -> list[Event]:
    """Draw the four large Nogs at random for turn order (set-up E).

    Seat i plays colour i; colours without a seat are dummy players. Returns one
    ``TurnOrderDrawn`` event with ``markers``: ``[{"colour", "seat"}]`` in turn order.
    """
    colours = content.load().setup.colours
    n = len(state.players)
    order = chance("turn_order").shuffled(list(range(len(colours))))
    markers = [{"colour": colours[i], "seat": i if i < n else None} for i in order]
    return [Event("TurnOrderDrawn", {"markers": markers})]


def draw_building_rows(state: State, chance: ChanceFactory) -> list[Event]:
    """Set-up F: draw one face-up row per player count, twice (bottom row first).

    Returns two ``BuildingRowDrawn`` events (``row``: "bottom" then "top", ``tiles``).
    """
    order = _building_order(chance)
    n = len(state.players)
    k = state.buildings_drawn
    return [Event("BuildingRowDrawn", {"row": "bottom", "tiles": order[k:k + n]}),
            Event("BuildingRowDrawn", {"row": "top", "tiles": order[k + n:k + 2 * n]})]


def change_building_rows(state: State, chance: ChanceFactory) -> list[Event]:
    """Change of Season (7.1, 7.2, Appendix) for the Year 1 tiles; ``state.season`` is the new season.

    * season 2 and 3: the bottom row is discarded, the top row moves down and a new top
      row is drawn (``BuildingRowsChanged`` with ``drawn``);
    * season 4 (Winter of Year 1): the rows move down but no new row is drawn, so one
      row is on display as 7.2 shows (house rule);
    * season 5: every Year 1 tile not built forms a face-up pile (``Year1PileFormed``);
    * later seasons: nothing.
    """
    season = state.season
    if season in (2, 3):
        order = _building_order(chance)
        k = state.buildings_drawn
        return [Event("BuildingRowsChanged", {"drawn": order[k:k + len(state.players)]})]
    if season == 4:
        return [Event("BuildingRowsChanged", {"drawn": []})]
    if season == 5:
        order = _building_order(chance)
        rest = [t for row in ("bottom", "top") for t in state.rows[row] if t]
        rest += state.building_discard + order[state.buildings_drawn:]
        return [Event("Year1PileFormed", {"tiles": sorted(rest)})]
    return []


def draw_mine_tile(state: State, chance: ChanceFactory) -> list[Event]:
    """Draw the next face-down Mine tile (5.1 discover). ``MineTileDrawn`` with ``tile``.

    Raises ValueError if the pile is empty (``check`` forbids discovering then).
    """
    pile = chance("mine_tiles").shuffled(content.gold_tile_ids())
    if state.mine_drawn >= len(pile):
        raise ValueError("the Mine tile pile is empty")
    return [Event("MineTileDrawn", {"tile": pile[state.mine_drawn]})]


def draw_fishing_tokens(state: State, chance: ChanceFactory, draws: int) -> list[Event]:
    """Draw ``draws`` (1..4) Fishing tokens from the bag without replacement (5.2).

    All tokens go back in the bag after the action, so each Fisherman action shuffles
    the full bag under its own label. ``FishingTokensDrawn`` with ``tokens``: ``[{"id", "fish"}]``.
    """
    tokens = content.load().fishing.tokens
    order = chance(f"fishing:{state.fishing_draws}").shuffled(list(range(len(tokens))))
    drawn = [{"id": tokens[i].id, "fish": tokens[i].fish} for i in order[:draws]]
    return [Event("FishingTokensDrawn", {"tokens": drawn})]
