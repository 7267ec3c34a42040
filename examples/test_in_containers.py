"""A test of one's own against the whole Longhouse stack in containers (README, "Containers").

The fixture ``longhouse_client`` comes from Longhouse's pytest plugin, which pytest loads by
itself once Longhouse is installed with its ``containers`` extra; it starts the stack from
the image ``make images`` built (``LONGHOUSE_IMAGE``, default ``longhouse:latest``) on the
Docker engine of ``DOCKER_HOST``, and removes every container at the end::

    make images
    .venv/bin/python -m pytest examples/test_in_containers.py

Here seat 0 of a game of A Game of Gnomes is played from the test through the HTTP gateway,
by a seeded random choice among the legal moves, and seat 1 by the built-in ``random`` bot on
the stack's own movers, until the game ends by its rules.
"""

from __future__ import annotations

import random
import time

from services.bots.client import Conflict

GAME, PLAYERS, SEED = "gnomes", 2, "7"
DEADLINE_S = 180
"""The longest a game may take here (one takes a few seconds)."""


def play_seat_until_over(client, game_id: str, token: str, seed: str) -> dict:
    """Play the seat of ``token`` by random legal moves until the game is over; its summary."""
    rng = random.Random(seed)
    deadline = time.monotonic() + DEADLINE_S
    while True:
        summary = client.game(game_id)
        if summary["status"] == "over":
            return summary
        assert time.monotonic() < deadline, f"game {game_id} did not end within {DEADLINE_S} s"
        legal = client.legal_moves(game_id, token)
        if not legal["moves"]:  # another seat's turn, or a phase: wait until something happens
            client.wait(game_id, after=summary["version"], timeout=5)
            continue
        try:
            client.move(game_id, token, rng.choice(legal["moves"]), legal["version"])
        except Conflict:  # the game moved on meanwhile: read again
            pass


def test_a_whole_game_in_containers(longhouse_client):
    """Seat 0 from here, seat 1 the stack's random bot: the game ends by its rules, with a
    score for each seat and the final state's hash."""
    client = longhouse_client
    created = client.create_game(GAME, PLAYERS, seed=SEED, bots={"1": "random"})
    token = client.take_seat(created["game_id"], 0, created["invitations"]["0"])  # seat 0's, from the answer
    summary = play_seat_until_over(client, created["game_id"], token, seed=SEED)
    outcome = summary["outcome"]
    assert len(outcome["scores"]) == PLAYERS
    assert outcome["winners"] and set(outcome["winners"]) <= {0, 1}
    assert len(summary["state_hash"]) == 64
    assert summary["moves"] > 10
