"""Built-in bots that decide on the bus (DESIGN "Clients, bots and agents"): seats given to
bots at creation move by themselves after every commit that leaves the game waiting for
them; a bot move is idempotent by version and reproducible from the bot's seed."""

import threading
import time

import pytest

from services.coordinator.table import embedded_table
from services.rules.core import BadConfig, GameConfig
from tests.support.mover_fakes import BotsOnlyTable, RoundClient
from tests.support.wait import wait_for

BOTS = {0: {"kind": "random", "seed": "a"}, 1: {"kind": "greedy", "seed": "b"}, 2: {"kind": "random", "seed": "c"}}


def _log(table, gid):
    return [(e.version, e.kind, e.seat, e.events) for e in table.store.read(gid)]


def test_a_game_of_bots_plays_to_its_end_from_creation_and_is_reproducible():
    a, b = embedded_table(), embedded_table()
    ga = a.create(GameConfig(game="noggin", players=3), seed="bus", bots=BOTS)
    gb = b.create(GameConfig(game="noggin", players=3), seed="bus", bots=BOTS)
    sa = a.summary(ga)
    assert sa["status"] == "over" and sa["version"] > 100
    assert _log(a, ga) == _log(b, gb) and sa["state_hash"] == b.summary(gb)["state_hash"]
    moves = [e for e in a.store.read(ga) if e.kind == "move"]
    assert {e.seat for e in moves} == {0, 1, 2}


def test_bots_move_only_on_their_own_seats_and_a_stale_bot_task_does_nothing():
    """Seat 1 is a bot, seat 0 a client: after each of seat 0's moves, the bot plays every
    decision of its own until the game waits for seat 0 again; a bot task for a version the
    game has left, or for a seat that is not a bot's, commits nothing."""
    t = embedded_table()
    gid = t.create(GameConfig(game="noggin", players=2), seed="mixed", bots={1: "random"})
    for _ in range(30):
        rules, state, version = t.state(gid)
        assert rules.to_move(state) == [0]
        assert t.play_bot(gid, 0, version) is False  # not a bot seat
        t.play(gid, 0, rules.legal_moves(state, 0)[0], version)
        assert t.play_bot(gid, 1, version) is False and t.state(gid)[2] > version  # stale: nothing
    seats = {e.seat for e in t.store.read(gid) if e.kind == "move"}
    assert seats == {0, 1}


def test_a_table_tells_a_game_with_a_persons_seat_from_a_game_of_bots_only():
    """``Table.people`` (the movers search a person's game first): a seat that is neither a
    built-in bot nor an agent is a person's; an unknown game raises GameNotFound."""
    from services.coordinator.store import GameNotFound

    table = embedded_table()
    bots_only = table.create(GameConfig(game="noggin", players=3), seed="bots", bots=BOTS)
    with_person = table.create(GameConfig(game="noggin", players=3), seed="person", bots={1: BOTS[1], 2: BOTS[2]})
    assert not table.people(bots_only) and table.people(with_person)
    table._people.clear()  # the bots cached alone: looked up again
    assert table.people(with_person) and table.bots(with_person) == {1: BOTS[1], 2: BOTS[2]}
    with pytest.raises(GameNotFound):
        table.people("no-such-game")


@pytest.mark.parametrize("bots", [{5: "random"}, {0: "oracle"}, {"x": "random"}, {0: {"kind": "random", "x": 1}}])
def test_a_bad_bot_seat_or_kind_is_refused(bots):
    with pytest.raises(BadConfig):
        embedded_table().create(GameConfig(game="noggin", players=3), seed="s", bots=bots)


def test_an_idle_movers_wait_is_one_round_trip_and_a_game_it_takes_brings_its_share(redis_client):
    """``Mover._pop`` (services/phases/mover.py): a mover with nothing in hand waits with the blocking
    pop alone, one round trip (not the share's script first and then it, at every wait); a game it
    takes is followed at once by the rest of its fair share; the ready list is looked at before a
    left-over wake-up of its agent desk."""
    from services.phases.mover import Mover
    from services.phases.schedulers import READY

    mover = Mover(table=None, client=redis_client, name="pop-test")
    mover.heartbeat()
    mover.movers()  # one mover: its share is all that waits
    redis_client.config_resetstat()
    assert mover._pop(32, block=0.05) == []
    stats = redis_client.info("commandstats")
    assert stats["cmdstat_brpop"]["calls"] == 1 and "cmdstat_evalsha" not in stats
    for n in range(4):
        redis_client.lpush(READY, f"g{n}")
    assert mover._pop(32, block=1.0) == ["g0", "g1", "g2", "g3"]

    class IdleDesk:  # an agent desk with nothing to commit
        sleeping = threading.Event()

        def has_answers(self):
            return False

    asking = Mover(table=None, client=redis_client, name="desk-pop-test")
    asking.desk = IdleDesk()
    redis_client.lpush(asking.wake_key, 1)  # a wake-up left over from an answer already collected
    redis_client.lpush(READY, "g4")
    assert asking._pop(32, block=1.0) == ["g4"] and redis_client.llen(asking.wake_key) == 1


def test_a_mover_that_stops_takes_its_heartbeat_with_it(redis_client):
    """``Mover.leave``: a mover's heartbeat outlived its stop by up to 15 s, and a launcher
    restarting it found the old key and called it ready before the new mover served."""
    from services.phases.mover import HEARTBEAT, Mover

    mover = Mover(table=None, client=redis_client, name="leaving")
    mover.heartbeat()
    assert redis_client.exists(HEARTBEAT.format(name="leaving"))
    mover.stopping.set()
    mover.run()  # asked to stop: its loop ends at once
    assert not redis_client.exists(HEARTBEAT.format(name="leaving"))


def test_a_mover_that_stops_leaves_the_heartbeat_another_mover_of_its_name_wrote(redis_client):
    """``Mover.leave`` deletes the heartbeat only if it is still the one it wrote: two movers given
    the same name (``LONGHOUSE_MOVER_NAME``), the one that stops took the other's key with it."""
    from services.phases.mover import HEARTBEAT, Mover

    leaving, staying = (Mover(table=None, client=redis_client, name="same") for _ in range(2))
    leaving.heartbeat()
    staying.heartbeat()  # written last: the key is the staying mover's now
    leaving.stopping.set()
    leaving.run()
    assert redis_client.exists(HEARTBEAT.format(name="same"))


def test_a_mover_that_stops_hands_the_games_it_held_back_to_the_ready_list(redis_client):
    """``Mover.leave``: a stopped mover's games waited until a peer saw its heartbeat gone, and for
    ever where no peer had seen it yet (a mover stopped seconds after its start: a trial saw games
    make no move for 40 s and more). Now the games in its hand and those whose agent decisions its
    desk held go back on the ready list as it stops, each once."""
    from services.phases.mover import HEARTBEAT, Mover
    from services.phases.schedulers import READY

    class Desk:  # a desk asking the decisions of two games, one of them also in hand
        stopped = False

        def games(self):
            return ["g2", "g3"]

        def stop(self):
            self.stopped = True

    mover = Mover(table=None, client=redis_client, name="handing-back")
    mover.desk = Desk()
    mover.heartbeat()
    redis_client.lpush(READY, "g3")  # already waiting (pushed again meanwhile): not pushed twice
    mover.leave(["g1", "g2"])
    assert mover.desk.stopped
    # each once, the hand's order kept (popped from the tail: g3, then g1, then g2)
    assert [g.decode() for g in redis_client.lrange(READY, 0, -1)] == ["g2", "g1", "g3"]
    assert not redis_client.exists(HEARTBEAT.format(name="handing-back"))


def test_a_mover_with_a_full_hand_still_notices_a_peer_gone(redis_client, monkeypatch):
    """``Mover._pop`` with no room (``want`` 0, a full batch in hand) still looks at the
    heartbeats: before, it returned first, so under load the games a dead peer held waited until
    this mover's hand had room."""
    from services.phases import mover as mover_module

    pushed = []
    monkeypatch.setattr(mover_module, "requeue_waiting", lambda table, client, **kwargs: pushed.append(1) or 0)
    mover = mover_module.Mover(table=None, client=redis_client, name="full")
    for name in ("full", "peer"):
        redis_client.set(mover_module.HEARTBEAT.format(name=name), 1, ex=60)
    assert mover._pop(0, block=0) == [] and mover._count == 2 and pushed == []
    redis_client.delete(mover_module.HEARTBEAT.format(name="peer"))
    mover._counted = 0.0  # the next look is due
    assert mover._pop(0, block=0) == [] and mover._count == 1 and pushed == [1]


def test_a_game_of_bots_waiting_for_its_phase_is_pushed_again_too(redis_client):
    """``requeue_waiting`` (a mover's start, a peer gone, an outage) pushed only active games: a game
    of bots that a killed mover held while it waited for its phase (status ``phase``) waited for
    the worker's sweep to see it twice, 15-30 s (a trial). A game without a bot is left to the
    worker."""
    import tests.core_games.lap_race  # noqa: F401  (registers the test game, whose lap end is a phase)
    from services.coordinator.ports import embedded_ports
    from services.coordinator.projection import Projections
    from services.coordinator.redis_store import RedisStore
    from services.coordinator.table import Table
    from services.phases.mover import requeue_waiting
    from services.phases.schedulers import READY

    class Held:  # a scheduler that schedules nothing: the test plays each step itself
        def __getattr__(self, name):
            return lambda *args, **kwargs: None

    store = RedisStore(redis_client)
    projections = Projections(store)
    table = Table(store, embedded_ports(store, projections=projections), Held(), projections=projections)
    bots = table.create(GameConfig(game="lap_race", players=2), seed="phase", bots={0: "random", 1: "random"})
    people = table.create(GameConfig(game="lap_race", players=2), seed="people")
    for seat in (0, 1):
        assert table.play_bot(bots, seat, table.state(bots)[2])
        table.play(people, seat, {"type": "run", "pace": 1}, table.state(people)[2])
    assert table.summary(bots)["status"] == table.summary(people)["status"] == "phase"
    redis_client.delete(READY)
    assert requeue_waiting(table, redis_client) == 1
    assert redis_client.lrange(READY, 0, -1) == [bots.encode()]
    # already waiting on the list: not pushed twice (a restart pushed each game a stopping mover
    # handed back a second time, and two movers could work out the same slow decision at once)
    assert requeue_waiting(table, redis_client) == 0
    assert redis_client.lrange(READY, 0, -1) == [bots.encode()]


def test_a_stop_asked_mid_round_leaves_the_games_not_yet_looked_at_in_hand():
    """``Mover.round``: a stop waited for every game's bot in the round; a round of slow search bots
    outlasted the stop's 10 s grace and the mover was killed (a trial). Now the games not yet
    looked at stay in hand, for :meth:`Mover.leave` to hand back."""
    from services.phases.mover import Mover

    class Table(BotsOnlyTable):  # each game's next step: none, and the first look asks the mover to stop
        def __init__(self):
            self.looked: list[str] = []

        def next_job(self, game_id, version=None, deciding=None):
            self.looked.append(game_id)
            mover.stopping.set()
            return None


    table = Table()
    mover = Mover(table, RoundClient(), name="stopping")
    assert mover.round([("g1", 4), ("g2", None), ("g3", 7)]) == [("g2", None), ("g3", 7)]
    assert table.looked == ["g1"]


def test_a_movers_heartbeat_lives_through_a_long_step_but_not_a_stuck_loop(redis_client):
    """The heartbeat was refreshed by the mover's loop alone, between games: one bot decision
    longer than about 10 s (``expert`` at 3000 iterations) let it lapse, and the peers took the
    games of a mover still playing them (a trial). Its own thread refreshes it now, while the loop
    has stepped within ``STALL_S``; a loop stuck for longer lets it lapse."""
    from services.phases.mover import HEARTBEAT, STALL_S, Mover

    mover = Mover(table=None, client=redis_client, name="long-step")
    key = HEARTBEAT.format(name="long-step")
    mover.heartbeat()
    redis_client.delete(key)  # as if it had lapsed: only the thread writes it again
    mover._beat = 0.0  # a refresh is due
    beat = threading.Thread(target=mover._beat_while_serving)
    beat.start()
    try:
        wait_for(lambda: redis_client.exists(key), 10, "the thread to refresh the heartbeat")
    finally:
        mover.stopping.set()
        beat.join(10)
    redis_client.delete(key)
    mover._beat = 0.0
    mover._stepped = time.monotonic() - STALL_S - 1  # the loop has not stepped for longer than STALL_S
    assert not mover._refresh() and not redis_client.exists(key)
    mover._stepped = time.monotonic() - STALL_S + 5  # it has, within STALL_S
    assert mover._refresh() and redis_client.exists(key)


def test_a_round_of_slow_bots_commits_what_it_has_and_the_games_take_turns(monkeypatch):
    """``Mover.round`` and ``ROUND_S`` (services/phases/mover.py): a round decided every game in hand
    before committing any, so with search bots at a large budget no game moved for 30-90 s (a
    trial). Now a round commits once it has spent ``ROUND_S`` deciding, and the games it did not
    look at come first in the next round: over as many rounds as games each game moves once."""
    from types import SimpleNamespace

    from services.phases import mover as mover_module
    from services.phases.mover import ROUND_S, Mover

    clock = [0.0]
    monkeypatch.setattr(mover_module, "time", SimpleNamespace(monotonic=lambda: clock[0]))
    decision_s = ROUND_S * 0.6  # two decisions pass the round's budget

    class Table(BotsOnlyTable):  # each game's bot takes decision_s of the (fake) clock to decide
        def __init__(self):
            self.batches: list[list[str]] = []

        def next_job(self, game_id, version=None, deciding=None):
            clock[0] += decision_s
            return SimpleNamespace(game_id=game_id, version=(version or 0) + 1, error=None)

        def run_jobs(self, jobs):
            self.batches.append([job.game_id for job in jobs])


    table = Table()
    mover = Mover(table, RoundClient(), name="slow")
    hand = [(f"g{k}", 1) for k in range(6)]
    for _ in range(3):
        hand = mover.round(hand)
    assert table.batches == [["g0", "g1"], ["g2", "g3"], ["g4", "g5"]]
    assert hand == [("g0", 2), ("g1", 2), ("g2", 2), ("g3", 2), ("g4", 2), ("g5", 2)]
    assert mover.steps == 6


def test_a_mover_started_again_under_a_dead_movers_name_shows_it_dead_before_its_push(redis_client):
    """``Mover.announce``: a mover killed outright and started again under its name left the dead
    one's heartbeat value in the key until its first heartbeat, written after its start-up push, so
    a peer took the dead mover's deciding note for live and dropped a game the push had just handed
    out (read from the code: nothing pushed it again). The new mover now writes the key, marked as
    starting, before the push; the launcher's probe does not call it ready until it is done."""
    from services.phases.mover import HEARTBEAT, Mover

    search = {"kind": "ismcts", "seed": "s"}
    dead = Mover(table=None, client=redis_client, name="same-name")
    dead.heartbeat()
    assert dead.deciding("g1", 5, search)  # then killed outright, its note and heartbeat left behind
    peer = Mover(table=None, client=redis_client, name="peer-of-same-name")
    peer.heartbeat()
    assert not peer.deciding("g1", 5, search)  # its heartbeat still holds: live, as far as anyone can tell
    again = Mover(table=None, client=redis_client, name="same-name")
    again.announce()
    assert redis_client.get(HEARTBEAT.format(name="same-name")).decode().endswith(".starting")
    assert peer.deciding("g1", 5, search)  # the dead mover's note is taken over


def test_a_search_bots_decision_is_worked_out_by_one_live_mover_at_a_time(redis_client):
    """``Mover.deciding`` (services/phases/mover.py): after a restart both movers held every game
    and worked out the same slow decisions at once, one of them for nothing (a trial; so did a
    game pushed again by a person's ``/wait`` while a mover held it). A search bot's decision is
    now noted with its mover and version: another live mover passes the game by; a later version,
    or a holder whose heartbeat is gone, does not hold it. Other kinds cost no round trip."""
    from services.phases.mover import DECIDING, Mover

    a = Mover(table=None, client=redis_client, name="deciding-a")
    b = Mover(table=None, client=redis_client, name="deciding-b")
    a.heartbeat()
    b.heartbeat()
    expert, search = {"kind": "expert", "seed": "s"}, {"kind": "ismcts", "seed": "s"}
    assert a.deciding("g1", 5, expert)
    assert a.deciding("g1", 5, expert)  # its own, again (a decision given up and begun afresh)
    assert not b.deciding("g1", 5, search)  # a is working it out
    assert b.deciding("g1", 6, expert)  # a later version: a's note is stale
    assert not a.deciding("g1", 6, expert)
    redis_client.delete("longhouse:mover:deciding-b")  # b is gone (its heartbeat lapsed)
    assert a.deciding("g1", 6, expert)  # taken over
    assert redis_client.get(DECIDING.format(game_id="g1")).decode().startswith("deciding-a|")
    assert b.deciding("g2", 5, {"kind": "random", "seed": "s"}) and not redis_client.exists(DECIDING.format(game_id="g2"))
    # a mover whose view of the game is out of date neither overwrites a live note nor decides
    # (a trial: one did, and both movers worked out the same 100,000-iteration decision)
    b.heartbeat()
    b._beat = 0.0
    b._refresh()
    assert b.deciding("g3", 7, expert)
    assert not a.deciding("g3", 6, expert)
    assert redis_client.get(DECIDING.format(game_id="g3")).decode().startswith("deciding-b|")
    redis_client.delete("longhouse:mover:deciding-b")
    assert not a.deciding("g3", 6, expert)  # nor takes over a dead holder's later version: it is stale


class _SearchTable:
    """A Table for ``Mover.round`` whose games' bots are ``kinds`` (game id to bot kind), the
    games of ``people`` with a person's seat: a search kind's decision takes ``search_s`` of the
    fake ``clock``, the others ``cheap_s``; a game of ``runs`` (game id to a count) has that many
    bot steps and then waits for its person (no step). ``log`` holds ``("decide", game_id)`` and
    ``("commit", [game ids])`` in the order they happened."""

    def __init__(self, kinds, clock, search_s, people=(), cheap_s=0.0, runs=None):
        self.kinds, self.clock, self.search_s, self.with_people = kinds, clock, search_s, set(people)
        self.cheap_s, self.runs = cheap_s, dict(runs or {})
        self.log: list[tuple[str, object]] = []

    def people(self, game_id):
        return game_id in self.with_people

    def next_job(self, game_id, version=None, deciding=None):
        from types import SimpleNamespace

        from services.bots.decide import SEARCH_KINDS

        kind = self.kinds[game_id]
        if game_id in self.runs:
            if self.runs[game_id] == 0:
                return None  # the person's turn
            self.runs[game_id] -= 1
        if not deciding(game_id, version, {"kind": kind}):
            return None
        self.clock[0] += self.search_s if kind in SEARCH_KINDS else self.cheap_s
        self.log.append(("decide", game_id))
        return SimpleNamespace(game_id=game_id, version=version + 1, error=None)

    def run_jobs(self, jobs):
        self.log.append(("commit", [job.game_id for job in jobs]))

    def searched(self):
        return [game_id for step, game_id in self.log if step == "decide" and self.kinds[game_id] in ("expert", "ismcts")]


def _fake_clock(monkeypatch):
    from types import SimpleNamespace

    from services.phases import mover as mover_module

    clock = [0.0]
    monkeypatch.setattr(mover_module, "time", SimpleNamespace(monotonic=lambda: clock[0]))
    return clock


def test_a_round_commits_the_steps_without_search_before_it_works_out_a_search(monkeypatch):
    """``Mover.round``: a game got one step a pass through the mover's hand, so a game of fast bots
    or a person's game waited for every search bot's decision in hand before its turn (a trial: a
    person's next turn 14-27 s after their move with 12 games of search bots on two cores). Now a
    round's first pass works out and commits every step that is not a search; its second pass
    then works out the searches until ``ROUND_S`` is spent, and the games searched go to the end
    of the hand, so the search games take turns. A game of bots only gets one step a round."""
    from services.phases.mover import ROUND_S, Mover

    clock = _fake_clock(monkeypatch)
    kinds = {"g1": "random", "g2": "expert", "g3": "greedy", "g4": "ismcts"}
    table = _SearchTable(kinds, clock, search_s=2 * ROUND_S, cheap_s=ROUND_S / 4)
    mover = Mover(table, RoundClient(), name="cheap-first")
    hand = mover.round([("g1", 1), ("g2", 1), ("g3", 1), ("g4", 1)])
    cheap = [("decide", "g1"), ("decide", "g3"), ("commit", ["g1", "g3"])]
    assert table.log == cheap + [("decide", "g2"), ("commit", ["g2"])]
    assert hand == [("g4", 1), ("g1", 2), ("g3", 2), ("g2", 2)]
    assert mover._searching == {"g2", "g4"}  # its load (Mover.balance)
    table.log.clear()
    hand = mover.round(hand)
    assert table.log == cheap + [("decide", "g4"), ("commit", ["g4"])]
    assert [game_id for game_id, _ in hand] == ["g2", "g1", "g3", "g4"]


def test_a_bot_that_moves_several_times_running_moves_on_before_the_searches(monkeypatch):
    """``Mover.round``: a person's opponent that is not a search bot moved one step a round, and
    each round worked out a search of another game, so a person facing a ``random`` bot beside
    games of search bots waited a median 2-3 s and a p90 of 11 s for moves that take milliseconds
    (``make bench-people``, 2026-12-06). Now, while searches wait, the first pass goes again over
    the games with a person's seat it moved until none has a cheap step left: the person's turn
    comes back before the search. A game of bots only still gets one step a round, beside searches
    or not (going again over those held the searches back: ``Mover._cheap_again``)."""
    from services.phases.mover import ROUND_S, Mover

    clock = _fake_clock(monkeypatch)
    table = _SearchTable({"p": "random", "s": "expert"}, clock, search_s=4 * ROUND_S, people={"p"},
                         cheap_s=ROUND_S / 100, runs={"p": 3})
    mover = Mover(table, RoundClient(), name="runs")
    hand = mover.round([("p", 1), ("s", 1)])
    assert table.log == 3 * [("decide", "p"), ("commit", ["p"])] + [("decide", "s"), ("commit", ["s"])]
    assert hand == [("s", 2)]  # p waits for its person: it left the hand
    table.log.clear()
    table.kinds.update(g1="random", g2="greedy")
    table.runs = {"g1": 5}
    hand = mover.round([("g1", 1), ("g2", 1)])
    assert table.log == [("decide", "g1"), ("decide", "g2"), ("commit", ["g1", "g2"])]
    assert hand == [("g1", 2), ("g2", 2)]
    table.log.clear()
    hand = mover.round([("g1", 2), ("s", 2)])
    assert table.log == [("decide", "g1"), ("commit", ["g1"]), ("decide", "s"), ("commit", ["s"])]
    assert hand == [("g1", 3), ("s", 3)]


def test_a_game_with_a_person_takes_its_cheap_steps_before_the_games_of_bots_only(monkeypatch):
    """``Mover.round``: a person's game just taken from the ready list joined the end of the hand,
    and a first pass over games of bots whose steps are not near-free spent ``ROUND_S`` before it,
    so it waited for the round's search as well (a trial: 30 games of ``greedy`` bots beside
    search games, a person facing ``random`` waited a median 5.4 s). Now the games with a person's
    seat come first in the first pass, the others in their order after them."""
    from services.phases.mover import ROUND_S, Mover

    clock = _fake_clock(monkeypatch)
    kinds = {"g1": "greedy", "g2": "greedy", "g3": "greedy", "g4": "greedy", "s": "expert", "p": "random"}
    table = _SearchTable(kinds, clock, search_s=4 * ROUND_S, people={"p"}, cheap_s=ROUND_S / 3)
    mover = Mover(table, RoundClient(), name="people-cheap-first")
    hand = mover.round([("g1", 1), ("g2", 1), ("g3", 1), ("g4", 1), ("s", 1), ("p", 1)])
    assert table.log == [("decide", "p"), ("decide", "g1"), ("decide", "g2"), ("decide", "g3"),
                         ("commit", ["p", "g1", "g2", "g3"])]
    assert hand == [("g4", 1), ("s", 1), ("p", 2), ("g1", 2), ("g2", 2), ("g3", 2)]


def test_a_game_with_a_person_is_searched_first_but_not_two_rounds_running(monkeypatch):
    """``Mover.round``: a game with a person's seat is searched before the games of bots only, for
    as many of its bot's moves as it takes (a trial gave the lead only to a game just pushed, for
    its first search, and a person whose bot moved several times running waited up to 62 s), but
    the next round's search goes to a game of bots only, so that people playing cannot hold those
    for ever."""
    from services.phases.mover import ROUND_S, Mover

    clock = _fake_clock(monkeypatch)
    kinds = {g: "expert" for g in ("h1", "h2", "p1")}
    table = _SearchTable(kinds, clock, search_s=2 * ROUND_S, people={"p1"})
    mover = Mover(table, RoundClient(), name="people-first")
    hand = [("h1", 1), ("h2", 1), ("p1", 1)]
    for _ in range(5):
        hand = mover.round(hand)
    assert table.searched() == ["p1", "h1", "p1", "h2", "p1"]


def test_a_mover_over_its_share_of_search_games_hands_some_to_a_lighter_peer(redis_client):
    """``Mover.balance``: a game stayed with the mover that first took it, so the hands did not
    even out (a trial: 11 search games against 1, the one moving ten times as often). A mover over
    its share of the search games hands the rest back while a peer is under it, keeping the games
    with a person's seat, and takes no ready games while it is more than one over the lightest peer; a
    peer inside one long search (no load written lately) is handed nothing."""
    from services.phases.mover import BALANCE_S, LOAD, Mover
    from services.phases.schedulers import READY

    class Table:  # g6 has a person's seat
        def people(self, game_id):
            return game_id == "g6"

    heavy = Mover(table=Table(), client=redis_client, name="heavy")
    light = Mover(table=None, client=redis_client, name="light")
    heavy.heartbeat()
    light.heartbeat()
    heavy.movers()  # sees both
    hand = [(f"g{k}", 3) for k in range(8)]
    heavy._searching = {f"g{k}" for k in range(7)}  # g7's next step is no search
    redis_client.set(LOAD.format(name="light"), 1)
    kept = heavy.balance(hand)
    # 7 + 1 search games over two movers: a share of 4; three handed back, the last in hand first
    assert redis_client.lrange(READY, 0, -1) == [b"g3", b"g4", b"g5"]
    assert kept == [("g0", 3), ("g1", 3), ("g2", 3), ("g6", 3), ("g7", 3)]
    assert redis_client.get(LOAD.format(name="heavy")) == b"7"
    assert heavy._pop(32, block=0) == [] and redis_client.llen(READY) == 3  # 4 > 1 + 1: the peer takes them
    heavy._balanced -= BALANCE_S  # as if BALANCE_S had passed: not yet, the peer's load is not written since
    assert heavy.balance(kept) == kept and redis_client.llen(READY) == 3
    redis_client.set(LOAD.format(name="light"), 4)  # it took them
    heavy._balanced = 0.0
    assert heavy.balance(kept) == kept and not heavy._hold_off
    assert heavy._pop(32, block=0) == ["g5", "g4"]  # its share of what waits again
    heavy._searching |= {"g4", "g5"}
    redis_client.delete(LOAD.format(name="light"))  # inside one long search: no load written lately
    heavy._balanced = 0.0
    many = kept + [("g5", 3), ("g4", 3)]
    assert heavy.balance(many) == many and not heavy._hold_off and redis_client.llen(READY) == 1


def test_a_step_that_lost_a_race_is_logged_apart_from_one_that_failed(monkeypatch):
    """``Mover.round``: the worker's sweep and the mover holding a game both ran its phase, and the
    loser's VersionConflict was a steady stream of ``mover_step_failed`` lines that did not say
    which step it was (a trial). A lost race is now ``mover_step_superseded`` at DEBUG, and a
    failure names its step, ``move`` or ``phase``; neither game stays in hand."""
    import logging
    from types import SimpleNamespace

    import structlog
    from structlog.testing import LogCapture

    from services.coordinator.store import Commit, VersionConflict
    from services.phases import mover as mover_module
    from services.phases.mover import Mover

    # the mover's own logger, at DEBUG whatever level an earlier test configured the process's logs at
    captured = LogCapture()
    monkeypatch.setattr(mover_module, "log", structlog.wrap_logger(
        None, processors=[captured], wrapper_class=structlog.make_filtering_bound_logger(logging.DEBUG)))

    class Table(BotsOnlyTable):
        def next_job(self, game_id, version=None, deciding=None):
            kind = "phase" if game_id == "raced" else "move"
            return SimpleNamespace(game_id=game_id, base=version, version=version + 1, error=None, commit=Commit(kind))

        def run_jobs(self, jobs):
            jobs[0].error = VersionConflict(4, 5)
            jobs[1].error = ValueError("the domain refused it")

    mover = Mover(Table(), RoundClient(), name="raced")
    hand = mover.round([("raced", 4), ("refused", 7), ("moved", 2)])
    assert hand == [("moved", 3)]
    assert [(line["event"], line["log_level"], line["game_id"], line["step"]) for line in captured.entries] == [
        ("mover_step_superseded", "debug", "raced", "phase"), ("mover_step_failed", "info", "refused", "move")]


def test_next_job_asks_before_a_bot_decides_and_passes_a_game_another_process_decides(redis_client):
    """``Table.next_job(deciding=...)``: asked with the game, its version and the bot's seat record
    before the bot decides; False leaves the game to the process that is deciding it (no job)."""
    from services.coordinator.ports import embedded_ports
    from services.coordinator.projection import Projections
    from services.coordinator.redis_store import RedisStore
    from services.coordinator.table import Table

    class Held:  # a scheduler that schedules nothing: the game waits for its bot
        def __getattr__(self, name):
            return lambda *args, **kwargs: None

    store = RedisStore(redis_client)
    projections = Projections(store)
    table = Table(store, embedded_ports(store, projections=projections), Held(), projections=projections)
    gid = table.create(GameConfig(game="noggin", players=2), seed="deciding",
                       bots={0: {"kind": "expert", "seed": "x"}, 1: {"kind": "expert", "seed": "y"}})
    version = table.state(gid)[2]
    asked = []
    assert table.next_job(gid, deciding=lambda *args: asked.append(args) or False) is None
    assert asked and asked[0][:2] == (gid, version) and asked[0][2]["kind"] == "expert"
    job = table.next_job(gid, deciding=lambda *args: True)
    assert job is not None and job.base == version
