"""``make bench-people`` (services/bench/people.py): the median's interval and the report's rows."""

import math

from services.bench.people import rows
from services.bench.stats import median_interval


def test_the_medians_interval_is_conovers_order_statistics():
    """W. J. Conover, Practical Nonparametric Statistics (1999), 3.2: for 100 values the 95 %
    interval of the median runs from the 40th to the 61st smallest."""
    assert median_interval([float(v) for v in range(100, 0, -1)]) == (40.0, 61.0)
    assert median_interval([3.0, 1.0, 2.0]) == (1.0, 3.0)  # few values: the extremes
    low, high = median_interval([])
    assert math.isnan(low) and math.isnan(high)


def test_a_reports_rows_give_each_opponents_waits():
    report = {"waits": {"random": [0.5, 0.1, 2.0, 0.3], "search": []}, "kept": {"random": 7, "search": 2}}
    assert rows(report) == [["random", "4", "0.40 (0.10-2.00)", "2.00", "2.00", "7"],
                            ["search", "0", "", "", "", "2"]]


def test_the_games_of_fast_bots_are_replaced_as_they_end_and_every_move_counts():
    """``FastGames`` (``make bench-people --fast-games``): a game that ended is replaced by a new one
    with the next seed, and the moves so far are the ended games' and the current ones'."""
    from services.bench.people import FastGames

    class Client:  # a gateway whose games are at the moves and status set here
        def __init__(self):
            self.games: dict[str, dict] = {}
            self.seeds: list[str] = []

        def create_game(self, game, players, seed, bots):
            assert players == 2 and set(bots) == {"0", "1"} and bots["0"]["kind"] == "greedy"
            gid = f"g{len(self.games)}"
            self.games[gid] = {"moves": 0, "status": "active", "game": game}
            self.seeds.append(seed)
            return {"game_id": gid}

        def game(self, gid):
            return self.games[gid]

    client = Client()
    fast = FastGames(client, 2, "s")
    assert fast.ids == ["g0", "g1"] and [client.games[g]["game"] for g in fast.ids] == ["noggin", "gnomes"]
    client.games["g0"].update(moves=40)
    client.games["g1"].update(moves=300, status="over")
    assert fast.top_up() == 340
    assert fast.ids == ["g0", "g2"] and client.games["g2"]["game"] == "gnomes"
    assert len(set(client.seeds)) == 3  # the new game has a seed of its own
    client.games["g2"].update(moves=5)
    assert fast.top_up() == 345
