"""MatchEnd goes to the agent seats that were sent MatchStart (services/phases/agents.py
``end_match``; protos/agent.proto: once to start a match, once a move, once at the end), once
per seat: a seat forfeited before its first request is not told a match ended that it was never
told had started."""

from __future__ import annotations

from services.phases import agents
from services.rules.core import GameConfig
from tests.unit.test_match_strikes import agent_table, waiting_for


class Told:
    """Stands for the agents' clients: records each MatchEnd."""

    def __init__(self) -> None:
        self.ended: list[int] = []

    def end(self, payload, timeout_s) -> None:
        self.ended.append(payload.seat)


class Registry:
    def get(self, agent_id):
        return agent_id


def test_only_seats_told_the_match_started_are_told_it_ended(monkeypatch):
    table, recorder = agent_table()
    gid = table.create(GameConfig(game="gnomes", players=2), seed="ends",
                       bots={0: {"kind": "agent", "agent": "a0", "seed": "d0"},
                             1: {"kind": "agent", "agent": "a1", "seed": "d1"}},
                       control={"max_strikes": 1})
    clock = agents.clock_for(table)
    assert clock.once(gid, "started:0")  # seat 0's MatchStart went out; seat 1's never did
    seat = waiting_for(table, recorder, gid, 1)
    assert table.play_for_agent(gid, 1, seat, None, failure="crash")["move"] is None  # forfeited
    told = Told()
    monkeypatch.setattr(agents, "client_for", lambda record: told)
    monkeypatch.setattr("services.agents.registry.registry_for", lambda table: Registry())
    assert agents.end_match(table, gid) == 1
    assert told.ended == [0]
    assert agents.end_match(table, gid) == 0 and told.ended == [0]  # once per seat
