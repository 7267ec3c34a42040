"""The load test and the lock-out figure, short (issue: reliability, "Load", acceptance 1 and 5).

``make load-test`` runs the long versions (64 games for 10 minutes; 1,000 SSE streams and 200
``/wait`` polls); here a few games for 20 seconds and fewer held requests, on the session's
stack. No speed is asserted (the machine is shared): only that nothing failed and that the
figures were measured.
"""

from __future__ import annotations

import math

import pytest

from services.reliability.load import GAMES, play_load, plan_game, run_lockout
from services.launcher.stack import gateway_workers

pytestmark = pytest.mark.stack


def test_a_short_load_has_no_error_and_measures_every_kind_of_call(stack):
    report = play_load(stack.gateway_url, games=4, seconds=20, seed="short", spectators=1, pollers=1,
                       operator_key=stack.operator_key)
    meter = report.meter
    assert meter.error_count == 0, meter.examples
    assert meter.moves > 0 and report.moves_per_s > 0
    assert meter.started >= 4
    for kind in ("move", "view", "legal-moves", "wait", "healthz"):
        stats = meter.stats(kind)
        assert stats["count"] > 0, kind
        assert math.isfinite(stats["p50"]) and stats["p50"] <= stats["p99"] <= stats["max"], (kind, stats)
    assert meter.stats("move")["count"] >= meter.moves  # every accepted move was timed
    assert meter.stream_entries > 0  # the spectator read entries, in order (a gap is an error)


def test_more_held_requests_than_redis_pys_default_pool_lock_nothing_out(stack):
    """redis-py 8's pool stops at 100 connections, and each held stream or poll took one: the
    101st got a 503 ``MaxConnectionsError``, and so did /healthz and moves. Streams now share
    one Redis reader per game (gateway/feeds.py) and the pool is larger than the worker's
    connections."""
    lines: list[str] = []
    report = run_lockout(stack.gateway_url, streams=150, polls=100, samples=5, seed="short",
                         redis_url=stack.redis_url, say=lines.append, operator_key=stack.operator_key)
    assert report.errors == [], report.errors + lines
    assert (report.streams, report.polls) == (150, 100)
    assert report.healthz["count"] >= 5 and report.move["count"] == 5
    assert report.baseline_move["count"] == 5
    # one held Redis connection per poll and per watched game's feed in each gateway process (at
    # most 10 games), not one per stream; a few more are the stack's own (the worker's and movers'
    # blocking reads). connected_clients is no measure: idle pooled connections, grown while the
    # streams opened at once, count in it too
    processes = gateway_workers(stack.stack.env)
    assert report.redis_blocked is not None and report.redis_blocked <= report.polls + 10 * processes + 10, lines


def test_the_load_plan_is_a_function_of_the_seed_and_mixes_games_and_bus_seats():
    plans = [plan_game("s", i) for i in range(12)]
    assert plans == [plan_game("s", i) for i in range(12)]
    assert {p.game for p in plans} == set(GAMES)
    assert {p.players for p in plans} <= {2, 3, 4}
    assert any(p.bus for p in plans) and any(not p.bus for p in plans)
    assert all(p.http_seats for p in plans)
