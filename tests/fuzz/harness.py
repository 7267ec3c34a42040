"""The rule fuzzer shared by the three games: seeded games through the embedded :class:`Table`,
legal and illegal moves mixed by a list of choices, invariants checked after every step.

One run (:func:`fuzz_game`) creates a game with a seed, then, step by step, takes the next
choice (from the hypothesis-drawn list, then from a generator seeded by it) and either plays a
legal move of a seat to move (an index into ``legal_moves``) or tries a move that must be
refused or may be refused:

* must be refused (:data:`MUST_REJECT`): the move of a seat that is not to move, ``true`` or
  ``1.0`` or ``"1"`` where the move holds an int or a string, an unknown field, an unknown
  type, no object at all, an ``expected_version`` ahead of the game or below 1, and a client
  move id used before for another request;
* may be refused (:data:`MAY_REJECT`): an int field set out of range (negative, huge), a string
  field set to a name from another move or to nonsense, a field left out, a move that was
  legal earlier (by any seat), a legal move against an older version (seats deciding at once
  may still play it, ``Table.play``); and a move re-sent with its move id, which must be
  answered with its first result and change nothing.

A refusal must be one of the core's clear errors (``RulesError`` subclasses, ``StaleVersion``,
``MoveIdReused``; anything else is a server error and fails the run) and must leave the
game's version, state hash and event log exactly as they were. An accepted move must add one
``move`` entry at version + 1 by that seat, then only ``phase`` entries (no bots sit here),
and leave the state meeting the game's invariants (its conservation and limits, given by the
caller) and the core's: no negative count anywhere in the state (but the paths a game allows),
a seat to move always has a legal move. The game must end by the rules within ``move_cap``
accepted moves. At the end the accepted moves, replayed on a fresh table with the same seed,
give the same event log and state hash, and the log alone (every event evolved from an empty
state) gives that hash too.

``FUZZ_EXAMPLES`` (environment) sets the examples per test (``make fuzz``); the default keeps
``make test`` short. Runs are derandomised: the same examples every time.
"""

from __future__ import annotations

import hashlib
import os
import random
from dataclasses import dataclass, field
from typing import Any, Callable

from hypothesis import HealthCheck, Phase, note, settings
from hypothesis.control import currently_in_test_context

from services.coordinator.table import MoveIdReused, StaleVersion, embedded_table
from services.rules.core import (GameConfig, MalformedMove, NotYourTurn, RulesError, canonical_json, get_rules,
                                 state_hash, to_plain)
from services.rules.core.canonical import plain_json

REFUSALS = (RulesError, StaleVersion, MoveIdReused)
"""What a refused move may raise: the core's clear errors (each maps to a 4xx in the gateway)."""

MUST_REJECT = ("wrong_seat", "bool_value", "float_value", "text_for_int", "unknown_field", "unknown_type",
               "not_an_object", "future_version", "version_below_one", "move_id_reused")
"""Illegal requests that must be refused whatever the state."""
MAY_REJECT = ("int_out_of_range", "other_name", "field_left_out", "legal_earlier", "older_version",
              "same_move_id_again")
"""Requests that are refused unless the rules happen to allow them now (a re-sent move id, never
refused, is answered from the first commit)."""
KINDS = ("legal",) * (len(MUST_REJECT) + len(MAY_REJECT)) + MUST_REJECT + MAY_REJECT
"""A choice picks its kind by ``choice % len(KINDS)``: half the steps are legal moves."""
EXPECTED = {"wrong_seat": NotYourTurn, "future_version": StaleVersion, "version_below_one": StaleVersion,
            "move_id_reused": MoveIdReused}
"""The error each request of :data:`MUST_REJECT` gets (the others: ``MalformedMove``)."""


def fuzz_settings(default_examples: int) -> settings:
    """Hypothesis settings of a fuzz test: derandomised, no deadline, no example database,
    ``FUZZ_EXAMPLES`` examples (else ``default_examples``), and no shrinking (a whole game per
    example makes shrinking take minutes; the failure names the step, its move and the seed)."""
    return settings(max_examples=int(os.environ.get("FUZZ_EXAMPLES", default_examples)), derandomize=True,
                    deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow],
                    phases=[Phase.explicit, Phase.generate], print_blob=True)


TOTALS: dict[str, dict[str, Any]] = {}
"""Per game, what this process's fuzz runs did (printed after the tests by tests/fuzz/conftest.py)."""


@dataclass
class Report:
    """What one run did: ``accepted`` moves ``(seat, move)`` in order, refusals and
    acceptances by kind, the final state hash and the number of steps."""

    accepted: list[tuple[int, Any]] = field(default_factory=list)
    refused: dict[str, int] = field(default_factory=dict)
    taken: dict[str, int] = field(default_factory=dict)
    final_hash: str = ""
    steps: int = 0


def negative_counts(obj: Any, allowed: frozenset[str], path: str = "") -> list[str]:
    """Paths of negative ints in plain data ``obj`` (``.a.b[]`` form), except ``allowed`` ones."""
    if isinstance(obj, bool):
        return []
    if isinstance(obj, int):
        return [path] if obj < 0 and path not in allowed else []
    out: list[str] = []
    if isinstance(obj, dict):
        for k, v in obj.items():
            out += negative_counts(v, allowed, f"{path}.{k}")
    elif isinstance(obj, list):
        for v in obj:
            out += negative_counts(v, allowed, f"{path}[]")
    return out


def _leaves(obj: Any, path: tuple = ()) -> list[tuple[tuple, Any]]:
    """``(path, value)`` of every leaf of a move (not its ``type``)."""
    if isinstance(obj, dict):
        return [leaf for k, v in obj.items() if not (path == () and k == "type") for leaf in _leaves(v, (*path, k))]
    if isinstance(obj, list):
        return [leaf for i, v in enumerate(obj) for leaf in _leaves(v, (*path, i))]
    return [(path, obj)]


def _with(obj: Any, path: tuple, value: Any) -> Any:
    """A copy of ``obj`` with the leaf at ``path`` replaced by ``value``."""
    if not path:
        return value
    head, rest = path[0], path[1:]
    if isinstance(obj, dict):
        return {**obj, head: _with(obj[head], rest, value)}
    out = list(obj)
    out[head] = _with(obj[head], rest, value)
    return out


def _without(obj: dict, path: tuple) -> Any:
    """A copy of ``obj`` with the key or item at ``path`` left out."""
    head, rest = path[0], path[1:]
    if not rest:
        if isinstance(obj, dict):
            return {k: v for k, v in obj.items() if k != head}
        return [v for i, v in enumerate(obj) if i != head]
    if isinstance(obj, dict):
        return {**obj, head: _without(obj[head], rest)}
    return [_without(v, rest) if i == head else v for i, v in enumerate(obj)]


def _names(moves: list[Any]) -> list[str]:
    """Every string in ``moves`` (names the game knows: areas, cards, places, actions)."""
    return sorted({v for m in moves for _, v in _leaves(m) if isinstance(v, str)})


def _note(text: str) -> None:
    """Hypothesis's ``note`` (shown with a failing example) inside a test, nothing outside one."""
    if currently_in_test_context():
        note(text)


def _tail(table, game_id: str) -> tuple[int, Any]:
    """The log's length and its last entry: the log is append-only, so a refused move that
    changed neither left it exactly as it was."""
    entries = table.store.read(game_id, after=max(0, table.store.version(game_id) - 1))
    return table.store.version(game_id), entries[-1]


def _log(table, game_id: str) -> list[tuple[int, str, int, str]]:
    """The game's event log as comparable tuples ``(version, kind, seat, events JSON)``."""
    return [(e.version, e.kind, e.seat, canonical_json([ev.to_json() for ev in e.events]))
            for e in table.store.read(game_id)]


def fuzz_game(*args: Any, **kwargs: Any) -> "Report":
    """:func:`play_fuzzed_game`, counting a failed run in :data:`TOTALS` (same arguments)."""
    try:
        return play_fuzzed_game(*args, **kwargs)
    except Exception:
        game = args[0] if args else kwargs["game"]
        TOTALS.setdefault(game, {"games": 0, "failed": 0, "accepted": 0, "refused": {}, "taken": {}})["failed"] += 1
        raise


def play_fuzzed_game(game: str, players: int, seed: str, choices: list[int], invariant: Callable[[Any], None],
                     move_cap: int, options: dict | None = None, negative_ok: frozenset[str] = frozenset(),
                     step_cap: int | None = None) -> Report:
    """Play one fuzzed game (module docstring) and check it; returns its :class:`Report`.

    Args:
        game, players, seed, options: the game created (``GameConfig``) and its secret seed.
        choices: the first choices (ints); later ones come from a generator seeded by them.
        invariant: the game's own invariant, called with the state after every step; raises
            AssertionError saying what broke.
        move_cap: accepted moves by which the game must have ended (its bounded length).
        negative_ok: state paths (``.miner[]``) whose ints may be negative by the rules.
        step_cap: steps in all (accepted and refused); default 3 x ``move_cap``.
    Raises:
        AssertionError: an invariant broke; any other exception is a server error of the rules.
    """
    config = GameConfig(game=game, players=players, options=options or {})
    _note(f"fuzzing {game}: {players} players, seed {seed!r}, options {options or {}}, choices {choices}")
    table = embedded_table(new_id=lambda: "fuzz")
    gid = table.create(config, seed=seed)
    rules = get_rules(game)
    rng = random.Random(f"{seed}:{players}:{choices}")
    report = Report()
    history: list[tuple[int, Any]] = []  # legal moves seen (seat, move), for "legal earlier"
    sent: list[tuple[int, str, Any, int, dict]] = []  # (seat, move_id, move, version, result) accepted with an id
    step_cap = step_cap or 3 * move_cap

    def snapshot(check: bool = True) -> dict[str, Any]:
        """The game now: version, state, hash, log tail and, with ``check``, the legal moves of
        each seat to move after checking the invariants (the game's, no negative count, a legal
        move for each seat to move)."""
        _, state, version = table.state(gid)
        plain = to_plain(state)
        out = {"version": version, "state": state, "tail": _tail(table, gid),
               "hash": state_hash(rules.hash_view(state)) if rules.hash_view(state) is not state
               else hashlib.sha256(plain_json(plain).encode()).hexdigest()}
        if check:
            bad = negative_counts(plain, negative_ok)
            assert not bad, f"negative counts at {bad}"
            invariant(state)
            out["legal"] = {s: rules.legal_moves(state, s) for s in rules.to_move(state)}
            assert all(out["legal"].values()), f"a seat to move has no legal move: {out['legal']}"
        return out

    now = snapshot()
    last = "set-up"
    try:
        while True:
            state, version, to_move = now["state"], now["version"], list(now["legal"])
            if rules.outcome(state) is not None:
                break
            assert to_move, f"the game waits for nobody (a phase left pending?) at version {version}"
            assert len(report.accepted) < move_cap, f"no end after {move_cap} accepted moves"
            assert report.steps < step_cap, f"no end after {step_cap} steps"
            choice = choices[report.steps] if report.steps < len(choices) else rng.randrange(1 << 30)
            report.steps += 1
            seat = to_move[(choice >> 5) % len(to_move)]
            legal = now["legal"][seat]
            history.extend((seat, m) for m in legal[:4])
            pick = legal[(choice >> 9) % len(legal)]
            kind = KINDS[choice % len(KINDS)]
            request = _request(kind, choice, rules, state, players, to_move, seat, pick, version, history, sent, legal)
            if request is None:
                kind, request = "legal", (seat, pick, version, None)
            r_seat, r_move, r_version, r_id = request
            last = f"step {report.steps}: {kind} request of seat {r_seat} at version {r_version}: {r_move!r}"
            try:
                result = table.play(gid, r_seat, r_move, r_version, move_id=r_id)
            except REFUSALS as exc:
                report.refused[kind] = report.refused.get(kind, 0) + 1
                assert kind not in ("legal", "same_move_id_again"), f"{kind} {r_move!r} of seat {r_seat} refused: {exc}"
                if kind in MUST_REJECT:
                    assert isinstance(exc, EXPECTED.get(kind, MalformedMove)), f"{kind} {r_move!r} got {exc!r}"
                after = snapshot(check=False)  # the same game, so the checks of ``now`` still hold
                assert (after["version"], after["hash"], after["tail"]) == (version, now["hash"], now["tail"]), \
                    f"refused {kind} {r_move!r} changed the game"
                continue
            assert kind not in MUST_REJECT, f"{kind}: {r_move!r} of seat {r_seat} at {r_version} was accepted"
            report.taken[kind] = report.taken.get(kind, 0) + 1
            before, now = now, snapshot()
            if kind == "same_move_id_again":  # answered from the first commit: nothing new
                assert (now["tail"], now["hash"]) == (before["tail"], before["hash"]), "a re-sent move was applied again"
                assert result == next(x[4] for x in sent if x[1] == r_id)
                continue
            new = table.store.read(gid, after=version)
            assert new and (new[0].version, new[0].kind, new[0].seat) == (version + 1, "move", r_seat), \
                f"the move's entry is {new[:1]}"
            assert all(e.kind == "phase" for e in new[1:]), f"entries other than phases followed a move: {new}"
            assert [e.version for e in new] == list(range(version + 1, now["version"] + 1)), \
                "versions are not consecutive"
            assert result["version"] == version + 1
            report.accepted.append((r_seat, r_move))
            if r_id is not None:
                sent.append((r_seat, r_id, r_move, r_version, result))
    except BaseException:
        _note(f"the last request: {last}")
        raise
    report.final_hash = now["hash"]
    assert report.final_hash == table.summary(gid)["state_hash"]
    _replay_matches(game, config, seed, report, _log(table, gid), rules)
    total = TOTALS.setdefault(game, {"games": 0, "failed": 0, "accepted": 0, "refused": {}, "taken": {}})
    total["games"] += 1
    total["accepted"] += len(report.accepted)
    for key in ("refused", "taken"):
        for kind, n in getattr(report, key).items():
            total[key][kind] = total[key].get(kind, 0) + n
    return report


def summary_lines() -> list[str]:
    """One line per game fuzzed in this process: games that passed every check and games that
    failed one (a broken invariant or a server error), moves accepted (those not taken from the
    legal list named), requests refused by kind."""
    out = []
    for game, t in sorted(TOTALS.items()):
        off_list = {k: n for k, n in sorted(t["taken"].items()) if k not in ("legal", "same_move_id_again")}
        refused = sum(t["refused"].values())
        out.append(f"{game}: {t['games']} games passed every check, {t['failed']} failed; {t['accepted']} moves accepted "
                   f"({sum(off_list.values())} of them fuzzed requests that were still legal: "
                   f"{', '.join(f'{k} {n}' for k, n in off_list.items()) or 'none'}), "
                   f"{t['taken'].get('same_move_id_again', 0)} re-sent move ids answered with their first result, "
                   f"{refused} requests refused "
                   f"({', '.join(f'{k} {n}' for k, n in sorted(t['refused'].items()))})")
    return out


def _request(kind: str, choice: int, rules, state, players: int, to_move: list[int], seat: int, pick: Any,
             version: int, history: list, sent: list, legal: list) -> tuple[int, Any, int, str | None] | None:
    """``(seat, move, expected_version, move_id)`` of a request of ``kind``, or None when this
    state offers none of that kind (the step then plays ``pick``)."""
    rnd = random.Random(choice)
    move_id = f"fz{choice}:{version}"
    leaves = _leaves(pick)
    ints = [(p, v) for p, v in leaves if isinstance(v, int) and not isinstance(v, bool)]
    strs = [(p, v) for p, v in leaves if isinstance(v, str)]
    if kind == "legal":
        return seat, pick, version, move_id if (choice >> 12) & 1 else None
    if kind == "wrong_seat":
        others = [s for s in range(players) if s not in to_move]
        return (rnd.choice(others), pick, version, None) if others else None
    if kind == "bool_value":
        plain = [(p, v) for p, v in leaves if not isinstance(v, bool)]  # a yes/no field may take false
        if not plain:
            return seat, {**pick, "type": True}, version, None
        path, _ = rnd.choice(plain)
        return seat, _with(pick, path, rnd.choice([True, False])), version, None
    if kind == "float_value":
        if not ints:
            return None
        path, v = rnd.choice(ints)
        return seat, _with(pick, path, float(v)), version, None
    if kind == "text_for_int":
        if ints:
            path, v = rnd.choice(ints)
            return seat, _with(pick, path, str(v)), version, None
        if strs:
            path, v = rnd.choice(strs)
            return seat, _with(pick, path, 1), version, None
        return None
    if kind == "unknown_field":
        return seat, {**pick, rnd.choice(["zz", "seat", "extra", "version"]): 1}, version, None
    if kind == "unknown_type":
        return seat, {**pick, "type": rnd.choice(["", "no_such_move", "DONE", pick["type"] + "_"])}, version, None
    if kind == "not_an_object":
        return seat, rnd.choice([None, 7, "done", [pick], pick["type"]]), version, None
    if kind == "future_version":
        return seat, pick, version + 1 + rnd.randrange(3), None
    if kind == "version_below_one":
        return seat, pick, rnd.choice([0, -1]), None
    if kind == "move_id_reused":
        mine = [x for x in sent if x[0] == seat]
        if not mine:
            return None
        _, old_id, old_move, old_version, _ = rnd.choice(mine)
        # the same id for another request: a later version (and move) than the one it named
        return (seat, pick, version, old_id) if version != old_version else None
    if kind == "int_out_of_range":
        if not ints:
            return None
        path, v = rnd.choice(ints)
        return seat, _with(pick, path, rnd.choice([-1, -v - 1, v + 1, v + 7, 10 ** 6, 2 ** 63])), version, None
    if kind == "other_name":
        if not strs:
            return None
        path, v = rnd.choice(strs)
        names = _names([m for _, m in history[-40:]] + legal) + ["nowhere", "L9", "", "x" * 50]
        return seat, _with(pick, path, rnd.choice(names)), version, None
    if kind == "field_left_out":
        if not leaves:
            return seat, {"type": pick["type"]}, version, None
        path, _ = rnd.choice(leaves)
        return seat, _without(pick, path), version, None
    if kind == "legal_earlier":
        if not history:
            return None
        _, old = rnd.choice(history)
        return seat, old, version, None
    if kind == "older_version":
        if version < 3:
            return None
        return seat, pick, version - 1 - rnd.randrange(2), None
    if kind == "same_move_id_again":
        mine = [x for x in sent if x[0] == seat]
        if not mine:
            return None
        _, old_id, old_move, old_version, _ = rnd.choice(mine)
        return seat, old_move, old_version, old_id
    raise ValueError(kind)


def _replay_matches(game: str, config: GameConfig, seed: str, report: Report, log: list, rules) -> None:
    """Determinism: the accepted moves replayed on a fresh table with the same seed give the same
    log and hash; the log's events alone rebuild a state with that hash."""
    table = embedded_table(new_id=lambda: "fuzz")
    gid = table.create(config, seed=seed)
    for seat, move in report.accepted:
        table.play(gid, seat, move, table.summary(gid)["version"])
    assert _log(table, gid) == log, "replaying the accepted moves gave another event log"
    assert table.summary(gid)["state_hash"] == report.final_hash, "replaying gave another state hash"
    state = rules.new_state()
    for entry in table.store.read(gid):
        for event in entry.events:
            rules.evolve(state, event)
    assert state_hash(rules.hash_view(state)) == report.final_hash, "the log alone rebuilds another state"
