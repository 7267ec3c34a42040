"""A replay's steps (``GET /games/<id>/view?version=``, :meth:`Projections.state_at` at an earlier
version than the cache's) start from the last earlier state read of that game: stepping forward
through a finished game reads each entry of its log once, and every step's state is the state a
rebuild from the start gives."""

from __future__ import annotations

from services.coordinator.projection import Projections
from services.coordinator.table import embedded_table
from services.rules.core import GameConfig
from tests.core_games import step_race  # noqa: F401  (registers the test-only game)


def _finished_race():
    t = embedded_table()
    gid = t.create(GameConfig(game="step_race", players=2), seed="replay-steps")
    while t.summary(gid)["status"] == "active":
        rules, state, v = t.state(gid)
        seat = rules.to_move(state)[0]
        t.play(gid, seat, rules.legal_moves(state, seat)[v % 2], v)
    return t, gid


class CountingStore:
    """The table's store, counting the entries each read returns."""

    def __init__(self, store):
        self.store, self.entries_read = store, 0

    def read(self, game_id, after=0, upto=None):
        out = self.store.read(game_id, after, upto)
        self.entries_read += len(out)
        return out

    def __getattr__(self, name):
        return getattr(self.store, name)


def test_stepping_forward_reads_each_entry_once_and_matches_a_rebuild():
    t, gid = _finished_race()
    last = t.summary(gid)["version"]
    assert last > 10
    store = CountingStore(t.store)
    projections = Projections(store)
    rules, _, have = projections.state_at(gid)  # the latest: what a live table caches
    assert have == last
    store.entries_read = 0
    for version in range(1, last):
        rules, state, have = projections.state_at(gid, version)
        fresh = Projections(t.store).state_at(gid, version)[1]
        assert have == version and rules.hash_view(state) == rules.hash_view(fresh), version
    assert store.entries_read == last - 1  # one entry a step; a rebuild per step would read last*(last-1)/2
    # stepping back starts again from the start (never from a later state); the result is still right
    store.entries_read = 0
    rules, state, _ = projections.state_at(gid, 3)
    assert store.entries_read == 3 and rules.hash_view(state) == rules.hash_view(Projections(t.store).state_at(gid, 3)[1])
    # the cached latest state is untouched by the replay
    assert projections.version(gid) == last


def test_a_step_does_not_share_state_with_the_cache():
    t, gid = _finished_race()
    projections = Projections(t.store)
    projections.state_at(gid)
    rules, state, _ = projections.state_at(gid, 5)
    before = repr(rules.hash_view(state))
    events = [e for entry in t.store.read(gid, 5, 8) for e in entry.events]
    assert events
    for event in events:  # the caller changes its copy freely
        rules.evolve(state, event)
    assert repr(rules.hash_view(state)) != before
    assert repr(rules.hash_view(projections.state_at(gid, 5)[1])) == before
    assert rules.hash_view(projections.state_at(gid, 6)[1]) == rules.hash_view(Projections(t.store).state_at(gid, 6)[1])


def test_a_read_with_nothing_new_hands_out_a_copy_and_keeps_the_cached_state():
    """Reading the latest state when the log has nothing past the cache copies the cached state
    once, for the caller, and leaves the cache's own state in place (no second copy stored);
    a read that catches up stores the new state."""
    t = embedded_table()
    gid = t.create(GameConfig(game="step_race", players=2), seed="no-second-copy")
    projections = Projections(t.store)
    rules, state, v = projections.state_at(gid)
    cached = projections.peek(gid)[1]
    for cow in (False, True):
        again, same, have = projections.state_at(gid, cow=cow)
        assert have == v and same is not cached and projections.peek(gid)[1] is cached
        assert again.hash_view(same) == rules.hash_view(cached)
    seat = rules.to_move(state)[0]
    t.play(gid, seat, rules.legal_moves(state, seat)[0], v)
    _, moved, have = projections.state_at(gid)
    assert have == v + 1 and projections.version(gid) == v + 1
    assert projections.peek(gid)[1] is not cached and rules.hash_view(projections.peek(gid)[1]) == rules.hash_view(moved)
