"""What ``make balance`` measures, game by game: seeded games between the strongest built-in bots
(:func:`services.bots.arena.play_game`), watched event by event through each game's
:class:`~services.bench.balance.specs.Spec`.

A measure is a proportion with its 95 % Wilson interval (:func:`services.bench.stats.wilson`) or a
difference of mean final scores with its 95 % normal interval (:func:`services.bench.stats.mean_gap`).
A game nobody won (Noggin: Nogbad took the crown) is nobody's win, and Noggin's seat-order shares
count only the games where Noggin was crowned (issue "balance", acceptance 2).
"""

from __future__ import annotations

from collections import Counter
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import asdict, dataclass, field
from typing import Any, Callable

from services.bots.arena import derive_seed, play_game

from ..stats import mean_gap, wilson
from .specs import Spec
from .specs import spec as spec_named


@dataclass
class Watched:
    """One game as the report needs it: ``kinds`` by seat, ``scores`` and ``winners`` (empty when
    nobody won), ``crown`` (Noggin), each seat's ``start`` label, each seat's ``features``
    (sorted keys), and ``counts`` of occurrences; ``error`` if the game failed; ``order``: the
    seats in turn order (empty: seat order)."""

    kinds: list[str]
    scores: list[float] = field(default_factory=list)
    winners: list[int] = field(default_factory=list)
    crown: str | None = None
    start: list[str] = field(default_factory=list)
    features: list[list[str]] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)
    error: str | None = None
    order: list[int] = field(default_factory=list)


def watch(spec: Spec, kinds: list[str], seed: str, iterations: dict[str, int] | None = None) -> Watched:
    """Play one game of ``spec.game`` (``kinds[s]`` on seat ``s``; a kind may name a probe) and
    watch it. Never raises for a failure inside the game: ``error`` says it."""
    n = len(kinds)
    features: list[set[str]] = [set() for _ in range(n)]
    counts: Counter[str] = Counter()
    start: list[str] = []
    order: list[int] = []

    def observe(events: list[Any], state: Any) -> None:
        if not start:
            start.extend(spec.start(state, s) if spec.start else "" for s in range(n))
            order.extend(spec.order(state) if spec.order else range(n))
        for event in events:
            for seat, key in spec.features(event):
                if 0 <= seat < n:
                    features[seat].add(key)
            counts.update(spec.occurrences(event))

    rec = play_game(spec.game, kinds, seed, iterations=iterations, policies={**spec.probes, **spec.ablations},
                    observe=observe)
    return Watched(list(kinds), rec.scores, rec.winners, rec.crown, start, [sorted(f) for f in features],
                   dict(counts), rec.error, order)


def tasks(spec: Spec, games: int, seed: str) -> list[tuple[str, int, list[str]]]:
    """The games of one report: ``games`` with an expert on every seat, then ``games`` per probe
    and per ablation with its seat rotated; ``(group, index, kinds)``."""
    out = [("experts", i, ["expert"] * spec.players) for i in range(games)]
    for name in [*spec.probes, *spec.ablations]:
        for i in range(games):
            kinds = ["expert"] * spec.players
            kinds[i % spec.players] = name
            out.append((f"{'ablation' if name in spec.ablations else 'probe'}:{name}", i, kinds))
    return out


def _run(task: tuple[Spec | str, str, int, list[str], str, dict[str, int]]) -> tuple[str, int, dict[str, Any]]:
    spec, group, index, kinds, seed, iterations = task
    if isinstance(spec, str):  # in a worker process: specs hold functions, so they travel by name
        spec = spec_named(spec)
    paired = "experts" if group.startswith("ablation:") else group  # an ablation replays the experts' game
    return group, index, asdict(watch(spec, kinds, derive_seed(seed, spec.game, paired, index), iterations))


def run(spec: Spec, games: int, seed: str, iterations: dict[str, int] | None = None, workers: int = 2,
        advance: Callable[[], None] | None = None) -> dict[str, list[Watched]]:
    """Every game of :func:`tasks` in ``workers`` processes: ``{group: [Watched in order]}``."""
    todo = [(spec if workers <= 1 else spec.game, g, i, k, seed, iterations or {})
            for g, i, k in tasks(spec, games, seed)]
    out: dict[str, dict[int, Watched]] = {}

    def keep(result: tuple[str, int, dict[str, Any]]) -> None:
        group, index, watched = result
        out.setdefault(group, {})[index] = Watched(**watched)
        if advance is not None:
            advance()

    if workers <= 1:
        for t in todo:
            keep(_run(t))
    else:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            for fut in as_completed([pool.submit(_run, t) for t in todo]):
                keep(fut.result())
    return {g: [recs[i] for i in sorted(recs)] for g, recs in out.items()}


# -- the measures ---------------------------------------------------------------------------

def share(rec: Watched, seat: int) -> float:
    """What a game is worth to ``seat``: ``1/k`` if it is one of ``k`` winners, else 0."""
    return 1.0 / len(rec.winners) if seat in rec.winners else 0.0


@dataclass
class Share:
    """A win share with its 95 % interval over ``games``."""

    label: str
    wins: float
    games: int

    @property
    def rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.wins, self.games)


def seat_shares(spec: Spec, recs: list[Watched]) -> list[Share]:
    """Each place in the turn order's win share over the fair games: ``seat k`` (seat ``k``
    moves ``k``-th) where the game seats in order, else ``turn k`` (the seat that moves
    ``k``-th, :attr:`Spec.order`; counted from 1)."""
    fair = [r for r in recs if not r.error and spec.fair_game({"crown": r.crown, "winners": r.winners})]
    if spec.order is None:
        return [Share(f"seat {s}", sum(share(r, s) for r in fair), len(fair)) for s in range(spec.players)]
    return [Share(f"turn {k + 1}", sum(share(r, (r.order or list(range(spec.players)))[k]) for r in fair), len(fair))
            for k in range(spec.players)]


def start_shares(spec: Spec, recs: list[Watched]) -> list[Share]:
    """Each start position's win share (a seat that started there), over the fair games."""
    if spec.start is None:
        return []
    fair = [r for r in recs if not r.error and spec.fair_game({"crown": r.crown, "winners": r.winners})]
    wins: Counter[str] = Counter()
    games: Counter[str] = Counter()
    for r in fair:
        for s, label in enumerate(r.start):
            games[label] += 1
            wins[label] += share(r, s)
    return [Share(label, wins[label], games[label]) for label in sorted(games)]


@dataclass
class Effect:
    """What taking ``key`` adds to a seat's final score: the mean of the seats that took it less
    the mean of those that did not, with its 95 % interval; ``taken`` in how many seat-games,
    ``games_with`` the share of games where some seat took it."""

    key: str
    taken: int
    seats: int
    games_with: float
    gap: float
    low: float
    high: float


def effects(recs: list[Watched]) -> list[Effect]:
    """:class:`Effect` of every feature any seat took, in the expert games ``recs``."""
    ok = [r for r in recs if not r.error]
    keys = sorted({k for r in ok for f in r.features for k in f})
    out = []
    for key in keys:
        with_ = [r.scores[s] for r in ok for s, f in enumerate(r.features) if key in f]
        without = [r.scores[s] for r in ok for s, f in enumerate(r.features) if key not in f]
        gap, low, high = mean_gap(with_, without)
        games_with = sum(1 for r in ok if any(key in f for f in r.features)) / len(ok)
        out.append(Effect(key, len(with_), len(with_) + len(without), games_with, gap, low, high))
    return out


def occurrence(recs: list[Watched]) -> list[tuple[str, float, float]]:
    """``(key, share of games where it happened, mean count a game)`` for every key counted."""
    ok = [r for r in recs if not r.error]
    keys = sorted({k for r in ok for k in r.counts})
    return [(k, sum(1 for r in ok if r.counts.get(k)) / len(ok), sum(r.counts.get(k, 0) for r in ok) / len(ok))
            for k in keys]


def probe_share(name: str, recs: list[Watched]) -> Share:
    """The probe's win share against the experts, its seat rotated."""
    ok = [r for r in recs if not r.error]
    return Share(name, sum(share(r, r.kinds.index(name)) for r in ok), len(ok))


def ablation_effect(name: str, experts: list[Watched], ablated: list[Watched]) -> Effect:
    """What the choice ablation ``name`` takes away adds to the expert's final score: over the
    paired games (game ``i`` of each, the ablated seat ``i mod players``, the same seed), the mean
    of the expert's score less the ablated expert's, with its 95 % normal interval;
    ``games_with`` is the share of the ablated games whose seat had a different score."""
    diffs = []
    for i, (e, a) in enumerate(zip(experts, ablated)):
        if e.error or a.error:
            continue
        seat = a.kinds.index(name)
        diffs.append(e.scores[seat] - a.scores[seat])
    gap, low, high = mean_gap(diffs, [0.0] * len(diffs)) if diffs else (float("nan"), -float("inf"), float("inf"))
    changed = sum(1 for d in diffs if d) / len(diffs) if diffs else 0.0
    return Effect(name, len(diffs), len(diffs), changed, gap, low, high)
