"""Hidden information of Noggin through the gateway, as each seat and as a spectator.

Hidden (rulebook 6.4, 6.1, appendix, variants): the identity (so the back) of every Reserve
card until it is turned or shown to a seat by Knut or the Telescope, the order of every deck,
the order Knut chose, each seat's Friend or Foe card, the game's seed and other seats' tokens.
Whole seeded games are played through the gateway app (embedded ports, inline phases) and every
answer each client gets — views, legal moves, move answers, errors, ``/wait``, SSE frames with
and without a token — is judged by :mod:`tests.secrets.harness` against the game's log.
"""

from __future__ import annotations

from typing import Any

import pytest

from services.rules.core import match as core_match
from services.rules.noggin import content
from services.rules.noggin.state import _HANDLERS, PRIVATE_EVENTS, SEALED_EVENTS, visibility

from .harness import (SecretsSpec, Verdict, check_coverage, check_recorded, frag, play_bots, play_recorded,
                      state_text, text_of)

RESERVE = sorted(c.id for deck in content.load().reserve.decks.values() for c in deck)
"""Every Reserve card's id: a client may be told one only once an event of its audience named it."""


def _needles(rules: Any, state: Any, client: int | None, knowledge: Any) -> dict[str, tuple[str, str]]:
    """What ``client`` must not be told in ``state``: every Reserve card it has not been shown
    (face down on a Saga, in a discard pile, or still in a deck), the other seats' Friend or
    Foe cards (the whole list), Knut's chosen orders and the secret part itself."""
    out = {}
    face_down = {c for c in state.secret["saga_cards"] if c is not None}
    for card in RESERVE:
        if not knowledge.knows(client, card):
            if card in face_down:
                out[f"face-down card {card}"] = (frag(card), "state")
            else:
                out[f"unseen card {card}"] = (frag(card), "content")
    if state.secret.get("loyalty"):
        out["loyalty list"] = (f'"loyalty":{frag(state.secret["loyalty"])}', "state")
    out["knut swaps"] = (f'"swaps":{frag(state.secret["swaps"])}', "state")
    out["secret part"] = ('"secret":', "state")
    return out


def _owner_text(rules: Any, state: Any, where: str) -> str:
    """The server-side text a needle must occur in: the state, or the content for cards still in
    a deck."""
    return text_of(RESERVE) if where == "content" else state_text(state)


SPEC = SecretsSpec(
    game="noggin",
    visibility=visibility,
    catalogue=frozenset(_HANDLERS) | core_match.EVENTS,
    unreachable={
        "ReserveDeckReshuffled": "a Reserve deck runs out only in long games; its audience (public, size only) "
                                 "and its sealed twin are checked by tests/rules/noggin/test_secrets.py",
        "ReservePoolSealed": "sealed twin of ReserveDeckReshuffled (same test)",
        "StepsUsed": "the Hnefetafl board's ability, rare in random play; public (no secret in it)",
        "StrikeRecorded": "agent seats only; tests/stack/test_agents_stack.py",
        "SeatForfeited": "agent seats only; tests/stack/test_agents_stack.py",
    },
    needles=_needles,
    owner_text=_owner_text,
)

COVERAGE = [  # (seed, players, options, bots): games of bots on the bus that widen the event types
    ("noggin-bots-seed-0-0", 3, {"arrival": True, "move_on": True, "sos": True}, None),
    ("noggin-bots-seed-1-4", 4, {"another_train": True, "money_money_money": True, "so_long": True, "you_owe_me_one": True},
     {"0": {"kind": "greedy", "seed": "nog-cov-greedy-0"}, "1": {"kind": "random", "seed": "nog-cov-random-1"},
      "2": {"kind": "greedy", "seed": "nog-cov-greedy-2"}, "3": {"kind": "random", "seed": "nog-cov-random-3"}}),
    ("noggin-bots-seed-3-4", 4, {}, None),  # random seats sow fields, which the bots seldom do
]


@pytest.mark.rules("noggin:secrets/deck-order-not-in-view", "noggin:secrets/reserve-back-not-in-view",
                   "noggin:secrets/other-seat-view", "noggin:secrets/spectator-public-only",
                   "noggin:secrets/sealed-events-never-sent", "noggin:secrets/knut-cards-private",
                   "noggin:secrets/loyalty-private")
def test_no_client_is_told_what_it_may_not_see_over_any_channel(client, redis_client):
    """A 4-seat Friend or Foe game played by random bots through every channel, plus bot games
    of the other variants: every event type of the catalogue occurs (or is listed as not
    reached, with where it is tested), each reaches exactly its audience, private ones reach
    their seat, and no answer to any client names a Reserve card it was not shown, another
    seat's Friend or Foe card, the seed or another seat's token."""
    verdict = Verdict()
    run = play_recorded(client, "noggin", 4, "noggin-hidden-seed-2", {"friend_or_foe": True},
                        probe_every=10, look_every=10)
    check_recorded(run, redis_client, SPEC, verdict)
    assert run.errors["illegal_move"] > 10 and run.errors["not_your_turn"] > 10 and run.errors["stale_version"] > 10
    for seed, players, options, bots in COVERAGE:
        check_recorded(play_bots(client, "noggin", players, seed, options, bots),
                       redis_client, SPEC, verdict)
    check_coverage(SPEC, verdict, PRIVATE_EVENTS)
    assert not any(verdict.private_delivered[t] for t in SEALED_EVENTS)
    assert all(verdict.types[t] for t in SEALED_EVENTS - set(SPEC.unreachable))
    # the checks had something to find: face-down cards and unseen cards, loyalty, channels
    assert verdict.needles["face-down"] > 100 and verdict.needles["unseen"] > 1000
    assert verdict.needles["loyalty"] > 100
    assert {"view", "legal", "move", "error", "wait", "summary", "stream", "seat"} <= set(verdict.scanned)
