"""The short version of ``make bench``'s stack part on the session's stack: the measurement
runs and reads its own figures back from the log and the processes (no figure asserted:
speed is measured by ``make bench``, never by a test)."""

from __future__ import annotations

import math

from services.bench.stack import memory, run_level


def test_a_level_of_bots_on_the_bus_is_measured(stack):
    row = run_level(stack.stack, "bus", 2, seed="short", seconds=1.5)
    assert row["games"] == 2 and row["moves"] > 0 and row["moves_per_s"] > 0, row
    assert math.isfinite(row["p50_ms"]) and row["p99_ms"] >= row["p50_ms"]
    assert 0 < row["cpu"] <= 1 and 0 < row["stack_cpu"] <= 1
    assert row["busiest"] in stack.pids() and row["busiest_cpu"] > 0


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
