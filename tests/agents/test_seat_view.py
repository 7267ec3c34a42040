"""An agent is sent its own seat's view and nothing else (issue: access control, agent addresses).

Whole stretches of each game on an embedded table with an agent on seat 1: every payload the
engine hands the agent's client is recorded as the bytes it would send. Each move request's view
is exactly the seat's player view at that version (never another seat's, never the state), no
payload carries a ``secret`` part, the game's seed or the seat's default-move seed, and the start
notice has only its documented fields. The test is meaningful: at some request another seat's
view differs from the agent's (there were secrets to leak).
"""

from __future__ import annotations

import orjson
import pytest

from services.agents.protocol import MatchStart, MoveChoice, MoveRequest, encode
from services.agents.registry import registry_for
from services.coordinator.ports import embedded_ports
from services.coordinator.projection import Projections
from services.coordinator.store import MemoryStore
from services.coordinator.table import Table
from services.phases import agents as phase_agents
from services.rules.core import GameConfig

GAME_SEED = "game-seed-needle-5150"
BOT_SEED = "default-move-seed-needle-6060"


class Quiet:
    """A scheduler that runs phases at once and leaves every seat's decision to the test."""

    table: Table

    def schedule(self, game_id, phase, version):
        self.table.run_phase(game_id, phase, version)

    def schedule_bot(self, *args):
        pass

    def schedule_agent(self, *args):
        pass

    def schedule_end(self, *args):
        pass


class Recording:
    """An agent client that records what it is sent and chooses the first legal move."""

    def __init__(self, table: Table, game_id: str):
        self.table, self.game_id = table, game_id
        self.sent: list[tuple[bytes, object, int]] = []  # (body, state when asked, version)

    def start(self, payload, timeout_s):
        self.sent.append((encode(payload), None, -1))

    def choose(self, payload, timeout_s):
        _, state, version = self.table.state(self.game_id)
        self.sent.append((encode(payload), state, version))
        return MoveChoice(index=0)

    def end(self, payload, timeout_s):
        self.sent.append((encode(payload), None, -1))


def _keys(obj) -> set[str]:
    if isinstance(obj, dict):
        return set(obj) | {k for v in obj.values() for k in _keys(v)}
    if isinstance(obj, list):
        return {k for v in obj for k in _keys(v)}
    return set()


@pytest.mark.parametrize("game", ["noggin", "gnomes", "resource_hog"])
def test_an_agent_is_sent_its_own_seats_view_only(game, monkeypatch):
    store = MemoryStore()
    projections = Projections(store)
    scheduler = Quiet()
    table = Table(store, embedded_ports(store, projections=projections), scheduler, projections=projections)
    scheduler.table = table
    agent_id = registry_for(table).register({"name": "rec", "protocol": "http", "address": "http://127.0.0.1:9/",
                                             "secret": "r" * 20}).agent_id
    game_id = table.create(GameConfig(game=game, players=2), seed=GAME_SEED,
                           bots={1: {"kind": "agent", "agent": agent_id, "seed": BOT_SEED}},
                           control={"move_ms": 60_000, "bank_ms": 0, "max_strikes": 3})
    client = Recording(table, game_id)
    monkeypatch.setattr(phase_agents, "client_for", lambda record: client)
    for _ in range(300):
        rules, state, version = table.state(game_id)
        if rules.outcome(state) is not None or len(client.sent) > 40:
            break
        to_move = rules.to_move(state)
        if 1 in to_move:
            assert phase_agents.ask_agent(table, game_id, 1, version) == "played"
        else:
            table.play(game_id, to_move[0], rules.legal_moves(state, to_move[0])[0], version)
    requests = [(body, state, version) for body, state, version in client.sent if state is not None]
    assert len(requests) >= 3, "the agent was hardly asked"
    differs = False
    for body, state, version in requests:
        text = body.decode()
        assert GAME_SEED not in text and BOT_SEED not in text
        request = MoveRequest.model_validate_json(body)
        assert request.seat == 1 and request.version == version
        assert request.view == orjson.loads(orjson.dumps(rules.view(state, 1)))  # its own view, exactly
        assert "secret" not in _keys(request.view)
        assert request.legal_moves == orjson.loads(orjson.dumps(rules.legal_moves(state, 1)))
        differs = differs or request.view != orjson.loads(orjson.dumps(rules.view(state, 0)))
    assert differs, "no request had another seat's view to differ from"
    start = orjson.loads(client.sent[0][0])
    assert set(start) == set(MatchStart.model_fields)
    assert GAME_SEED not in client.sent[0][0].decode() and BOT_SEED not in client.sent[0][0].decode()
