"""The short version of ``make bench``: its measurements run and its verdicts follow the
performance issue's targets (never a timed test: no figure is asserted, only shapes and
the arithmetic of the verdicts)."""

from __future__ import annotations

import contextlib
import io
import math
from pathlib import Path

from rich.console import Console

from services.bench import __main__ as bench
from services.bench import engine


def _row(games: int, p50: float, saturated: bool = False, cpu: float = 0.2) -> dict:
    return {"path": "bus", "games": games, "moves": 100, "seconds": 1.0, "moves_per_s": 100.0, "p50_ms": p50,
            "p99_ms": 2 * p50, "cpu": 0.95 if saturated else cpu, "stack_cpu": 0.4, "busiest": "mover",
            "busiest_cpu": 0.5, "saturated": saturated}


def _marked(rows: list[dict]) -> list[dict]:
    bench.mark_saturation(rows)
    return rows


def test_latency_target_counts_only_concurrency_below_saturation():
    flat_then_saturated = _marked([_row(1, 2.0), _row(2, 2.3), _row(4, 2.2), _row(8, 9.0, True), _row(64, 70.0, True)])
    line = bench.latency_target(flat_then_saturated)
    assert "saturates from 8 games" in line and "(met" in line and "35.0" in line and "2 level(s)" in line
    growing = _marked([_row(1, 2.0), _row(2, 2.6), _row(8, 9.0, saturated=True)])
    assert "not met" in bench.latency_target(growing)
    never = _marked([_row(1, 2.0, cpu=0.01), _row(8, 2.2, cpu=0.08)])
    line = bench.latency_target(never)
    assert "did not saturate" in line and "(met" in line


def test_saturation_by_demand_starts_where_the_games_need_more_than_the_cores():
    """One game keeping 40 % of the cores busy: from 2.5 games they need more than all of them."""
    rows = _marked([_row(1, 2.0, cpu=0.4), _row(2, 2.1, cpu=0.7), _row(4, 5.0, cpu=0.85), _row(8, 9.0, True)])
    assert bench.demand_bound(rows) == 2.5
    assert [r["saturated_by"] for r in rows] == ["", "", "demand", "busy"]
    line = bench.latency_target(rows)
    assert "saturates from 4 games" in line and "from 2.5 games" in line and "(met" in line
    assert "no level between" in bench.latency_target(_marked([_row(1, 2.0, cpu=0.6), _row(2, 5.0, cpu=0.8)]))


def test_markdown_has_every_table_and_the_targets():
    eng = [{"game": "noggin", "moves_per_s": 1000.0, "games_per_s": 4.0, "legal_us": 300.0, "apply_us": 200.0,
            "reference_moves_per_s": 4000.0, "ratio": 0.25, "clone_us": 10.0, "deepcopy_us": 200.0,
            "ratio_clone": 20.0}]
    mem = {"redis_bytes_in_play": 10, "redis_bytes_finished": 30, "redis_bytes_record": 20, "rss_mib": {"gateway": 50}}
    text = bench.markdown("make bench", eng, _marked([_row(1, 2.0), _row(8, 9.0, True)]), mem, ["target 1 ..."])
    for heading in ("## Engine", "## Hosted stack", "## Memory", "## Targets"):
        assert heading in text
    assert "| bus | 8 |" in text and "| mover 50 % | busy |" in text and "record" in text


def test_engine_measurements_run_on_the_forward_model():
    """A short playout, clone and view measurement of Noggin (what ``make bench`` runs for seconds)."""
    r = engine.playouts("noggin", 3, 0.3, seed="short")
    assert r["moves"] > 0 and r["moves_per_s"] > 0 and r["legal_us"] > 0 and r["apply_us"] > 0
    c = engine.clone_cost("noggin", 3, samples=2)
    assert c["clone_us"] > 0 and c["deepcopy_us"] > 0 and math.isfinite(c["ratio_clone"])
    v = engine.view_cost("noggin", 3, samples=2)
    assert v["view_us"] > 0 and v["view_json_us"] > 0 and v["state_hash_us"] > 0 and v["view_bytes"] > 1000


def test_peers_summary_gives_the_bus_ratio_and_the_http_targets():
    from services.bench.peers import summary_lines

    def row(rate, p50, cpu):
        return {"moves_per_s": rate, "p50_ms": p50, "gateway_ms_per_move": cpu}

    lines = summary_lines([1000.0, 1200.0, 1100.0], {
        "bus": [row(500, 9, 0.1), row(560, 10, 0.1), row(520, 11, 0.1)],
        "http": [row(600, 8, 1.9), row(400, 30, 4.0), row(550, 12, 2.5)]})
    assert lines == ["hosted/boardgame.io at 8: 0.47 (not met, >= 1.0)",
                     "hosted HTTP/boardgame.io at 8: 0.50 (met, >= 0.5)",
                     "HTTP p50 a move at 8: 12 ms (not met, <= 10)",
                     "gateway CPU a move at 8: 2.5 ms (not met, <= 2)"]


def test_write_keeps_the_sections_the_run_does_not_produce(tmp_path):
    """An engine-only run rewrites the engine table and the targets; the hand-written notes, the
    stack it skipped and the bot ladder stay as recorded, each where it was."""
    from services.bench.sections import keep_recorded

    doc = tmp_path / "benchmarks.md"
    doc.write_text("# Benchmarks\n\nProduced by an older run.\n\n## Engine: random playouts on the forward model\n\n"
                   "old engine\n\n## Engine: profile and speed-ups (issue 25)\n\nnotes\n\n## Hosted stack\n\n"
                   "old stack\n\n## Bot ladder\n\nladder\n\n## Targets\n\n- old targets\n", encoding="utf-8")
    eng = [{"game": "noggin", "moves_per_s": 1000.0, "games_per_s": 4.0, "legal_us": 300.0, "apply_us": 200.0,
            "reference_moves_per_s": 4000.0, "ratio": 0.25, "clone_us": 10.0, "deepcopy_us": 200.0,
            "ratio_clone": 20.0}]
    text = keep_recorded(bench.markdown("make bench", eng, [], None, ["target 1 new"]), doc)
    headings = [line for line in text.splitlines() if line.startswith("## ")]
    assert headings == ["## Engine: random playouts on the forward model", "## Engine: profile and speed-ups (issue 25)",
                        "## Hosted stack", "## Bot ladder", "## Targets"]
    assert "old engine" not in text and "| noggin | pure | 1000 |" in text and "- target 1 new" in text
    assert "\nnotes\n" in text and "\nold stack\n" in text and "\nladder\n" in text and "old targets" not in text
    assert "Kept as recorded before" in text and "“Hosted stack”" in text and "\n\n\n" not in text
    assert keep_recorded(text, doc).count("## Hosted stack") == 1


def test_targets_are_issue_25s():
    eng = [{"game": "noggin", "moves_per_s": 1000.0, "games_per_s": 4.0, "legal_us": 300.0, "apply_us": 200.0,
            "reference_moves_per_s": 1000.0, "ratio": 1.0, "clone_us": 1.0, "deepcopy_us": 49.0,
            "ratio_clone": 49.0}]
    lines = bench.print_tables(Console(file=io.StringIO()), eng, [], None)
    assert "playouts / OpenSpiel: 1.00 (met, >= 1.0; pure)" in lines[0]
    assert "clone / deepcopy: 49x (not met, >= 50x)" in lines[1]


def test_engine_rounds_count_cpu_seconds_by_default(monkeypatch):
    """``paired`` asks its runner for the process's CPU clock unless told the wall clock, and
    plays every build each round: compiled and pure where compiled modules are built (the
    reference and the runner are stubbed: OpenSpiel need not be installed)."""
    seen, reference = [], []

    def fake_runner(game, players, seconds, seed, cpu, pure):
        seen.append((cpu, pure))
        return {"moves_per_s": 10.0 if pure else 30.0, "games_per_s": 1.0, "legal_us": 1.0, "apply_us": 1.0,
                "compiled": 0 if pure else 40}

    monkeypatch.setattr(engine, "openspiel_reference",
                        lambda seconds, cpu=False: reference.append(cpu) or {"moves_per_s": 20.0})
    monkeypatch.setattr(engine, "builds", lambda: ["compiled", "pure"])
    cpu = engine.paired("noggin", 3, 2, 0.01, runner=fake_runner)
    wall = engine.paired("noggin", 3, 1, 0.01, cpu=False, runner=fake_runner)
    assert seen == [(True, False), (True, True)] * 2 + [(False, False), (False, True)]
    assert reference == [True, True, False]
    assert cpu["ratio"] == 1.5 and cpu["pure_ratio"] == 0.5 and cpu["build"] == "compiled" and cpu["compiled"] == 40
    assert cpu["clock"] == "cpu" and wall["clock"] == "wall"
    monkeypatch.setattr(engine, "builds", lambda: ["pure"])
    pure = engine.paired("noggin", 3, 1, 0.01, runner=fake_runner)
    assert pure["build"] == "pure" and pure["ratio"] == pure["pure_ratio"] == 0.5
    lines = bench.print_tables(Console(file=io.StringIO()), [{**cpu, "game": "noggin", "clone_us": 1.0,
                                                              "deepcopy_us": 100.0, "ratio_clone": 100.0}], [], None)
    assert "playouts / OpenSpiel: 1.50 (met, >= 1.0; compiled (40 modules loaded); pure Python 0.50)" in lines[0]


def test_playouts_run_in_a_process_of_their_own_pure_or_compiled():
    """The runner ``make bench`` uses: a short pure-Python round in a new process."""
    r = engine.playouts_process("resource_hog", 2, 0.05, "short", cpu=True, pure=True)
    assert r["moves"] > 0 and r["moves_per_s"] > 0 and r["compiled"] == 0


def test_targets_not_measured_keep_their_recorded_verdicts(tmp_path):
    """A run without the stack keeps target 4's recorded verdict; target 1 is this run's, whatever
    its older wording."""
    doc = tmp_path / "benchmarks.md"
    doc.write_text("# Benchmarks\n\n## Targets\n\n- target 1, noggin playouts / OpenSpiel: 0.30 (met, >= 0.25)\n"
                   "- target 4, bus p50 at 64 / at 1 games: 19.0 (met)\n- target 5, noggin adapter: 0.9 (met, >= 0.8)"
                   " (recorded before)\n", encoding="utf-8")
    new = ["target 1 (issue 25), noggin playouts / OpenSpiel: 0.65 (not met, >= 1.0)", "target 3, ..."]
    assert bench.carry_targets(new, doc) == [*new, "target 4, bus p50 at 64 / at 1 games: 19.0 (met) (recorded before)",
                                             "target 5, noggin adapter: 0.9 (met, >= 0.8) (recorded before)"]


def test_the_agent_paths_are_compared_with_the_bus_at_the_same_games():
    """Target 6 (issue 25, item 3): each agent path against the bus path at its number of games."""
    rows = [_row(1, 2.0), {**_row(8, 9.0), "moves_per_s": 400.0},
            {**_row(8, 30.0), "path": "agent-webhook", "moves_per_s": 100.0, "strikes": 0},
            {**_row(8, 12.0), "path": "agent-grpc", "moves_per_s": 200.0, "strikes": 2},
            {**_row(2, 12.0), "path": "agent-grpc", "moves_per_s": 50.0}]
    lines = bench.agent_targets(rows)
    assert len(lines) == 3 and all(line.startswith("target 6 (issue 25), agent-") for line in lines)
    assert "agent-webhook at 8 games: 100 moves/s" in lines[0] and "0.25x (not met, >= 0.5x)" in lines[0]
    assert "2 strikes" in lines[1] and "0.50x (met, >= 0.5x)" in lines[1]
    assert "no bus row at 2 games" in lines[2] and "met" not in lines[2]
    text = bench.markdown("make bench", [], _marked(rows[:2]) + _marked(rows[2:4]), None, lines)
    assert "| agent-grpc | 8 | 100 | 1.0 | 200 | 12 | 24 | 2 |" in text and "- target 6 (issue 25)" in text


def test_the_agent_ratio_is_the_median_of_the_rounds_each_against_its_own_bus():
    """Issue 25's acceptance takes medians of alternated rounds: each round's agent row is set
    against the bus row of the same round, and the verdict is the median of those ratios (here
    0.45, 0.55, 0.60: met, though round 0 alone, 0.45, is not)."""
    def at(path, rnd, moves):
        return {**_row(8, 10.0), "path": path, "round": rnd, "moves_per_s": moves, "strikes": 0}

    rows = [at("bus", 0, 1000.0), at("agent-grpc", 0, 450.0), at("bus", 1, 800.0), at("agent-grpc", 1, 440.0),
            at("agent-grpc", 2, 300.0), at("bus", 2, 500.0)]
    (line,) = bench.agent_targets(rows)
    assert "agent-grpc at 8 games: 450 moves/s" in line  # round 0's figures
    assert "median of 3 alternated rounds: 0.55x (met, >= 0.5x)" in line
    assert "450/1000, 440/800, 300/500" in line
    # without the rounds, the same run's first round alone
    assert "0.45x (not met" in bench.agent_targets(rows[:2])[0]


def test_a_ratio_just_under_the_target_is_never_shown_at_it():
    """A median of 0.4966 (a fresh user's run) was shown "0.50x (not met, >= 0.5x)": shown rounded
    down, it reads 0.49x."""
    rows = [{**_row(8, 10.0), "moves_per_s": 1000.0}, {**_row(8, 10.0), "path": "agent-grpc", "moves_per_s": 496.6,
                                                         "strikes": 0}]
    (line,) = bench.agent_targets(rows)
    assert "0.49x (not met, >= 0.5x)" in line


def test_the_stack_alternates_the_bus_and_the_agent_paths_in_extra_rounds(monkeypatch):
    """``run_all`` with ``agent_rounds``: after the main pass, the bus and the agent paths again at
    the agent levels, their order turned by one each round; rows carry their round. Without the
    bus among the paths no extra round runs."""
    from services.bench import stack as bench_stack

    ran = []

    class Stack:
        gateway_url = operator_key = None

        def stop(self):
            pass

    class Agents:
        allow = None

        def register(self, *a):
            pass

    @contextlib.contextmanager
    def agents(tmp, protocols):
        yield Agents()

    def level(stack, path, games, seed="bench", seconds=12.0, agents=None):
        ran.append((path, games))
        return {"path": path, "games": games}

    monkeypatch.setattr(bench_stack, "start_stack", lambda tmp, allow=None: Stack())
    monkeypatch.setattr(bench_stack, "sample_agents", agents)
    monkeypatch.setattr(bench_stack, "run_level", level)
    monkeypatch.setattr(bench_stack, "memory", lambda stack: {})
    rows, _ = bench_stack.run_all([1], ["bus", "agent-webhook", "agent-grpc"], 1.0, [8], agent_rounds=3)
    assert ran[1:] == [("bus", 1), ("agent-webhook", 8), ("agent-grpc", 8),
                       ("agent-webhook", 8), ("agent-grpc", 8), ("bus", 8),
                       ("agent-grpc", 8), ("bus", 8), ("agent-webhook", 8)]  # ran[0]: the warm-up
    assert [r["round"] for r in rows] == [0, 0, 0, 1, 1, 1, 2, 2, 2]
    ran.clear()
    rows, _ = bench_stack.run_all([], ["agent-grpc"], 1.0, [8], agent_rounds=3)
    assert ran[1:] == [("agent-grpc", 8)] and [r["round"] for r in rows] == [0]


def test_a_run_without_the_engine_writes_no_engine_section_and_keeps_the_recorded_one(tmp_path):
    """``--no-engine`` (the stack only): the page has no engine table of its own, so the recorded
    one stays, and no blank lines pile up where it was."""
    from services.bench.sections import keep_recorded

    doc = tmp_path / "benchmarks.md"
    doc.write_text("# Benchmarks\n\nold head\n\n## Engine: random playouts on the forward model\n\nold engine\n\n"
                   "## Hosted stack\n\nold stack\n\n## Targets\n\n- target 1, old\n", encoding="utf-8")
    text = bench.markdown("make bench ARGS=\"--no-engine\"", [], _marked([_row(8, 9.0)]), None, ["target 4, ..."])
    assert "## Engine" not in text and "## Hosted stack" in text and "\n\n\n" not in text
    kept = keep_recorded(text, doc)
    assert "\nold engine\n" in kept and "old stack" not in kept and kept.index("## Engine") < kept.index("## Hosted")


def test_one_stack_level_is_no_latency_verdict():
    line = bench.latency_target(_marked([_row(1, 2.0)]))
    assert "not measured" in line and "(met" not in line
    assert "(met" in bench.latency_target(_marked([_row(1, 2.0), _row(2, 2.2)]))


def test_an_unknown_stack_path_is_refused_before_anything_runs(capsys):
    import pytest

    with pytest.raises(SystemExit) as exc:
        bench.main(["--no-engine", "--no-adapters", "--levels", "1", "--paths", "bus,htttp"])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert "htttp" in err and "agent-grpc" in err


def test_bad_levels_are_refused_before_anything_runs(capsys, monkeypatch):
    import pytest

    # nothing may run: the engine rounds, the adapters and the stack would all fail the test
    monkeypatch.setattr(bench, "engine_rows", lambda *a, **k: pytest.fail("the engine ran"))
    monkeypatch.setattr(bench, "adapter_rows", lambda *a, **k: pytest.fail("the adapters ran"))
    for argv, said in ((["--levels", "abc"], "'abc'"), (["--levels", "0"], "'0'"),
                       (["--agent-levels", "2,-1"], "'-1'"), (["--rounds", "0"], "--rounds and --agent-rounds must be >= 1"),
                       (["--agent-rounds", "0"], "--agent-rounds must be >= 1")):
        with pytest.raises(SystemExit) as exc:
            bench.main(argv)
        assert exc.value.code == 2
        err = capsys.readouterr().err
        assert said in err and "Traceback" not in err


def test_without_the_engine_the_adapters_are_not_run_either(monkeypatch):
    import pytest

    monkeypatch.setattr(bench, "engine_rows", lambda *a, **k: pytest.fail("the engine ran"))
    monkeypatch.setattr(bench, "adapter_rows", lambda *a, **k: pytest.fail("the adapters ran"))
    assert bench.main(["--no-engine", "--levels", "", "--agent-levels", ""]) in (0, None)


def test_an_agent_path_alone_runs_the_stack(monkeypatch):
    # --levels '' skips the bus, HTTP and floor paths, not the agent paths at --agent-levels
    import pytest

    from services.bench import stack as bench_stack

    asked = {}

    def run_all(levels, paths, window, agent_levels, agent_rounds):
        asked.update(levels=levels, paths=paths, agent_levels=agent_levels, agent_rounds=agent_rounds)
        return [], None

    monkeypatch.setattr(bench_stack, "run_all", run_all)
    monkeypatch.setattr(bench, "print_tables", lambda *a, **k: [])
    monkeypatch.setattr(bench, "engine_rows", lambda *a, **k: pytest.fail("the engine ran"))
    bench.main(["--no-engine", "--levels", "", "--paths", "agent-grpc"])
    assert asked == {"levels": [], "paths": ["agent-grpc"], "agent_levels": [8], "agent_rounds": 3}


def test_a_failed_stack_run_keeps_its_logs_and_stops_the_stack(tmp_path, monkeypatch, capsys):
    """``make bench``'s stack runs in a temporary folder removed at the end; a run that fails keeps
    every log of it (the children's and the sample agents') in a folder of its own under
    ``var/bench-logs`` (``KEPT_LOGS``), says where, stops the stack and raises the error again."""
    import pytest

    from services.bench import stack as bench_stack

    stopped = []

    class Stack:
        gateway_url = operator_key = None

        def __init__(self, tmp):
            (Path(tmp) / "logs").mkdir()
            (Path(tmp) / "logs" / "gateway.log").write_text("the gateway's last words\n")
            (Path(tmp) / "agent-grpc.log").write_text("an agent's\n")

        def stop(self):
            stopped.append(True)

    def failing_level(*args, **kwargs):
        raise RuntimeError("game failed: a broken path")

    monkeypatch.setattr(bench_stack, "KEPT_LOGS", tmp_path / "kept")
    monkeypatch.setattr(bench_stack, "start_stack", lambda tmp, allow=None: Stack(tmp))
    monkeypatch.setattr(bench_stack, "run_level", failing_level)
    with pytest.raises(RuntimeError, match="a broken path"):
        bench_stack.run_all([8], ["bus"], agent_levels=[])
    (kept,) = (tmp_path / "kept").iterdir()
    assert (kept / "logs" / "gateway.log").read_text() == "the gateway's last words\n"
    assert (kept / "agent-grpc.log").read_text() == "an agent's\n"
    assert stopped == [True] and str(kept) in capsys.readouterr().err
