"""Acceptance: a seeded batch of 300 embedded A Game of Gnomes bot games (2-4 players, both
layouts, variant J mixed, random and greedy bots) ends at week 52 with no error, and every
action, movement kind, equipment card, quest, colour sold (the Montane King too), layout and
option occurs at least once (``python -m services.bots.batch --game gnomes``)."""

import os

import pytest

from services.bots.batch import expected, run_batch, totals
from services.rules.gnomes.state import EVENT_TYPES

GAMES = 300
COVER = (15, 42, 46, 53, 55, 61, 75, 88, 184, 220, 254, 279, 281)
"""The games of the batch that together see every part the whole batch sees (and every player
count): ``make test`` plays these, ``make batch`` all 300 (``LONGHOUSE_BATCH=full``). Derived by
``python -m services.bots.batch --game gnomes --cover`` (:func:`services.bots.batch.cover`); a rule
change that moves what the games do fails this test until the cover is derived again."""
FULL = os.environ.get("LONGHOUSE_BATCH") == "full"


@pytest.mark.timeout(900)
@pytest.mark.rules("gnomes:H/ends-at-52", "gnomes:H/calendar-stops-at-52", "gnomes:J/variant-option",
                   "gnomes:B/layout-option")
def test_the_batch_of_gnomes_games_ends_at_week_52_and_covers_every_part():
    results = run_batch(GAMES, "1", workers=2, game="gnomes", indices=None if FULL else list(COVER))
    assert [(r["index"], r["error"]) for r in results if "error" in r] == []
    assert {r["week"] for r in results} == {52}
    assert {r["players"] for r in results} == {2, 3, 4}
    total = totals(results)
    missing = [f"{cat}:{name}" for cat, names in expected("gnomes").items() for name in names
               if total.get(f"{cat}:{name}", 0) == 0]
    assert missing == []
    assert [k for k in total if k.startswith("leak:")] == []
    assert sorted(t for t in EVENT_TYPES if total.get(f"event:{t}", 0) == 0) == []
