"""A test of one's own against the whole Longhouse stack in containers (README, "Containers").

The fixture ``longhouse_client`` comes from the pytest plugin of the client's ``containers``
extra (``pip install 'longhouse_client[containers]'``), which pytest loads by itself: no server
package is installed. It starts the stack from the image the server's ``make images`` built
(``LONGHOUSE_IMAGE``, default ``longhouse:latest``) on the Docker engine of ``DOCKER_HOST``,
waits until the gateway's ``GET /readyz`` says every part serves, and removes every container
at the end::

    make images
    .venv/bin/python -m pytest examples/test_in_containers.py

Here seat 0 of a game of A Game of Gnomes is played from the test through the gateway, by a
seeded random choice among the legal moves driven by the game's event stream (``play_seat``),
and seat 1 by the built-in ``random`` bot on the stack's own movers, until the game ends by its
rules.
"""

from __future__ import annotations

import random

from longhouse_client import Client, play_seat

GAME, PLAYERS, SEED = "gnomes", 2, "7"
DEADLINE_S = 180
"""The longest a game may take here (one takes a few seconds)."""


def test_a_whole_game_in_containers(longhouse_client: Client):
    """Seat 0 from here, seat 1 the stack's random bot: the game ends by its rules, with a
    score for each seat and the final state's hash."""
    client = longhouse_client
    created = client.create_game(GAME, PLAYERS, seed=SEED, bots={"1": "random"})
    seat = client.take_seat(created.game_id, 0, created.invitations["0"])  # seat 0's, from the answer
    rng = random.Random(SEED)
    summary = play_seat(client, created.game_id, seat.token, lambda view, legal: rng.randrange(len(legal)),
                        timeout_s=DEADLINE_S)
    assert summary.status == "over"
    assert len(summary.outcome.scores) == PLAYERS
    assert summary.outcome.winners and set(summary.outcome.winners) <= {0, 1}
    assert len(summary.state_hash) == 64
    assert summary.moves > 10
