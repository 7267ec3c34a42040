"""The hidden-information checks find a leak when there is one: one recorded game of Resource
Hog passes :func:`~tests.secrets.harness.check_recorded` as recorded, then fails it after
planting, in turn, each kind of leak the checks look for in what a client was told (another
seat's private event in a spectator's frame, the secret part in a view, another seat's orders
in a view, the seed in an error answer, another seat's token in a ``/wait`` answer)."""

from __future__ import annotations

import copy
from typing import Callable

import pytest

from .harness import Answer, Run, check_recorded, play_recorded
from .test_resource_hog import SPEC


def _first(run: Run, test: Callable[[Answer], bool]) -> Answer:
    return next(a for a in run.answers if test(a))


def _leak_private_event(run: Run) -> str:
    frame = _first(run, lambda a: a.channel == "stream" and a.client == 0
                   and any(e["to"] == 0 for e in a.body["events"]))
    spectator = _first(run, lambda a: a.channel == "stream" and a.client is None and a.version == frame.version)
    spectator.body["events"].append(next(e for e in frame.body["events"] if e["to"] == 0))
    return "stream to client None at version"


def _leak_secret_part(run: Run) -> str:
    view = _first(run, lambda a: a.channel == "view" and a.client == 1)
    view.body["view"]["secret"] = {}
    return "secret part"


def _leak_other_orders(run: Run) -> str:
    # the view seat 1 got while seat 0 had ordered and seat 1 had not: show it seat 0's orders
    mine = _first(run, lambda a: a.channel == "view" and a.client == 0 and a.body["view"]["my_orders"]
                  and not a.body["view"]["players"][1]["ordered"])
    theirs = _first(run, lambda a: a.channel == "view" and a.client == 1 and a.version == mine.version)
    theirs.body["view"]["my_orders"] = mine.body["view"]["my_orders"]
    return "orders"


def _leak_seed_in_error(run: Run) -> str:
    error = _first(run, lambda a: a.channel == "error")
    error.body["reason"] += f" (seed {run.seed})"
    return "seed told to client"


def _leak_token_in_wait(run: Run) -> str:
    wait = _first(run, lambda a: a.channel == "wait" and a.client == 1)
    wait.body["hint"] = run.tokens[0]
    return "token of seat 0"


PLANTS = [_leak_private_event, _leak_secret_part, _leak_other_orders, _leak_seed_in_error, _leak_token_in_wait]


def test_each_kind_of_leak_is_caught(client, redis_client):
    """The game as recorded passes; each planted leak fails the check with its own message."""
    honest = play_recorded(client, "resource_hog", 2, "checks-can-fail-seed", {}, probe_every=3, look_every=3)
    check_recorded(honest, redis_client, SPEC)
    for plant in PLANTS:
        run = copy.deepcopy(honest)
        expected = plant(run)
        with pytest.raises(AssertionError, match=expected):
            check_recorded(run, redis_client, SPEC)
