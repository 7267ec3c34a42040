"""Acceptance: a seeded batch of 300 embedded bot games (2-4 players, variants mixed, random
and greedy bots) ends by the rules with no error, and every action, character ability,
Counting House artefact, Invention, Year 2 building, variant and both endings (Dragon
crowned, Nogbad crowned) occur at least once (``python -m services.bots.batch``)."""

import pytest

from services.bots.batch import expected, run_batch, totals
from services.rules.noggin.state import _HANDLERS

GAMES = 300


@pytest.mark.timeout(900)
@pytest.mark.rules("noggin:9.0/stops-at-crown", "noggin:variants/chosen-at-creation", "noggin:2.0/two-years",
                   "noggin:secrets/sealed-events-never-sent")
def test_three_hundred_bot_games_end_by_the_rules_and_cover_every_part():
    results = run_batch(GAMES, "1", workers=2)
    failed = [(r["index"], r["error"]) for r in results if "error" in r]
    assert failed == []
    assert all(r["crown"] in ("noggin", "nogbad") for r in results)
    total = totals(results)
    missing = [f"{cat}:{name}" for cat, names in expected().items() for name in names
               if total.get(f"{cat}:{name}", 0) == 0]
    assert missing == []
    # hidden information: every event of every type went only to the clients allowed to see it
    assert [k for k in total if k.startswith("leak:")] == []
    rare = {"ReserveDeckReshuffled", "ReservePoolSealed"}  # a Reserve deck running out: see test_secrets.py
    assert [t for t in _HANDLERS if t not in rare and total.get(f"event:{t}", 0) == 0] == []
