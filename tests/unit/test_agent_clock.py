"""The agent decision clock (services/phases/agents.py): one asker per decision, the first ask's
time kept for a redelivered task, the bank spent once per decision."""

from services.phases.agents import Clock


def test_one_asker_per_decision_until_its_claim_runs_out():
    clock = Clock()
    assert clock.claim("g", 1, 5, "task-a", hold_ms=60_000)
    assert not clock.claim("g", 1, 5, "task-b", hold_ms=60_000)  # a duplicate task asks nobody
    assert clock.claim("g", 1, 5, "task-a", hold_ms=60_000)  # the same task redelivered goes on
    assert clock.claim("g", 1, 6, "task-b", hold_ms=60_000)  # another decision is free
    assert clock.claim("g", 2, 9, "task-c", hold_ms=0)
    assert clock.claim("g", 2, 9, "task-d", hold_ms=0)  # a claim that ran out is taken over


def test_the_first_ask_time_is_kept_and_the_bank_is_spent_once():
    clock = Clock()
    first = clock.asked_at("g", 0, 3)
    assert clock.asked_at("g", 0, 3) == first  # a redelivered task gets no more time
    assert clock.bank("g", 0, 1000) == 1000
    assert clock.spend("g", 0, 3, 300, 1000) == 700
    assert clock.spend("g", 0, 3, 300, 1000) == 700  # the same decision is not charged twice
    assert clock.spend("g", 0, 4, 900, 1000) == 0  # the bank never goes below zero
    assert clock.spend("g", 0, 5, -50, 1000) == 0  # answering early earns nothing back
    assert clock.once("g", "ended:0") and not clock.once("g", "ended:0")
