"""Strikes, default moves and forfeits of agent seats (services/rules/core/match.py and
``Table.play_for_agent``), on an embedded table for every game: a strike is in the event log
with the default move after it, the default move is the seeded random one, the strike that
reaches the limit forfeits the match and ends the game, and a late answer changes nothing."""

from __future__ import annotations

import random

import pytest

from services.coordinator.ports import embedded_ports
from services.coordinator.projection import Projections
from services.coordinator.store import MemoryStore
from services.coordinator.table import Table
from services.rules.core import BadConfig, GameConfig, canonical_json, state_hash


class Recorder:
    """A scheduler that only records what the table hands over (nobody is asked)."""

    def __init__(self) -> None:
        self.asked: list[tuple[str, int, int]] = []
        self.ended: list[str] = []

    def schedule(self, game_id, phase, version):  # a phase runs at once, as inline
        self.table.run_phase(game_id, phase, version)

    def schedule_bot(self, game_id, seat, version):
        self.table.play_bot(game_id, seat, version)

    def schedule_agent(self, game_id, seat, version):
        self.asked.append((game_id, seat, version))

    def schedule_end(self, game_id):
        self.ended.append(game_id)


def agent_table() -> tuple[Table, Recorder]:
    store = MemoryStore()
    projections = Projections(store)
    recorder = Recorder()
    table = Table(store, embedded_ports(store, projections=projections), recorder, projections=projections)
    recorder.table = table
    return table, recorder


def waiting_for(table: Table, recorder: Recorder, game_id: str, seat: int) -> int:
    """Play seat 0 (a person here) by its first legal move until ``seat`` (the agent) is to move."""
    for _ in range(200):
        rules, state, version = table.state(game_id)
        if seat in rules.to_move(state):
            assert recorder.asked[-1] == (game_id, seat, version)
            return version
        other = rules.to_move(state)[0]
        table.play(game_id, other, rules.legal_moves(state, other)[0], version)
    raise AssertionError("the agent's seat never came to move")


@pytest.mark.rules("noggin:agent matches/strike-default-move", "noggin:agent matches/forfeit-ends-game", "noggin:agent matches/late-answer-changes-nothing", "gnomes:agent matches/strike-default-move", "gnomes:agent matches/forfeit-ends-game", "gnomes:agent matches/late-answer-changes-nothing", "resource_hog:agent matches/strike-default-move", "resource_hog:agent matches/forfeit-ends-game", "resource_hog:agent matches/late-answer-changes-nothing")
@pytest.mark.parametrize("game", ["noggin", "gnomes", "resource_hog"])
def test_strikes_play_the_default_move_then_forfeit_ends_the_match(game):
    table, recorder = agent_table()
    gid = table.create(GameConfig(game=game, players=2), seed="strikes",
                       bots={1: {"kind": "agent", "agent": "a1", "seed": "dflt"}}, control={"max_strikes": 2})
    version = waiting_for(table, recorder, gid, 1)
    rules, state, _ = table.state(gid)
    legal = rules.legal_moves(state, 1)
    expected = legal[random.Random(f"dflt:{version}").randrange(len(legal))]
    result = table.play_for_agent(gid, 1, version, None, failure="timeout")
    assert result is not None and result["move"] == expected
    assert result["events"][0] == {"type": "StrikeRecorded", "data": {"seat": 1, "reason": "timeout", "strikes": 1},
                                   "to": None}
    # a late answer for the decision already played changes nothing
    before = table.summary(gid)
    assert table.play_for_agent(gid, 1, version, legal[0]) is None
    assert table.summary(gid) == before
    version = waiting_for(table, recorder, gid, 1)
    result = table.play_for_agent(gid, 1, version, None, failure="malformed")
    assert result["move"] is None and [e["type"] for e in result["events"]] == ["StrikeRecorded", "SeatForfeited"]
    summary = table.summary(gid)
    assert summary["status"] == "over" and summary["to_move"] == []
    assert summary["outcome"] == {"reason": "forfeit", "forfeited": [1], "winners": [0], "scores": [0, 0]}
    assert recorder.ended == [gid]


def test_a_good_answer_is_played_and_a_game_without_strikes_keeps_its_hash():
    table, recorder = agent_table()
    gid = table.create(GameConfig(game="noggin", players=2), seed="clean",
                       bots={1: {"kind": "agent", "agent": "a1"}})
    version = waiting_for(table, recorder, gid, 1)
    rules, state, _ = table.state(gid)
    assert "match" not in canonical_json(rules.hash_view(state))  # no record until a strike
    move = rules.legal_moves(state, 1)[-1]
    result = table.play_for_agent(gid, 1, version, move)
    assert result["move"] == move and result["version"] == version + 1
    assert all(e["type"] != "StrikeRecorded" for e in result["events"])
    rules, after, _ = table.state(gid)
    assert after.match is None and state_hash(rules.hash_view(after)) == table.summary(gid)["state_hash"]


def test_time_control_is_checked_at_creation():
    table, _ = agent_table()
    for control in ({"move_ms": 0}, {"max_strikes": True}, {"bank": 5}):
        with pytest.raises(BadConfig, match="time_control"):
            table.create(GameConfig(game="noggin", players=2), bots={1: {"kind": "agent", "agent": "a"}},
                         control=control)
    with pytest.raises(BadConfig, match="agent"):
        table.create(GameConfig(game="noggin", players=2), bots={1: {"kind": "agent"}})
    # refused the same with no agent seat (it was taken, then ignored); nothing is stored then
    for bots in ({}, {1: "random"}):
        with pytest.raises(BadConfig, match="time_control"):
            table.create(GameConfig(game="noggin", players=2), bots=bots, control={"move_ms": -5}, game_id="g-refused")
        assert not table._exists("g-refused")
    gid = table.create(GameConfig(game="noggin", players=2), control={"move_ms": 500})
    assert "control" not in table.store.meta(gid)  # kept only where agent seats use it


def test_creating_a_given_id_twice_keeps_the_first_games_secret_seed():
    """A tournament step or an idempotent retry may ask for an id that exists: the deck must not
    store a new seed under it (the game's chance would change under its feet)."""
    table, _ = agent_table()
    gid = table.create(GameConfig(game="noggin", players=2), seed="first", game_id="00000000000000ab")
    seeds = table.ports["deck"].seeds
    before = seeds.get(gid)
    with pytest.raises(ValueError, match="exists"):
        table.create(GameConfig(game="noggin", players=2), seed="second", game_id=gid)
    assert seeds.get(gid) == before
