"""Tournament reports, tables and standings show who took Noggin's crown (rulebook 9.0): when
Nogbad does, every player lost; the top score leads only in exile and is not a win."""

import pytest
from rich.console import Console

from services.tournament.display import games_table, standings_table, winner_text
from services.tournament.models import GameReport, SeatReport, TournamentReport
from services.tournament.runner import TournamentConfig, sides, standings


def _game(index, side, winners, exile, scores):
    return GameReport(index=index, game_id=f"g{index}", seed="s", ended_by="rules", moves=10,
                      seats=[SeatReport(seat=s, bot="random", seed="x") for s in range(3)],
                      final_scores=scores, winner=winners, winning_side=side, leader_in_exile=exile)


@pytest.mark.rules("noggin:9.0/outcome-shows-side", "noggin:9.0/nogbad-everyone-loses")
def test_nogbad_crowned_shows_no_winner_and_counts_exile_leads_apart_from_wins():
    games = [_game(0, "nogbad", [], [2], [5, 6, 20]), _game(1, "noggin", [1], [], [5, 30, 20])]
    assert winner_text(games[0]) == "Nogbad (exile 2)" and winner_text(games[1]) == "Noggin: 1"
    config = TournamentConfig(players=3, games=2)
    rows = standings(config, games)
    assert [(r.wins, r.exiled_leads) for r in rows] == [(0, 0), (1, 0), (0, 1)]
    assert sides(games) == {"nogbad": 1, "noggin": 1}
    report = TournamentReport(game="noggin", seed="s", players=3, games=games, standings=rows, sides=sides(games))
    console = Console(width=140, record=True)
    console.print(games_table(report))
    console.print(standings_table(report))
    text = console.export_text()
    assert "Nogbad (exile 2)" in text and "crown: Nogbad 1, Noggin 1" in text and "led in exile" in text
