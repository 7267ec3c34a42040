"""The random bot: only legal moves, deterministic for a seed, retries a stale version.

These tests drive the bot through an in-process double of the gateway's move API over
an embedded :class:`Table`; the stack tests drive it through the real gateway.
"""

from __future__ import annotations

from typing import Any

import pytest

import tests.core_games.lap_race  # noqa: F401  (registers the test games)
import tests.core_games.sealed_bid  # noqa: F401
import tests.core_games.step_race  # noqa: F401
from services.bots.client import Conflict
from services.bots.players import make_bot
from services.bots.random_bot import RandomBot
from services.coordinator.table import StaleVersion, embedded_table
from services.rules.core import GameConfig, NotYourTurn
from services.tournament.seeds import derive_seed


class FakeGateway:
    """The bot-facing part of the gateway over an embedded table; records what it saw."""

    def __init__(self, game: str, players: int):
        self.table = embedded_table()
        self.game_id = self.table.create(GameConfig(game=game, players=players), seed="s")
        self.offered: list[list[dict[str, Any]]] = []
        self.played: list[tuple[int, dict[str, Any]]] = []
        self.stale_next = 0  # answer this many moves with 409 first

    def legal_moves(self, game_id: str, token: str) -> dict[str, Any]:
        rules, state, version = self.table.state(game_id)
        moves = rules.legal_moves(state, int(token))
        self.offered.append(moves)
        return {"version": version, "seat": int(token), "moves": moves}

    def move(self, game_id: str, token: str, move: dict[str, Any], expected_version: int,
             move_id: str | None = None, legal: bool = False) -> dict[str, Any]:
        if self.stale_next:
            self.stale_next -= 1
            raise Conflict(409, "stale_version", "the game moved on")
        try:
            result = self.table.play(game_id, int(token), move, expected_version, move_id)
        except (StaleVersion, NotYourTurn) as exc:
            raise Conflict(409, "conflict", str(exc)) from None
        self.played.append((int(token), move))
        rules, state, version = self.table.state(game_id)  # the gateway's "next" (gateway.lookup.decision)
        nxt = {"version": version, "status": "active", "to_move": rules.to_move(state)}
        if legal:
            nxt.update(seat=int(token), legal_moves=rules.legal_moves(state, int(token)))
        return {**result, "next": nxt}

    def summary(self) -> dict[str, Any]:
        return self.table.summary(self.game_id)


def play_out(game: str, players: int, seed: str, cap: int = 1000) -> FakeGateway:
    """Play a whole game between random bots seeded from ``seed``."""
    gw = FakeGateway(game, players)
    bots = [RandomBot(derive_seed(seed, "seat", s)) for s in range(players)]
    for _ in range(cap):
        summary = gw.summary()
        if summary["status"] == "over":
            return gw
        for seat in summary["to_move"]:
            bots[seat].play(gw, gw.game_id, str(seat))
    pytest.fail(f"{game} did not end within {cap} rounds")


@pytest.mark.parametrize("game", ["step_race", "sealed_bid", "lap_race"])
def test_random_bot_plays_only_legal_moves(game):
    gw = play_out(game, 3, "legal")
    assert gw.played
    offered = iter(gw.offered)
    for _seat, move in gw.played:
        choices = next(offered)
        while not choices:
            choices = next(offered)
        assert move in choices


@pytest.mark.parametrize("game", ["step_race", "sealed_bid", "lap_race"])
def test_random_bot_is_deterministic_for_a_seed(game):
    a, b = play_out(game, 3, "same"), play_out(game, 3, "same")
    assert a.played == b.played
    assert a.summary()["state_hash"] == b.summary()["state_hash"]


def test_different_seeds_give_different_games():
    games = {tuple(map(str, play_out("step_race", 3, f"seed{i}").played)) for i in range(5)}
    assert len(games) > 1


def test_choose_is_uniform_and_uses_its_own_generator():
    import random

    moves = [{"type": "advance", "steps": k} for k in (1, 2, 3)]
    random.seed(0)
    first = [RandomBot("x").choose(moves) for _ in range(1)]
    random.seed(99)  # the global generator does not matter
    assert [RandomBot("x").choose(moves) for _ in range(1)] == first
    bot = RandomBot("counts")
    counts = {k: 0 for k in (1, 2, 3)}
    for _ in range(3000):
        counts[bot.choose(moves)["steps"]] += 1
    assert all(800 < n < 1200 for n in counts.values()), counts
    with pytest.raises(ValueError):
        bot.choose([])


def test_bot_retries_a_stale_version_by_reading_again():
    gw = FakeGateway("step_race", 2)
    gw.stale_next = 2
    seat = gw.summary()["to_move"][0]
    result = RandomBot("r").play(gw, gw.game_id, str(seat))
    assert result is not None and result["version"] == 3
    assert len(gw.offered) == 3  # read, 409, read, 409, read, accepted


def test_a_bot_that_keeps_the_decision_plays_from_its_answer_without_reading_again():
    """One request a move: the answer's next holds the seat's legal moves, and the bot's next
    move starts from them (no GET of the legal moves); the game is the one read moves would give."""
    gw = FakeGateway("step_race", 2)
    seat = gw.summary()["to_move"][0]
    bot = RandomBot("keep")
    first = bot.play(gw, gw.game_id, str(seat))
    assert first is not None and first["next"]["version"] == first["version"]
    reads = []
    gw.legal_moves = lambda *a: reads.append(a) or pytest.fail("read the legal moves again")  # type: ignore
    known = {"version": gw.summary()["version"], "moves": [{"type": "advance", "steps": 1}]}
    other = 1 - seat
    result = bot.play(gw, gw.game_id, str(other), known=known)
    assert result is not None and result["move"] == {"type": "advance", "steps": 1} and not reads
    assert gw.played[-1] == (other, {"type": "advance", "steps": 1})


def test_bot_gives_up_after_bounded_conflicts():
    gw = FakeGateway("step_race", 2)
    gw.stale_next = 10
    seat = gw.summary()["to_move"][0]
    with pytest.raises(Conflict):
        RandomBot("r").play(gw, gw.game_id, str(seat), attempts=3)


def test_bot_without_a_decision_makes_no_move():
    gw = FakeGateway("step_race", 2)
    seat = gw.summary()["to_move"][0]
    assert RandomBot("r").play(gw, gw.game_id, str(1 - seat)) is None
    assert gw.played == []


def test_make_bot_knows_the_built_in_bots():
    assert isinstance(make_bot("random", "1"), RandomBot)
    with pytest.raises(ValueError, match="unknown bot"):
        make_bot("oracle", "1")
