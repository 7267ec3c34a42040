"""``make bench-bots``: the bot ladder of every game, and the targets of the bots' issue.

For each game, a round robin of the built-in bot kinds (``random``, ``greedy``,
``scripted``, ``ismcts``, ``expert``; :data:`services.bots.decide.BOT_KINDS`): every pair
of kinds plays ``--games`` 2-seat games with the seats alternated, on the forward model
(:func:`services.bots.arena.play_game`, every seed derived from ``--seed``). Beside the
round robin, each game's own cells (:data:`CELLS`): Noggin with ``expert`` on every seat at
2, 3 and 4 seats and one ``expert`` with two ``scripted``; A Game of Gnomes with ``expert``
on every seat and one ``expert`` with two ``scripted`` at 3 seats (the expert's seat
rotated).

Per game it prints, and with ``--write`` records in ``docs/benchmarks.md`` (section
:data:`SECTION`) with the command:

* the ladder: each kind's OpenSkill rating (Plackett-Luce; Weng and Lin, "A Bayesian
  approximation method for online ranking", JMLR 12, 2011) from the round robin's games,
  mu and sigma without drift and averaged over seeded orders of the games (:func:`ratings`),
  and how much one order alone moves mu; its win rate (a game's winners share 1; **a game nobody won
  is nobody's win**), mean score, and CPU milliseconds per decision (over all its decisions,
  and over those with more than one legal move);
* each pair's result (the first kind's win rate with its 95 % Wilson interval);
* the cells (Noggin's crown rate, the expert's share of the wins, mean scores);
* one line per target of the issue, ``met`` or ``not met`` (:func:`targets`).

``--records FILE`` keeps every game's record (JSON lines) and ``--from-records FILE`` makes the
report again from them without playing.

Each game has its own subsection (``### <game>``, with the command that produced it), so a run of
some games (``--game resource_hog --write``) updates theirs and keeps the others as recorded.

The exit status is 1 if a game failed (an error, not a result), else 0 whatever the targets say
(as ``make bench``: the targets are printed, ``met`` or ``not met``). ``--quick`` plays a few
games a cell with small search budgets: what ``make test`` runs to show the ladder works, not a
claim about strength.
"""

from __future__ import annotations

import argparse
import itertools
import platform
import sys
import time
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import asdict, dataclass
from typing import Any, Iterable

from services.bots.arena import GameRecord, derive_seed, play_game
from services.bots.decide import BOT_KINDS

from .sections import DOC, recorded_section, write_section
from .stats import wilson

SECTION = "## Bot ladder"
"""The heading of the section ``--write`` replaces (or adds) in ``docs/benchmarks.md``."""
GAMES = ("noggin", "gnomes", "resource_hog")
"""The games on the ladder."""
LADDER = ("expert", "ismcts", "greedy", "random")
"""The order the ladder must show, strongest first, with non-overlapping +/- 1 sigma."""
CPU_LIMIT_MS = 200.0
"""The expert's most CPU a decision on average (milliseconds)."""


@dataclass(frozen=True)
class Cell:
    """A group of games with the same kinds at the table.

    Attributes:
        game: the game.
        name: the cell's name in the tables, e.g. ``"expert x3"`` or ``"greedy-random"``.
        kinds: the kinds round the table in the cell's first game; game ``i`` rotates them by
            ``i`` seats, so every kind plays every seat equally often.
        rated: whether its games count toward the ratings (games between distinct kinds).
    """

    game: str
    name: str
    kinds: tuple[str, ...]
    rated: bool = False

    def seats(self, index: int) -> list[str]:
        """The kinds on seats 0.. in game ``index`` (rotated by ``index``)."""
        n = len(self.kinds)
        return [self.kinds[(s - index) % n] for s in range(n)]


CELLS: dict[str, tuple[tuple[str, ...], ...]] = {
    "noggin": (("expert", "expert"), ("expert",) * 3, ("expert",) * 4, ("expert", "scripted", "scripted")),
    "gnomes": (("expert",) * 3, ("expert", "scripted", "scripted")),
    "resource_hog": (),
}
"""Each game's own cells beyond the 2-seat round robin (kinds round the table)."""


def cells(game: str, kinds: Iterable[str] = BOT_KINDS) -> list[Cell]:
    """The round robin of ``kinds`` (every pair, 2 seats) and the game's own :data:`CELLS`."""
    kinds = list(kinds)
    out = [Cell(game, f"{a}-{b}", (a, b), rated=True) for a, b in itertools.combinations(kinds, 2)]
    for table in CELLS.get(game, ()):
        if set(table) <= set(kinds):
            name = f"{table[0]} x{len(table)}" if len(set(table)) == 1 else \
                " + ".join(f"{k} x{table.count(k)}" if table.count(k) > 1 else k for k in dict.fromkeys(table))
            out.append(Cell(game, name, table))
    return out


def _play(task: tuple[Cell, int, str, dict[str, int]]) -> tuple[Cell, int, dict[str, Any]]:
    cell, index, seed, iterations = task
    rec = play_game(cell.game, cell.seats(index), derive_seed(seed, cell.game, cell.name, index),
                    iterations=iterations)
    return cell, index, asdict(rec)


def _cost(task: tuple[Cell, int, str, dict[str, int]]) -> float:
    """A rough cost of a task, to start the longest first."""
    weight = {"expert": 10.0, "ismcts": 8.0, "greedy": 1.0, "scripted": 0.5, "random": 0.1}
    cell = task[0]
    return sum(weight.get(k, 1.0) for k in cell.kinds) * len(cell.kinds)


def run(game_names: list[str], kinds: list[str], games: int, seed: str, iterations: dict[str, dict[str, int]],
        workers: int, progress: Any = None) -> dict[Cell, list[GameRecord]]:
    """Every game of every cell of ``game_names`` (``games`` a cell), in ``workers`` processes;
    ``iterations``: each game's search budgets by kind (a game not there: the bots' defaults).

    Returns:
        ``{cell: [GameRecord in game order]}``.
    """
    tasks = [(cell, i, seed, iterations.get(g, {})) for g in game_names for cell in cells(g, kinds) for i in range(games)]
    tasks.sort(key=_cost, reverse=True)
    out: dict[Cell, dict[int, GameRecord]] = defaultdict(dict)
    bar = progress.add_task("bot games", total=len(tasks)) if progress is not None else None

    def keep(result: tuple[Cell, int, dict[str, Any]]) -> None:
        cell, index, rec = result
        out[cell][index] = GameRecord(**rec)
        if progress is not None:
            progress.advance(bar)

    if workers <= 1:
        for task in tasks:
            keep(_play(task))
    else:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            for fut in as_completed([pool.submit(_play, t) for t in tasks]):
                keep(fut.result())
    return {cell: [recs[i] for i in sorted(recs)] for cell, recs in out.items()}


def save_records(results: dict[Cell, list[GameRecord]], path: str, iterations: dict[str, dict[str, int]]) -> None:
    """Write every game of ``results`` to ``path`` as JSON lines (one game a line: its cell's
    ``game``, ``name``, ``kinds`` and ``rated``, its ``index`` in the cell, its ``record`` and its
    game's search budgets from ``iterations``), so
    the report can be made again without playing (:func:`load_records`).

    Raises:
        OSError: ``path`` cannot be written.
    """
    import json

    with open(path, "w", encoding="utf-8") as out:
        for cell in sorted(results, key=lambda c: (c.game, c.name)):
            for index, rec in enumerate(results[cell]):
                out.write(json.dumps({"game": cell.game, "name": cell.name, "kinds": list(cell.kinds),
                                      "rated": cell.rated, "index": index, "record": asdict(rec),
                                      "iterations": iterations.get(cell.game, {})},
                                     sort_keys=True) + "\n")


def load_records(path: str) -> tuple[dict[Cell, list[GameRecord]], dict[str, dict[str, int]]]:
    """The results and each game's search budgets written by :func:`save_records`.

    Raises:
        OSError: ``path`` cannot be read.
        ValueError: a line is not a game of :func:`save_records` (its line number said).
    """
    import json

    import pydantic

    out: dict[Cell, dict[int, GameRecord]] = defaultdict(dict)
    iterations: dict[str, dict[str, int]] = {}
    with open(path, encoding="utf-8") as lines:
        for number, line in enumerate(lines, 1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
                cell = Cell(row["game"], row["name"], tuple(row["kinds"]), bool(row["rated"]))
                rec = _checked_record(row["record"])
                iterations[cell.game] = {str(k): int(v) for k, v in row.get("iterations", {}).items()}
                out[cell][int(row["index"])] = rec
            except (ValueError, KeyError, TypeError, pydantic.ValidationError) as exc:
                raise ValueError(f"{path}, line {number}: not a ladder game ({exc})") from exc
    return {cell: [recs[i] for i in sorted(recs)] for cell, recs in out.items()}, iterations


def _checked_record(data: Any) -> GameRecord:
    """A :class:`GameRecord` from its saved fields, their types checked (pydantic) and its seats
    consistent. Raises pydantic.ValidationError or ValueError."""
    import pydantic

    rec = pydantic.TypeAdapter(GameRecord).validate_python(data, strict=False)
    seats = len(rec.kinds)
    if not rec.error and (len(rec.scores) != seats or any(not 0 <= w < seats for w in rec.winners)
                          or not len(rec.cpu) == len(rec.decisions) == len(rec.choices) == seats):
        raise ValueError(f"its scores, winners or per-seat counts do not fit its {seats} seats")
    return rec


# -- what the games say ---------------------------------------------------------------------

def win_share(rec: GameRecord, seat: int) -> float:
    """What a finished game is worth to ``seat``: ``1/k`` if it is one of the ``k`` winners,
    else 0; a game nobody won (Noggin: Nogbad took the crown) is nobody's win."""
    return 1.0 / len(rec.winners) if seat in rec.winners else 0.0


def ranks(rec: GameRecord) -> list[int]:
    """Each seat's rank for the ratings (1 best): the winners first, then the others by score;
    when nobody won, every seat shares the last place."""
    n = len(rec.kinds)
    if not rec.winners:
        return [1] * n
    key = [(0 if s in rec.winners else 1, -(rec.scores[s] if s < len(rec.scores) else 0)) for s in range(n)]
    order = sorted(set(key))
    return [order.index(k) + 1 for k in key]


ORDERS = 32
"""How many seeded orders of the rated games :func:`ratings` averages over."""
TAU = 0.0
"""OpenSkill's dynamics factor ``tau`` for the ladder: 0, a bot's skill does not drift (the
library's default, ``mu / 300``, models players whose skill changes between games, and keeps
sigma from falling below about 1.5 however many games are played)."""


def ratings(records: list[GameRecord], kinds: list[str], orders: int = ORDERS,
            seed: str = "ladder") -> dict[str, tuple[float, float, float]]:
    """OpenSkill (Plackett-Luce; Weng and Lin, JMLR 12, 2011) ``{kind: (mu, sigma, spread)}``
    from ``records``, free of their order.

    OpenSkill rates one game after another and its mu follows the last games: the same games in
    another order move a kind's mu by a few points. So the games are rated in ``orders`` orders
    (the first by the games' seeds, the others seeded shuffles of it, from ``seed``), with :data:`TAU` (bots do not
    drift), and each kind gets the mean mu and mean sigma over the orders, and ``spread``: the
    standard deviation of its mu over the orders (how much the order alone moves it). Games with
    two seats of one kind, or with a kind not in ``kinds``, are left out (a rating cannot play
    itself).

    Raises:
        ValueError: ``orders`` below 1.
    """
    import random
    import statistics

    from openskill.models import PlackettLuce

    if orders < 1:
        raise ValueError(f"orders must be at least 1, not {orders}")
    model = PlackettLuce(tau=TAU)
    kept = sorted((rec for rec in records if not rec.error and len(set(rec.kinds)) == len(rec.kinds)
                   and set(rec.kinds) <= set(kinds)),
                  key=lambda rec: (rec.seed, rec.kinds))  # one canonical order, whatever the given one
    games = [(rec.kinds, ranks(rec)) for rec in kept]
    mus: dict[str, list[float]] = {k: [] for k in kinds}
    sigmas: dict[str, list[float]] = {k: [] for k in kinds}
    for n in range(orders):
        order = list(games)
        if n:
            random.Random(f"{seed}:ratings:{n}").shuffle(order)
        rating = {k: model.rating(name=k) for k in kinds}
        for table, rank in order:
            new = model.rate([[rating[k]] for k in table], ranks=rank)
            for k, team in zip(table, new):
                rating[k] = team[0]
        for k, r in rating.items():
            mus[k].append(r.mu)
            sigmas[k].append(r.sigma)
    return {k: (statistics.fmean(mus[k]), statistics.fmean(sigmas[k]),
                statistics.pstdev(mus[k]) if orders > 1 else 0.0) for k in kinds}


@dataclass
class KindRow:
    """One kind's line of a game's ladder.

    Attributes:
        kind: the bot kind.
        mu, sigma, spread: its rating (:func:`ratings`: mean mu and sigma over the orders, and
            the standard deviation of mu over them).
        games: its rated games; wins: its win shares in them (:func:`win_share`); mean_score.
        cpu_ms, choice_cpu_ms: CPU milliseconds per decision (all; with more than one legal move).
    """

    kind: str
    mu: float
    sigma: float
    spread: float
    games: int
    wins: float
    mean_score: float
    cpu_ms: float
    choice_cpu_ms: float


def ladder(results: dict[Cell, list[GameRecord]], game: str, kinds: list[str]) -> list[KindRow]:
    """The ladder of ``game``: its kinds by rating (highest mu first), from the rated cells;
    CPU per decision over every cell of the game."""
    rated = [r for cell in sorted(results, key=lambda c: c.name) if cell.game == game and cell.rated
             for r in results[cell]]
    mus = ratings(rated, kinds)
    rows = []
    for k in kinds:
        games = wins = score = 0.0
        for rec in rated:
            if rec.error or k not in rec.kinds or not set(rec.kinds) <= set(kinds):
                continue
            seat = rec.kinds.index(k)
            games += 1
            wins += win_share(rec, seat)
            score += rec.scores[seat]
        cpu = decisions = choice_cpu = choices = 0.0
        for cell, recs in results.items():
            if cell.game != game:
                continue
            for rec in recs:
                for s, kk in enumerate(rec.kinds):
                    if kk == k and not rec.error:
                        cpu += rec.cpu[s]
                        decisions += rec.decisions[s]
                        choices += rec.choices[s]
        # a decision with one legal move costs next to nothing: the CPU of the others is the choices'
        choice_cpu = cpu
        rows.append(KindRow(k, *mus[k], int(games), wins, score / games if games else 0.0,
                            1000 * cpu / decisions if decisions else 0.0,
                            1000 * choice_cpu / choices if choices else 0.0))
    return sorted(rows, key=lambda r: -r.mu)


def pair_rows(results: dict[Cell, list[GameRecord]], game: str) -> list[dict[str, Any]]:
    """Each rated cell of ``game``: the first kind's wins and win rate over the cell's games with
    its 95 % Wilson interval, and both kinds' mean scores."""
    out = []
    for cell in sorted((c for c in results if c.game == game and c.rated), key=lambda c: c.name):
        a, b = cell.kinds
        recs = [r for r in results[cell] if not r.error]
        wa = sum(win_share(r, r.kinds.index(a)) for r in recs)
        wb = sum(win_share(r, r.kinds.index(b)) for r in recs)
        lo, hi = wilson(wa, len(recs))
        out.append({"cell": cell.name, "a": a, "b": b, "games": len(recs), "wins_a": wa, "wins_b": wb,
                    "rate": wa / len(recs) if recs else 0.0, "low": lo, "high": hi,
                    "score_a": sum(r.scores[r.kinds.index(a)] for r in recs) / max(1, len(recs)),
                    "score_b": sum(r.scores[r.kinds.index(b)] for r in recs) / max(1, len(recs)),
                    "errors": len(results[cell]) - len(recs)})
    return out


def cell_rows(results: dict[Cell, list[GameRecord]], game: str) -> list[dict[str, Any]]:
    """Each unrated cell of ``game``: games, Noggin's crown rate, the first kind's share of the
    wins (the expert among the winners) and each kind's mean score per seat."""
    out = []
    for cell in sorted((c for c in results if c.game == game and not c.rated), key=lambda c: c.name):
        recs = [r for r in results[cell] if not r.error]
        first = cell.kinds[0]
        n = max(1, len(recs))
        crowned = sum(1 for r in recs if r.crown == "noggin")
        among = sum(1 for r in recs if any(r.kinds[w] == first for w in r.winners))
        means: dict[str, list[float]] = defaultdict(list)
        wins: dict[str, float] = defaultdict(float)
        for r in recs:
            for s, k in enumerate(r.kinds):
                means[k].append(r.scores[s])
                wins[k] += win_share(r, s)
        out.append({"cell": cell.name, "kinds": list(dict.fromkeys(cell.kinds)), "games": len(recs),
                    "crowned": crowned, "crown_rate": crowned / n, "crown_interval": wilson(crowned, len(recs)),
                    "among": among, "among_rate": among / n, "among_interval": wilson(among, len(recs)),
                    "mean": {k: sum(v) / len(v) for k, v in means.items()},
                    "seat_win_rate": {k: wins[k] / len(means[k]) for k in means},
                    "errors": len(results[cell]) - len(recs)})
    return out


def targets(results: dict[Cell, list[GameRecord]], kinds: list[str],
            ladders: dict[str, list[KindRow]] | None = None) -> list[tuple[str, bool]]:
    """The issue's targets that ``results`` can show, each ``(text, met)``; ``ladders``: each
    game's :func:`ladder` where the caller has it already (its ratings are the costly part)."""
    out: list[tuple[str, bool]] = []
    games = sorted({c.game for c in results}, key=lambda g: GAMES.index(g) if g in GAMES else 9)
    for game in games:
        cellmap = {c["cell"]: c for c in cell_rows(results, game)}
        pairs = {(p["a"], p["b"]): p for p in pair_rows(results, game)}

        def pair_rate(a: str, b: str) -> tuple[float, int] | None:
            if (a, b) in pairs:
                return pairs[(a, b)]["rate"], pairs[(a, b)]["games"]
            if (b, a) in pairs:
                p = pairs[(b, a)]
                return (p["wins_b"] / p["games"] if p["games"] else 0.0), p["games"]
            return None

        if game == "noggin":
            for n in (2, 3, 4):
                c = cellmap.get(f"expert x{n}")
                if c:
                    out.append((f"noggin, expert x{n}: Noggin crowned {c['crowned']}/{c['games']} "
                                f"({100 * c['crown_rate']:.0f} %, >= 85 %)", c["crown_rate"] >= 0.85 and c["games"] > 0))
            c = cellmap.get("expert + scripted x2")
            if c:
                out.append((f"noggin, expert + scripted x2: crowned {c['crowned']}/{c['games']} "
                            f"({100 * c['crown_rate']:.0f} %, >= 85 %), expert among the winners {c['among']}/"
                            f"{c['games']} ({100 * c['among_rate']:.0f} %, >= 45 %)",
                            c["games"] > 0 and c["crown_rate"] >= 0.85 and c["among_rate"] >= 0.45))
        if game == "gnomes":
            c = cellmap.get("expert x3")
            if c:
                m = c["mean"].get("expert", 0.0)
                out.append((f"gnomes, expert x3: {m:.1f} points a seat (>= 15)", m >= 15 and c["games"] > 0))
            c = cellmap.get("expert + scripted x2")
            if c:
                me, ms = c["mean"].get("expert", 0.0), c["mean"].get("scripted", 0.0)
                we, ws = c["seat_win_rate"].get("expert", 0.0), c["seat_win_rate"].get("scripted", 0.0)
                out.append((f"gnomes, expert + scripted x2: expert {me:.1f} points and wins {100 * we:.0f} % of its "
                            f"games, a scripted seat {ms:.1f} and {100 * ws:.0f} % (expert above on both)",
                            me > ms and we > ws))
            pr = pair_rate("expert", "scripted")
            if pr is not None:
                p = pairs.get(("scripted", "expert")) or pairs.get(("expert", "scripted"))
                se = p["score_b"] if p["b"] == "expert" else p["score_a"]
                ss = p["score_a"] if p["b"] == "expert" else p["score_b"]
                out.append((f"gnomes, expert against scripted at 2 seats: wins {100 * pr[0]:.0f} % of {pr[1]}, "
                            f"{se:.1f} points against {ss:.1f} (expert above on both)", pr[0] > 0.5 and se > ss))
        if game == "resource_hog":
            for other, need in (("scripted", 0.65), ("greedy", 0.75), ("ismcts", 0.75)):
                pr = pair_rate("expert", other)
                if pr is not None:
                    out.append((f"resource_hog, expert against {other} at 2 seats: wins {100 * pr[0]:.0f} % "
                                f"of {pr[1]} (>= {100 * need:.0f} %)", pr[0] >= need and pr[1] > 0))
        rows = {r.kind: r for r in (ladders or {}).get(game) or ladder(results, game, kinds)}
        chain = [k for k in LADDER if k in rows]
        if len(chain) > 1:
            ok = all(rows[hi].mu - rows[hi].sigma > rows[lo].mu + rows[lo].sigma for hi, lo in zip(chain, chain[1:]))
            text = " > ".join(f"{k} {rows[k].mu:.1f}±{rows[k].sigma:.1f}" for k in chain)
            out.append((f"{game}, the ladder is strict with +/- 1 sigma apart: {text}", ok))
        if "expert" in rows:
            cpu = rows["expert"].cpu_ms
            out.append((f"{game}, expert CPU a decision: {cpu:.1f} ms (<= {CPU_LIMIT_MS:.0f})", cpu <= CPU_LIMIT_MS))
        errors = sum(1 for cell, recs in results.items() if cell.game == game for r in recs if r.error)
        out.append((f"{game}, games that failed: {errors}", errors == 0))
    return out


# -- the report -----------------------------------------------------------------------------

def markdown(command: str, results: dict[Cell, list[GameRecord]], kinds: list[str], games: int,
             iterations: dict[str, dict[str, int]], elapsed: float | None, workers: int) -> str:
    """The :data:`SECTION` of ``docs/benchmarks.md`` (``iterations``: each game's search budgets;
    ``elapsed`` ``None``: made from saved records)."""
    how = "from saved records" if elapsed is None else f"{workers} worker processes, {elapsed:.0f} s"

    def produced(game: str) -> str:
        budgets = ", ".join(f"{k} {v}" for k, v in sorted(iterations.get(game, {}).items())) or "each bot's default"
        return (f"Produced by `{command}` on {time.strftime('%Y-%m-%d')} ({platform.python_implementation()} "
                f"{platform.python_version()}, {platform.machine()}, {how}): {games} games a cell, search "
                f"budgets: {budgets}.")
    about = ("Games on the forward model, every seed derived from the ladder's (each game's games a cell and "
             "search budgets under its heading). The round robin is 2-seat games of every pair of kinds, seats "
             "alternated; a kind's "
             f"rating is OpenSkill's Plackett-Luce (mu, sigma) over the round robin's games, without drift (tau "
             f"{TAU:g}: a bot's skill does not change), the mean over {ORDERS} orders of the games (the games by "
             "their seeds and seeded shuffles: rated one after another, mu follows the last games); 'order' is the "
             "standard deviation of mu over those orders (one order's; the mean's own is about that over "
             f"{ORDERS ** 0.5:.1f}). A "
             "game's winners share its win; a game nobody won (Noggin: Nogbad took the crown) is nobody's win "
             "and ranks every seat last together. CPU: the deciding process's CPU time per decision (all "
             "decisions; with a choice: per decision among more than one legal move). Intervals are 95 % "
             "Wilson intervals.")
    out = [SECTION, "", about]
    for game in sorted({c.game for c in results}, key=lambda g: GAMES.index(g) if g in GAMES else 9):
        out += ["", f"### {game}", "", produced(game), "", "| kind | mu | sigma | order | games | win rate | mean score | "
                "CPU ms/decision | CPU ms/decision with a choice |", "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
        kind_rows = ladder(results, game, kinds)
        for r in kind_rows:
            rate = r.wins / r.games if r.games else 0.0
            out.append(f"| {r.kind} | {r.mu:.1f} | {r.sigma:.1f} | {r.spread:.1f} | {r.games} | {100 * rate:.0f} % | "
                       f"{r.mean_score:.1f} | {r.cpu_ms:.1f} | {r.choice_cpu_ms:.1f} |")
        out += ["", "| pair (a-b) | games | a wins | a's win rate (95 %) | b wins | mean score a / b |",
                "|---|---:|---:|---|---:|---|"]
        for p in pair_rows(results, game):
            out.append(f"| {p['cell']} | {p['games']} | {p['wins_a']:g} | {100 * p['rate']:.0f} % "
                       f"({100 * p['low']:.0f}-{100 * p['high']:.0f}) | {p['wins_b']:g} | "
                       f"{p['score_a']:.1f} / {p['score_b']:.1f} |")
        rows = cell_rows(results, game)
        if rows:
            noggin = game == "noggin"  # the crown is Noggin's alone: no such column for the other games
            out += ["", "| cell | games | " + ("Noggin crowned (95 %) | " if noggin else "")
                    + "first kind among the winners (95 %) | mean score a seat | win rate a seat |",
                    "|---|---:|" + ("---|" if noggin else "") + "---|---|---|"]
            for c in rows:
                crown = (f"{c['crowned']} ({100 * c['crown_interval'][0]:.0f}-{100 * c['crown_interval'][1]:.0f} %) | "
                         if noggin else "")
                among = f"{c['among']} ({100 * c['among_interval'][0]:.0f}-{100 * c['among_interval'][1]:.0f} %)"
                means = ", ".join(f"{k} {v:.1f}" for k, v in c["mean"].items())
                wins = ", ".join(f"{k} {100 * v:.0f} %" for k, v in c["seat_win_rate"].items())
                out.append(f"| {c['cell']} | {c['games']} | {crown}{among} | {means} | {wins} |")
        mine = {c: recs for c, recs in results.items() if c.game == game}
        out += ["", "Targets (issue: bots that play every game well):", ""]
        out += [f"- {text}: {'met' if ok else 'not met'}" for text, ok in targets(mine, kinds, {game: kind_rows})]
    return "\n".join(out) + "\n"


def merged(old: str | None, new: str) -> str:
    """The ladder section ``new`` with the game subsections (``### <game>``) of the recorded
    section ``old`` that ``new`` does not hold kept, in :data:`GAMES` order: a run of some games
    updates only theirs."""
    def parts(text: str) -> tuple[str, dict[str, str]]:
        head, *games = text.split("\n### ")
        return head, {g.split("\n", 1)[0].strip(): "### " + g.rstrip("\n") + "\n" for g in games}

    head, fresh = parts(new)
    kept = parts(old)[1] if old else {}
    both = {**kept, **fresh}
    order = sorted(both, key=lambda g: GAMES.index(g) if g in GAMES else len(GAMES))
    return head.rstrip("\n") + "\n\n" + "\n".join(both[g] for g in order)


QUICK_ITERATIONS = {"ismcts": 4, "expert": 4}
"""The search budgets of ``--quick``, each no higher than the kind's default for the game
(:func:`quick_iterations`)."""


def quick_iterations(game: str) -> dict[str, int]:
    """:data:`QUICK_ITERATIONS` for ``game``: a kind whose default budget for the game is lower (an
    expert that plays its policy alone by default, as Resource Hog's) keeps its default, since a
    "small" budget would make it slower."""
    from services.bots.registry import game_module

    out = {}
    for kind, budget in QUICK_ITERATIONS.items():
        default = getattr(game_module(game, kind), "DEFAULT_ITERATIONS", None) if kind == "expert" else None
        if isinstance(default, int) and default < budget:
            continue
        out[kind] = budget
    return out


def parse_iterations(text: str) -> dict[str, int]:
    """``"expert=400,ismcts=60"`` -> ``{"expert": 400, "ismcts": 60}``.

    Raises:
        ValueError: a part is not ``<search kind>=<whole number>``.
    """
    out = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        kind, _, n = part.partition("=")
        if kind not in ("ismcts", "expert") or not n.isdigit() or int(n) < 1:
            raise ValueError(f"--iterations: {part!r} is not ismcts=N or expert=N")
        out[kind] = int(n)
    return out


def main(argv: list[str] | None = None) -> int:
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    parser = argparse.ArgumentParser(prog="make bench-bots", description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=30, help="games a cell (default 30)")
    parser.add_argument("--game", default=",".join(GAMES), help="games to rate, comma-separated (default all)")
    parser.add_argument("--kinds", default=",".join(BOT_KINDS), help="bot kinds in the round robin")
    parser.add_argument("--seed", default="ladder", help="the ladder's seed")
    parser.add_argument("--iterations", default="", help="search budgets, e.g. expert=400,ismcts=60")
    parser.add_argument("--workers", type=int, default=2, help="processes (default 2)")
    parser.add_argument("--quick", action="store_true",
                        help=f"2 games a cell, budgets {QUICK_ITERATIONS} or a game's lower default (shows it works; no claim)")
    parser.add_argument("--write", action="store_true", help="record the results in docs/benchmarks.md")
    parser.add_argument("--records", metavar="FILE", help="also write every game's record to FILE (JSON lines)")
    parser.add_argument("--from-records", metavar="FILE",
                        help="make the report from the records in FILE (written by --records) without playing")
    raw = list(sys.argv[1:] if argv is None else argv)
    args = parser.parse_args(raw)
    console = Console(width=200)
    try:
        explicit = parse_iterations(args.iterations)
    except ValueError as exc:
        console.print(str(exc))
        return 2
    games = 2 if args.quick and "--games" not in raw else args.games
    names = [g.strip() for g in args.game.split(",") if g.strip()]
    kinds = [k.strip() for k in args.kinds.split(",") if k.strip()]
    bad = [g for g in names if g not in GAMES] + [k for k in kinds if k not in BOT_KINDS]
    if bad or games < 1 or args.workers < 1:
        console.print(f"unknown game or bot kind: {', '.join(bad)}; games: {', '.join(GAMES)}; "
                      f"kinds: {', '.join(BOT_KINDS)}" if bad else "--games and --workers must be at least 1")
        return 2
    iterations = {g: {**(quick_iterations(g) if args.quick else {}), **explicit} for g in names}
    if args.from_records:
        ignored = [o for o in ("--records", "--games", "--seed", "--iterations", "--quick", "--workers")
                   if any(a == o or a.startswith(o + "=") for a in raw)]
        if ignored:
            console.print(f"--from-records plays nothing: {', '.join(ignored)} cannot be used with it")
            return 2
        try:
            results, iterations = load_records(args.from_records)
        except (OSError, ValueError) as exc:
            console.print(f"--from-records: {exc}")
            return 2
        results = {c: r for c, r in results.items() if c.game in names}
        if not results:
            console.print(f"--from-records: no games of {', '.join(names)} in {args.from_records}")
            return 2
        games = max(len(r) for r in results.values())
        if "--kinds" not in raw:  # the kinds that played, not every kind there is
            played = {k for c in results for k in c.kinds}
            kinds = [k for k in BOT_KINDS if k in played]
        elapsed: float | None = None
    else:
        if args.records:
            try:  # before any game is played: a run is not thrown away for a path that cannot be written
                with open(args.records, "a", encoding="utf-8"):
                    pass
            except OSError as exc:
                console.print(f"--records: {args.records} cannot be written ({exc.strerror or exc})")
                return 2
        t0 = time.monotonic()
        with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                      console=console, transient=True) as progress:
            results = run(names, kinds, games, args.seed, iterations, args.workers, progress)
        elapsed = time.monotonic() - t0
    command = "make bench-bots" + (f' ARGS="{" ".join(raw)}"' if raw else "")
    text = markdown(command, results, kinds, games, iterations, elapsed, args.workers)
    console.print(text, markup=False, highlight=False)
    if args.write:
        write_section(SECTION, merged(recorded_section(SECTION, DOC), text), DOC)
        console.print(f"written {DOC.relative_to(DOC.parents[1])}")
    if args.records:
        try:
            save_records(results, args.records, iterations)
            console.print(f"records written to {args.records}")
        except OSError as exc:
            console.print(f"--records: {args.records} could not be written ({exc.strerror or exc})")
            return 2
    failed = sum(1 for recs in results.values() for r in recs if r.error)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
