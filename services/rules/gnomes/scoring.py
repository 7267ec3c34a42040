"""Game end and scoring of A Game of Gnomes (rulebook H).

At week 52 the gnomes on the highest level of Gnome Mountain reached by anyone get a
white gem each; then every seat scores its gems' value, 1 per nugget card in hand, 8 per
golden mushroom, its treasures' values, less the penalty of a quest it still holds.
The winner (Gnome de Plume) has the highest total; ties go to the greater treasure
value, then the higher gnome on the mountain, then the greater gem value; a tie after
that (the pointiest head cannot be measured) is shared (house rule).
"""

from __future__ import annotations

from typing import Any

from services.rules.core import Event, public

from . import geo
from .content import content
from .state import State, gem_value, hand, quests, treasures


def mountain_bonus(state: State) -> list[int]:
    """Seats whose gnome is on the highest mountain level any gnome reached (H); [] if none is on it."""
    best = max(geo.rank(p.place) for p in state.players)
    return [p.seat for p in state.players if best and geo.rank(p.place) == best]


def breakdown(state: State, bonus: list[int] | None = None) -> list[dict[str, int]]:
    """Per seat: ``gems``, ``nuggets``, ``golden``, ``treasure``, ``quest`` (a negative
    penalty), ``mountain`` (the level's rank, for the tie-break) and ``total`` (H).
    ``bonus``: seats whose white gem is still to be added."""
    c = content()
    white = c.tiles.gem_values[c.cards.mountain_bonus]
    out = []
    for p in state.players:
        h = hand(state, p.seat)
        gems = gem_value(p.gems) + (white if bonus and p.seat in bonus else 0)
        row = {"gems": gems, "nuggets": h.count("nugget"), "golden": c.cards.golden_mushroom * p.golden,
               "treasure": sum(treasures()[x].value for x in h if x in treasures()),
               "quest": -quests()[p.quest].penalty if p.quest else 0, "mountain": geo.rank(p.place)}
        row["total"] = row["gems"] + row["nuggets"] + row["golden"] + row["treasure"] + row["quest"]
        out.append(row)
    return out


def winners(rows: list[dict[str, int]]) -> list[int]:
    """Seats first by total, then treasure, then mountain level, then gems (H); a remaining tie shares the win."""
    key = [(r["total"], r["treasure"], r["mountain"], r["gems"]) for r in rows]
    best = max(key)
    return [i for i, k in enumerate(key) if k == best]


def final_scoring(state: State) -> list[Event]:
    """``MountainBonus`` and ``FinalScored`` (H)."""
    bonus = mountain_bonus(state)
    c = content()
    rows = breakdown(state, bonus)
    return [public("MountainBonus", seats=bonus, gem=c.cards.mountain_bonus),
            public("FinalScored", scores=[r["total"] for r in rows], breakdown=rows, winners=winners(rows))]


def outcome(state: State) -> dict[str, Any] | None:
    """None until final scoring; then ``{"reason", "scores", "winners", "breakdown"}``."""
    if state.final is None:
        return None
    return {"reason": "calendar", "scores": list(state.final["scores"]), "winners": list(state.final["winners"]),
            "breakdown": state.final["breakdown"]}
