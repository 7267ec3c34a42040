"""The cover of a seeded batch (:func:`services.bots.batch.cover`): the games ``make test`` plays
instead of the whole batch must see everything the whole batch saw."""

from services.bots.batch import cover, totals


def _game(index, players, counts, options=()):
    return {"index": index, "players": players, "counts": dict.fromkeys(counts, 1), "options": list(options)}


def test_the_cover_sees_every_part_and_player_count_of_the_batch_with_few_games():
    games = [_game(0, 2, ["action:a"]), _game(1, 3, ["action:a", "action:b", "event:X"]),
             _game(2, 3, ["action:c"], ["v"]), _game(3, 4, ["action:a", "leak:e"]), _game(4, 3, ["action:b"])]
    chosen = cover(games)
    assert chosen == [0, 1, 2, 3]  # 4 adds nothing; 0 and 3 bring their player counts
    picked = [g for g in games if g["index"] in chosen]
    assert {k for k in totals(picked)} >= {k for k in totals(games) if not k.startswith("leak:")}
    assert {g["players"] for g in picked} == {2, 3, 4}


def test_a_failed_game_is_never_part_of_the_cover():
    games = [_game(0, 2, ["action:a"]), {"index": 1, "players": 2, "error": "boom"}]
    assert cover(games) == [0]
    assert cover([]) == []
