"""Hidden information of A Game of Gnomes through the gateway, as each seat and as a spectator.

Hidden (rulebook C.4, C.6, E): the cards in each seat's hand (travel and treasure cards),
what is left in the travel deck and in the shop item deck, the game's seed and other seats'
tokens; a scouted card (``TravelCardDrawn``) reaches its seat alone. Whole seeded games are
played through the gateway app and every answer each client gets is judged by
:mod:`tests.secrets.harness` against the game's log.
"""

from __future__ import annotations

from typing import Any

import pytest

from services.rules.core import match as core_match
from services.rules.gnomes.state import EVENT_TYPES, PRIVATE_EVENTS, visibility

from .harness import SecretsSpec, Verdict, check_coverage, check_recorded, frag, play_bots, play_recorded, \
    state_or_view_text


def _needles(rules: Any, state: Any, client: int | None, knowledge: Any) -> dict[str, tuple[str, str]]:
    """What ``client`` must not be told in ``state``: another seat's hand as its owner's view
    shows it (when it differs from the client's own), the contents of the travel and shop item
    decks, and the secret part's fields."""
    hands = state.secret["hands"]
    own = hands[client] if client is not None else None
    out = {}
    for seat, hand in enumerate(hands):
        if seat != client and hand and hand != own:
            out[f"hand of seat {seat}"] = (f'"hand":{frag(hand)}', f"view:{seat}")
    for deck in ("travel_deck", "shop_deck"):
        if state.secret[deck]:
            out[f"{deck} contents"] = (frag(state.secret[deck]), "state")
        out[f"{deck} field"] = (f'"{deck}":', "state")
    out["hands field"] = ('"hands":', "state")
    out["secret part"] = ('"secret":', "state")
    return out


SPEC = SecretsSpec(
    game="gnomes",
    visibility=visibility,
    catalogue=EVENT_TYPES | core_match.EVENTS,
    unreachable={
        "StrikeRecorded": "agent seats only; tests/stack/test_agents_stack.py",
        "SeatForfeited": "agent seats only; tests/stack/test_agents_stack.py",
    },
    needles=_needles,
    owner_text=state_or_view_text,
)

COVERAGE = [  # (seed, players, options, bots' seed prefix): games of scripted, greedy and random bots on the bus
    ("gnomes-bots-seed-0", 4, {"random_layout": True, "gem_variant": True}, "gnomes-cov-0"),
    ("gnomes-bots-seed-0", 2, {"gem_variant": True}, "gnomes-cov-0"),
    ("gnomes-bots-seed-7", 4, {}, "gnomes-cov-7"),
]


def _bots(players: int, prefix: str) -> dict[str, dict[str, str]]:
    """The scripted bot on seat 0, greedy bots on the other even seats, random ones on odd seats,
    each with its own seed (the scripted seller reaches the quests' rewards)."""
    kinds = ["scripted" if s == 0 else "greedy" if s % 2 == 0 else "random" for s in range(players)]
    return {str(s): {"kind": kind, "seed": f"{prefix}-{s}"} for s, kind in enumerate(kinds)}


@pytest.mark.rules("gnomes:B equipment/treasure-in-hand", "gnomes:C.4/treasure-to-hand", "gnomes:C.6/scout-draw")
def test_no_client_is_told_what_it_may_not_see_over_any_channel(client, redis_client):
    """A 3-seat game played by random bots through every channel, plus bot games of both layouts
    and the gem variant: every event type occurs (or is listed as not reached), each reaches exactly its audience, a scouted
    card reaches its seat, and no answer to any client shows another seat's hand, the decks'
    contents, the seed or another seat's token."""
    verdict = Verdict()
    run = play_recorded(client, "gnomes", 3, "gnomes-hidden-seed-0", {}, probe_every=5, look_every=5)
    check_recorded(run, redis_client, SPEC, verdict)
    assert run.errors["illegal_move"] > 5 and run.errors["not_your_turn"] > 5 and run.errors["stale_version"] > 5
    for seed, players, options, prefix in COVERAGE:
        check_recorded(play_bots(client, "gnomes", players, seed, options, _bots(players, prefix)),
                       redis_client, SPEC, verdict)
    check_coverage(SPEC, verdict, PRIVATE_EVENTS)
    assert verdict.needles["hand"] > 100 and verdict.needles["travel_deck"] > 100
    assert {"view", "legal", "move", "error", "wait", "summary", "stream", "seat"} <= set(verdict.scanned)
