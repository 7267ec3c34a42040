"""The agent decision clock (services/phases/agents.py): one live asker per decision (a lease that
a dead asker's successor takes over), the first ask's time kept for a redelivered task, the bank
spent once per decision."""

from services.phases import agents
from services.phases.agents import Clock


def test_one_live_asker_per_decision_and_a_lapsed_claim_is_taken_over():
    clock = Clock()
    taken, held = clock.claim("g", 1, 5, "task-a.1", lease_ms=60_000)
    assert taken and held.startswith("task-a.1@")
    assert clock.claim("g", 1, 5, "task-b.1", lease_ms=60_000) == (False, held)  # a duplicate asks nobody
    assert not clock.claim("g", 1, 5, "task-a.2", lease_ms=60_000)[0]  # nor does a redelivered copy
    assert clock.claim("g", 1, 5, "task-a.1", lease_ms=60_000)[0]  # the same attempt again (a retried call)
    assert clock.claim("g", 1, 6, "task-b.1", lease_ms=60_000)[0]  # another decision is free
    assert clock.claim("g", 2, 9, "task-c.1", lease_ms=0)[0]
    assert clock.claim("g", 2, 9, "task-d.1", lease_ms=0)[0]  # a claim that lapsed is taken over
    assert not clock.renew("g", 2, 9, "task-c.1")  # and its old holder no longer holds it


def test_a_renewed_claim_shows_its_holder_is_alive_and_a_released_one_is_free():
    clock = Clock()
    _, first = clock.claim("g", 0, 3, "a.1", lease_ms=60_000)
    assert clock.renew("g", 0, 3, "a.1", lease_ms=120_000)
    taken, held = clock.claim("g", 0, 3, "b.1")
    assert not taken and held != first and held.startswith("a.1@")
    assert not clock.renew("g", 0, 3, "b.1", release=True)  # only the holder releases
    assert clock.renew("g", 0, 3, "a.1", release=True)
    assert clock.claim("g", 0, 3, "b.1")[0]


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


def test_was_says_whether_once_was_ever_asked_in_any_process(redis_client):
    """``Clock.was`` (services/phases/agents.py): what ``once`` marked, read back by a clock of
    another process (a second Clock on the same Redis), and in memory."""
    for first, other in ((Clock(redis_client), Clock(redis_client)), (Clock(),) * 2):
        assert not first.was("g-was", "started:1") and not other.was("g-was", "started:1")
        assert first.once("g-was", "started:1")
        assert first.was("g-was", "started:1") and other.was("g-was", "started:1")
        assert not other.was("g-was", "started:0")


def test_a_release_that_restarts_forgets_the_first_ask_only_for_the_holder(redis_client, monkeypatch):
    """``Clock.renew(release=True, restart=True)`` (a stopping mover's desk gives a decision back):
    the claim is given up and the decision's first-asked time forgotten in the same step, so that
    the next asker's clock starts afresh; a token that does not hold the claim changes nothing.
    In memory and on Redis (the script)."""
    now = [1_000_000]
    monkeypatch.setattr(agents, "now_ms", lambda: now[0])
    for clock in (Clock(), Clock(redis_client)):
        taken, _, first, _, _ = clock.claim_and_clock("restart", 0, 3, "a.1", 5000)
        assert taken and clock.asked_at("restart", 0, 3) == first
        assert not clock.renew("restart", 0, 3, "b.1", release=True, restart=True)  # not the holder's
        assert clock.asked_at("restart", 0, 3) == first
        assert clock.renew("restart", 0, 3, "a.1", release=True)  # a plain release keeps the first ask
        assert clock.asked_at("restart", 0, 3) == first
        clock.claim("restart", 0, 3, "a.2")
        now[0] += 2500
        assert clock.renew("restart", 0, 3, "a.2", release=True, restart=True)
        assert clock.asked_at("restart", 0, 3) == first + 2500
        assert clock.claim("restart", 0, 3, "c.1")[0]
