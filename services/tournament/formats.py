"""Pairing formats of hosted tournaments: round robin, gauntlet and Swiss.

Pure functions: no Redis, no network. A plan is a list of :class:`MatchSpec` (who sits
where, which game, which seed); the orchestration plays each spec and records a
:class:`~services.tournament.standings.MatchResult` with the same ``index``.

Seat rotations: a pairing (a group of ``players`` participants) is played once per cyclic
shift of its seats, ``[a, b, c]``, ``[b, c, a]``, ``[c, a, b]``, so each participant takes
each seat once. Cyclic shifts keep the turn order around the table; they do not play
every permutation.

Seeds ("fixed seeds per pairing"): every rotation of one pairing, game and repetition
plays the same game seed (mirrored matches: each participant gets the same deal from
every seat). With :func:`~services.tournament.seeds.derive_seed`:

* round robin: ``derive_seed(seed, "round_robin", pairing, game, repetition)``;
* gauntlet: ``derive_seed(seed, "gauntlet", pairing, game, repetition)``;
* Swiss: ``derive_seed(seed, "swiss", round, pairing, game)`` (one match per pairing).

Byes (Swiss only): a :class:`MatchSpec` with ``bye=True`` and a single seat. It is not
played: record :func:`bye_result` for it, which the standings count as a win with no
score and no rating change.
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import combinations, permutations

from pydantic import BaseModel, Field

from .seeds import derive_seed
from .standings import BYE, MatchResult, win_shares

FORMATS = ("round_robin", "swiss", "gauntlet")
"""The formats :func:`plan` knows."""

SWISS_SEARCH_BUDGET = 50_000
"""Candidates the Swiss pairing search tries before it settles for the fewest repeats found so far."""

SWISS_SEARCH_FIELD = 240
"""Above this many players in a round the Swiss pairing is greedy only (the search recurses once
per participant)."""


class MatchSpec(BaseModel):
    """One planned match.

    ``(round, pairing)`` names the group of participants: in round robin and gauntlet
    (round 0) ``pairing`` numbers the groups of the whole plan, and the group's rotations,
    games and repetitions share it; in Swiss it numbers the groups within the round, byes
    after the matches.
    """

    index: int = Field(description="0-based, stable and unique in the tournament; the result's key")
    round: int = Field(description="0-based round; always 0 in round robin and gauntlet")
    pairing: int = Field(description="which group of participants (see the class docstring)")
    seats: list[str] = Field(description="participant name on each seat, seat 0 first")
    seed: str = Field(description="the game seed, shared by the rotations of one pairing, game and repetition")
    game: str = Field(description="game name, e.g. 'noggin'")
    repetition: int = Field(0, description="0-based repetition of the pairing and game (games_per_pairing)")
    rotation: int = Field(0, description="the cyclic shift of the pairing's seats (0: as grouped)")
    bye: bool = Field(False, description="Swiss: a bye, one seat, not played (record bye_result(spec))")


def bye_result(spec: MatchSpec) -> MatchResult:
    """The result to record for a bye spec: ``ended_by="bye"``, one seat, no score.

    Raises ``ValueError`` when ``spec`` is not a bye.
    """
    if not spec.bye:
        raise ValueError(f"match {spec.index} is not a bye")
    return MatchResult(index=spec.index, round=spec.round, game=spec.game, seats=list(spec.seats),
                       ended_by=BYE, pairing=spec.pairing, seed=spec.seed)


def _check_names(names: list[str], what: str) -> None:
    bad = [n for n in names if not isinstance(n, str) or not n.strip()]
    if bad:
        raise ValueError(f"{what} must be non-empty strings, not {bad}")
    dupes = sorted({n for n in names if names.count(n) > 1})
    if dupes:
        raise ValueError(f"duplicate {what}: {dupes}")


def _check(participants: list[str], players: int, games: list[str], games_per_pairing: int = 1) -> None:
    """Raise ``ValueError`` for an entry no format can plan."""
    if isinstance(players, bool) or not isinstance(players, int) or players < 2:
        raise ValueError(f"a game needs at least 2 players, not {players!r}")
    _check_names(participants, "participant names")
    if len(participants) < players:
        raise ValueError(f"{len(participants)} participant(s) cannot fill a {players}-player game")
    if not games:
        raise ValueError("name at least one game")
    _check_names(games, "game names (repeat a game with games_per_pairing)")
    if isinstance(games_per_pairing, bool) or not isinstance(games_per_pairing, int) or games_per_pairing < 1:
        raise ValueError(f"games_per_pairing must be at least 1, not {games_per_pairing!r}")


def rotations(group: list[str]) -> list[list[str]]:
    """Every cyclic shift of ``group``: ``[a, b, c]`` -> ``[[a, b, c], [b, c, a], [c, a, b]]``."""
    return [group[r:] + group[:r] for r in range(len(group))]


def _rotated(groups: Iterable[list[str]], fmt: str, seed: str, games: list[str],
             games_per_pairing: int) -> list[MatchSpec]:
    """Every rotation of every group, for each game and repetition, indexed in that order."""
    specs: list[MatchSpec] = []
    for pairing, group in enumerate(groups):
        for game in games:
            for rep in range(games_per_pairing):
                game_seed = derive_seed(seed, fmt, pairing, game, rep)
                for rot, seats in enumerate(rotations(group)):
                    specs.append(MatchSpec(index=len(specs), round=0, pairing=pairing, seats=seats, seed=game_seed,
                                           game=game, repetition=rep, rotation=rot))
    return specs


def plan_round_robin(participants: list[str], players: int, seed: str, games: list[str],
                     games_per_pairing: int = 1) -> list[MatchSpec]:
    """Every group of ``players`` participants, in every seat rotation, for each game and repetition.

    Groups are ``itertools.combinations(participants, players)`` in order. Size:
    ``C(n, players) * players * len(games) * games_per_pairing`` (5 participants, 2
    players, 1 game: 20). Every participant sits on every seat equally often.

    Raises ``ValueError``: players < 2, fewer participants than players, duplicate or empty
    names, no games, games_per_pairing < 1.
    """
    _check(participants, players, games, games_per_pairing)
    groups = (list(g) for g in combinations(participants, players))
    return _rotated(groups, "round_robin", seed, games, games_per_pairing)


def plan_gauntlet(challengers: list[str], field: list[str], players: int, seed: str, games: list[str],
                  games_per_pairing: int = 1) -> list[MatchSpec]:
    """Each challenger against each group of ``players - 1`` from ``field``, in every seat rotation.

    Groups are ``[challenger, *others]`` for each challenger in order and each
    ``combinations(field, players - 1)``. Size: ``len(challengers) * C(len(field),
    players - 1) * players * len(games) * games_per_pairing``. Challengers never meet
    each other; each challenger sits on every seat equally often.

    Raises ``ValueError``: as :func:`plan_round_robin`, and no challenger, a field smaller
    than ``players - 1``, or a name both challenger and in the field.
    """
    if not challengers:
        raise ValueError("a gauntlet needs at least one challenger")
    both = sorted(set(challengers) & set(field))
    if both:
        raise ValueError(f"{both} are both challengers and in the field")
    _check(list(challengers) + list(field), players, games, games_per_pairing)
    if len(field) < players - 1:
        raise ValueError(f"a field of {len(field)} cannot fill the {players - 1} other seat(s) of a "
                         f"{players}-player game")
    groups = ([c, *others] for c in challengers for others in combinations(field, players - 1))
    return _rotated(groups, "gauntlet", seed, games, games_per_pairing)


def swiss_rounds(n_participants: int) -> int:
    """The default number of Swiss rounds: ``ceil(log2(n))`` (0 for fewer than 2)."""
    return (n_participants - 1).bit_length() if n_participants >= 2 else 0


class SwissHistory(BaseModel):
    """What earlier rounds say, as :func:`pair_swiss` uses it.

    ``points``: win shares (a win 1, a shared win ``1/k``, a bye 1; failed matches 0);
    ``met``: how often each pair (sorted names joined by a tab) shared a match;
    ``seat_counts``: per participant, how often on each seat; ``byes`` per participant.
    Every recorded match except byes counts as met and as seated, failed ones included
    (they were paired).
    """

    points: dict[str, float]
    met: dict[str, int]
    seat_counts: dict[str, list[int]]
    byes: dict[str, int]


def _pair_key(a: str, b: str) -> str:
    return "\t".join(sorted((a, b)))


def swiss_history(participants: list[str], players: int, results: list[MatchResult]) -> SwissHistory:
    """Points, meetings, seats and byes of ``participants`` in ``results``.

    Raises ``ValueError`` when a result names someone who is not a participant.
    """
    known = set(participants)
    points = {p: 0.0 for p in participants}
    met: dict[str, int] = {}
    seat_counts = {p: [0] * players for p in participants}
    byes = {p: 0 for p in participants}
    for r in results:
        strangers = [p for p in r.seats if p not in known]
        if strangers:
            raise ValueError(f"match {r.index}: {strangers} are not participants")
        for name, share in zip(r.seats, win_shares(r)):
            points[name] += share
        if r.bye:
            byes[r.seats[0]] += 1
            continue
        for seat, name in enumerate(r.seats):
            counts = seat_counts[name]
            while len(counts) <= seat:
                counts.append(0)
            counts[seat] += 1
        for a, b in combinations(r.seats, 2):
            met[_pair_key(a, b)] = met.get(_pair_key(a, b), 0) + 1
    return SwissHistory(points=points, met=met, seat_counts=seat_counts, byes=byes)


def _group(order: list[str], k: int, met: dict[str, int], budget: int = SWISS_SEARCH_BUDGET) -> list[list[str]]:
    """Split ``order`` (best first; ``len`` a multiple of ``k``) into groups of ``k`` with the
    fewest repeated meetings (a pair that met ``m`` times costs ``m``).

    Depth-first, one member at a time: a group starts with the best-placed participant
    still free and takes, seat after seat, whoever adds the fewest meetings with the
    members so far, the best placed first among equals; so the first plan tried is the
    greedy one (neighbours in the order when nothing repeats), and backtracking looks for
    cheaper plans. Each set of groups is tried once (a candidate already tried for a group
    is not taken again into it further down). The search stops at a plan without repeats,
    or after ``budget`` candidates tried, with the cheapest plan found. Fields larger than
    :data:`SWISS_SEARCH_FIELD` get the greedy plan only (:func:`_greedy_groups`).
    """
    if len(order) > SWISS_SEARCH_FIELD:
        return _greedy_groups(order, k, met)
    best_cost: int | None = None
    best: list[list[str]] = []
    groups: list[list[str]] = []
    tried = 0

    def search(free: list[str], group: list[str], cost: int, banned: frozenset[str]) -> bool:
        """Extend ``group`` from ``free`` (in place order); True: stop searching."""
        nonlocal best_cost, best, tried
        if len(group) == k:
            groups.append(group)
            stop = search(free, [], cost, frozenset())
            groups.pop()
            return stop
        if not group:
            if not free:
                best_cost, best = cost, [list(g) for g in groups]
                return cost == 0
            return search(free[1:], [free[0]], cost, frozenset())
        ranked = sorted((sum(met.get(_pair_key(c, g), 0) for g in group), i)
                        for i, c in enumerate(free) if c not in banned)
        passed: list[str] = []
        for added, i in ranked:
            if best_cost is not None and (tried >= budget or cost + added >= best_cost):
                return tried >= budget
            tried += 1
            c = free[i]
            if search(free[:i] + free[i + 1:], [*group, c], cost + added, banned | frozenset(passed)):
                return True
            passed.append(c)
        return False

    search(list(order), [], 0, frozenset())
    return best


def _greedy_groups(order: list[str], k: int, met: dict[str, int]) -> list[list[str]]:
    """The first plan :func:`_group` tries, without backtracking: the best-placed free
    participant, then whoever adds the fewest meetings, the best placed among equals."""
    free, groups = list(order), []
    while free:
        group = [free.pop(0)]
        while len(group) < k:
            i = min(range(len(free)), key=lambda j: (sum(met.get(_pair_key(free[j], g), 0) for g in group), j))
            group.append(free.pop(i))
        groups.append(group)
    return groups


def _seat_order(group: list[str], seat_counts: dict[str, list[int]]) -> list[str]:
    """Seats for ``group`` (best placed first): seat 0 to whoever had it least, then seat 1
    likewise, and so on (the lexicographically smallest counts; ties keep the group's order)."""

    def counts(name: str, seat: int) -> int:
        c = seat_counts.get(name, [])
        return c[seat] if seat < len(c) else 0

    if len(group) <= 6:
        return list(min(permutations(group), key=lambda perm: [counts(p, s) for s, p in enumerate(perm)]))
    free, seats = list(group), []
    for seat in range(len(group)):
        pick = min(free, key=lambda p: counts(p, seat))
        free.remove(pick)
        seats.append(pick)
    return seats


def swiss_order(participants: list[str], round: int, seed: str, points: dict[str, float]) -> list[str]:
    """Participants best first: by points, then by the seeded tie-break
    ``derive_seed(seed, "swiss", round, "tiebreak", name)`` (a fresh draw each round)."""
    return sorted(participants, key=lambda p: (-points.get(p, 0.0), derive_seed(seed, "swiss", round, "tiebreak", p)))


def pair_swiss(participants: list[str], players: int, round: int, seed: str, games: list[str],
               results: list[MatchResult], start_index: int) -> list[MatchSpec]:
    """The matches of Swiss round ``round`` after ``results`` (every earlier result).

    Order: :func:`swiss_order` (points, then a seeded tie-break). Byes: when ``players``
    does not divide the field, ``n % players`` participants get a bye: the lowest placed
    among those with the fewest byes so far (so nobody has a second bye while someone has
    none). The rest are grouped ``players`` at a time by :func:`_group`: neighbours in the
    order, avoiding pairs that already met whenever a plan without repeats is found.
    Seats: :func:`_seat_order`. Game: ``games[round % len(games)]``. Seed:
    ``derive_seed(seed, "swiss", round, pairing, game)``.

    Returns the matches (indexes ``start_index``, ``start_index + 1``, ... in pairing
    order), then the byes as ``bye=True`` specs with one seat (see :func:`bye_result`).

    Raises ``ValueError``: as :func:`plan_round_robin`, a negative round or start index,
    results naming non-participants.
    """
    _check(participants, players, games)
    if round < 0 or start_index < 0:
        raise ValueError(f"round and start_index must be >= 0, not {round} and {start_index}")
    hist = swiss_history(participants, players, results)
    order = swiss_order(participants, round, seed, hist.points)
    n_byes = len(order) % players
    place = {p: i for i, p in enumerate(order)}
    byes = sorted(order, key=lambda p: (hist.byes[p], -place[p]))[:n_byes]
    byes.sort(key=place.__getitem__)
    playing = [p for p in order if p not in byes]
    game = games[round % len(games)]
    specs: list[MatchSpec] = []
    for pairing, group in enumerate(_group(playing, players, hist.met)):
        specs.append(MatchSpec(index=start_index + len(specs), round=round, pairing=pairing,
                               seats=_seat_order(group, hist.seat_counts),
                               seed=derive_seed(seed, "swiss", round, pairing, game), game=game))
    for name in byes:
        pairing = len(specs)
        specs.append(MatchSpec(index=start_index + pairing, round=round, pairing=pairing, seats=[name],
                               seed=derive_seed(seed, "swiss", round, pairing, game), game=game, bye=True))
    return specs


def plan(format: str, participants: list[str], players: int, seed: str, games: list[str],
         games_per_pairing: int = 1, challengers: list[str] | None = None) -> list[MatchSpec]:
    """Plan a tournament of ``format`` (``"round_robin"``, ``"swiss"`` or ``"gauntlet"``).

    * round robin: :func:`plan_round_robin` of ``participants``;
    * gauntlet: ``challengers`` (a non-empty subset of ``participants``) against the rest
      of ``participants`` (the field): :func:`plan_gauntlet`;
    * Swiss: round 0 only (:func:`pair_swiss` with no results, from index 0); later rounds
      come from :func:`pair_swiss` once the earlier results are in.

    Raises ``ValueError``: an unknown format; as :func:`plan_round_robin`; challengers for
    another format than gauntlet, none for a gauntlet, or not among the participants;
    ``games_per_pairing`` other than 1 for Swiss (one game per round).
    """
    if format not in FORMATS:
        raise ValueError(f"unknown tournament format {format!r}; one of {', '.join(FORMATS)}")
    _check(participants, players, games, games_per_pairing)
    if format != "gauntlet" and challengers is not None:
        raise ValueError(f"challengers are for a gauntlet, not {format}")
    if format == "round_robin":
        return plan_round_robin(participants, players, seed, games, games_per_pairing)
    if format == "swiss":
        if games_per_pairing != 1:
            raise ValueError("Swiss plays one game per pairing and round (games_per_pairing 1)")
        return pair_swiss(participants, players, 0, seed, games, [], 0)
    if not challengers:
        raise ValueError("a gauntlet needs challengers (a non-empty subset of the participants)")
    strangers = [c for c in challengers if c not in participants]
    if strangers:
        raise ValueError(f"challengers {strangers} are not participants")
    field = [p for p in participants if p not in set(challengers)]
    return plan_gauntlet(list(challengers), field, players, seed, games, games_per_pairing)
