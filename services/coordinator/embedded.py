"""Playing a game between bots on an in-process Table (no HTTP): simulations, benchmarks, tests."""

from __future__ import annotations

from typing import Any, Callable, Sequence

from services.coordinator.table import Table


def play_embedded(table: Table, game_id: str, bots: Sequence[Any], move_cap: int,
                  on_move: Callable[[int, list[dict[str, Any]], dict[str, Any]], None] | None = None) -> int:
    """Let ``bots[seat].choose(legal_moves)`` play every decision until the game ends.

    Args:
        table: any Table (embedded ports and inline phases make it synchronous).
        game_id: a game of ``table``.
        bots: one bot per seat with ``choose(moves, view, game, version) -> move``
            (:mod:`services.bots.players`; a random bot is given the moves only).
        move_cap: failure guard.
        on_move: called as ``on_move(seat, legal_moves, chosen)`` before each move.
    Returns:
        the number of moves made.
    Raises:
        RuntimeError: the game did not end within ``move_cap`` moves, or stopped in a
            phase that nothing runs (a Table whose phases are not inline).
    """
    for moves in range(move_cap + 1):
        rules, state, version = table.state(game_id)
        if rules.outcome(state) is not None:
            return moves
        to_move = rules.to_move(state)
        if not to_move:
            raise RuntimeError(f"game {game_id} waits for phase {rules.pending_phase(state)!r}")
        seat = to_move[0]
        legal = rules.legal_moves(state, seat)
        bot = bots[seat]
        if getattr(bot, "kind", "") == "random":
            move = bot.choose(legal)
        else:  # it decides from the seat's player view only
            move = bot.choose(legal, rules.view(state, seat), rules.name, version)
        if on_move is not None:
            on_move(seat, legal, move)
        table.play(game_id, seat, move, version)
    raise RuntimeError(f"game {game_id} did not end within {move_cap} moves")
