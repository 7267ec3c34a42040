"""Regression (found by the rule fuzzer, tests/fuzz): peasants who starved kept their work, so an
area could show a stone head being built by a peasant who was no longer there (and an ownerless
area with work allocated). The unfed who die are the free peasants first, then workers at work
other than food (producers did not eat), and their work goes with them."""

from __future__ import annotations

import pytest

from services.rules.resource_hog import events

from .helpers import run_step
from .test_trade_and_feeding import _feeding_land, _game


@pytest.mark.rules("resource_hog:starvation/unfed-removed")
def test_starved_workers_take_their_work_with_them():
    """Two free peasants, one builder, one toiler, no food: the three who ate nothing die (the
    toiler produced, so it did not eat); the builder's allocation is undone, the toiler's stays."""
    state, _ = _game()
    land = _feeding_land(state, nobles=0, peasants=4, work={"build:stone_head": 1, "toil": 1})
    data = run_step(state, events.feed)
    assert data["Starved"]["lost"]["L1"] == {"nobles": 0, "peasants": 3}
    assert land.peasants == 1 and land.work == {"toil": 1}
    assert sum(land.work.values()) <= land.peasants


@pytest.mark.rules("resource_hog:starvation/unfed-removed", "resource_hog:house rules/ownership")
def test_an_area_whose_every_peasant_starved_has_no_owner_and_no_work():
    """The fuzzer's case: the one peasant of an area, allocated to build a stone head it could not
    pay for, starves; the area belongs to no one and holds no work."""
    state, _ = _game()
    land = _feeding_land(state, nobles=0, peasants=1, work={"build:stone_head": 1})
    run_step(state, events.feed)
    assert (land.peasants, land.owner, land.work) == (0, None, {})
