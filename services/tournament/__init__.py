"""Tournaments: whole games between bots through the gateway, with standings and a JSON report.

``run_tournament(url, TournamentConfig(...))`` plays; :mod:`.display` shows a progress bar
and the standings with rich; :mod:`.models` is the report's shape.
"""

from .models import GameReport, SeatReport, Standing, TournamentReport
from .runner import TournamentConfig, play_game, run_tournament
from .seeds import derive_seed

__all__ = ["GameReport", "SeatReport", "Standing", "TournamentConfig", "TournamentReport",
           "derive_seed", "play_game", "run_tournament"]
