"""Standings of a hosted tournament: match results, ranks, ratings and the result files.

Pure functions: no Redis, no network. The orchestration records one :class:`MatchResult`
per planned match (see :mod:`.formats`) and calls :func:`compute` whenever it wants the
table; :func:`write_json`, :func:`write_csv` and :func:`plot_ratings` write
``standings.json``, ``standings.csv`` and ``ratings.png``.

How a result counts:

* ``ended_by`` ``"error"`` or ``"move cap"`` (:data:`FAILED_ENDINGS`): the match counts for
  nothing (no match played, no win, no rating change); its index is listed in
  :attr:`Standings.failed`.
* ``ended_by`` ``"bye"`` (one seat, :data:`BYE`): a match played and won, with no score
  and no rating change.
* anything else (``"rules"``, ``"forfeit"``, ...): a played match. Each winner gets a
  share ``1/k`` of the win (``k`` winners); the seats are ranked by :func:`ranks` and the
  ratings updated by the openskill Plackett-Luce model.

Ratings: openskill's ``PlackettLuce()`` with its defaults (``mu`` 25, ``sigma`` 25/3),
updated match by match in index order; the table is sorted by the conservative
``ordinal = mu - 3 sigma``.
"""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field, model_validator

FAILED_ENDINGS = frozenset({"error", "move cap"})
"""``ended_by`` values of matches that count for nothing (the game did not end by its rules)."""

BYE = "bye"
"""``ended_by`` of a bye: one seat, a win without a game and without a rating change."""

RATING_MODEL = {"library": "openskill", "model": "PlackettLuce", "mu": 25.0, "sigma": 25.0 / 3.0,
                "ordinal": "mu - 3 * sigma"}
"""The rating model's description, written into ``standings.json``."""


class MatchResult(BaseModel):
    """How one planned match ended, seat by seat (seat 0 first).

    ``seats`` names the participant on each seat. The per-seat lists (``scores``,
    ``strikes``, ``default_moves``) are either empty (unknown: a failed game, a bye) or
    have one entry per seat; ``winners`` and ``forfeited`` are seat numbers.

    Raises (pydantic ``ValidationError``, a ``ValueError``): a participant on two seats, a
    per-seat list of the wrong length, a seat number out of range or repeated, a seat both
    winner and forfeited, a bye with other than one seat, a played match with fewer than two.
    """

    index: int = Field(description="the match's index in the tournament plan")
    round: int = Field(0, description="0-based round (always 0 in round robin and gauntlet)")
    game: str
    seats: list[str] = Field(description="participant name on each seat, seat 0 first")
    game_id: str | None = None
    scores: list[int | float] = Field(default_factory=list, description="final score per seat")
    winners: list[int] = Field(default_factory=list, description="winning seats; empty: nobody won (e.g. "
                                                                  "Nogbad took Noggin's crown), then scores rank")
    forfeited: list[int] = Field(default_factory=list, description="seats that forfeited (ranked last)")
    strikes: list[int] = Field(default_factory=list, description="strikes per seat")
    default_moves: list[int] = Field(default_factory=list, description="moves made for a seat by default, per seat")
    moves: int = 0
    ended_by: str = Field("rules", description="'rules', 'forfeit', 'bye'; 'error' and 'move cap' are failures")
    state_hash: str | None = None
    pairing: int | None = Field(None, description="the plan's pairing number, when known")
    seed: str | None = Field(None, description="the game seed, when known")
    error: str | None = None

    @model_validator(mode="after")
    def _consistent(self) -> MatchResult:
        n = len(self.seats)
        if len(set(self.seats)) != n:
            raise ValueError(f"match {self.index}: a participant sits on two seats: {self.seats}")
        if self.ended_by == BYE and n != 1:
            raise ValueError(f"match {self.index}: a bye has one seat, not {n}")
        if self.ended_by != BYE and n < 2:
            raise ValueError(f"match {self.index}: a match needs at least two seats, not {n}")
        for name in ("scores", "strikes", "default_moves"):
            values = getattr(self, name)
            if values and len(values) != n:
                raise ValueError(f"match {self.index}: {name} has {len(values)} entries for {n} seats")
        for name in ("strikes", "default_moves"):
            if any(v < 0 for v in getattr(self, name)):
                raise ValueError(f"match {self.index}: {name} cannot be negative")
        for name in ("winners", "forfeited"):
            seats = getattr(self, name)
            if len(set(seats)) != len(seats) or any(not 0 <= s < n for s in seats):
                raise ValueError(f"match {self.index}: {name} {seats} are not distinct seats of 0..{n - 1}")
        if set(self.winners) & set(self.forfeited):
            raise ValueError(f"match {self.index}: seats {sorted(set(self.winners) & set(self.forfeited))} "
                             f"both won and forfeited")
        return self

    @property
    def failed(self) -> bool:
        """Whether the match counts for nothing (``ended_by`` in :data:`FAILED_ENDINGS`)."""
        return self.ended_by in FAILED_ENDINGS

    @property
    def bye(self) -> bool:
        """Whether this is a bye (``ended_by == "bye"``)."""
        return self.ended_by == BYE


def ranks(result: MatchResult) -> list[int]:
    """Each seat's place in ``result`` (1 = best), seat 0 first.

    Winners share place 1; then the seats that neither won nor forfeited, by score
    descending (all equal when there are no scores); forfeited seats last, equal among
    themselves. Equal seats share a place and the next place skips (``[1, 2, 2, 4]``).
    A bye: ``[1]``.
    """

    def key(seat: int) -> tuple[int, float]:  # smaller is better
        if seat in result.forfeited:
            return 2, 0.0
        if seat in result.winners:
            return 0, 0.0
        return 1, (-float(result.scores[seat]) if result.scores else 0.0)

    keys = [key(s) for s in range(len(result.seats))]
    return [1 + sum(1 for other in keys if other < mine) for mine in keys]


def win_shares(result: MatchResult) -> list[float]:
    """Each seat's share of the win: ``1/k`` for each of ``k`` winners, 1 for a bye, 0 for a
    failed match and for every seat when nobody won."""
    if result.failed:
        return [0.0] * len(result.seats)
    if result.bye:
        return [1.0]
    share = 1.0 / len(result.winners) if result.winners else 0.0
    return [share if s in result.winners else 0.0 for s in range(len(result.seats))]


class StandingRow(BaseModel):
    """One participant's line of the table (a row of ``standings.csv``).

    ``matches`` counts the matches that did not fail, byes included; ``wins`` is the sum
    of win shares (a bye is a whole win); ``win_rate = wins / matches``; ``average_score``
    is over the played matches (not byes) that reported scores.
    """

    rank: int = Field(description="place in the table, 1 = highest ordinal")
    name: str
    matches: int
    byes: int
    wins: float
    win_rate: float
    average_score: float
    strikes: int
    default_moves: int
    forfeits: int
    mu: float
    sigma: float
    ordinal: float = Field(description="mu - 3 sigma: the conservative rating the table is sorted by")


class HistoryPoint(BaseModel):
    """Everyone's rating after one rated match (``index`` ``None``: the start)."""

    index: int | None = Field(description="the match just rated; None for the starting ratings")
    ratings: dict[str, tuple[float, float]] = Field(description="participant -> (mu, sigma)")


class Standings(BaseModel):
    """The table, the rating history and the failed matches."""

    rows: list[StandingRow] = Field(description="sorted by ordinal, highest first")
    history: list[HistoryPoint] = Field(description="the starting ratings, then one point per rated match "
                                                    "(byes and failed matches change no rating and add no point)")
    failed: list[int] = Field(default_factory=list, description="indexes of the matches that counted for nothing")

    def row(self, name: str) -> StandingRow:
        """The row of participant ``name``. Raises ``KeyError`` for an unknown name."""
        for r in self.rows:
            if r.name == name:
                return r
        raise KeyError(name)


def _sorted_results(participants: list[str], results: list[MatchResult]) -> list[MatchResult]:
    """``results`` in index order, after checking names and indexes (``ValueError``)."""
    if len(set(participants)) != len(participants):
        dupes = sorted({p for p in participants if participants.count(p) > 1})
        raise ValueError(f"duplicate participant names: {dupes}")
    known = set(participants)
    seen: set[int] = set()
    for r in results:
        if r.index in seen:
            raise ValueError(f"two results for match {r.index}")
        seen.add(r.index)
        strangers = [p for p in r.seats if p not in known]
        if strangers:
            raise ValueError(f"match {r.index}: {strangers} are not participants")
    return sorted(results, key=lambda r: r.index)


def compute(participants: list[str], results: list[MatchResult]) -> Standings:
    """The standings of ``participants`` after ``results`` (in any order; applied by index).

    Returns :class:`Standings`: one row per participant (also those with no match yet),
    sorted by ordinal descending (then wins, then name); ``history`` for
    :func:`plot_ratings`; ``failed`` match indexes.

    Raises ``ValueError``: duplicate participant names, two results with one index, a
    seat held by someone who is not a participant.
    """
    from openskill.models import PlackettLuce

    ordered = _sorted_results(participants, results)
    model = PlackettLuce()
    ratings = {p: model.rating(name=p) for p in participants}
    tally: dict[str, dict[str, float]] = {
        p: {"matches": 0, "byes": 0, "wins": 0.0, "score_sum": 0.0, "scored": 0, "strikes": 0,
            "default_moves": 0, "forfeits": 0}
        for p in participants}

    def snapshot(index: int | None) -> HistoryPoint:
        return HistoryPoint(index=index, ratings={p: (r.mu, r.sigma) for p, r in ratings.items()})

    history = [snapshot(None)]
    failed: list[int] = []
    for r in ordered:
        if r.failed:
            failed.append(r.index)
            continue
        for seat, (name, share) in enumerate(zip(r.seats, win_shares(r))):
            t = tally[name]
            t["matches"] += 1
            t["wins"] += share
            if r.bye:
                t["byes"] += 1
                continue
            if r.scores:
                t["score_sum"] += r.scores[seat]
                t["scored"] += 1
            t["strikes"] += r.strikes[seat] if r.strikes else 0
            t["default_moves"] += r.default_moves[seat] if r.default_moves else 0
            t["forfeits"] += 1 if seat in r.forfeited else 0
        if r.bye:
            continue
        rated = model.rate([[ratings[name]] for name in r.seats], ranks=[float(x) for x in ranks(r)])
        for name, (rating,) in zip(r.seats, rated):
            ratings[name] = rating
        history.append(snapshot(r.index))

    rows = []
    for p in participants:
        t, rating = tally[p], ratings[p]
        rows.append(StandingRow(
            rank=0, name=p, matches=int(t["matches"]), byes=int(t["byes"]), wins=t["wins"],
            win_rate=t["wins"] / t["matches"] if t["matches"] else 0.0,
            average_score=t["score_sum"] / t["scored"] if t["scored"] else 0.0,
            strikes=int(t["strikes"]), default_moves=int(t["default_moves"]), forfeits=int(t["forfeits"]),
            mu=rating.mu, sigma=rating.sigma, ordinal=rating.ordinal()))
    rows.sort(key=lambda row: (-row.ordinal, -row.wins, row.name))
    for place, row in enumerate(rows, start=1):
        row.rank = place
    return Standings(rows=rows, history=history, failed=failed)


class StandingsFile(BaseModel):
    """The shape of ``standings.json``: the caller's tournament description, the rating
    model, the table, the failed match indexes and every match result in index order."""

    tournament: dict[str, Any]
    rating: dict[str, Any] = Field(default_factory=lambda: dict(RATING_MODEL))
    standings: list[StandingRow]
    failed: list[int] = Field(default_factory=list)
    matches: list[MatchResult]


def write_json(path: str | Path, standings: Standings, results: list[MatchResult], meta: dict[str, Any]) -> Path:
    """Write ``standings.json`` (:class:`StandingsFile`) to ``path`` (parents created).

    ``meta`` (format, games, seed, participants, ...) is written as ``"tournament"``, made
    JSON the way pydantic does it (paths and dates become strings; a value it cannot
    serialise raises ``pydantic_core.PydanticSerializationError``). Returns the path.
    """
    path = Path(path)
    doc = StandingsFile(tournament=meta, standings=standings.rows, failed=standings.failed,
                        matches=sorted(results, key=lambda r: r.index))
    body = doc.model_dump(mode="json")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(body, indent=2) + "\n")
    return path


def read_json(path: str | Path) -> StandingsFile:
    """Read a ``standings.json`` written by :func:`write_json`. Raises pydantic's
    ``ValidationError`` when the file does not have that shape."""
    return StandingsFile.model_validate_json(Path(path).read_text())


CSV_COLUMNS = list(StandingRow.model_fields)
"""The header of ``standings.csv``: :class:`StandingRow`'s fields in order."""


def write_csv(path: str | Path, standings: Standings) -> Path:
    """Write ``standings.csv``: a header (:data:`CSV_COLUMNS`) and one row per participant
    in table order; floats at full precision. Returns the path."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=CSV_COLUMNS)
        writer.writeheader()
        for row in standings.rows:
            writer.writerow(row.model_dump())
    return path


def read_csv(path: str | Path) -> list[StandingRow]:
    """Read the rows of a ``standings.csv`` written by :func:`write_csv`."""
    with Path(path).open(newline="") as f:
        return [StandingRow.model_validate(row) for row in csv.DictReader(f)]


def plot_ratings(path: str | Path, history: list[HistoryPoint], title: str | None = None) -> Path:
    """Write ``ratings.png``: each participant's mu after every rated match, with a ±sigma band.

    Uses matplotlib's Agg canvas directly (no pyplot, no display, no global backend
    change), so it works headless and in worker processes. Participants are those of the
    first point. Raises ``ValueError`` for an empty history. Returns the path.
    """
    if not history:
        raise ValueError("no rating history to plot")
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    names = list(history[0].ratings)
    fig = Figure(figsize=(10, 6), dpi=100)
    FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    xs = list(range(len(history)))
    for name in names:
        mu = [h.ratings[name][0] for h in history]
        sigma = [h.ratings[name][1] for h in history]
        (line,) = ax.plot(xs, mu, label=name, linewidth=1.5)
        ax.fill_between(xs, [m - s for m, s in zip(mu, sigma)], [m + s for m, s in zip(mu, sigma)],
                        color=line.get_color(), alpha=0.15, linewidth=0)
    ax.set_xlabel("rated matches (in match index order)")
    ax.set_ylabel("rating mu (band: mu ± sigma)")
    ax.set_title(title or "Ratings over the tournament (openskill Plackett-Luce)")
    ax.set_xlim(0, max(1, len(history) - 1))
    ax.grid(alpha=0.3)
    if names:
        ax.legend(loc="best", fontsize="small", ncol=1 + len(names) // 12)
    fig.tight_layout()
    fig.savefig(path, format="png")
    return path
