"""Agent fixtures: the example agents of ``examples/`` as real processes on loopback
(:class:`tests.support.agents.AgentProcess`), started once per test module and stopped at its end.
"""

from __future__ import annotations

import pytest

from services.agents.client import AgentClient, GrpcAgentClient, HttpAgentClient, make_client
from tests.support.agents import SECRET, AgentProcess

__all__ = ["SECRET", "AgentProcess"]


@pytest.fixture(scope="module")
def agents(tmp_path_factory):
    """``agents(protocol, behaviour)``: a running example agent, started on first use and
    shared by the module's tests; all are stopped at the module's end."""
    logdir = tmp_path_factory.mktemp("agents")
    running: dict[tuple[str, str], AgentProcess] = {}

    def get(protocol: str, behaviour: str = "good") -> AgentProcess:
        key = (protocol, behaviour)
        if key not in running:
            running[key] = AgentProcess(protocol, behaviour, logdir)
        return running[key]

    yield get
    for agent in running.values():  # signal all first: they stop side by side
        if agent.proc.poll() is None:
            agent.proc.terminate()
    for agent in running.values():
        agent.stop()


@pytest.fixture
def client_for():
    """``client_for(agent, secret=SECRET)``: a client of a running agent, closed after the test."""
    made: list[AgentClient] = []

    def make(agent, secret: str = SECRET, **kwargs) -> AgentClient:
        record = agent.record(secret)
        if kwargs:
            cls = HttpAgentClient if agent.protocol == "http" else GrpcAgentClient
            client = cls(record["address"], secret, name=record["name"], **kwargs)
        else:
            client = make_client(record)
        made.append(client)
        return client

    yield make
    for client in made:
        client.close()
