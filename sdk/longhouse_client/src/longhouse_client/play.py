"""Play one seat of a game with a plain function, one request a move.

:func:`play_seat` asks ``choose(view, legal_moves)`` for the index of a legal move whenever the
seat has a decision, and posts that move with the version the moves came with. The move's answer
carries the seat's next decision (``Client.move(..., legal=True, view=True)``: its legal moves and
view when it decides again), so a seat that keeps the decision spends one request a move; when
another seat decides, one long-poll (``Client.wait(..., until_turn=True)``) answers once the seat's
turn comes, with its legal moves and view. It never polls.
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

MAX_STEPS = 1_000_000
"""Most moves and long-polls one :func:`play_seat` makes (its ``timeout_s`` stops it first)."""
LONG_POLL_S = 25.0
"""Seconds one long-poll waits at most (the gateway caps it at 30)."""


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
        idle_s: the longest the game may stay without a new version (the other seats thinking, a phase).
        on_move: called with each move played and its result.
    Raises:
        TimeoutError: the game did not end within ``timeout_s``, or nothing happened for ``idle_s``.
        IndexError: ``choose`` returned an index outside the legal moves.
        LonghouseError: the gateway refused a request (a 409 that the game moved on is handled).
    """
    deadline = time.monotonic() + timeout_s
    poll = max(0.1, min(LONG_POLL_S, idle_s))
    summary = client.game(game_id)
    if summary.over:
        return summary
    # the seat's first decision: at once if it decides now (after = one version back)
    got = client.wait(game_id, summary.version - 1, token=token, until_turn=True, view=True, timeout=poll)
    version, status, legal, view = got.version, got.status, got.legal_moves or [], got.view or {}
    moved_at = time.monotonic()
    for _ in range(MAX_STEPS):
        if status == "over":
            return client.game(game_id)
        if time.monotonic() > deadline:
            raise TimeoutError(f"game {game_id} did not end within {timeout_s:g} s")
        after = version
        if legal:
            index = choose(view, legal)
            if not isinstance(index, int) or not 0 <= index < len(legal):
                raise IndexError(f"choose returned {index!r}; {len(legal)} legal moves were offered")
            try:
                result = client.move(game_id, token, legal[index], version, legal=True, view=True)
            except Conflict:  # another seat moved first (a simultaneous decision): ask again
                after = client.game(game_id).version - 1
            else:
                if on_move is not None:
                    on_move(legal[index], result)
                moved_at = time.monotonic()
                nxt = result.next
                if nxt is not None and (nxt.legal_moves or nxt.status == "over"):
                    version, status, legal, view = nxt.version, nxt.status, nxt.legal_moves or [], nxt.view or {}
                    continue  # the seat decides again (or the game ended): no other request
                after = nxt.version if nxt is not None else result.version
        got = client.wait(game_id, after, token=token, until_turn=True, view=True,
                          timeout=max(0.1, min(poll, deadline - time.monotonic())))
        if got.version > version:
            moved_at = time.monotonic()
        elif not got.legal_moves and time.monotonic() - moved_at > idle_s:
            raise TimeoutError(f"game {game_id}: nothing happened for {idle_s:g} s (version {got.version})")
        version, status, legal, view = got.version, got.status, got.legal_moves or [], got.view or {}
    raise TimeoutError(f"game {game_id}: no end after {MAX_STEPS} steps")
