"""Hidden information of Resource Hog through the gateway, as each seat and as a spectator.

Hidden (house rules, the round): each seat's orders (the three action tokens in a secret
order) until every seat has given them, then revealed together; the game's seed and other
seats' tokens. ``OrdersChosen`` reaches its seat alone. Orders are given at once by every
seat, so this game also probes the simultaneous decision: a move against an older version
is played when only other seats' orders came between. Whole seeded games are played through
the gateway app and every answer each client gets is judged by :mod:`tests.secrets.harness`
against the game's log.
"""

from __future__ import annotations

from typing import Any

from services.rules.core import match as core_match
from services.rules.resource_hog.state import EVENT_TYPES, PRIVATE_EVENTS, visibility

from .harness import SecretsSpec, Verdict, check_coverage, check_recorded, frag, play_bots, play_recorded, \
    state_or_view_text


def _needles(rules: Any, state: Any, client: int | None, knowledge: Any) -> dict[str, tuple[str, str]]:
    """What ``client`` must not be told in ``state``: another seat's orders not yet revealed, as
    its owner's view shows them (when they differ from the client's own) and as the state keeps
    them, and the secret part itself."""
    given = state.secret.get("orders", {})
    own = given.get(str(client)) if client is not None else None
    out = {"secret part": ('"secret":', "state")}
    for seat, order in given.items():
        if seat != str(client):
            out[f"orders of seat {seat}"] = (f'"{seat}":{frag(order)}', "state")
            if order != own:
                out[f"orders as seat {seat} sees them"] = (f'"my_orders":{frag(order)}', f"view:{seat}")
    return out


SPEC = SecretsSpec(
    game="resource_hog",
    visibility=visibility,
    catalogue=EVENT_TYPES | {"GameCreated"} | core_match.EVENTS,
    unreachable={
        "StrikeRecorded": "agent seats only; tests/stack/test_agents_stack.py",
        "SeatForfeited": "agent seats only; tests/stack/test_agents_stack.py",
    },
    needles=_needles,
    owner_text=state_or_view_text,
)

COVERAGE = [  # (seed, players, bots' seed prefix): games of random bots on the bus with battles in them
    ("resource_hog-bots-seed-4", 4, "resource_hog-cov-4"),
    ("resource_hog-bots-seed-7", 4, "resource_hog-cov-7"),
    ("resource_hog-bots-seed-11", 4, "resource_hog-cov-11"),
]
MIXED = [  # (seed, bot kind of each seat): the expert moves peasants to an outpost, seldom done at random;
    ("resource_hog-bots-seed-16", ["expert", "random", "expert", "random"]),
    # experts that mine, a building abandoned (allocated when the seat could pay, the money spent
    # before the build event) and food preserved (found among seeds 20-21 after the rebalance)
    ("resource_hog-bots-seed-21", ["expert", "expert", "random"]),
]


def test_no_client_is_told_what_it_may_not_see_over_any_channel(client, redis_client):
    """A 3-seat game played by random bots through every channel, plus bot games of 2 and 4
    seats: every event type occurs (or is listed as not reached), each reaches exactly its
    audience, a seat's orders reach it alone, and no answer to any client shows another seat's
    orders before they are revealed, the seed or another seat's token."""
    verdict = Verdict()
    run = play_recorded(client, "resource_hog", 3, "resource-hog-hidden-seed-0", {}, probe_every=3, look_every=3)
    check_recorded(run, redis_client, SPEC, verdict)
    assert run.errors["illegal_move"] > 5 and run.errors["stale_version"] > 5
    for seed, players, prefix in COVERAGE:
        bots = {str(s): {"kind": "random", "seed": f"{prefix}-{s}"} for s in range(players)}
        check_recorded(play_bots(client, "resource_hog", players, seed, bots=bots), redis_client, SPEC, verdict)
    for seed, kinds in MIXED:
        bots = {str(s): {"kind": k, "seed": f"{seed}-{s}"} for s, k in enumerate(kinds)}
        check_recorded(play_bots(client, "resource_hog", len(kinds), seed, bots=bots), redis_client, SPEC, verdict)
    check_coverage(SPEC, verdict, PRIVATE_EVENTS)
    assert verdict.needles["orders"] > 50
    assert {"view", "legal", "move", "error", "wait", "summary", "stream", "seat"} <= set(verdict.scanned)
