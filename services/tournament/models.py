"""The shape of a tournament report (JSON, written by ``--report``)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

EndedBy = Literal["rules", "move cap", "error"]
"""Why a game stopped: its rules ended it, the move cap (a failure guard) hit, or an error."""


class SeatReport(BaseModel):
    """Who played one seat."""

    seat: int
    bot: str = Field(description="the bot's name, e.g. 'random'")
    seed: str = Field(description="the bot's own seed (derived from the tournament seed)")


class GameReport(BaseModel):
    """One game of the tournament.

    ``final_scores``, ``winner`` and ``reason`` come from the game's outcome (empty
    when the game did not end by the rules); ``final_state_hash`` is the state hash the
    gateway reports once the game is over (``None`` otherwise).
    """

    index: int
    game_id: str | None
    seed: str = Field(description="the game's seed, derived from the tournament seed")
    seats: list[SeatReport]
    final_scores: list[int | float] = Field(default_factory=list)
    winner: list[int] = Field(default_factory=list, description="winning seats (empty when every player lost)")
    winning_side: str | None = Field(default=None, description="Noggin's game: who took the crown, 'noggin' or "
                                                                 "'nogbad' (then every player lost)")
    leader_in_exile: list[int] = Field(default_factory=list, description="Noggin's game: top scorers when Nogbad "
                                                                          "took the crown")
    breakdown: list[dict[str, int]] = Field(default_factory=list, description="A Game of Gnomes: each seat's score "
                                                                          "by part (gems, nuggets, golden, treasure, "
                                                                          "quest, mountain rank, total)")
    reason: str | None = None
    ended_by: EndedBy
    moves: int = Field(description="moves the bots made")
    final_state_hash: str | None = None
    error: str | None = None


class Standing(BaseModel):
    """One seat's (bot's) results over the tournament."""

    seat: int
    bot: str
    games: int
    wins: int = Field(description="games this seat won, shared wins included")
    average_score: float
    exiled_leads: int = Field(0, description="Noggin: games lost to Nogbad in which this seat had the top score "
                                             "(Leader in Exile), not wins")


class TournamentReport(BaseModel):
    """The whole tournament: its parameters, every game and the standings."""

    game: str
    seed: str
    players: int
    games: list[GameReport]
    standings: list[Standing] = Field(default_factory=list)
    failed: int = Field(0, description="games that did not end by the rules")
    sides: dict[str, int] = Field(default_factory=dict, description="Noggin: games each side took the crown")
