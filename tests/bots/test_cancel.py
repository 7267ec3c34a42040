"""A bot's search given up from outside it (services/bots/cancel.py): a mover asked to stop
waited for a search under way, and one longer than its 10 s grace ended in SIGKILL (a trial:
``expert`` at 40000 iterations). Every search kind of every game looks at its caller's event once
an iteration; looking changes nothing it decides."""

from __future__ import annotations

import threading

import pytest

from services.bots.cancel import DecisionCancelled, cancelled_by, checkpoint
from services.bots.decide import SEARCH_KINDS, decide
from tests.support.mover_fakes import BotsOnlyTable, RoundClient
from tests.support.positions import position

GAMES = ("noggin", "gnomes", "resource_hog")
BUDGET = 16
"""Search iterations a decision in these tests (Gnomes' expert searches from 16: ``SEARCH_FROM``)."""


class CountingEvent(threading.Event):
    """An event that counts how often a search looked at it."""

    def __init__(self) -> None:
        super().__init__()
        self.looks = 0

    def is_set(self) -> bool:
        self.looks += 1
        return super().is_set()


def _searched(game: str, kind: str):
    """A decision of seeded random play where the ``kind`` bot's search runs (it looks at the event)."""
    def search_runs(rules, state, seat):
        event = CountingEvent()
        with cancelled_by(event):
            decide(kind, "bot", rules, state, seat, 4, iterations=BUDGET)
        return event.looks > 0

    return position(game, f"cancel-{game}-{kind}", search_runs)


def test_outside_a_cancelled_by_block_a_checkpoint_does_nothing():
    checkpoint()
    stop = threading.Event()
    stop.set()
    with cancelled_by(stop), pytest.raises(DecisionCancelled):
        checkpoint()
    checkpoint()  # the block is over


@pytest.mark.parametrize("kind", SEARCH_KINDS)
@pytest.mark.parametrize("game", GAMES)
def test_a_search_gives_up_once_its_callers_event_is_set_and_decides_the_same_while_it_is_not(game, kind):
    rules, state, seat = _searched(game, kind)
    alone = decide(kind, "bot", rules, state, seat, 4, iterations=BUDGET)
    event = CountingEvent()
    with cancelled_by(event):
        assert decide(kind, "bot", rules, state, seat, 4, iterations=BUDGET) == alone
    assert event.looks >= 1
    event.set()
    with cancelled_by(event), pytest.raises(DecisionCancelled):
        decide(kind, "bot", rules, state, seat, 4, iterations=BUDGET)


def test_a_mover_asked_to_stop_gives_up_the_search_under_way_and_keeps_the_games_in_hand():
    """``Mover.round``: the stop is asked while a game's bot searches; the search ends at its next
    iteration, nothing is committed, and the game and those after it stay in hand for
    :meth:`Mover.leave` to hand back."""
    from services.phases.mover import Mover

    rules, state, seat = _searched("noggin", "ismcts")

    class Table(BotsOnlyTable):  # the first game's bot is asked to stop as its search begins
        def __init__(self):
            self.batches: list[list] = []

        def next_job(self, game_id, version=None, deciding=None):
            mover.stopping.set()  # the SIGTERM handler's part, during the decision
            decide("ismcts", "bot", rules, state, seat, 4, iterations=10_000)
            raise AssertionError("the search ran to its end")

        def run_jobs(self, jobs):
            self.batches.append(jobs)


    table = Table()
    mover = Mover(table, RoundClient(), name="stopping-search")
    assert mover.round([("g1", 4), ("g2", None)]) == [("g1", 4), ("g2", None)]
    assert table.batches == [] and mover.steps == 0


def test_a_searchs_iterations_are_a_movers_steps_so_a_long_decision_keeps_its_heartbeat():
    """A decision longer than ``STALL_S`` (an allowed budget: Resource Hog's expert at 100,000
    iterations, about 20 minutes) let the mover's heartbeat lapse, and a peer took its game and
    worked out the same decision (a trial). Each iteration of the search is now a step noted."""
    from services.phases.mover import Mover

    rules, state, seat = _searched("noggin", "ismcts")
    seen = []

    class Table(BotsOnlyTable):
        def next_job(self, game_id, version=None, deciding=None):
            mover._stepped = -1e9  # as if the loop had not stepped for ever
            decide("ismcts", "bot", rules, state, seat, 4, iterations=BUDGET)
            seen.append(mover._stepped)
            return None


    mover = Mover(Table(), RoundClient(), name="long-search")
    mover.round([("g1", 4)])
    assert seen and seen[0] > 0
