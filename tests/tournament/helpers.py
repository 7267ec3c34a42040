"""Made-up results for the tournament tests: seats ranked by a fixed strength."""

from services.tournament.formats import MatchSpec, bye_result
from services.tournament.standings import MatchResult


def play(spec: MatchSpec, strength: dict[str, int]) -> MatchResult:
    """The result of ``spec`` when the stronger participant always scores more and wins
    (a bye gives its bye result)."""
    if spec.bye:
        return bye_result(spec)
    scores = [strength[p] for p in spec.seats]
    return MatchResult(index=spec.index, round=spec.round, game=spec.game, seats=spec.seats, scores=scores,
                       winners=[scores.index(max(scores))], strikes=[0] * len(spec.seats),
                       default_moves=[0] * len(spec.seats), moves=10, pairing=spec.pairing, seed=spec.seed)
