"""Engine benchmarks: the rules core alone, on the forward model (no store, Table or ports).

* :func:`playouts`: seeded random playouts of a game (:func:`playout`: legal moves, then apply
  a uniformly chosen one; phases applied as they fall due) for about a given time: moves/s,
  games/s, and the mean cost of ``legal_moves`` and of ``apply`` apart;
* :func:`clone_cost`: the forward model's clone (copy-on-write) and the game's deep ``copy``
  against ``copy.deepcopy`` on states taken from the middle of random games;
* :func:`view_cost`: a player view, its JSON text and the state hash, on states from the middle of
  random games (what an agent's request, ``?view=true`` and a finished game's summary cost);
* :func:`openspiel_reference`: OpenSpiel's pure-Python tic-tac-toe played the same way in
  the benchmark's own environment (``.venv-bench``), the peer every ratio is taken against;
* :func:`paired`: both, alternated round by round in one run, so that a ratio compares
  figures from the same minutes on this (noisy, shared) machine; by default both count
  moves a CPU second of their own process (as the adapters' benchmark does,
  :mod:`services.bench.interop`), so time the machine gives to other processes counts for
  neither side. Each round plays the rules in processes of their own
  (:func:`playouts_process`): compiled (``make compile``, :mod:`services.rules.compile`)
  where they are built, and pure Python (``LONGHOUSE_PURE_PYTHON=1``) always.
"""

from __future__ import annotations

import copy
import json
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Callable

from services.rules import PURE_ENV, compiled_modules
from services.rules import compile as rules_compile
from services.rules.core import GameConfig, get_rules
from services.rules.core.forward import apply, apply_phase, chance_from, play_out, resolve

REFERENCE = Path(__file__).with_name("openspiel_reference.py")
BENCH_PYTHON = Path(__file__).resolve().parents[2] / ".venv-bench" / "bin" / "python"
"""The environment ``make bench`` gives OpenSpiel (kept apart from the project's own)."""


def _start(rules: Any, players: int, seed: str) -> tuple[Any, Any]:
    config = GameConfig(game=rules.name, players=players)
    state = rules.new_state()
    rules.evolve(state, rules.created_event(config))
    chance = chance_from(seed)
    resolve(rules, state, rules.setup_ops(config), chance)
    return state, chance


def playout(rules: Any, players: int, seed: str, rng: random.Random) -> tuple[int, float, float]:
    """One seeded random game of ``rules`` played to its end on the forward model (legal moves, then
    a uniformly chosen one applied, ``rng`` choosing; phases applied as they fall due; chance from
    ``seed``). Returns ``(moves, legal_s, apply_s)``: the seats' decisions and the seconds spent in
    ``legal_moves`` and in applying the chosen moves.

    Raises RuntimeError if a decision has no legal move.
    """
    state, chance = _start(rules, players, seed)
    moves = 0
    legal_s = apply_s = 0.0
    while rules.outcome(state) is None:
        if rules.pending_phase(state):
            apply_phase(rules, state, chance)
            continue
        seat = rules.to_move(state)[0]
        t0 = time.perf_counter()
        legal = rules.legal_moves(state, seat)
        t1 = time.perf_counter()
        if not legal:
            raise RuntimeError(f"{rules.name}: seat {seat} has no legal move")
        apply(rules, state, seat, legal[rng.randrange(len(legal))], chance, checked=True)
        t2 = time.perf_counter()
        legal_s += t1 - t0
        apply_s += t2 - t1
        moves += 1
    return moves, legal_s, apply_s


def playouts(game: str, players: int, seconds: float, seed: str = "bench",
             clock: Callable[[], float] = time.perf_counter) -> dict[str, float]:
    """Random playouts of ``game`` (:func:`playout`, seeds ``f"{seed}:{i}"``) for about ``seconds``
    of ``clock`` (whole games only; the wall clock by default, ``time.process_time`` for this
    process's CPU seconds).

    Returns ``{"games", "moves", "seconds", "moves_per_s", "games_per_s", "legal_us",
    "apply_us"}``: ``legal_us`` is the mean cost of ``legal_moves`` per decision and
    ``apply_us`` of applying the chosen move (microseconds).
    Raises RuntimeError if a game has a decision with no legal move.
    """
    rules = get_rules(game)
    rng = random.Random(seed)
    moves = games = 0
    legal_s = apply_s = 0.0
    start = clock()
    while clock() - start < seconds or games == 0:
        m, legal, applied = playout(rules, players, f"{seed}:{games}", rng)
        moves += m
        legal_s += legal
        apply_s += applied
        games += 1
    elapsed = clock() - start
    return {"games": games, "moves": moves, "seconds": elapsed, "moves_per_s": moves / elapsed,
            "games_per_s": games / elapsed, "legal_us": 1e6 * legal_s / moves, "apply_us": 1e6 * apply_s / moves}


def _mid_game_states(rules: Any, players: int, samples: int, seed: str) -> list[tuple[Any, int, Any]]:
    """``samples`` states of seeded random games of ``rules``, each taken 100-400 moves in (chosen
    by a generator seeded by ``seed``) where the game is not over and no phase is pending:
    ``(state, the first seat to move, the game's chance)``."""
    rng = random.Random(seed)
    states = []
    while len(states) < samples:
        state, chance = _start(rules, players, f"{seed}:{len(states)}")
        play_out(rules, state, chance, lambda seat, legal: legal[rng.randrange(len(legal))], rng.randrange(100, 400))
        if rules.outcome(state) is None and not rules.pending_phase(state):
            states.append((state, rules.to_move(state)[0], chance))
    return states


def clone_cost(game: str, players: int, samples: int = 20, seed: str = "clone") -> dict[str, float]:
    """Mean cost (microseconds) of the forward model's clone (``rules.clone``, copy-on-write
    where the game has it), of the game's deep ``rules.copy`` and of ``copy.deepcopy``, on
    ``samples`` states taken 100-400 moves into random games; ``ratio_clone`` = deepcopy / clone.

    A copy-on-write clone copies a part when a move first changes it, so the clone's cost
    alone is not the whole price: ``clone_move_us`` is a clone and one legal move applied to
    it, ``copy_move_us`` the same with a deep copy (the difference is what sharing saves).
    """
    rules = get_rules(game)
    states = [(state, seat, rules.legal_moves(state, seat)[0], chance)
              for state, seat, chance in _mid_game_states(rules, players, samples, seed)]
    reps = 200

    def per_call(fn: Callable[[Any], Any], n: int) -> float:
        t0 = time.perf_counter()
        for s, *_ in states:
            for _ in range(n):
                fn(s)
        return 1e6 * (time.perf_counter() - t0) / (n * len(states))

    def with_move(copier: Callable[[Any], Any]) -> float:
        t0 = time.perf_counter()
        for s, seat, move, chance in states:
            for _ in range(reps // 10):
                apply(rules, copier(s), seat, move, chance, checked=True)
        return 1e6 * (time.perf_counter() - t0) / ((reps // 10) * len(states))

    fast = per_call(rules.clone, reps)
    deep_copy = per_call(rules.copy, reps)
    deep = per_call(copy.deepcopy, reps // 10)
    return {"clone_us": fast, "copy_us": deep_copy, "deepcopy_us": deep, "ratio_clone": deep / fast,
            "clone_move_us": with_move(rules.clone), "copy_move_us": with_move(rules.copy)}


def view_cost(game: str, players: int, samples: int = 20, seed: str = "view") -> dict[str, float]:
    """Mean cost (microseconds) of what a client's or an agent's view of a state takes: the
    player view (``rules.view`` of the seat to move: the state's plain form without its secrets,
    and the game's extras), the view's JSON text (``plain_json``, as an agent's request and
    ``?view=true`` carry it) and the state hash (``state_hash`` of ``rules.hash_view``, as a
    finished game's summary shows it), on ``samples`` states taken 100-400 moves into random
    games. Returns ``{"view_us", "view_json_us", "state_hash_us", "view_bytes"}`` (the last the
    mean length of the view's JSON text)."""
    from services.rules.core.canonical import plain_json, state_hash

    rules = get_rules(game)
    states = [(state, seat) for state, seat, _chance in _mid_game_states(rules, players, samples, seed)]
    views = [rules.view(state, seat) for state, seat in states]
    reps = 50

    def per_call(fn: Callable[[int], Any]) -> float:
        t0 = time.perf_counter()
        for _ in range(reps):
            for i in range(len(states)):
                fn(i)
        return 1e6 * (time.perf_counter() - t0) / (reps * len(states))

    return {"view_us": per_call(lambda i: rules.view(*states[i])),
            "view_json_us": per_call(lambda i: plain_json(views[i])),
            "state_hash_us": per_call(lambda i: state_hash(rules.hash_view(states[i][0]))),
            "view_bytes": statistics.fmean(len(plain_json(v)) for v in views)}


def openspiel_reference(seconds: float, cpu: bool = False) -> dict[str, float]:
    """OpenSpiel's pure-Python tic-tac-toe random playouts for about ``seconds`` (of the wall
    clock, or with ``cpu`` of the reference process's CPU time).

    Raises FileNotFoundError if ``.venv-bench`` is missing (``make bench`` makes it).
    """
    if not BENCH_PYTHON.exists():
        raise FileNotFoundError(f"{BENCH_PYTHON} is missing: run `make bench` (it installs open_spiel there)")
    out = subprocess.run([str(BENCH_PYTHON), str(REFERENCE), str(seconds), *(["cpu"] if cpu else [])], check=True,
                         capture_output=True, text=True, timeout=10 * seconds + 120)
    r = json.loads(out.stdout.strip().splitlines()[-1])
    r["moves_per_s"] = r["moves"] / r["seconds"]
    r["games_per_s"] = r["games"] / r["seconds"]
    return r


def playouts_process(game: str, players: int, seconds: float, seed: str, cpu: bool, pure: bool) -> dict[str, Any]:
    """:func:`playouts` in a new Python process (one game played first to warm it up, not
    counted): its rules compiled where they are built, or pure Python with ``pure``
    (``LONGHOUSE_PURE_PYTHON=1``). Returns :func:`playouts`' figures and ``"compiled"``, the
    number of rules modules that process loaded compiled.

    Raises subprocess.CalledProcessError if the process fails.
    """
    root = Path(__file__).resolve().parents[2]
    env = {**os.environ, PURE_ENV: "1" if pure else "0",
           "PYTHONPATH": os.pathsep.join(p for p in (str(root), os.environ.get("PYTHONPATH", "")) if p)}
    out = subprocess.run([sys.executable, "-m", "services.bench.engine", "playouts", game, str(players), str(seconds),
                          seed, "cpu" if cpu else "wall"], check=True, capture_output=True, text=True, env=env,
                         cwd=root, timeout=10 * seconds + 120)
    return json.loads(out.stdout.strip().splitlines()[-1])


def builds() -> list[str]:
    """The builds of the rules the benchmark plays: ``["compiled", "pure"]`` where compiled
    modules are built (``make compile``), else ``["pure"]``."""
    return ["compiled", "pure"] if rules_compile.built() else ["pure"]


def paired(game: str, players: int, rounds: int, seconds: float, cpu: bool = True,
           runner: Callable[..., dict[str, Any]] = playouts_process) -> dict[str, Any]:
    """Alternate the reference and ``game``'s playouts in every build of :func:`builds` (each in a
    process of its own, ``runner``: :func:`playouts_process`) ``rounds`` times (``seconds`` each,
    CPU seconds of each side's own process with ``cpu``, else wall-clock seconds).

    Returns the medians of the first build (compiled where built): ``moves_per_s``,
    ``games_per_s``, ``legal_us``, ``apply_us``, ``ratio`` (game / reference moves/s) and
    ``reference_moves_per_s``; ``build`` (``"compiled"`` or ``"pure"``) and ``compiled``
    (modules loaded compiled); and the pure build's ``pure_moves_per_s`` and ``pure_ratio``.
    """
    kinds = builds()
    ours: dict[str, list[dict[str, Any]]] = {k: [] for k in kinds}
    ref = []
    for r in range(rounds):
        ref.append(openspiel_reference(seconds, cpu))
        for kind in kinds:
            ours[kind].append(runner(game, players, seconds, f"bench:{r}", cpu, kind == "pure"))
    mid = lambda xs, k: statistics.median(x[k] for x in xs)  # noqa: E731
    first = ours[kinds[0]]
    result: dict[str, Any] = {k: mid(first, k) for k in ("moves_per_s", "games_per_s", "legal_us", "apply_us")}
    result.update(reference_moves_per_s=mid(ref, "moves_per_s"), rounds=rounds, seconds=seconds,
                  clock="cpu" if cpu else "wall", build=kinds[0], compiled=int(mid(first, "compiled")))
    result["ratio"] = result["moves_per_s"] / result["reference_moves_per_s"]
    result["pure_moves_per_s"] = mid(ours["pure"], "moves_per_s")
    result["pure_ratio"] = result["pure_moves_per_s"] / result["reference_moves_per_s"]
    return result


__all__ = ["builds", "clone_cost", "openspiel_reference", "paired", "playout", "playouts", "playouts_process", "view_cost"]


def _playouts_main(game: str, players: str, seconds: str, seed: str, clock: str) -> None:
    """:func:`playouts_process`'s side: warm up, measure, print one JSON line."""
    playouts(game, int(players), 0.0, seed="warm-up")
    r = playouts(game, int(players), float(seconds), seed=seed,
                 clock=time.process_time if clock == "cpu" else time.perf_counter)
    print(json.dumps({**r, "compiled": len(compiled_modules())}))


if __name__ == "__main__":  # pragma: no cover - python -m services.bench.engine [GAME] (a quick look)
    if sys.argv[1:2] == ["playouts"]:
        _playouts_main(*sys.argv[2:7])
    else:
        print(json.dumps(paired(sys.argv[1] if len(sys.argv) > 1 else "noggin", 3, 3, 2.0), indent=1))
