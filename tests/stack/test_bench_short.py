"""The short version of ``make bench``'s stack part on the session's stack: the measurement
runs and reads its own figures back from the log and the processes (no figure asserted:
speed is measured by ``make bench``, never by a test)."""

from __future__ import annotations

import math

import pytest

from services.bench.stack import AGENT_PATHS, memory, run_level, sample_agents


def kinds(stack) -> set[str]:
    """The kinds of the stack's children, as the figures name them (``mover`` for every mover)."""
    return {spec.role for spec in stack.stack.supervisor.specs.values()}


def test_a_level_of_bots_on_the_bus_is_measured(stack):
    row = run_level(stack.stack, "bus", 2, seed="short", seconds=1.5)
    assert row["games"] == 2 and row["moves"] > 0 and row["moves_per_s"] > 0, row
    assert math.isfinite(row["p50_ms"]) and row["p99_ms"] >= row["p50_ms"]
    assert 0 < row["cpu"] <= 1 and 0 < row["stack_cpu"] <= 1
    assert row["busiest"] in kinds(stack) and row["busiest_cpu"] > 0


def test_memory_counts_a_finished_games_record_apart(stack):
    mem = memory(stack.stack)
    assert 0 < mem["redis_bytes_record"] < mem["redis_bytes_finished"]
    assert mem["redis_bytes_in_play"] > 0
    assert {"redis", "gateway", "mover"} <= set(mem["rss_mib"])


def test_a_level_of_bots_over_http_is_measured_with_the_gateways_cpu_a_move(stack):
    row = run_level(stack.stack, "http", 2, seed="short-http", seconds=2.0)
    assert row["games"] == 2 and row["moves"] > 0 and row["moves_per_s"] > 0, row
    assert math.isfinite(row["p50_ms"]) and row["p99_ms"] >= row["p50_ms"]
    # the gateway served every move of the window, so it used some CPU for them
    assert math.isfinite(row["gateway_ms_per_move"]) and row["gateway_ms_per_move"] > 0, row


def test_a_level_of_the_sample_agents_is_measured_over_both_protocols(stack, tmp_path):
    """The agent paths (issue 25, item 3): every seat the sample agent of ``examples/``, asked
    by the movers, over a webhook and over gRPC; their moves are counted from the commits."""
    with sample_agents(tmp_path) as agents:
        ids = agents.register(stack.gateway_url, stack.operator_key)
        assert set(ids) == set(AGENT_PATHS)
        rows = {}
        for path in AGENT_PATHS:
            row = rows[path] = run_level(stack.stack, path, 1, seed=f"short-{path}", seconds=1.5, agents=agents)
            assert row["path"] == path and row["moves"] > 0 and row["moves_per_s"] > 0, row
            assert row["strikes"] == 0 and math.isfinite(row["p50_ms"]), row
            assert row["mover_ms_per_move"] > 0, row  # the movers asked the agents
            assert row["busiest"] in {*kinds(stack), "agent-http", "agent-grpc"}, row
    # the moves were the agents' own answers: each agent logged a move request for every one (and
    # for the moves of its games after the window)
    for path, protocol in AGENT_PATHS.items():
        asked = (tmp_path / f"agent-{protocol}.log").read_text().count("move match=")
        assert asked >= rows[path]["moves"], (path, asked, rows[path])
    with pytest.raises(ValueError, match="not registered"):
        run_level(stack.stack, "agent-grpc", 1, seconds=0.1)


def test_a_persons_waits_beside_search_bots_are_measured(stack, monkeypatch):
    """``make bench-people``'s measurement on the session's stack, with search bots of a tiny budget
    (the games end soon and hold no mover for long): people's turns are recorded, the search-only
    game's moves counted, and nothing failed; then a game of fast bots only (``--fast-games``) has
    its moves counted."""
    from services.bench import people
    from services.bench.people import play_on

    quick = (("noggin", {"kind": "ismcts", "iterations": 10}),)
    report = play_on(stack.gateway_url, stack.operator_key, search_games=1, people=2, seconds=3.0, warmup=0.5,
                     seed="short-people", search_bots=quick)
    assert report["errors"] == [], report["errors"]
    assert len(report["search_moves"]) == 1 and report["search_moves"][0] > 0, report
    turns = {opponent: len(waits) + report["kept"][opponent] for opponent, waits in report["waits"].items()}
    assert turns["random"] > 0 and turns["search"] > 0, report
    monkeypatch.setattr(people, "TOP_UP_S", 0.2)
    fast = play_on(stack.gateway_url, stack.operator_key, search_games=0, people=0, seconds=1.0, warmup=0.2,
                   seed="short-fast", fast_games=1, fast_bots=(("noggin", {"kind": "random"}),))
    assert fast["errors"] == [] and fast["search_moves"] == [] and fast["fast_moves"] > 0, fast
