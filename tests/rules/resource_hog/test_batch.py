"""Acceptance: a seeded batch of 300 embedded Resource Hog bot games (2-4 players, random and
greedy and expert bots) ends by the house rule's victory condition (wealth after 8 rounds) with no error,
and every action, kind of work, building and event type fires at least once
(``python -m services.bots.batch --game resource_hog``)."""

import os

import pytest

from services.bots.batch import expected, run_batch, totals

GAMES = 300
COVER = (1, 10, 29)
"""The games of the batch that together see every part the whole batch sees (and every player
count): ``make test`` plays these, ``make batch`` all 300 (``LONGHOUSE_BATCH=full``). Derived by
``python -m services.bots.batch --game resource_hog --cover`` (:func:`services.bots.batch.cover`); a rule
change that moves what the games do fails this test until the cover is derived again."""
FULL = os.environ.get("LONGHOUSE_BATCH") == "full"


@pytest.mark.timeout(900)
@pytest.mark.rules("resource_hog:house rules/eight-rounds", "resource_hog:house rules/wealth-wins")
def test_the_batch_of_resource_hog_games_ends_by_wealth_and_fires_every_action_and_event():
    results = run_batch(GAMES, "1", workers=2, game="resource_hog", indices=None if FULL else list(COVER))
    assert [(r["index"], r["error"]) for r in results if "error" in r] == []
    assert {r["reason"] for r in results} == {"rounds"}
    assert {r["players"] for r in results} == {2, 3, 4}
    total = totals(results)
    missing = [f"{cat}:{name}" for cat, names in expected("resource_hog").items() for name in names
               if total.get(f"{cat}:{name}", 0) == 0]
    assert missing == []
    assert [k for k in total if k.startswith("leak:")] == []
