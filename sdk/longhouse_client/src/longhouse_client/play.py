"""Play one seat of a game with a plain function, driven by the game's event stream.

:func:`play_seat` reads the seat's view and acts whenever the seat has a decision: it asks
``choose(view, legal_moves)`` for the index of a legal move and posts that move with the version
the moves came with. Between decisions it follows the game's stream (``GET /games/<id>/stream``,
resumed with ``Last-Event-ID`` after a dropped connection), so it waits without polling.
"""

from __future__ import annotations

import time
from typing import Any, Callable

from .client import Client
from .errors import Conflict
from . import models

Choose = Callable[[dict[str, Any], list[dict[str, Any]]], int]
"""``choose(view, legal_moves) -> index``: the seat's player view (``PlayerView.view``) and its
legal moves; returns an index into ``legal_moves``."""


def play_seat(client: Client, game_id: str, token: str, choose: Choose, *, timeout_s: float = 600.0,
              idle_s: float = 60.0, on_move: Callable[[dict[str, Any], models.MoveResult], None] | None = None
              ) -> models.GameSummary:
    """Play the seat of ``token`` with ``choose`` until the game is over; returns the final summary.

    Args:
        client: a :class:`~longhouse_client.client.Client` of the gateway.
        game_id: the game.
        token: the seat's token (``take_seat``).
        choose: picks a legal move's index (:data:`Choose`).
        timeout_s: the longest the whole game may take here.
        idle_s: the longest the stream may stay silent (the other seats thinking, a phase).
        on_move: called with each move played and its result.
    Raises:
        TimeoutError: the game did not end within ``timeout_s``, or nothing happened for ``idle_s``.
        IndexError: ``choose`` returned an index outside the legal moves.
        LonghouseError: the gateway refused a request (a 409 that the game moved on is handled).
    """
    deadline = time.monotonic() + timeout_s

    def act() -> bool:
        """One decision if the seat has one; True once the game is over."""
        view = client.view(game_id, token)
        if view.status == "over":
            return True
        if view.seat is None or view.seat not in view.to_move:
            return False
        legal = client.legal_moves(game_id, token)
        if not legal.moves:
            return False
        index = choose(view.view, legal.moves)
        if not isinstance(index, int) or not 0 <= index < len(legal.moves):
            raise IndexError(f"choose returned {index!r}; {len(legal.moves)} legal moves were offered")
        try:
            result = client.move(game_id, token, legal.moves[index], legal.version)
        except Conflict:  # another seat moved first (a simultaneous decision): read again
            return False
        if on_move is not None:
            on_move(legal.moves[index], result)
        return False

    start = client.game(game_id).version
    if act():
        return client.game(game_id)
    for _ in client.events(game_id, token, last_event_id=models.event_id(game_id, start), idle_timeout=idle_s):
        if time.monotonic() > deadline:
            raise TimeoutError(f"game {game_id} did not end within {timeout_s:g} s")
        if act():
            return client.game(game_id)
    summary = client.game(game_id)
    if summary.over:
        return summary
    raise TimeoutError(f"game {game_id}: nothing happened for {idle_s:g} s (version {summary.version})")
